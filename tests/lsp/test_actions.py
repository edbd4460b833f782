# SPDX-License-Identifier: MIT
"""segc lsp: quick fixes (textDocument/codeAction).

For each finding segc knows an edit for, the quick fix offered where
`segc check --diagnostics=json` puts the finding is applied to the text
here, and the result is checked again, by `segc check` and by the server
after the edit: the finding is gone and no other appeared.  A finding
with no edit gets no action, nor does a range away from the findings, a
request for other kinds of action or for diagnostics no finding is.  A
finding a variant's value caused in its base is fixed in the variant."""
import os

import lsplib
from lsplib import position, lsp_range

t = lsplib.Test("actions")

HEAD = 'segc: 1\nboard: { name: t1, wddm: "1.3", arch: x64 }\n'
BANKS = HEAD + "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    banks:\n      - { name: a, size: 256MiB }\n"
PRESERVED = "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
HEAD2 = HEAD.replace('"1.3"', '"2.0"')
SEG = "  - { name: v, kind: memory, size: 1GiB }\n"
GART = "  - { name: gart, kind: aperture, base: 4GiB, size: 256MiB }\n"
SME = HEAD + "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    system_memory_end: %s\n" + PRESERVED

# (name, spec, the finding's code, the text after the fix)
FIXES = [
    ("a decimal unit", HEAD + "constants:\n  vram: 256MB\nsegments:\n  - { name: v, kind: memory, size: vram }\n",
     "expr-unit", "  vram: 256MiB\n"),
    ("a misspelt key", HEAD + "segments:\n  - name: v\n    kind: memory\n    sise: 1GiB\n",
     "unknown-key", "    size: 1GiB\n"),
    ("a misspelt name", HEAD + "constants: { vram: 1GiB }\nsegments:\n  - { name: v, kind: memory, size: vrm }\n",
     "unknown-name", "size: vram }"),
    ("banks short of the segment (block map)", BANKS + "      - name: b\n        size: 256MiB\n",
     "banks-cover", "      - name: b\n"),
    ("banks past the segment (flow map)", BANKS + "      - { name: b, size: 1GiB }\n",
     "banks-cover", "      - { name: b }\n"),
    ("system_memory_end the reserved size", SME % "256MiB", "system-memory-end-page", "system_memory_end: 256MiB - 1\n"),
    ("system_memory_end an expression", SME % "0x100 << 20", "system-memory-end-page",
     "system_memory_end: (0x100 << 20) - 1\n"),
    ("system_memory_end the segment size", SME % "size", "system-memory-end-inside", "system_memory_end: size - 1\n"),
    ("a fractional size", HEAD + "segments:\n  - { name: v, kind: memory, size: 2.5GiB }\n", "expr-syntax",
     "size: 2560MiB }"),
    ("a number prefix in capitals", HEAD + "segments:\n  - { name: v, kind: memory, size: 0X4000_0000 }\n",
     "expr-syntax", "size: 0x4000_0000 }"),
    ("a tab in the indentation", HEAD + "segments:\n\t- { name: v, kind: memory, size: 1GiB }\n", "yaml-syntax",
     "\n  - { name: v"),
    ("a WDDM version with a blank", HEAD.replace('"1.3"', '"1.3 "') + "segments:\n" + SEG, "bad-value",
     'wddm: "1.3",'),
    ("a WDDM version with its name", HEAD.replace('"1.3"', "WDDM1.3") + "segments:\n" + SEG, "bad-value",
     'wddm: "1.3",'),
    ("a flag newer than board.wddm", HEAD + "segments:\n" + SEG.replace(" }", ", flags: [use_64kb_pages] }") + GART,
     "flag-wddm-version", 'wddm: "2.0",'),
    ("a BAR index taken", HEAD + "bars:\n  fb: { index: 0, size: 256MiB }\n  io: { index: 0, size: 1MiB }\n"
     "segments:\n" + SEG, "bar-index", "io: { index: 1,"),
    ("a BAR that is no power of two", HEAD + "bars:\n  fb: { index: 0, size: 384MiB }\nsegments:\n" + SEG,
     "bar-size", "size: 512MiB }"),
    ("a 32-bit BAR past 4 GiB", HEAD + "bars:\n  fb: { index: 0, size: 8GiB, bits: 32 }\nsegments:\n" + SEG,
     "bar-size", "bits: 64 }"),
    ("reserved_sys_mem", HEAD2 + "segments:\n" + GART + SEG.replace(" }", ", flags: [direct_flip, reserved_sys_mem] }"),
     "reserved-sys-mem", "flags: [direct_flip] }"),
    ("reserved_sys_mem first of a block list", HEAD2 + "segments:\n" + GART + "  - name: v\n    kind: memory\n"
     "    size: 1GiB\n    flags:\n      - reserved_sys_mem\n      - direct_flip\n", "reserved-sys-mem",
     "    flags:\n      - direct_flip\n"),
    ("a memory paging segment", HEAD + "segments:\n" + SEG + GART + "paging: { segment: v }\n",
     "paging-segment-aperture", "segment: gart }"),
    ("banks under QUERYSEGMENT4", HEAD2 + "segments:\n  - name: v\n    kind: memory\n"
     "    size: 1GiB\n    banks:\n      - { name: a, size: 256MiB }\n      - { name: b }\n" + GART,
     "ddi-qs4-banks", "    size: 1GiB\n  - { name: gart"),
]


