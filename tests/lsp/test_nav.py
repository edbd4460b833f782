# SPDX-License-Identifier: MIT
"""segc lsp: go to definition, find references and the document outline.

Every expected place is worked out here from the text of the files (the
key or value a name stands at, found with a regular expression) or from
`segc dump --json` (where the model says each segment and bank is named),
never from the server's own answers."""
import json
import os
import re
import shutil
import subprocess
import urllib.parse

import lsplib
from lsplib import ROOT, find_position, offset_position, uri_of

t = lsplib.Test("nav")

SPEC = """\
segc: 1
board: { name: nav1, wddm: "1.3", arch: x64 }
constants:
  vram: 1GiB
  half: vram / 2
bars:
  fb: { index: 0, size: 256MiB }
segments:
  - name: visible
    kind: memory
    size: bar.fb.size
    cpu_visible: { bar: fb, offset: 0 }
  - name: local
    kind: memory
    base: visible.end
    size: vram - visible.size
  - name: gart
    kind: aperture
    base: 64GiB
    size: half
    commit_limit: min(size, vram)
paging:
  segment: gart
"""


def span(text, pattern, group=1, nth=0):
    """The LSP range of group `group` of the nth match of `pattern` in text."""
    m = list(re.finditer(pattern, text, re.M))[nth]
    return {"start": offset_position(text, m.start(group)), "end": offset_position(text, m.end(group))}


