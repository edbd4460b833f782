#!/bin/sh
# --diagnostics=msvc: every line MSBuild's canonical form, the same findings
# as the JSON document, and a fixed number for every code (compiler/msvc.def).
#
#   sh tests/msvc/run.sh build/segc
set -u
SEGC=${1:?usage: run.sh path/to/segc}
cd "$(dirname "$0")/../.." || exit 2
fail=0
def=compiler/msvc.def
# Numbers are unique, and so are the codes.
dups=$(grep -o 'CODE([0-9]*' "$def" | sort | uniq -d; grep -o '"[a-z0-9-]*"' "$def" | sort | uniq -d)
if [ -n "$dups" ]; then
    echo "FAIL msvc.def: used twice: $dups"; fail=1
else
    echo "ok   msvc.def: numbers and codes unique"
fi
# Every rule has a number.
for rule in $("$SEGC" rules | awk '{print $1}'); do
    grep -q "\"$rule\"" "$def" || { echo "FAIL msvc.def: no number for rule $rule"; fail=1; }
done
python3 tests/msvc/check.py "$SEGC" tests/golden/errors/*.yaml tests/golden/rules/*.yaml \
    tests/hostile/corpus/*.yaml samples/*.yaml || fail=1
# A diagnostic with no position and one about the command line.
"$SEGC" check --diagnostics=msvc tests/msvc/no-such-file.yaml 2>&1 |
    grep -qx 'tests/msvc/no-such-file.yaml: error SEGC9001: \[io\] cannot open: .*' ||
    { echo "FAIL msvc: an unreadable file"; fail=1; }
exit $fail
