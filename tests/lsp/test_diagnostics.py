# SPDX-License-Identifier: MIT
"""segc lsp: diagnostics.  What the server publishes for a document is held
to what `segc check --diagnostics=json` says of the same text: the same
codes, severities, messages (fix appended), notes (as relatedInformation),
at the same places, check's 1-based line and byte column converted here to
LSP's 0-based line and UTF-16 (or, negotiated, UTF-8) character.  Then
incremental edits, documents that are not specs, `extends` chains read from
the disk and from unsaved open buffers, and didClose."""
import glob
import json
import os
import re
import shlex
import subprocess

import lsplib
from lsplib import ROOT, position, find_position, lsp_range, uri_of

t = lsplib.Test("diagnostics")

SEVERITY = {"error": 1, "fatal": 1, "warning": 2, "note": 3}


def is_spec(text):
    """A spec has a top-level `segc:` key (the README's rule for the server)."""
    return re.search(r"^segc[ \t]*:", text, re.M) is not None


def extends_range(text, enc):
    """The value of the document's `extends:` line, where findings of the
    files it extends with no note in the document (and of -D values) are
    shown; else its start."""
    m = re.search(r"^extends[ \t]*:[ \t]*([^\n\r#]*?)[ \t]*(?:#[^\r\n]*)?\r?$", text, re.M)
    if not m:
        return lsp_range((0, 0), (0, 0))
    return {"start": lsplib.offset_position(text, m.start(1), enc),
            "end": lsplib.offset_position(text, m.end(1), enc)}


def check_range(text, d, enc):
    """The LSP range of a diagnostic or note of check's JSON, in text."""
    text = text.replace("\r\n", "\n")  # a CR LF ends a line as LF does; columns before it are the same
    start = position(text, d["line"], d["column"], enc)
    end_line, end_col = d.get("end_line", d["line"]), d.get("end_column", d["column"])
    if end_line == d["line"] and end_col > d["column"]:
        end = position(text, end_line, end_col, enc)
    else:  # an empty span covers one character
        line = text.split("\n")[d["line"] - 1]
        ch = line.encode("utf-8")[d["column"] - 1:].decode("utf-8")[:1]
        end = dict(start, character=start["character"] + (lsplib.units(ch, enc) if ch else 0))
    return {"start": start, "end": end}


def expected(path, text, check_diags, enc, texts=None):
    """The diagnostics the server must publish for the document `path`
    (text), from check's JSON for a file with that text: the same list in
    the same order."""
    texts = dict(texts or {})
    texts[os.path.abspath(path)] = text

    def text_of(p):
        p = os.path.abspath(p)
        if p not in texts:
            texts[p] = lsplib.read(p)
        return texts[p]

    def location(d, enc):
        # A file by its canonical path (dir/../x.yaml is x.yaml's URI).
        return {"uri": uri_of(os.path.realpath(d["file"])), "range": check_range(text_of(d["file"]), d, enc)}

    out = []
    for d in check_diags:
        here = os.path.abspath(d["file"]) == os.path.abspath(path)
        msg = d["message"] + ("\nfix: " + d["fix"] if d.get("fix") else "")
        related = []
        if here:
            rng = check_range(text, d, enc)
        else:
            # At its first note in the document (a variant's value that
            # caused it), else at the extends: value.
            mine = [n for n in d.get("notes", []) if os.path.abspath(n["file"]) == os.path.abspath(path)]
            rng = check_range(text, mine[0], enc) if mine else extends_range(text, enc)
            msg = "%s:%d:%d: %s" % (d["file"], d["line"], d["column"], msg)
            if not d["file"].startswith("<"):  # "<command line>" is no place
                related.append({"location": location(d, enc), "message": "the finding is here"})
        for n in d.get("notes", []):
            if not n["file"].startswith("<"):
                related.append({"location": location(n, enc), "message": n["message"]})
        want = {"range": rng, "severity": SEVERITY[d["severity"]], "code": d["rule"], "source": "segc",
                "message": msg}
        if related:
            want["relatedInformation"] = related
        out.append(want)
    return out


