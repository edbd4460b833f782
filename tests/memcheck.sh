#!/bin/sh
# SPDX-License-Identifier: MIT
# memcheck.sh - segc and the unit runner under valgrind memcheck: no invalid
# read or write, no use of uninitialised memory, no definite leak.
#
#   sh tests/memcheck.sh BUILD_DIR
#
# Runs the Check unit runner in one process (CK_FORK=no; the blocks a
# libsegc check that ran out of memory may lose are suppressed by
# tests/unit/lost-on-oom.supp, as libsegc.h allows), `segc check` on
# every sample and golden case (with the case's own arguments), and
# `segc build` on every sample.  Exit statuses are the specs' own (0 or 1);
# valgrind's own error status is 99, so a memory error is never mistaken
# for an invalid spec.  valgrind starts slowly, so every spec checked with
# the same arguments is checked in one process (segc check takes many
# files and checks each as it would alone); when such a run reports an
# error, its specs are run one by one to name the one that causes it.
set -u
B=${1:?usage: memcheck.sh BUILD_DIR}
SEGC=$B/segc
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
suite_begin memcheck
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"

# vg NAME COMMAND...: passes unless valgrind reported an error (status 99);
# returns 1 when it failed.
vg() {
    name=$1
    shift
    $VG "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 99 ] || grep -q '^==[0-9]*== ' "$tmp/err"; then
        bad "$name"
        grep '^==[0-9]*==' "$tmp/err" | head -n 30
    elif [ $rc -gt 2 ]; then
        bad "$name" "exit status $rc"
    else
        ok "$name"
        return 0
    fi
    return 1
}

CK_FORK=no vg "unit tests" --num-callers=50 --suppressions=tests/unit/lost-on-oom.supp "$B/unit-tests"
for f in samples/*.yaml samples/chips/*.yaml; do
    vg "build $f" "$SEGC" build -MD -MF "$tmp/dep" --annotate "$f" -o "$tmp/out-$(basename "$f" .yaml)"
done

# check_all ARGS FILE...: one process; on an error, one per file.
check_all() {
    args=$1
    shift
    # shellcheck disable=SC2086
    if vg "check $args ($# specs in one run)" "$SEGC" check --color=never $args "$@" >"$tmp/all" 2>&1; then
        cat "$tmp/all"
        return
    fi
    cat "$tmp/all"
    for f in "$@"; do
        # shellcheck disable=SC2086
        vg "check $args $f" "$SEGC" check --color=never $args "$f"
    done
}

# The samples, then the golden cases that are specs (tests/lib.sh,
# spec_cases), grouped by their options.
check_all "" samples/*.yaml samples/chips/*.yaml
spec_cases --inputs | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -s >"$tmp/cases"
cut -f1 "$tmp/cases" | uniq | while IFS= read -r args; do
    # shellcheck disable=SC2046
    check_all "$args" $(awk -F '\t' -v a="$args" '$1 == a { print $2 }' "$tmp/cases")
done >"$tmp/golden.log"
cat "$tmp/golden.log"
pass=$((pass + $(grep -c '^ok ' "$tmp/golden.log")))
fail=$((fail + $(grep -c '^FAIL ' "$tmp/golden.log")))
suite_end
