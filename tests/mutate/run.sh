#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/mutate/run.sh - the mutation driver's own tests, then a small
# seeded sample of mutants run as `make mutate` runs them (`make test`
# runs this as its suite `mutate`; see mutate.py for the options).
#
#   sh tests/mutate/run.sh MUTATE.PY-OPTIONS...
#
# The sample passes when every mutant in it is killed, does not compile,
# or is equivalent (the same code, or listed in tests/mutate/equivalent.txt),
# and the list has no stale entry.  Inside a mutant's own test run (the
# driver sets SEGC_MUTANT) there is nothing to measure: skipped.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin mutate-sample
PY=${PYTHON:-/usr/bin/python3}

"$PY" tests/mutate/test_mutate.py >"$tmp/self" 2>&1
rc=$?
while IFS= read -r line; do
    case $line in
    "ok   "*) ok "mutate.py: ${line#ok   }" ;;
    "FAIL "*) bad "mutate.py: ${line#FAIL }" ;;
    esac
done <"$tmp/self"
[ $rc -eq 0 ] || grep -q '^FAIL ' "$tmp/self" || bad "mutate.py's tests" "exit status $rc: $(tail -n 3 "$tmp/self")"

if [ -n "${SEGC_MUTANT:-}" ]; then
    skipped "a sample of mutants" "this is the test run of mutant $SEGC_MUTANT"
    suite_end
fi
"$PY" tests/mutate/mutate.py "$@" >"$tmp/out" 2>&1
rc=$?
sed 's/^/    /' "$tmp/out"
what="a sample of mutants: $(grep -c '^\[ *[0-9]' "$tmp/out") run, each killed, equivalent or not compiling"
if [ $rc -eq 0 ]; then
    ok "$what"
else
    bad "$what" "exit status $rc (above: the survivors, and what each changed)"
fi
suite_end
