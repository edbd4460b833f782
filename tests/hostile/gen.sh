#!/bin/sh
# SPDX-License-Identifier: MIT
# gen.sh - writes the hostile cases too big to keep in git into DIR.
#
#   sh tests/hostile/gen.sh DIR
#
# Each is named like a corpus case and listed in tests/hostile/expect with
# the prefix "gen/".  They stress size and time: run.sh runs every case
# under a time limit, so a quadratic path shows up as a failure.
set -eu
out=${1:?usage: gen.sh DIR}
mkdir -p "$out"
head='segc: 1
board: { name: hostile, wddm: "1.3" }'

# 10 000 segments: the resolver stops at 124 (limit-segments).
{ echo "$head"; echo "segments:"
  awk 'BEGIN { for (i = 0; i < 10000; i++) printf "  - { name: s%d, kind: memory, size: 4KiB }\n", i }'
} >"$out/segments-10k.yaml"

# 100 000 banks in one segment (limit-banks at 508).
{ echo "$head"; printf 'segments:\n  - name: vram\n    kind: memory\n    size: 1TiB\n    banks:\n'
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "      - { name: b%d, size: 4KiB }\n", i }'
} >"$out/banks-100k.yaml"

# 100 000 constants (limit-constants at 1024).
{ echo "$head"; echo "constants:"
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "  c%d: %d\n", i, i }'
  echo "segments: [ { name: vram, kind: memory, size: 4KiB } ]"
} >"$out/constants-100k.yaml"

# 200 000 unknown top-level keys: 200 000 errors, 1000 shown.
{ echo "$head"; echo "segments: [ { name: vram, kind: memory, size: 4KiB } ]"
  awk 'BEGIN { for (i = 0; i < 200000; i++) printf "k%d: 1\n", i }'
} >"$out/unknown-keys-200k.yaml"

# 200 000 duplicate keys in one flow mapping on one 1.4 MB line.
{ echo "$head"; echo "segments: [ { name: vram, kind: memory, size: 4KiB } ]"
  printf 'constants: {'
  awk 'BEGIN { for (i = 0; i < 200000; i++) printf " x: 1,"; }'
  echo ' y: 2 }'
} >"$out/dup-keys-200k-one-line.yaml"

# A 1 MiB line with the one error at its end.
{ echo "$head"; printf 'segments: [ { name: vram, kind: memory, size: 4KiB } ]\nconstants: { '
  awk 'BEGIN { pad = sprintf("%1000s", ""); gsub(/ /, "x", pad)
              for (i = 0; i < 1000; i++) printf "c%d_%s: 1, ", i, pad }'
  echo 'bad: 1 / 0 }'
} >"$out/long-line-1m.yaml"

# One million open brackets (limit-depth at 64, reported once).
{ echo "$head"; printf 'segments: '
  awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "[" }'; echo
} >"$out/brackets-1m.yaml"

# An expression of 60 000 bytes (limit-expr-length at 4096).
{ echo "$head"; printf 'segments:\n  - name: vram\n    kind: memory\n    size: 1'
  awk 'BEGIN { for (i = 0; i < 15000; i++) printf " + 1" }'; echo
} >"$out/expr-60k.yaml"

# A file one byte over the 16 MiB limit (limit-file-size at the byte past
# it: line 1, column 16777217).
head -c 16777217 /dev/zero | tr '\0' '#' >"$out/file-16m-plus-1.yaml"

# An extends chain 17 files deep (limit-extends at 16): chain-0 extends
# chain-1 ... extends chain-17.
i=0
while [ $i -le 17 ]; do
    if [ $i -lt 17 ]; then
        printf 'segc: 1\nextends: chain-%d.yaml\n' $((i + 1)) >"$out/chain-$i.yaml"
    else
        { echo "$head"; echo "segments: [ { name: vram, kind: memory, size: 4KiB } ]"; } >"$out/chain-$i.yaml"
    fi
    i=$((i + 1))
done
cp "$out/chain-0.yaml" "$out/extends-depth-17.yaml"
# ... and one 16 deep, which is allowed.
cp "$out/chain-1.yaml" "$out/extends-depth-16.yaml"
