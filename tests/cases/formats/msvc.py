#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks --diagnostics=msvc output against MSBuild's canonical error form.

  msvc.py SEGC SPEC...         runs `SEGC check` on each SPEC twice, with
                               --diagnostics=msvc and --diagnostics=json
  msvc.py --lines FILE         only checks FILE's lines (a build log)

MSBuild recognises a tool's output line as an error or a warning when it
reads "ORIGIN : SUBCATEGORY CATEGORY CODE : TEXT": ORIGIN is a file with an
optional location in parentheses (a drive letter's colon allowed), or a
tool name; CATEGORY is "error" or "warning"; CODE has no blank or colon.
Every error and warning line segc prints must parse so, with the location
"(line,col)", or "(line,col-endcol)" for a span of more than one column
(MSBuild's own range form, endcol the span's last column), code SEGCnnnn
(never SEGC0000: every code has a number) and text "[rule] message"; every
other line must be a note at a location.  With the JSON document of the
same run, each parsed line must name the same file, line, column, end
column, severity, rule and message, in the same order.
"""
import json
import re
import subprocess
import sys

# The canonical form, as MSBuild reads it (any origin, any code).
CANONICAL = re.compile(
    r"^\s*(?:(?P<origin>(?:\d+>)?(?:[A-Za-z]:)?[^:]*):)?\s*"
    r"(?P<sub>[^:]*? )?(?P<cat>error|warning)(?: \s*(?P<code>[^: ]*))?\s*:(?P<text>.*)$")
# What segc puts in those parts.
LOCATION = re.compile(r"^(?P<file>.+)\((?P<line>[1-9]\d*),(?P<col>[1-9]\d*)(?:-(?P<end>[1-9]\d*))?\)$")
CODE = re.compile(r"^SEGC[1-9]\d{3}$")
TEXT = re.compile(r"^ \[(?P<rule>[a-z0-9-]+)\] (?P<msg>.+)$")
NOTE = re.compile(r"^(?:[A-Za-z]:)?[^:]*(?:\([1-9]\d*,[1-9]\d*(?:-[1-9]\d*)?\))?: note: .+$")


def parse(lines, where):
    """The error and warning lines as tuples; exits on a malformed line."""
    out = []
    for n, line in enumerate(lines, 1):
        m = CANONICAL.match(line)
        if not m:
            if NOTE.match(line):
                continue
            sys.exit(f"{where}:{n}: neither canonical nor a note: {line!r}")
        origin = (m.group("origin") or "").strip()
        loc = LOCATION.match(origin)
        t = TEXT.match(m.group("text"))
        code = m.group("code") or ""
        if m.group("sub") or not CODE.match(code) or not t:
            sys.exit(f"{where}:{n}: not segc's canonical form: {line!r}")
        if loc and loc["end"] and int(loc["end"]) <= int(loc["col"]):
            sys.exit(f"{where}:{n}: a column range that does not go forward: {line!r}")
        if loc:
            end = int(loc["end"] or loc["col"])
            out.append((loc["file"], int(loc["line"]), int(loc["col"]), end, m["cat"], t["rule"], t["msg"]))
        else:
            out.append((origin, 0, 0, 0, m["cat"], t["rule"], t["msg"]))
    return out


def expected(doc):
    out = []
    for f in doc["files"]:
        for d in f["diagnostics"]:
            sev = "warning" if d["severity"] == "warning" else "error"
            msg = "".join(c if 0x20 <= ord(c) != 0x7F else "\\x%02X" % ord(c) for c in d["message"])
            # JSON's end_column is exclusive; MSBuild's range names the last column.
            end = max(d.get("end_column", 0) - 1, d.get("column", 0))
            out.append((d.get("file", "segc"), d.get("line", 0), d.get("column", 0), end, sev, d["rule"], msg))
    return out


def main():
    if sys.argv[1] == "--lines":
        with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
            lines = [l.rstrip("\r\n") for l in f if re.search(r"\b(error|warning) SEGC|: note: ", l)]
        # A log line may carry a logger's indentation.
        got = parse([l.strip() for l in lines], sys.argv[2])
        if not got:
            sys.exit(f"{sys.argv[2]}: no segc error line")
        print(f"ok   {len(got)} canonical lines in {sys.argv[2]}")
        return
    segc, specs = sys.argv[1], sys.argv[2:]
    total = 0
    for spec in specs:
        r = subprocess.run([segc, "check", "--diagnostics=msvc", spec], capture_output=True, text=True)
        j = subprocess.run([segc, "check", "--diagnostics=json", spec], capture_output=True, text=True)
        if r.returncode != j.returncode or r.stdout:
            sys.exit(f"{spec}: msvc run exit {r.returncode} (json {j.returncode}), stdout {r.stdout!r}")
        got = parse(r.stderr.splitlines(), spec)
        want = expected(json.loads(j.stdout))
        if got != want:
            sys.exit(f"{spec}: msvc lines do not match the JSON diagnostics:\n  got  {got}\n  want {want}")
        if r.returncode == 1 and not any(g[4] == "error" for g in got):
            sys.exit(f"{spec}: invalid, but no error line")
        total += len(got)
    print(f"ok   {total} canonical lines from {len(specs)} specs match their JSON diagnostics")


main()
