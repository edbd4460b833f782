# SPDX-License-Identifier: MIT
"""man.py - the man pages, the tests and the tables the code reads.

    python3 tests/doc/man.py SEGC DOC_DIR KEYS OPTIONS

KEYS and OPTIONS are what `build/tables keys` and `build/tables options`
print: every key of every map of a spec (the structure table spec.def and
the field table fields.def, as resolve.c checks a spec by them) and every
option of every command (options.c's option table, as segc parses them).
Prints `ok   WHAT` or `FAIL WHAT: WHY` per check (tests/doc/man.sh counts
them):

  * every command that `segc --help` lists is a tagged paragraph (.TP) of
    section COMMANDS of segc.1;
  * every option a command takes is a tagged paragraph of section OPTIONS
    of segc.1, in "General" or a subsection "Options of ..." naming the
    command; every option such a paragraph, or `segc COMMAND --help`, names
    is one the code takes there (`--version` and `--` are main's and parse_options' own, not
    rows of the table); every option a command takes is exercised by a
    golden case (the `# args:` of tests/cases/*/*.yaml) or a suite's
    script that runs that command;
  * every word an option's value may be (the table's "[auto, always or
    never]", "(text, msvc, json or sarif)", "list of qs, qs3 and qs4") is
    named in that option's paragraph of segc.1 for each command that
    takes the option, and given by a test;
  * every key of every map is a tagged paragraph of segc.5, in the section
    named after the map (TOP-LEVEL KEYS, or a key on the map's path: board,
    bars, segments, banks, paging); every tagged paragraph of those
    sections is a key of a map documented there; every key is written in
    at least one spec the tests read (samples/, examples/, tests/), at the
    place its map is; every value of a key that takes words (kind, arch)
    is named in its section;
  * every flag a spec may write is a tagged paragraph of segc.5's section
    flags, and each such paragraph is a flag; each is written in a spec the
    tests read;
  * every WDDM version board.wddm takes is named in section board, which
    gives each its <PREFIX>_WDDM_VERSION ("1.2": 0x1200); that value is
    what segc build writes for the version, and no other version is given
    one;
  * no line of either rendered page is wider than 80 columns.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

import verdicts
from verdicts import bad, ok

SEGC, DOC, KEYS, OPTIONS = sys.argv[1:5]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def render(page):
    """The page as man shows it on an 80-column terminal, as plain text."""
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MAN_KEEP_FORMATTING="")
    out = subprocess.run(["man", "-l", page], env=env, capture_output=True, check=True).stdout
    text = re.sub(r".\x08", "", out.decode("utf-8"))  # overstrike bold/underline
    return text.expandtabs()


def unescape(s):
    s = re.sub(r"\\f[BIRP]|\\f\[[A-Z]*\]|\\&", "", s)
    return s.replace("\\-", "-").replace("\\(dq", '"').replace("\\e", "\\")


def roff_args(line):
    """The arguments of a macro line, with roff's double-quote grouping."""
    return [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"|\S+', line)]


def tags(page):
    """{section: [words of each .TP tag]}; .SH and .SS both start one."""
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
                    out.setdefault(section, []).append(words)
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


def table(path, fields):
    with open(path, encoding="utf-8") as f:
        return [dict(zip(fields, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


pages = {name: os.path.join(DOC, name) for name in ("segc.1", "segc.5")}
rendered = {name: render(path) for name, path in pages.items()}

# ---- widths ---------------------------------------------------------------
for name, text in rendered.items():
    wide = [l for l in text.splitlines() if len(l) > 80]
    if wide:
        bad(name + ": 80 columns", "%d wider line(s), first: %r" % (len(wide), wide[0]))
    else:
        ok(name + ": every line fits 80 columns")

# ---- segc.1: commands ------------------------------------------------------
main_help = subprocess.run([SEGC, "--help"], capture_output=True, text=True).stdout
commands = verdicts.commands(main_help)
if len(commands) < 5:
    bad("segc --help", "found only %r as commands" % commands)
man1 = tags(pages["segc.1"])
for cmd in commands:
    if any(words[0] == cmd for words in man1.get("COMMANDS", [])):
        ok("segc.1: command " + cmd)
    else:
        bad("segc.1: command " + cmd, "no .TP paragraph for it in COMMANDS")

# ---- segc.1: options ---------------------------------------------------------
options = table(OPTIONS, ["command", "flag", "what"])
takes = {}  # command: [(flag, has a value)]
for o in options:
    takes.setdefault(o["command"], []).append((o["flag"], o["what"] != "-"))
# Read by main() and by parse_options, not rows of the table.
OWN = {"--version", "--"}


def matches(word, flag, valued):
    """Whether argument `word` is option `flag`, as options.c's option_parse
    decides: with a value attached or not, or the flag alone."""
    if not valued:
        return word == flag
    n = len(flag)
    return word.startswith(flag) and (flag[1] != "-" or len(word) == n or word[n] == "=")


def option_words(words):
    return [w.rstrip(",") for w in words if re.match(r"--?[A-Za-z]", w)]


# Which commands each subsection of OPTIONS documents: "General" all of them.
documented = {}  # command: [option words]
for section, tagged in man1.items():
    m = re.match(r"Options of (.*)$", section)
    if section == "General":
        cmds = list(takes)
    elif m:
        cmds = re.split(r",\s*|\s+and\s+", m.group(1))
    else:
        continue
    for cmd in cmds:
        if cmd not in takes:
            bad("segc.1: section %r" % section, "names %r, which takes no options of the table" % cmd)
            continue
        for words in tagged:
            for w in option_words(words):
                documented.setdefault(cmd, []).append(w)
                if w in OWN or any(matches(w, f, v) for f, v in takes[cmd]):
                    ok("segc.1: %s: %s is an option segc %s takes" % (section, w, cmd))
                else:
                    bad("segc.1: %s: %s" % (section, w), "segc %s does not take it" % cmd)

# The options the tests give each command: the `# args:` lines of the
# golden cases (tests/cases/AREA/NAME.yaml; without one, `check NAME.yaml`),
# and the lines of the suites' scripts that run segc COMMAND with options.
exercised = {}
given = {}  # command: the argument words of each run, for the options' values


def exercise(cmd, words, usage_error=False):
    """Options given to segc `cmd` ("" for segc itself); a run that is a
    usage error (exit 2) gives no value that segc takes."""
    exercised.setdefault(cmd, []).extend(w for w in words if w.startswith("-") and w != "-")
    if not usage_error:
        given.setdefault(cmd, []).append(list(words))


for path in sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "*", "*.yaml"))):
    words = []
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    usage_error = re.search(r"^# expect-exit: *2\s*$", text, re.M) is not None
    for line in text.splitlines():
        if not line.startswith("# args:"):
            continue
        try:
            words = shlex.split(line[7:])
        except ValueError:
            words = line[7:].split()
        while words and re.match(r"[A-Z_]+=", words[0]):
            words.pop(0)
        words = [w for w in words if w not in ("<", ">")]
        if words and words[0] != "help":
            exercise(words[0], words[1:], usage_error)
        if words and words[0] in OWN:
            exercise("", words[:1], usage_error)
        break
    # NAME.json and NAME.sarif: the same run again with
    # --diagnostics=json (--json for diff and dump) and =sarif.
    for ext, fmt in ((".json", "json"), (".sarif", "sarif")):
        if os.path.exists(path[:-5] + ext):
            cmd = words[0] if words else "check"
            exercise(cmd, ["--json" if fmt == "json" and cmd in ("diff", "dump") else "--diagnostics=" + fmt],
                     usage_error)
for path in sorted(glob.glob(os.path.join(ROOT, "tests", "**", "*"), recursive=True)):
    if not re.search(r"\.(sh|py|lua|el)$", path) or path.endswith("man.py"):
        continue
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            words = re.findall(r"[^\s\"',\[\]{}()]+", line)
            for i, w in enumerate(words[:-1]):
                if re.search(r"segc\}?$", w, re.I) and words[i + 1] in takes:
                    exercise(words[i + 1], words[i + 2:])



def help_options(helptext):
    """Options from the left column of option lines: '  -x, --long  text'."""
    found = []
    for line in helptext.splitlines():
        if not re.match(r"  -", line):
            continue
        left = re.split(r"\s{2,}", line.strip())[0]
        for m in re.finditer(r"(?:^|[\s,])(--?[A-Za-z][A-Za-z0-9-]*(?:=[^\s,]*)?)", left):
            found.append(m.group(1))
    return found


# What `segc COMMAND --help` lists, each an option the command takes.
for cmd in takes:
    helptext = subprocess.run([SEGC, cmd, "--help"], capture_output=True, text=True).stdout
    listed = help_options(helptext)
    if not listed:
        bad("segc %s --help" % cmd, "lists no options")
    for w in listed:
        if any(matches(w, f, v) for f, v in takes[cmd]):
            ok("segc %s --help: %s is an option segc %s takes" % (cmd, w, cmd))
        else:
            bad("segc %s --help: %s" % (cmd, w), "segc %s does not take it" % cmd)

for flag in sorted(OWN):
    if any(flag in words for words in exercised.values()):
        ok("segc %s: exercised by a test" % flag)
    else:
        bad("segc " + flag, "exercised by no test (a golden case's args, a suite's script)")
for cmd, opts in takes.items():
    for flag, valued in opts:
        what = "segc %s %s" % (cmd, flag)
        doc = [w for w in documented.get(cmd, []) if matches(w, flag, valued)]
        if doc:
            ok("%s: documented in segc.1 (%s)" % (what, doc[0]))
        else:
            bad(what, "taken by the code, documented in no OPTIONS paragraph of segc.1 for %s" % cmd)
        if any(matches(w, flag, valued) for w in exercised.get(cmd, [])):
            ok("%s: exercised by a test" % what)
        else:
            bad(what, "exercised by no test (a golden case's args, a suite's script)")

# ---- segc.1: the words an option takes ------------------------------------------
# An option whose value is one of a few words lists them in the table
# ("[auto, always or never]", "a FORMAT (text, msvc, json or sarif)", "a
# list of qs, qs3 and qs4"): each is named in the option's paragraph of
# segc.1 for every command that takes the option, and given by a test to
# one of them (one function of main.c's table reads the option's value for
# every command).


def option_paragraphs(page):
    """[(section, tag words, text of tag and body)] of each .TP paragraph."""
    out, section, cur = [], "", None
    with open(page, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith('.\\"')]
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\.S[HS]\s+(.*)", line)
        if m or line == ".TP" or line.startswith(".PP"):
            cur = None
        if m:
            section = unescape(" ".join(roff_args(m.group(1))))
        elif line == ".TP" and i + 1 < len(lines):
            tag = lines[i + 1]
            args = roff_args(tag[1:].split(None, 1)[1]) if tag.startswith(".") and " " in tag else [tag]
            cur = [section, unescape(" ".join(args)).split(), unescape(" ".join(args))]
            out.append(cur)
            i += 1
        elif cur is not None:
            text = line.split(None, 1)[1] if line.startswith(".") and " " in line else ("" if line.startswith(".") else line)
            cur[2] += " " + unescape(" ".join(roff_args(text)) if line.startswith(".") else text)
        i += 1
    return out


def option_values(what):
    m = re.search(r"\[(.*)\]|\((.*)\)|list of (.*)$", what)
    if not m:
        return []
    text = next(g for g in m.groups() if g is not None)
    return [w for w in re.split(r",\s*|\s+or\s+|\s+and\s+", text) if re.match(r"^[a-z][a-z0-9]*$", w)]


def values_given(flag):
    found = set()
    for words in (w for runs in given.values() for w in runs):
        for i, w in enumerate(words):
            if w == flag and i + 1 < len(words):
                found.update(words[i + 1].split(","))
            elif w.startswith(flag + "="):
                found.update(w[len(flag) + 1:].split(","))
    return found


paras = option_paragraphs(pages["segc.1"])
for o in options:
    cmd, flag = o["command"], o["flag"]
    values = option_values(o["what"])
    if not values:
        continue
    sections = [sec for sec in man1 if sec == "General" or (re.match(r"Options of ", sec) and
                cmd in re.split(r",\s*|\s+and\s+", sec[len("Options of "):]))]
    text = " ".join(p[2] for p in paras if p[0] in sections and
                    any(matches(w, flag, True) for w in option_words(p[1])))
    tested = values_given(flag)
    for v in values:
        what = "segc %s %s %s" % (cmd, flag, v)
        if re.search(r"(^|[^\w-])" + re.escape(v) + r"($|[^\w-])", text):
            ok("%s: named in the option's paragraph of segc.1" % what)
        else:
            bad(what, "a value the table lists, named in no paragraph of segc.1 for %s %s" % (cmd, flag))
        if v in tested:
            ok("%s: given by a test" % what)
        else:
            bad(what, "given to no command by a test (a case's # args:, a suite's script)")

# ---- segc.5: the keys ----------------------------------------------------------
keys = table(KEYS, ["path", "key", "kind", "values", "flags", "merge"])
man5 = tags(pages["segc.5"])


def sections_of(path):
    """The sections of segc.5 that may document the keys of the map at
    `path`: TOP-LEVEL KEYS for the spec, else each key on the path."""
    return ["TOP-LEVEL KEYS"] if path == "-" else [w for w in path.split() if w not in "#*"]


key_sections = {s for k in keys for s in sections_of(k["path"])} - {"flags"}
for k in keys:
    what = "segc.5: key %s of %s" % (k["key"], k["path"] if k["path"] != "-" else "the spec")
    where = [s for s in sections_of(k["path"]) if any(w[0] == k["key"] for w in man5.get(s, []))]
    if where:
        ok("%s: documented in section %s" % (what, where[0]))
    else:
        bad(what, "no .TP paragraph for it in section %s" % " or ".join(sections_of(k["path"])))
    if k["kind"] == "enum":
        body = " ".join(" " + section_text(pages["segc.5"], s) + " " for s in sections_of(k["path"]))
        for v in k["values"].split():
            if re.search(r"[\s(]" + re.escape(v) + r"[\s),.;]", body):
                ok("%s: value %s named" % (what, v))
            else:
                bad("%s: value %s" % (what, v), "not named in its section")
for section in sorted(key_sections):
    known = {k["key"] for k in keys if section in sections_of(k["path"])}
    for words in man5.get(section, []):
        if words[0] in known:
            ok("segc.5: section %s: %s is a key segc takes there" % (section, words[0]))
        else:
            bad("segc.5: section %s: %s" % (section, words[0]), "no map documented there has such a key")


def specs():
    """Every YAML document the tests read, each file once."""
    seen = set()
    for pattern in ("samples/**/*.yaml", "examples/**/*.yaml", "tests/**/*.yaml"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            if path in seen:
                continue
            seen.add(path)
            try:
                with open(path, encoding="utf-8") as f:
                    yield yaml.safe_load(f)
            except (yaml.YAMLError, UnicodeDecodeError, ValueError, RecursionError):
                continue


def walk(node, path, seen, flags, depth=0):
    """Records (path, key) for each key at a map of the table, and the
    flags written (aliases are followed no deeper than a spec nests)."""
    if not isinstance(node, dict) or depth > 8:
        return
    for key, value in node.items():
        if not isinstance(key, str):
            continue
        seen.add((path, key))
        if key == "flags" and path == "segments #" and isinstance(value, list):
            flags.update(v for v in value if isinstance(v, str))
        sub = path + " " + key if path != "-" else key
        if isinstance(value, list):
            for item in value:
                walk(item, sub + " #", seen, flags, depth + 1)
        elif isinstance(value, dict):
            walk(value, sub, seen, flags, depth + 1)
            for entry in value.values():
                walk(entry, sub + " *", seen, flags, depth + 1)


seen, written_flags = set(), set()
for doc in specs():
    walk(doc, "-", seen, written_flags)
for k in keys:
    what = "key %s of %s" % (k["key"], k["path"] if k["path"] != "-" else "the spec")
    if (k["path"], k["key"]) in seen:
        ok("%s: written in a spec the tests read" % what)
    else:
        bad(what, "written in no spec of samples/, examples/ or tests/")

# ---- segc.5: the WDDM versions and their DRIVERCAPS values ------------------------
# The section of a key that takes a version lists each version, and pairs
# each with the value the generated header defines ("1.0" and "1.1":
# 0x1000); segc build writes exactly that value for the version.
VERSION_SPEC = """segc: 1
board: { name: ver, wddm: "%s" }
segments:
  - { name: vram, kind: memory, size: 256MiB }
  - { name: gart, kind: aperture, base: 1GiB, size: 256MiB }
"""
for k in keys:
    if k["kind"] != "version":
        continue
    body = " ".join(" " + section_text(pages["segc.5"], s) + " " for s in sections_of(k["path"]))
    said = {}
    for m in re.finditer(r'((?:"[0-9.]+"(?:,?\s+and\s+|,\s+)?)+):\s*(0x[0-9A-Fa-f]+)', body):
        for v in re.findall(r'"([0-9.]+)"', m.group(1)):
            said[v] = int(m.group(2), 16)
    values = k["values"].split()
    for v in sorted(set(said) - set(values)):
        bad("segc.5: %s %s" % (k["key"], v), "given a WDDM_VERSION value, but not a version segc takes")
    with tempfile.TemporaryDirectory() as work:
        for v in values:
            what = "segc.5: %s %s" % (k["key"], v)
            if '"%s"' % v in body:
                ok("%s: named in its section" % what)
            else:
                bad(what, "not named in its section")
            if v not in said:
                bad(what, "no WDDM_VERSION value given for it")
                continue
            spec = os.path.join(work, "ver.yaml")
            with open(spec, "w", encoding="utf-8") as f:
                f.write(VERSION_SPEC % v)
            out = os.path.join(work, v)
            run = subprocess.run([SEGC, "build", "-q", spec, "-o", out], capture_output=True, text=True)
            header = os.path.join(out, "ver_segments.h")
            got = None
            if run.returncode == 0 and os.path.exists(header):
                with open(header, encoding="utf-8") as f:
                    m = re.search(r"^#define VER_WDDM_VERSION\s+(0x[0-9A-Fa-f]+)u", f.read(), re.M)
                    got = int(m.group(1), 16) if m else None
            if got is None:
                bad(what, "segc build of a board of that version: exit %d, no VER_WDDM_VERSION: %s"
                    % (run.returncode, run.stderr.strip()[:200]))
            elif got == said[v]:
                ok("%s: WDDM_VERSION 0x%X, as segc build writes it" % (what, got))
            else:
                bad(what, "documented WDDM_VERSION 0x%X, segc build writes 0x%X" % (said[v], got))

# ---- segc.5: the flags ------------------------------------------------------------
# The flags a spec may write: the values of its flags key.
flags = [f for k in keys if k["kind"] == "flags" for f in k["values"].split()]
flags_doc = [w[0] for w in man5.get("flags", [])]
if not flags:
    bad("the flags", "the table lists no flag a spec may write")
for flag in flags:
    if flag in flags_doc:
        ok("segc.5: flag " + flag)
    else:
        bad("segc.5: flag " + flag, "no .TP paragraph for it in section 'flags'")
    if flag in written_flags:
        ok("flag %s: written in a spec the tests read" % flag)
    else:
        bad("flag " + flag, "written in no spec of samples/, examples/ or tests/")
for flag in flags_doc:
    if flag not in flags:
        bad("segc.5: flags: " + flag, "not a flag a spec may write")

sys.exit(1 if verdicts.fails else 0)
