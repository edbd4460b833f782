# SPDX-License-Identifier: MIT
"""Check that segc's JSON documents speak one dialect.

Usage: dialect.py FILE...

`--diagnostics=json`, `dump --json` and `diff --json` name a place the same
way and write numbers the same way.  For every object in every FILE:
  - an object with "line" also has "file" and "column" (never "col");
  - no key is one of the other spellings ("col", "lineno", "filename");
  - every JSON number is an integer of at most 2^53, which every reader
    holds exactly (a 64-bit quantity is a "0x..." string instead).
Exit status 0 if every FILE passes, 1 if one does not (each problem printed
with its JSON path), 2 if a file cannot be read or is not JSON.
"""
import json
import sys

OTHER_SPELLINGS = {"col", "lineno", "filename"}


def walk(node, path, problems):
    if isinstance(node, dict):
        if "line" in node and not {"file", "column"} <= node.keys():
            problems.append(f"{path}: a place without 'file' and 'column': keys {sorted(node)}")
        for key, value in node.items():
            if key in OTHER_SPELLINGS:
                problems.append(f"{path}/{key}: not a key of segc's dialect")
            walk(value, f"{path}/{key}", problems)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            walk(value, f"{path}/{i}", problems)
    elif isinstance(node, bool) or node is None or isinstance(node, str):
        pass
    elif not isinstance(node, int) or abs(node) > 2**53:
        problems.append(f"{path}: {node!r} is not exact in every JSON reader (a 64-bit quantity is a hex string)")


def main():
    status = 0
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            return 2
        problems = []
        walk(doc, "", problems)
        for p in problems[:5]:
            print(f"{path}: {p}")
        status |= 1 if problems else 0
    return status


if __name__ == "__main__":
    sys.exit(main())
