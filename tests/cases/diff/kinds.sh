#!/bin/sh
# SPDX-License-Identifier: MIT
# The JSON goldens of segc diff against `segc diff --kinds`: every change
# has the class --kinds gives its kind and names at least one side, and
# "breaking" and "compatible" count the changes of each class.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin diff-kinds

"$SEGC" diff --kinds >"$tmp/kinds" || bad "segc diff --kinds" "exit $?"
for f in tests/cases/diff/*.json; do
    if /usr/bin/python3 - "$tmp/kinds" "$f" <<'PY'; then ok "$f: classes and counts agree with --kinds"; else bad "$f" "see above"; fi
import json, sys
kinds = dict(l.split()[:2] for l in open(sys.argv[1]) if l.strip())
doc = json.load(open(sys.argv[2], encoding="utf-8"))
problems = []
for c in doc["changes"]:
    if kinds.get(c["kind"]) != c["class"]:
        problems.append("%s is %s in the output, %s in --kinds" % (c["kind"], c["class"], kinds.get(c["kind"])))
    if c["old"] is None and c["new"] is None:
        problems.append("%s has neither side" % c["kind"])
for cls in ("breaking", "compatible"):
    n = sum(1 for c in doc["changes"] if c["class"] == cls)
    if doc[cls] != n:
        problems.append("%s is %r but %d changes are %s" % (cls, doc[cls], n, cls))
for p in problems:
    print("    " + p)
sys.exit(1 if problems else 0)
PY
done

suite_end
