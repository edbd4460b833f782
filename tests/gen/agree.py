# SPDX-License-Identifier: MIT
"""`segc check` exits 0 if and only if `segc build` does, for every spec and
every option set; what build writes compiles.

Usage: agree.py SEGC WORKDIR SPEC...

For each option set below, one `segc check --diagnostics=json` run over every
SPEC gives each file's status (ok 0, invalid 1, unreadable 2: what
`segc check FILE` alone exits); then `segc build` of each SPEC with the same
options must exit with that status.  An option set that cannot change a
spec's answer is skipped for it: -Wno-RULE where RULE did not fire with the
defaults (its checker runs either way; only what it reports changes), and
-Werror where nothing warned.  Every build that exits 0 is compiled with
gcc -std=c11 -Wall -Wextra -Werror -pedantic, in batches, each distinct
output once.  Prints `ok` or `FAIL` lines, and exits 1 on any failure.
"""
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys

CC = os.environ.get("CC_AGREE", "gcc")
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"]
DDI = ["qs", "qs3", "qs4", "qs,qs3", "qs,qs4", "qs3,qs4", "qs,qs3,qs4"]
JOBS = max(2, os.cpu_count() or 2)


def option_sets(segc):
    """(name, arguments, build's own arguments, only) for every option set;
    `only` names the rule the set can change the answer of, "warning" for
    -Werror, None for all."""
    rules = subprocess.run([segc, "rules"], capture_output=True, text=True, check=True).stdout.splitlines()
    advisories = [l.split()[0] for l in rules if l.split()[1] == "advisory"]
    sets = [("default", [], [], None)]
    sets += [(f"--ddi {d}", ["--ddi", d], [], None) for d in DDI]
    # a lookup table that fits in no budget: build alone has the option
    sets += [("--lookup-budget 64", [], ["--lookup-budget", "64"], None)]
    sets += [("-Werror", ["-Werror"], [], "warning")]
    sets += [(f"-Wno-{r}", [f"-Wno-{r}"], [], r) for r in advisories]
    return sets


def check_all(segc, args, specs):
    """Each spec's status under `args`, and the codes and severities it got."""
    out = subprocess.run([segc, "check", f"-j{JOBS}", "--diagnostics=json", *args, *specs],
                         capture_output=True, text=True).stdout
    status, fired = {}, {}
    for f in json.loads(out)["files"]:
        status[f["file"]] = {"ok": 0, "invalid": 1, "unreadable": 2}[f["status"]]
        fired[f["file"]] = {d["rule"] for d in f["diagnostics"]} | {d["severity"] for d in f["diagnostics"]}
    return status, fired


def build(segc, args, spec, outdir):
    r = subprocess.run([segc, "build", "-q", "--color=never", *args, spec, "-o", outdir],
                       capture_output=True, text=True)
    return r.returncode, r.stderr


def compile_batch(sources):
    """The sources of a batch that do not compile (a batch that fails is
    retried file by file to name them)."""
    if subprocess.run([CC, *CFLAGS, "-fsyntax-only", *sources], capture_output=True).returncode == 0:
        return []
    bad = []
    for s in sources:
        r = subprocess.run([CC, *CFLAGS, "-fsyntax-only", s], capture_output=True, text=True)
        if r.returncode:
            bad.append((s, r.stderr.strip().splitlines()[:4]))
    return bad


def main():
    segc, work, specs = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failed = 0

    def fail(what, why=""):
        nonlocal failed
        failed += 1
        print(f"FAIL {what}{': ' if why else ''}{why}")

    sets = option_sets(segc)
    base, fired = check_all(segc, [], specs)
    if set(base) != set(specs):
        fail("check --diagnostics=json", f"answered for {len(base)} of {len(specs)} files")
        return 1
    jobs = []  # (set name, build's arguments, spec, expected status)
    for name, args, bargs, only in sets:
        status = base if not args else check_all(segc, args, specs)[0]
        for spec in specs:
            if only and only not in fired[spec]:
                continue
            jobs.append((name, args + bargs, spec, status[spec]))
    outputs = {}  # digest of the outputs -> the .c file to compile
    runs = 0

    def one(i, job):
        name, args, spec, want = job
        outdir = os.path.join(work, str(i))
        rc, err = build(segc, args, spec, outdir)
        return job, rc, err, outdir

    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        for (name, args, spec, want), rc, err, outdir in pool.map(lambda ij: one(*ij), enumerate(jobs)):
            runs += 1
            if rc != want:
                fail(f"{spec} ({name})", f"check exits {want}, build {rc}: {err.strip()[:300]}")
                continue
            if rc:
                continue
            h = hashlib.sha256()
            for f in sorted(os.listdir(outdir)):
                h.update(f.encode() + b"\0" + open(os.path.join(outdir, f), "rb").read())
            c = [os.path.join(outdir, f) for f in os.listdir(outdir) if f.endswith("_segments.c")]
            if len(c) != 1:
                fail(f"{spec} ({name})", f"build wrote {sorted(os.listdir(outdir))}")
            elif h.hexdigest() in outputs:
                shutil.rmtree(outdir)
            else:
                outputs[h.hexdigest()] = c[0]
    print(f"ok   check and build agree: {runs} runs ({len(specs)} specs, {len(sets)} option sets)")
    sources = sorted(outputs.values())
    batches = [sources[i::JOBS * 4] for i in range(JOBS * 4)]
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        for bad in pool.map(compile_batch, [b for b in batches if b]):
            for s, why in bad:
                fail(f"{s} does not compile ({CC} {' '.join(CFLAGS)})", " | ".join(why))
    print(f"ok   {len(sources)} distinct outputs compile with {CC} {' '.join(CFLAGS)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
