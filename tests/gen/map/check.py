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
  check.py md MD.html FILE.html      the Markdown page as cmark-gfm renders it
                                     against the HTML page of the same spec

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
The tables of the page must fit the 1400 px wide window run.sh opens, and
their cells and the diagnostics wrap only between words.
  gaps N                             collapsed gaps on the axis
Segments not named by a `red` line must not be outlined in red.

Prints nothing on success; otherwise one reason per line on stdout, exit 1.
"""
import html
import html.parser
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
  // Where the text of a table cell or a diagnostic wraps between two
  // characters of one word (letters, digits, '.'; '_' separates the words
  // of a name): a line break the layout put inside a word.
  out.midword = [];
  const word = c => /[A-Za-z0-9.]/.test(c);
  for (const cell of document.querySelectorAll('th, td, li')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let prev = null;
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const rect = r.getClientRects()[0];
        if (!rect || !rect.width) { prev = null; continue; }
        const ch = n.data[i];
        if (prev && rect.top > prev.top + prev.height / 2 && word(prev.ch) && word(ch))
          out.midword.push(cell.textContent.slice(0, 60) + ' | ' + prev.ch + '|' + ch);
        prev = { top: rect.top, height: rect.height, ch: ch };
      }
    }
  }
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
    for w in d["midword"]:
        errs.append(f"a line breaks inside a word: {w}")

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


class Tree(html.parser.HTMLParser):
    """An HTML document as nested [tag, attrs, children] lists (text as str)."""

    VOID = {"br", "meta", "wbr", "hr", "img", "input", "link"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = ["#root", {}, []]
        self.stack = [self.root]
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = [tag, dict(attrs), []]
        self.stack[-1][2].append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1][2].append(data)


def find_all(node, tag):
    out = []
    for c in node[2]:
        if isinstance(c, list):
            if c[0] == tag:
                out.append(c)
            out.extend(find_all(c, tag))
    return out


def text_of(node, stop=()):
    """The node's text; a <br> is a line break; subtrees of a tag in `stop` left out."""
    parts = []
    for c in node[2]:
        if isinstance(c, str):
            parts.append(c)
        elif c[0] == "br":
            parts.append("\n")
        elif c[0] not in stop:
            parts.append(text_of(c, stop))
    return "".join(parts)


def tables_by_heading(root):
    """{h2 text: [[cell text, ...] per row]} of the tables that follow each h2."""
    out, heading = {}, None

    def walk(node):
        nonlocal heading
        for c in node[2]:
            if not isinstance(c, list):
                continue
            if c[0] == "h2":
                heading = text_of(c).strip()
            elif c[0] == "table":
                out[heading] = [[text_of(cell).strip() for cell in row[2] if isinstance(cell, list)
                                 and cell[0] in ("td", "th")] for row in find_all(c, "tr")]
            else:
                walk(c)
    walk(root)
    return out


def cmd_md(md_html_path, page_path):
    """The Markdown page, rendered by cmark-gfm (md_html_path), says what the
    HTML page of the same run says, table by table: the title, every cell of
    the segments, BARs and allocation classes tables, the banks and CPU
    windows, the DMA buffer set, the diagnostics; and every row of a table has as many cells as its header
    (a '|' not escaped would add one: cmark-gfm would drop it silently)."""
    md = Tree(open(md_html_path, encoding="utf-8").read()).root
    page = Tree(open(page_path, encoding="utf-8").read()).root
    errs = []
    h1 = [text_of(h).strip() for h in find_all(md, "h1")]
    if h1 != [text_of(h).strip() for h in find_all(page, "h1")]:
        errs.append(f"title {h1} differs from the page's")
    mt, pt = tables_by_heading(md), tables_by_heading(page)
    for name, rows in mt.items():
        for r in rows[1:]:
            if len(r) != len(rows[0]):
                errs.append(f"{name}: a row of {len(r)} cells under a header of {len(rows[0])}: {r}")
    seg_md, seg_page = mt.get("Segments", []), pt.get("Segments", [])
    n = len(seg_page[0]) - 2 if seg_page else 0  # the page's last two: banks (listed), rules broken
    if not seg_md or [r[:n] for r in seg_md] != [r[:n] for r in seg_page]:
        errs.append(f"segments table: {seg_md} differs from the page's {seg_page}")
    else:
        for m, p in zip(seg_md[1:], seg_page[1:]):
            banks = [x for x in p[n].split("\n") if x and x != "none"]
            if m[n] != (str(len(banks)) if banks else "none"):
                errs.append(f"segment {m[1]}: banks {m[n]!r}, the page lists {banks}")
            codes = [c.split(": ", 1)[-1] for c in m[n + 1].split(", ") if c]
            if codes != [c for c in p[n + 1].split(", ") if c]:
                errs.append(f"segment {m[1]}: rules broken {m[n + 1]!r}, the page says {p[n + 1]!r}")
            listed = [(r[0], r[1]) for r in mt.get("Banks", [])[1:] if r[0] == m[1]]
            if [b for _, b in listed] != [x.split(": ", 1)[0] for x in banks]:
                errs.append(f"segment {m[1]}: banks table has {listed}, the page {banks}")
            windows = [r[1] for r in mt.get("CPU windows", [])[1:] if r[0] == m[1]]
            cpu = p[n - 1].split("; driver-reserved")[0]
            if windows != ([] if cpu == "not visible" else [cpu]):
                errs.append(f"segment {m[1]}: CPU windows table has {windows}, the page {cpu!r}")
    if mt.get("BARs") != pt.get("BARs"):
        errs.append(f"BARs table: {mt.get('BARs')} differs from the page's {pt.get('BARs')}")
    if mt.get("Allocation classes") != pt.get("Allocation classes"):
        errs.append(f"allocation classes table: {mt.get('Allocation classes')} differs from the page's "
                    f"{pt.get('Allocation classes')}")
    md_dma = [text_of(p).strip() for p in find_all(md, "p") if text_of(p).startswith("DMA buffer segment set")]
    page_dma = [text_of(p).strip() for p in find_all(page, "p") if p[1].get("id") == "dma"]
    if md_dma != page_dma:
        errs.append(f"DMA buffer set {md_dma} differs from the page's {page_dma}")
    md_items = [li for ul in find_all(md, "ul")[:1] for li in ul[2] if isinstance(li, list) and li[0] == "li"]
    page_items = [li for ul in find_all(page, "ul") if ul[1].get("id") == "diagnostics"
                  for li in ul[2] if isinstance(li, list)]
    md_diags = [[text_of(li, ("ul",)).strip()] + [text_of(x).strip() for x in find_all(li, "li")]
                for li in md_items]
    page_diags = [text_of(li).strip().split("\n") for li in page_items]
    if md_diags != page_diags:
        errs.append(f"diagnostics {md_diags} differ from the page's {page_diags}")
    fail(errs)


def main():
    cmds = {"xml": (cmd_xml, 1), "same": (cmd_same, 2), "inject": (cmd_inject, 2), "dom": (cmd_dom, 2),
            "md": (cmd_md, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]][0](*sys.argv[2:])


if __name__ == "__main__":
    main()
