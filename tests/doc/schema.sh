#!/bin/sh
# SPDX-License-Identifier: MIT
# The JSON Schema of the input format (schema/segc.schema.json), which
# editors validate specs with, against segc.
#
#   SEGC=build/segc sh tests/doc/schema.sh   (a part of tests/doc/run.sh)
#
# 1. Every samples/**/*.yaml must be valid against the schema.  That
#    includes the bases under samples/chips/: a base is kept a complete
#    spec on its own, so it is validated like any sample.  Files that use
#    `extends` are partial by design; the schema itself relaxes what they
#    must contain (no `board`, `segments` or segment `kind` required), so no
#    special handling is needed here.
# 2. The cases of tests/cases/schema/: each is a small spec with one
#    structural mistake, named in its first line, that segc refuses
#    (`# expect-exit: 1`, its diagnostics in NAME.err) and the schema must
#    reject too; or a form the samples do not show (an unquoted wddm) that
#    segc takes and the schema must accept.
# 3. ajv, in strict mode (draft 2020-12), compiles every schema in schema/
#    and gives the same verdict as Python's jsonschema on every case above
#    (their regular-expression dialects differ: the expression pattern must
#    mean the same in both, and in an editor's).  ajv is installed into the
#    test cache by tests/deps.sh --install (npm ci from tests/doc/ajv/).
# 4. tests/doc/keys.py: every key of the field table
#    (compiler/fields.def) is a property of the schema at the map its scope
#    names, and the keys segc takes in each map (the fix of its unknown-key
#    error lists them) are exactly the schema's.  Copies of the table with
#    a new row and of the schema with a key removed must fail that check.
# 5. tests/doc/flags.py: the schema describes each flag a spec may write
#    with the meaning compiler/segc.h's SEGC_FLAGS gives it (and the WDDM
#    version it needs), and offers no derived flag.  A copy of segc.h with a
#    description changed must fail that check.
#
# Prints `ok   NAME` or `FAIL NAME: REASON` per case, then
# `schema: N passed, M failed`, and exits 1 if anything failed.  Nothing
# here depends on how segc was built: the sanitizer pass skips it.
#
# Uses Debian's /usr/bin/python3 with python3-yaml and python3-jsonschema
# (not a pyenv or venv python, which may lack them).
set -u
SEGC=${SEGC:-}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin schema

PYTHON=/usr/bin/python3
SCHEMA=schema/segc.schema.json
VALIDATE=tests/tools/validate.py
TAB=$(printf '\t')

