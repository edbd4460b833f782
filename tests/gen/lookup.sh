#!/bin/sh
# SPDX-License-Identifier: MIT
# Lookup tests: the generated LookupGpuAddress/BankOfOffset against an
# independent reference (tests/gen/lookup/check_lookup.c) on every sample and on
# seeded random boards, each built under three budgets so that every table
# form (direct, radix, search) is exercised; the samples also under the
# default budget, the tables tests/gen/golden shows only by their size; and
# a board whose segments overlap (no LookupGpuAddress; BankOfOffset alone).
# A case whose generated code is byte for byte one already compiled and run
# (with the same compiler, expectation and seed) is not run again: it
# passes when that one does.
# The cases are compiled in one batch per compiler: each case is one
# translation unit (the harness and its generated .c, its main renamed),
# all of them in one compiler run, each object keeping only its entry point
# global (objcopy), linked into one program that runs the case named by its
# first argument.  A batch that does not compile is compiled case by case,
# so that the failure names its case.
# The harness is compiled with
# -Werror, and under the sanitizer pass with ASan+UBSan; at -O0, since
# optimisation adds nothing to what the reference compares (the generated
# code's -pedantic and optimised builds are tests/gen's).
#
#   sh tests/gen/run.sh build/segc build ["-fsanitize=..."] lookup   (LOOKUP_BOARDS, LOOKUP_SEED)
set -u
SEGC=$1
B=$2
SAN=${3:-}
BOARDS=${LOOKUP_BOARDS:-40}
SEED=${LOOKUP_SEED:-20261122}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin lookup
# The sanitizer pass draws 20 other boards: each compile of the harness
# under ASan costs seconds, and new boards find more than the same ones
# again (the normal pass has run those 40).
if [ -z "${LOOKUP_BOARDS:-}" ] && sanitized; then
    BOARDS=20
    SEED=$((SEED + 1))
fi
out=$(abspath "$B/lookup-test")
rm -rf "$out"
mkdir -p "$out/boards"
: >"$out/checked"
forms=""
ncase=0

/usr/bin/python3 tests/gen/lookup/gen_boards.py "$out/boards" "$BOARDS" "$SEED" || exit 2

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
        echo "$sum $name $seen $form" >>"$out/same"
        rm -rf "$dir"
        return
    fi
    # Queued for its compiler's batch: one translation unit.
    ncase=$((ncase + 1))
    mkdir -p "$out/c-$cc"
    printf '#define SEGC_GENERIC_NAMES\n#define SEGC_HEADER "%s"\n#define main segc_lookup_case_%d\n#include "%s"\n#include "%s"\n' \
        "$dir/${board}_segments.h" "$ncase" "$(pwd)/tests/gen/lookup/check_lookup.c" "$dir/${board}_segments.c" \
        >"$out/c-$cc/case$ncase.c"
    echo "$ncase $sum $name $exp $form" >>"$out/queue-$cc"
    echo "$sum $name" >>"$out/checked"
}

# compile CC FILE...: in $out/c-CC, -Werror, and with the sanitizers in
# the sanitizer pass.
compile() {
    c=$1
    shift
    # shellcheck disable=SC2086
    (cd "$out/c-$c" && $c -std=c11 -O0 -Wall -Wextra -Werror $SAN -c "$@") 2>"$out/cc.err"
}

