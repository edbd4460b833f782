#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: the generated lookup against a binary search and a linear
# scan, on every sample and on boards from 2 to 31 segments and 1 to 127
# banks.  Instructions per lookup come from callgrind (deterministic on a
# shared machine); nanoseconds from the wall clock (noisy: compare the
# ratios, all measured in this same run; each is the best of 3 runs and
# includes the benchmark loop).  Nothing here asserts a time.
#
#   sh bench/run.sh build/segc build
set -u
SEGC=$1
B=$2
cd "$(dirname "$0")/.." || exit 2
out=$B/bench
rm -rf "$out"
mkdir -p "$out/boards"
N=100000       # lookups under callgrind
T=20000000     # lookups for the wall clock
/usr/bin/python3 tests/gen/lookup/gen_boards.py --grid "$out/boards" || exit 2
for s in samples/*.yaml; do
    cp "tests/gen/expect/$(basename "$s" .yaml).txt" "$out/boards/"
done

# Instructions executed by COUNT lookups, from callgrind's summary.
ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" "$4" 2>&1 |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

printf '%-24s %5s %7s %-6s %7s %5s | %8s %8s %8s | %6s %6s | %7s %7s %7s | %6s %6s\n' \
    board segs regions form bytes loads "Ir:segc" "bsearch" "linear" "bs/sg" "li/sg" "ns:segc" "bsearch" "linear" "bs/sg" "li/sg" | tee "$out/results.txt"
for spec in samples/*.yaml "$out"/boards/*.yaml; do
    name=$(basename "$spec" .yaml)
    exp=$out/boards/$name.txt
    board=$(sed -n 's/^board //p' "$exp")
    "$SEGC" build -v "$spec" -o "$out/$name" >"$out/$name.log" 2>&1 || { echo "build failed: $name"; cat "$out/$name.log"; exit 1; }
    form=$(sed -n 's/.*lookup table: \([a-z]*\).*/\1/p' "$out/$name.log")
    bytes=$(sed -n 's/.*, \([0-9]*\) bytes, .*/\1/p' "$out/$name.log")
    regions=$(sed -n 's/.* \([0-9]*\) regions.*/\1/p' "$out/$name.log")
    loads=$(sed -n 's/.*worst case \([0-9]*\) memory.*/\1/p' "$out/$name.log")
    segs=$(grep -c '^seg ' "$exp")
    cc -std=c11 -D_XOPEN_SOURCE=700 -O2 -Wall -Wextra -DSEGC_GENERIC_NAMES -DSEGC_HEADER="\"${board}_segments.h\"" -I"$out/$name" \
        bench/bench_lookup.c "$out/$name/${board}_segments.c" -o "$out/$name/bench" || exit 1
    base=$(ir "$out/$name/bench" "$exp" none "$N")
    empty=$(ir "$out/$name/bench" "$exp" none 0)
    loop=$(( (base - empty) ))
    per() { echo "$1 $empty $loop $N" | awk '{printf "%.1f", ($1 - $2 - $3) / $4}'; }
    ir_s=$(per "$(ir "$out/$name/bench" "$exp" segc "$N")")
    ir_b=$(per "$(ir "$out/$name/bench" "$exp" bsearch "$N")")
    ir_l=$(per "$(ir "$out/$name/bench" "$exp" linear "$N")")
    ns() {
        for k in 1 2 3; do "$out/$name/bench" "$exp" "$1" "$T"; done | awk 'NR == 1 || $1 < m {m = $1} END {print m}'
    }
    ns_n=0
    ns_s=$(ns segc)
    ns_b=$(ns bsearch)
    ns_l=$(ns linear)
    echo "$name $segs $regions $form $bytes $loads $ir_s $ir_b $ir_l $ns_s $ns_b $ns_l $ns_n" | awk '{
        nn = $13; s = $10 - nn; b = $11 - nn; l = $12 - nn; if (s < 0.01) s = 0.01
        printf "%-24s %5d %7d %-6s %7d %5d | %8.1f %8.1f %8.1f | %6.2f %6.2f | %7.2f %7.2f %7.2f | %6.2f %6.2f\n",
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $8 / $7, $9 / $7, s, b, l, b / s, l / s }' | tee -a "$out/results.txt"
done
echo
echo "Ir: instructions per lookup (callgrind, loop cost subtracted); ns: wall clock per lookup, loop included, best of 3."
echo "bs/sg, li/sg: how many times more the binary search / linear scan costs than segc's table."
echo "results: $out/results.txt"
