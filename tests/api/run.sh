#!/bin/sh
# SPDX-License-Identifier: MIT
# libsegc and the Python module, as programs outside the tree use them.
#
#   sh tests/api/run.sh BUILD_DIR      (make api)
#
#   1. libsegc.so exports only segc_* functions, each at version LIBSEGC_0,
#      and calls nothing that prints, exits or aborts (nm -D).
#   2. `make install` into a DESTDIR: tests/api/client.c built with
#      `pkg-config --cflags --libs libsegc` against the staged copy checks
#      and builds specs from memory as `segc check` and `segc build` do
#      (diagnostics, notes, fixes, files byte for byte, the model), reads
#      `extends:` from a callback, refuses an option segc would not take
#      there, and gets from several threads checking different specs at
#      once what it gets from one.
#   3. The Python module (tests/api/test_python.py): check, build and
#      model against the CLI on every tracked spec, and on threads.
#
# Prints `ok   WHAT` / `FAIL WHAT: WHY` per check, then `api: N passed, M failed`.
set -u
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin api
B=$(abspath "$B")
PY=${PYTHON:-/usr/bin/python3}
SEGC=$B/segc
clean_env() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES "$@"; }

# ---- 1. the symbols -------------------------------------------------------------

so=$B/libsegc.so.0
nm -D --defined-only "$so" | awk '{ print $3 }' >"$tmp/defined"
if grep -v -e '^segc_[a-z0-9_]*@@LIBSEGC_0$' -e '^LIBSEGC_0$' "$tmp/defined" >"$tmp/other"; then
    bad "libsegc.so exports only segc_*@@LIBSEGC_0" "$(indent <"$tmp/other")"
elif sed -n '/^typedef/d; s/^[a-z_ ]*[ *]\(segc_[a-z0-9_]*\)(.*/\1@@LIBSEGC_0/p' compiler/libsegc.h | sort >"$tmp/declared" &&
    ! grep '^segc_' "$tmp/defined" | sort | cmp -s - "$tmp/declared"; then
    bad "libsegc.so exports every function of libsegc.h" "$(grep '^segc_' "$tmp/defined" | sort | diff "$tmp/declared" - | indent)"
else
    ok "libsegc.so exports the $(wc -l <"$tmp/defined" | tr -d ' ') segc_* functions of libsegc.h at LIBSEGC_0, nothing else"
fi
nm -D --undefined-only "$so" | awk '{ sub(/@.*/, "", $2); print $2 }' >"$tmp/undefined"
if grep -x -e exit -e _exit -e abort -e stdout -e stderr -e printf -e fprintf -e vfprintf -e puts -e fputs \
    -e fputc -e putchar -e fwrite -e perror "$tmp/undefined" >"$tmp/io"; then
    bad "libsegc.so neither prints nor exits" "it calls $(tr '\n' ' ' <"$tmp/io")"
else
    ok "libsegc.so neither prints nor exits (no exit, abort, stdout, stderr or printf among what it calls)"
fi
# Writable data: the C runtime's own words only (the tables are read-only).
objdump -h "$so" | awk '$2 == ".data" || $2 == ".bss" { print $2, $3 }' >"$tmp/data"
state=0
while read -r sec size; do
    [ $((0x$size)) -gt 16 ] && state=1
done <"$tmp/data"
if [ "$state" = 1 ] || [ "$(wc -l <"$tmp/data")" -ne 2 ]; then
    bad "libsegc.so has no global state" "$(indent <"$tmp/data")"
else
    ok "libsegc.so has no global state (.data and .bss: the C runtime's words)"
fi

# ---- 2. a program against the installed library ----------------------------------

stage=$tmp/stage
if ! clean_env make -s install B="$B" DESTDIR="$stage" PREFIX=/usr >"$tmp/install.log" 2>&1; then
    bad "make install DESTDIR=..." "$(indent <"$tmp/install.log")"
    suite_end
fi
for f in usr/lib/libsegc.so.0 usr/lib/libsegc.so usr/include/libsegc.h usr/lib/pkgconfig/libsegc.pc; do
    if [ -e "$stage/$f" ]; then ok "make install: /$f"; else bad "make install: /$f" "missing"; fi
done
flags=$(PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_PATH=$stage/usr/lib/pkgconfig pkg-config --cflags --libs libsegc)
client=$tmp/client
if ! cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -o "$client" tests/api/client.c $flags 2>"$tmp/cc.log"; then
    bad "cc client.c \$(pkg-config --cflags --libs libsegc)" "$(indent <"$tmp/cc.log")"
    suite_end