def compare(got, want, what):
    """got and want as lists of diagnostics: equal, or the first difference."""
    if got == want:
        t.ok(what)
        return True
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            keys = sorted(k for k in set(g) | set(w) if g.get(k) != w.get(k))
            t.bad(what, "diagnostic %d (%s) differs in %s:\n  got  %s\n  want %s" % (
                i, w.get("code"), ", ".join(keys), json.dumps({k: g.get(k) for k in keys}),
                json.dumps({k: w.get(k) for k in keys})))
            return False
    t.bad(what, "%d diagnostics, expected %d: got codes %s, expected %s" % (
        len(got), len(want), [g.get("code") for g in got], [w.get("code") for w in want]))
    return False


def against_check(c, path, what, text=None, args=(), uri=None, texts=None, entry=None):
    """Opens path (or uri) with text and compares its diagnostics with
    check's on the file at path (which holds that text; its entry of
    check's JSON when known)."""
    text = lsplib.read(path) if text is None else text
    if entry is None:
        entry, _, _ = lsplib.check_json(t.segc, os.path.abspath(path), *args)
    want = expected(path, text, entry["diagnostics"], c.encoding, texts) if is_spec(text) else []
    uri = uri or uri_of(path)
    if uri not in c.diags or c.diags_text.get(uri) != text:
        c.open(uri, text)
        c.diags_text[uri] = text
    return compare(c.diags.get(uri), want, what), entry


def client(args=(), encodings=None):
    c = lsplib.Client(t.segc, args=args)
    c.initialize(encodings=encodings)
    c.diags_text = {}
    return c


def finish(c, what):
    c.shutdown()
    t.eq(c.exit(), 0, "%s: exit status 0" % what)
    t.eq(c.stderr(), "", "%s: nothing on stderr" % what)


# ---- every sample is silent -------------------------------------------------


def samples():
    paths = sorted(glob.glob(os.path.join(ROOT, "samples", "*.yaml")) +
                   glob.glob(os.path.join(ROOT, "samples", "*", "*.yaml")))
    entries = lsplib.check_json_files(t.segc, paths)
    with client() as c:
        for path in paths:
            name = os.path.relpath(path, ROOT)
            entry = entries[path]
            t.check(entry["status"] == "ok" and not entry["diagnostics"],
                    "%s: segc check finds it valid and silent" % name, entry)
            uri = c.open(path)
            t.eq(c.diags.get(uri), [], "%s: no diagnostics" % name)
            t.eq(c.published[uri][-1].get("version"), 1, "%s: published for version 1" % name)
        finish(c, "samples")


# ---- the golden cases, as check sees them -----------------------------------


