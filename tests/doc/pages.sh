#!/bin/sh
# SPDX-License-Identifier: MIT
# README.md and doc/*.md against segc and the tree (tests/doc/pages.py
# says what is checked); doc/rules.md and doc/keys.md are what
# `segc rules --markdown` and tests/tools/keys-doc.py print (SEGC_UPDATE=1
# writes them again).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin pages

/usr/bin/python3 tests/doc/pages.py "$SEGC" README.md doc/*.md >"$tmp/pages" 2>&1
rc=$?
cat "$tmp/pages"
pass=$((pass + $(grep -c '^ok ' "$tmp/pages")))
fail=$((fail + $(grep -c '^FAIL ' "$tmp/pages")))
[ "$rc" -le 1 ] || bad "tests/doc/pages.py" "exit $rc"

# written PAGE WHAT COMMAND...: PAGE is what COMMAND prints.
written() {
    page=$1 what=$2
    shift 2
    "$@" >"$tmp/page" || bad "$page" "$* failed"
    updating && cp "$tmp/page" "$page"
    if cmp -s "$tmp/page" "$page"; then
        ok "$page: $what"
    else
        bad "$page: $what" "differs (SEGC_UPDATE=1 make doc writes it; review the diff)"
        diff -u "$page" "$tmp/page" | head -n 20 | indent 10
    fi
}
written doc/rules.md "segc rules --markdown" "$SEGC" rules --markdown
written doc/keys.md "the JSON Schema's description of every key" /usr/bin/python3 tests/tools/keys-doc.py schema/segc.schema.json

suite_end
