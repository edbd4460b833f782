#!/bin/sh
# SPDX-License-Identifier: MIT
# segc's JSON documents beyond the cases' goldens:
#   - every sample's `segc dump --json`, validated against
#     schema/model.schema.json and the dialect, and compared with the
#     hand-computed tests/gen/expect/<sample>.txt (tools/model_vs_expect.py);
#     the waivers' dump validated; -D's value and where;
#   - -v keeps standard output for the document (check and build);
#   - `segc diff --json` of a base past 2^53, read back exactly;
#   - the checks can fail: each kind of document with "col" for "column",
#     and with a 64-bit value as a JSON number, is rejected by its schema
#     and by tools/dialect.py.
# In the sanitizer pass (SEGC_SAN=1) the segc runs are repeated, not the
# validations.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin formats-json
PY=/usr/bin/python3
C=tests/cases/formats
TOOLS=tests/tools

# valid NAME SCHEMA FILE: FILE passes its schema and the dialect check.
valid() {
    sanitized && return 0
    if "$PY" $TOOLS/validate.py "$2" "$3" >"$tmp/v.out" 2>&1; then
        ok "$1: schema"
    else
        bad "$1: schema" "$(basename "$2") rejects it"
        indent 10 <"$tmp/v.out"
    fi
    if "$PY" $TOOLS/dialect.py "$3" >"$tmp/v.out" 2>&1; then
        ok "$1: dialect"
    else
        bad "$1: dialect" "not segc's JSON dialect"
        indent 10 <"$tmp/v.out"
    fi
}

# ---- dump ----------------------------------------------------------------------

