# SPDX-License-Identifier: MIT
"""The schema describes each segment flag with segc's own text.

Usage: flags.py SCHEMA SEGC_H

compiler/segc.h's SEGC_FLAGS X-macro holds each flag's meaning, the one
text of it (segc lsp shows it on hover).  The schema's `flag` definition
must offer exactly the flags a spec may write (the rows not derived), each
described as that text, then " WDDM M.m or later." when the flag needs a
version above 1.0: the meaning cannot drift, and neither can the version
the schema's hover names.

Prints one line per check: "ok<TAB>WHAT" or "FAIL<TAB>WHAT<TAB>WHY".  Exit
status 0 if every check passed, 1 if one failed, 2 on bad usage or input.
"""
import json
import re
import sys

ROW = re.compile(r'X\((\w+), (\w+), (\d+), 0x([0-9a-fA-F]+), ([01]),\s*\\?\s*"((?:[^"\\]|\\.)*)"\)')


def flags(segc_h):
    """{name: (min_wddm, derived, doc)} from the SEGC_FLAGS rows."""
    text = open(segc_h, encoding="utf-8").read()
    start = text.index("#define SEGC_FLAGS(X)")
    end = text.index("\n\n", start)
    rows = {}
    for name, _dxgk, _bit, wddm, derived, doc in ROW.findall(text[start:end]):
        rows[name] = (int(wddm, 16), derived == "1", doc.replace('\\"', '"'))
    return rows


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        schema = json.load(open(argv[1], encoding="utf-8"))
        rows = flags(argv[2])
        described = {f["const"]: f.get("description", "") for f in schema["$defs"]["flag"]["anyOf"]}
    except (OSError, ValueError, KeyError) as e:
        print("FAIL\tinput\t%s" % e)
        return 2
    if not rows:
        print("FAIL\tsegc.h\tno SEGC_FLAGS rows read")
        return 1
    failed = False
    for name, (wddm, derived, doc) in rows.items():
        what = "flag %s" % name
        if derived:
            ok = name not in described
            why = "derived (segc sets it), yet the schema offers it"
        else:
            want = doc + (" WDDM %d.%d or later." % (wddm >> 4, wddm & 15) if wddm > 0x10 else "")
            got = described.get(name)
            ok = got == want
            why = "not in the schema" if got is None else "schema says %r, segc.h %r" % (got, want)
        print("ok\t%s" % what if ok else "FAIL\t%s\t%s" % (what, why))
        failed = failed or not ok
    for name in sorted(set(described) - set(rows)):
        print("FAIL\tschema flag %s\tno such row in SEGC_FLAGS" % name)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
