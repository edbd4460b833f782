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

suite_end
