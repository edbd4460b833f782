# SPDX-License-Identifier: MIT
"""textDocument/hover: expressions, flags, waived rules, segments, banks, BARs.

Each expectation comes from elsewhere than the server: values from the
spec's constants by arithmetic here and from `segc dump --json`, a flag's
bit from DXGK_SEGMENTFLAGS' layout written out below and its meaning from
the schema, a rule's text from `segc explain`.  Each behaviour also has a
place where the hover must stay quiet (null)."""
import json
import os
import re
import subprocess

import lsplib

t = lsplib.Test("hover")
GiB, MiB = 1 << 30, 1 << 20

SPEC = """segc: 1
board: { name: fabrikam_x1, wddm: "1.3", arch: x64 }
constants:
  vram: 8GiB
  broken: 1 - 2
bars:
  fb: { index: 0, size: 256MiB }
segments:
  - name: visible
    kind: memory
    base: 0
    size: bar.fb.size
    cpu_visible: { bar: fb, offset: 0 }
    flags: [direct_flip, preserved_during_standby, preserved_during_hibernate]
  - name: local
    kind: memory
    size: vram - visible.size   # the rest of VRAM
    flags: [preserved_during_standby, preserved_during_hibernate, cache_coherent]
    waive: { cache-coherent-memory: "the firmware needs it" }
    banks:
      - { name: low, size: 4GiB - visible.size }
      - { name: high }
  - name: odd
    kind: aperture
    size: broken
"""

# DXGK_SEGMENTFLAGS (d3dkmddi.h): the bit of each member used here.
DXGK_BITS = {"direct_flip": (10, "DirectFlip"), "cache_coherent": (4, "CacheCoherent")}


