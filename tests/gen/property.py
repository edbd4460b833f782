# SPDX-License-Identifier: MIT
"""Specs near every limit, with random -Wno- options and waivers.

Usage: gen.py SEGC SEED N OUTDIR

Writes OUTDIR/NNN.yaml and OUTDIR/NNN.args (the extra command-line
arguments of check and build, then those of build alone) for N cases, the same for the same SEED.  Each case
mixes: 1 to 32 segments (31 is the limit), AGP-only boards, 126 to 128 banks,
bases near 2^64, sizes at the SIZE_T limit of x86, UINT-wide paging and
QUERYSEGMENT4 fields, BARs larger than 4 GiB, every WDDM version and --ddi
form, overlapping bases (as VirtualBox ships), any flag, allocation classes
(up to six preferences and five bank hints, memory segments in eviction
and DMA buffer sets, names that collide), and random -Wno-, -Wno-error=
and waive: entries naming advisories and invariants alike.
The rule names come from `segc rules`.
"""
import os
import random
import re
import subprocess
import sys

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
FLAGS = ["cache_coherent", "pitch_alignment", "populated_from_system_memory", "preserved_during_standby",
         "preserved_during_hibernate", "partially_preserved_during_hibernate", "direct_flip", "use_64kb_pages",
         "supports_cpu_host_aperture", "supports_cached_cpu_host_aperture", "application_target", "vpr_supported",
         "vpr_preserved_during_standby", "encrypted_paging_supported", "local_budget_group",
         "non_local_budget_group", "populated_by_reserved_ddr_by_firmware", "reserved_sys_mem"]
SAFE_FLAGS = ["cache_coherent", "pitch_alignment", "populated_from_system_memory", "preserved_during_standby"]
WDDM = ["1.0", "1.1", "1.2", "1.3", "2.0", "2.2", "2.9", "3.1"]


def size(r, arch, h):
    pick = r.random()
    if pick < 0.15 and arch == "x86":
        return r.choice([4 * GIB - 4 * KIB, 2 * GIB] + [4 * GIB, 4 * GIB + 4 * KIB] * h)
    if pick < 0.1 * h:
        return r.choice([0, 4 * KIB + 1, (1 << 63)])
    if arch == "x86":
        return r.choice([4 * KIB, 64 * KIB, MIB, 16 * MIB, 256 * MIB])
    return r.choice([4 * KIB, 64 * KIB, MIB, 16 * MIB, 256 * MIB, GIB, 8 * GIB, 1 << 62])


