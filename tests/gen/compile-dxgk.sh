#!/bin/sh
# SPDX-License-Identifier: MIT
# Compile tests/gen/dxgk_touch.c against templates/segc_dxgk.h with every
# compiler, language mode and pointer width available here, with
# -Wall -Wextra -Werror -pedantic. Prints one ok/FAIL line per configuration
# (and notes for what this machine cannot do), then "segc_dxgk.h: N passed,
# M failed" (tests/lib.sh).  Exit status: 0 if nothing failed, 1 otherwise.
#
# Usage: tests/gen/compile-dxgk.sh   (from any directory)
# Environment: CC_LIST (default "gcc clang"), CXX_LIST (default "g++ clang++").

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2
. tests/lib.sh
suite_begin segc_dxgk.h
src="$here/dxgk_touch.c"
inc="$root/templates"
warn="-Wall -Wextra -Werror -pedantic"

# run LABEL COMPILER ARGS...: compile $src to an object file.
run() {
    label=$1
    shift
    if "$@" -I"$inc" -c "$src" -o "$tmp/touch.o" >"$tmp/log" 2>&1; then
        ok "$label"
    else
        bad "$label"
        indent 100 <"$tmp/log"
    fi
}

# can_m32 COMPILER: can it compile (not link) 32-bit x86 code? Only a
# compile is needed here, and the header needs nothing but <stddef.h>.
can_m32() {
    printf '#include <stddef.h>\nint segc_probe = (int)sizeof(size_t);\n' >"$tmp/probe.c"
    "$1" -m32 -c "$tmp/probe.c" -o "$tmp/probe.o" >/dev/null 2>&1
}

# Interface versions to build with: the header default (WDDM 3.0), WDDM 1.3
# (the QUERYSEGMENT3 target: no QUERYSEGMENT4 family, 40-byte
# DXGKARG_QUERYADAPTERINFO) and WDDM 2.2 (Flags present, no hKmdProcessHandle).
versions="default 0x4002 0x700A"

for cc in ${CC_LIST:-gcc clang}; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "note: $cc not found, skipped"
        continue
    fi
    widths="64"
    if can_m32 "$cc"; then
        widths="64 32"
    else
        echo "note: $cc -m32 cannot compile here, 32-bit configurations skipped"
    fi
    for std in c99 c11; do
        for w in $widths; do
            for v in $versions; do
                m=""
                [ "$w" = 32 ] && m="-m32"
                d=""
                [ "$v" = default ] || d="-DDXGKDDI_INTERFACE_VERSION=$v"
                # $m and $d are intentionally unquoted: empty means absent.
                # shellcheck disable=SC2086
                run "$cc -std=$std ${m:+$m }${d:+$d }$warn" \
                    "$cc" -std="$std" $m $d $warn
            done
        done
    done
done

# The header promises C++ linkage guards; check it also builds as C++.
for cxx in ${CXX_LIST:-g++ clang++}; do
    if ! command -v "$cxx" >/dev/null 2>&1; then
        echo "note: $cxx not found, skipped"
        continue
    fi
    for std in c++11 c++17; do
        run "$cxx -x c++ -std=$std $warn" "$cxx" -x c++ -std="$std" $warn
    done
done

suite_end
