#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line tests: every command and option of segc, as a user meets it.
#
# tests/cli/cases is a table, one run of segc per line:
#
#   NAME   EXIT   ARGUMENTS...
#
# ARGUMENTS are read by sh (quotes and `< FILE` work) from the top of the
# tree; leading NAME=VALUE words set segc's environment; $T is an empty scratch directory of the case's own (a case named
# NAME.2 runs after NAME, in NAME's $T, to see what a second run does to
# what the first one wrote).  A case passes
# when segc exits with EXIT and prints exactly tests/cli/expect/NAME.out on
# standard output and NAME.err on standard error (a missing file means
# nothing at all).  When tests/cli/expect/NAME.files exists, it lists every
# file the run left in $T, and each is compared with tests/cli/expect/NAME.d/
# when that holds a file of the same name.  $T is printed as `$T`.
#
#   sh tests/cli/run.sh build/segc
#   SEGC_UPDATE=1 sh tests/cli/run.sh build/segc
#                          rewrite tests/cli/expect/ (then review it with
#                          git diff: a golden is what segc SHOULD print)
set -u
SEGC=${1:?usage: run.sh path/to/segc}
case $SEGC in /*) ;; *) SEGC=$(pwd)/$SEGC ;; esac
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin cli
E=tests/cli/expect

# same WHAT EXPECTED ACTUAL [keep]: a missing EXPECTED means ACTUAL is
# empty (an update keeps an empty EXPECTED only when told to).
same() {
    if updating; then
        if [ -s "$3" ] || [ -n "${4:-}" ]; then cp "$3" "$2"; else rm -f "$2"; fi
    fi
    if [ -f "$2" ]; then
        cmp -s "$2" "$3" && return 0
        diff -u "$2" "$3" | head -n 30 | sed 's/^/    /'
    else
        [ ! -s "$3" ] && return 0
        head -n 10 "$3" | sed 's/^/    | /'
    fi
    return 1
}

while read -r name want args; do
    case $name in '' | '#'*) continue ;; esac
    T=$tmp/${name%%.*}
    mkdir -p "$T"
    env=
    while :; do
        case $args in [A-Z_]*=*) env="$env ${args%% *}" args=${args#* } ;; *) break ;; esac
    done
    (eval "exec env $env \"\$SEGC\" $args") >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    for s in out err; do
        sed "s|$T|\$T|g" "$tmp/$s" >"$tmp/$s.n"
    done
    if [ "$rc" -ne "$want" ]; then
        bad "$name" "exit status $rc, expected $want"
        head -n 10 "$tmp/err" | sed 's/^/    | /'
        continue
    fi
    same "$name" "$E/$name.out" "$tmp/out.n" || { bad "$name" "standard output differs from $E/$name.out"; continue; }
    same "$name" "$E/$name.err" "$tmp/err.n" || { bad "$name" "standard error differs from $E/$name.err"; continue; }
    if [ -f "$E/$name.files" ]; then
        (cd "$T" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files"
        same "$name" "$E/$name.files" "$tmp/files" keep || { bad "$name" "files in \$T differ from $E/$name.files"; continue; }
        differs=
        for f in $(cat "$tmp/files"); do
            [ -f "$E/$name.d/$f" ] || continue
            sed "s|$T|\$T|g" "$T/$f" >"$tmp/file"
            updating && cp "$tmp/file" "$E/$name.d/$f"
            cmp -s "$E/$name.d/$f" "$tmp/file" || differs="$differs $f"
        done
        [ -z "$differs" ] || { bad "$name" "differs from $E/$name.d/:$differs"; continue; }
    fi
    ok "$name"
done <tests/cli/cases

# segc dump --yaml round trip: every tracked spec with `extends:` (git
# ls-files; outside a git tree, every .yaml below samples, examples and
# tests).  One that builds is flattened under its own name in another
# directory; the flat spec extends nothing, `segc check` accepts it and
# `segc build` writes byte for byte the same files as from the original.
# One that does not build is refused by dump --yaml too, with the same
# exit status and nothing on standard output.  -I names every directory
# that holds a spec (an `extends:` is looked for next to its file first).
# A -D override is written into the flat spec's constants.
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
