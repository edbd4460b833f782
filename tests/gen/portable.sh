#!/bin/sh
# SPDX-License-Identifier: MIT
# One sample's generated .c beyond the host compilers' defaults, for
# tests/gen/code.sh: prints one "ok LABEL" or "bad LABEL: WHY" line per check.
#   - the pointer-width guard: a spec whose arch is 64-bit, compiled for
#     32-bit x86 (gcc/clang -m32, i686 mingw-w64 where installed), fails
#     with the guard's message, which names the spec and the arch; an x86
#     spec compiles there, warning-free;
#   - x86_64 mingw-w64 compiles every spec with the strict warnings;
#   - lint: cppcheck --enable=all and clang-tidy's bugprone-* and cert-*
#     report nothing in the generated files (the self-test, which calls
#     every function so that none looks unused, is not linted).
#
#   sh tests/gen/portable.sh NAME SPEC GENERATED.c SCRATCH
set -u
name=$1 spec=$2 src=$3 tmp=$4
dir=$(dirname "$src")
warn="-Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion"
arch=$(sed -n 's/^ *arch: *\([a-z0-9]*\).*/\1/p' "$spec" | head -n 1)
ident=$(basename "$spec" | tr -c 'A-Za-z0-9\n' '_')
say() { # ok|bad LABEL [WHY FILE]
    if [ "$1" = ok ]; then echo "ok $name: $2"; else echo "bad $name: $2: $(head -n 4 "$3" | tr '\n' ' ' | cut -c 1-300)"; fi
}
have() { command -v "$1" >/dev/null 2>&1; }

# i686: gcc/clang -m32 (a compile needs no 32-bit libc: segc_dxgk.h uses
# only <stddef.h>) and the i686 mingw-w64 cross compiler.
for cc in gcc clang i686-w64-mingw32-gcc; do
    have "$cc" || continue
    m32=-m32
    [ "$cc" = i686-w64-mingw32-gcc ] && m32=
    for std in c99 c11; do
        # shellcheck disable=SC2086
        $cc $m32 -std=$std $warn -I"$dir" -c "$src" -o "$tmp/i686.o" >"$tmp/i686.err" 2>&1
        rc=$?
        if [ "${arch:-x64}" = x86 ]; then
            if [ $rc -eq 0 ]; then say ok "$cc $m32 -std=$std compiles the x86 spec"; else say bad "$cc $m32 -std=$std compiles the x86 spec" "$tmp/i686.err"; fi
        elif [ $rc -ne 0 ] && grep -q "${ident}_is_arch_${arch:-x64}_build_for_64_bit" "$tmp/i686.err"; then
            say ok "$cc $m32 -std=$std refuses the ${arch:-x64} spec with the guard's message"
        else
            say bad "$cc $m32 -std=$std refuses the ${arch:-x64} spec with the guard's message (exit $rc)" "$tmp/i686.err"
        fi
    done
done

if have x86_64-w64-mingw32-gcc; then
    # shellcheck disable=SC2086
    if x86_64-w64-mingw32-gcc -std=c11 $warn -I"$dir" -c "$src" -o "$tmp/mingw.o" >"$tmp/mingw.err" 2>&1; then
        say ok "x86_64-w64-mingw32-gcc -std=c11 $warn"
    else
        say bad "x86_64-w64-mingw32-gcc -std=c11" "$tmp/mingw.err"
    fi
fi

# Lint: every finding in a generated file fails.
if have cppcheck; then
    cppcheck --enable=all --std=c11 --quiet --error-exitcode=1 -I"$dir" --suppress=missingIncludeSystem \
        "$src" "$dir"/*_selftest.c >"$tmp/cppcheck.out" 2>&1
    grep -v '_selftest\.c:' "$tmp/cppcheck.out" | grep -E '^[^ ].*:[0-9]+:[0-9]+: ' >"$tmp/cppcheck.err"
    if [ -s "$tmp/cppcheck.err" ]; then say bad "cppcheck --enable=all" "$tmp/cppcheck.err"; else say ok "cppcheck --enable=all: no finding"; fi
else
    echo "bad $name: cppcheck is not installed (sh tests/deps.sh --install)"
fi
if have clang-tidy; then
    if clang-tidy --quiet -checks='-*,bugprone-*,cert-*' --warnings-as-errors='*' "$src" -- -std=c11 -I"$dir" \
        >"$tmp/tidy.out" 2>&1; then
        say ok "clang-tidy bugprone-*,cert-*: no finding"
    else
        grep -E 'warning|error' "$tmp/tidy.out" >"$tmp/tidy.err"
        say bad "clang-tidy bugprone-*,cert-*" "$tmp/tidy.err"
    fi
else
    echo "bad $name: clang-tidy is not installed (sh tests/deps.sh --install)"
fi
