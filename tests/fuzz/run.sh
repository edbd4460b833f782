#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - collect the seed corpora and run the libFuzzer targets.
#
#   sh tests/fuzz/run.sh BUILD_DIR --runs N [TARGET...]      (make fuzz-smoke)
#   sh tests/fuzz/run.sh BUILD_DIR --seconds N [TARGET...]   (make fuzz)
#
# Run from the repository root.  For each target it first replays every
# seed and every regression input in tests/fuzz/regress/TARGET/ (any crash
# there fails at once), then fuzzes with tests/fuzz/segc.dict (and
# tests/fuzz/TARGET.dict when there is one, appended to it):
#   --runs N     exactly N executions from the seeds alone, with the fixed
#                seed FUZZ_SEED (default 1): the same inputs on every run
#                and every machine, so a smoke failure always reproduces;
#   --seconds N  a campaign of N seconds; new inputs go to
#                BUILD_DIR/corpus-TARGET and are kept between runs.
# Replay and fuzzing write any crash, leak, timeout or oom input to
# BUILD_DIR/artifacts/TARGET/ and the target fails.  A line per target gives
# executions, cov: and ft: (libFuzzer's edge and feature counts) and the
# corpus size.
set -u
usage="usage: run.sh BUILD_DIR --runs N|--seconds N [TARGET...]"
B=${1:?$usage}
case ${2:-} in
--runs) budget="-runs=${3:?$usage} -seed=${FUZZ_SEED:-1}" what="${3} runs, seed ${FUZZ_SEED:-1}" ;;
--seconds) budget="-max_total_time=${3:?$usage}" what="${3}s" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
shift 3
TARGETS=${*:-pipeline expr lsp}
. tests/lib.sh
suite_begin fuzz

seed_pipeline() {
    for f in samples/*.yaml samples/chips/*.yaml tests/cases/*/*.yaml tests/cases/*/*/*.yaml tests/fuzz/base.yaml; do
        [ -f "$f" ] || continue
        # Keep seeds small: libFuzzer mutates short inputs much faster.
        [ "$(wc -c <"$f")" -le 16384 ] || continue
        cp "$f" "$1/$(echo "$f" | tr / _)"
    done
}

# An expression seed is the page-size byte (0x0c: 4 KiB) and then the text.
seed_expr() {
    i=0
    cat samples/*.yaml samples/chips/*.yaml tests/cases/*/*.yaml |
        sed -n 's/^ *-\{0,1\} *\(base\|size\|commit_limit\|offset\|address\|buffer_size\|system_memory_end\|page_size\|[a-z_]*\): \([^#{[]*[0-9][^#]*\)$/\2/p' |
        sort -u | while IFS= read -r e; do
            i=$((i + 1))
            { printf '\014'; printf '%s' "$e"; } >"$1/expr-$i"
        done
    for e in 'align_up(vram, 2 MiB) - 4 KiB' 'max(1, min(2, 3)) << 4' '~0 >> 1' '(1 + 2) * 3 pages' \
             '0x1_0000 | 0b1010 ^ 0o17 & 7' 'bar.fb.size / 2 % 3' 'visible.end - size'; do
        i=$((i + 1))
        { printf '\014'; printf '%s' "$e"; } >"$1/extra-$i"
    done
}

# A stream of LSP messages (tests/fuzz/lsp/*.lsp: sessions written as an
# editor writes them, and a broken client's).
seed_lsp() {
    cp tests/fuzz/lsp/*.lsp "$1/"
}

for t in $TARGETS; do
    bin=$B/fuzz_$t
    dict=tests/fuzz/segc.dict
    if [ -f "tests/fuzz/$t.dict" ]; then
        dict=$B/dict-$t
        cat tests/fuzz/segc.dict "tests/fuzz/$t.dict" >"$dict"
    fi
    seeds=$B/seeds-$t
    corpus=$B/corpus-$t
    art=$B/artifacts/$t/
    rm -rf "$seeds"
    case $budget in -runs=*) rm -rf "$corpus" ;; esac
    mkdir -p "$seeds" "$corpus" "$art"
    "seed_$t" "$seeds"
    regress=tests/fuzz/regress/$t
    # 1. Replay: every seed and regression input once.
    set -- "$seeds"
    [ -n "$(ls "$regress" 2>/dev/null)" ] && set -- "$@" "$regress"
    if ! "$bin" -runs=0 -rss_limit_mb=2048 -artifact_prefix="$art" "$@" >"$B/replay-$t.log" 2>&1; then
        tail -n 40 "$B/replay-$t.log"
        bad "fuzz $t: replaying seeds/regressions" "log: $B/replay-$t.log"
        continue
    fi
    # 2. Fuzz.
    case $budget in -runs=0\ * | -max_total_time=0)
        ok "fuzz $t: replayed $(find "$@" -type f | wc -l) inputs"; continue ;;
    esac
    log=$B/fuzz-$t.log
    # shellcheck disable=SC2086
    "$bin" $budget -timeout=10 -rss_limit_mb=2048 -dict="$dict" \
        -artifact_prefix="$art" -print_final_stats=1 "$corpus" "$seeds" >"$log" 2>&1
    rc=$?
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    size=$(ls "$corpus" | wc -l)
    if [ "$rc" -ne 0 ]; then
        grep -E 'ERROR|SUMMARY|artifact' "$log" | head -n 20
        bad "fuzz $t: after ${execs:-?} executions" "log: $log"
    else
        ok "fuzz $t: $what, ${execs:-?} executions, cov: ${cov:-?} ft: ${ft:-?}, corpus $size files"
    fi
done
suite_end
