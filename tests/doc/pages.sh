#!/bin/sh
# SPDX-License-Identifier: MIT
# README.md and doc/*.md against segc and the tree (tests/doc/pages.py
# says what is checked), and doc/rules.md against `segc explain` (it is
# written by tests/tools/rules-doc.sh; SEGC_UPDATE=1 writes it again).
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

sh tests/tools/rules-doc.sh "$SEGC" >"$tmp/rules.md"
updating && cp "$tmp/rules.md" doc/rules.md
if cmp -s "$tmp/rules.md" doc/rules.md; then
    ok "doc/rules.md: segc explain of every code"
else
    bad "doc/rules.md: segc explain of every code" "differs (sh tests/tools/rules-doc.sh build/segc > doc/rules.md, then review)"
    diff -u doc/rules.md "$tmp/rules.md" | head -n 20 | indent 10
fi

suite_end