def apply_edits(text, edits):
    """text with LSP TextEdits (UTF-16 positions) applied, last first."""
    lines = text.split("\n")

    def offset(p):
        before = sum(len(line) + 1 for line in lines[:p["line"]])
        line, n, i = lines[p["line"]] if p["line"] < len(lines) else "", 0, 0
        while i < len(line) and n < p["character"]:
            n += lsplib.units(line[i])
            i += 1
        return before + i

    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                    reverse=True):
        text = text[:offset(e["range"]["start"])] + e["newText"] + text[offset(e["range"]["end"]):]
    return text


def check_range(text, d):
    start = position(text, d["line"], d["column"])
    end = position(text, d.get("end_line", d["line"]), d.get("end_column", d["column"]))
    return {"start": start, "end": end}


def actions(c, uri, rng, diags=()):
    return c.result("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": rng,
                                                "context": {"diagnostics": list(diags)}})


def fix(name, spec, code, fixed_line):
    path = t.write("fix/%s.yaml" % name.replace(" ", "_"), spec)
    entry, _, _ = lsplib.check_json(t.segc, path)
    found = [d for d in entry["diagnostics"] if d["rule"] == code]
    if not t.check(len(found) == 1, "%s: check reports %s once" % (name, code), entry["diagnostics"]):
        return
    others = sorted(d["rule"] for d in entry["diagnostics"] if d is not found[0])
    with lsplib.Client() as c:
        c.initialize()
        uri = c.open(path, spec)
        published = [d for d in c.diags[uri] if d["code"] == code]
        got = actions(c, uri, check_range(spec, found[0]), published)
        if not t.check(len(got) == 1, "%s: one code action where check puts the finding" % name, got):
            return
        a = got[0]
        t.eq(a.get("kind"), "quickfix", "%s: a quickfix" % name)
        t.eq(a.get("isPreferred"), True, "%s: preferred (the one fix of its finding)" % name)
        t.eq([d["code"] for d in a.get("diagnostics", [])], [code], "%s: linked to the %s finding" % (name, code))
        t.eq(a.get("diagnostics"), published, "%s: the diagnostic as published" % name)
        changes = a.get("edit", {}).get("changes", {})
        t.eq(list(changes), [uri], "%s: the edit is of the document" % name)
        fixed = apply_edits(spec, changes.get(uri, []))
        t.check(fixed_line in fixed, "%s: the fixed text has %r" % (name, fixed_line), fixed)
        after = t.write("fix/%s.fixed.yaml" % name.replace(" ", "_"), fixed)
        entry2, _, _ = lsplib.check_json(t.segc, after)
        t.eq(sorted(d["rule"] for d in entry2["diagnostics"]), others,
             "%s: segc check after the fix: %s gone, nothing new" % (name, code))
        c.change(uri, None, fixed)
        t.eq(sorted(d["code"] for d in c.diags[uri]), others, "%s: the server after the edit: gone too" % name)
        t.eq(actions(c, uri, lsp_range((0, 0), (len(fixed.split("\n")), 0))), [],
             "%s: no action left after the fix" % name)
        c.shutdown()
        t.eq(c.exit(), 0, "%s: exit status 0" % name)