fi
ok "cc client.c $flags"
run_client() { LD_LIBRARY_PATH=$stage/usr/lib "$client" "$@"; }

# segc check's diagnostics in the client's form (client.c's comment).
cli_lines() { # ARGS... FILE
    "$SEGC" check --diagnostics=json "$@" | "$PY" -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
print("status %d" % {"ok": 0, "invalid": 1, "unreadable": 2}[f["status"]])
z = lambda v: v or 0
for d in f["diagnostics"]:
    print("%s:%d:%d-%d: %s: [%s] %s" % (d["file"] or "-", z(d["line"]), z(d["column"]), z(d["end_column"]),
                                       d["severity"], d["rule"], d["message"]))
    if "fix" in d:
        print("  fix: %s" % d["fix"])
    for n in d["notes"]:
        print("  note: %s:%d:%d-%d: %s" % (n["file"] or "-", z(n["line"]), z(n["column"]), z(n["end_column"]),
                                          n["message"]))'
}

# check_as_cli WHAT FILE [ARGS...]: the client's check is segc check's.
check_as_cli() {
    what=$1
    spec=$2
    shift 2
    run_client check "$spec" "$@" >"$tmp/got" 2>&1
    cli_lines "$@" "$spec" >"$tmp/want"
    if cmp -s "$tmp/got" "$tmp/want"; then
        ok "client check $what: as segc check"
    else
        bad "client check $what: as segc check" "$(diff "$tmp/want" "$tmp/got" | indent)"
    fi
}
check_as_cli "a valid sample" samples/discrete.yaml
check_as_cli "a byte order mark" tests/cases/errors/bom.yaml
check_as_cli "-D values (notes on the command line)" tests/cases/errors/define-two.yaml -D ram=100 -D gtt=200
check_as_cli "a fix" tests/cases/rules/waiver-unused.yaml

for spec in samples/discrete.yaml samples/agp.yaml examples/make/board.yaml; do
    rm -rf "$tmp/lib" "$tmp/cli"
    mkdir -p "$tmp/lib" "$tmp/cli"
    run_client build "$spec" "$tmp/lib" >"$tmp/log" 2>&1
    "$SEGC" build -q -o "$tmp/cli" "$spec" >/dev/null 2>&1
    if [ -n "$(ls "$tmp/cli")" ] && diff -r "$tmp/cli" "$tmp/lib" >"$tmp/diff" 2>&1; then
        ok "client build $spec: segc build's files, byte for byte"
    else
        bad "client build $spec: segc build's files, byte for byte" "$( (cat "$tmp/log" "$tmp/diff") | indent)"
    fi
    "$SEGC" dump --json "$spec" >"$tmp/dump"
    if run_client model "$spec" | cmp -s - "$tmp/dump"; then
        ok "client model $spec: segc dump --json"
    else
        bad "client model $spec: segc dump --json"
    fi
done

run_client extends examples/make/chip.yaml examples/make/board.yaml >"$tmp/got" 2>&1
if grep -q '^from memory (asked [1-9]' "$tmp/got" && [ "$(grep -c '^status 0$' "$tmp/got")" = 2 ]; then
    ok "extends: from a callback, and from the disk without one"
else
    bad "extends: from a callback, and from the disk without one" "$(indent <"$tmp/got")"
fi
run_client refuse -o out >"$tmp/got" 2>&1
if grep -q "^refused: '-o' is no option libsegc takes" "$tmp/got" && grep -q '^status 1$' "$tmp/got"; then
    ok "an option about files to write is refused; the context still checks"
else
    bad "an option about files to write is refused; the context still checks" "$(indent <"$tmp/got")"
fi
run_client threads samples/*.yaml tests/cases/errors/bom.yaml tests/cases/rules/waiver-unused.yaml >"$tmp/got" 2>&1
if [ "$(cat "$tmp/got")" = same ]; then
    ok "threads checking and building different specs at once: what one thread gets"
else
    bad "threads checking and building different specs at once: what one thread gets" "$(indent <"$tmp/got")"
fi

# ---- 3. the Python module ------------------------------------------------------------

if [ ! -e "$B/python/segc.pyi" ]; then
    bad "python" "no $B/python (make python; python3-dev: sh tests/deps.sh --install)"
else
    part python "$PY" tests/api/test_python.py "$SEGC" "$B/python"
    # installed where Debian's python3 finds it
    if [ -n "$(find "$stage" -name 'segc.cpython-*.so' -path '*dist-packages*')" ]; then
        ok "make install: the Python module in dist-packages"
    else
        bad "make install: the Python module in dist-packages"
    fi
fi

suite_end
