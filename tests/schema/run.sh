#!/bin/sh
# SPDX-License-Identifier: MIT
# Schema test for the segc input format.
#
#   tests/schema/run.sh             # schema only
#   SEGC=build/segc tests/schema/run.sh   # also run `segc check` on each case
#
# 1. Every samples/**/*.yaml must be valid against schema/segc.schema.json.
#    That includes the bases under samples/chips/: a base is kept a complete
#    spec on its own, so it is validated like any sample. Files that use
#    `extends` are partial by design; the schema itself relaxes what they
#    must contain (no `board`, `segments` or segment `kind` required), so no
#    special handling is needed here.
# 2. Every tests/schema/bad/*.yaml must be rejected by the schema. Each one
#    is a small spec with one structural mistake, named in its first line;
#    every tests/schema/good/*.yaml (forms the samples do not show, such as
#    an unquoted wddm) must be accepted, like a sample.
# 3. ajv, in strict mode (draft 2020-12), compiles every schema in schema/
#    and gives the same verdict as Python's jsonschema on every case above
#    (their regular-expression dialects differ: the expression pattern must
#    mean the same in both, and in an editor's).  ajv is installed into the
#    test cache by tests/deps.sh --install (npm ci from tests/schema/ajv/).
# 4. The schema itself is generated from segc's tables (compiler/tools/
#    tables.c; the build stops when schema/segc.schema.json is not what they
#    generate), so no test compares its keys or flags with segc's.
# 5. If $SEGC names an executable, `$SEGC check` must exit 0 on every sample
#    and good case and exactly 1 (invalid spec; 2 would be a usage or
#    internal error) on every bad case.
#
# Prints `ok   NAME` or `FAIL NAME: REASON` per case, then
# `schema: N passed, M failed`, and exits 1 if anything failed.  In the
# sanitizer pass (SEGC_SAN=1) only the segc runs are repeated: the schema
# verdicts do not depend on how segc was built.
#
# Uses Debian's /usr/bin/python3 with python3-yaml and python3-jsonschema
# (not a pyenv or venv python, which may lack them).

# A relative $SEGC (SEGC=build/segc) is taken from the caller's directory,
# before this script moves to the top of the repository.
case ${SEGC:-} in
    /*) ;;
    */*) SEGC=$(pwd)/$SEGC ;;
esac

cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin schema

PYTHON=/usr/bin/python3
SCHEMA=schema/segc.schema.json
VALIDATE=tests/schema/validate.py
TAB=$(printf '\t')

# The samples, sorted, at any depth.
samples=$(find samples tests/schema/good -name '*.yaml' | LC_ALL=C sort)
bad_cases=$(find tests/schema/bad -name '*.yaml' | LC_ALL=C sort)

if [ -z "$samples" ] || [ -z "$bad_cases" ]; then
    bad "setup" "no samples or no bad cases found"
    suite_end
fi

# Every sample valid, every bad case rejected: one validate.py for all.
schema_cases() {
    # shellcheck disable=SC2086
    "$PYTHON" "$VALIDATE" "$SCHEMA" $samples >"$tmp/samples.v" || bad "validate.py" "exit $?"
    while IFS="$TAB" read -r status f reason; do
        case $status in
            0) ok "$f" ;;
            *) bad "$f" "schema rejects a sample: $reason" ;;
        esac
    done <"$tmp/samples.v"
    # shellcheck disable=SC2086
    "$PYTHON" "$VALIDATE" "$SCHEMA" $bad_cases >"$tmp/bad.v" || bad "validate.py" "exit $?"
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
        if NODE_PATH=$AJV node tests/schema/ajv/check.js "$s" >"$tmp/ajv.out" 2>&1; then
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
    (cd "$tmp/json" && NODE_PATH=$AJV node "$OLDPWD/tests/schema/ajv/check.js" "$OLDPWD/$SCHEMA" *.json) >"$tmp/ajv.out" 2>&1
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

if [ -n "${SEGC:-}" ] && command -v "$SEGC" >/dev/null 2>&1; then
    for f in $samples; do
        "$SEGC" check "$f" >/dev/null 2>&1
        rc=$?
        if [ "$rc" -eq 0 ]; then ok "segc check $f"; else bad "segc check $f" "exit $rc, want 0"; fi
    done
    for f in $bad_cases; do
        "$SEGC" check "$f" >/dev/null 2>&1
        rc=$?
        if [ "$rc" -eq 1 ]; then ok "segc check $f"; else bad "segc check $f" "exit $rc, want 1"; fi
    done
elif [ -n "${SEGC:-}" ]; then
    bad "setup" "SEGC=$SEGC is not an executable"
else
    echo "note: SEGC is not set; skipping the segc check runs"
fi

suite_end
