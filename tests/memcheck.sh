#!/bin/sh
# SPDX-License-Identifier: MIT
# memcheck.sh - segc and the unit runner under valgrind memcheck: no invalid
# read or write, no use of uninitialised memory, no definite leak.
#
#   sh tests/memcheck.sh BUILD_DIR
#
# Runs the Check unit runner in one process (CK_FORK=no), `segc check` on
# every sample and golden case (with the case's own arguments), and
# `segc build` on every sample.  Exit statuses are the specs' own (0 or 1);
# valgrind's own error status is 99, so a memory error is never mistaken
# for an invalid spec.
set -u
B=${1:?usage: memcheck.sh BUILD_DIR}
SEGC=$B/segc
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
suite_begin memcheck
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"

# vg NAME COMMAND...: passes unless valgrind reported an error (status 99).
vg() {
    name=$1
    shift
    $VG "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 99 ] || grep -q '^==[0-9]*== ' "$tmp/err"; then
        bad "$name"
        grep '^==[0-9]*==' "$tmp/err" | head -n 30
    elif [ $rc -gt 2 ]; then
        bad "$name" "exit status $rc"
    else
        ok "$name"
    fi
}

CK_FORK=no vg "unit tests" "$B/unit-tests"
for f in samples/*.yaml samples/chips/*.yaml; do
    vg "check $f" "$SEGC" check "$f"
    vg "build $f" "$SEGC" build -MD -MF "$tmp/dep" --annotate "$f" -o "$tmp/out-$(basename "$f" .yaml)"
done
for f in tests/golden/*/*.yaml tests/golden/*/*/*.yaml; do
    [ -f "$f" ] || continue
    args=$(sed -n 's/^# args: *//p' "$f" | head -n 1)
    # shellcheck disable=SC2086
    vg "check $f" "$SEGC" check --color=never $args "$f"
done
suite_end
