# SPDX-License-Identifier: MIT
"""textDocument/hover: expressions, flags, waived rules, segments.

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
    return "0x%X (%s)" % (v, iec(v))


def hover(c, uri, needle, delta=0, nth=0):
    r = c.result("textDocument/hover", {"textDocument": {"uri": uri},
                                        "position": lsplib.find_position(SPEC, needle, nth=nth, delta=delta)})
    return r


def value(r):
    return r and r["contents"]["value"]


def model(path):
    out = subprocess.run([t.segc, "dump", "--json", path], capture_output=True, text=True)
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
        c.shutdown()
        t.eq(c.exit(), 0, "exit status after shutdown")
        t.eq(c.stderr(), "", "nothing on the server's standard error")


t.run(cases)
t.end()
