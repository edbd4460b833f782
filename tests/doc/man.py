# SPDX-License-Identifier: MIT
"""check.py - the man pages against what they describe.

    python3 tests/doc/man.py SEGC DOC_DIR SCHEMA

Prints `ok   WHAT` or `FAIL WHAT: WHY` per check (tests/doc/man.sh counts
them):

  * every command that `segc --help` lists is a tagged paragraph (.TP) of
    section COMMANDS of segc.1;
  * every option that `segc --help` and `segc CMD --help` list appears in
    segc.1 as rendered by `man -l` (MANWIDTH=80): the whole option, e.g.
    `-Werror=RULE` must read `-Werror=` there;
  * every key of every object in the JSON Schema is a tagged paragraph in
    the section of segc.5 for that object, every flag in section flags, and
    every identifier-like enum value (kind, arch) is named in its section;
  * no line of either rendered page is wider than 80 columns.
"""
import json
import os
import re
import subprocess
import sys

import verdicts
from verdicts import bad, ok

SEGC, DOC, SCHEMA = sys.argv[1:4]


def render(page):
    """The page as man shows it on an 80-column terminal, as plain text."""
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MAN_KEEP_FORMATTING="")
    out = subprocess.run(["man", "-l", page], env=env, capture_output=True, check=True).stdout
    text = re.sub(r".\x08", "", out.decode("utf-8"))  # overstrike bold/underline
    return text.expandtabs()


def flat(text):
    """One line of words: hyphenation breaks joined, whitespace collapsed."""
    text = re.sub("\u2010\n\\s*", "", text)
    text = text.replace("\u2010", "-").replace("\u2212", "-")
    return " " + re.sub(r"\s+", " ", text) + " "


def unescape(s):
    s = re.sub(r"\\f[BIRP]|\\f\[[A-Z]*\]|\\&", "", s)
    return s.replace("\\-", "-").replace("\\(dq", '"').replace("\\e", "\\")


def roff_args(line):
    """The arguments of a macro line, with roff's double-quote grouping."""
    return [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"|\S+', line)]


def tags(page):
    """{section: [first word of each .TP tag]}; .SH and .SS both start one."""
    out, section, want_tag = {}, "", False
    with open(page, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith('.\\"'):
                continue
            m = re.match(r"\.S[HS]\s+(.*)", line)
            if m:
                section = unescape(" ".join(roff_args(m.group(1))))
                out.setdefault(section, [])
                continue
            if line == ".TP":
                want_tag = True
                continue
            if want_tag:
                want_tag = False
                args = roff_args(line[1:].split(None, 1)[1]) if line.startswith(".") and " " in line else [line]
                words = unescape(" ".join(args)).split()
                if words:
                    out.setdefault(section, []).append(words[0])
    return out


def section_text(page, section):
    """The source of one section, escapes removed."""
    keep, lines = False, []
    with open(page, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\.S[HS]\s+(.*)", line)
            if m:
                keep = unescape(" ".join(roff_args(m.group(1)))) == section
                continue
            if keep:
                lines.append(unescape(line))
    return " ".join(lines)


def help_of(*args):
    return verdicts.help_of(SEGC, *args)


options = verdicts.options


pages = {name: os.path.join(DOC, name) for name in ("segc.1", "segc.5")}
rendered = {name: render(path) for name, path in pages.items()}

# ---- widths ---------------------------------------------------------------
for name, text in rendered.items():
    wide = [l for l in text.splitlines() if len(l) > 80]
    if wide:
        bad(name + ": 80 columns", "%d wider line(s), first: %r" % (len(wide), wide[0]))
    else:
        ok(name + ": every line fits 80 columns")

# ---- segc.1: commands and options ------------------------------------------
main_help = help_of("--help")
commands = verdicts.commands(main_help)
if len(commands) < 5:
    bad("segc --help", "found only %r as commands" % commands)

man1_tags = tags(pages["segc.1"])
text1 = flat(rendered["segc.1"])
for cmd in commands:
    if cmd in man1_tags.get("COMMANDS", []):
        ok("segc.1: command " + cmd)
    else:
        bad("segc.1: command " + cmd, "no .TP paragraph for it in COMMANDS")

helps = [("segc", main_help)] + [("segc " + c, help_of(c, "--help")) for c in commands]
for who, text in helps:
    opts = options(text)
    if who in ("segc", "segc check", "segc build", "segc diff") and not opts:
        bad(who + " --help", "no options found in %r" % text[:200])
    for opt in opts:
        pat = r"[\s\[(,|]" + re.escape(opt) + (r"" if opt[-1] in "-=" else r"(?=[\s=\],|).;:])")
        if re.search(pat, text1):
            ok("segc.1: %s option %s" % (who, opt))
        else:
            bad("segc.1: %s option %s" % (who, opt), "not in the rendered page")

# ---- segc.5: the schema's keys -------------------------------------------------
with open(SCHEMA, encoding="utf-8") as f:
    schema = json.load(f)
defs = schema["$defs"]
# Which section of segc.5 documents the keys of which object.
SECTION_OF = {"board": "board", "bar": "bars", "segment": "segments", "bank": "banks", "paging": "paging"}
man5_tags = tags(pages["segc.5"])


def check_keys(obj, section, what):
    for key, sub in obj.get("properties", {}).items():
        if key in man5_tags.get(section, []):
            ok("segc.5: %s key %s" % (what, key))
        else:
            bad("segc.5: %s key %s" % (what, key), "no .TP paragraph for it in section %r" % section)
        for alt in sub.get("oneOf", []):  # cpu_visible's two forms
            check_keys(alt, section, "%s.%s" % (what, key))
        if "properties" in sub:  # an object written inline (vpr)
            check_keys(sub, section, "%s.%s" % (what, key))
        values = sub.get("enum", [])
        if values and all(isinstance(v, str) and re.match(r"^[a-z_][a-z0-9_]*$", v) for v in values):
            body = " " + section_text(pages["segc.5"], section) + " "
            for v in values:
                if re.search(r"[\s(]" + re.escape(v) + r"[\s),.;]", body):
                    ok("segc.5: %s %s value %s" % (what, key, v))
                else:
                    bad("segc.5: %s %s value %s" % (what, key, v), "not named in section %r" % section)


check_keys(schema, "TOP-LEVEL KEYS", "top-level")
for name, d in defs.items():
    if "properties" not in d:
        continue
    if name not in SECTION_OF:
        bad("segc.5: schema object " + name, "tests/doc/man.py does not know its section")
        continue
    check_keys(d, SECTION_OF[name], name)
for flag in [c["const"] for c in defs["flag"]["anyOf"]]:
    if flag in man5_tags.get("flags", []):
        ok("segc.5: flag " + flag)
    else:
        bad("segc.5: flag " + flag, "no .TP paragraph for it in section 'flags'")

sys.exit(1 if verdicts.fails else 0)
