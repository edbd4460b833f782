#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench (second part): diagnostics after an edit in `segc lsp`
# against `segc check` run afresh on the same text, for every sample and
# for the 31-segment x 127-bank board of tests/gen/lookup/gen_boards.py --grid.
# bench/bench_lsp.c does the measuring (one server session per board,
# LSP_EDITS edits, each followed by a check; see its comment).  The ratio
# server / check is what to read: both are measured in this same run, on
# the same text.  It should be at most 1 (the server must never make an
# editor wait longer than a check would); a line says so for each board.
# Nothing here fails on a time.
#
#   sh bench/lsp.sh build/segc build
set -u
SEGC=$1
B=$2
EDITS=${LSP_EDITS:-30}
cd "$(dirname "$0")/.." || exit 2
case $SEGC in /*) ;; *) SEGC=$(pwd)/$SEGC ;; esac
out=$B/bench-lsp
rm -rf "$out"
mkdir -p "$out/boards"
# The driver writes each edited text to the spec before checking it:
# copies, with the samples' extends targets beside them.
cp -r samples "$out/samples"
/usr/bin/python3 tests/gen/lookup/gen_boards.py --grid "$out/boards" || exit 2
cc -std=c11 -O2 -Wall -Wextra -Werror -o "$out/bench_lsp" bench/bench_lsp.c || exit 2
printf '%-22s %7s %4s | %9s %9s | %6s\n' board bytes N "ms:server" "ms:check" "ratio" | tee "$out/results.txt"
status=0
for spec in "$out"/samples/*.yaml "$out/boards/grid_31s_127b.yaml"; do
    "$out/bench_lsp" "$SEGC" "$spec" "$EDITS" | tee -a "$out/results.txt" || status=1
done
echo
echo "ms:server: from sending a one-character didChange to receiving its publishDiagnostics, one"
echo "segc lsp session, mean of $EDITS edits; ms:check: segc check on the same text as a new process"
echo "(start-up included), mean of $EDITS runs interleaved with the edits; ratio: server / check."
echo "results: $out/results.txt"
exit $status
