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
# 4. The schema itself is generated from segc's tables (compiler/tools/
#    tables.c; the build stops when schema/segc.schema.json is not what they
#    generate), so no test compares its keys or flags with segc's.
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

if sanitized; then
    :
elif ! "$PYTHON" -c 'import yaml, jsonschema' 2>/dev/null; then
    bad "setup" "$PYTHON lacks python3-yaml or python3-jsonschema"
    suite_end
else
    schema_cases
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