for spec in samples/*.yaml samples/chips/*.yaml; do
    name=$(basename "$spec" .yaml)
    "$SEGC" dump --json "$spec" >"$tmp/$name.json" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
        bad "dump $name" "exit $rc"
        indent 5 <"$tmp/err"
        continue
    fi
    valid "dump $name" schema/model.schema.json "$tmp/$name.json"
    if "$PY" $TOOLS/model_vs_expect.py "$tmp/$name.json" tests/gen/expect/$name.txt >"$tmp/cmp" 2>&1; then
        ok "dump $name agrees with tests/gen/expect/$name.txt"
    else
        bad "dump $name agrees with tests/gen/expect/$name.txt" "see below"
        indent 20 <"$tmp/cmp"
    fi
done

# The waivers in a dump (the case formats/dump-waived holds the bytes).
"$SEGC" dump --json $C/waived.yaml >"$tmp/waived.json" 2>/dev/null
valid "dump waived" schema/model.schema.json "$tmp/waived.json"

# A variant that deletes a segment and a BAR of its base (the case
# formats/dump-variant-delete holds the bytes): neither is in the model, the
# segments after the deleted one moved up an id, the rest is the base's
# with the variant's changes.
"$SEGC" dump --json $C/dump-variant-delete.yaml >"$tmp/variant-delete.json" 2>/dev/null
valid "dump variant-delete" schema/model.schema.json "$tmp/variant-delete.json"
if "$PY" - "$tmp/variant-delete.json" <<'EOF'; then ok "dump variant-delete: what is left"; else bad "dump variant-delete: what is left" "see above"; fi
import json, sys
m = json.load(open(sys.argv[1]))
segs = [(s["id"], s["name"], s["base"]["value"], s["size"]["value"]) for s in m["segments"]]
want = [(1, "local", "0x0", "0x200000000"), (2, "gart", "0x10000000000", "0x100000000")]
ok = segs == want and m["bars"] == [] and m["paging"]["segment"]["name"] == "gart"
if not ok:
    print("    |", segs, m["bars"], m["paging"]["segment"])
sys.exit(0 if ok else 1)
EOF

# -D: the constant's value and where come from the command line.
"$SEGC" dump -D vram=16GiB samples/discrete.yaml >"$tmp/out" 2>"$tmp/err"
if "$PY" - "$tmp/out" <<'EOF'; then ok "dump -D: value and where"; else bad "dump -D: value and where" "see above"; fi
import json, sys
m = json.load(open(sys.argv[1]))
c = [c for c in m["constants"] if c["name"] == "vram"][0]
want = {"name": "vram", "value": "0x400000000", "where": {"file": "<command line>", "line": 1, "column": 6}}
local = [s for s in m["segments"] if s["name"] == "local"][0]
ok = c == want and local["size"]["value"] == "0x380000000"
if not ok:
    print("    |", c, local["size"])
sys.exit(0 if ok else 1)
EOF

# ---- -v: the summary lines on standard error, the document on standard output -----

"$SEGC" check -v --diagnostics=json $C/warning.yaml >"$tmp/out" 2>"$tmp/err"
if grep -q "^$C/warning.yaml: ok: board json_warning" "$tmp/err" &&
    { sanitized || "$PY" $TOOLS/validate.py schema/diagnostics.schema.json "$tmp/out" >/dev/null 2>&1; }; then
    ok "-v --diagnostics=json"
else
    bad "-v --diagnostics=json" "summary not on stderr or document broken"
fi
"$SEGC" build -v --diagnostics=json samples/agp.yaml -o "$tmp/build-v" >"$tmp/out" 2>"$tmp/err"
if grep -q '^samples/agp.yaml: built board contoso_agp' "$tmp/err" &&
    { sanitized || "$PY" $TOOLS/validate.py schema/diagnostics.schema.json "$tmp/out" >/dev/null 2>&1; }; then
    ok "build -v --diagnostics=json"
else
    bad "build -v --diagnostics=json" "summary not on stderr or document broken"
fi

# ---- diff --json past 2^53 -------------------------------------------------------

base=tests/cases/diff/old/base.yaml
sed 's/base: 64GiB/base: 0xffff000000001000/' $base >"$tmp/high.yaml"
"$SEGC" diff --json $base "$tmp/high.yaml" >"$tmp/diff-high.json" 2>"$tmp/err"
rc=$?
valid "diff high" schema/diff.schema.json "$tmp/diff-high.json"
if [ "$rc" -eq 3 ] && "$PY" -c '
import json, sys
c = json.load(open(sys.argv[1]))["changes"][0]
sys.exit(0 if (c["kind"], c["old"]["value"], c["new"]["value"]) == ("base-moved", "0x1000000000", "0xFFFF000000001000") else 1)
' "$tmp/diff-high.json"; then
    ok "diff: 0xffff000000001000 read back exactly"
else
    bad "diff: 0xffff000000001000 read back exactly" "exit $rc"
    head -n 40 "$tmp/diff-high.json" | indent 10
fi

# ---- the checks can fail ------------------------------------------------------------

# mutate HOW IN OUT: col (the first "column" key) or number (the first hex
# string, else line) made wrong on purpose.
mutate() {
    "$PY" - "$@" <<'EOF'
import json, re, sys
how, src, dst = sys.argv[1:4]
doc = json.load(open(src))
done = []
def walk(n):
    if done:
        return
    if isinstance(n, dict):
        for k in list(n):
            if how == "col" and k == "column" and not done:
                n["col"] = n.pop("column"); done.append(k)
            elif how == "number" and isinstance(n[k], str) and re.fullmatch(r"0x[0-9A-F]+", n[k]) and not done:
                n[k] = 0xFFFF000000001000; done.append(k)
            elif how == "line" and k == "line" and isinstance(n[k], int) and not done:
                n[k] = 0xFFFF000000001000; done.append(k)
            walk(n.get(k))
    elif isinstance(n, list):
        for v in n:
            walk(v)
walk(doc)
if not done and how == "number":
    how = "line"
    walk(doc)
assert done, "nothing to mutate"
json.dump(doc, open(dst, "w"))
EOF
}
(cd $C && "$SEGC" check --diagnostics=json rule-note.yaml) >"$tmp/m-diag.json" 2>/dev/null
for doc in diag:schema/diagnostics.schema.json dump:schema/model.schema.json diff:schema/diff.schema.json; do
    kind=${doc%%:*} schema=${doc#*:}
    case $kind in
    diag) src=$tmp/m-diag.json ;;
    dump) src=$tmp/discrete_16g.json ;;
    diff) src=$tmp/diff-high.json ;;
    esac
    for how in col number; do
        if ! mutate $how "$src" "$tmp/m.json"; then
            bad "$kind with a $how: mutation" "could not mutate $src"
            continue
        fi
        "$PY" $TOOLS/validate.py "$schema" "$tmp/m.json" >/dev/null 2>&1
        v=$?
        "$PY" $TOOLS/dialect.py "$tmp/m.json" >/dev/null 2>&1
        d=$?
        if sanitized || { [ $v -eq 1 ] && [ $d -eq 1 ]; }; then
            ok "$kind with a $how: rejected by $(basename "$schema") and the dialect check"
        else
            bad "$kind with a $how: rejected by $(basename "$schema") and the dialect check" "schema $v, dialect $d"
        fi
    done
done

suite_end
