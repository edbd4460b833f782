#!/bin/sh
# SPDX-License-Identifier: MIT
# SARIF beyond the cases' goldens: what each result is about (logical
# locations), locations that resolve from the directory segc ran in
# (originalUriBaseIds), every rule's helpUri and description.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
suite_begin formats-sarif
PY=/usr/bin/python3
C=tests/cases/formats

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
top=$(pwd)
(cd $C && "$SEGC" check --diagnostics=sarif rule-note.yaml ../formats/waived.yaml "$top/$C/warning.yaml") \
    >"$tmp/subdir.sarif" 2>/dev/null
if sanitized; then
    :
elif ! sarif_cached; then
    bad "subdir.sarif: schema" "$(sarif_schema) is missing or not the pinned file: run sh tests/deps.sh --install"
elif "$PY" tests/tools/validate.py "$(sarif_schema)" "$tmp/subdir.sarif" >"$tmp/v.out" 2>&1; then
    ok "subdir.sarif: schema"
else
    bad "subdir.sarif: schema" "the SARIF 2.1.0 schema rejects it"
    indent 10 <"$tmp/v.out"
fi
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
# names a section of doc/rules.md that exists (tests/doc checks that
# doc/rules.md is what `segc explain` says for every code).
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

suite_end