# The samples, sorted, at any depth, and the schema cases segc takes;
# those it refuses.
samples=$( (find samples -name '*.yaml'; grep -L '^# expect-exit: [1-9]' tests/cases/schema/*.yaml) | LC_ALL=C sort)
bad_cases=$(grep -l '^# expect-exit: [1-9]' tests/cases/schema/*.yaml | LC_ALL=C sort)

if [ -z "$samples" ] || [ -z "$bad_cases" ]; then
    bad "setup" "no samples or no bad cases found"
    suite_end
fi

# Every sample valid, every bad case rejected: one validate.py for all.
schema_cases() {
    # shellcheck disable=SC2086
    "$PYTHON" "$VALIDATE" --verdicts "$SCHEMA" $samples >"$tmp/samples.v" || bad "validate.py" "exit $?"
    while IFS="$TAB" read -r status f reason; do
        case $status in
            0) ok "$f" ;;
            *) bad "$f" "schema rejects a sample: $reason" ;;
        esac
    done <"$tmp/samples.v"
    # shellcheck disable=SC2086
    "$PYTHON" "$VALIDATE" --verdicts "$SCHEMA" $bad_cases >"$tmp/bad.v" || bad "validate.py" "exit $?"
    while IFS="$TAB" read -r status f reason; do
        case $status in
            0) bad "$f" "schema accepts a bad case" ;;
            1) ok "$f" ;;
            *) bad "$f" "$reason" ;;
        esac
    done <"$tmp/bad.v"
    n=$(cat "$tmp/samples.v" "$tmp/bad.v" | wc -l)
    [ "$n" -eq $(($(echo $samples | wc -w) + $(echo $bad_cases | wc -w))) ] ||
        bad "validate.py" "$n verdicts for $(echo $samples $bad_cases | wc -w) files"
}

# verdicts TOOL RC OUT [SUFFIX]: the "ok/FAIL<TAB>what<TAB>why" lines a
# checker (keys.py, flags.py) printed into OUT, SUFFIX added to each name.
verdicts() {
    while IFS="$TAB" read -r verdict what why; do
        case $verdict in
            ok) ok "$what${4:-}" ;;
            FAIL) bad "$what${4:-}" "$why" ;;
            *) bad "$1" "$verdict $what" ;;
        esac
    done <"$3"
    [ "$2" -le 1 ] || bad "$1" "exit $2"
}

# keys FIELDS SCHEMA [SEGC]: tests/doc/keys.py, one check per line.
keys() {
    "$PYTHON" tests/doc/keys.py "$2" "$1" ${3:+"$3"} >"$tmp/keys.out" 2>&1
    verdicts keys.py $? "$tmp/keys.out"
}

# keys_refuse WHAT FIELDS SCHEMA PATTERN: keys.py fails on a broken pair,
# with a line matching PATTERN (grep -E): the check above can fail.
keys_refuse() {
    "$PYTHON" tests/doc/keys.py "$3" "$2" >"$tmp/refuse.out" 2>&1
    rc=$?
    if [ "$rc" -eq 1 ] && grep -Eq "^FAIL$TAB$4" "$tmp/refuse.out"; then
        ok "$1: $(grep -E "^FAIL$TAB$4" "$tmp/refuse.out" | head -n 1 | tr '\t' ' ')"
    else
        bad "$1" "exit $rc, no FAIL line matching '$4'"
        indent 5 <"$tmp/refuse.out"
    fi
}

# Every key of the field table (compiler/fields.def) and every key segc
# takes is in the schema, at the right map; the schema has no other.
# Then that this check fires: a field added to the table alone, a key
# dropped from the schema alone, a scope the test does not know.
fields_cases() {
    keys compiler/fields.def "$SCHEMA" "${SEGC:-}"
    sed '$a FIELD(zz_new, SC_SEG, Segment, zz_new, "zz_new_key", DEF_ZERO, NULL, NULL, W_32, 0, NULL)' \
        compiler/fields.def >"$tmp/fields.def"
    keys_refuse "a field added without the schema is refused" "$tmp/fields.def" "$SCHEMA" \
        "fields.def zz_new: key 'zz_new_key'${TAB}not a property of the segment map"
    "$PYTHON" -c 'import json, sys
s = json.load(open(sys.argv[1]))
del s["$defs"]["segment"]["properties"]["commit_limit"]
json.dump(s, open(sys.argv[2], "w"))' "$SCHEMA" "$tmp/schema.json"
    keys_refuse "a field the schema lost is refused" compiler/fields.def "$tmp/schema.json" \
        "fields.def commit_limit: key 'commit_limit'${TAB}not a property"
    sed '$a FIELD(zz_new, SC_ELSEWHERE, Segment, zz_new, "zz_new_key", DEF_ZERO, NULL, NULL, W_32, 0, NULL)' \
        compiler/fields.def >"$tmp/fields.def"
    keys_refuse "a field in an unknown scope is refused" "$tmp/fields.def" "$SCHEMA" \
        "fields.def zz_new: key 'zz_new_key'${TAB}scope SC_ELSEWHERE"
}

# Each flag's description is segc.h's (SEGC_FLAGS), and the check fires on
# a description changed on one side only.
flags_cases() {
    "$PYTHON" tests/doc/flags.py "$SCHEMA" compiler/segc.h >"$tmp/flags.out" 2>&1
    verdicts flags.py $? "$tmp/flags.out" ": description"
    sed 's/"Direct Flip allocations can/"Direct Flip surfaces can/' compiler/segc.h >"$tmp/segc.h"
    if "$PYTHON" tests/doc/flags.py "$SCHEMA" "$tmp/segc.h" >"$tmp/flags.out" 2>&1; then
        bad "a flag description changed in segc.h alone is refused" "flags.py passed"
    elif grep -q "^FAIL${TAB}flag direct_flip" "$tmp/flags.out"; then
        ok "a flag description changed in segc.h alone is refused"
    else
        bad "a flag description changed in segc.h alone is refused" "$(head -n 3 "$tmp/flags.out")"
    fi
}

if sanitized; then
    :
elif ! "$PYTHON" -c 'import yaml, jsonschema' 2>/dev/null; then
    bad "setup" "$PYTHON lacks python3-yaml or python3-jsonschema"
    suite_end
else
    schema_cases
    fields_cases
    flags_cases
fi

# ajv_cases: strict compile of every schema, then the same verdicts.
ajv_cases() {
    AJV=$(ajv_dir)/node_modules
    if [ ! -d "$AJV/ajv" ]; then
        bad "ajv" "not installed in $AJV: run sh tests/deps.sh --install"
        return
    fi
    for s in schema/*.schema.json; do
        if NODE_PATH=$AJV node tests/doc/ajv/check.js "$s" >"$tmp/ajv.out" 2>&1; then
            ok "ajv strict: $s"
        else
            bad "ajv strict: $s" "$(head -n 3 "$tmp/ajv.out")"
        fi
    done
    mkdir -p "$tmp/json"
    # Every case as JSON, named after its path, by one python.
    # shellcheck disable=SC2086
    "$PYTHON" -c 'import json, sys, yaml
for f in sys.argv[2:]:
    with open(f, encoding="utf-8") as i, open(sys.argv[1] + "/" + f.replace("/", "_") + ".json", "w") as o:
        json.dump(yaml.safe_load(i), o)' "$tmp/json" $samples $bad_cases || bad "ajv" "cannot convert the cases to JSON"
    (cd "$tmp/json" && NODE_PATH=$AJV node "$OLDPWD/tests/doc/ajv/check.js" "$OLDPWD/$SCHEMA" *.json) >"$tmp/ajv.out" 2>&1
    for f in $samples; do
        grep -qx "$(echo "$f" | tr / _).json: valid" "$tmp/ajv.out" && ok "ajv: $f" || bad "ajv: $f" "ajv rejects it"
    done
    for f in $bad_cases; do
        grep -qx "$(echo "$f" | tr / _).json: invalid" "$tmp/ajv.out" && ok "ajv: $f" || bad "ajv: $f" "ajv accepts it"
    done
}

if ! sanitized; then
    ajv_cases
fi

suite_end
