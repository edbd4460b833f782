#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench (last part): how close `segc check` runs to the YAML parser,
# what the hostile file of 200,000 unknown keys costs in memory, and the
# Python module against processes.  Every number is a ratio against a
# baseline measured in this same run; nothing here fails on a number.
#
#   1. The share of `segc check -j 1`'s instructions (callgrind) that are
#      libyaml's (yaml_parser_parse and what it calls, yaml_event_delete,
#      the parser's set-up), over 50 copies of each sample in one process
#      (goal: at least 60%).
#   2. The peak resident memory of `segc check` on a 2 MB file of 200,000
#      unknown top-level keys (tests/cases/hostile's), as a multiple of the
#      file's size; segc --version's is shown beside it (goal: at most 10x).
#   3. bench/api.py: Python's segc.check in one process against a segc
#      process per spec and against one `segc check -j 1` over the same
#      specs (goals: at least 20x a process per spec; within 1.5x of the
#      one process).
#
#   sh bench/api.sh build/segc build
set -u
SEGC=$1
B=$2
cd "$(dirname "$0")/.." || exit 2
out=$B/bench-api
rm -rf "$out"
mkdir -p "$out/specs"
# 50 copies of samples/ (a variant and the base it extends side by side).
for i in $(seq 1 50); do
    cp -R samples "$out/specs/$i"
done
specs=$(ls "$out"/specs/*/*.yaml "$out"/specs/*/*/*.yaml)

# ---- 1. the libyaml share ---------------------------------------------------------

valgrind --tool=callgrind --callgrind-out-file="$out/check.callgrind" "$SEGC" check -q -j 1 $specs \
    >/dev/null 2>"$out/callgrind.log"
callgrind_annotate --inclusive=yes "$out/check.callgrind" >"$out/check.annotate" 2>/dev/null
awk '
    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
    /libyaml/ && /:(yaml_parser_parse|yaml_event_delete|yaml_parser_initialize|yaml_parser_delete|yaml_parser_set_input_string|yaml_parser_set_encoding) / {
        gsub(",", "", $1); yaml += $1
    }
    END {
        share = 100 * yaml / total
        printf "segc check over %d specs: %d instructions, %d of them libyaml'"'"'s: %.1f%% (goal: at least 60%%, %s)\n",
               n, total, yaml, share, (share >= 60) ? "met" : "not met"
    }' n="$(echo "$specs" | wc -l)" "$out/check.annotate"

# ---- 2. memory on the hostile file ------------------------------------------------------

{ printf 'segc: 1\nboard: { name: hostile, wddm: "1.3" }\n'
  echo "segments: [ { name: vram, kind: memory, size: 4KiB } ]"
  awk 'BEGIN { for (i = 0; i < 200000; i++) printf "k%d: 1\n", i }'
} >"$out/unknown-keys-200k.yaml"
size=$(wc -c <"$out/unknown-keys-200k.yaml")
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
base=$(peak "$SEGC" --version)
kb=$(peak "$SEGC" check "$out/unknown-keys-200k.yaml")
echo "$size $kb $base" | awk '{
    r = $2 * 1024 / $1
    printf "segc check on 200,000 unknown keys (%d bytes): peak %d KiB, %.1fx the file (segc --version: %d KiB) (goal: at most 10x, %s)\n",
           $1, $2, r, $3, (r <= 10) ? "met" : "not met" }'

# ---- 3. Python against processes ----------------------------------------------------------

/usr/bin/python3 bench/api.py "$SEGC" "$B/python" $specs
echo "results: $out"