def words(text, word):
    """The ranges of every whole-word `word` outside comments."""
    out = []
    for line_start in [0] + [m.end() for m in re.finditer("\n", text)]:
        line = text[line_start:text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
        code = line.split("#", 1)[0]
        for m in re.finditer(r"(?<![\w.])%s\b" % re.escape(word), code):
            out.append({"start": offset_position(text, line_start + m.start()),
                        "end": offset_position(text, line_start + m.end())})
    return out


def at(text, needle, delta=1, nth=0):
    return find_position(text, needle, nth=nth, delta=delta)


def definition(c, uri, pos):
    return c.result("textDocument/definition", {"textDocument": {"uri": uri}, "position": pos})


def references(c, uri, pos, decl):
    return c.result("textDocument/references", {"textDocument": {"uri": uri}, "position": pos,
                                                "context": {"includeDeclaration": decl}})


def key(loc):
    return (loc["uri"], loc["range"]["start"]["line"], loc["range"]["start"]["character"],
            loc["range"]["end"]["line"], loc["range"]["end"]["character"])


def client():
    c = lsplib.Client()
    c.initialize()
    return c


def capabilities():
    with client() as c:
        caps = c.init_result["capabilities"]
        for name in ("definitionProvider", "referencesProvider", "documentSymbolProvider"):
            t.check(caps.get(name) is True, "initialize advertises " + name, caps)
        c.shutdown()
        t.eq(c.exit(), 0, "capabilities: exit status 0")


def definitions():
    path = t.write("nav/spec.yaml", SPEC)
    entry, _, rc = lsplib.check_json(t.segc, path)
    t.eq((rc, entry["diagnostics"]), (0, []), "the spec of the definition cases is clean")
    with client() as c:
        uri = c.open(path, SPEC)
        cases = [
            ("a constant in an expression", at(SPEC, "vram - visible", 2), span(SPEC, r"^  (vram):")),
            ("a constant in a function's arguments", at(SPEC, "min(size, vram)", 11), span(SPEC, r"^  (vram):")),
            ("a constant in a constant", at(SPEC, "half: vram", 7), span(SPEC, r"^  (vram):")),
            ("SEG.size: the segment's size value", at(SPEC, "vram - visible.size", 9),
             span(SPEC, r"name: visible\n.*\n    size: (bar\.fb\.size)")),
            ("SEG.end: the segment's name", at(SPEC, "base: visible.end", 8), span(SPEC, r"name: (visible)")),
            ("bar.NAME.size: the BAR", at(SPEC, "bar.fb.size", 4), span(SPEC, r"^  (fb):")),
            ("a BAR in cpu_visible", at(SPEC, "{ bar: fb", 7), span(SPEC, r"^  (fb):")),
            ("the segment of paging", at(SPEC, "segment: gart", 10), span(SPEC, r"name: (gart)")),
            ("a constant's own key", at(SPEC, "  vram:", 3), span(SPEC, r"^  (vram):")),
            ("a bare size: the current segment's", at(SPEC, "min(size", 5), span(SPEC, r"    size: (half)")),
        ]
        for what, pos, want in cases:
            t.eq(definition(c, uri, pos), {"uri": uri, "range": want}, "definition: " + what)
        for what, pos in (("a number", at(SPEC, "1GiB", 1)), ("a unit", at(SPEC, "1GiB", 2)),
                          ("a key", at(SPEC, "kind:", 1)), ("a kind", at(SPEC, "memory", 2)),
                          ("an operator", at(SPEC, "- visible", 0)), ("a comment-free blank", {"line": 0, "character": 7})):
            t.check(definition(c, uri, pos) in (None, []), "definition on %s: none" % what, definition(c, uri, pos))
        finish(c, "definitions")


def variant_files():
    """A copy of samples/discrete_16g.yaml and its base, and a segment added
    to the variant that reads a base constant."""
    d = os.path.join(t.dir, "chain")
    os.makedirs(os.path.join(d, "chips"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "samples", "chips", "contoso_r.yaml"), os.path.join(d, "chips"))
    text = lsplib.read(os.path.join(ROOT, "samples", "discrete_16g.yaml"))
    text += "  - name: extra\n    kind: aperture\n    base: 2TiB\n    size: fb_bar + vram\n    new: true\n"
    path = t.write("chain/variant.yaml", text)
    return path, text, os.path.join(d, "chips", "contoso_r.yaml")


def extends_chain():
    path, text, base = variant_files()
    entry, _, rc = lsplib.check_json(t.segc, path)
    t.eq((rc, entry["diagnostics"]), (0, []), "the variant is clean")
    btext, buri = lsplib.read(base), uri_of(os.path.realpath(base))
    with client() as c:
        uri = c.open(path, text)
        got = definition(c, uri, at(text, "extends: chips", 12))
        t.eq(got, {"uri": buri, "range": lsplib.lsp_range((0, 0), (0, 0))}, "definition of extends: the base file")
        # A constant the variant overrides: its own key; one it does not: the base's.
        t.eq(definition(c, uri, at(text, "fb_bar + vram", 2)), {"uri": uri, "range": span(text, r"^  (fb_bar):")},
             "definition: an overridden constant is the variant's key")
        t.eq(definition(c, uri, at(text, "size: fb_bar + vram", 17)), {"uri": uri, "range": span(text, r"^  (vram):")},
             "definition: vram (overridden too)")
        t.eq(definition(c, uri, at(text, "- name: gart", 10)), {"uri": uri, "range": span(text, r"- name: (gart)")},
             "definition on a variant's segment entry: its own name")
        # References of vram from the variant's key: every word in both files.
        want = [{"uri": uri, "range": r} for r in words(text, "vram")]
        want += [{"uri": buri, "range": r} for r in words(btext, "vram")]
        got = references(c, uri, at(text, "  vram:", 3), True)
        t.eq(sorted(map(key, got)), sorted(map(key, want)), "references across the extends chain (with declarations)")
        decls = {key({"uri": uri, "range": span(text, r"^  (vram):")}), key({"uri": buri, "range": span(btext, r"^  (vram):")})}
        got = references(c, uri, at(text, "fb_bar + vram", 11), False)
        t.eq(sorted(map(key, got)), sorted(k for k in map(key, want) if k not in decls),
             "references across the extends chain, from a use, without declarations")
        # The segment gart: its name: in both files and paging: segment: in the base.
        want = [{"uri": uri, "range": span(text, r"- name: (gart)")}, {"uri": buri, "range": span(btext, r"- name: (gart)")},
                {"uri": buri, "range": span(btext, r"segment: (gart)")}]
        got = references(c, uri, at(text, "- name: gart", 10), True)
        t.eq(sorted(map(key, got)), sorted(map(key, want)), "references of a segment across the chain")
        finish(c, "extends chain")


def references_in_one_file():
    path = t.write("nav/refs.yaml", SPEC)
    with client() as c:
        uri = c.open(path, SPEC)
        uses = words(SPEC, "vram")[1:]  # the first is the key
        t.eq(len(uses), 3, "the spec uses vram 3 times (text)")
        decl = span(SPEC, r"^  (vram):")
        for what, pos in (("its declaration", at(SPEC, "  vram:", 3)), ("a use", at(SPEC, "min(size, vram)", 12))):
            got = references(c, uri, pos, False)
            t.eq(sorted(map(key, got)), sorted(key({"uri": uri, "range": r}) for r in uses),
                 "references of a constant from %s: its 3 uses" % what)
            got = references(c, uri, pos, True)
            t.eq(sorted(map(key, got)), sorted(key({"uri": uri, "range": r}) for r in uses + [decl]),
                 "references of a constant from %s, with the declaration: 4" % what)
        # A BAR: its key, bar.fb.size (the `fb` in it) and the cpu_visible bar:.
        want = [span(SPEC, r"^  (fb):"), span(SPEC, r"bar\.(fb)\.size"), span(SPEC, r"\{ bar: (fb)")]
        got = references(c, uri, at(SPEC, "{ bar: fb", 7), True)
        t.eq(sorted(map(key, got)), sorted(key({"uri": uri, "range": r}) for r in want), "references of a BAR")
        # A segment: its name:, the `visible` of visible.end and visible.size.
        want = [span(SPEC, r"name: (visible)"), span(SPEC, r"(visible)\.end"), span(SPEC, r"(visible)\.size")]
        got = references(c, uri, at(SPEC, "visible.end", 2), True)
        t.eq(sorted(map(key, got)), sorted(key({"uri": uri, "range": r}) for r in want), "references of a segment")
        t.check(references(c, uri, at(SPEC, "1GiB", 1), True) in (None, []), "references of a number: none")
        finish(c, "references")


def symbols():
    path = os.path.join(ROOT, "samples", "discrete.yaml")
    text = lsplib.read(path)
    model = json.loads(subprocess.run([t.segc, "dump", "--json", path], stdout=subprocess.PIPE, check=True).stdout)
    with client() as c:
        uri = c.open(path, text)
        got = c.result("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        top = {s["name"]: s for s in got}
        t.eq(sorted(top), ["bars", "board", "constants", "paging", "segments"], "symbols: the sections")
        t.eq(top["board"].get("detail"), model["board"]["name"], "symbols: the board with its name")
        t.eq([s["name"] for s in top["constants"]["children"]], [k["name"] for k in model["constants"]],
             "symbols: the constants")
        t.eq([s["name"] for s in top["bars"]["children"]], [b["name"] for b in model["bars"]], "symbols: the BARs")
        segs = top["segments"]["children"]
        t.eq([s["name"] for s in segs], [s["name"] for s in model["segments"]], "symbols: every segment, in order")
        for s, m in zip(segs, model["segments"]):
            where = lsplib.position(text, m["where"]["line"], m["where"]["column"])
            t.eq(s["selectionRange"]["start"], where, "symbols: segment %s at its name (dump's place)" % m["name"])
            t.eq([b["name"] for b in s.get("children", [])], [b["name"] for b in m["banks"]],
                 "symbols: the banks of %s as its children" % m["name"])
            detail = s.get("detail", "")
            t.check(detail.startswith(m["kind"]["value"]) and "id %d" % m["id"] in detail
                    and m["base"]["value"].lower() in detail.lower(),
                    "symbols: segment %s's detail has its kind, id and base" % m["name"], detail)
            for b, mb in zip(s.get("children", []), m["banks"]):
                inside = (s["range"]["start"]["line"] <= b["range"]["start"]["line"]
                          and b["range"]["end"]["line"] <= s["range"]["end"]["line"])
                t.check(inside, "symbols: bank %s inside segment %s's range" % (mb["name"], m["name"]))
        finish(c, "symbols")


def variant_symbols():
    path, text, _ = variant_files()
    with client() as c:
        uri = c.open(path, text)
        got = c.result("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        segs = [s for s in got if s["name"] == "segments"][0]["children"]
        t.eq([s["name"] for s in segs], ["gart", "extra"], "symbols of a variant: only the segments it writes")
        finish(c, "variant symbols")


EDGE = """\
segc: 1
board: { name: n1, wddm: "2.0", arch: x64, page_size: 64KiB }
constants:
  vram: 1GiB
  c2: page_size + size
  c3: nosuch.size + bar.zz.size
  c4: vram +
  blk: |
    vram
bars:
  fb: { index: 0, size: 256MiB }
segments:
  - name: visible
    kind: memory
    size: bar.fb.size
    cpu_host_aperture: { bar: fb, offset: 0, size: bar.fb.size }
  - name: ""
    kind: memory
    size: visible.base + ghost.size
  - name: third
    kind: memory
    base: visible.end
    size: base + page_size
    other: { bar: fb }
paging:
  segment: none
"""


def brief(symbols):
    """(name, detail, children) of each symbol."""
    return [[x["name"], x.get("detail"), brief(x["children"])] for x in symbols]


def edges():
    """Names that stand for nothing, fields not written, a spec segc cannot
    build, a document that is no map, nesting past the cursor's depth."""
    with client() as c:
        uri = c.open(t.write("edge/edge.yaml", EDGE), EDGE)
        page = span(EDGE, r"page_size: (64KiB)")
        for what, pos, want in (
                ("page_size: the board's value", at(EDGE, "page_size + size", 1), page),
                ("page_size in a segment", at(EDGE, "+ page_size", 3), page),
                ("a BAR in cpu_host_aperture", at(EDGE, "{ bar: fb, offset", 7), span(EDGE, r"^  (fb):")),
                ("SEG.base not written: the segment's name", at(EDGE, "visible.base", 1),
                 span(EDGE, r"name: (visible)")),
                ("a bare base: the segment's own base", at(EDGE, "base + page", 1), span(EDGE, r"base: (visible\.end)"))):
            t.eq(definition(c, uri, pos), {"uri": uri, "range": want}, "definition: " + what)
        for what, pos in (("size outside a segment", at(EDGE, "+ size", 3)),
                          ("an unknown segment", at(EDGE, "nosuch.size", 1)),
                          ("an unknown BAR", at(EDGE, "bar.zz", 5)),
                          ("an expression that does not parse", at(EDGE, "vram +", 1)),
                          ("a segment not in the spec", at(EDGE, "ghost", 1)),
                          ("paging: segment: none", at(EDGE, "segment: none", 10)),
                          ("bar: of a map that takes none", at(EDGE, "bar: fb }", 6))):
            t.eq(definition(c, uri, pos), None, "definition on %s: none" % what)
        # vram's only use that parses is the block scalar (`c4: vram +` does not).
        block = [{"uri": uri, "range": span(EDGE, r"^    (vram)$")}]
        for what, ctx in (("no context", None), ("an empty context", {}),
                          ("includeDeclaration false", {"includeDeclaration": False})):
            params = {"textDocument": {"uri": uri}, "position": at(EDGE, "  vram:", 3)}
            if ctx is not None:
                params["context"] = ctx
            t.eq(c.result("textDocument/references", params), block, "references with %s: no declaration" % what)
        want = [span(EDGE, r"^  (fb):"), span(EDGE, r"^    size: bar\.(fb)\.size"), span(EDGE, r"\{ bar: (fb), offset"),
                span(EDGE, r"size: bar\.(fb)\.size \}")]
        got = references(c, uri, at(EDGE, "  fb:", 3), True)
        t.eq(sorted(map(key, got)), sorted(key({"uri": uri, "range": r}) for r in want),
             "references of a BAR through cpu_host_aperture, not through other:")
        t.eq(sorted(map(key, references(c, uri, at(EDGE, "visible.end", 2), False))),
             sorted(key({"uri": uri, "range": span(EDGE, r"(visible)\.%s" % f)}) for f in ("base", "end")),
             "references of a segment without its declaration: its uses")
        # The spec is not built (an unknown key): a segment's detail is its kind.
        t.eq(brief(c.result("textDocument/documentSymbol", {"textDocument": {"uri": uri}})),
             [["board", "n1", []],
              ["constants", None, [["vram", "1GiB", []], ["c2", "page_size + size", []],
                                   ["c3", "nosuch.size + bar.zz.size", []], ["c4", "vram +", []], ["blk", "vram\n", []]]],
              ["bars", None, [["fb", None, []]]],
              ["segments", None, [["visible", "memory", []], ["?", "memory", []], ["third", "memory", []]]],
              ["paging", None, []]], "symbols of a spec segc cannot build: kinds for details, '?' for no name")
        odd = ("segc: 1\nsegments:\n  - name: s\n    kind: memory\n    banks: 5\n  - just\n  - kind: memory\n"
               "  - name: t\n    banks:\n      - { size: 1 }\n      - { name: b2 }\nconstants: 5\nboard: {}\n"
               "paging: { segment: none }\n")
        u2 = c.open("untitled:odd.yaml", odd)
        t.eq(brief(c.result("textDocument/documentSymbol", {"textDocument": {"uri": u2}})),
             [["segments", None, [["s", "memory", []], ["t", None, [["b2", None, []]]]]],
              ["constants", None, []], ["board", None, []], ["paging", None, []]],
             "symbols: entries with no name, banks that are no list and a bank with no name left out")
        u3 = c.open("untitled:list.yaml", "- segc: 1\n")
        t.eq(c.result("textDocument/documentSymbol", {"textDocument": {"uri": u3}}), [], "symbols of a list: none")
        t.eq(definition(c, u3, {"line": 0, "character": 3}), None, "definition in a list: none")
        u4 = c.open("untitled:nobase.yaml", "segc: 1\nextends: nope.yaml\n")
        t.eq(definition(c, u4, {"line": 1, "character": 11}), None, "definition of an extends: that is missing: none")
        t.eq(references(c, u4, {"line": 1, "character": 11}, True), [], "references of an extends: value: none")
        # Nesting deeper than the cursor follows: no hover there, and
        # references walk past it.
        deep = "segc: 1\nconstants:\n  a: 1GiB\n  b: a\nx: %sa%s\n" % ("[" * 20, "]" * 20)
        u5 = c.open("untitled:deep.yaml", deep)
        t.eq(c.result("textDocument/hover", {"textDocument": {"uri": u5}, "position": at(deep, "[a]", 1)}), None,
             "hover 20 lists deep: none")
        t.eq(references(c, u5, at(deep, "  a:", 2), False), [{"uri": u5, "range": span(deep, r"b: (a)")}],
             "references in a document nested 20 deep")
        finish(c, "edges")


def uris():
    """file: URIs as clients write them: percent-escapes in either case, a
    stray '%', a '\\' in a POSIX name (%5C, not a separator), file://localhost/,
    a Windows drive (file:///c:/...); the
    base a variant extends is found through them, and its URI is the one
    an editor has for it."""
    base = "segc: 1\nboard: { name: u, wddm: \"1.3\" }\nsegments:\n  - { name: s, kind: memory, size: 1GiB }\n"
    variant = "segc: 1\nextends: base.yaml\nboard: { name: v }\n"
    odd = os.path.join(t.dir, "uri", "p%zz%00q \u00e9~\\b")
    t.write(os.path.join(odd, "base.yaml"), base)
    path = t.write(os.path.join(odd, "variant.yaml"), variant)
    uri = "file://localhost" + urllib.parse.quote(os.path.dirname(os.path.dirname(path))) + \
        "/p%zz%00q%20%c3%a9%7E%5cb/variant.yaml"
    win = os.path.join(t.dir, "win")
    t.write(os.path.join(win, "c:", "x", "base.yaml"), base)
    t.write(os.path.join(win, "c:", "x", "variant.yaml"), variant)
    with client() as c:
        c.open("untitled:first.yaml", "segc: 1\n")  # a document with no file, compared with each path
        c.open(uri, variant)
        t.eq(c.diags[uri], [], "a URI with escapes: the base beside it is found")
        t.eq(definition(c, uri, at(variant, "base.yaml", 1)),
             {"uri": "file://" + urllib.parse.quote(os.path.realpath(os.path.join(odd, "base.yaml")), safe="/~"),
              "range": lsplib.lsp_range((0, 0), (0, 0))}, "a URI with escapes: extends: goes to the base's URI")
        finish(c, "escaped URIs")
    c = lsplib.Client(cwd=win)
    with c:
        c.initialize()
        wuri = "file:///c:/x/variant.yaml"
        c.open(wuri, variant)
        t.eq(c.diags[wuri], [], "file:///c:/x/variant.yaml: the base read from c:/x/base.yaml")
        t.eq(definition(c, wuri, at(variant, "base.yaml", 1)),
             {"uri": "file://" + urllib.parse.quote(os.path.realpath(os.path.join(win, "c:", "x", "base.yaml")),
                                                    safe="/~"), "range": lsplib.lsp_range((0, 0), (0, 0))},
             "a drive letter's URI: the base's URI, ':' escaped")
        finish(c, "a Windows URI")


def finish(c, what):
    c.shutdown()
    t.eq(c.exit(), 0, "%s: exit status 0" % what)
    t.check("internal error" not in c.stderr(), "%s: no internal error" % what, c.stderr())


for case in (capabilities, definitions, extends_chain, references_in_one_file, symbols, variant_symbols, edges,
             uris):
    t.run(case)
t.end()
