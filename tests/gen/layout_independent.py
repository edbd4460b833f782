# SPDX-License-Identifier: MIT
"""The allocation structs of templates/segc_dxgk.h against a layout worked
out here, independently, from another project's declaration of them.

    python3 tests/gen/layout_independent.py TMPDIR

The declaration is ReactOS's sdk/include/ddk/d3dkmddi.h (MIT licence,
reactos/reactos at 2032b5aa), a header written without the WDK's.  Only
facts are taken from it: the order of each struct's members, the width
class of each (a pointer, a SIZE_T, a HANDLE, a 32-bit word) and the width
of each bit-field, in the tables below.  From those this script computes,
for each pointer width, where every member must be (natural alignment:
what both the Microsoft x64 and x86 ABIs and gcc's do for these types) and
which bits every field must cover, and compares segc_dxgk.h's answer as
each available compiler sees it:

  - offsets and sizes: a probe that includes segc_dxgk.h compiled with -S
    by gcc and clang (host and -m32) and by x86_64/i686 mingw-w64 (the
    Windows targets themselves), the values read back from the assembly;
  - bit-field masks: the probe run where this machine can run it (gcc and
    clang, x64 and -m32), each field set to all ones alone.

At two interface versions: the header's default (WDDM 3.0) and WDDM 1.3.

One difference is expected and explained, not hidden: ReactOS declares
DXGK_ALLOCATIONINFO.Flags2 from WDDM 3.0 whatever the pointer width, while
the WDK's own header (measured: 60 bytes on x86) has it in 64-bit builds
only, which segc_dxgk.h follows.  The script says so on a line of its own
and checks the x86 layout without Flags2.

Prints ok/FAIL lines (tests/lib.sh style), then "layout: N passed, M
failed"; exit 1 if anything failed.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TMP = sys.argv[1]

WDDM3_0 = 0xF003
WDDM2_0 = 0x5023

# Members in declaration order, with their width class.  "word" is a UINT
# or a union/struct of one UINT; "ptr" a pointer; "size" a SIZE_T;
# "handle" a HANDLE.  A member whose third item is a function of
# (pointer bytes, interface version) exists only where it returns true.
ALLOCATIONINFO = [
    ("pPrivateDriverData", "ptr"),
    ("PrivateDriverDataSize", "word"),
    ("Alignment", "word"),
    ("Size", "size"),
    ("PitchAlignedSize", "size"),
    ("HintedBank", "word"),
    ("PreferredSegment", "word"),
    ("SupportedReadSegmentSet", "word"),
    ("SupportedWriteSegmentSet", "word"),
    ("EvictionSegmentSet", "word"),
    ("MaximumRenamingListLength", "word"),
    ("PhysicalAdapterIndex", "word", "same"),  # the other member of the same union
    ("hAllocation", "handle"),
    ("Flags", "word"),
    ("FlagsWddm2", "word", "same", lambda ptr, v: v >= WDDM2_0),
    ("pAllocationUsageHint", "ptr"),
    ("AllocationPriority", "word"),
    # ReactOS: v >= WDDM3_0 alone.  The WDK (and segc_dxgk.h): 64-bit only.
    ("Flags2", "word", None, lambda ptr, v: v >= WDDM3_0 and ptr == 8),
]

# Bit-fields in declaration order, lowest bit first, with their widths.
SEGMENTPREFERENCE = [("SegmentId0", 5), ("Direction0", 1), ("SegmentId1", 5), ("Direction1", 1),
                     ("SegmentId2", 5), ("Direction2", 1), ("SegmentId3", 5), ("Direction3", 1),
                     ("SegmentId4", 5), ("Direction4", 1), ("Reserved", 2)]
SEGMENTBANKPREFERENCE = [("Bank0", 7), ("Direction0", 1), ("Bank1", 7), ("Direction1", 1),
                         ("Bank2", 7), ("Direction2", 1), ("Bank3", 7), ("Direction3", 1)]
# The named one-bit flags of the two flag unions (the reserved runs after
# them are left out: segc_dxgk.h gives them other names).
AIFLAGS = ["CpuVisible", "PermanentSysMem", "Cached", "Protected", "ExistingSysMem", "ExistingKernelSysMem",
           "FromEndOfSegment", "Swizzled", "Overlay", "Capture", "UseAlternateVA", "SynchronousPaging",
           "LinkMirrored", "LinkInstanced", "HistoryBuffer", "AccessedPhysically",
           "ExplicitResidencyNotification", "HardwareProtected", "CpuVisibleOnDemand"]
AIFLAGS2 = ["CpuVisible", "PermanentSysMem", "Cached", "Protected", "ExistingSysMem", "ExistingKernelSysMem",
            "FromEndOfSegment", "DisableLargePageMapping", "Overlay", "Capture", "CreateInVpr", None, None,
            "MapApertureCpuVisible", "HistoryBuffer", "AccessedPhysically", "ExplicitResidencyNotification",
            "HardwareProtected", "CpuVisibleOnDemand"]
BITFIELDS = [("DXGK_SEGMENTPREFERENCE", [(n, w) for n, w in SEGMENTPREFERENCE]),
             ("DXGK_SEGMENTBANKPREFERENCE", [(n, w) for n, w in SEGMENTBANKPREFERENCE]),
             ("DXGK_ALLOCATIONINFOFLAGS", [(n, 1) for n in AIFLAGS]),
             ("DXGK_ALLOCATIONINFOFLAGS_WDDM2_0", [(n, 1) for n in AIFLAGS2])]

passed = failed = 0
quiet = None  # a list collecting the failures of a doctored header's run


def ok(what):
    global passed
    if quiet is not None:
        return
    passed += 1
    print("ok   " + what)


def bad(what, why):
    global failed
    if quiet is not None:
        quiet.append("%s: %s" % (what, why))
        return
    failed += 1
    print("FAIL %s: %s" % (what, why))


def layout(ptr, version):
    """{member: offset} and the size of DXGK_ALLOCATIONINFO, worked out
    from the member list for a pointer width and an interface version."""
    width = {"ptr": ptr, "size": ptr, "handle": ptr, "word": 4}
    offsets, off, align, last = {}, 0, 4, 0
    for m in ALLOCATIONINFO:
        name, kind = m[0], m[1]
        shared = len(m) > 2 and m[2] == "same"
        cond = m[3] if len(m) > 3 else None
        if cond and not cond(ptr, version):
            continue
        if shared:
            offsets[name] = last
            continue
        w = width[kind]
        off = (off + w - 1) // w * w
        offsets[name] = last = off
        off += w
        align = max(align, w)
    return offsets, (off + align - 1) // align * align


def masks(fields):
    out, bit = {}, 0
    for name, w in fields:
        if name:
            out[name] = ((1 << w) - 1) << bit
        bit += w
    return out


def probe_source(version):
    offs, _ = layout(8, version)
    members = list(offs)  # the members this version has on x64
    lines = ["#define DXGKDDI_INTERFACE_VERSION 0x%X" % version,
             '#include "segc_dxgk.h"',
             "#include <stddef.h>",
             "#include <stdio.h>",
             "const unsigned int segc_probe[] = {",
             "    (unsigned int)sizeof(DXGK_ALLOCATIONINFO),",
             "    (unsigned int)sizeof(DXGK_SEGMENTPREFERENCE),",
             "    (unsigned int)sizeof(DXGK_SEGMENTBANKPREFERENCE),"]
    for m in members:
        guard = m == "Flags2"
        if guard:
            lines.append("#if SEGC_DXGK_ALLOCATIONINFO_FLAGS2")
        lines.append("    (unsigned int)offsetof(DXGK_ALLOCATIONINFO, %s)," % m)
        if guard:
            lines.append("#else")
            lines.append("    0xFFFFFFFFu,")
            lines.append("#endif")
    lines.append("};")
    lines.append("int main(void)\n{")
    lines.append("    unsigned int i;")
    lines.append("    for (i = 0; i < sizeof segc_probe / sizeof segc_probe[0]; i++)")
    lines.append('        printf("%u\\n", segc_probe[i]);')
    for struct, fields in BITFIELDS:
        if struct.endswith("WDDM2_0") and version < WDDM2_0:
            continue
        for name, w in fields:
            if not name or (struct == "DXGK_ALLOCATIONINFOFLAGS" and version < WDDM2_0 and
                            name in AIFLAGS[15:]):
                continue
            if version < 0x6003 and name == "CreateInVpr" or version < 0xE003 and name == "MapApertureCpuVisible":
                continue
            lines.append("    { %s x; x.Value = 0u; x.%s = %du; printf(\"%s.%s %%u\\n\", (unsigned)x.Value); }"
                         % (struct, name, (1 << w) - 1, struct, name))
    lines.append("    return 0;\n}")
    return "\n".join(lines) + "\n", members


def asm_values(text):
    """The .long values after the label segc_probe, in order."""
    vals, inside = [], False
    for line in text.splitlines():
        s = line.strip()
        if re.match(r"_?segc_probe:$", s):
            inside = True
            continue
        if inside:
            m = re.match(r"\.(long|int|4byte)\s+(-?\w+)\s*(#.*)?$", s)
            if not m:
                if vals:
                    break
                continue
            vals.append(int(m.group(2), 0) & 0xFFFFFFFF)
    return vals


def compare(label, ptr, version, vals, members):
    offs, size = layout(ptr, version)
    want = [size, 4, 4] + [offs.get(m, 0xFFFFFFFF) for m in members]
    names = ["sizeof(DXGK_ALLOCATIONINFO)", "sizeof(DXGK_SEGMENTPREFERENCE)",
             "sizeof(DXGK_SEGMENTBANKPREFERENCE)"] + ["offsetof(%s)" % m for m in members]
    if len(vals) != len(want):
        bad(label, "read %d values from the probe, expected %d" % (len(vals), len(want)))
        return
    wrong = ["%s %s, the independent layout says %s" % (n, "absent" if g == 0xFFFFFFFF else g,
                                                        "absent" if w == 0xFFFFFFFF else w)
             for n, g, w in zip(names, vals, want) if g != w]
    if wrong:
        bad(label, "; ".join(wrong))
    else:
        ok("%s: DXGK_ALLOCATIONINFO (%d bytes, %d members), DXGK_SEGMENTPREFERENCE and "
           "DXGK_SEGMENTBANKPREFERENCE as ReactOS's member list lays them out" % (label, size, len(members)))


def have(cmd):
    return shutil.which(cmd) is not None


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)


def note(text):
    if quiet is None:
        print("note: " + text)


def check_header(inc, configs, versions):
    for version in versions:
        src, members = probe_source(version)
        path = os.path.join(TMP, "probe_%X.c" % version)
        with open(path, "w") as f:
            f.write(src)
        for label, cc, ptr, runs in configs:
            what = "%s, interface 0x%X" % (label, version)
            asm = os.path.join(TMP, "probe.s")
            r = run(cc + ["-std=c11", "-O0", "-I" + inc, "-S", path, "-o", asm])
            if r.returncode != 0:
                if "-m32" in cc:
                    note("%s cannot compile here: %s" % (label, r.stdout.strip().splitlines()[:1]))
                    continue
                bad(what, "the probe does not compile: " + r.stdout.strip()[:300])
                continue
            with open(asm) as f:
                compare(what, ptr, version, asm_values(f.read()), members)
            if not runs:
                continue
            exe = os.path.join(TMP, "probe")
            r = run(cc + ["-std=c11", "-I" + inc, path, "-o", exe])
            if r.returncode != 0:
                note("%s cannot link here, bit-fields not run: %s" % (label, r.stdout.strip()[:200]))
                continue
            r = run([exe])
            got = dict(l.split() for l in r.stdout.splitlines() if " " in l)
            wrong, n = [], 0
            for struct, fields in BITFIELDS:
                for name, m in masks(fields).items():
                    key = "%s.%s" % (struct, name)
                    if key not in got:
                        continue
                    n += 1
                    if int(got[key]) != m:
                        wrong.append("%s covers 0x%08X, the declaration's widths say 0x%08X" % (key, int(got[key]), m))
            if r.returncode != 0 or n == 0:
                bad(what + ": bit-fields", "the probe ran with status %d and printed %d fields" % (r.returncode, n))
            elif wrong:
                bad(what + ": bit-fields", "; ".join(wrong))
            else:
                ok("%s: the %d bit-fields of the preference, bank-preference and flag unions cover the bits "
                   "their widths in ReactOS's declaration give" % (what, n))


# Planted defects: segc_dxgk.h copied with one edit each (and without its
# compile-time layout pins), which the comparison must catch, so that it is
# known to be able to fail.
DEFECTS = [
    ("HintedBank and PreferredSegment swapped",
     "    DXGK_SEGMENTBANKPREFERENCE HintedBank;\n    DXGK_SEGMENTPREFERENCE     PreferredSegment;\n",
     "    DXGK_SEGMENTPREFERENCE     PreferredSegment;\n    DXGK_SEGMENTBANKPREFERENCE HintedBank;\n",
     "offsetof(HintedBank)"),
    ("Flags2 declared on x86 too, as ReactOS does",
     "#if SEGC_DXGK_SINCE(WDDM3_0) && (defined(_WIN64) || defined(__x86_64__) || defined(__aarch64__))",
     "#if SEGC_DXGK_SINCE(WDDM3_0)",
     "sizeof(DXGK_ALLOCATIONINFO) 64"),
]


def main():
    global quiet
    inc = os.path.join(ROOT, "templates")
    configs = []
    for cc in ("gcc", "clang"):
        if have(cc):
            configs += [(cc, [cc], 8, True), (cc + " -m32", [cc, "-m32"], 4, True)]
    for cc, ptr in (("x86_64-w64-mingw32-gcc", 8), ("i686-w64-mingw32-gcc", 4)):
        if have(cc):
            configs.append((cc, [cc], ptr, False))
        else:
            note("%s not found, skipped" % cc)
    note("ReactOS declares DXGK_ALLOCATIONINFO.Flags2 from WDDM 3.0 on x86 too; the WDK's header, "
         "measured at 60 bytes on x86, has it in 64-bit builds only, and so does segc_dxgk.h: "
         "the x86 layouts below are computed without it")
    check_header(inc, configs, (WDDM3_0, 0x4002))

    with open(os.path.join(inc, "segc_dxgk.h")) as f:
        header = f.read()
    # A bit-field one bit narrower, planted in the preference.
    narrow = ("SegmentId0 one bit narrower", None, None, "DXGK_SEGMENTPREFERENCE.SegmentId0 covers 0x0000000F")
    pre = [l for l in header.splitlines() if re.search(r"\bUINT\s+SegmentId0\s*:\s*5\b", l)]
    for what, old, new, expect in DEFECTS + [narrow]:
        if old is None:
            old = pre[0] if pre else "no such line"
            new = re.sub(r":\s*5\b", ": 4", old)
        label = "the comparison catches a planted defect: " + what
        if header.count(old) != 1:
            bad(label, "the line to change is not in segc_dxgk.h once")
            continue
        d = os.path.join(TMP, "doctored")
        os.makedirs(d, exist_ok=True)
        # Without the header's own layout pins, which would refuse the
        # defect first: the comparison must see it on its own.
        doctored = "\n".join(l for l in header.replace(old, new).split("\n")
                             if not re.match(r"SEGC_STATIC_ASSERT(_PTR32|_PTR64)?\(", l))
        with open(os.path.join(d, "segc_dxgk.h"), "w") as f:
            f.write(doctored)
        quiet = []
        check_header(d, configs, (WDDM3_0,))
        found, quiet = quiet, None
        hit = [f for f in found if expect in f]
        if hit:
            ok("%s: %s" % (label, hit[0][:200]))
        else:
            bad(label, "not caught; failures: %s" % ("; ".join(found)[:300] or "none"))
    print("layout: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main())
