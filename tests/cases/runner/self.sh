#!/bin/sh
# SPDX-License-Identifier: MIT
# The golden runner itself (tests/cases/run.sh), on a tree of its own that
# holds one case, variants/bar-size.wide.yaml copied as demo/wide.yaml:
#
#   - with no expected file beside it, the case fails;
#   - SEGC_UPDATE=1 writes wide.err, and what it writes is the reviewed
#     golden of the case it was copied from;
#   - then the case passes, and fails again once its golden is changed, or
#     once segc's exit status is not the one # expect-exit: says;
#   - SEGC_UPDATE=1 puts a stale golden right, and removes an expected
#     standard output that a run no longer prints.
#
# The inner runs are told they are the sanitizer pass (SEGC_SAN=1) only so
# that they do not look for the cached SARIF schema, which these cases do
# not use (the outer run checks it).
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin runner

top=$(pwd)
tree=$tmp/tree
mkdir -p "$tree/tests/cases/demo"
cp tests/lib.sh "$tree/tests/"
cp tests/cases/run.sh "$tree/tests/cases/"
src=tests/cases/variants/bar-size.wide
case=$tree/tests/cases/demo/wide
cp "$src.yaml" "$case.yaml"
# The golden as it must read for the copy: the file name is the case's.
sed 's/^bar-size\.wide\.yaml:/wide.yaml:/' "$src.err" >"$tmp/want.err"

# inner [VAR=VALUE...]: the runner on the scratch tree; its output in
# $tmp/inner.out, its exit status in $irc.
inner() {
    env SEGC_SAN=1 SEGC_UPDATE= "$@" sh "$tree/tests/cases/run.sh" "$SEGC" demo >"$tmp/inner.out" 2>&1
    irc=$?
}
# expect STATUS LINE WHAT: the inner run exited STATUS (0, or 1 for any
# failure) and printed LINE (a fixed string at the start of a line).
expect() {
    got=0
    [ "$irc" -eq 0 ] || got=1
    if [ "$got" -eq "$1" ] && grep -q "^$2" "$tmp/inner.out"; then
        ok "$3"
    else
        bad "$3" "exit status $irc, expected $1 and a line '$2'"
        indent <"$tmp/inner.out"
    fi
}

inner
expect 1 "FAIL demo/wide: no tests/cases/demo/wide.err, .out, .files, .json or .sarif beside it" \
    "a case with no expected file fails"
grep -q '^cases: 0 passed, 1 failed$' "$tmp/inner.out" &&
    ok "... and is counted as a failure" || bad "missing expectation" "closing line: $(tail -n 1 "$tmp/inner.out")"
[ ! -e "$case.err" ] && ok "... and nothing is written without SEGC_UPDATE=1" ||
    bad "missing expectation" "wide.err was written"

inner SEGC_UPDATE=1
expect 0 "ok   demo/wide" "SEGC_UPDATE=1 writes the missing golden"
if cmp -s "$tmp/want.err" "$case.err"; then
    ok "... and it is the reviewed golden of $src"
else
    bad "SEGC_UPDATE=1" "wide.err is not $src.err"
    diff -u "$tmp/want.err" "$case.err" | indent
fi

inner
expect 0 "ok   demo/wide" "the case passes against the golden written"

echo "      | one line more" >>"$case.err"
inner
expect 1 "FAIL demo/wide: standard error differs from tests/cases/demo/wide.err" \
    "a golden that is not what segc prints fails"
inner SEGC_UPDATE=1
cmp -s "$tmp/want.err" "$case.err" && ok "SEGC_UPDATE=1 puts a stale golden right" ||
    bad "SEGC_UPDATE=1" "the stale wide.err was not rewritten"

echo "not printed" >"$case.out"
inner
expect 1 "FAIL demo/wide: standard output differs from tests/cases/demo/wide.out" \
    "an expected standard output that segc does not print fails"
inner SEGC_UPDATE=1
[ ! -e "$case.out" ] && ok "SEGC_UPDATE=1 removes an expected output no longer printed" ||
    bad "SEGC_UPDATE=1" "wide.out is still there"

sed 's/^# expect-exit: 1$/# expect-exit: 0/' "$src.yaml" >"$case.yaml"
inner SEGC_UPDATE=1
expect 1 "FAIL demo/wide: exit status 1, expected 0" \
    "an exit status other than # expect-exit: fails, even under SEGC_UPDATE=1"
cmp -s "$tmp/want.err" "$case.err" && ok "... and the golden is left as it was" ||
    bad "SEGC_UPDATE=1" "a run with the wrong exit status rewrote wide.err"

cd "$top" || exit 2
suite_end
