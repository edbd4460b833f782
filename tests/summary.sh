#!/bin/sh
# SPDX-License-Identifier: MIT
# summary.sh - the closing line of `make test`: every suite's counts added.
#
#   sh tests/summary.sh RESULTS_DIR LABEL...
#
# Prints one line per suite (passed, failed, wall and CPU seconds), then
# "N passed, M failed".  A LABEL with no record (its suite never ran or
# never finished) counts as a failure.  Exits 1 if anything failed.
set -u
R=${1:?usage: summary.sh RESULTS_DIR LABEL...}
shift
tp=0
tf=0
tc=0
for l in "$@"; do
    if [ -f "$R/$l" ]; then
        read -r p f s c <"$R/$l"
    else
        p=0 f=1 s=- c=-
    fi
    printf '  %-22s %6s passed %4s failed %5ss %5ss cpu\n' "$l" "$p" "$f" "$s" "${c:--}"
    [ "${c:--}" = - ] || tc=$((tc + c))
    tp=$((tp + p))
    tf=$((tf + f))
done
echo "cpu: ${tc}s user+sys over the suites"
echo "$tp passed, $tf failed"
[ "$tf" -eq 0 ]
