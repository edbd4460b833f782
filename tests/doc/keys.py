# SPDX-License-Identifier: MIT
"""Every key of a segc spec is in the schema, and the schema has no other.

Usage: keys.py SCHEMA FIELDS_DEF [SEGC]

1. Every row of the field table (compiler/fields.def) names a YAML key and
   the map it is written in (its scope).  That key must be a property of
   the schema's object for that map: a field added to the table without
   the schema fails here.
2. With SEGC: one spec with an unknown key `zz_probe` in every map is
   checked with --diagnostics=json; each [unknown-key] error's fix lists
   the keys segc takes in that map.  That list and the schema's properties
   for the map must be the same set (the keys that are not fields, such as
   `name`, `kind` or `flags`, included).

Prints one line per check: "ok<TAB>WHAT" or "FAIL<TAB>WHAT<TAB>WHY".  Exit
status 0 if every check passed, 1 if one failed, 2 on bad usage or input.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# Each map of a spec: where its object is in the schema (a path through
# properties/items/additionalProperties, so it follows the YAML and not the
# schema's $defs names) and where a probe key goes in the probe spec.
MAPS = {
    "spec": [],
    "board": ["board"],
    "bar": ["bars", "*"],
    "segment": ["segments", "[]"],
    "cpu_visible": ["segments", "[]", "cpu_visible"],
    "bank": ["segments", "[]", "banks", "[]"],
    "vpr": ["segments", "[]", "vpr"],
    "cpu_host_aperture": ["segments", "[]", "cpu_host_aperture"],
    "paging": ["paging"],
}

# The map each scope of fields.def (FieldScope in segc.h) writes its key in.
SCOPES = {
    "SC_BOARD": "board",
    "SC_BAR": "bar",
    "SC_SEG": "segment",
    "SC_CPU": "cpu_visible",
    "SC_BANK": "bank",
    "SC_PAGING": "paging",
    "SC_VPR": "vpr",
    "SC_HOST": "cpu_host_aperture",
    "SC_QS4": "segment",
}

# The probe: one unknown key per map, each on a line of its own.
PROBE = """segc: 1
zz_probe: 1
board:
  name: probe
  wddm: "2.0"
  zz_probe: 1
bars:
  fb:
    index: 0
    size: 256MiB
    zz_probe: 1
segments:
  - name: a
    kind: memory
    size: 1GiB
    zz_probe: 1
    cpu_visible:
      bar: fb
      zz_probe: 1
    banks:
      - name: b
        zz_probe: 1
    vpr:
      range_size: 4KiB
      zz_probe: 1
    cpu_host_aperture:
      bar: fb
      size: 4KiB
      zz_probe: 1
paging:
  segment: none
  zz_probe: 1
"""
PROBE_MAPS = ["spec", "board", "bar", "segment", "cpu_visible", "bank", "vpr", "cpu_host_aperture", "paging"]

results = []


def check(what, why):
    results.append((what, why))


def resolve(schema, node):
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise ValueError("external $ref " + ref)
        node = schema
        for part in ref[2:].split("/"):
            node = node[part]
    return node


def properties(schema, node):
    """The property names an object schema declares, through $ref and the
    combinators (a map whose forms are alternatives takes any form's keys)."""
    node = resolve(schema, node)
    if not isinstance(node, dict):  # true or false: no keys of its own
        return set()
    names = set(node.get("properties", {}))
    for k in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(k, []):
            names |= properties(schema, sub)
    for k in ("if", "then", "else"):
        if k in node:
            names |= properties(schema, node[k])
    return names


def object_at(schema, path):
    node = resolve(schema, schema)
    for part in path:
        if part == "[]":
            node = resolve(schema, node["items"])
        elif part == "*":
            node = resolve(schema, node["additionalProperties"])
        else:
            node = resolve(schema, node["properties"][part])
    return node


def field_rows(path):
    """(id, scope, key) of every FIELD row; comments are not rows."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    rows = []
    for m in re.finditer(r"\bFIELD\(([^()]*)\)", text):
        args = [a.strip() for a in m.group(1).split(",")]
        if len(args) < 5 or not re.fullmatch(r'"[^"]*"', args[4]):
            raise ValueError("a FIELD row without a quoted key: FIELD(" + m.group(1)[:60] + ")")
        rows.append((args[0], args[1], args[4].strip('"')))
    return rows


def segc_keys(segc):
    """The keys segc takes in each map, from the fixes of its unknown-key
    errors on the probe spec."""
    with tempfile.TemporaryDirectory() as d:
        spec = os.path.join(d, "probe.yaml")
        with open(spec, "w", encoding="utf-8") as f:
            f.write(PROBE)
        p = subprocess.run([segc, "check", "--diagnostics=json", spec], capture_output=True, text=True)
    lines = [i + 1 for i, l in enumerate(PROBE.splitlines()) if l.strip().startswith("zz_probe:")]
    line_map = dict(zip(lines, PROBE_MAPS))
    found = {}
    for fl in json.loads(p.stdout)["files"]:
        for dg in fl["diagnostics"]:
            if dg["rule"] != "unknown-key" or dg["line"] not in line_map:
                continue
            m = re.search(r"takes: (.*)$", dg.get("fix") or "")
            if m:
                found[line_map[dg["line"]]] = {k.strip() for k in m.group(1).split(",")}
    return found


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    schema_keys = {m: properties(schema, object_at(schema, p)) for m, p in MAPS.items()}

    rows = field_rows(sys.argv[2])
    if not rows:
        check(f"{sys.argv[2]}: the field table", "no FIELD(...) row read from it")
    for fid, scope, key in rows:
        what = f"fields.def {fid}: key '{key}'"
        if scope not in SCOPES:
            check(what, f"scope {scope} is written in no map tests/doc/keys.py knows (add it to SCOPES)")
        elif key not in schema_keys[SCOPES[scope]]:
            check(what, f"not a property of the {SCOPES[scope]} map in {sys.argv[1]}")
        else:
            check(f"{what} is in the schema's {SCOPES[scope]} map", None)

    if len(sys.argv) == 4:
        found = segc_keys(sys.argv[3])
        for m in PROBE_MAPS:
            what = f"the {m} map: segc's keys and the schema's"
            if m not in found:
                check(what, "segc reported no unknown-key error listing its keys there")
                continue
            only_segc = sorted(found[m] - schema_keys[m])
            only_schema = sorted(schema_keys[m] - found[m])
            if only_segc or only_schema:
                check(what, f"only segc takes {only_segc}, only the schema has {only_schema}")
            else:
                check(f"{what} agree ({len(found[m])} keys)", None)

    for what, why in results:
        print(f"ok\t{what}" if why is None else f"FAIL\t{what}\t{why}")
    return 1 if any(why is not None for _, why in results) else 0


if __name__ == "__main__":
    sys.exit(main())