def banks(r, total):
    n = r.choice([1, 2, 3, 126, 127, 128]) if r.random() < 0.5 else r.randint(1, 4)
    if n > 4:
        unit = max(4 * KIB, (total // n) & ~(4 * KIB - 1))
        rows = [f"{{ name: b{i}, size: {unit} }}" for i in range(n - 1)]
    else:
        unit = total // (2 * n) if total >= 2 * n * 4 * KIB else 4 * KIB
        rows = [f"{{ name: b{i}, size: {unit & ~(4 * KIB - 1) or 4 * KIB} }}" for i in range(n - 1)]
    rows.append(f"{{ name: rest{n} }}" if r.random() < 0.9 else f"{{ name: rest{n}, size: 4KiB }}")
    return "    banks:\n" + "".join(f"      - {row}\n" for row in rows)


def segment(r, i, arch, wddm2, rules, at, names, h, last):
    kind = r.choices(["memory", "aperture", "agp"], [6, 3, 1 if last or h == 2 else 0])[0]
    name = r.choice([f"s{i}", f"seg_{i}", f"Seg{i}"])
    if r.random() < 0.06:  # names whose C identifiers may collide
        name = r.choice(["count", "local", "LOCAL", "vram_a", "vramA", "count_no_agp"])
    names.append(name)
    out = f"  - name: {name}\n    kind: {kind}\n"
    sz = size(r, arch, h)
    if kind != "agp" or r.random() < 0.2:
        out += f"    size: {sz}\n"
    near = r.random()
    if near < 0.1 and (last or h):
        out += f"    base: {hex((1 << 64) - r.choice([sz or 4 * KIB] * 3 + [4 * KIB, 8 * KIB] * h))}\n"
    elif near < 0.25:
        out += "    base: 0\n"  # overlaps the others at 0, as VirtualBox does
    elif near < 0.6 or kind == "agp":
        pass  # the previous segment's end
    else:
        out += f"    base: {hex(at + r.choice([0, 4 * KIB, GIB]))}\n"
    flags = r.sample(FLAGS if h else SAFE_FLAGS, r.choice([0, 0, 0, 0, 1] + [1, 2] * h))
    waive = {"segments-overlap"} if "base: 0\n" in out and not h else set()
    return out + extra(r, kind, sz, flags, wddm2, rules, h, waive), sz


def extra(r, kind, sz, flags, wddm2, rules, h, waive):
    """The keys after name, kind, size and base."""
    out = ""
    if flags:
        out += f"    flags: [{', '.join(flags)}]\n"
    if kind == "memory" and r.random() < 0.35 and sz >= 256 * MIB:
        out += banks(r, sz)
    if r.random() < 0.1 * h:
        out += r.choice(["    cpu_visible: { bar: fb }\n", "    cpu_visible: { bar: big, offset: 4GiB }\n",
                         "    cpu_visible: { address: 0xFFFFFFFFFFFFF000 }\n", "    cpu_visible: { address: 0 }\n"])
    if r.random() < 0.1 * h:
        out += f"    commit_limit: {r.choice([0, sz, sz + 4 * KIB, 4 * KIB])}\n"
    if r.random() < 0.05 * h:
        out += f"    system_memory_end: {r.choice([0, 4 * KIB - 1, sz, sz - 1 if sz else 0])}\n"
    if wddm2 and r.random() < (0.25 if h else 0.1):
        out += r.choice([f"    invalid_memory_ranges: {r.choice([1, 0xFFFFFFFF, 0x100000000])}\n",
                         "    vpr: { range_start: 0, range_size: 4KiB, alignment: 0x100000000 }\n",
                         "    cpu_host_aperture: { bar: fb, size: 4KiB }\n",
                         f"    uefi_frame_buffer_ranges: {r.choice([1, 0x100000000])}\n"])
    if r.random() < 0.3:
        waive |= set(r.choice(rules[h]) for _ in range(r.randint(1, 3)))
    if waive:
        waived = sorted(waive)
        out += "    waive: {" + ", ".join(f'{w}: "generated"' for w in waived) + "}\n"
    return out


def classes(r, segs, h):
    """An allocations: list over the segments (name, kind, bank names),
    and a dma_buffer_segments: line; mostly valid when h is 0."""
    if not segs or r.random() < 0.5:
        return ""
    names = [n for n, _, _ in segs]
    apertures = [n for n, k, _ in segs if k == "aperture"]
    out = "allocations:\n"
    for k in range(r.randint(1, 3)):
        name = f"c{k}" if r.random() >= 0.05 * h else r.choice(["class_count", "c0", "count"])
        write = r.sample(names, r.randint(1, min(len(names), 5 + h)))
        prefer = r.sample(write, r.randint(0, min(len(write), 5 + h)))
        if h and r.random() < 0.2:
            prefer.append(r.choice(names))  # maybe outside the supported sets
        out += f"  - name: {name}\n    write: [{', '.join(write)}]\n"
        if prefer:
            items = [f"{{ segment: {p}, from_end: true }}" if r.random() < 0.2 else p for p in prefer]
            out += f"    prefer: [{', '.join(items)}]\n"
        if r.random() < 0.2:
            read = r.sample(names, r.randint(1, min(len(names), 5))) if h else write[::-1]
            out += f"    read: [{', '.join(read)}]\n"
        pool = names if h else apertures
        if pool and r.random() < 0.4:
            out += f"    evict: [{', '.join(r.sample(pool, r.randint(1, min(len(pool), 3))))}]\n"
        first = [b for n, _, b in segs if prefer and n == prefer[0]]
        hints = first[0] if first and first[0] else ([f"b{i}" for i in range(6)] if h else [])
        if hints and r.random() < 0.5:
            chosen = r.sample(hints, r.randint(1, min(len(hints), 4 + h)))
            items = [f"{{ bank: {b}, from_end: true }}" if r.random() < 0.3 else b for b in chosen]
            out += f"    banks: [{', '.join(items)}]\n"
    pool = names if h else apertures
    if pool and r.random() < 0.5:
        out += f"dma_buffer_segments: [{', '.join(r.sample(pool, r.randint(1, min(len(pool), 3))))}]\n"
    return out


def case(r, rules):
    h = r.choice([0, 0, 1, 2])  # how hostile: 0 builds more often than not
    arch = r.choice(["x64", "arm64", "x86"])
    wddm = r.choice(WDDM)
    wddm2 = wddm >= "2.0"
    nsegs = r.choice([1, 1, 2, 3, 4, 6, 30, 31] + [32] * h) if r.random() < 0.4 else r.randint(1, 5)
    text = f'segc: 1\nboard: {{ name: p, wddm: "{wddm}", arch: {arch} }}\n'
    text += "bars:\n  fb: { index: 0, size: 256MiB }\n"
    text += f"  big: {{ index: {r.choice([2, 5])}, size: {r.choice(['8GiB', '64GiB', '4GiB'])} }}\n"
    if h and r.random() < 0.2:
        text += f"  {r.choice(['FB', 'count', 'Big'])}: {{ index: 3, size: 1MiB }}\n"
    text += "segments:\n"
    at, names = 0, []
    segs = []
    for i in range(nsegs):
        seg, sz = segment(r, i, arch, wddm2, rules, at, names, h, i + 1 == nsegs)
        text += seg
        at += sz
        kind = re.search(r"kind: (\w+)", seg).group(1)
        part = seg.split("    banks:\n", 1)
        banked = re.findall(r"name: (\w+)", part[1]) if len(part) > 1 else []
        segs.append((names[-1], kind, banked))
    text += classes(r, segs, h)
    if r.random() < 0.5 and h:
        text += "paging:\n"
        text += f"  segment: {r.choice(['none'] + names)}\n"
        text += f"  buffer_size: {r.choice([4 * KIB, 0xFFFFFFFF] + [0x100000000] * (h - 1))}\n"
        text += f"  private_data_size: {r.choice([0, 272, 0x100000000])}\n"
    args = []
    for rule in sorted(set(r.choice(rules[h]) for _ in range(r.choice([0, 0, 1, 2, 4])))):
        args.append(r.choice(["-Wno-", "-Wno-", "-Wno-error=", "-Werror="]) + rule)
    if r.random() < 0.3:
        args.append("--ddi=" + r.choice(["qs", "qs3", "qs4", "qs,qs3", "qs3,qs4", "qs,qs3,qs4"]))
    if wddm2 and not h:
        args.append("-Wno-wddm2-one-aperture")
    build = "--lookup-budget=" + r.choice(["1", "200", "2KiB", "64KiB"])
    return text, " ".join(args) + "\n" + build


def main():
    segc, seed, n, outdir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    listed = subprocess.run([segc, "rules"], capture_output=True, text=True, check=True).stdout
    rules = [line.split()[0] for line in listed.splitlines() if line.strip()]
    # Advisories come up far more often: they are what a run may switch off,
    # and those a segment can waive (segc explain shows a waive: line).
    advisories = [line.split()[0] for line in listed.splitlines() if " advisory " in line]
    waivable = [a for a in advisories
                if "waive: {" in subprocess.run([segc, "explain", a], capture_output=True, text=True).stdout]
    r = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    for i in range(n):
        text, args = case(r, [waivable, advisories * 8 + rules, rules])
        with open(os.path.join(outdir, f"{i:03d}.yaml"), "w") as f:
            f.write(f"# property case {i} of seed {seed}\n" + text)
        with open(os.path.join(outdir, f"{i:03d}.args"), "w") as f:
            f.write(args + "\n")


if __name__ == "__main__":
    main()
