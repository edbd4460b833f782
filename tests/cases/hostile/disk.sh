#!/bin/sh
# SPDX-License-Identifier: MIT
# disk.sh - nothing lost: a build that cannot write leaves the previous
# outputs byte for byte (and mtime for mtime) as they were, and no
# temporary file (.NAME.segc-XXXXXX) behind; segc exits 2 naming the path
# and the reason.
#
#   SEGC=build/segc sh tests/cases/hostile/disk.sh   (a part of tests/cases/run.sh)
#
# Failures come from the machine where it allows (a full tmpfs and a
# read-only bind mount as root, chmod as anyone else) and always from an
# LD_PRELOAD shim (shim.c, compiled here) that fails write(), fsync() or
# mkstemp(), or stalls a write so the test can signal segc in the middle.
set -u
SEGC=${SEGC:?SEGC names the segc to test}
case $SEGC in /*) ;; *) SEGC=$(pwd)/$SEGC ;; esac
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin disk
mounts=""
suite_cleanup() { for m in $mounts; do umount "$m" 2>/dev/null; done; }
# A failure also shows the first lines segc wrote to standard error.
bad() { fail=$((fail + 1)); echo "FAIL $1${2:+: $2}"; indent 5 <"$tmp/err" 2>/dev/null; }

SHIM=$tmp/shim.so
${CC:-cc} -shared -fPIC -O1 -Wall -Wextra -Werror -o "$SHIM" tests/cases/hostile/shim.c -ldl || {
    bad "compile tests/cases/hostile/shim.c"; suite_end; }
# An ASan build of segc wants its runtime first; the shim comes first here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

SPEC=samples/discrete.yaml
NEW="-D vram=16GiB" # different bytes, so a build has to write

snap() { (cd "$1" && for f in $(ls -A | sort); do printf '%s ' "$f"; stat -c '%s %Y.%y' "$f" | tr '\n' ' '; cksum <"$f"; done); }
temps() { ls -A "$1" | grep '\.segc-' ; }

# baseline DIR: a good build in DIR, remembered in DIR.snap (outside DIR).
baseline() {
    mkdir -p "$1"
    "$SEGC" build -q "$SPEC" -o "$1" -MD -MF "$1/discrete.d" || { bad "baseline build into $1"; suite_end; }
    snap "$1" >"$1.snap"
}

# expect_kept NAME DIR RC WANT_RC MESSAGE_PATTERN
expect_kept() {
    name=$1 dir=$2 rc=$3 want_rc=$4 pat=$5
    if [ "$rc" -ne "$want_rc" ]; then
        bad "$name" "exit status $rc, expected $want_rc"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/err"; then
        bad "$name" "stderr does not say '$pat'"
    elif ! snap "$dir" | cmp -s - "$dir.snap"; then
        bad "$name" "previous outputs changed"
        snap "$dir" | diff "$dir.snap" - | head -n 6 | sed 's/^/    /'
    elif [ -n "$(temps "$dir")" ]; then
        bad "$name" "temporary files left: $(temps "$dir" | tr '\n' ' ')"
    else
        ok "$name"
    fi
}

out=$tmp/out
baseline "$out"

# ---- the depfile is not a regular file ------------------------------------
"$SEGC" build $NEW "$SPEC" -o "$out" -MD -MF /dev/full 2>"$tmp/err"
expect_kept "depfile /dev/full refused" "$out" $? 2 "'/dev/full': it exists and is not a regular file"
if ls -A /dev | grep -q '^\.full\.segc-'; then bad "no temporary in /dev" "found one"; else ok "no temporary in /dev"; fi

# ---- disk full -------------------------------------------------------------
full=$tmp/full
mkdir -p "$full"
if mount -t tmpfs -o size=128k tmpfs "$full" 2>/dev/null; then
    mounts="$mounts $full"
    baseline "$full/out"
    # Fill what is left, then ask for new bytes.
    dd if=/dev/zero of="$full/filler" bs=1k 2>/dev/null
    "$SEGC" build $NEW "$SPEC" -o "$full/out" -MD -MF "$full/out/discrete.d" 2>"$tmp/err"
    expect_kept "full tmpfs" "$full/out" $? 2 "No space left on device"
    grep -q "$full/out/" "$tmp/err" || bad "full tmpfs names the path" "$(head -n 1 "$tmp/err")"
else
    echo "skip full tmpfs (mount not permitted; the shim below covers ENOSPC)"
fi
# Only the .c file changes (3.7 KB): every budget here runs out inside it.
for n in 0 100 1000 3000; do
    SHIM_ENOSPC_AFTER=$n LD_PRELOAD=$SHIM "$SEGC" build $NEW "$SPEC" -o "$out" -MD -MF "$out/discrete.d" 2>"$tmp/err"
    expect_kept "ENOSPC after $n bytes" "$out" $? 2 "cannot write '$out/.*No space left on device"
done
SHIM_FSYNC_EIO=1 LD_PRELOAD=$SHIM "$SEGC" build $NEW "$SPEC" -o "$out" 2>"$tmp/err"
expect_kept "fsync EIO" "$out" $? 2 "Input/output error"
SHIM_WRITE_ZERO=1 LD_PRELOAD=$SHIM "$SEGC" build $NEW "$SPEC" -o "$out" 2>"$tmp/err"
expect_kept "write stores nothing" "$out" $? 2 "cannot write '$out/.*Input/output error"
SHIM_CLOSE_EIO=1 LD_PRELOAD=$SHIM "$SEGC" build $NEW "$SPEC" -o "$out" 2>"$tmp/err"
expect_kept "close EIO" "$out" $? 2 "cannot write '$out/.*Input/output error"
# An interrupted write is retried: the build is complete and the same as
# one without interruptions.
SHIM_WRITE_EINTR=1 LD_PRELOAD=$SHIM "$SEGC" build $NEW "$SPEC" -o "$tmp/eintr" 2>"$tmp/err"
rc=$?
"$SEGC" build $NEW "$SPEC" -o "$tmp/plain" 2>/dev/null
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && diff -r "$tmp/eintr" "$tmp/plain" >/dev/null; then
    ok "EINTR: the write is retried, the outputs are whole"
else
    bad "EINTR: the write is retried, the outputs are whole" "exit status $rc"
fi

# ---- read-only directory -----------------------------------------------------
ro=$tmp/ro
baseline "$ro"
if [ "$(id -u)" != 0 ]; then
    chmod 555 "$ro"
    "$SEGC" build $NEW "$SPEC" -o "$ro" 2>"$tmp/err"
    expect_kept "read-only directory (chmod 555)" "$ro" $? 2 "Permission denied"
    chmod 755 "$ro"
elif mount --bind "$ro" "$ro" 2>/dev/null && mounts="$mounts $ro" && mount -o remount,ro,bind "$ro" 2>/dev/null; then
    "$SEGC" build $NEW "$SPEC" -o "$ro" 2>"$tmp/err"
    expect_kept "read-only directory (ro bind mount)" "$ro" $? 2 "Read-only file system"
    umount "$ro"
else
    echo "skip read-only bind mount (not permitted; the shim below covers it)"
fi
SHIM_MKSTEMP_EROFS=1 LD_PRELOAD=$SHIM "$SEGC" build $NEW "$SPEC" -o "$out" 2>"$tmp/err"
expect_kept "read-only directory (shim)" "$out" $? 2 "cannot create a temporary file beside '$out/.*Read-only file system"

# ---- the output directory cannot be one ----------------------------------------
echo "not a directory" >"$tmp/afile"
cp "$tmp/afile" "$tmp/afile.orig"
"$SEGC" build "$SPEC" -o "$tmp/afile" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "'$tmp/afile' is not a directory" "$tmp/err" && cmp -s "$tmp/afile" "$tmp/afile.orig"; then
    ok "-o names a file"
else
    bad "-o names a file" "exit status $rc"
fi
"$SEGC" build "$SPEC" -o "$tmp/afile/sub" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "cannot create directory '$tmp/afile/sub': Not a directory" "$tmp/err"; then
    ok "-o under a file"
else
    bad "-o under a file" "exit status $rc"
fi
"$SEGC" build "$SPEC" -o /proc/segc-cannot-be-here 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "cannot create directory '/proc/segc-cannot-be-here'" "$tmp/err"; then
    ok "-o in /proc"
else
    bad "-o in /proc" "exit status $rc"
fi
mkdir "$out/segc_dxgk.h.d" 2>/dev/null
mkdir -p "$tmp/dirtarget/contoso_d8_segments.c"
"$SEGC" build "$SPEC" -o "$tmp/dirtarget" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "contoso_d8_segments.c': it exists and is not a regular file" "$tmp/err" &&
    [ -z "$(temps "$tmp/dirtarget")" ] && [ ! -e "$tmp/dirtarget/contoso_d8_segments.h" ]; then
    ok "an output name taken by a directory: nothing written"
else
    bad "an output name taken by a directory: nothing written" "exit status $rc; $(ls -A "$tmp/dirtarget" | tr '\n' ' ')"
fi
rmdir "$out/segc_dxgk.h.d"

# ---- an invalid spec touches nothing ---------------------------------------------
"$SEGC" build -D 'vram=0 - 1' "$SPEC" -o "$out" -MD -MF "$out/discrete.d" 2>"$tmp/err"
expect_kept "invalid -D: outputs untouched" "$out" $? 1 "expr-underflow"
head -n 30 "$SPEC" >"$tmp/truncated.yaml"
"$SEGC" build "$tmp/truncated.yaml" -o "$out" -MD -MF "$out/discrete.d" 2>"$tmp/err"
expect_kept "truncated spec: outputs untouched" "$out" $? 1 "missing-key"
"$SEGC" build -Werror=no-such-rule "$SPEC" -o "$out" 2>"$tmp/err"
expect_kept "usage error: outputs untouched" "$out" $? 2 "no rule named"

# ---- a signal in the middle of a write ------------------------------------------------
# sigtest NAME SIGNAL WANT_RC [ENV-ARGS...]: segc stalls half way through
# its first write (20 s, or 2 s when the signal will be ignored); the test
# signals it there.  WANT_RC 0: the signal is ignored, the build completes.
sigtest() {
    name=$1 sig=$2 want_rc=$3
    shift 3
    slow=20
    [ "$want_rc" -ne 0 ] || slow=2
    env "$@" SHIM_SLOW_WRITE=$slow LD_PRELOAD="$SHIM" "$SEGC" build $NEW "$SPEC" -o "$out" -MD -MF "$out/discrete.d" \
        2>"$tmp/err" &
    pid=$!
    i=0
    while [ -z "$(temps "$out")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    if [ -z "$(temps "$out")" ]; then
        kill -KILL $pid 2>/dev/null
        wait $pid
        bad "$name" "no temporary file appeared"
        return
    fi
    kill -s "$sig" $pid
    wait $pid
    rc=$?
    if [ "$want_rc" -ne 0 ]; then
        expect_kept "$name" "$out" $rc "$want_rc" ""
    elif [ $rc -eq 0 ] && ! snap "$out" | cmp -s - "$out.snap" && [ -z "$(temps "$out")" ]; then
        ok "$name"
        baseline "$out"
    else
        bad "$name" "exit status $rc"
    fi
}
sigtest "SIGTERM mid-write" TERM 143
sigtest "SIGINT mid-write" INT 130 SHIM_DEFAULT_SIGINT=1

# SIGHUP: segc stops like on SIGTERM, unless SIGHUP was ignored when it
# started (nohup, and runners that start the tests so): then it keeps it
# ignored and the build completes.  First what applies to the disposition
# these tests inherited, then both on purpose, whatever that was.
if awk '/^SigIgn:/ { exit !(substr($2, length($2)) ~ /[13579bdfBDF]/) }' /proc/self/status; then
    sigtest "SIGHUP mid-write (ignored on entry here): the build completes" HUP 0
else
    sigtest "SIGHUP mid-write (default here): outputs kept" HUP 129
fi
sigtest "SIGHUP mid-write, default disposition: outputs kept" HUP 129 --default-signal=HUP
sigtest "SIGHUP mid-write, ignored on entry: the build completes" HUP 0 --ignore-signal=HUP

# ---- and the same build, unhindered, does write --------------------------------------------
baseline "$tmp/fresh"
"$SEGC" build $NEW "$SPEC" -o "$tmp/fresh" -MD -MF "$tmp/fresh/discrete.d" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && ! snap "$tmp/fresh" | cmp -s - "$tmp/fresh.snap" && [ -z "$(temps "$tmp/fresh")" ]; then
    ok "the new spec does change the outputs"
else
    bad "the new spec does change the outputs" "exit status $rc"
fi

suite_end
