# SPDX-License-Identifier: MIT
"""Prints doc/keys.md: every key of a spec and every flag, with what the
JSON Schema of the input format says of it.

    python3 tests/tools/keys-doc.py schema/segc.schema.json > doc/keys.md

The schema is where each key is described (editors show the text on
hover); this page is that text, one table per map, so that it is written
once.  tests/doc/pages.sh checks that doc/keys.md is what this prints.
"""
import json
import sys

schema = json.load(open(sys.argv[1], encoding="utf-8"))
defs = schema["$defs"]
out = []


def cell(text):
    return " ".join((text or "").split()).replace("|", "\\|")


def resolve(node):
    ref = node.get("$ref", "")
    return defs[ref.split("/")[-1]] if ref.startswith("#/$defs/") else node


def table(props, prefix=""):
    """One row per key; an object written inline (or one of several forms)
    adds rows for its own keys, named KEY.SUBKEY."""
    rows = []
    for key, sub in props.items():
        node = resolve(sub)
        what = sub.get("description") or node.get("description") or sub.get("title") or node.get("title")
        rows.append("| `%s%s` | %s |" % (prefix, key, cell(what)))
        forms = [node] + node.get("oneOf", [])
        for form in forms:
            if "properties" in form and form is not schema:
                rows += table(form["properties"], prefix + key + ".")
    return rows


def section(title, props, intro):
    out.append("")
    out.append("## " + title)
    out.append("")
    if intro:
        out.append(intro)
        out.append("")
    out.append("| key | what |")
    out.append("|---|---|")
    out.extend(table(props))


out.append("# Every key of a spec")
out.append("")
out.append("What each key of a spec means, as the JSON Schema of the input format")
out.append("([schema/segc.schema.json](../schema/segc.schema.json)) describes it for")
out.append("editors: this page is written from the schema by")
out.append("tests/tools/keys-doc.py, and tests/doc checks that it is.  [spec.md](spec.md)")
out.append("explains the format; `man 5 segc` has the same keys.")

top = {k: v for k, v in schema["properties"].items() if "$ref" not in v}
section("Top level", top, cell(schema.get("description")))
for key, name in (("board", "board"), ("bars", "bar"), ("segments", "segment"), ("paging", "paging"),
                  ("allocations", "class")):
    d = defs[name]
    intro = cell(schema["properties"][key].get("description") or d.get("description"))
    section("`%s:`" % key + (" (each)" if key in ("bars", "segments", "allocations") else ""), d["properties"], intro)
section("`banks:` (each)", defs["bank"]["properties"], cell(defs["bank"].get("description")))
section("`prefer:` of a class, an item written as a mapping", defs["preference"]["properties"],
        cell(defs["preference"].get("description")))
section("`banks:` of a class, an item written as a mapping", defs["bank_hint"]["properties"],
        cell(defs["bank_hint"].get("description")))

out.append("")
out.append("## Flags")
out.append("")
out.append(cell(defs["flag"].get("description")))
out.append("")
out.append("| flag | what |")
out.append("|---|---|")
for f in defs["flag"]["anyOf"]:
    out.append("| `%s` | %s |" % (f["const"], cell(f.get("description"))))
print("\n".join(out))
