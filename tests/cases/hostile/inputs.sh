#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile input that is not a case of its own: inputs too big to keep in
# git, written here; standard input from a pipe, a named pipe, a file segc
# may not read; every case of the area in one process.
#
# Exit status policy (doc/commands.md, "Exit status"): 1 when the bytes
# were read and are not a valid spec (including NUL bytes, invalid UTF-8
# and a file over the size limit); 2 when segc could not read them
# (missing, a directory, unreadable) or could not write.
#
# A check passes when segc ends by itself within $SEGC_CASE_TIMEOUT
# seconds (default 30) of CPU time (and ten times that of wall-clock
# time), never by a signal, with the expected exit status, and reports
# exactly the expected errors: the distinct `code@line:col` of every error
# and fatal diagnostic, sorted (warnings and notes are not compared; a
# position-less diagnostic is `code@-`); a trailing `...` means "at least
# these".
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin hostile-inputs
TIMEOUT=${SEGC_CASE_TIMEOUT:-30}

# The distinct errors of a run's stderr, as code@line:col, sorted.
errors_of() {
    sed -n 's/^.*:\([0-9][0-9]*:[0-9][0-9]*\): \(error\|fatal\): \[\([a-z0-9-]*\)\].*$/\3@\1/p
            t
            s/^[^ ]*: \(error\|fatal\): \[\([a-z0-9-]*\)\].*$/\2@-/p' "$1" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# run NAME EXPECTED_RC "EXPECTED ERRORS" COMMAND...  (stdin as given)
run() {
    name=$1 want_rc=$2 want=$3
    shift 3
    (ulimit -t "$TIMEOUT" && exec timeout -s KILL "$((TIMEOUT * 10))" "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(errors_of "$tmp/err")
    if [ "$rc" -gt 2 ]; then
        case $rc in
        137 | 152) why="killed: more than ${TIMEOUT}s of CPU time or $((TIMEOUT * 10))s in all" ;;
        *) why="exit status $rc (a signal or a crash)" ;;
        esac
        bad "$name" "$why"
        head -n 5 "$tmp/err" | cut -c1-200 | indent
        return
    fi
    if [ "$rc" -ne "$want_rc" ]; then
        bad "$name" "exit status $rc, expected $want_rc"
        head -n 6 "$tmp/err" | cut -c1-200 | indent
        return
    fi
    case $want in
    *...)
        missing=""
        for w in ${want%...}; do
            case " $got " in *" $w "*) ;; *) missing="$missing $w" ;; esac
        done
        if [ -n "$missing" ]; then
            bad "$name" "missing:$missing (got: $(echo "$got" | cut -c1-200))"
            return
        fi ;;
    *)
        if [ "$got" != "$want" ]; then
            bad "$name" "errors differ: expected '$want', got '$(echo "$got" | cut -c1-300)'"
            return
        fi ;;
    esac
    ok "$name"
}

# ---- too big for git ----------------------------------------------------------

# gen DIR: writes the big inputs into DIR.  They stress size and time:
# each runs under the time limit, so a quadratic path shows up as a
# failure.
gen() {
    out=$1
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
}

g=$tmp/gen
gen "$g" || { bad "writing the big inputs"; suite_end; }
# NAME EXIT ERRORS
while read -r name want_rc want; do
    (cd "$g" && run "big/$name" "$want_rc" "$want" "$SEGC" check "$name.yaml") >"$tmp/one" 2>&1
    cat "$tmp/one"
    if grep -q '^FAIL' "$tmp/one"; then fail=$((fail + 1)); else pass=$((pass + 1)); fi
done <<'END'
segments-10k                 1 limit-segments@128:5
banks-100k                   1 limit-banks@516:9
constants-100k               1 limit-constants@1028:3
unknown-keys-200k            1 unknown-key@1000:1 unknown-key@1001:1 unknown-key@1002:1 unknown-key@1003:1 ...
dup-keys-200k-one-line       1 duplicate-key@4:1004 duplicate-key@4:1010 duplicate-key@4:1016 duplicate-key@4:1022 ...
long-line-1m                 1 expr-div-zero@4:1009911
brackets-1m                  1 limit-depth@3:74
expr-60k                     1 limit-expr-length@6:11
file-16m-plus-1              1 limit-file-size@1:16777217
extends-depth-17             1 limit-extends@2:10
extends-depth-16             0
END

# Past 1000 diagnostics the rest are counted, not printed.
(cd "$g" && "$SEGC" check unknown-keys-200k.yaml) >/dev/null 2>"$tmp/err"
if [ "$(grep -c ': error: ' "$tmp/err")" -eq 1000 ] &&
    grep -q '^unknown-keys-200k.yaml: note: \[limit-diagnostics\] 199000 more diagnostics not shown' "$tmp/err"; then
    ok "1000 diagnostics shown, the rest counted"
else
    bad "1000 diagnostics shown, the rest counted" "$(tail -n 1 "$tmp/err" | cut -c1-200)"
fi

# ---- not a regular file -----------------------------------------------------------

cd tests/cases/hostile || exit 2
spec=../../../samples/discrete.yaml
bad_spec=kind-unknown.yaml
# Every case in one process: the worst exit status wins, nothing leaks
# from one file into the next.
run "all-in-one-process" 1 "..." "$SEGC" check -q ./*.yaml
run "stdin-pipe-dev-stdin" 0 "" sh -c 'cat "$1" | "$2" check /dev/stdin' sh "$spec" "$SEGC"
run "stdin-pipe-invalid" 1 "bad-value@16:11" sh -c 'cat "$1" | "$2" check -' sh "$bad_spec" "$SEGC"
run "stdin-pipe-binary" 1 "encoding@1:1" sh -c 'printf "\\377\\376" | "$1" check -' sh "$SEGC"
mkfifo "$tmp/fifo"
cat "$spec" >"$tmp/fifo" &
writer=$!
run "named-pipe" 0 "" "$SEGC" check "$tmp/fifo"
kill $writer 2>/dev/null # still there if segc never opened the pipe
wait $writer 2>/dev/null
if [ "$(id -u)" != 0 ]; then
    cp "$spec" "$tmp/unreadable.yaml"
    chmod 000 "$tmp/unreadable.yaml"
    run "unreadable" 2 "io@-" "$SEGC" check "$tmp/unreadable.yaml"
else
    skipped "unreadable" "root reads any file"
fi

suite_end
