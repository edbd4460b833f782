#!/bin/sh
# SPDX-License-Identifier: MIT
# exe.sh - segc.exe under Wine gives the same bytes as the Linux segc.
#
#   sh tests/windows/run.sh build/segc build/windows/segc.exe build exe
#
# Two twin directories get the same inputs (samples, golden error and rule
# cases, the hostile corpus, CRLF copies); every line of cases.txt runs in
# one with segc and in the other with segc.exe, all of segc.exe's runs in a
# single cmd.exe session (Wine starts slowly).  Standard output, standard
# error, exit status and every file written must be identical byte for
# byte.  Then what only Windows has: drive-letter and backslash paths with
# spaces in diagnostics and depfiles, UTF-8 file names, and a failed write
# leaving the old outputs as they were.
#
# Covered: lsp (initialize, shutdown, exit on standard input),
# build (all DDI forms, -MD -MF, --annotate, --emit-selftest, -v),
# check (-j threads, globs expanded by segc.exe with FindFirstFileW,
# --diagnostics=msvc/sarif, hostile input), dump --json, map, CRLF specs,
# atomic replace (MoveFileExW) and refused writes, colour on Wine's console
# (under script(1)) and none with NO_COLOR or when redirected, and the
# allocation classes' generated self-tests run as Windows x64 programs.  Not covered
# under Wine: Ctrl-C in the middle of a write (nothing can stall segc.exe's
# writes the way the LD_PRELOAD shim of tests/cases/hostile/disk.sh stalls
# segc's), read-only files (Wine runs as the Unix user, root here).
set -u
SEGC=${1:?usage: exe.sh SEGC SEGC_EXE BUILD_DIR}
EXE=${2:?usage: exe.sh SEGC SEGC_EXE BUILD_DIR}
B=${3:?usage: exe.sh SEGC SEGC_EXE BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2
. tests/lib.sh
suite_begin windows
SEGC=$(abspath "$SEGC")
EXE=$(abspath "$EXE")
W=$(abspath "$B/windows/test")
mkdir -p "$W"

export WINEPREFIX=${WINEPREFIX:-$W/../wine} WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=d"
mkdir -p "$WINEPREFIX"
wineserver -p 30 </dev/null >/dev/null 2>&1

# ---- the twins ------------------------------------------------------------
rm -rf "$W/lin" "$W/win"
for t in lin win; do
    d=$W/$t
    mkdir -p "$d/out/keep2/contoso_d8_segments.h" "$d/crlf" "$d/res"
    cp -r "$root/samples" "$d/samples"
    mkdir -p "$d/errors" "$d/rules" "$d/hostile"
    cp "$root"/tests/cases/errors/*.yaml "$d/errors/"
    cp "$root"/tests/cases/rules/*.yaml "$d/rules/"
    cp "$root"/tests/cases/hostile/*.yaml "$d/hostile/"
    for f in samples/discrete.yaml errors/many-errors.yaml errors/bad-kind.yaml; do
        sed 's/$/\r/' "$d/$f" > "$d/crlf/${f##*/}"
    done
    echo "not a directory" > "$d/out/afile"
    # segc lsp's input (case lsp-lifecycle): initialize, shutdown, exit.
    for body in '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}' \
                '{"jsonrpc":"2.0","method":"initialized","params":{}}' \
                '{"jsonrpc":"2.0","id":2,"method":"shutdown"}' '{"jsonrpc":"2.0","method":"exit"}'; do
        printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body"
    done > "$d/lsp-lifecycle.in"
done

# ---- Linux ------------------------------------------------------------------
grep -v '^#' "$here/cases.txt" | while read -r name args; do
    (cd "$W/lin" && eval "\"\$SEGC\" $args" > "res/$name.out" 2> "res/$name.err"; echo $? > "res/$name.rc")
done