def no_fix():
    # A bank that is not the last passes the segment's end: check says what
    # is left, but there is no one edit (which bank to shrink?).
    spec = BANKS.replace("256MiB", "2GiB") + "      - { name: b }\n"
    path = t.write("nofix/bank.yaml", spec)
    entry, _, _ = lsplib.check_json(t.segc, path)
    t.check(entry["diagnostics"], "no fix: check reports the bank", entry)
    with lsplib.Client() as c:
        c.initialize()
        t.check(c.init_result["capabilities"].get("codeActionProvider", {}).get("codeActionKinds") == ["quickfix"],
                "initialize advertises quickfix code actions", c.init_result)
        uri = c.open(path, spec)
        for d in entry["diagnostics"]:
            t.eq(actions(c, uri, check_range(spec, d), c.diags[uri]), [], "no fix: no action for %s" % d["rule"])
        # A range away from a finding that has an edit.
        spec2 = FIXES[0][1]
        uri2 = c.open(t.write("nofix/unit.yaml", spec2), spec2)
        t.eq(actions(c, uri2, lsp_range((0, 0), (0, 4))), [], "no action for a range away from the finding")
        n = len(spec2.split("\n"))
        t.eq(actions(c, uri2, lsp_range((n - 2, 0), (n - 1, 0))), [], "no action for a range after the finding")
        t.eq(len(actions(c, uri2, lsp_range((0, 0), (len(spec2.split("\n")), 0)))), 1,
             "the whole document's range: the one action")
        c.shutdown()
        t.eq(c.exit(), 0, "no fix: exit status 0")


def actions_at(c, uri, text, needle):
    """The actions offered where `needle` starts in text."""
    at = lsplib.offset_position(text, text.index(needle))
    return actions(c, uri, {"start": at, "end": at})


def in_base():
    # A finding in the file a variant extends: offered at the variant's
    # extends: (where the server shows it), editing the base file.
    base = t.write("base/base.yaml", FIXES[0][1])
    variant = "segc: 1\nextends: base.yaml\nboard: { name: t2 }\n"
    path = t.write("base/variant.yaml", variant)
    with lsplib.Client() as c:
        c.initialize()
        got = actions_at(c, c.open(path, variant), variant, "base.yaml")
        buri = lsplib.uri_of(os.path.realpath(base))
        if t.check(len(got) == 1, "a base file's finding: one action at extends:", got):
            changes = got[0]["edit"]["changes"]
            t.eq(list(changes), [buri], "a base file's finding: the edit is of the base file")
            fixed = apply_edits(lsplib.read(base), changes.get(buri, []))
            t.check("vram: 256MiB" in fixed, "a base file's finding: the unit fixed there", fixed)
        c.shutdown()
        t.eq(c.exit(), 0, "base: exit status 0")


def in_variant():
    # A finding in the base that the variant's board.wddm caused: shown at
    # the variant's value, its fix an edit of the variant, never of the base.
    base_text = (HEAD2 + "segments:\n" + SEG.replace(" }", ", flags: [use_64kb_pages] }") + GART)
    base = t.write("variant/base.yaml", base_text)
    variant = 'segc: 1\nextends: base.yaml\nboard: { name: w13, wddm: "1.3" }\n'
    path = t.write("variant/variant.yaml", variant)
    with lsplib.Client() as c:
        c.initialize()
        uri = c.open(path, variant)
        got = actions_at(c, uri, variant, '"1.3"')
        if t.check(len(got) == 1, "a variant's value behind its base's finding: one action at it", got):
            changes = got[0]["edit"]["changes"]
            t.eq(list(changes), [uri], "a variant's value behind its base's finding: the edit is of the variant")
            fixed = apply_edits(variant, changes.get(uri, []))
            t.check('wddm: "2.0"' in fixed, "a variant's value behind its base's finding: its wddm raised", fixed)
            entry, _, _ = lsplib.check_json(t.segc, t.write("variant/variant.fixed.yaml", fixed))
            t.eq(entry["diagnostics"], [], "a variant's value behind its base's finding: check after the fix: clean")
        # The variant's constant leaves the base's banks short: the base's
        # edit (its last bank's size left out) is not offered.
        t.write("variant/banked.yaml", BANKS.replace("size: 1GiB", "size: vram").replace(
            "segments:", "constants: { vram: 1GiB }\nsegments:") + "      - { name: b, size: 256MiB }\n")
        short = "segc: 1\nextends: banked.yaml\nconstants: { vram: 2GiB }\n"
        uri2 = c.open(t.write("variant/short.yaml", short), short)
        t.eq([d["code"] for d in c.diags[uri2]], ["banks-cover"], "a variant's constant: the base's banks-cover")
        t.eq(actions(c, uri2, lsp_range((0, 0), (len(short.split("\n")), 0))), [],
             "a variant's constant behind its base's finding: no edit of the base")
        c.shutdown()
        t.eq(c.exit(), 0, "variant: exit status 0")


