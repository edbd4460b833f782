#!/bin/sh
# SPDX-License-Identifier: MIT
# Lookup tests: the generated LookupGpuAddress/BankOfOffset against an
# independent reference (tests/lookup/check_lookup.c) on every sample and on
# seeded random boards, each built under three budgets so that every table
# form (direct, radix, search) is exercised; the samples also under the
# default budget, the tables tests/gen/golden shows only by their size; and
# a board whose segments overlap (no LookupGpuAddress; BankOfOffset alone).
# A case whose generated code is byte for byte one already compiled and run
# (with the same compiler, expectation and seed) is not run again.
# The harness is compiled with
# -Werror, and under the sanitizer pass with ASan+UBSan; at -O0, since
# optimisation adds nothing to what the reference compares (the generated
# code's -pedantic and optimised builds are tests/gen's).
#
#   sh tests/lookup/run.sh build/segc build ["-fsanitize=..."] [BOARDS] [SEED]
set -u
SEGC=$1
B=$2
SAN=${3:-}
BOARDS=${4:-40}
SEED=${5:-20261122}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin lookup
# The sanitizer pass draws 20 other boards: each compile of the harness
# under ASan costs seconds, and new boards find more than the same ones
# again (the normal pass has run those 40).
if [ -z "${4:-}" ] && sanitized; then
    BOARDS=20
    SEED=$((SEED + 1))
fi
out=$B/lookup-test
rm -rf "$out"
mkdir -p "$out/boards"
: >"$out/checked"
forms=""

/usr/bin/python3 tests/lookup/gen_boards.py "$out/boards" "$BOARDS" "$SEED" || exit 2

run_case() { # spec expect budget compiler
    spec=$1 exp=$2 budget=$3 cc=$4
    name=$(basename "$spec" .yaml)-$budget-$cc
    dir=$out/$name
    set -- --lookup-budget "$budget"
    [ "$budget" = default ] && set --
    if ! "$SEGC" build -v "$@" "$spec" -o "$dir" >"$out/build.out" 2>&1; then
        bad "$name: build" "$(head -n 5 "$out/build.out")"
        return
    fi
    form=$(sed -n 's/.*lookup table: \([a-z]*\).*/\1/p' "$out/build.out")
    forms="$forms $form"
    if [ "$budget" = default ]; then
        # The default table is kernel-friendly: at most 4 KiB, at most 3 loads,
        # and the file says what -v says.
        bytes=$(sed -n 's/.*, \([0-9]*\) bytes, .*/\1/p' "$out/build.out")
        loads=$(sed -n 's/.*worst case \([0-9]*\) memory.*/\1/p' "$out/build.out")
        board=$(sed -n 's/^board //p' "$exp")
        if [ -n "$bytes" ] && [ "$bytes" -le 4096 ] && [ -n "$loads" ] && [ "$loads" -le 3 ] &&
            grep -q " $bytes bytes, at most $loads memory loads" "$dir/${board}_segments.h"; then
            ok "$name: default table $bytes bytes <= 4096, $loads loads <= 3"
        else
            bad "$name: default table <= 4096 bytes and <= 3 loads" "$(cat "$out/build.out")"
        fi
    fi
    board=$(sed -n 's/^board //p' "$exp")
    # Two budgets often give the same tables: the same code, compiler,
    # expectation and seed make the same program and the same run.
    sum=$(cat "$dir/${board}_segments.h" "$dir/${board}_segments.c" "$exp" | cksum | tr ' ' _)-$cc
    seen=$(sed -n "s/^$sum //p" "$out/checked")
    if [ -n "$seen" ]; then
        ok "$name ($form): the same code as $seen, checked there"
        rm -rf "$dir"
        return
    fi
    # shellcheck disable=SC2086
    if ! $cc -std=c11 -O0 -Wall -Wextra -Werror $SAN -DSEGC_GENERIC_NAMES -DSEGC_HEADER="\"${board}_segments.h\"" \
        -I"$dir" tests/lookup/check_lookup.c "$dir/${board}_segments.c" -o "$dir/check" 2>"$out/cc.err"; then
        bad "$name: compile" "$(head -n 10 "$out/cc.err")"
        return
    fi
    if "$dir/check" "$exp" "$SEED" >"$out/run.out" 2>&1; then
        ok "$name ($form): $(tail -n 1 "$out/run.out")"
        echo "$sum $name" >>"$out/checked"
    else
        bad "$name ($form)" "$(head -n 12 "$out/run.out")"
    fi
    rm -rf "$dir"
}

for spec in samples/*.yaml samples/chips/*.yaml; do
    exp=tests/gen/expect/$(basename "$spec" .yaml).txt
    for budget in default 16KiB 200 1; do
        run_case "$spec" "$exp" "$budget" gcc
    done
    run_case "$spec" "$exp" 16KiB clang
done
for spec in "$out"/boards/*.yaml; do
    for budget in 16KiB 2KiB 1; do
        run_case "$spec" "${spec%.yaml}.txt" "$budget" gcc
    done
done

# Overlapping segments: no lookup table, BankOfOffset from the bank tables.
run_case tests/lookup/overlap.yaml tests/lookup/overlap.txt 16KiB gcc
case " $forms " in
*" none "*) ok "overlapping segments: built with no lookup table" ;;
*) bad "overlapping segments: built with no lookup table" ;;
esac

for f in direct radix search; do
    case " $forms " in
    *" $f "*) ok "form '$f' exercised" ;;
    *) bad "form '$f' exercised" "no board picked it" ;;
    esac
done
suite_end