# ---- Windows: one cmd.exe session for every run -------------------------------
# cmd.exe's 9009 is a program it could not start; under Wine on a loaded
# machine that happens now and then without segc.exe ever running (segc's
# own statuses are 0, 1 and 2), so such a run is started once more.
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
wexe=$(winpath "$EXE")
wdir=$(winpath "$W/win")
lwin=$W/win
{
    printf '@echo off\r\ncd /d %s\r\n' "$wdir"
    grep -v '^#' "$here/cases.txt" | while read -r name args; do
        run=$(printf '"%s" %s > res\\%s.out 2> res\\%s.err' "$wexe" "$args" "$name" "$name")
        printf '%s\r\nif errorlevel 9009 if not errorlevel 9010 %s\r\n>res\\%s.rc echo %%ERRORLEVEL%%\r\n' \
            "$run" "$run" "$name"
    done
    # Absolute drive-letter paths with backslashes and spaces.
    printf '"%s" build %s\\samples\\discrete_16g.yaml -o "%s\\out\\abs dir" -MD -MF "%s\\out\\abs dir\\x.d" > res\\abs.out 2> res\\abs.err\r\n' \
        "$wexe" "$wdir" "$wdir" "$wdir"
    printf '"%s" check --diagnostics=msvc "%s\\errors\\many-errors.yaml" > res\\absmsvc.out 2> res\\absmsvc.err\r\n' "$wexe" "$wdir"
} > "$W/run.bat"
(cd "$W" && wine cmd /c "$(winpath "$W/run.bat")" </dev/null >/dev/null 2>&1)
# UTF-8 names straight from the Unix command line (cmd.exe reads a batch
# file in the OEM code page).
for t in lin win; do
    mkdir -p "$W/$t/dir with spaces" && cp "$W/$t/samples/agp.yaml" "$W/$t/dir with spaces/carte-graphique-é✓.yaml"
done
(cd "$W/lin" && "$SEGC" build "dir with spaces/carte-graphique-é✓.yaml" -o "out/sortie é✓" \
    -MD -MF "out/sortie é✓/dép.d" > res/utf8.out 2> res/utf8.err; echo $? > res/utf8.rc)
(cd "$W/win" && wine "$EXE" build "dir with spaces/carte-graphique-é✓.yaml" -o "out/sortie é✓" \
    -MD -MF "out/sortie é✓/dép.d" > res/utf8.out 2> res/utf8.err; echo $? > res/utf8.rc)

