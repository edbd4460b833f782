#!/bin/sh
# SPDX-License-Identifier: MIT
# Machine-readable output tests: `--diagnostics=json|sarif` and `segc dump --json`.
#
#   sh tests/json/run.sh build/segc build
#   SEGC_UPDATE=1 sh tests/json/run.sh build/segc build
#                          rewrite tests/json/expect/ and doc/rules.md (then
#                          review with git diff)
#
# 1. Diagnostics: each case of tests/json/cases/ (a rule error with a note, a
#    finding in a base with a note at the variant's value that caused it, a
#    warning, a waived finding, a YAML syntax error, a fix, non-ASCII and
#    control characters, an unreadable file, two files in one run, build,
#    what findings are about as SARIF logical locations, loader errors only,
#    a file that is not UTF-8 (invalid, exit 1: it was read),
#    an empty file, a diagnostic on the command line, an absolute path, a
#    name that a URI must escape) is run with --diagnostics=json and =sarif.
#    Every document is validated, the JSON against
#    schema/diagnostics.schema.json and the SARIF against the
#    official SARIF 2.1.0 schema, then compared byte for byte with
#    tests/json/expect/NAME.json and NAME.sarif.  A SARIF log's
#    tool.driver.rules lists the codes its results name, and only those
#    (tests/json/sarif_check.py checks them against segc), so a rule added
#    to rules.def changes no golden.  segc's version is written
#    @SEGC_VERSION@ in the goldens.
# 2. Dump: every sample is dumped, validated against schema/model.schema.json
#    and compared with the hand-computed tests/gen/expect/<sample>.txt
#    (tests/json/model_vs_expect.py); two dumps are also goldens.
# 3. Diff: the diff pairs with JSON goldens and a base past 2^53, validated
#    against schema/diff.schema.json.
# 4. One dialect: every diagnostics, dump and diff document passes
#    tests/json/dialect.py (a place is file, line, column; no JSON number
#    past 2^53), and one of each, broken on purpose ("col" for "column", a
#    64-bit value as a number), is rejected by its schema and by dialect.py.
# 5. SARIF rules: helpUri names a section of doc/rules.md, which must be
#    what `segc rules --markdown` prints.
#
# The SARIF 2.1.0 schema is not part of this repository and nothing is
# downloaded here: the test reads the copy tests/deps.sh --install fetched
# (from the npm package that ships it, checked by its SHA-256) into the
# cache directory, $SEGC_TEST_CACHE or ~/.cache/segc; SEGC_SARIF_SCHEMA=FILE
# names another copy (with the same SHA-256).  Without it every SARIF
# validation fails, saying so.
#
# In the sanitizer pass (SEGC_SAN=1) every segc run and comparison is
# repeated, not the schema validations: segc writes the same bytes however
# it was built, and the normal pass validates them.
#
# Uses Debian's /usr/bin/python3 with python3-jsonschema.
set -u
SEGC=${1:?usage: run.sh path/to/segc build-dir}
B=${2:?usage: run.sh path/to/segc build-dir}
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
suite_begin json
top=$(pwd)
case $SEGC in /*) ;; *) SEGC=$top/$SEGC ;; esac
PY=/usr/bin/python3
T=tests/json

if ! "$PY" -c 'import jsonschema' 2>/dev/null; then
    bad "setup" "$PY lacks python3-jsonschema (sh tests/deps.sh --install)"
    suite_end
fi

# ---- the SARIF 2.1.0 schema ------------------------------------------------

sarif_schema=$(sarif_schema)
if ! sanitized && ! sarif_cached; then
    bad "SARIF schema" "$sarif_schema is missing or not the pinned file ($SARIF_PKG, SHA-256 $SARIF_SHA256): run sh tests/deps.sh --install"
    sarif_schema=
fi

VER=$("$SEGC" --version | awk '{print $2}')
normalize() { sed "s/\"version\": \"$VER\"/\"version\": \"@SEGC_VERSION@\"/; s|$top/|@TOP@/|g"; }

# compare NAME ACTUAL: byte comparison with tests/json/expect/NAME.
compare() {
    exp=$T/expect/$1
    updating && cp "$2" "$exp"
    if [ ! -f "$exp" ]; then
        bad "$1" "no $exp (run with SEGC_UPDATE=1 and review it)"
    elif ! cmp -s "$2" "$exp"; then
        bad "$1" "differs from $exp"
        diff -u "$exp" "$2" | indent 30
    else
        ok "$1"
    fi
}

# validate NAME SCHEMA FILE: FILE is kept and validated by validate_all,
# which starts one validate.py per schema for every document at once.
TAB=$(printf '\t')
nv=0
mkdir -p "$tmp/v"
validate() {
    if sanitized; then
        return
    elif [ -z "$2" ]; then
        bad "$1: schema" "no schema to validate against (see above)"
    else
        nv=$((nv + 1))
        cp "$3" "$tmp/v/$nv.json"
        printf '%s\t%s\t%s\n' "$2" "$tmp/v/$nv.json" "$1" >>"$tmp/v/queue"
    fi
}
validate_all() {
    [ -f "$tmp/v/queue" ] || return
    cut -f1 "$tmp/v/queue" | sort -u >"$tmp/v/schemas"
    while IFS= read -r schema; do
        # shellcheck disable=SC2046
        "$PY" $T/validate.py "$schema" $(awk -F "$TAB" -v s="$schema" '$1 == s { print $2 }' "$tmp/v/queue") \
            >"$tmp/v.out" 2>&1
        rc=$?
        [ "$rc" -le 1 ] || { bad "validate.py $(basename "$schema")" "exit $rc"; indent 10 <"$tmp/v.out"; }
        while IFS="$TAB" read -r s f name; do
            [ "$s" = "$schema" ] || continue
            if grep -q "^$f: " "$tmp/v.out"; then
                bad "$name: schema" "$(basename "$schema") rejects it"
                grep "^$f: " "$tmp/v.out" | indent 10
            elif [ "$rc" -le 1 ]; then
                ok "$name: schema"
            fi
        done <"$tmp/v/queue"
        if [ "$rc" -eq 1 ] && ! grep -q "^$tmp/v/" "$tmp/v.out"; then
            bad "validate.py $(basename "$schema")" "exit 1 with no document named"
        fi
    done <"$tmp/v/schemas"
    rm -f "$tmp/v/queue"
}

# dialect NAME FILE: the places and numbers of segc's one JSON dialect.
dialect() {
    if sanitized; then
        return
    elif "$PY" $T/dialect.py "$2" >"$tmp/v.out" 2>&1; then
        ok "$1: dialect"
    else
        bad "$1: dialect" "not segc's JSON dialect"
        indent 10 <"$tmp/v.out"
    fi
}

# diag NAME WANT_RC ARGS...: run segc with --diagnostics=json, then =sarif.
diag() {
    name=$1
    want=$2
    shift 2
    for fmt in json sarif; do
        "$SEGC" "$@" --diagnostics=$fmt >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ "$rc" -ne "$want" ]; then
            bad "$name.$fmt: exit" "status $rc, expected $want"
        elif [ -s "$tmp/err" ]; then
            bad "$name.$fmt: stderr" "not empty"
            indent 5 <"$tmp/err"
        else
            ok "$name.$fmt: exit $rc, nothing on stderr"
        fi
        if [ $fmt = json ]; then
            validate "$name.json" schema/diagnostics.schema.json "$tmp/out"
            dialect "$name.json" "$tmp/out"
            normalize <"$tmp/out" >"$tmp/norm"
            compare "$name.json" "$tmp/norm"
        else
            validate "$name.sarif" "$sarif_schema" "$tmp/out"
            if "$PY" $T/sarif_check.py "$SEGC" "$tmp/out" --cache "$tmp/segc-says.json" 2>"$tmp/chk"; then
                ok "$name.sarif: rules table and rule indices"
            else
                bad "$name.sarif: rules table and rule indices" "see below"
                indent 10 <"$tmp/chk"
            fi
            normalize <"$tmp/out" >"$tmp/norm"
            compare "$name.sarif" "$tmp/norm"
        fi
    done
}

C=$T/cases
diag rule-note 1 check $C/rule-note.yaml
diag warning 0 check $C/warning.yaml
diag waived 0 check $C/waived.yaml
diag yaml-syntax 1 check $C/yaml-syntax.yaml
diag fix 1 check $C/fix.yaml
diag unicode 1 check $C/unicode.yaml
diag unreadable 2 check $C/no-such-file.yaml
diag not-utf8 1 check $C/not-utf8.yaml
diag two-files 1 check $C/warning.yaml $C/rule-note.yaml
diag front-end 1 check $C/front-end.yaml
diag empty 1 check $C/empty.yaml
diag command-line 1 check -D 'vram_size=256 +' $C/define.yaml
diag absolute-path 0 check "$top/$C/warning.yaml"
diag odd-name 0 check "$C/odd name+1.yaml"
diag build-ok 0 build samples/paravirtual.yaml -o "$tmp/build-ok"
diag build-error 1 build $C/wddm2.yaml -o "$tmp/build-error"
diag subject 1 check $C/subject.yaml
diag variant 1 check $C/variant.yaml

# Each SARIF result names what it is about (logicalLocations), read from the
# finding's subject, not from its position: fields of vpr: and
# cpu_host_aperture: included.
"$SEGC" check --diagnostics=sarif $C/subject.yaml >"$tmp/out" 2>/dev/null
if "$PY" - "$tmp/out" <<'EOF'; then ok "sarif: logical locations"; else bad "sarif: logical locations" "see above"; fi
import json, sys
want = {
    "bar-size": [("bars.io.size", "size", "property")],
    "vpr-range-inside": [("segments.vram.vpr.range_size", "range_size", "property")],
    "ddi-qs4-banks": [("segments.vram.banks", "banks", "property")],
    "banks-page-aligned": [("segments.vram.banks.near.size", "size", "property")],
    "cpu-host-aperture-size": [("segments.carve.cpu_host_aperture", "cpu_host_aperture", "property"),
                               ("bars.fb", "fb", "object")],
    "paging-segment-aperture": [("paging.segment", "segment", "property")],
}
got = {}
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    ls = r["locations"][0].get("logicalLocations", [])
    got[r["ruleId"]] = [(l["fullyQualifiedName"], l["name"], l["kind"]) for l in ls]
for rule in sorted(set(want) | set(got)):
    if want.get(rule) != got.get(rule):
        print("    |", rule, "expected", want.get(rule), "got", got.get(rule))
        sys.exit(1)
EOF

# Run from a subdirectory, with relative paths (one going up and back) and
# an absolute one: every artifactLocation, taken from the run's
# originalUriBaseIds when it names one, is the file:// URI of the file that
# was checked, as a code-scanning tool resolves it; the absolute path names
# no base.
(cd $C && "$SEGC" check --diagnostics=sarif rule-note.yaml ../cases/waived.yaml "$top/$C/warning.yaml") \
    >"$tmp/subdir.sarif" 2>/dev/null
validate "subdir.sarif" "$sarif_schema" "$tmp/subdir.sarif"
if "$PY" - "$tmp/subdir.sarif" "$top/$C" <<'EOF'; then ok "sarif: locations resolve from a subdirectory (originalUriBaseIds)"; else bad "sarif: locations resolve from a subdirectory" "see above"; fi
import json, os, sys, urllib.parse
run = json.load(open(sys.argv[1]))["runs"][0]
cases = sys.argv[2]
bases = {k: v["uri"] for k, v in run.get("originalUriBaseIds", {}).items()}
want = {"file://" + urllib.parse.quote(os.path.join(cases, f)) for f in ("rule-note.yaml", "waived.yaml", "warning.yaml")}
seen, errs = set(), []
def walk(o):
    if isinstance(o, dict):
        a = o.get("artifactLocation")
        if a:
            uri = urllib.parse.urljoin(bases[a["uriBaseId"]], a["uri"]) if "uriBaseId" in a else a["uri"]
            seen.add(uri)
            if a["uri"].startswith("file:") == ("uriBaseId" in a):
                errs.append("an absolute URI with a base, or a relative one without: %r" % a)
            if not os.path.isfile(urllib.parse.unquote(urllib.parse.urlparse(uri).path)):
                errs.append("%r resolves to %s, no such file" % (a, uri))
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(run["results"])
if bases.get("SRCROOT") != "file://" + urllib.parse.quote(cases) + "/":
    errs.append("SRCROOT is %r" % bases.get("SRCROOT"))
if seen != want:
    errs.append("resolved %s, expected %s" % (sorted(seen), sorted(want)))
for e in errs:
    print("    |", e)
sys.exit(1 if errs else 0)
EOF

# SARIF rules carry fullDescription and helpUri from rules.def: the URI
# names a section of doc/rules.md that exists, and doc/rules.md is what
# `segc rules --markdown` prints (segc explain of every code).
"$SEGC" rules --markdown >"$tmp/rules.md"
updating && cp "$tmp/rules.md" doc/rules.md
if cmp -s "$tmp/rules.md" doc/rules.md; then
    ok "doc/rules.md: segc rules --markdown"
else
    bad "doc/rules.md: segc rules --markdown" "differs (build/segc rules --markdown > doc/rules.md, then review)"
    diff -u doc/rules.md "$tmp/rules.md" | head -n 20 | indent 10
fi
"$SEGC" check --diagnostics=sarif $C/front-end.yaml >"$tmp/out" 2>/dev/null
if "$PY" - "$tmp/out" doc/rules.md <<'EOF'; then ok "sarif: helpUri and fullDescription"; else bad "sarif: helpUri and fullDescription" "see above"; fi
import json, re, sys
rules = json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]
anchors = set(re.findall(r"^## ([a-z0-9-]+)$", open(sys.argv[2]).read(), re.M))
bad = [r["id"] for r in rules if r.get("helpUri") != "doc/rules.md#" + r["id"] or r["id"] not in anchors
       or not r["fullDescription"]["text"].startswith(r["shortDescription"]["text"])]
if bad or not rules:
    print("    |", len(rules), "rules; wrong:", bad[:5])
    sys.exit(1)
EOF

# build --diagnostics=json still writes the outputs.
if [ -f "$tmp/build-ok/contoso_pv_segments.c" ] && [ ! -e "$tmp/build-error" ]; then
    ok "build --diagnostics: outputs written only when valid"
else
    bad "build --diagnostics: outputs written only when valid" "$(ls "$tmp")"
fi

# Text stays the default, on standard error.
"$SEGC" check --color=never $C/warning.yaml >"$tmp/out" 2>"$tmp/err"
if [ ! -s "$tmp/out" ] && grep -q '^tests/json/cases/warning.yaml:8:13: warning: \[cache-coherent-memory\]' "$tmp/err"; then
    ok "text is the default"
else
    bad "text is the default" "stdout or stderr not as expected"
fi

# -q prints nothing, in any format.
"$SEGC" check -q --diagnostics=json $C/rule-note.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then ok "-q --diagnostics=json"; else bad "-q --diagnostics=json" "rc $rc or output"; fi

# -v keeps standard output for the document: its lines go to standard error.
"$SEGC" check -v --diagnostics=json $C/warning.yaml >"$tmp/out" 2>"$tmp/err"
if grep -q '^tests/json/cases/warning.yaml: ok: board json_warning' "$tmp/err" &&
    "$PY" $T/validate.py schema/diagnostics.schema.json "$tmp/out" >/dev/null 2>&1; then
    ok "-v --diagnostics=json"
else
    bad "-v --diagnostics=json" "summary not on stderr or document broken"
fi

"$SEGC" build -v --diagnostics=json samples/agp.yaml -o "$tmp/build-v" >"$tmp/out" 2>"$tmp/err"
if grep -q '^samples/agp.yaml: built board contoso_agp' "$tmp/err" &&
    "$PY" $T/validate.py schema/diagnostics.schema.json "$tmp/out" >/dev/null 2>&1; then
    ok "build -v --diagnostics=json"
else
    bad "build -v --diagnostics=json" "summary not on stderr or document broken"
fi

"$SEGC" check --diagnostics=xml $C/warning.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "takes text, msvc, json or sarif, not 'xml'" "$tmp/err"; then
    ok "--diagnostics=xml is a usage error"
else
    bad "--diagnostics=xml is a usage error" "exit $rc"
fi

validate_all

# ---- dump --------------------------------------------------------------------

for spec in samples/*.yaml samples/chips/*.yaml; do
    name=$(basename "$spec" .yaml)
    "$SEGC" dump --json "$spec" >"$tmp/$name.json" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
        bad "dump $name" "exit $rc"
        indent 5 <"$tmp/err"
        continue
    fi
    validate "dump $name" schema/model.schema.json "$tmp/$name.json"
    dialect "dump $name" "$tmp/$name.json"
    if "$PY" $T/model_vs_expect.py "$tmp/$name.json" tests/gen/expect/$name.txt >"$tmp/cmp" 2>&1; then
        ok "dump $name agrees with tests/gen/expect/$name.txt"
    else
        bad "dump $name agrees with tests/gen/expect/$name.txt" "see below"
        indent 20 <"$tmp/cmp"
    fi
done
normalize <"$tmp/discrete_16g.json" >"$tmp/norm"
compare dump-discrete_16g.json "$tmp/norm"

# A warning goes to stderr and the dump is still made; waivers are in it.
"$SEGC" dump --json --color=never $C/waived.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '\[waiver-unused\]' "$tmp/err"; then ok "dump with a warning"; else bad "dump with a warning" "exit $rc"; fi
validate "dump waived" schema/model.schema.json "$tmp/out"
validate_all
normalize <"$tmp/out" >"$tmp/norm"
compare dump-waived.json "$tmp/norm"

# A variant that deletes a segment and a BAR of its base: neither is in the
# model, the segments after the deleted one moved up an id, the rest is the
# base's with the variant's changes.
"$SEGC" dump --json --color=never $C/variant-delete.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then ok "dump of a variant that deletes"; else bad "dump of a variant that deletes" "exit $rc"; fi
validate "dump variant-delete" schema/model.schema.json "$tmp/out"
if "$PY" - "$tmp/out" <<'EOF'; then ok "dump variant-delete: what is left"; else bad "dump variant-delete: what is left" "see above"; fi
import json, sys
m = json.load(open(sys.argv[1]))
segs = [(s["id"], s["name"], s["base"]["value"], s["size"]["value"]) for s in m["segments"]]
want = [(1, "local", "0x0", "0x200000000"), (2, "gart", "0x10000000000", "0x100000000")]
ok = segs == want and m["bars"] == [] and m["paging"]["segment"]["name"] == "gart"
if not ok:
    print("    |", segs, m["bars"], m["paging"]["segment"])
sys.exit(0 if ok else 1)
EOF
normalize <"$tmp/out" >"$tmp/norm"
compare dump-variant-delete.json "$tmp/norm"

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

# An invalid spec is not dumped.
"$SEGC" dump --json --color=never $C/rule-note.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q '\[segments-overlap\]' "$tmp/err"; then
    ok "dump of an invalid spec: exit 1, diagnostics, no document"
else
    bad "dump of an invalid spec: exit 1, diagnostics, no document" "exit $rc"
fi
"$SEGC" dump --json $C/no-such-file.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ]; then ok "dump of a missing file: exit 2"; else bad "dump of a missing file: exit 2" "exit $rc"; fi

# ---- diff --json ---------------------------------------------------------------

# Every pair of tests/diff with a JSON golden, and a base past 2^53.
for name in samples-discrete-16g no-change segment-removed bank-removed budget-flags cpu-window-moved; do
    old=tests/diff/$name.old.yaml
    [ -f "$old" ] || old=tests/diff/base.yaml
    new=tests/diff/$name.new.yaml
    [ $name = samples-discrete-16g ] && old=samples/discrete.yaml new=samples/discrete_16g.yaml
    "$SEGC" diff --json "$old" "$new" >"$tmp/diff-$name.json" 2>"$tmp/err"
    validate "diff $name" schema/diff.schema.json "$tmp/diff-$name.json"
    dialect "diff $name" "$tmp/diff-$name.json"
done
sed 's/base: 64GiB/base: 0xffff000000001000/' tests/diff/base.yaml >"$tmp/high.yaml"
"$SEGC" diff --json tests/diff/base.yaml "$tmp/high.yaml" >"$tmp/diff-high.json" 2>"$tmp/err"
rc=$?
validate "diff high" schema/diff.schema.json "$tmp/diff-high.json"
dialect "diff high" "$tmp/diff-high.json"
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

# The checks above can fail: each document with "col" for "column", and
# with a 64-bit value as a JSON number, is rejected by its schema and by
# the dialect check.
mutate() { # MUTATION IN OUT: col (the first "column" key) or number (the first hex string, else line)
    "$PY" - "$@" <<'EOF2'
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
EOF2
}
"$SEGC" check --diagnostics=json $C/rule-note.yaml >"$tmp/m-diag.json" 2>/dev/null
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
        "$PY" $T/validate.py "$schema" "$tmp/m.json" >/dev/null 2>&1
        v=$?
        "$PY" $T/dialect.py "$tmp/m.json" >/dev/null 2>&1
        d=$?
        if sanitized || { [ $v -eq 1 ] && [ $d -eq 1 ]; }; then
            ok "$kind with a $how: rejected by $(basename "$schema") and the dialect check"
        else
            bad "$kind with a $how: rejected by $(basename "$schema") and the dialect check" "schema $v, dialect $d"
        fi
    done
done

suite_end