# run_batch CC: compile, link and run every case queued for CC.
run_batch() {
    c=$1
    q=$out/queue-$c
    [ -f "$q" ] || return
    # shellcheck disable=SC2046
    if ! compile "$c" $(awk '{ print "case" $1 ".c" }' "$q"); then
        : >"$out/c-$c/failed"
        while read -r n sum name exp form; do
            compile "$c" "case$n.c" || { bad "$name: compile" "$(head -n 10 "$out/cc.err")"; echo "$n" >>"$out/c-$c/failed"; }
        done <"$q"
        awk 'NR == FNR { f[$1]; next } !($1 in f)' "$out/c-$c/failed" "$q" >"$q.ok"
        mv "$q.ok" "$q"
    fi
    {
        echo '#include <string.h>'
        awk '{ print "int segc_lookup_case_" $1 "(int, char **);" }' "$q"
        echo 'int main(int argc, char **argv)'
        echo '{'
        awk '{ print "    if (argc > 1 && !strcmp(argv[1], \"" $1 "\"))\n        return segc_lookup_case_" $1 "(argc - 1, argv + 1);" }' "$q"
        echo '    return 2;'
        echo '}'
    } >"$out/c-$c/main.c"
    while read -r n rest; do
        objcopy -G "segc_lookup_case_$n" "$out/c-$c/case$n.o" || bad "case $n: objcopy"
    done <"$q"
    # shellcheck disable=SC2046,SC2086
    if ! (cd "$out/c-$c" && $c -std=c11 -O0 -Wall -Wextra -Werror $SAN main.c $(awk '{ print "case" $1 ".o" }' "$q") -o check) \
        2>"$out/cc.err"; then
        while read -r n sum name exp form; do
            bad "$name: link" "$(head -n 10 "$out/cc.err")"
        done <"$q"
        return
    fi
    while read -r n sum name exp form; do
        if "$out/c-$c/check" "$n" "$exp" "$SEED" >"$out/run.out" 2>&1; then
            ok "$name ($form): $(tail -n 1 "$out/run.out")"
            echo "$sum" >>"$out/passed"
        else
            bad "$name ($form)" "$(head -n 12 "$out/run.out")"
        fi
    done <"$q"
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
run_case tests/gen/lookup/overlap.yaml tests/gen/lookup/overlap.txt 16KiB gcc
# A segment that ends at 2^64 - 1, the highest end a range can have.
run_case tests/gen/lookup/top.yaml tests/gen/lookup/top.txt 16KiB gcc
run_case tests/gen/lookup/top.yaml tests/gen/lookup/top.txt 16KiB clang

: >"$out/passed"
run_batch gcc
run_batch clang
# The cases with the same code as one run above pass when it passed.
if [ -f "$out/same" ]; then
    while read -r sum name seen form; do
        if grep -q -x -F "$sum" "$out/passed"; then
            ok "$name ($form): the same code as $seen, checked there"
        else
            bad "$name ($form)" "the same code as $seen, which failed"
        fi
    done <"$out/same"
fi
case " $forms " in
*" none "*) ok "overlapping segments: built with no lookup table" ;;
*) bad "overlapping segments: built with no lookup table" ;;
esac

# The self-test of the board that ends at 2^64 - 1 probes its end - 1 and
# end, and passes.
st=$out/top-selftest
if "$SEGC" build --emit-selftest tests/gen/lookup/top.yaml -o "$st" >"$out/build.out" 2>&1 &&
    (cd "$st" && gcc -std=c11 -O0 -Wall -Wextra -Werror -pedantic $SAN top_selftest.c top_segments.c -o selftest) \
        2>"$out/cc.err" && "$st/selftest" >"$out/st.out" 2>&1 &&
    grep -q "0xFFFFFFFFFFFFFFFEull, 1, 2u, 2u, 0xFFFFFFFull, \"segment 2 .high. end - 1\"" "$st/top_selftest.c" && grep -q "0xFFFFFFFFFFFFFFFFull, 0, 0u, 0u, 0x0ull, \"segment 2 .high. end\"" "$st/top_selftest.c"; then
    ok "a segment that ends at 2^64 - 1: its self-test passes ($(cat "$out/st.out"))"
else
    bad "a segment that ends at 2^64 - 1: its self-test passes" "$(cat "$out/build.out" "$out/cc.err" "$out/st.out" | head -n 10)"
fi

for f in direct radix search; do
    case " $forms " in
    *" $f "*) ok "form '$f' exercised" ;;
    *) bad "form '$f' exercised" "no board picked it" ;;
    esac
done
suite_end
