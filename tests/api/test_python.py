#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Python module against the segc command, on every tracked spec.

    python3 tests/api/test_python.py SEGC PYTHON_DIR     (tests/api/run.sh)

Every file git tracks that is a spec (a top-level `segc:` key, a byte order
mark allowed before it), with the options its golden case gives (`# args:
check ...`, tests/lib.sh spec_cases), from the top of the tree:

  * segc.check(text, name=PATH, args=OPTIONS): status is `segc check`'s
    exit status and diagnostics are its --diagnostics=json diagnostics;
  * valid: segc.model(...) equals what `segc dump --json` prints, and
    segc.build(...) the files `segc build -o DIR` writes, byte for byte;
  * not valid: build and model raise segc.Error with check's status and
    diagnostics.

Then the module's own promises: include= is -I, a refused option is a
ValueError, bytes and str are the same text, and checks on several
threads at once give what one gives (the GIL is released while segc works,
so they overlap).  Prints `ok   WHAT` / `FAIL WHAT: WHY` and a closing
`python: N passed, M failed`.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading

SEGC = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.abspath(sys.argv[2]))
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import segc  # noqa: E402

passed = failed = skipped = 0


def check(cond, what, why=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL %s: %s" % (what, why))
    return cond


def skip(what, why):
    global skipped
    skipped += 1
    print("skip %s: %s" % (what, why))


def tracked_specs():
    """(path, options) of every tracked spec."""
    opts = {}
    cases = subprocess.run(["sh", "-c", ". tests/lib.sh && spec_cases"], capture_output=True, text=True,
                           check=True).stdout
    for line in cases.splitlines():
        o, path = line.split("\t")
        opts[path] = shlex.split(o)
    out = subprocess.run(["git", "ls-files", "-z", "*.yaml"], capture_output=True, check=True).stdout
    specs = []
    for path in sorted(p.decode() for p in out.split(b"\0") if p):
        with open(path, "rb") as f:
            data = f.read()
        if re.search(rb"^(\xef\xbb\xbf)?segc[ \t]*:", data, re.M):
            specs.append((path, data, opts.get(path, [])))
    return specs


def cli_check(paths, args):
    """segc check --diagnostics=json over paths: {path: (status, diagnostics)}."""
    p = subprocess.run([SEGC, "check", "--diagnostics=json"] + args + ["--"] + paths, capture_output=True)
    if p.returncode == 2 and not p.stdout:  # the options refused: no document
        return {path: (None, p.stderr.decode()) for path in paths}
    doc = json.loads(p.stdout)
    return {f["file"]: ({"ok": 0, "invalid": 1, "unreadable": 2}[f["status"]], f["diagnostics"]) for f in doc["files"]}


def cli_build(path, args):
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([SEGC, "build"] + args + ["-o", d, "--", path], capture_output=True)
        files = {}
        for name in os.listdir(d):
            with open(os.path.join(d, name), "rb") as f:
                files[name] = f.read()
        return p.returncode, files


def raises(fn, data, path, args):
    try:
        fn(data, name=path, args=args)
    except segc.Error as e:
        return e
    return None


def every_tracked_spec():
    specs = tracked_specs()
    check(len(specs) > 400, "tracked specs found (%d)" % len(specs))
    by_args = {}
    for path, data, args in specs:
        by_args.setdefault(tuple(args), []).append(path)
    want = {}
    for args, paths in by_args.items():
        for path, r in cli_check(paths, list(args)).items():
            want[path] = r
    kinds = set()
    for path, data, args in specs:
        st, diags = want[path]
        if st is None:
            try:
                segc.check(data, name=path, args=args)
                check(False, "%s (%s): refused as segc check refuses it" % (path, " ".join(args)))
            except ValueError as e:
                check(str(e) in diags, "%s (%s): refused as segc check refuses it" % (path, " ".join(args)),
                      "%r vs %r" % (str(e), diags))
            continue
        r = segc.check(data, name=path, args=args)
        check(r.status == st and r.diagnostics == diags, "%s%s: check as segc check" % (
            path, " (%s)" % " ".join(args) if args else ""),
            "status %d, %s\n    segc check: %d, %s" % (r.status, r.diagnostics[:2], st, diags[:2]))
        kinds.add("valid" if st == 0 else "invalid")
        if st == 0:
            p = subprocess.run([SEGC, "dump", "--json"] + args + ["--", path], capture_output=True)
            if p.returncode == 2 and not p.stdout:  # an option of build's (--ddi) dump does not take
                skip("%s: model" % path, "segc dump does not take %s" % " ".join(args))
            else:
                check(p.returncode == 0 and segc.model(data, name=path, args=args) == json.loads(p.stdout),
                      "%s: model as segc dump --json" % path)
            rc, files = cli_build(path, args)
            got = segc.build(data, name=path, args=args)
            check(rc == 0 and got == files, "%s: build as segc build, byte for byte" % path,
                  "%s vs %s" % (sorted(got), sorted(files)))
        else:
            for fn in (segc.build, segc.model):
                e = raises(fn, data, path, args)
                check(e is not None and e.status == st and e.diagnostics == diags,
                      "%s: %s raises segc.Error with check's diagnostics" % (path, fn.__name__), e)
    check(kinds == {"valid", "invalid"}, "valid and invalid specs among them", kinds)


def module():
    base = "examples/make/chip.yaml"
    with open("examples/make/board.yaml") as f:
        board = f.read()
    r = segc.check(board, name="elsewhere/board.yaml", include=["examples/make"])
    check(r.status == 0, "include=: the base found through -I", r)
    r = segc.check(board, name="elsewhere/board.yaml")
    check(r.status == 1 and [d["rule"] for d in r.diagnostics] == ["extends"],
          "no include=: the base cannot be read, at the extends: line", r)
    try:
        segc.check(board, args=["-o", "x"])
        check(False, "-o: refused")
    except ValueError as e:
        check("-o" in str(e), "-o: refused with ValueError", e)
    with open(base, "rb") as f:
        data = f.read()
    check(segc.check(data, name=base) == segc.check(data.decode(), name=base), "bytes and str: the same text")
    check(segc.Error.__module__ == "segc" and issubclass(segc.Error, Exception), "segc.Error is an Exception")
    for fn in (segc.check, segc.build, segc.model):
        check(fn.__doc__ and fn.__name__ + "(text" in fn.__doc__, "%s has a docstring" % fn.__name__)


def threads():
    """Several threads checking different specs at once: each gets what it
    gets alone."""
    specs = [(p, d, a) for p, d, a in tracked_specs() if p.startswith(("samples/", "tests/cases/rules/"))][:24]
    alone = [segc.check(d, name=p, args=a) for p, d, a in specs]
    differ = []

    def work(k):
        for _ in range(5):
            for i in range(k, len(specs), 4):
                p, d, a = specs[i]
                if segc.check(d, name=p, args=a) != alone[i]:
                    differ.append(p)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(not differ, "four threads checking %d specs at once: as one" % len(specs), differ[:3])


def example():
    """examples/python/sizes.py over samples/: a row per segment of each
    sample, as segc dump --json gives them; exit 1 with a variant that is
    not valid among them."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(sys.argv[2]))
    p = subprocess.run([sys.executable, "examples/python/sizes.py", "samples"], capture_output=True, text=True,
                       env=env)
    want = ["file,board,segment,name,kind,base,size,status"]
    for path, data, args in tracked_specs():
        if path.startswith("samples/"):
            m = json.loads(subprocess.run([SEGC, "dump", "--json", path], capture_output=True, check=True).stdout)
            for g in m["segments"]:
                want.append("%s,%s,%d,%s,%s,%d,%d,ok" % (path, m["board"]["name"], g["id"], g["name"], g["kind"]["value"],
                                                          int(g["base"]["value"], 16), int(g["size"]["value"], 16)))
    got = p.stdout.splitlines()
    check(p.returncode == 0 and sorted(got[1:]) == sorted(want[1:]) and got[0] == want[0],
          "examples/python/sizes.py samples: a row per segment, as segc dump --json", (p.returncode, p.stderr, got[:3]))
    p = subprocess.run([sys.executable, "examples/python/sizes.py", "tests/cases/variants"], capture_output=True,
                       text=True, env=env)
    check(p.returncode == 1 and ",invalid: " in p.stdout and "error: [" in p.stderr,
          "examples/python/sizes.py: an invalid variant is a row, its diagnostics on stderr, exit 1",
          (p.returncode, p.stdout[:200]))


every_tracked_spec()
module()
threads()
example()
print("python: %d passed, %d failed%s" % (passed, failed, ", %d skipped" % skipped if skipped else ""))
sys.exit(1 if failed else 0)
