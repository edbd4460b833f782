#!/bin/sh
# SPDX-License-Identifier: MIT
# coverage.sh - line and branch coverage of compiler/*.c and compiler/lsp/*.c
# (segc lsp), per file and in
# total, from what the suites left in a gcc --coverage build.
#
#   sh tests/coverage.sh BUILD_DIR          (make coverage)
#
# Reads BUILD_DIR/obj/*.gcda and BUILD_DIR/obj/lsp/*.gcda with gcov (it comes with gcc): "lines" are
# the lines executed at least once, "branches" the branch outcomes taken
# at least once (gcov -b's "Taken at least once"), both over what gcc
# compiled of each file.
set -u
B=${1:?usage: coverage.sh BUILD_DIR}
cd "$(dirname "$0")/.." || exit 2

if ! ls "$B"/obj/*.gcda >/dev/null 2>&1; then
    echo "coverage.sh: no .gcda files in $B/obj (run make coverage)" >&2
    exit 1
fi
printf '%-22s %14s %8s %16s %8s\n' file lines "" "branches taken" ""
for src in compiler/*.c compiler/lsp/*.c; do
    dir=$B/obj${src#compiler}
    dir=${dir%/*}
    [ -f "$dir/$(basename "$src" .c).gcno" ] || continue
    gcov -b -n -o "$dir" "$src" 2>/dev/null |
        awk -v want="$src" '
        /^File / { f = $2; gsub(/\047/, "", f); next }
        f != want { next }
        /^Lines executed:/ { split($2, a, ":"); lp = a[2] + 0; lt = $4 }
        /^Taken at least once:/ { split($4, a, ":"); bp = a[2] + 0; bt = $6 }
        /^No branches/ { bp = 0; bt = 0 }
        END { printf "%s %d %d %d %d\n", want, lp * lt / 100 + 0.5, lt, bp * bt / 100 + 0.5, bt }'
done | awk '
    function pct(a, b) { return b ? sprintf("%.1f%%", 100 * a / b) : "-" }
    NF == 5 {
        printf "%-22s %6d of %5d %7s %7d of %5d %7s\n", $1, $2, $3, pct($2, $3), $4, $5, pct($4, $5)
        l += $2; lt += $3; b += $4; bt += $5
    }
    END {
        printf "%-22s %6d of %5d %7s %7d of %5d %7s\n", "total", l, lt, pct(l, lt), b, bt, pct(b, bt)
        printf "coverage of compiler/: lines %s, branches taken %s\n", pct(l, lt), pct(b, bt)
    }'
