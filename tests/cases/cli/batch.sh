#!/bin/sh
# SPDX-License-Identifier: MIT
# segc check over many files in one process: in parallel, reported in
# order, a closing table, quoted globs, a progress line on a terminal only.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin cli-batch

ls tests/cases/*/*.yaml samples/*.yaml >"$tmp/list"
"$SEGC" check --color=never --files-from "$tmp/list" >"$tmp/j1.out" 2>"$tmp/j1.err"
rc1=$?
"$SEGC" check --color=never -j 4 --files-from "$tmp/list" >"$tmp/j4.out" 2>"$tmp/j4.err"
rc4=$?
if [ "$rc1" -eq "$rc4" ] && cmp -s "$tmp/j1.out" "$tmp/j4.out" && cmp -s "$tmp/j1.err" "$tmp/j4.err"; then
    ok "check -j 4 reports exactly what -j 1 does, in the same order"
else
    bad "check -j 4 reports exactly what -j 1 does" "exit $rc1/$rc4"
fi
n=$(wc -l <"$tmp/list")
nok=$(ls samples/*.yaml | wc -l)
if awk -v n="$n" 'NR == 2 && $1 == n { found = 1 } END { exit !found }' "$tmp/j1.out" &&
    [ "$(sed -n 1p "$tmp/j1.out" | awk '{print $1, $2, $3}')" = "files ok invalid" ]; then
    ok "check over $n files ends with a summary table"
else
    bad "check over $n files ends with a summary table" "$(cat "$tmp/j1.out")"
fi
"$SEGC" check -j 'samples/*.yaml' >"$tmp/glob.out" 2>&1
if [ $? -eq 0 ] && awk -v n="$nok" 'NR == 2 && $1 == n && $2 == n { found = 1 } END { exit !found }' "$tmp/glob.out"; then
    ok "check expands a quoted glob"
else
    bad "check expands a quoted glob" "$(cat "$tmp/glob.out")"
fi
"$SEGC" check 'no/such/*.yaml' >/dev/null 2>&1
if [ $? -eq 2 ]; then ok "a glob that matches nothing is a usage error"; else bad "a glob that matches nothing is a usage error"; fi

# On a terminal, long work shows a progress line (script(1) gives a
# terminal, whether or not the tests have one).
if have script; then
    i=0
    while [ $i -lt 200 ]; do echo samples/discrete.yaml; i=$((i + 1)); done >"$tmp/many"
    SEGC_PROGRESS_AFTER=0 script -qec "$SEGC check --files-from $tmp/many" /dev/null >"$tmp/tty.out" 2>&1 </dev/null
    if grep -q 'segc: checked [0-9]* of 200 files' "$tmp/tty.out" && ! grep -q 'checked' "$tmp/j1.out" "$tmp/j1.err"; then
        ok "progress line on a terminal only"
    else
        bad "progress line on a terminal only" "$(tail -c 300 "$tmp/tty.out")"
    fi
else
    bad "progress line on a terminal only" "script(1) (bsdutils) is not installed"
fi

suite_end
