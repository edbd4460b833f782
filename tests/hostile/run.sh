#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - hostile input: every case of corpus/ (and the big ones gen.sh
# writes) through `segc check`, each against its line in `expect`; then the
# ways a spec can fail to be a readable file (stdin, a pipe, a directory, a
# missing or unreadable file).
#
#   sh tests/hostile/run.sh build/segc
#   SEGC_UPDATE=1 sh tests/hostile/run.sh build/segc   print what each
#       case gives now, in the expect format, to review and paste
#
# A case passes when segc
#   - ends by itself within $HOSTILE_TIMEOUT seconds (default 30) of CPU
#     time, so a busy machine does not fail it (and within ten times that
#     of wall-clock time, in case it blocks), exit status 0, 1 or 2 (never
#     a signal: a crash or an abort fails);
#   - exits with the expected status;
#   - reports exactly the expected errors: the distinct `code@line:col` of
#     every error and fatal diagnostic, sorted (warnings and notes are not
#     compared; a position-less diagnostic is `code@-`).  A trailing `...`
#     in expect means "at least these".
#
# Exit status policy (README "Exit status"): 1 when the bytes were read and
# are not a valid spec (including NUL bytes, invalid UTF-8 and a file over
# the size limit); 2 when segc could not read them (missing, a directory,
# unreadable) or could not write.
set -u
SEGC=${1:?usage: run.sh path/to/segc}
case $SEGC in /*) ;; *) SEGC=$(pwd)/$SEGC ;; esac
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin hostile
cd tests/hostile || exit 2
TIMEOUT=${HOSTILE_TIMEOUT:-30}
sh gen.sh "$tmp/gen" || { bad "gen.sh"; suite_end; }

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
    if updating; then
        printf '%-32s %s %s\n' "$name" "$rc" "$got"
        return
    fi
    if [ "$rc" -gt 2 ]; then
        case $rc in
        137 | 152) why="killed: more than ${TIMEOUT}s of CPU time or $((TIMEOUT * 10))s in all" ;;
        *) why="exit status $rc (a signal or a crash)" ;;
        esac
        bad "$name" "$why"
        head -n 5 "$tmp/err" | cut -c1-200 | sed 's/^/    | /'
        return
    fi
    if [ "$rc" -ne "$want_rc" ]; then
        bad "$name" "exit status $rc, expected $want_rc"
        head -n 6 "$tmp/err" | cut -c1-200 | sed 's/^/    | /'
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

# ---- the corpus ---------------------------------------------------------
listed=" "
while read -r name rc want; do
    case $name in ''|'#'*) continue ;; esac
    listed="$listed$name "
    case $name in
    gen/*) file=$tmp/$name.yaml ;;
    *) file=corpus/$name.yaml ;;
    esac
    if [ ! -f "$file" ]; then
        bad "$name" "no file $file"
        continue
    fi
    # Run from the file's directory so positions name only the file.
    (cd "$(dirname "$file")" && run "$name" "$rc" "$want" "$SEGC" check --color=never "$(basename "$file")") \
        >"$tmp/one" 2>&1
    cat "$tmp/one"
    if grep -q '^FAIL' "$tmp/one"; then fail=$((fail + 1)); else pass=$((pass + 1)); fi
done <expect
for f in corpus/*.yaml; do
    n=$(basename "$f" .yaml)
    case $listed in *" $n "*) ;; *) bad "$n" "corpus/$n.yaml has no line in expect" ;; esac
done

# Past 1000 diagnostics the rest are counted, not printed.
(cd "$tmp/gen" && "$SEGC" check unknown-keys-200k.yaml) >/dev/null 2>"$tmp/err"
if [ "$(grep -c ': error: ' "$tmp/err")" -eq 1000 ] &&
    grep -q '^unknown-keys-200k.yaml: note: \[limit-diagnostics\] 199000 more diagnostics not shown' "$tmp/err"; then
    ok "1000 diagnostics shown, the rest counted"
else
    bad "1000 diagnostics shown, the rest counted" "$(tail -n 1 "$tmp/err" | cut -c1-200)"
fi

# Every case in one process: the worst exit status wins, nothing leaks
# from one file into the next.
run "all-in-one-process" 1 "..." "$SEGC" check -q corpus/*.yaml

# ---- not a readable file --------------------------------------------------
spec=../../samples/discrete.yaml
bad_spec=corpus/kind-unknown.yaml
run "stdin-dash-valid" 0 "" "$SEGC" check - <"$spec"
run "stdin-dash-invalid" 1 "bad-value@15:11" "$SEGC" check - <"$bad_spec"
run "stdin-dash-empty" 1 "yaml-empty@1:1" "$SEGC" check - </dev/null
run "stdin-pipe-dev-stdin" 0 "" sh -c 'cat "$1" | "$2" check /dev/stdin' sh "$spec" "$SEGC"
run "stdin-pipe-invalid" 1 "bad-value@15:11" sh -c 'cat "$1" | "$2" check -' sh "$bad_spec" "$SEGC"
run "stdin-pipe-binary" 1 "encoding@1:1" sh -c 'printf "\\377\\376" | "$1" check -' sh "$SEGC"
run "directory" 2 "io@-" "$SEGC" check corpus
run "missing-file" 2 "io@-" "$SEGC" check "$tmp/no-such-file.yaml"
run "missing-and-valid" 2 "io@-" "$SEGC" check "$spec" "$tmp/no-such-file.yaml"
mkfifo "$tmp/fifo"
cat "$spec" >"$tmp/fifo" &
writer=$!
run "named-pipe" 0 "" "$SEGC" check "$tmp/fifo"
kill $writer 2>/dev/null # still there if segc never opened the pipe
wait $writer 2>/dev/null
run "dev-null" 1 "yaml-empty@1:1" "$SEGC" check /dev/null
if [ "$(id -u)" != 0 ]; then
    cp "$spec" "$tmp/unreadable.yaml"
    chmod 000 "$tmp/unreadable.yaml"
    run "unreadable" 2 "io@-" "$SEGC" check "$tmp/unreadable.yaml"
else
    echo "skip unreadable (root reads any file)"
fi

suite_end