def golden():
    """Every golden case that is a spec checked with `segc check [OPTIONS]
    NAME.yaml` (tests/lib.sh, spec_cases), in servers started with its
    options."""
    by_args = {}
    cases = subprocess.run(["sh", "-c", ". tests/lib.sh && spec_cases"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout
    for line in cases.splitlines():
        opts, path = line.split("\t")
        by_args.setdefault(opts, []).append(os.path.join(ROOT, path))
    kinds = set()
    for args, paths in sorted(by_args.items()):
        argv = shlex.split(args)
        p = subprocess.run([t.segc, "check"] + argv + [paths[0]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode == 2:  # options check refuses: lsp refuses them alike
            with lsplib.Client(t.segc, args=argv) as c:
                st = c.wait_exit()
                t.check(st == 2 and c.stderr() == p.stderr.decode(), "segc lsp %s: refused as check refuses it" % args,
                        "status %d, stderr %r; check: %r" % (st, c.stderr(), p.stderr.decode()))
            continue
        entries = lsplib.check_json_files(t.segc, paths, *argv)
        with client(argv) as c:
            for path in paths:
                name = os.path.relpath(path, ROOT)
                ok, entry = against_check(c, path, "%s%s: as segc check%s" % (
                    name, " (%s)" % args if args else "", " --diagnostics=json" if not args else ""), args=argv,
                    entry=entries[path])
                for d in entry["diagnostics"]:
                    kinds.add(d["severity"])
                    kinds.add("notes" if d.get("notes") else "no notes")
                    kinds.add("fix" if d.get("fix") else "no fix")
                    kinds.add("here" if os.path.abspath(d["file"]) == path else "in a base")
                c.close(uri_of(path))
                if entry["diagnostics"] and is_spec(lsplib.read(path)):
                    t.eq(c.diags.get(uri_of(path)), [], "%s: didClose publishes no diagnostics" % name)
            finish(c, "golden cases%s" % (" with " + args if args else ""))
    # The comparison above covered each kind of finding.
    for kind in ("error", "warning", "notes", "no notes", "fix", "no fix", "here", "in a base"):
        t.check(kind in kinds, "the golden cases include a finding with %s" % kind, sorted(kinds))


def utf16():
    """Characters past U+007F and past U+FFFF (a surrogate pair in UTF-16)
    before the place of a finding, in both encodings."""
    text = ('segc: 1\nboard: { name: golden, wddm: "1.3" }\nsegments:\n'
            '  - { name: vram, kind: memory, size: 256MiB, waive: { cache-coherent-memory: "\U0001F600 été \U0001F680" },'
            ' fröb: 1 }\n'
            '  - { name: "v\u00e9\U0001F600", kind: memory, size: 100 }  # \U0001F600\n')
    path = t.write("utf16/wide.yaml", text)
    for enc in ("utf-16", "utf-8"):
        with client(encodings=[enc]) as c:
            t.eq(c.encoding, enc, "non-ASCII text: %s negotiated" % enc)
            ok, entry = against_check(c, path, "non-ASCII text before the column: %s positions as check's" % enc)
            codes = [d["rule"] for d in entry["diagnostics"]]
            t.check("unknown-key" in codes, "non-ASCII text: check finds the unknown key", codes)
            # Independently of check: the unknown key's range, from the text.
            d = [d for d in c.diags[uri_of(path)] if d["code"] == "unknown-key"]
            line = text.split("\n")[3]
            i = line.index("fröb")
            want = lsp_range((3, lsplib.units(line[:i], enc)), (3, lsplib.units(line[:i + 4], enc)))
            t.check(d and d[0]["range"] == want, "non-ASCII text: 'fröb' at %s character %d (%s)" % (
                enc, want["start"]["character"], "UTF-16 units" if enc == "utf-16" else "bytes"),
                d and d[0]["range"])
            finish(c, "non-ASCII text (%s)" % enc)


# ---- edits ---------------------------------------------------------------


def edits():
    src = lsplib.read(os.path.join(ROOT, "samples", "discrete.yaml"))
    path = t.write("edit/discrete.yaml", src)
    uri = uri_of(path)
    with client() as c:
        c.open(uri, src)
        t.eq(c.diags[uri], [], "discrete.yaml: no diagnostics")
        # A size for the last bank (which took the rest) leaves a gap.
        anchor = "- { name: part3"
        at = find_position(src, anchor, delta=len(anchor))
        c.change(uri, lsp_range(at, at), ", size: 512MiB", version=2)
        edited = src.replace(anchor, anchor + ", size: 512MiB")
        t.write("edit/discrete.yaml", edited)
        entry, _, _ = lsplib.check_json(t.segc, path)
        t.check([d["rule"] for d in entry["diagnostics"]] == ["banks-cover"],
                "a bank gap: check reports banks-cover", [d["rule"] for d in entry["diagnostics"]])
        compare(c.diags[uri], expected(path, edited, entry["diagnostics"], "utf-16"),
                "a bank gap typed into discrete.yaml: banks-cover at check's range")
        t.eq(c.published[uri][-1].get("version"), 2, "a bank gap: published for version 2")
        # The edit undone, with a range computed on the edited text.
        start = find_position(edited, ", size: 512MiB")
        end = dict(start, character=start["character"] + len(", size: 512MiB"))
        c.change(uri, lsp_range(start, end), "", version=3)
        t.eq(c.diags[uri], [], "the edit undone: no diagnostics")
        # Two changes in one notification apply in turn: the second one's
        # range is in the text the first one left.
        a = find_position(src, "size: 2GiB, bits: 64 }", delta=len("size: "))
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [
            {"range": lsp_range(a, dict(a, character=a["character"] + 4)), "text": "3GiB"},
            {"range": lsp_range(a, dict(a, character=a["character"] + 4)), "text": "2GiB - 4KiB"}]})
        c.sync()
        edited = src.replace("size: 2GiB, bits: 64 }", "size: 2GiB - 4KiB, bits: 64 }", 1)
        t.write("edit/discrete.yaml", edited)
        entry, _, _ = lsplib.check_json(t.segc, path)
        t.check(entry["diagnostics"], "two changes: check finds something", entry)
        compare(c.diags[uri], expected(path, edited, entry["diagnostics"], "utf-16"),
                "two changes in one didChange: applied in order")
        # A change without a range replaces the whole text.
        c.change(uri, None, src, version=5)
        t.eq(c.diags[uri], [], "a whole-text change back to the sample: no diagnostics")
        finish(c, "edits")


def edit_after_wide_characters():
    """An edit whose range is on a line with characters past U+FFFF before
    it: the range is in UTF-16 units (or bytes, negotiated)."""
    text = ('segc: 1\nboard: { name: golden, wddm: "1.3" }\nsegments:\n'
            '  - { name: vram, kind: memory, waive: { cache-coherent-memory: "\U0001F600é" }, size: 256MiB }\n')
    for enc in ("utf-16", "utf-8"):
        path = t.write("wide-edit/%s.yaml" % enc, text)
        with client(encodings=[enc]) as c:
            uri = uri_of(path)
            against_check(c, path, "wide characters (%s): before the edit, as check's" % enc)
            at = find_position(text, "256MiB", enc)
            c.change(uri, lsp_range(at, dict(at, character=at["character"] + 6)), "100")
            edited = text.replace("256MiB", "100")
            t.write("wide-edit/%s.yaml" % enc, edited)
            entry, _, _ = lsplib.check_json(t.segc, path)
            t.check("size-page-multiple" in [d["rule"] for d in entry["diagnostics"]],
                    "wide characters (%s): check sees the edited size" % enc, entry)
            compare(c.diags[uri], expected(path, edited, entry["diagnostics"], enc),
                    "an edit after a surrogate pair (%s positions): as check on the edited text" % enc)
            finish(c, "wide characters (%s)" % enc)


# ---- documents that are not specs -----------------------------------------


def not_specs():
    with client() as c:
        for name, text in (("compose.yaml", "services:\n  web: { image: nginx, ports: [ \n"),
                           ("nested.yaml", "config:\n  segc: 1\nboard: { name: x }\n"),
                           ("prefix.yaml", "segcx: 1\nsegments: 5\n"),
                           ("empty.yaml", "")):
            path = t.write("other/" + name, text)
            uri = c.open(path, text)
            t.check(c.publishes(uri) == 1 and c.diags[uri] == [], "%s (no top-level segc:): empty diagnostics" % name,
                    "%d publishes, %s" % (c.publishes(uri), c.diags.get(uri)))
        # The same text with a `segc:` line is checked.
        text = "segc: 1\nservices:\n  web: 1\n"
        uri = c.open(t.write("other/now-a-spec.yaml", text), text)
        t.check(c.diags[uri], "a document with a top-level segc: gets diagnostics", c.diags[uri])
        finish(c, "documents that are not specs")


# ---- extends ---------------------------------------------------------------

def relocate(entry, saved, d):
    """check's places in the saved copy as the open documents name them."""
    for x in entry["diagnostics"]:
        for p in [x] + x.get("notes", []):
            p["file"] = p["file"].replace(os.path.dirname(saved), d)


BASE = '''# the family base
segc: 1
board: { name: base_chip, wddm: "1.3" }
constants:
  vram: 1GiB
segments:
  - name: vram
    kind: memory
    size: vram
    banks:
      - { name: lo, size: 512MiB }
      - { name: hi }
  - name: gart
    kind: aperture
    base: 64GiB
    size: 256MiB
'''
VARIANT = '''segc: 1
extends: base.yaml   # the family
board: { name: variant }
constants:
  vram: 2GiB
'''


def extends():
    d = os.path.join(t.dir, "extends")
    base = t.write("extends/base.yaml", BASE)
    variant = t.write("extends/variant.yaml", VARIANT)
    vuri, buri = uri_of(variant), uri_of(base)
    with client() as c:
        c.open(vuri, VARIANT)
        t.eq(c.diags[vuri], [], "a variant, its base read from the disk: no diagnostics")
        # The base opened and edited, unsaved: the bank `hi` gets a size
        # that leaves a gap in the variant's 2 GiB.
        c.open(buri, BASE)
        t.eq(c.diags[buri], [], "the base opened: no diagnostics")
        n = c.publishes(vuri)
        at = find_position(BASE, "{ name: hi", delta=len("{ name: hi"))
        c.change(buri, lsp_range(at, at), ", size: 1GiB", version=2)
        edited = BASE.replace("{ name: hi", "{ name: hi, size: 1GiB")
        t.eq(c.publishes(vuri), n + 1, "the base edited: the open variant is published again")
        # check on the same texts, saved in a copy of the directory.
        copy_base = t.write("extends-saved/base.yaml", edited)
        copy_var = t.write("extends-saved/variant.yaml", VARIANT)
        entry, _, _ = lsplib.check_json(t.segc, copy_var)
        codes = [(x["rule"], os.path.basename(x["file"])) for x in entry["diagnostics"]]
        t.check(("banks-cover", "base.yaml") in codes, "check of the edited texts: banks-cover in the base", codes)
        relocate(entry, copy_base, d)
        want = expected(variant, VARIANT, entry["diagnostics"], "utf-16", texts={base: edited})
        compare(c.diags[vuri], want, "the variant: the base's unsaved finding at the variant's vram, "
                                     "relatedInformation at the base's uri and position")
        got = c.diags[vuri][0] if c.diags[vuri] else {}
        t.eq(got.get("range"), lsp_range(find_position(VARIANT, "2GiB"), find_position(VARIANT, "2GiB", delta=4)),
             "the variant: the range is the variant's vram, which its note names (from the text)")
        rel = (got.get("relatedInformation") or [{}])[0].get("location", {})
        t.check(rel.get("uri") == buri and rel.get("range", {}).get("start", {}).get("line") ==
                edited.split("\n").index(next(l for l in edited.split("\n") if "name: hi" in l)),
                "the variant: relatedInformation names the base's line of bank hi", rel)
        # The base's own diagnostics (its 1 GiB of vram is now too small for its banks).
        entry_b, _, _ = lsplib.check_json(t.segc, copy_base)
        relocate(entry_b, copy_base, d)
        compare(c.diags[buri], expected(base, edited, entry_b["diagnostics"], "utf-16"),
                "the edited base: its own diagnostics as check's")
        # Closed unsaved: the variant reads the base from the disk again.
        n = c.publishes(vuri)
        c.close(buri)
        t.eq(c.diags[buri], [], "the base closed: empty diagnostics for it")
        t.eq(c.publishes(vuri), n + 1, "the base closed: the variant is published again")
        t.eq(c.diags[vuri], [], "the base closed: the variant reads the base from the disk (no diagnostics)")
        # The base on the disk changed, and saved: didSave rechecks.
        t.write("extends/base.yaml", edited)
        c.notify("textDocument/didSave", {"textDocument": {"uri": buri}})
        c.sync()
        compare(c.diags[vuri], want, "the base changed on the disk, didSave: the variant as check's")
        t.write("extends/base.yaml", BASE)
        c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": buri, "type": 2}]})
        c.sync()
        t.eq(c.diags[vuri], [], "the base restored on the disk, didChangeWatchedFiles: no diagnostics")
        # A variant whose base does not exist.
        c.change(vuri, lsp_range(find_position(VARIANT, "base.yaml"),
                                 find_position(VARIANT, "base.yaml", delta=4)), "nope", version=2)
        broken = VARIANT.replace("base.yaml", "nope.yaml")
        copy = t.write("extends/variant-missing.yaml", broken)
        entry, _, _ = lsplib.check_json(t.segc, copy)
        t.check(entry["diagnostics"] and all(x["file"] == copy for x in entry["diagnostics"]),
                "a variant whose base is missing: check reports it in the variant", entry)
        compare(c.diags[vuri], expected(copy, broken, entry["diagnostics"], "utf-16"),
                "a variant whose base is missing (typed): as check's")
        c.close(vuri)
        t.eq(c.diags[vuri], [], "didClose: empty diagnostics")
        finish(c, "extends")


VARIANT_WDDM = 'segc: 1\nextends: base.yaml\nboard: { name: w13, wddm: "1.3" }\n'
BASE_WDDM2 = ('segc: 1\nboard: { name: wddm2_base, wddm: "2.0" }\nsegments:\n'
              '  - { name: vram, kind: memory, size: 256MiB, flags: [use_64kb_pages] }\n'
              '  - { name: gart, kind: aperture, base: 1GiB, size: 256MiB }\n')


def variant_note():
    """A variant's board.wddm breaks its base's flag: the finding is shown at
    the variant's value (its note in the document), with the base's place
    and the note as relatedInformation, as check's."""
    base = t.write("variant-note/base.yaml", BASE_WDDM2)
    path = t.write("variant-note/variant.yaml", VARIANT_WDDM)
    with client() as c:
        against_check(c, path, "a variant's value behind its base's finding: as check's", text=VARIANT_WDDM)
        got = c.diags.get(uri_of(path), [])
        t.eq([x["code"] for x in got], ["flag-wddm-version"], "a variant's value behind its base's finding: the finding")
        if got:
            t.eq(got[0]["range"], lsp_range(find_position(VARIANT_WDDM, '"1.3"'),
                                            find_position(VARIANT_WDDM, '"1.3"', delta=5)),
                 "the base's finding is shown at the variant's wddm value")
            t.eq([(r["location"]["uri"], r["message"]) for r in got[0].get("relatedInformation", [])],
                 [(uri_of(os.path.realpath(base)), "the finding is here"),
                  (uri_of(path), "board.wddm is 1.3, set here by variant.yaml")],
                 "relatedInformation: the base's flag, then the variant's note")
        finish(c, "a variant's note")


def crlf_variant():
    """A variant with CRLF line ends whose extends: line has a tab after its
    value, a key that starts like `extends`, and an expression cut at the
    end of a line: as check's (the base's finding at the extends: value)."""
    base = t.write("crlf/base.yaml", BASE.replace("vram: 1GiB", "vram: 1GB"))
    text = ("segc: 1\r\nextends_x: 1\r\nextends:\tbase.yaml\t\r\nboard: { name: crlf }\r\n"
            "constants:\r\n  c: 1 +\r\n")
    path = t.write("crlf/variant.yaml", text)
    with client() as c:
        ok, entry = against_check(c, path, "a CRLF variant: as check's", text=text)
        codes = sorted(x["rule"] for x in entry["diagnostics"])
        t.eq(codes, ["expr-syntax", "expr-unit", "unknown-key"], "a CRLF variant: check's findings")
        got = [x["range"] for x in c.diags.get(uri_of(path), []) if x["code"] == "expr-unit"]
        t.eq(got, [lsp_range((2, 9), (2, 18))], "a CRLF variant: the base's finding at 'base.yaml', no tab, no CR")
        finish(c, "a CRLF variant")


for case in (samples, golden, utf16, edits, edit_after_wide_characters, not_specs, extends, variant_note,
             crlf_variant):
    t.run(case)
t.end()
