#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench (first part): the instructions `segc build` executes for each
# sample against those of `segc --version` (start-up alone), both counted
# by callgrind in this same run, so the ratio holds on any machine.  The
# goal is a build of samples/discrete.yaml in at most 8 times the
# instructions of --version: loading, checking (the names check renders
# every output in memory), laying out, writing the C and the files.
# `segc check` is counted too.  Nothing here fails on a count.
#
#   sh bench/build.sh build/segc build
set -u
SEGC=$1
B=$2
GOAL=8
cd "$(dirname "$0")/.." || exit 2
out=$B/bench-build
rm -rf "$out"
mkdir -p "$out"

# Instructions executed by the command, from callgrind's summary.
ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

base=$(ir "$SEGC" --version)
printf '%-28s %12s %7s | %12s %7s\n' spec "Ir:build" "x:ver" "Ir:check" "x:ver" | tee "$out/results.txt"
printf '%-28s %12s %7s |\n' "(segc --version)" "$base" "1.00" | tee -a "$out/results.txt"
for spec in samples/*.yaml; do
    name=$(basename "$spec" .yaml)
    b=$(ir "$SEGC" build "$spec" -o "$out/$name")
    c=$(ir "$SEGC" check "$spec")
    echo "$name $b $c $base" | awk '{printf "%-28s %12d %7.2f | %12d %7.2f\n", $1, $2, $2 / $4, $3, $3 / $4}' |
        tee -a "$out/results.txt"
done
echo
grep '^discrete ' "$out/results.txt" | awk -v g=$GOAL '{printf "segc build samples/discrete.yaml: %.2f times segc --version (goal: at most %d, %s)\n", $3, g, $3 <= g ? "met" : "not met"}'
echo "Ir: instructions (callgrind, start-up included); x:ver: times those of segc --version, counted in this run."
echo "results: $out/results.txt"
