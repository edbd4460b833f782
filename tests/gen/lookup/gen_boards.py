#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes seeded random boards for the lookup tests, or (--grid) the
regular boards the benchmark runs on.

For each board: DIR/rand_N.yaml (the spec) and DIR/rand_N.txt (its segments,
base, size and bank ends in the tests/gen/expect format), both from this
script's own model of the board, so the lookup's reference never comes from
segc.

Usage: gen_boards.py DIR COUNT SEED
       gen_boards.py --grid DIR      segments x banks in {2..31} x {1..127}
"""
import random
import sys

PAGE = 4096


def board(rng, n):
    nseg = rng.choice([1, 2, 3, 5, 8, 13, 21, 31])
    segs = []
    high = rng.random() < 0.15  # some boards live at the top of the address space
    addr = rng.choice([0, PAGE * rng.randrange(1, 1 << 20)])
    plan = []
    for i in range(nseg):
        kind = "memory" if rng.random() < 0.7 else "aperture"
        size = PAGE * rng.choice([1, 2, 3, 16, 255, 256, 4096, 65536, rng.randrange(1, 1 << 22)])
        gap = 0 if rng.random() < 0.6 else PAGE * rng.choice([1, 7, 256, 1 << 20, rng.randrange(1, 1 << 24)])
        banks = []
        if kind == "memory" and rng.random() < 0.5:
            pages = size // PAGE
            nb = rng.randrange(1, min(127, pages) + 1)
            cuts = sorted(rng.sample(range(1, pages), nb - 1)) if nb > 1 else []
            banks = [c * PAGE for c in cuts] + [size]
        plan.append((kind, size, gap, banks))
    total = sum(p[1] + p[2] for p in plan)
    if high:
        addr = ((1 << 64) - total - PAGE * rng.randrange(1, 4)) // PAGE * PAGE  # segment ends stay below 2^64
    for i, (kind, size, gap, banks) in enumerate(plan):
        addr += gap
        segs.append(dict(name="s%d" % (i + 1), kind=kind, base=addr, size=size, banks=banks))
        addr += size
    agp = nseg < 31 and rng.random() < 0.2
    return segs, agp


def write(dirname, n, segs, agp):
    name = n if isinstance(n, str) else "rand_%d" % n
    y = ["segc: 1", "board: { name: %s, wddm: \"1.3\" }" % name, "segments:"]
    t = ["board %s" % name, "wddm 0x1300", "count %d %d" % (len(segs) + agp, len(segs)), "paging 0 0 0"]
    for i, s in enumerate(segs):
        y.append("  - name: %s" % s["name"])
        y.append("    kind: %s" % s["kind"])
        y.append("    base: 0x%X" % s["base"])
        y.append("    size: 0x%X" % s["size"])
        if s["banks"]:
            y.append("    banks:")
            start = 0
            for k, end in enumerate(s["banks"]):
                if k + 1 < len(s["banks"]):
                    y.append("      - { name: b%d, size: 0x%X }" % (k + 1, end - start))
                else:
                    y.append("      - { name: b%d }" % (k + 1))
                start = end
        t.append("seg %d 0x0 0x%X none 0x%X 0x%X 0x0 %s" % (
            i + 1, s["base"], s["size"], s["size"], " ".join("0x%X" % e for e in s["banks"])))
    if agp:
        y += ["  - name: agp", "    kind: agp"]
        t.append("seg %d agp" % (len(segs) + 1))
    open("%s/%s.yaml" % (dirname, name), "w").write("\n".join(y) + "\n")
    open("%s/%s.txt" % (dirname, name), "w").write("\n".join(t) + "\n")


def grid_board(nseg, nbank, granule=1 << 20):
    """nseg segments of 256 MiB each, with gaps; every memory segment split
    into nbank uneven banks on `granule` boundaries (nbank 1: no banks)."""
    segs = []
    addr = 0
    for i in range(nseg):
        size = 256 << 20
        kind = "aperture" if i == nseg - 1 else "memory"
        banks = []
        if kind == "memory" and nbank > 1:
            units = size // granule
            step = units // (nbank + 1)
            banks = [granule * (step * (k + 1) + (k % 3) * (step > 3)) for k in range(nbank - 1)] + [size]
        segs.append(dict(name="s%d" % (i + 1), kind=kind, base=addr, size=size, banks=banks))
        addr += size + (PAGE * 16 if i % 2 else 0)
    return segs


def main():
    if sys.argv[1] == "--grid":
        for nseg in (2, 8, 31):
            for nbank in (1, 8, 127):
                segs = grid_board(nseg, nbank)
                write(sys.argv[2], "grid_%02ds_%03db" % (nseg, nbank), segs, False)
        # The worst case: every bank boundary on its own 4 KiB page.
        write(sys.argv[2], "grid_31s_127b_pages", grid_board(31, 127, PAGE), False)
        return
    dirname, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    for n in range(count):
        segs, agp = board(rng, n)
        write(dirname, n, segs, agp)


main()
