#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cases/run.sh - every golden case: one run of segc and what it must
# print, the input and its expected outputs side by side.
#
#   sh tests/cases/run.sh build/segc [AREA...]
#   SEGC_UPDATE=1 sh tests/cases/run.sh build/segc [AREA...]
#                   rewrite the expected files (then review them line by
#                   line with git diff: a golden is what segc SHOULD print)
#
# A case is tests/cases/AREA/NAME.yaml.  segc runs in the case's directory,
# so the paths it prints are the ones the case gives.  A comment line of
# the case (usually its first) may say how:
#
#   # args: ARGS        segc's arguments, read by sh: quotes, `< FILE` and
#                       `> FILE` work, leading NAME=VALUE words set segc's
#                       environment, $T is an empty scratch directory of
#                       the case's own (NAME.2 runs after NAME, in NAME's
#                       $T, to see what a second run does).  Without it:
#                       check NAME.yaml
#   # expect-exit: N    segc's exit status (without it: 0)
#
# Beside the case, what it must give; every case has at least one of them:
#
#   NAME.out    standard output, byte for byte (no NAME.out: nothing)
#   NAME.err    standard error, byte for byte (no NAME.err: nothing)
#   NAME.files  every file the run left in $T; NAME.d/FILE, where it
#               exists, what FILE must hold
#   NAME.json   the same run with JSON output (--diagnostics=json; for
#               diff and dump, --json): same exit status, nothing on
#               standard error but what the text run printed there (none
#               for --diagnostics), the document byte for byte; it is
#               also validated against its schema in schema/ and against
#               segc's JSON dialect (tools/dialect.py)
#   NAME.sarif  the same run with --diagnostics=sarif: validated against
#               the SARIF 2.1.0 schema, its rules table (the codes its
#               results name) and rule indices checked against segc
#               (tools/sarif_check.py), and compared byte for byte
#
# In all of them $T is written `$T`, segc's version @SEGC_VERSION@ and the
# top of the tree @TOP@.  Every run is under a CPU-time limit
# (SEGC_CASE_TIMEOUT seconds, default 30, and ten times that of wall-clock
# time), so a hang or a quadratic path fails; an exit by a signal fails
# whatever the case expects.
#
# An area may also hold checks that are more than one run of segc (a git
# history, a pipe, a full disk, a table in the documentation): each
# AREA/*.sh runs after the area's cases, from the top of the tree, with
# $SEGC in its environment, and its counts are added (tests/lib.sh, part).
#
# In the sanitizer pass (SEGC_SAN=1) every segc run is repeated; the schema
# validations are not (segc writes the same bytes however it was built).
set -u
SEGC=${1:?usage: run.sh path/to/segc [AREA...]}
shift
caller=$(pwd)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin cases
top=$(pwd)
SEGC=$(caller_path "$SEGC")
export SEGC
PY=/usr/bin/python3
TOOLS=tests/tools
TIMEOUT=${SEGC_CASE_TIMEOUT:-30}
VER=$("$SEGC" --version | awk '{ print $2 }')
SARIF_SCHEMA=""
if ! sanitized; then
    if sarif_cached; then
        SARIF_SCHEMA=$(sarif_schema)
    else
        bad "SARIF schema" "$(sarif_schema) is missing or not the pinned file ($SARIF_PKG): run sh tests/deps.sh --install"
    fi
fi

# ---- one run ------------------------------------------------------------------

# segc_run DIR T ARGS: segc with ARGS (read by sh) in DIR, under the time
# limits; standard output and error in $tmp/out and $tmp/err, exit status
# in $rc.
segc_run() {
    (
        cd "$1" || exit 2
        T=$2
        env=
        args=$3
        while :; do
            case $args in [A-Z_]*=*) env="$env ${args%% *}" args=${args#* } ;; *) break ;; esac
        done
        ulimit -t "$TIMEOUT"
        eval "exec timeout -s KILL $((TIMEOUT * 10)) env $env \"\$SEGC\" $args"
    ) >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
}

# normalize T <FILE: $T, segc's version and the top of the tree as they
# are written in the expected files.
normalize() {
    sed -e "s|$1|\$T|g" -e "s/\"version\": \"$VER\"/\"version\": \"@SEGC_VERSION@\"/" -e "s|$top/|@TOP@/|g"
}

# same EXPECTED ACTUAL: ACTUAL is what EXPECTED says (a missing EXPECTED:
# nothing at all); shows the difference when it is not.
same() {
    if [ -f "$1" ]; then
        cmp -s "$1" "$2" && return 0
        diff -u "$1" "$2" | head -n 30 | sed 's/^/    /'
    else
        [ ! -s "$2" ] && return 0
        indent 10 <"$2"
    fi
    return 1
}

