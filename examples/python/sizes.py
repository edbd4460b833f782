#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Checks every spec of a directory of board variants in-process and writes
a CSV of their segment sizes to standard output.

    make python
    PYTHONPATH=build/python python3 examples/python/sizes.py DIR > sizes.csv

One row per segment of each valid spec: file, board, segment id, name,
kind, base and size in bytes.  A spec that is not valid gets one row with
its status and first error instead, and its diagnostics go to standard
error as `segc check` prints them; the exit status is 1 if any spec was
not valid.  A file that is not a spec (no top-level `segc:` key, such as a
YAML file of something else) is left out.
"""
import csv
import os
import re
import sys

import segc


def specs(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".yaml", ".yml")):
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    text = f.read()
                if re.search(rb"^(\xef\xbb\xbf)?segc[ \t]*:", text, re.M):
                    yield path, text


def main(top):
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["file", "board", "segment", "name", "kind", "base", "size", "status"])
    bad = 0
    for path, text in specs(top):
        r = segc.check(text, name=path)
        if r.status != 0:
            bad += 1
            for d in r.diagnostics:
                print("%s:%s:%s: %s: [%s] %s" % (d["file"], d["line"], d["column"], d["severity"], d["rule"],
                                                 d["message"]), file=sys.stderr)
            first = next((d for d in r.diagnostics if d["severity"] != "warning"), None)
            out.writerow([path, "", "", "", "", "", "", "invalid: %s" % (first["rule"] if first else r.status)])
            continue
        model = segc.model(text, name=path)
        for g in model["segments"]:
            out.writerow([path, model["board"]["name"], g["id"], g["name"], g["kind"]["value"],
                          int(g["base"]["value"], 16), int(g["size"]["value"], 16), "ok"])
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: sizes.py DIR")
    sys.exit(main(sys.argv[1]))