def bad_range():
    spec = FIXES[0][1]
    with lsplib.Client() as c:
        c.initialize()
        uri = c.open(t.write("badrange/unit.yaml", spec), spec)
        for what, params in (("no range", {}), ("a range with no end", {"range": {"start": {"line": 0, "character": 0}}}),
                             ("a range with a negative start", {"range": lsp_range((-1, 0), (0, 0))})):
            r = c.request("textDocument/codeAction", dict(params, textDocument={"uri": uri},
                                                          context={"diagnostics": []}))
            t.eq(r.get("error"), {"code": -32602, "message": "no range"}, "codeAction with %s: -32602" % what)
        c.shutdown()
        t.eq(c.exit(), 0, "bad range: exit status 0")


def context():
    # CodeActionContext: `only` asks for kinds (hierarchical: "" is every
    # kind, "a" holds "a.b"); `diagnostics` names the findings to fix.
    spec = HEAD + "constants:\n  vram: 256MB\n  other: 1GB\nsegments:\n  - { name: v, kind: memory, size: vram }\n"
    path = t.write("context/two.yaml", spec)
    entry, _, _ = lsplib.check_json(t.segc, path)
    t.eq([d["rule"] for d in entry["diagnostics"]], ["expr-unit"] * 2, "context: check finds two units")
    whole = lsp_range((0, 0), (len(spec.split("\n")), 0))
    with lsplib.Client() as c:
        c.initialize()
        uri = c.open(path, spec)
        vram, other = sorted(c.diags[uri], key=lambda d: d["range"]["start"]["line"])

        def ask(diags=(), **ctx):
            return c.result("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": whole,
                                                        "context": dict(ctx, diagnostics=list(diags))})
        t.eq(ask(only=["refactor"]), [], "only: refactor: no quick fix")
        kinds = ([""], ["quickfix"], ["refactor", "quickfix"], ["quickfix.more"], ["quick"], ["source"], [], [7],
                 "quickfix")
        t.eq([len(ask(only=k)) for k in kinds], [2, 2, 2, 0, 0, 0, 0, 0, 2],
             "only: the fixes for '' and 'quickfix', none for other kinds or their parts; not a list: as if absent")
        got = ask([other])
        if t.check(len(got) == 1, "diagnostics: the fix of the one named only", got):
            t.eq(got[0]["diagnostics"], [other], "diagnostics: the action is linked to it")
            t.check("  other: 1GiB\n" in apply_edits(spec, got[0]["edit"]["changes"][uri]),
                    "diagnostics: its edit fixes it", got[0])
        t.eq(ask([dict(other, code="unknown-key")]), [], "diagnostics: the range of one, another code: no action")
        t.eq(ask([dict(other, range=lsp_range((0, 0), (0, 4)))]), [],
             "diagnostics: the code of one, another range: no action")
        t.eq(len(ask([vram, other], only=["quickfix"])), 2, "diagnostics naming both: both fixes")
        c.shutdown()
        t.eq(c.exit(), 0, "context: exit status 0")


for case in FIXES:
    t.run(fix, *case)
t.run(no_fix)
t.run(in_base)
t.run(in_variant)
t.run(bad_range)
t.run(context)
t.end()