# update EXPECTED ACTUAL: under SEGC_UPDATE=1, EXPECTED becomes ACTUAL (an
# empty ACTUAL removes it).
update() {
    updating || return 0
    if [ -s "$2" ]; then cp "$2" "$1"; else rm -f "$1"; fi
}

# The command of ARGS (its first word after NAME=VALUE words) and the
# option that makes it print JSON.
json_option() {
    for w in $1; do
        case $w in
        [A-Z_]*=*) ;;
        diff | dump) echo --json; return ;;
        *) echo --diagnostics=json; return ;;
        esac
    done
}
schema_of() {
    for w in $1; do
        case $w in
        [A-Z_]*=*) ;;
        diff) echo schema/diff.schema.json; return ;;
        dump) echo schema/model.schema.json; return ;;
        *) echo schema/diagnostics.schema.json; return ;;
        esac
    done
}

# Documents to validate, one line per document ("SCHEMA<TAB>FILE<TAB>NAME"),
# validated at the end with one tools/validate.py per schema.
TAB=$(printf '\t')
nv=0
mkdir -p "$tmp/v"
: >"$tmp/v/queue"
validate_later() {
    sanitized && return 0
    if [ -z "$1" ]; then
        bad "$3: schema" "no schema to validate against (see above)"
        return 0
    fi
    nv=$((nv + 1))
    cp "$2" "$tmp/v/$nv.json"
    printf '%s\t%s\t%s\n' "$1" "$tmp/v/$nv.json" "$3" >>"$tmp/v/queue"
}

# ---- one case -------------------------------------------------------------------

# run_case AREA NAME
run_case() {
    dir=tests/cases/$1
    id=$1/$2
    x=$dir/$2
    if grep -q '^# args:' "$x.yaml"; then
        args=$(sed -n 's/^# args: *//p' "$x.yaml" | head -n 1)
    else
        args="check $2.yaml"
    fi
    want=$(sed -n 's/^# expect-exit: *\([0-9][0-9]*\).*/\1/p' "$x.yaml" | head -n 1)
    want=${want:-0}
    group=$2
    case $2 in *.[0-9]) group=${2%.*} ;; esac
    T=$tmp/t/$1/$group
    mkdir -p "$T"
    if [ ! -e "$x.out" ] && [ ! -e "$x.err" ] && [ ! -e "$x.files" ] && [ ! -e "$x.json" ] && [ ! -e "$x.sarif" ]; then
        if updating; then
            : >"$x.err"
        else
            bad "$id" "no $x.err, .out, .files, .json or .sarif beside it (SEGC_UPDATE=1 writes them; review them)"
            return
        fi
    fi

    segc_run "$dir" "$T" "$args"
    normalize "$T" <"$tmp/out" >"$tmp/out.n"
    normalize "$T" <"$tmp/err" >"$tmp/err.n"
    if [ "$rc" -gt 125 ]; then
        bad "$id" "exit status $rc: killed (a signal, or over ${TIMEOUT}s of CPU time)"
        indent 5 <"$tmp/err.n"
    elif [ "$rc" -ne "$want" ]; then
        bad "$id" "exit status $rc, expected $want"
        indent 10 <"$tmp/err.n"
    else
        update "$x.out" "$tmp/out.n"
        update "$x.err" "$tmp/err.n"
        if updating && [ ! -e "$x.out" ] && [ ! -e "$x.err" ] && [ ! -e "$x.files" ] && [ ! -e "$x.json" ] && [ ! -e "$x.sarif" ]; then
            : >"$x.err"
        fi
        if ! same "$x.out" "$tmp/out.n"; then
            bad "$id" "standard output differs from $x.out"
        elif ! same "$x.err" "$tmp/err.n"; then
            bad "$id" "standard error differs from $x.err"
        elif [ -f "$x.files" ] && ! files_same "$x" "$T"; then
            :
        else
            ok "$id"
        fi
    fi
    if [ -f "$x.json" ]; then
        json_case "$x" "$T" "$args $(json_option "$args")" "$want" "$(schema_of "$args")"
    fi
    if [ -f "$x.sarif" ]; then
        sarif_case "$x" "$T" "$args --diagnostics=sarif" "$want"
    fi
}

