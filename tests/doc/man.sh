#!/bin/sh
# SPDX-License-Identifier: MIT
# Man page tests: doc/segc.1 and doc/segc.5.
#
#   SEGC=build/segc sh tests/doc/man.sh   (a part of tests/doc/run.sh)
#
#   - `man --warnings -l` (man-db, MANWIDTH=80) and `groff -man -ww -z` print
#     no warning for either page;
#   - `segc --help` and `segc COMMAND --help` exit 0 for every command;
#   - tests/doc/man.py: every command and option of those --help texts is
#     in segc.1, every key of schema/segc.schema.json is documented in its
#     section of segc.5, no rendered line is wider than 80 columns.
#
# Prints `ok   WHAT` or `FAIL WHAT: WHY` per check, then `man: N passed, M failed`.
set -u
SEGC=${SEGC:?SEGC names the segc to test}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin man
PY=${PYTHON:-/usr/bin/python3}

for tool in man groff; do
    command -v $tool >/dev/null 2>&1 || bad "$tool" "not installed (sh tests/deps.sh --install)"
done

for page in doc/segc.1 doc/segc.5; do
    MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/warn" >/dev/null
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/warn" ]; then
        ok "$page: man --warnings -l: no warning"
    else
        bad "$page: man --warnings -l" "exit $rc: $(head -n 5 "$tmp/warn")"
    fi
    groff -man -ww -z "$page" 2>"$tmp/warn"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/warn" ]; then
        ok "$page: groff -man -ww: no warning"
    else
        bad "$page: groff -man -ww" "exit $rc: $(head -n 5 "$tmp/warn")"
    fi
done

# Every command's --help: exit 0, its usage on standard output.
cmds=$("$SEGC" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || bad "segc --help" "lists no commands"
for c in $cmds; do
    "$SEGC" "$c" --help >"$tmp/help" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "^usage: segc $c" "$tmp/help"; then
        ok "segc $c --help: exit 0, usage"
    else
        bad "segc $c --help" "exit $rc: $(head -n 2 "$tmp/help")"
    fi
done

"$PY" tests/doc/man.py "$SEGC" doc schema/segc.schema.json >"$tmp/check" 2>&1
rc=$?
cat "$tmp/check"
pass=$((pass + $(grep -c '^ok ' "$tmp/check")))
fail=$((fail + $(grep -c '^FAIL ' "$tmp/check")))
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$tmp/check"; then
    bad "tests/doc/man.py" "exit $rc"
fi

suite_end