# ---- compare ------------------------------------------------------------------
sed -i 's/[\r ]//g' "$lwin"/res/*.rc
# SARIF's base for relative paths is the directory segc ran in, each twin's
# own: file:///Z:/.../win/ under Wine (a drive letter, '/' separators), the
# Linux path of lin/ here.  Each is checked, then both are set aside for the
# byte comparison.
srcroot() { sed -n 's/^ *"SRCROOT": { *"uri": "\([^"]*\)".*/\1/p; /"SRCROOT"/{n;s/^ *"uri": "\([^"]*\)".*/\1/p}' "$1"; }
lin_root=$(srcroot "$W/lin/res/check-sarif.out")
win_root=$(srcroot "$lwin/res/check-sarif.out")
# (segc.exe spells a path in lower case, Windows' names being
# case-insensitive: the work directory may have capitals.)
lower() { printf '%s\n' "$1" | tr 'A-Z' 'a-z'; }
[ "$(lower "$win_root")" = "$(lower "file:///z:$W/win/")" ] && win_ok=yes || win_ok=
if [ "$lin_root" = "file://$W/lin/" ] && [ -n "$win_ok" ]; then
    ok "check-sarif: SRCROOT is the directory each segc ran in ($win_root under Wine)"
else
    bad "check-sarif" "SRCROOT $win_root under Wine, $lin_root on Linux"
fi
for f in "$W/lin/res/check-sarif.out" "$lwin/res/check-sarif.out"; do
    sed -i "s|\"uri\": \"$lin_root\"|\"uri\": \"@SRCROOT@\"|; s|\"uri\": \"$win_root\"|\"uri\": \"@SRCROOT@\"|" "$f"
done
for rc in "$W"/lin/res/*.rc; do
    name=$(basename "$rc" .rc)
    if ! cmp -s "$rc" "$lwin/res/$name.rc"; then
        bad "$name" "exit $(cat "$lwin/res/$name.rc" 2>/dev/null) under Wine, $(cat "$rc") on Linux"
        continue
    fi
    for s in out err; do
        case $name.$s in rc-*.err) continue ;; esac
        if cmp -s "$W/lin/res/$name.$s" "$lwin/res/$name.$s"; then
            ok "$name: same standard $s"
        else
            bad "$name" "standard $s differs"
            diff "$W/lin/res/$name.$s" "$lwin/res/$name.$s" | head -n 6 | sed 's/^/    /'
        fi
    done
done
# Every file written, byte for byte (the abs-path build is compared below).
if diff -r -x 'abs dir' "$W/lin/out" "$lwin/out" > "$W/out.diff"; then
    ok "every output file identical ($(find "$lwin/out" -type f | wc -l) files)"
else
    bad "outputs" "differ:"; head -n 20 "$W/out.diff" | sed 's/^/    /'
fi
# The failed builds changed nothing: keep/ is still the first build's.
for f in "$lwin"/out/keep/*; do
    cmp -s "$f" "$lwin/out/discrete/${f##*/}" || bad "failed write" "changed ${f##*/}"
done
[ "$(ls -A "$lwin/out/keep")" = "$(ls -A "$W/lin/out/keep")" ] &&
    [ "$(ls -A "$lwin/out/keep2")" = contoso_d8_segments.h ] &&
    ok "failed writes left the old outputs and no temporary file" ||
    bad "failed write" "files: $(ls -A "$lwin/out/keep" "$lwin/out/keep2")"
grep -q "cannot write 'out/keep2/contoso_d8_segments.h': it exists and is not a regular file" \
    "$lwin/res/rc-output-is-dir.err" && ok "an output that is a directory is refused" ||
    bad "output-is-dir" "$(cat "$lwin/res/rc-output-is-dir.err")"
# segc lsp on Windows' standard input and output (binary mode: a CR added
# to the header or the body would break the framing): the exit status of
# a shutdown before exit, and the two responses, framed and parsed.
# The messages are read by the LSP tests' client (tests/lsp/lsplib.py).
python3 - "$root/tests/lsp" "$lwin/res/lsp-lifecycle.out" "$(cat "$lwin/res/lsp-lifecycle.rc")" <<'PY' && ok "lsp: initialize and shutdown answered, exit status 0" || bad "lsp-lifecycle" "$(head -c 400 "$lwin/res/lsp-lifecycle.out")"
import sys
sys.path.insert(0, sys.argv[1])
import lsplib
rc = sys.argv[3]
init, down = lsplib.read_messages(sys.argv[2])
assert rc == '0', rc
assert init['id'] == 1 and init['result']['serverInfo']['name'] == 'segc', init
assert init['result']['capabilities']['textDocumentSync']['change'] == 2, init
assert down == {'jsonrpc': '2.0', 'id': 2, 'result': None}, down
PY
# CRLF: the same findings at the same columns, the same code as from LF.
sed 's/crlf\//errors\//' "$lwin/res/check-crlf.err" > "$W/crlf.err"
(cd "$W/lin" && "$SEGC" check --diagnostics=msvc errors/many-errors.yaml errors/bad-kind.yaml > /dev/null 2> "$W/lf.err")
cmp -s "$W/crlf.err" "$W/lf.err" && ok "CRLF spec: same diagnostics as LF" || bad "crlf" "$(diff "$W/lf.err" "$W/crlf.err" | head -n 4)"
(cd "$lwin" && for f in out/discrete/*.[ch]; do cmp -s "$f" "out/crlf/${f##*/}" || echo "${f##*/}"; done) > "$W/crlf.diff"
[ ! -s "$W/crlf.diff" ] && ok "CRLF spec: same generated code as LF" || bad "crlf build" "$(cat "$W/crlf.diff")"
# Drive letters, backslashes, spaces.
wprefix="Z:$lwin"
for f in "$lwin/out/abs dir"/*.[ch]; do
    cmp -s "$f" "$lwin/out/discrete_16g/${f##*/}" || bad "abs path build" "${f##*/} differs"
done
esc() { printf '%s' "$1" | sed 's/ /\\ /g'; }
want="$(esc "$wprefix/out/abs dir")/contoso_r16_segments.h"
grep -qF "$want" "$lwin/out/abs dir/x.d" && grep -qF "$(esc "$wprefix")/samples/chips/contoso_r.yaml" "$lwin/out/abs dir/x.d" &&
    ! grep -q '\\[^ ]' "$lwin/out/abs dir/x.d" && ok "depfile: drive letter, forward slashes, escaped spaces" ||
    bad "abs depfile" "$(cat "$lwin/out/abs dir/x.d")"
python3 "$root/tests/cases/formats/msvc.py" --lines "$lwin/res/absmsvc.err" > /dev/null &&
    grep -q "^$(winpath "$lwin" | sed 's/\\/\\\\/g')\\\\errors\\\\many-errors.yaml(8,11-13): error SEGC1006: " "$lwin/res/absmsvc.err" &&
    ok "msvc lines with a drive-letter path are canonical" || bad "abs msvc" "$(head -n 3 "$lwin/res/absmsvc.err")"
# Colour only on a console: under a pseudo-terminal Wine gives segc.exe a
# console, and --color=auto colours the "error:" label there, unless
# NO_COLOR is set; redirected (every run above) it never does.  Wine's
# console redraws each cell with cursor sequences of its own: those are
# taken out before looking for segc's.
if command -v script >/dev/null 2>&1; then
    console() { # OUT [ENV...]: segc.exe check on Wine's console
        out=$1
        shift
        (cd "$lwin" && env "$@" script -qec "wine \"$EXE\" check errors/bad-kind.yaml" /dev/null </dev/null |
            sed -e 's/\x1b\[?25[lh]//g' -e 's/\x1b\[K\x1b\[1C/ /g' | tr -d '\r\n' > "$out")
    }
    console "$W/console.txt"
    console "$W/console-nocolor.txt" NO_COLOR=1
    esc_c=$(printf '\033')
    grep -q "${esc_c}\[1;31merror:" "$W/console.txt" && grep -q "bad-kind.yaml:6:25:" "$W/console.txt" &&
        ok "on a console, --color=auto colours the diagnostics" ||
        bad "console colour" "$(cat -v "$W/console.txt" | head -c 300)"
    grep -q "bad-kind.yaml:6:25: *error:" "$W/console-nocolor.txt" && ! grep -q "${esc_c}\[1;31m" "$W/console-nocolor.txt" &&
        ok "on a console with NO_COLOR, no colour" ||
        bad "console NO_COLOR" "$(cat -v "$W/console-nocolor.txt" | head -c 300)"
else
    echo "skip console colour: script(1) is not installed"
fi

# The generated code on Windows itself: the allocation classes' self-tests
# (tests/gen/classes-*.yaml: every preference and bank slot, and a
# QuerySegment4 board) built by segc.exe, cross-compiled with
# x86_64-w64-mingw32-gcc and run under Wine, so FillAllocationInfo is run
# against the LLP64 DXGK_ALLOCATIONINFO a Windows x64 driver has.  (x86
# would need a 32-bit Wine; tests/gen/code.sh runs that layout with gcc
# -m32.)
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    for spec in classes-x86 classes-wddm2; do
        d=$W/cls/$spec
        rm -rf "$d"
        mkdir -p "$d"
        cp "$root/tests/gen/$spec.yaml" "$d/"
        board=$(sed -n 's/^board: { name: \([a-z0-9_]*\),.*/\1/p' "$d/$spec.yaml")
        if (cd "$d" && wine "$EXE" build -q --emit-selftest "$spec.yaml" -o out </dev/null >build.log 2>&1) &&
            x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Werror -pedantic -I"$d/out" "$d/out/${board}_selftest.c" \
                "$d/out/${board}_segments.c" -o "$d/st.exe" 2>"$d/cc.err" &&
            (cd "$d" && wine ./st.exe </dev/null >st.out 2>&1) &&
            grep -q "^${board}_selftest.c: ok: " "$d/st.out"; then
            ok "$spec: built by segc.exe, its self-test (a 0xA5-filled DXGK_ALLOCATIONINFO per class) passes as a Windows x64 program"
        else
            bad "$spec under Wine" "$(head -n 5 "$d/build.log" "$d/cc.err" "$d/st.out" 2>/dev/null)"
        fi
    done
else
    echo "skip the allocation class self-tests under Wine: x86_64-w64-mingw32-gcc is not installed"
fi
suite_end
