#!/bin/sh
# SPDX-License-Identifier: MIT
# Every rule of `segc rules` fires in the case of its own name
# (rules/RULE.yaml, whose RULE.err names [RULE]), and every sample is valid
# and silent: no warning, no note.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin rules-fire

for rule in $("$SEGC" rules | awk '{ print $1 }'); do
    f=tests/cases/rules/$rule.err
    if [ -f "$f" ] && grep -q "\[$rule\]" "$f"; then
        ok "rule $rule fires"
    else
        bad "rule $rule fires" "no tests/cases/rules/$rule.yaml whose diagnostics name [$rule]"
    fi
done

for s in samples/*.yaml samples/*/*.yaml; do
    [ -e "$s" ] || continue
    "$SEGC" check "$s" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
        ok "sample $s is silent"
    else
        bad "sample $s is silent" "exit $rc"
        indent <"$tmp/err"
    fi
done

suite_end
