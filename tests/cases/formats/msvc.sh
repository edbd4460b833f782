#!/bin/sh
# SPDX-License-Identifier: MIT
# --diagnostics=msvc: every line MSBuild's canonical form with the same
# findings as the JSON document (msvc.py, over the rule and error cases,
# the hostile cases and the samples), and a fixed number for every code
# (compiler/msvc.def).
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin formats-msvc
def=compiler/msvc.def
# Numbers are unique, and so are the codes.
dups=$(grep -o 'MSVC([0-9]*' "$def" | sort | uniq -d; grep -o '"[a-z0-9-]*"' "$def" | sort | uniq -d)
if [ -n "$dups" ]; then bad "msvc.def" "used twice: $dups"; else ok "msvc.def: numbers and codes unique"; fi
# Every rule and every other registered code (compiler/rules.def) has a number.
for rule in $("$SEGC" rules | awk '{print $1}') $(sed -n 's/^CODE("\([a-z0-9-]*\)".*/\1/p' compiler/rules.def); do
    if grep -q "\"$rule\"" "$def"; then ok "rule $rule has a number"; else bad "msvc.def" "no number for rule $rule"; fi
done
if /usr/bin/python3 tests/cases/formats/msvc.py "$SEGC" tests/cases/errors/*.yaml tests/cases/rules/*.yaml \
    tests/cases/hostile/*.yaml samples/*.yaml >"$tmp/check.log" 2>&1; then
    ok "$(sed 's/^ok *//' "$tmp/check.log")"
else
    bad "canonical lines" "$(cat "$tmp/check.log")"
fi
# A diagnostic with no position.
if "$SEGC" check --diagnostics=msvc tests/cases/formats/no-such-file.yaml 2>&1 |
    grep -qx 'tests/cases/formats/no-such-file.yaml: error SEGC9001: \[io\] cannot open: .*'; then
    ok "an unreadable file: the file as origin, no position"
else
    bad "an unreadable file"
fi
suite_end
