#!/bin/sh
# SPDX-License-Identifier: MIT
# The Check unit tests (tests/unit/check_*.c, one runner).
#
#   sh tests/unit/run.sh build/unit-tests
#
# In the normal pass each test runs in a process of its own (CK_FORK=yes), so a crash fails
# that test only.  Check's own summary line gives the counts.  Check's
# timeouts (4 s by default) are there to stop a hang, not to time anything:
# on a shared machine under a sanitizer a trivial test can wait that long
# for a core, so they are multiplied by 15.
#
# The sanitizer pass (SEGC_SAN=1) runs the tests in one process: a
# sanitizer report ends the run and fails the suite all the same, and
# forking an ASan process 1,500 times costs over 100 s of CPU (most of it
# page-table copies) against 9 s for the tests themselves.  Check skips the
# exit-status tests without fork; the normal pass runs them.
set -u
BIN=${1:?usage: run.sh path/to/unit-tests}
caller=$(pwd)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin unit
BIN=$(caller_path "$BIN")
CK_FORK=$(sanitized && echo no || echo yes) CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-15} "$BIN" >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
# "100%: Checks: 1384, Failures: 0, Errors: 0"
line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+$' "$tmp/out" | tail -n 1)
if [ -z "$line" ]; then
    bad "unit runner" "exit $rc without Check's summary line"
else
    set -- $(echo "$line" | tr -c '0-9\n' ' ')
    pass=$(($2 - $3 - $4))
    fail=$(($3 + $4))
    [ "$rc" -eq 0 ] || [ "$fail" -gt 0 ] || bad "unit runner" "exit status $rc"
fi
suite_end
