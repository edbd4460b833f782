#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check.py - the assertions of tests/gen/map.sh.

  check.py xml FILE.svg              well-formed XML; every drawn shape has a
                                     tooltip (<title> on it or on its group)
  check.py same FILE.svg FILE.html   the page holds the very same SVG
  check.py inject FILE.html OUT.html copy of the page with the measuring
                                     script (inline, fetches nothing)
  check.py dom EXPECT DUMP.html      assertions on the page as Chromium laid
                                     it out (the measurements the script wrote)

EXPECT (tests/gen/map/expect/NAME.txt), values worked out by hand from the spec:
  seg NAME SIZE scale|taller|off     a segment, its size, and how it is drawn:
                                     to the common scale, taller than to scale,
                                     or off the address axis (agp, empty)
  bank SEG NAME...                   bank names drawn in or beside SEG
  bar NAME SIZE                      a BAR lane
  win BAR SEG SIZE scale|taller      SEG's window in the lane of BAR
  red NAME RULE                      NAME (segment or BAR) is outlined in red
                                     and its label / header names RULE
  bios SEG SIZE TEXT                 SEG's BIOS-reserved part (past
                                     system_memory_end) is drawn, to scale
                                     when SEG is, never thinner than the
                                     shortest piece, "BIOS-reserved TEXT"
                                     written in it, and a legend key for it
  nobank SEG TEXT                    the bytes of SEG past its last bank:
                                     drawn, never thinner than the shortest
                                     piece, "no bank: TEXT" written in it
  overlap A B TEXT                   the overlap of segments A and B is
                                     shaded and "overlap" and TEXT (its
                                     size) are written in it
  nosegment BAR TEXT                 a stretch of BAR no segment is seen
                                     through says "no segment" and TEXT
The tables of the page must fit the 1400 px wide window run.sh opens.
  gaps N                             collapsed gaps on the axis
Segments not named by a `red` line must not be outlined in red.

