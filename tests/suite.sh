#!/bin/sh
# SPDX-License-Identifier: MIT
# suite.sh - runs one test suite for `make test` and records its counts.
#
#   sh tests/suite.sh LABEL COMMAND...
#
# The suite's output is kept in $SEGC_RESULTS/LABEL.log and shown (under
# SEGC_QUIET=1, which `make test` sets, all but its "ok" lines); its
# closing "N passed, M failed" line becomes $SEGC_RESULTS/LABEL ("N M S C":
# counts, wall seconds, CPU seconds user+sys of everything it ran).
# A suite that ends without that line, or exits non-zero with no failure
# counted, is recorded as one failure, so nothing is lost from the total
# that tests/summary.sh prints.
set -u
label=${1:?usage: suite.sh LABEL COMMAND...}
shift
R=${SEGC_RESULTS:?SEGC_RESULTS names the results directory}
mkdir -p "$R"
rm -f "$R/$label" "$R/$label.log" "$R/$label.rc"
start=$(date +%s)
show() { if [ -n "${SEGC_QUIET:-}" ]; then grep -v '^ok '; else cat; fi; }
{ "$@"; echo $? >"$R/$label.rc"; } 2>&1 | tee "$R/$label.log" | show
rc=$(cat "$R/$label.rc" 2>/dev/null || echo 1)
secs=$(($(date +%s) - start))
counts=$(grep -v '^part ' "$R/$label.log" | sed -n 's/^\(.*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2 \3/p' | tail -n 1)
if [ -z "$counts" ]; then
    echo "FAIL $label: ended (exit $rc) without its 'N passed, M failed' line"
    counts="0 1"
elif [ "$rc" -ne 0 ] && [ "${counts#* }" = 0 ]; then
    echo "FAIL $label: exit status $rc with no failure counted"
    counts="${counts% *} 1"
fi
# The shell's `times` prints its own and then its children's user and
# system time (as 1m2.345s); every process the suite ran has been waited for.
times >"$R/$label.times"
cpu=$(sed -n 2p "$R/$label.times" | awk '{ t = 0
    for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] }
    printf "%d", t + 0.5 }')
rm -f "$R/$label.times"
echo "$counts $secs ${cpu:-0}" >"$R/$label"
exit "$rc"
