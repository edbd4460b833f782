#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""make bench (bench/api.sh): checks per second of the Python module in
one process, of a segc process per spec, and of one `segc check -j 1` over
all of them, on the same specs, measured in this run (interleaved, the best of five).  The specs checked
in one process (by Python, or by one CLI batch) are checked PASSES times
over in a round, so that each side's round lasts about as long as the
hundred processes do (a quarter of a second, not the 30 ms of one pass,
which the machine's own noise swings by half).

    python3 bench/api.py SEGC PYTHON_DIR SPEC...
"""
import resource
import subprocess
import sys
import time

SEGC = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import segc  # noqa: E402

paths = sys.argv[3:]
texts = []
for p in paths:
    with open(p, "rb") as f:
        texts.append((p, f.read()))


def cost(fn):
    """fn's wall-clock seconds and CPU seconds (user + system, this
    process's and its children's)."""
    r0, c0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    fn()
    wall = time.perf_counter() - start
    r1, c1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(getattr(r1, f) - getattr(r0, f) + getattr(c1, f) - getattr(c0, f) for f in ("ru_utime", "ru_stime"))
    return wall, cpu


def in_process():
    for p, t in texts * PASSES:
        if segc.check(t, name=p).status != 0:
            sys.exit("%s: not valid" % p)


few = paths[:100]  # a process each: 100 of them are enough for a rate
PASSES = 10  # the checks in one process: 10 x the specs, about as long as the 100 processes


def per_process():
    for p in few:
        subprocess.run([SEGC, "check", "-q", p], check=True, stdout=subprocess.DEVNULL)


def batch():
    subprocess.run([SEGC, "check", "-q", "-j", "1"] + paths * PASSES, check=True, stdout=subprocess.DEVNULL)


# Interleaved, the best of five each: a machine that is busy for a moment
# slows one round of all three, not one of them.  On a machine shared with
# other work the wall clock says more about the others than about segc, so
# the goals are judged on CPU time (user + system, children included).
runs = {"py": [], "proc": [], "batch": []}
for _ in range(5):
    runs["py"].append(cost(in_process))
    runs["batch"].append(cost(batch))
    runs["proc"].append(cost(per_process))
n = {"py": len(paths) * PASSES, "proc": len(few), "batch": len(paths) * PASSES}
wall = {k: n[k] / min(w for w, c in v) for k, v in runs.items()}
cpu = {k: n[k] / max(min(c for w, c in v), 1e-6) for k, v in runs.items()}
print("specs: %d, checked %d times over in one process (%d for the process per spec)" % (len(paths), PASSES, len(few)))
print("%-44s %14s %14s" % ("", "checks/s wall", "checks/s CPU"))
for k, what in (("py", "Python segc.check, in process"), ("proc", "a segc check process per spec"),
                ("batch", "one segc check -j 1 over all of them")):
    print("%-44s %14.0f %14.0f" % (what, wall[k], cpu[k]))
r1, r2 = cpu["py"] / cpu["proc"], cpu["batch"] / cpu["py"]
print("in process vs a process per spec: %.1fx on CPU time, %.1fx on the wall clock (goal: at least 20x, %s)" % (
    r1, wall["py"] / wall["proc"], "met" if r1 >= 20 else "not met"))
print("one CLI batch vs in process: %.2fx as fast on CPU time, %.2fx on the wall clock (goal: within 1.5x, %s)" % (
    r2, wall["batch"] / wall["py"], "met" if r2 <= 1.5 else "not met"))