Prints nothing on success; otherwise one reason per line on stdout, exit 1.
"""
import html
import json
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.01  # relative tolerance of "proportional"
MIN_PIECE = 28  # the shortest piece of the GPU axis (map.c)
RED = "rgb(208, 0, 0)"  # C_RED in map.c

MEASURE = r"""<pre id="measure"></pre>
<script>
(function () {
  const svg = document.querySelector('svg');
  const box = e => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; };
  const out = { w: svg.width.baseVal.value, h: svg.height.baseVal.value,
                segs: [], wins: [], bars: [], labels: [], ins: [], texts: [], red: [], gaps: 0, bios: [],
                lanes: [] };
  for (const r of svg.querySelectorAll('rect.seg[data-name]'))
    out.segs.push({ name: r.dataset.name, axis: r.dataset.axis, scale: r.dataset.scale, box: box(r) });
  for (const r of svg.querySelectorAll('rect.win'))
    out.wins.push({ bar: r.dataset.bar, name: r.dataset.name, scale: r.dataset.scale, box: box(r) });
  for (const r of svg.querySelectorAll('rect.bar'))
    out.bars.push({ bar: r.dataset.bar, scale: r.dataset.scale, box: box(r) });
  for (const g of svg.querySelectorAll('g.lane'))
    out.lanes.push({ bar: g.dataset.bar,
                     lines: [...g.querySelectorAll(':scope > text')].map(t => t.textContent) });
  for (const g of svg.querySelectorAll('g.label'))
    out.labels.push({ name: g.dataset.name, box: box(g),
                      lines: [...g.querySelectorAll('text')].map(t => t.textContent) });
  for (const g of svg.querySelectorAll('g.segment')) {
    const r = g.querySelector('rect.seg');
    for (const t of g.querySelectorAll('text.in'))
      out.ins.push({ name: g.dataset.name, text: t.textContent, box: box(t), rect: box(r) });
  }
  for (const t of svg.querySelectorAll('text'))
    out.texts.push({ text: t.textContent, box: box(t) });
  for (const r of svg.querySelectorAll('rect.redline')) {
    if (r.closest('g.legend'))
      continue;
    const owner = r.closest('[data-name], [data-bar]');
    out.red.push({ name: owner ? (owner.dataset.name || owner.dataset.bar) : null,
                   stroke: getComputedStyle(r).stroke, width: box(r)[2] });
  }
  for (const r of svg.querySelectorAll('g.segment rect.fwres'))
    out.bios.push({ name: r.closest('g.segment').dataset.name, box: box(r) });
  out.gaps = svg.querySelectorAll('g.gap').length;
  out.marks = [...svg.querySelectorAll('rect.fwres, rect.nobank, rect.unused, rect.overlap')].map(r => {
    const o = r.closest('g.segment, g.lane, g.overlap');
    return { cls: r.classList[0], box: box(r),
             owner: !o ? null : o.dataset.a ? o.dataset.a + ' ' + o.dataset.b : o.dataset.name || o.dataset.bar };
  });
  out.keys = [...svg.querySelectorAll('g.legend text')].map(t => t.textContent);
  out.vw = document.documentElement.clientWidth;
  out.tables = [...document.querySelectorAll('table')].map(t => [t.id, t.getBoundingClientRect().right]);
  document.getElementById('measure').textContent = JSON.stringify(out);
})();
</script>
"""


def fail(msgs):
    for m in msgs:
        print(m)
    sys.exit(1 if msgs else 0)


def cmd_xml(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail([f"{path}: not well-formed XML: {e}"])
    if root.tag != SVG + "svg":
        fail([f"{path}: root element is {root.tag}, not svg"])
    parent = {c: p for p in root.iter() for c in p}
    errs = []
    shapes = ("rect", "path", "line", "polyline", "polygon", "circle", "ellipse")
    for el in root.iter():
        tag = el.tag.replace(SVG, "")
        if tag not in shapes:
            continue
        p, in_defs, titled = el, False, False
        while p is not None:
            if p.tag == SVG + "defs":
                in_defs = True
            if p.find(SVG + "title") is not None and (p is el or p.tag == SVG + "g"):
                titled = True
            p = parent.get(p)
        if not in_defs and not titled:
            errs.append(f"{path}: <{tag} {el.attrib}> has no tooltip")
    fail(errs[:5])


def cmd_same(svg_path, html_path):
    svg = open(svg_path, encoding="utf-8").read()
    page = open(html_path, encoding="utf-8").read()
    body = svg[svg.index("<svg "):]
    if body not in page:
        fail([f"{html_path}: does not hold the SVG of {svg_path} byte for byte"])
    if re.search(r"<script[^>]*\bsrc=|<link[^>]*\bhref=|https?://(?!www\.w3\.org/2000/svg)", page):
        fail([f"{html_path}: refers to something outside the page"])


def cmd_inject(html_path, out_path):
    page = open(html_path, encoding="utf-8").read()
    if "</body>" not in page:
        fail([f"{html_path}: no </body>"])
    open(out_path, "w", encoding="utf-8").write(page.replace("</body>", MEASURE + "</body>", 1))


def overlaps(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(inner, outer, slack=1.0):
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[0] + inner[2] <= outer[0] + outer[2] + slack
            and inner[1] + inner[3] <= outer[1] + outer[3] + slack)


def proportional(what, items, errs):
    """items: (name, drawn length, size); all must share one px/byte."""
    if len(items) < 2:
        return
    ref = items[0][1] / items[0][2]
    for name, h, size in items[1:]:
        r = h / size
        if abs(r - ref) > TOL * ref:
            errs.append(f"{what}: {name} is drawn {h:.2f} px for {size} bytes, "
                        f"{r / ref:.4f} times the scale of {items[0][0]}")


# what each marked part is called: its class, the words written in it, the legend key
MARKS = {"bios": ("fwres", "BIOS-reserved {}", "BIOS-reserved part"),
         "nobank": ("nobank", "no bank: {}", "in no bank"),
         "overlap": ("overlap", "overlap\n{}", "overlapping addresses"),
         "nosegment": ("unused", "no segment\n{}", "BAR bytes, no segment")}


def marked(f, d, errs):
    """A bios, nobank, overlap or nosegment line: the part is drawn with its
    words inside it (a "\n" in them: on consecutive lines) and a legend key."""
    cls, words, key = MARKS[f[0]]
    owner, text = (f[1] + " " + f[2], f[3:]) if f[0] == "overlap" else (f[1], f[2 + (f[0] == "bios"):])
    words = words.format(" ".join(text)).split("\n")
    what = f"{f[0]} of {owner}"
    rects = [r for r in d["marks"] if r["cls"] == cls and r["owner"] == owner]
    if not rects:
        errs.append(f"{what}: not drawn")
        return
    if key not in d["keys"]:
        errs.append(f"{what}: no legend key '{key}'")
    for r in rects:
        if f[0] in ("bios", "nobank") and r["box"][3] < MIN_PIECE - 0.01:
            errs.append(f"{what}: {r['box'][3]:.2f} px tall, thinner than {MIN_PIECE} px")
        inner = [t for t in d["texts"] if inside(t["box"], r["box"])]
        for i in range(len(inner) - len(words) + 1):
            if all(inner[i + k]["text"] == w for k, w in enumerate(words)):
                return
    errs.append(f"{what}: {words} not written inside it "
                f"(inside: {[t['text'] for r in rects for t in d['texts'] if inside(t['box'], r['box'])]})")


def cmd_dom(expect_path, dump_path):
    page = open(dump_path, encoding="utf-8").read()
    m = re.search(r'<pre id="measure">(.*?)</pre>', page, re.S)
    if not m or not m.group(1).strip():
        fail([f"{dump_path}: the measuring script wrote nothing"])
    d = json.loads(html.unescape(m.group(1)))
    segs = {s["name"]: s for s in d["segs"]}
    labels = {l["name"]: l for l in d["labels"]}
    errs, red_expected, to_scale, lane_scale, bios_parts = [], {}, [], {}, []
    alltext = "\n".join(t["text"] for t in d["texts"])

    for raw in open(expect_path, encoding="utf-8"):
        f = raw.split()
        if not f or f[0].startswith("#") or f[0] in ("spec", "exit"):
            continue
        if f[0] == "seg":
            name, size, how = f[1], int(f[2], 0), f[3]
            s = segs.get(name)
            if s is None:
                errs.append(f"segment {name}: no rect drawn")
                continue
            lab = labels.get(name)
            if lab is None or not lab["lines"] or not lab["lines"][0].startswith(name + " "):
                errs.append(f"segment {name}: no label starting with its name (got {lab and lab['lines'][:1]})")
            h = s["box"][3]
            if how == "off":
                if s["axis"] != "0":
                    errs.append(f"segment {name}: expected off the axis")
            elif how == "scale":
                if s["scale"] != "1":
                    errs.append(f"segment {name}: expected to scale, drawn {h:.2f} px and marked not to scale")
                to_scale.append((name, h, size))
            elif how == "taller":
                if s["scale"] != "0" or h < MIN_PIECE - 0.01:
                    errs.append(f"segment {name}: expected drawn taller ({MIN_PIECE} px or more), got {h:.2f} px "
                                f"scale={s['scale']}")
                if lab and not any("not to scale" in x for x in lab["lines"]):
                    errs.append(f"segment {name}: label does not say 'not to scale'")
            else:
                errs.append(f"{expect_path}: bad line {raw.strip()}")
        elif f[0] == "bank":
            for b in f[2:]:
                if not re.search(r"(^|\n| )" + re.escape(b) + r"( |:|$)", alltext, re.M):
                    errs.append(f"bank {b} of {f[1]}: name not drawn")
        elif f[0] == "bar":
            bars = [b for b in d["bars"] if b["bar"] == f[1]]
            if not bars:
                errs.append(f"BAR {f[1]}: no lane")
            elif bars[0]["scale"] == "1":
                lane_scale.setdefault(f[1], []).append(("BAR " + f[1], bars[0]["box"][3], int(f[2], 0)))
            lanes = [l for l in d["lanes"] if l["bar"] == f[1]]
            if not lanes or not lanes[0]["lines"] or lanes[0]["lines"][0] != "BAR " + f[1]:
                errs.append(f"BAR {f[1]}: no header naming it")
        elif f[0] == "win":
            ws = [w for w in d["wins"] if w["bar"] == f[1] and w["name"] == f[2]]
            if not ws:
                errs.append(f"window of {f[2]} in BAR {f[1]}: not drawn")
                continue
            w = ws[0]
            if (w["scale"] == "1") != (f[4] == "scale"):
                errs.append(f"window of {f[2]} in BAR {f[1]}: expected {f[4]}, data-scale={w['scale']}")
            if w["scale"] == "1":
                lane_scale.setdefault(f[1], []).append((f[2], w["box"][3], int(f[3], 0)))
            elif w["box"][3] < 22 - 0.01:
                errs.append(f"window of {f[2]} in BAR {f[1]}: {w['box'][3]:.2f} px, shorter than the minimum")
        elif f[0] in ("bios", "nobank", "overlap", "nosegment"):
            marked(f, d, errs)
            parts = [p for p in d["bios"] if p["name"] == f[1]]
            if f[0] == "bios" and parts and segs.get(f[1], {}).get("scale") == "1":
                bios_parts.append((f[1] + " BIOS-reserved", parts[0]["box"][3], int(f[2], 0)))
        elif f[0] == "red":
            red_expected.setdefault(f[1], []).append(f[2])
        elif f[0] == "gaps":
            if d["gaps"] != int(f[1]):
                errs.append(f"expected {f[1]} collapsed gaps, drew {d['gaps']}")
        else:
            errs.append(f"{expect_path}: bad line {raw.strip()}")

    proportional("GPU axis", to_scale + bios_parts, errs)
    for bar, items in lane_scale.items():
        proportional(f"BAR {bar} lane", items, errs)

    for t, right in d["tables"]:
        if right > d["vw"] + 0.5:
            errs.append(f"table {t} ends at {right:.0f} px, past the {d['vw']} px window")

    # red outlines: exactly the expected names, in red, with the rule named
    reds = {}
    for r in d["red"]:
        reds.setdefault(r["name"], []).append(r)
        if r["stroke"] != RED:
            errs.append(f"red outline of {r['name']} has stroke {r['stroke']}")
    for name in red_expected:
        if name not in reds:
            errs.append(f"{name}: expected a red outline, none drawn")
        lines = labels[name]["lines"] if name in labels else \
            next((l["lines"] for l in d["lanes"] if l["bar"] == name), [])
        for rule in red_expected[name]:
            if not any(x.endswith(": " + rule) for x in lines):
                errs.append(f"{name}: rule {rule} not named beside it (lines: {lines})")
    for name in reds:
        if name not in red_expected:
            errs.append(f"{name}: outlined in red but no rule was expected to fire there")

    # a person must be able to read every label: inside the picture, no overlap
    W, H = d["w"], d["h"]
    for t in d["texts"]:
        if not inside(t["box"], [0, 0, W, H], 0.5):
            errs.append(f"text {t['text'][:40]!r} at {t['box']} leaves the {W}x{H} picture")
    ls = d["labels"]
    for i in range(len(ls)):
        for j in range(i + 1, len(ls)):
            if overlaps(ls[i]["box"], ls[j]["box"]):
                errs.append(f"labels of {ls[i]['name']} and {ls[j]['name']} overlap")
    for t in d["ins"]:
        if not inside(t["box"], t["rect"]):
            errs.append(f"text {t['text']!r} overflows the shape of {t['name']}")
    fail(errs)


def main():
    cmds = {"xml": (cmd_xml, 1), "same": (cmd_same, 2), "inject": (cmd_inject, 2), "dom": (cmd_dom, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]][0](*sys.argv[2:])


if __name__ == "__main__":
    main()
