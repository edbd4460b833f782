# SPDX-License-Identifier: MIT
"""Compare `segc dump --json` with a hand-computed expectation file.

Usage: model_vs_expect.py MODEL.json EXPECT.txt

EXPECT.txt is tests/gen/expect/<sample>.txt, written by hand from the spec
for the generated-code test (format in tests/gen/check_handler.c):

    board NAME
    wddm 0xMm00                        DXGK_DRIVERCAPS WDDMVersion
    count MAX NO_AGP                   segments with / without an AGP aperture
    paging ID SIZE PRIVATE             (decimal)
    seg ID FLAGS BASE CPU SIZE COMMIT SYSEND [BANK_END...]   (hex)
    seg ID agp
    seg4 ID INVALID UEFI VPRSTART VPRSIZE VPRALIGN VPRCOUNT VPRRESERVE HOST
        (QUERYSEGMENT4's fields; HOST: none | bar:SLOT+0xOFF/PAGES | addr:0xADDR/PAGES)

CPU is `none`, `bar:SLOT+OFFSET` or `addr:ADDRESS`.  Every field is
compared with the dump; each difference is printed and the exit status is
1.  Agreement proves the dump and the hand computation say the same.
"""
import json
import sys


def main():
    model = json.load(open(sys.argv[1], encoding="utf-8"))
    problems = []

    def same(what, got, want):
        if got != want:
            problems.append(f"{what}: dump says {got!r}, expected {want!r}")

    def num(s):
        return int(s, 16)

    segs = model["segments"]
    seen = set()
    for raw in open(sys.argv[2], encoding="utf-8"):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        key, args = line[0], line[1:]
        if key == "board":
            same("board.name", model["board"]["name"], args[0])
        elif key == "wddm":
            v = int(args[0], 16)
            same("board.wddm", model["board"]["wddm"]["value"], f"{v >> 12}.{(v >> 8) & 15}")
        elif key == "count":
            agp = sum(1 for s in segs if s["kind"]["value"] == "agp")
            same("segment count", len(segs), int(args[0]))
            same("segment count without AGP", len(segs) - agp, int(args[1]))
        elif key == "paging":
            p = model["paging"]
            same("paging.segment.id", p["segment"]["id"], int(args[0]))
            same("paging.buffer_size", num(p["buffer_size"]["value"]), int(args[1]))
            same("paging.private_data_size", num(p["private_data_size"]["value"]), int(args[2]))
        elif key == "seg":
            sid = int(args[0])
            seen.add(sid)
            if sid > len(segs):
                problems.append(f"segment {sid}: not in the dump")
                continue
            s = segs[sid - 1]
            w = f"segment {sid} ({s['name']})"
            same(f"{w} id", s["id"], sid)
            if args[1] == "agp":
                same(f"{w} kind", s["kind"]["value"], "agp")
                continue
            flags, base, cpu, size, commit, sysend = args[1:7]
            same(f"{w} flags", num(s["flags"]["value"]), num(flags))
            same(f"{w} base", num(s["base"]["value"]), num(base))
            same(f"{w} size", num(s["size"]["value"]), num(size))
            same(f"{w} end", num(s["end"]), num(base) + num(size))
            same(f"{w} commit_limit", num(s["commit_limit"]["value"]), num(commit))
            same(f"{w} system_memory_end", num(s["system_memory_end"]["value"]), num(sysend))
            c = s["cpu"]
            if cpu == "none":
                same(f"{w} cpu", c["mode"], "none")
            elif cpu.startswith("bar:"):
                slot, off = cpu[4:].split("+")
                same(f"{w} cpu", c["mode"], "bar")
                same(f"{w} cpu bar slot", c.get("bar", {}).get("slot"), int(slot))
                same(f"{w} cpu offset", num(c.get("offset", {}).get("value", "0x0")), num(off))
                bars = model["bars"]
                if int(slot) < len(bars):
                    same(f"{w} cpu bar name", c["bar"]["name"], bars[int(slot)]["name"])
            elif cpu.startswith("addr:"):
                same(f"{w} cpu", c["mode"], "address")
                same(f"{w} cpu address", num(c.get("address", {}).get("value", "0x0")), num(cpu[5:]))
            ends = [num(e) for e in args[7:]]
            same(f"{w} bank ends", [num(b["end"]) for b in s["banks"]], ends)
            start = 0
            for b in s["banks"]:
                same(f"{w} bank {b['name']} start", num(b["start"]), start)
                same(f"{w} bank {b['name']} size", num(b["size"]["value"]), num(b["end"]) - num(b["start"]))
                start = num(b["end"])
            # The flags' names spell out the same value.
            bits = {n: i for i, n in enumerate(FLAG_BITS)}
            same(f"{w} flag names", sum(1 << bits[n] for n in s["flags"]["names"]), num(flags))
        elif key == "class":
            idx = int(args[0])
            classes = model["allocations"]
            if idx >= len(classes):
                problems.append(f"allocation class {idx}: not in the dump")
                continue
            c = classes[idx]
            w = f"allocation class {idx}"
            same(f"{w} index", c["index"], idx)
            same(f"{w} name", c["name"], args[1])
            for k, (part, field) in enumerate([("write", "set"), ("read", "set"), ("evict", "set"),
                                               ("prefer", "value"), ("banks", "value")]):
                same(f"{w} {part}", num(c[part][field]), num(args[2 + k]))
        elif key == "dma":
            same("dma_buffer_segments", num(model["dma_buffer_segments"]["set"]), num(args[0]))
        elif key == "seg4":
            sid = int(args[0])
            if sid > len(segs):
                problems.append(f"segment {sid}: not in the dump")
                continue
            s = segs[sid - 1]
            w = f"segment {sid} ({s['name']})"
            invalid, uefi, vstart, vsize, valign, vcount, vreserve, host = args[1:9]
            same(f"{w} invalid_memory_ranges", num(s["invalid_memory_ranges"]["value"]), int(invalid))
            same(f"{w} uefi_frame_buffer_ranges", num(s["uefi_frame_buffer_ranges"]["value"]), int(uefi))
            v = s["vpr"] or {}
            for name, want in (("range_start", vstart), ("range_size", vsize), ("alignment", valign),
                               ("reserve_size", vreserve)):
                same(f"{w} vpr {name}", num(v.get(name, {}).get("value", "0x0")), num(want))
            same(f"{w} vpr count", num(v.get("count", {}).get("value", "0x0")), int(vcount))
            h = s["cpu_host_aperture"]
            if host == "none":
                same(f"{w} cpu_host_aperture", h, None)
            else:
                where_, pages = host.split("/")
                same(f"{w} host pages", (h or {}).get("pages"), int(pages))
                if where_.startswith("bar:"):
                    slot, off = where_[4:].split("+")
                    same(f"{w} host slot", (h or {}).get("slot"), int(slot))
                    same(f"{w} host offset", num((h or {}).get("offset", {}).get("value", "0x0")), num(off))
                else:
                    same(f"{w} host address", num((h or {}).get("address", {}).get("value", "0x0")), num(where_[5:]))
        else:
            problems.append(f"unknown expectation line: {raw.strip()}")
    same("segments described by hand", sorted(seen), list(range(1, len(segs) + 1)))
    for p in problems:
        print(p)
    return 1 if problems else 0


# DXGK_SEGMENTFLAGS bit order (compiler/segc.h SEGC_FLAGS).
FLAG_BITS = [
    "aperture", "agp", "cpu_visible", "use_banking", "cache_coherent", "pitch_alignment",
    "populated_from_system_memory", "preserved_during_standby", "preserved_during_hibernate",
    "partially_preserved_during_hibernate", "direct_flip", "use_64kb_pages", "reserved_sys_mem",
    "supports_cpu_host_aperture", "supports_cached_cpu_host_aperture", "application_target",
    "vpr_supported", "vpr_preserved_during_standby", "encrypted_paging_supported",
    "local_budget_group", "non_local_budget_group", "populated_by_reserved_ddr_by_firmware",
]

if __name__ == "__main__":
    sys.exit(main())
