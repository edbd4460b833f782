#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden tests: each tests/golden/*/NAME.yaml is checked with segc and its
# standard error compared byte for byte with NAME.err.
#
# A case's first lines may say what else it expects:
#   # expect-exit: 1          exit status (default 0)
#   # args: -Werror -D x=1    extra arguments before the file
#
#   sh tests/golden/run.sh build/segc           run
#   SEGC_UPDATE=1 sh tests/golden/run.sh build/segc
#                                               rewrite the .err files (then
#                                               review them with git diff)
#
# Also checked: every rule of `segc rules` has a case in rules/ that makes
# it fire, and every sample passes with no diagnostic at all.
set -u
SEGC=${1:?usage: run.sh path/to/segc}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin golden

for yaml in tests/golden/*/*.yaml; do
    [ -e "$yaml" ] || continue
    name=${yaml#tests/golden/}
    name=${name%.yaml}
    err=${yaml%.yaml}.err
    want_rc=$(sed -n 's/^# expect-exit: *\([0-9]*\).*/\1/p' "$yaml" | head -n 1)
    want_rc=${want_rc:-0}
    args=$(sed -n 's/^# args: *//p' "$yaml" | head -n 1)
    # shellcheck disable=SC2086
    "$SEGC" check --color=never $args "$yaml" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    updating && cp "$tmp/err" "$err"
    if [ "$rc" -ne "$want_rc" ]; then
        bad "$name" "exit status $rc, expected $want_rc"
        sed 's/^/    | /' "$tmp/err" | head -n 20
    elif [ ! -f "$err" ]; then
        bad "$name" "no $err (run with SEGC_UPDATE=1 and review it)"
    elif ! cmp -s "$tmp/err" "$err"; then
        bad "$name" "diagnostics differ from $err"
        diff -u "$err" "$tmp/err" | head -n 30 | sed 's/^/    /'
    else
        ok "$name"
    fi
done

# README.md's "Writing a spec" shows the cases of walkthrough/ as the user
# sees them: `<!-- walkthrough: NAME -->` before the spec (NAME.yaml without
# its closing comment lines), `<!-- walkthrough-out: NAME -->` before the
# output (a `$ segc ...` line, then NAME.err with the file called board.yaml).
readme_block() { # KIND NAME: the fenced block after the marker, fences and $ lines dropped
    awk -v m="<!-- $1: $2 -->" '
        $0 == m { on = 1; next }
        on && /^```/ { if (inb) exit; inb = 1; next }
        inb && !/^\$ / { print }' README.md
}
for yaml in tests/golden/walkthrough/*.yaml; do
    n=$(basename "$yaml" .yaml)
    for kind in walkthrough walkthrough-out; do
        grep -qF "<!-- $kind: $n -->" README.md || continue
        if [ "$kind" = walkthrough ]; then
            grep -v '^#' "$yaml" >"$tmp/want"
        else
            sed "s|$yaml|board.yaml|g" "${yaml%.yaml}.err" >"$tmp/want"
        fi
        readme_block "$kind" "$n" >"$tmp/got"
        if cmp -s "$tmp/want" "$tmp/got"; then
            ok "README $kind $n"
        else
            bad "README $kind $n" "README.md's block differs from $yaml"
            diff -u "$tmp/want" "$tmp/got" | head -n 20 | sed 's/^/    /'
        fi
    done
done
grep -q '<!-- walkthrough-out: step2 -->' README.md || bad "README walkthrough" "no step2 output in README.md"

# Every rule fires in a case of its own name.
for rule in $("$SEGC" rules | awk '{print $1}'); do
    f=tests/golden/rules/$rule.err
    if [ -f "$f" ] && grep -q "\[$rule\]" "$f"; then
        ok "rule $rule fires"
    else
        bad "rule $rule fires" "no tests/golden/rules/$rule.yaml whose diagnostics name [$rule]"
    fi
done

# Every sample is valid and silent: no warning, no note.
for s in samples/*.yaml samples/*/*.yaml; do
    [ -e "$s" ] || continue
    "$SEGC" check --color=never "$s" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
        ok "sample $s is silent"
    else
        bad "sample $s is silent" "exit $rc"
        sed 's/^/    | /' "$tmp/err" | head -n 20
    fi
done

# Batch: many files in one process, in parallel, reported in order.
ls tests/golden/*/*.yaml samples/*.yaml >"$tmp/list"
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

# On a terminal, long work shows a progress line (script gives a pty).
if command -v script >/dev/null 2>&1; then
    i=0
    while [ $i -lt 200 ]; do echo samples/discrete.yaml; i=$((i + 1)); done >"$tmp/many"
    SEGC_PROGRESS_AFTER=0 script -qec "$SEGC check --files-from $tmp/many" /dev/null >"$tmp/tty.out" 2>&1
    if grep -q 'segc: checked [0-9]* of 200 files' "$tmp/tty.out" && ! grep -q 'checked' "$tmp/j1.out" "$tmp/j1.err"; then
        ok "progress line on a terminal only"
    else
        bad "progress line on a terminal only" "$(tail -c 300 "$tmp/tty.out")"
    fi
fi

suite_end
