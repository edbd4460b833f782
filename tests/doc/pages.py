# SPDX-License-Identifier: MIT
"""pages.py - README.md and the pages of doc/ against what they describe.

    python3 tests/doc/pages.py SEGC PAGE.md...

Prints `ok   WHAT` or `FAIL WHAT: WHY` per check (tests/doc/pages.sh counts
them).  In every PAGE:

  * a block shown after a marker is what the tree holds (SEGC_UPDATE=1
    writes it there, for review):
      <!-- case: AREA/NAME [as FILE] -->      the case tests/cases/AREA/NAME.yaml
                                               without its comment lines
      <!-- case-out: AREA/NAME [as FILE] -->  `$ segc ARGS` (the case's
                                               arguments), then what the case
                                               prints: NAME.out, then NAME.err
      <!-- file: PATH -->                      the file PATH, whole
    with the case's NAME.yaml written FILE where `as FILE` says so;
  * every link to a file of the tree leads to one, and every #anchor to a
    heading of its page;
and in the pages that hold a reference:
  * doc/commands.md: every command of `segc --help` has a section
    (`## segc COMMAND`), and every option of `segc COMMAND --help` is
    named in it, in backquotes;
  * doc/diff.md: its table of change kinds is `segc diff --kinds`, each
    kind with its class, and no other;
  * doc/keys.md: every key of the JSON Schema (schema/segc.schema.json) and
    every flag is named, in backquotes;
  * README.md: at most 450 lines, and it links every page of doc/.
"""
import glob
import json
import os
import re
import sys

import verdicts
from verdicts import bad, check, ok

README_LINES = 450
UPDATING = os.environ.get("SEGC_UPDATE") == "1"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SEGC = sys.argv[1]
PAGES = sys.argv[2:]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def segc(*args):
    return verdicts.help_of(SEGC, *args)


# ---- shown blocks -----------------------------------------------------------------

MARKER = re.compile(r"^<!-- (case|case-out|file): (\S+)(?: as (\S+))? -->$")


def block_after(lines, i):
    """The fenced block after line i (blank lines allowed before it)."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or not lines[j].startswith("```"):
        return None
    k = j + 1
    while k < len(lines) and not lines[k].startswith("```"):
        k += 1
    return lines[j + 1:k] if k < len(lines) else None


def case_args(path, name):
    text = read(path)
    m = re.search(r"^# args: *(.*)$", text, re.M)
    return m.group(1) if m else "check %s.yaml" % name


def block_span(lines, i):
    """The line numbers of the fenced block's contents after line i."""
    j = i + 1
    while not lines[j].startswith("```"):
        j += 1
    k = j + 1
    while not lines[k].startswith("```"):
        k += 1
    return j + 1, k


def shown(page, text):
    """Checks the blocks after markers; under SEGC_UPDATE=1 writes what
    they must show into the page (review the diff)."""
    lines = text.split("\n")
    fixes = []
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        kind, what, as_file = m.groups()
        label = "%s: %s %s" % (page, kind, what)
        got = block_after(lines, i)
        if got is None:
            bad(label, "no fenced block after the marker")
            continue
        if kind == "file":
            if not os.path.isfile(os.path.join(ROOT, what)):
                bad(label, "no such file")
                continue
            want = read(what).rstrip("\n").split("\n")
            fixes.append((i, want))
            check(label, got == want or UPDATING, "the block is not %s" % what)
            continue
        area, name = what.split("/", 1)
        base = "tests/cases/%s/%s" % (area, name)
        if not os.path.isfile(os.path.join(ROOT, base + ".yaml")):
            bad(label, "no case %s.yaml" % base)
            continue

        def named(s):
            return s.replace(name + ".yaml", as_file) if as_file else s
        if kind == "case":
            want = [l for l in read(base + ".yaml").rstrip("\n").split("\n") if not l.startswith("#")]
            fixes.append((i, want))
            check(label, got == want or UPDATING, "the block is not %s.yaml without its comment lines" % base)
        else:
            cmd = "$ segc " + named(case_args(base + ".yaml", name))
            out = ""
            for ext in (".out", ".err"):
                if os.path.isfile(os.path.join(ROOT, base + ext)):
                    out += read(base + ext)
            want = [cmd] + named(out).rstrip("\n").split("\n")
            fixes.append((i, want))
            if got[:1] != [cmd] and not UPDATING:
                bad(label, "the block does not start with %r" % cmd)
            else:
                check(label, got == want or UPDATING, "the block is not what %s prints" % base)
    if UPDATING and fixes:
        for i, want in reversed(fixes):
            a, b = block_span(lines, i)
            lines[a:b] = want
        with open(os.path.join(ROOT, page), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))