# files_same CASE T: the files in T are CASE.files, and those of CASE.d/
# hold what they must.
files_same() {
    (cd "$2" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files"
    updating && cp "$tmp/files" "$1.files"
    if ! same "$1.files" "$tmp/files"; then
        bad "$id" "the files in \$T differ from $1.files"
        return 1
    fi
    differs=
    while IFS= read -r f; do
        [ -f "$1.d/$f" ] || continue
        normalize "$2" <"$2/$f" >"$tmp/file"
        updating && cp "$tmp/file" "$1.d/$f"
        cmp -s "$1.d/$f" "$tmp/file" || differs="$differs $f"
    done <"$tmp/files"
    if [ -n "$differs" ]; then
        bad "$id" "differs from $1.d/:$differs"
        return 1
    fi
    return 0
}

# json_case CASE T ARGS WANT SCHEMA
json_case() {
    rm -rf "$2" && mkdir -p "$2"
    segc_run "$(dirname "$1")" "$2" "$3"
    normalize "$2" <"$tmp/out" >"$tmp/json"
    normalize "$2" <"$tmp/err" >"$tmp/err.n"
    updating && [ "$rc" -eq "$4" ] && cp "$tmp/json" "$1.json"
    case $3 in *--diagnostics=json) want_err=/dev/null ;; *) want_err=$1.err ;; esac
    if [ "$rc" -ne "$4" ]; then
        bad "$id.json" "exit status $rc, expected $4"
        indent 5 <"$tmp/err.n"
    elif ! same "$want_err" "$tmp/err.n"; then
        bad "$id.json" "standard error is not what the text run printed there"
    elif ! same "$1.json" "$tmp/json"; then
        bad "$id.json" "differs from $1.json"
    else
        ok "$id.json"
    fi
    validate_later "$5" "$tmp/out" "$id.json"
    if ! sanitized; then
        if "$PY" $TOOLS/dialect.py "$tmp/out" >"$tmp/dialect" 2>&1; then
            ok "$id.json: dialect"
        else
            bad "$id.json: dialect" "not segc's JSON dialect"
            indent 10 <"$tmp/dialect"
        fi
    fi
}

# sarif_case CASE T ARGS WANT
sarif_case() {
    rm -rf "$2" && mkdir -p "$2"
    segc_run "$(dirname "$1")" "$2" "$3"
    if [ "$rc" -ne "$4" ]; then
        bad "$id.sarif" "exit status $rc, expected $4"
        return
    fi
    if [ -s "$tmp/err" ]; then
        bad "$id.sarif" "standard error is not empty"
        indent 5 <"$tmp/err"
        return
    fi
    validate_later "$SARIF_SCHEMA" "$tmp/out" "$id.sarif"
    if "$PY" $TOOLS/sarif_check.py "$SEGC" "$tmp/out" --cache "$tmp/segc-says.json" 2>"$tmp/chk"; then
        ok "$id.sarif: rules table and rule indices"
    else
        bad "$id.sarif: rules table and rule indices" "see below"
        indent 10 <"$tmp/chk"
    fi
    normalize "$2" <"$tmp/out" >"$tmp/sarif"
    updating && cp "$tmp/sarif" "$1.sarif"
    if same "$1.sarif" "$tmp/sarif"; then ok "$id.sarif"; else bad "$id.sarif" "differs from $1.sarif"; fi
}

# validate_all: every queued document against its schema.
validate_all() {
    [ -s "$tmp/v/queue" ] || return 0
    cut -f1 "$tmp/v/queue" | sort -u >"$tmp/v/schemas"
    while IFS= read -r schema; do
        # shellcheck disable=SC2046
        "$PY" $TOOLS/validate.py "$schema" $(awk -F "$TAB" -v s="$schema" '$1 == s { print $2 }' "$tmp/v/queue") \
            >"$tmp/v.out" 2>&1
        vrc=$?
        [ "$vrc" -le 1 ] || { bad "validate.py $(basename "$schema")" "exit $vrc"; indent 10 <"$tmp/v.out"; }
        while IFS="$TAB" read -r s f name; do
            [ "$s" = "$schema" ] || continue
            if grep -q "^$f: " "$tmp/v.out"; then
                bad "$name: schema" "$(basename "$schema") rejects it"
                grep "^$f: " "$tmp/v.out" | indent 10
            elif [ "$vrc" -le 1 ]; then
                ok "$name: schema"
            fi
        done <"$tmp/v/queue"
    done <"$tmp/v/schemas"
    : >"$tmp/v/queue"
}

# ---- every area -------------------------------------------------------------------

[ $# -gt 0 ] || set -- $(cd tests/cases && for d in */; do echo "${d%/}"; done)
for area in "$@"; do
    if [ ! -d "tests/cases/$area" ]; then
        bad "$area" "no directory tests/cases/$area"
        continue
    fi
    # Case names sorted so that NAME comes before NAME.2.
    for c in tests/cases/"$area"/*.yaml; do
        [ -e "$c" ] || continue
        n=${c##*/}
        echo "${n%.yaml}"
    done | LC_ALL=C sort >"$tmp/names"
    while IFS= read -r name; do
        run_case "$area" "$name"
    done <"$tmp/names"
    validate_all
    for script in tests/cases/"$area"/*.sh; do
        [ -e "$script" ] || continue
        part "$area/$(basename "$script" .sh)" sh "$script"
    done
done

suite_end