def iec(v):
    """segc's IEC text for the exact quantities used here."""
    for shift, unit in ((40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")):
        if v >= 1 << shift:
            q = v / (1 << shift)
            return ("%d %s" % (q, unit)) if q == int(q) else ("%.2f %s" % (q, unit))
    return "%d B" % v


def qty(v):
    """A quantity as segc writes one: decimal below 1 KiB, else hex and IEC."""
    return ("%d" % v) if v < 1024 else "0x%X (%s)" % (v, iec(v))


def hover(c, uri, needle, delta=0, nth=0, text=SPEC):
    """The hover at the nth `needle` of the document's `text`, `delta` characters on."""
    return c.result("textDocument/hover", {"textDocument": {"uri": uri},
                                           "position": lsplib.find_position(text, needle, nth=nth, delta=delta)})


def operand(v):
    """A value as an operand of a chain: decimal below 1 KiB, else IEC."""
    return ("%d" % v) if v < 1024 else iec(v)


def value(r):
    return r and r["contents"]["value"]


def model(path, *args):
    out = subprocess.run([t.segc, "dump", "--json"] + list(args) + [path], capture_output=True, text=True)
    return json.loads(out.stdout)


def schema_flag_doc(name):
    s = json.load(open(os.path.join(lsplib.ROOT, "schema", "segc.schema.json"), encoding="utf-8"))
    doc = [f["description"] for f in s["$defs"]["flag"]["anyOf"] if f["const"] == name][0]
    return re.sub(r" WDDM \d\.\d or later\.$", "", doc)


def cases():
    # segc dump takes only a valid spec: the same without the broken parts
    valid = SPEC.replace("  broken: 1 - 2\n", "").split("  - name: odd")[0]
    m = model(t.write("valid.yaml", valid))
    path = t.write("board.yaml", SPEC)
    segs = {s["name"]: s for s in m["segments"]}
    with lsplib.Client(t.segc) as c:
        caps = c.initialize()["capabilities"]
        t.check(caps.get("hoverProvider") is True, "hoverProvider advertised", caps)
        uri = c.open(path, SPEC)

        # an expression: its value and the chain, the operands replaced by values
        vram, fb = 8 * GiB, 256 * MiB
        want = vram - fb
        t.eq(int(segs["local"]["size"]["value"], 16), want, "dump agrees with the arithmetic")
        r = hover(c, uri, "vram - visible", delta=3)
        t.eq(value(r), "`size` of segment `local` (Size)\n\n`%s = %s - %s`" % (qty(want), iec(vram), iec(fb)),
             "hover on an expression: value and chain")
        line = SPEC.splitlines().index("    size: vram - visible.size   # the rest of VRAM")
        t.eq(r and r["range"], lsplib.lsp_range((line, 10), (line, 29)), "the range is the scalar's")
        # a bank's size: literal kept, the reference replaced
        bank = 4 * GiB - fb
        t.eq(value(hover(c, uri, "4GiB - visible")),
             "`size` of bank `low` of segment `local` (pBankRangeTable)\n\n`%s = 4GiB - %s`" % (qty(bank), iec(fb)),
             "hover on a bank size")
        t.eq(value(hover(c, uri, "8GiB")), "constant `vram`\n\n`%s`" % qty(vram), "hover on a constant")
        t.check("failed to resolve" in (value(hover(c, uri, "broken", nth=1)) or ""),
                "a value that failed says so", value(hover(c, uri, "broken", nth=1)))
        t.check("0x" not in (value(hover(c, uri, "broken", nth=1)) or "0x"), "and shows no value")
        t.eq(hover(c, uri, "# the rest", delta=3), None, "quiet on a comment")
        t.eq(hover(c, uri, "memory", nth=1), None, "quiet on a value that is no expression")
        t.eq(hover(c, uri, "fabrikam"), None, "quiet on the board's name")

        # a flag: bit, value, member, version, meaning
        bit, member = DXGK_BITS["direct_flip"]
        t.eq(value(hover(c, uri, "direct_flip")),
             "**direct_flip**: DXGK_SEGMENTFLAGS bit %d (value 0x%X), member `%s`; WDDM 1.2 or later\n\n%s"
             % (bit, 1 << bit, member, schema_flag_doc("direct_flip")), "hover on a flag")
        t.eq(hover(c, uri, "flags:", nth=1), None, "quiet on the flags key")

        # a waived rule: segc explain's text
        explain = subprocess.run([t.segc, "explain", "cache-coherent-memory"], capture_output=True,
                                 text=True).stdout
        t.eq(value(hover(c, uri, "cache-coherent-memory")), "```text\n%s```" % explain, "hover on a waived rule")
        t.eq(hover(c, uri, "the firmware"), None, "quiet on the waiver's reason")

        # a segment: as the model (segc dump) has it
        g = segs["local"]
        base, end = int(g["base"]["value"], 16), int(g["end"], 16)
        t.eq(value(hover(c, uri, "local")),
             "**segment `local`**: id %d, memory\n\n- GPU range: [0x%X, 0x%X)\n- size: %s\n"
             "- flags: %s = %s\n- CPU window: none"
             % (g["id"], base, end, qty(end - base), g["flags"]["value"], " | ".join(g["flags"]["names"])),
             "hover on a segment's name")
        v = segs["visible"]
        got = value(hover(c, uri, "name: visible", delta=7)) or ""
        t.check("- CPU window: BAR `fb` at offset 0" in got and "use_banking" not in got
                and "cpu_visible" in got, "a CPU-visible segment's window and derived flag", got)
        t.check(v["flags"]["value"] in got, "its whole flags value", got)

        # a bank's name: its id (1-based), its GPU range (the segment's base
        # plus the bank's offsets, which dump gives) and size
        for i, k in enumerate(g["banks"]):
            lo, hi = base + int(k["start"], 16), base + int(k["end"], 16)
            t.eq(value(hover(c, uri, "name: %s" % k["name"], delta=6)),
                 "**bank `%s`**: id %d of segment `local`\n\n- GPU range: [0x%X, 0x%X)\n- size: %s"
                 % (k["name"], i + 1, lo, hi, qty(hi - lo)), "hover on bank %s's name" % k["name"])
        t.eq(hover(c, uri, "name: low", delta=2), None, "quiet on a bank's name key")

        # a BAR: its key in bars: and the bar: of a CPU window
        bar = m["bars"][0]
        want = ("**BAR `fb`**: index %d, %d-bit\n\n- size: %s\n- segment `visible`: CPU window at offset %s"
                % (int(bar["index"]["value"], 16), int(bar["bits"]["value"], 16), qty(int(bar["size"]["value"], 16)),
                   qty(int(v["cpu"]["offset"]["value"], 16))))
        t.eq(value(hover(c, uri, "fb: {")), want, "hover on a BAR's key")
        t.eq(value(hover(c, uri, "bar: fb", delta=6)), want, "hover on cpu_visible's bar:")
        c.shutdown()
        t.eq(c.exit(), 0, "exit status after shutdown")
        t.eq(c.stderr(), "", "nothing on the server's standard error")


MORE = """segc: 1
board: { name: b1, wddm: "1.3", arch: x64, page_size: 64KiB }
constants:
  n: 4
  m: n * 2
  odd: 1000000
  q: "odd + 1"
bars:
  fb: { index: 0, size: 256MiB }
segments:
  - name: plain
    kind: memory
    size: 1GiB
    cpu_visible: { address: 0x100000000 }
  - name: bare
    kind: memory
    size: 1GiB
  - name: ag
    kind: agp
    size: 256MiB
  - name: bad
    kind: aperture
    size: 1 +
    flags: [cpu_visible, nosuchflag]
paging:
  segment: plain
"""


def more_cases():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        uri = c.open(t.write("more.yaml", MORE), MORE)

        def h(needle, delta=0, nth=0):
            return value(hover(c, uri, needle, delta, nth, MORE))
        t.eq(h("n * 2"), "constant `m`\n\n`8 = 4 * 2`", "operands below 1 KiB in decimal")
        t.eq(h("odd + 1"), "constant `q`\n\n`0xF4241 (\u2248976.56 KiB) = 0xF4240 + 1`",
             "a quoted expression; an operand no IEC unit divides in hex")
        t.eq(h("size: 256MiB", 7), "`size` of BAR `fb`\n\n`%s`" % qty(256 * MiB), "a BAR's size")
        t.eq(h("64KiB"), "`page_size`\n\n`%s`" % qty(64 * 1024), "the board's page_size")
        t.eq(h("name: plain", 7), "**segment `plain`**: id 1, memory\n\n- GPU range: [0x0, 0x40000000)\n- size: %s\n"
             "- flags: 0x4 = cpu_visible\n- CPU window: address %s" % (qty(GiB), qty(4 * GiB)),
             "a segment whose CPU window is an address")
        t.eq(h("name: bare", 7), "**segment `bare`**: id 2, memory\n\n- GPU range: [0x40000000, 0x80000000)\n"
             "- size: %s\n- flags: 0x0 = none\n- CPU window: none" % qty(GiB), "a segment with no flags")
        t.eq(h("name: ag", 7), "**segment `ag`**: id 3, agp\n\n- GPU range: the AGP aperture, at run time\n"
             "- flags: 0x2 = agp\n- CPU window: none", "an AGP segment")
        t.eq(h("name: bad", 7), "**segment `bad`**: id 4, aperture\n\nsome of its values failed to resolve "
             "(see the diagnostics)", "a segment with a value that failed")
        t.eq(h("segment: plain", 10), h("name: plain", 7), "paging: segment: the segment's hover")
        t.eq(h("1 +"), "`size` of segment `bad` (Size)\n\nits value failed to resolve (see the diagnostics)",
             "an expression that does not parse")
        t.check((h("cpu_visible,") or "").startswith(
            "**cpu_visible**: DXGK_SEGMENTFLAGS bit 2 (value 0x4), member `CpuVisible`; WDDM 1.0 or later; derived: "
            "segc sets it, `flags:` may not name it\n\n"), "a derived flag says so", h("cpu_visible,"))
        t.eq(h("nosuchflag"), None, "quiet on an unknown flag")
        t.eq(h("size:", 1, 1), None, "quiet on a key")
        # No model: the text is read, but segc cannot build the spec.
        broken = "segc: 1\nboard: 7\nconstants:\n  n: 4\n  m: n * 2\n"
        u2 = c.open("untitled:nomodel.yaml", broken)
        t.eq(value(hover(c, u2, "n * 2", text=broken)),
             "constant `m`\n\nnot evaluated: the spec has errors that stop segc from building its model",
             "no model: not evaluated")
        notyaml = "segc: 1\nboard: [\n"
        u3 = c.open("untitled:notyaml.yaml", notyaml)
        t.eq(hover(c, u3, "segc", 1, text=notyaml), None, "no tree: quiet")
        # A bank with no name: no model, and the field's title names no bank.
        nameless = MORE.replace("  - name: bare\n    kind: memory\n    size: 1GiB\n",
                                "  - name: bare\n    kind: memory\n    size: 1GiB\n    banks: [{ size: 512MiB }, {}]\n")
        u4 = c.open("untitled:nameless.yaml", nameless)
        t.eq(value(hover(c, u4, "512MiB", text=nameless)),
             "`size` (pBankRangeTable)\n\nnot evaluated: the spec has errors that stop segc from building its model",
             "a bank with no name (no model): the field alone")
        # banks: written as a map whose key is "#" (not a list): no bank
        # item to name, and nothing read outside the map (lsp-san).
        hashkey = MORE.replace("  - name: bare\n    kind: memory\n    size: 1GiB\n",
                               "  - name: bare\n    kind: memory\n    size: 1GiB\n    banks: { \"#\": { size: 512MiB } }\n")
        u6 = c.open("untitled:hashkey.yaml", hashkey)
        t.eq(value(hover(c, u6, "512MiB", text=hashkey)),
             "`size` (pBankRangeTable)\n\nnot evaluated: the spec has errors that stop segc from building its model",
             "a key '#' in a map of banks is no bank")
        u5 = c.open("untitled:scalar.yaml", "just a scalar\n")
        t.eq(hover(c, u5, "just", 2, text="just a scalar\n"), None, "a document that is one scalar: quiet")
        # The outline of MORE: a segment with a value that failed has no range.
        segs = [x for x in c.result("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
                if x["name"] == "segments"][0]["children"]
        t.eq([(x["name"], x.get("detail")) for x in segs],
             [("plain", "memory, id 1, 0x0..0x40000000"), ("bare", "memory, id 2, 0x40000000..0x80000000"),
              ("ag", "agp, id 3, 0x0..0x10000000"), ("bad", "aperture, id 4")],
             "symbols: a segment that failed has its kind and id only")
        c.shutdown()
        t.eq(c.exit(), 0, "more cases: exit status after shutdown")


# WDDM 2.0 (QUERYSEGMENT4): CPU host apertures, several BARs, a segment
# whose values fail.
QS4 = """segc: 1
board: { name: b2, wddm: "2.0", arch: x64 }
constants:
  broken: 1 - 2
bars:
  fb: { index: 0, size: 256MiB }
  big: { index: 2, size: 8GiB }
  spare: { index: 4, size: 64MiB }
segments:
  - name: visible
    kind: memory
    size: 128MiB
    cpu_visible: { bar: fb, offset: 0 }
  - name: local
    kind: memory
    size: 6GiB
    cpu_host_aperture: { bar: fb, offset: 128MiB, size: 1MiB }
  - name: upper
    kind: memory
    size: 1GiB
    cpu_visible: { bar: big, offset: 256MiB }
  - name: ap
    kind: aperture
    size: 256MiB
  - name: odd
    kind: memory
    size: broken
    cpu_visible: { bar: fb, offset: broken }
    banks:
      - { name: lo, size: 1MiB }
      - { name: hi }
"""


def bar_cases():
    valid = QS4.replace("constants:\n  broken: 1 - 2\n", "").split("  - name: odd")[0]
    m = model(t.write("qs4-valid.yaml", valid))
    bars = {b["name"]: b for b in m["bars"]}
    segs = {s["name"]: s for s in m["segments"]}

    def head(name):
        b = bars[name]
        return "**BAR `%s`**: index %d, %d-bit\n\n- size: %s" % (
            name, int(b["index"]["value"], 16), int(b["bits"]["value"], 16), qty(int(b["size"]["value"], 16)))

    def offset(v):
        return qty(int(v["offset"]["value"], 16))

    with lsplib.Client(t.segc) as c:
        c.initialize()
        uri = c.open(t.write("qs4.yaml", QS4), QS4)

        def h(needle, delta=0, nth=0):
            return value(hover(c, uri, needle, delta, nth, QS4))
        fb = (head("fb") + "\n- segment `visible`: CPU window at offset %s"
              "\n- segment `local`: CPU host aperture at offset %s"
              "\n- segment `odd`: CPU window at an offset that failed to resolve"
              % (offset(segs["visible"]["cpu"]), offset(segs["local"]["cpu_host_aperture"])))
        t.eq(h("fb: {"), fb, "a BAR with a CPU window, a host aperture and an offset that failed")
        t.eq(h("{ bar: fb, offset: 128", 7), fb, "hover on cpu_host_aperture's bar:")
        t.eq(h("big: {"), head("big") + "\n- segment `upper`: CPU window at offset %s" % offset(segs["upper"]["cpu"]),
             "a 64-bit BAR")
        t.eq(h("bar: big", 6), h("big: {"), "cpu_visible's bar: the BAR's hover")
        t.eq(h("spare"), head("spare") + "\n- no segment's CPU window is in it", "a BAR no window is in")
        failed = "\n\nsome of the segment's values failed to resolve (see the diagnostics)"
        t.eq(h("{ name: lo,", 8), "**bank `lo`**: id 1 of segment `odd`" + failed,
             "a bank of a segment whose values failed")
        t.eq(h("name: hi", 6), "**bank `hi`**: id 2 of segment `odd`" + failed, "its last bank")
        t.eq(h("bars:"), None, "quiet on the bars: key")
        t.eq(h("index: 0"), None, "quiet on a BAR's index key")
        # A bar: that names no BAR, and a spec that is not built (a BAR's
        # size fails).
        nosuch = QS4.replace("{ bar: big,", "{ bar: nosuch,")
        unbuilt = QS4.replace("size: 64MiB }", "size: broken }")
        for what, text in (("nosuch", nosuch), ("unbuilt", unbuilt)):
            c.open("untitled:%s.yaml" % what, text)

        def h2(what, text, needle, delta=0):
            return hover(c, "untitled:%s.yaml" % what, needle, delta, text=text)
        t.eq(h2("nosuch", nosuch, "nosuch"), None, "quiet on a bar: that names no BAR")
        t.eq(value(h2("nosuch", nosuch, "{ bar: fb, offset: 0", 7)), fb, "while the BARs it names have their hover")
        t.eq(h2("unbuilt", unbuilt, "fb: {"), None, "quiet on a BAR's key when the spec did not resolve")
        t.eq(h2("unbuilt", unbuilt, "{ bar: fb, offset: 0", 7), None, "and on a bar: value")
        t.eq(h2("unbuilt", unbuilt, "{ name: lo,", 8), None, "quiet on a bank's name when the spec did not resolve")
        c.shutdown()
        t.eq(c.exit(), 0, "bar cases: exit status after shutdown")


# -D overrides: the constants as the model has them (segc dump --json with
# the same -D) against the values written in the file (segc dump without).
DEFS = """segc: 1
board: { name: d1, wddm: "1.3", arch: x64 }
constants:
  vram: 8GiB
  half: vram / 2
  res: 256MiB
  bad: 1 - 2
segments:
  - name: local
    kind: memory
    size: vram - res
    cpu_visible: { address: half }
"""
D_ARGS = ["-D", "vram=4GiB", "-D", "half=vram / 4", "-D", "bad=64MiB"]


def define_cases():
    path = t.write("defs.yaml", DEFS)
    valid = t.write("defs-valid.yaml", DEFS.replace("  bad: 1 - 2\n", ""))

    def consts(*args):
        return {k["name"]: int(k["value"], 16) for k in model(valid, *args)["constants"]}
    written, used = consts(), consts(*D_ARGS[:4])
    m = model(path, *D_ARGS)
    t.eq({k["name"]: int(k["value"], 16) for k in m["constants"]}, dict(used, bad=64 * MiB),
         "dump: -D bad= gives the failing constant a value")
    t.check(used["vram"] != written["vram"] and used["half"] != written["half"], "the -D values differ from the file's")
    local = [g for g in m["segments"] if g["name"] == "local"][0]
    with lsplib.Client(t.segc, args=D_ARGS) as c:
        c.initialize()
        uri = c.open(path, DEFS)

        def h(needle, delta=0):
            return value(hover(c, uri, needle, delta, text=DEFS))
        t.eq(h("8GiB"), "constant `vram`, overridden by `-D vram=4GiB`\n\n`%s`\n\n"
             "the value written here, overridden: `%s`" % (qty(used["vram"]), qty(written["vram"])),
             "-D: a constant's definition shows the model's value and the file's")
        t.eq(h("vram / 2"), "constant `half`, overridden by `-D half=vram / 4`\n\n`%s`\n\n"
             "the value written here, overridden: `%s = %s / 2`" % (qty(used["half"]), qty(used["vram"] // 2),
                                                                   iec(used["vram"])),
             "-D: the written value of an overridden constant reads the model's names")
        t.eq(h("1 - 2"), "constant `bad`, overridden by `-D bad=64MiB`\n\n`%s`" % qty(64 * MiB),
             "-D: a written value that fails is left out")
        t.eq(h("256MiB"), "constant `res`\n\n`%s`" % qty(used["res"]), "-D: a constant no -D names as before")
        size = int(local["size"]["value"], 16)
        t.eq(h("vram - res"), "`size` of segment `local` (Size)\n\n`%s = %s - %s`"
             % (qty(size), iec(used["vram"]), iec(used["res"])), "-D: a use of the constant shows the model's value")
        t.eq(h("address: half", 9), "`address` of segment `local` (CpuTranslatedAddress)\n\n`%s = %s`"
             % (qty(int(local["cpu"]["address"]["value"], 16)), operand(used["half"])),
             "-D: a use of a constant whose -D reads another")
        c.shutdown()
        t.eq(c.exit(), 0, "-D cases: exit status after shutdown")
    # A -D whose expression fails: dump refuses, the hover says so.
    out = subprocess.run([t.segc, "dump", "--json", "-D", "vram=1-2", valid], capture_output=True, text=True)
    t.check(out.returncode != 0 and "expr-underflow" in out.stderr, "dump: -D vram=1-2 fails", out.stderr)
    with lsplib.Client(t.segc, args=["-D", "vram=1-2"]) as c:
        c.initialize()
        uri = c.open(path, DEFS)
        t.eq(value(hover(c, uri, "8GiB", text=DEFS)), "constant `vram`, overridden by `-D vram=1-2`\n\n"
             "the value from `-D` failed to resolve (see the diagnostics)\n\n"
             "the value written here, overridden: `%s`" % qty(written["vram"]), "-D: a -D value that fails")
        c.shutdown()
        t.eq(c.exit(), 0, "-D failure: exit status after shutdown")


def formats():
    """Hover and completion documentation in the MarkupKind the client
    declared: plain text (no backticks, bold marks or fences) when its list
    puts plaintext first, Markdown when it puts markdown first or declares
    none."""
    path = t.write("formats.yaml", SPEC)
    explain = subprocess.run([t.segc, "explain", "cache-coherent-memory"], capture_output=True, text=True).stdout
    bit, member = DXGK_BITS["direct_flip"]
    plain = {
        "8GiB": "constant vram\n\n%s" % qty(8 * GiB),
        "direct_flip": "direct_flip: DXGK_SEGMENTFLAGS bit %d (value 0x%X), member %s; WDDM 1.2 or later\n\n%s"
                       % (bit, 1 << bit, member, schema_flag_doc("direct_flip")),
        "cache-coherent-memory": explain.rstrip("\n"),
        "4GiB - visible": "size of bank low of segment local (pBankRangeTable)\n\n%s = 4GiB - %s"
                          % (qty(4 * GiB - 256 * MiB), iec(256 * MiB)),
    }
    flags_at = lsplib.find_position(SPEC, "flags: [direct_flip", delta=8)
    for declared, kind in ((["plaintext"], "plaintext"), (["plaintext", "markdown"], "plaintext"),
                           (["markdown", "plaintext"], "markdown"), ([], "markdown"), (None, "markdown"),
                           (["asciidoc", "plaintext"], "plaintext")):
        caps = {} if declared is None else {"textDocument": {
            "hover": {"contentFormat": declared},
            "completion": {"completionItem": {"documentationFormat": declared}}}}
        with lsplib.Client(t.segc) as c:
            c.initialize(capabilities=caps)
            uri = c.open(path, SPEC)
            for needle, want in plain.items():
                r = hover(c, uri, needle)
                t.eq(r and r["contents"]["kind"], kind, "declared %s: hover on %s is %s" % (declared, needle, kind))
                if kind == "plaintext":
                    t.eq(value(r), want, "declared %s: hover on %s in plain text" % (declared, needle))
                else:
                    t.check("`" in (value(r) or ""), "declared %s: hover on %s in Markdown" % (declared, needle),
                            value(r))
            items = c.result("textDocument/completion", {"textDocument": {"uri": uri}, "position": flags_at})
            docs = [i["documentation"] for i in items["items"] if "documentation" in i]
            t.check(docs and all(d["kind"] == kind for d in docs),
                    "declared %s: completion documentation is %s" % (declared, kind), docs)
            c.shutdown()
            t.eq(c.exit(), 0, "declared %s: exit status 0" % declared)


CLASSES = """segc: 1
board: { name: b2, wddm: "1.3" }
segments:
  - name: visible
    kind: memory
    size: 256MiB
  - name: local
    kind: memory
    size: 1GiB
    banks: [{ name: near, size: 512MiB }, { name: far }]
  - name: gart
    kind: aperture
    size: 256MiB
allocations:
  - name: rt
    prefer: [local, { segment: visible, from_end: true }]
    write: [local, visible, gart]
    evict: [gart]
    banks: [{ bank: far, from_end: true }, near]
"""


def class_cases():
    """An allocation class's name: its enumerator, and each of the five
    values in hex (worked out here: ids visible 1, local 2, gart 3; set bit
    id - 1; preference slot k at bit 6k, direction 6k + 5; bank slot k at
    bit 8k, direction 8k + 7) and by name.  A segment named in a class
    shows the segment's hover."""
    with lsplib.Client(t.segc) as c:
        c.initialize()
        uri = c.open(t.write("classes.yaml", CLASSES), CLASSES)
        write = 1 << 1 | 1 << 0 | 1 << 2
        pref = 2 | (1 | 1 << 5) << 6
        bank = (2 | 1 << 7) | 1 << 8
        t.eq(value(hover(c, uri, "name: rt", 7, text=CLASSES)),
             "**allocation class `rt`**: `B2_ALLOCATION_RT` = 0\n\n- write set: 0x%X = local (2), visible (1), gart (3)"
             "\n- read set (the write set): 0x%X = local (2), visible (1), gart (3)\n- eviction set: 0x4 = gart (3)"
             "\n- preference: 0x%X = local (2), visible (1) from end\n- bank hint: 0x%X = far (2) from end, near (1)"
             % (write, write, pref, bank), "hover on a class's name")
        t.eq(value(hover(c, uri, "gart]", 0, text=CLASSES)), value(hover(c, uri, "name: gart", 6, text=CLASSES)),
             "a segment named in a class: the segment's hover")
        t.eq(hover(c, uri, "write:", 0, text=CLASSES), None, "quiet on a class's key")
        c.shutdown()
        t.eq(c.exit(), 0, "exit status after shutdown")


t.run(cases)
t.run(class_cases)
t.run(formats)
t.run(more_cases)
t.run(bar_cases)
t.run(define_cases)
t.end()