# ---- links ------------------------------------------------------------------------

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    text = read(path)
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+ +(.*)$", text, re.M)}


def links(page, text):
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    here = os.path.dirname(page)
    for m in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(here, path)) if path else page
        label = "%s: link %s" % (page, target)
        if not os.path.exists(os.path.join(ROOT, full)):
            bad(label, "no such file %s" % full)
        elif anchor and full.endswith(".md"):
            check(label, anchor in anchors(full), "no heading #%s in %s" % (anchor, full))
        else:
            ok(label)


# ---- the references ------------------------------------------------------------------

def commands_page(text):
    cmds = verdicts.commands(segc("--help"))
    check("doc/commands.md: segc --help lists commands", len(cmds) >= 5, cmds)
    sections = dict(re.findall(r"^## segc ([a-z-]+)\n(.*?)(?=^## |\Z)", text, re.M | re.S))
    for opt in verdicts.options(segc("--help"), values=False):
        check("doc/commands.md: option %s" % opt, "`" + opt in text, "not named in backquotes")
    for c in cmds:
        body = sections.get(c)
        if body is None:
            bad("doc/commands.md: segc %s" % c, "no section '## segc %s'" % c)
            continue
        ok("doc/commands.md: segc %s" % c)
        for opt in verdicts.options(segc(c, "--help"), values=False):
            # An option shared by several commands may be described once,
            # in the section of check, which the others point to.
            check("doc/commands.md: segc %s %s" % (c, opt), "`" + opt in body or "`" + opt in sections.get("check", ""),
                  "not named in backquotes in its section (or in check's)")


def keys_page(text):
    schema = json.loads(read("schema/segc.schema.json"))
    keys = set(schema.get("properties", {}))

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.get("properties", {}).items():
                keys.add(k)
                walk(v)
            for v in node.values():
                if isinstance(v, (dict, list)):
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    for k in sorted(keys):
        check("doc/keys.md: key %s" % k, re.search(r"`(?:[a-z_]+\.)*%s\b" % re.escape(k), text) is not None,
              "not named in backquotes")
    for flag in [c["const"] for c in schema["$defs"]["flag"]["anyOf"]]:
        check("doc/keys.md: flag %s" % flag, "`%s`" % flag in text, "not named in backquotes")


def diff_page(text, page="doc/diff.md"):
    kinds = [l.split()[:2] for l in segc("diff", "--kinds").splitlines() if l.strip()]
    missing = [k for k, c in kinds if "| `%s` | %s |" % (k, c) not in text]
    check(page + " lists all %d kinds of segc diff --kinds, with their class" % len(kinds),
          kinds and not missing, "missing or misclassified: %s" % " ".join(missing))
    rows = len(re.findall(r"^\| `[a-z0-9-]*` \| (?:breaking|compatible) \|", text, re.M))
    check(page + " lists no other kind", rows == len(kinds), "%d rows, %d kinds" % (rows, len(kinds)))


def readme(text):
    n = text.count("\n")
    check("README.md: at most %d lines" % README_LINES, n <= README_LINES, "%d lines" % n)
    for page in sorted(glob.glob(os.path.join(ROOT, "doc", "*.md"))):
        name = "doc/" + os.path.basename(page)
        check("README.md links %s" % name, "](%s" % name in text, "no link to it")


for page in PAGES:
    text = read(page)
    shown(page, text)
    links(page, text)
    if page == "doc/commands.md":
        commands_page(text)
    elif page == "doc/keys.md":
        keys_page(text)
    elif page == "doc/diff.md":
        diff_page(text)
    elif page == "README.md":
        readme(text)

sys.exit(1 if verdicts.fails else 0)
