#!/bin/sh
# SPDX-License-Identifier: MIT
# segc dump --yaml round trip: every tracked spec with `extends:` (git
# ls-files; outside a git tree, every .yaml below samples, examples and
# tests).  One that builds is flattened under its own name in another
# directory; the flat spec extends nothing, `segc check` accepts it and
# `segc build` writes byte for byte the same files as from the original.
# One that does not build is refused by dump --yaml too, with the same
# exit status and nothing on standard output.  -I names every directory
# that holds a spec (an `extends:` is looked for next to its file first).
# A -D override is written into the flat spec's constants.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin cli-roundtrip

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files '*.yaml' >"$tmp/specs"
else
    find samples examples tests -name '*.yaml' | LC_ALL=C sort >"$tmp/specs"
fi
incs=$(sed 's|/[^/]*$||' "$tmp/specs" | LC_ALL=C sort -u | sed 's|^|-I |' | tr '\n' ' ')
roundtrip() { # NAME SPEC [-D NAME=EXPR]
    name=$1 spec=$2
    shift 2
    R=$tmp/roundtrip/$name
    mkdir -p "$R/orig" "$R/flat" "$R/flat-out"
    # shellcheck disable=SC2086
    "$SEGC" build -q "$@" $incs "$spec" -o "$R/orig" >/dev/null 2>&1
    want=$?
    # shellcheck disable=SC2086
    "$SEGC" dump --yaml -q "$@" $incs "$spec" >"$R/flat/$(basename "$spec")" 2>"$R/dump.err"
    rc=$?
    flat=$R/flat/$(basename "$spec")
    if [ "$want" -ne 0 ]; then
        if [ "$rc" -eq "$want" ] && [ ! -s "$flat" ]; then
            ok "dump --yaml $name: refused as build refuses it (exit $rc)"
        else
            bad "dump --yaml $name" "exit $rc and $(wc -c <"$flat") bytes out; build exits $want"
        fi
        return
    fi
    if [ "$rc" -ne 0 ]; then
        bad "dump --yaml $name" "exit $rc"
        indent <"$R/dump.err"
    elif grep -q '^extends:' "$flat"; then
        bad "dump --yaml $name" "the flat spec still extends something"
    elif ! "$SEGC" check "$flat" >"$R/check.out" 2>&1; then
        bad "dump --yaml $name" "segc check refuses the flat spec"
        indent <"$R/check.out"
    elif ! "$SEGC" build -q "$flat" -o "$R/flat-out" 2>"$R/build.err"; then
        bad "dump --yaml $name" "segc build refuses the flat spec"
        indent <"$R/build.err"
    elif ! diff -r "$R/orig" "$R/flat-out" >"$R/diff"; then
        bad "dump --yaml $name" "the flat spec builds other code"
        indent <"$R/diff"
    else
        ok "dump --yaml $name: the flat spec builds the same $(ls "$R/orig" | wc -l) files"
    fi
}
n=0
while read -r spec; do
    grep -q '^extends:' "$spec" 2>/dev/null || continue
    n=$((n + 1))
    roundtrip "$(echo "$spec" | tr '/' '_')" "$spec"
done <"$tmp/specs"
[ "$n" -ge 5 ] || bad "dump --yaml round trip" "only $n tracked specs with extends: found"
roundtrip define samples/discrete_16g.yaml -D vram=8GiB
grep -q '^  vram: "8GiB"$' "$tmp/roundtrip/define/flat/discrete_16g.yaml" &&
    ok "dump --yaml -D vram=8GiB: the constant is the -D text" ||
    bad "dump --yaml -D vram=8GiB" "no 'vram: \"8GiB\"' in the flat spec"

suite_end
