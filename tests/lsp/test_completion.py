# SPDX-License-Identifier: MIT
"""textDocument/completion: keys, flags, names in expressions, fixed values,
segment and BAR names, waivable rules, and completion while the YAML is
broken.

The expected sets come from elsewhere than the server: the keys of each
map as README.md lists them, the flags of a WDDM 1.3 board from
DXGK_SEGMENTFLAGS' version history written out below, values from
`segc dump --json` and arithmetic, rules from `segc explain`.  Each case
also checks what must not be offered (a key already written, a derived
flag, a WDDM 2.0 flag on a 1.3 board, a flag the segment's kind rules out,
an invariant rule)."""
import json
import subprocess

import lsplib

t = lsplib.Test("completion")
GiB, MiB = 1 << 30, 1 << 20

HEAD = """segc: 1
board: { name: fabrikam_x1, wddm: "1.3", arch: x64 }
constants:
  vram: 8GiB
bars:
  fb: { index: 0, size: 256MiB }
segments:
  - name: visible
    kind: memory
    base: 0
    size: bar.fb.size
    cpu_visible: { bar: fb, offset: 0 }
    flags: [direct_flip, preserved_during_standby]
  - name: local
    kind: memory
    size: vram - visible.size
"""
TAIL = """paging:
  segment: none
"""

# DXGK_SEGMENTFLAGS members a WDDM 1.3 driver may set itself (the derived
# Aperture, Agp, CpuVisible, UseBanking left out), by their spec names.
WDDM13 = {"cache_coherent", "pitch_alignment", "populated_from_system_memory", "preserved_during_standby",
          "preserved_during_hibernate", "partially_preserved_during_hibernate", "direct_flip"}
DERIVED = {"aperture", "agp", "cpu_visible", "use_banking"}
# The keys of a segment and of the spec, as README.md's "The input format" lists them.
SEGMENT_KEYS = {"name", "kind", "base", "size", "commit_limit", "cpu_visible", "flags", "banks",
                "system_memory_end", "waive"}
# The keys README.md's "The input format" and "Variants" give a variant's
# segment entries and BAR entries only (a spec with extends:).
VARIANT_SEGMENT_KEYS = {"new", "delete"}
VARIANT_BAR_KEYS = {"delete"}
TOP_KEYS = {"segc", "extends", "board", "constants", "bars", "segments", "paging", "allocations", "dma_buffer_segments"}


def complete(c, uri, text):
    """Completion at the `|` of text (which replaces the document)."""
    at = text.index("|")
    text = text.replace("|", "", 1)
    c.change(uri, None, text, version=complete.version)
    complete.version += 1
    r = c.result("textDocument/completion", {"textDocument": {"uri": uri},
                                             "position": lsplib.offset_position(text, at)})
    items = r["items"] if isinstance(r, dict) else r
    return {i["label"]: i for i in items or []}


complete.version = 2


def same(got, want, what):
    """The labels offered are exactly `want`."""
    t.eq(sorted(got), sorted(want), what)


def model(path):
    return json.loads(subprocess.run([t.segc, "dump", "--json", path], capture_output=True, text=True).stdout)


def explain(rule):
    return subprocess.run([t.segc, "explain", rule], capture_output=True, text=True).stdout


def keys_cases(c, uri):
    got = complete(c, uri, HEAD + "    |\n" + TAIL)
    want = SEGMENT_KEYS - {"name", "kind", "size"}
    t.check(want <= set(got), "a segment's keys are offered", sorted(want - set(got)))
    t.check(not {"name", "kind", "size"} & set(got), "not the keys it has", sorted(got))
    t.check("segc" not in got and "index" not in got, "no key of another map", sorted(got))
    t.eq(got.get("commit_limit", {}).get("kind"), 5, "a field is a Field item")
    t.eq(got.get("base", {}).get("detail"), "expression: BaseAddress", "a field's detail: its DXGK member")
    got = complete(c, uri, HEAD.replace("arch: x64 }", "| }") + TAIL)
    t.eq({k: got.get(k, {}).get("detail") for k in ("page_size", "arch")}, {"page_size": "expression", "arch": "key"},
         "a board's keys: page_size a field (fields.def's first) with no DXGK member, arch a key")
    got = complete(c, uri, HEAD + TAIL + "|\n")
    same(got, TOP_KEYS - {"segc", "board", "constants", "bars", "segments", "paging"},
         "top-level keys: only the missing ones")
    got = complete(c, uri, HEAD + "    cpu_visible: { bar: fb, | }\n" + TAIL)
    t.check("offset" in got and "bar" not in got, "a flow map's keys, the written one left out", sorted(got))
    t.check(not VARIANT_SEGMENT_KEYS & set(complete(c, uri, HEAD + "    |\n" + TAIL)),
            "no key of a variant's segment entry in a spec without extends:")
    t.check("delete" not in complete(c, uri, HEAD.replace("fb: { index: 0,", "fb: { |index: 0,") + TAIL),
            "no key of a variant's BAR entry in a spec without extends:")


def variant_cases(c, uri):
    variant = "segc: 1\nextends: base.yaml\nbars:\n  fb: { | }\nsegments:\n  - name: local\n    %s\n"
    got = complete(c, uri, variant % "size: 1GiB")
    t.check(VARIANT_BAR_KEYS <= set(got) and {"index", "size"} <= set(got), "a variant's BAR entry: delete", sorted(got))
    got = complete(c, uri, (variant % "|").replace("fb: { | }", "fb: { index: 0, size: 1GiB }"))
    t.check(VARIANT_SEGMENT_KEYS <= set(got) and "name" not in got, "a variant's segment entry: new, delete",
            sorted(got))
    got = complete(c, uri, (variant % "delete: |").replace("fb: { | }", "fb: { index: 0, size: 1GiB }"))
    same(got, {"true", "false"}, "delete: true or false")


def flag_cases(c, uri):
    got = complete(c, uri, HEAD + "    flags: [preserved_during_standby, |]\n" + TAIL)
    # partially_preserved_during_hibernate needs system_memory_end, which
    # `local` does not have (system-memory-end-iff-partial).
    same(got, WDDM13 - {"preserved_during_standby", "cache_coherent", "partially_preserved_during_hibernate"},
         "flags of a WDDM 1.3 memory segment, not written yet, no derived one, no cache_coherent, none that "
         "needs a key the segment lacks")
    t.check("use_64kb_pages" not in got, "no WDDM 2.0 flag on a 1.3 board")
    t.check("DirectFlip" in got.get("direct_flip", {}).get("detail", ""), "a flag's detail names its member")
    got = complete(c, uri, HEAD + "    flags:\n      - direct_flip\n      - |\n" + TAIL)
    same(got, WDDM13 - {"direct_flip", "cache_coherent", "partially_preserved_during_hibernate"},
         "a block list of flags")
    aperture = HEAD.replace("    kind: memory\n    size: vram", "    kind: aperture\n    size: vram")
    got = complete(c, uri, aperture + "    flags: [|]\n" + TAIL)
    t.check("cache_coherent" in got and "populated_from_system_memory" not in got,
            "an aperture's flags follow its kind's rules", sorted(got))
    same(got, WDDM13 - {"populated_from_system_memory", "partially_preserved_during_hibernate"},
         "an aperture's flags: none its kind rules out (populated-from-system-memory-aperture)")
    # A flag that needs a key: offered once the segment has it; a flag that
    # needs another flag: offered with it (standby and hibernate).
    got = complete(c, uri, HEAD + "    system_memory_end: 1GiB\n    flags: [|]\n" + TAIL)
    t.check("partially_preserved_during_hibernate" in got and "preserved_during_hibernate" in got,
            "with system_memory_end: partially_preserved_during_hibernate is offered", sorted(got))
    # A waiver lets the rule's flag in.
    got = complete(c, uri, HEAD + '    waive: { cache-coherent-memory: "coherent scan-out" }\n    flags: [|]\n' + TAIL)
    t.check("cache_coherent" in got, "cache_coherent on a memory segment that waives cache-coherent-memory",
            sorted(got))
    wddm2 = HEAD.replace('"1.3"', '"2.0"').replace("direct_flip, ", "")
    got = complete(c, uri, wddm2 + "    flags: [|]\n" + TAIL)
    t.check("use_64kb_pages" in got and not DERIVED & set(got), "a WDDM 2.0 board gets 2.0 flags", sorted(got))
    # Never valid on a driver's segment (reserved-sys-mem), deprecated
    # (application-target-deprecated), or needing a key `local` lacks
    # (cpu-host-aperture-needs-window, vpr-needs-range).
    never = {"reserved_sys_mem", "application_target", "supports_cpu_host_aperture", "vpr_supported"}
    t.check(not never & set(got), "no WDDM 2.0 flag that is always reported there", sorted(never & set(got)))
    got = complete(c, uri, wddm2 + "    vpr: { range_start: 0, range_size: 512MiB }\n"
                   "    cpu_host_aperture: { bar: fb, offset: 0, size: bar.fb.size }\n    flags: [|]\n" + TAIL)
    t.check({"vpr_supported", "supports_cpu_host_aperture"} <= set(got),
            "with vpr: and cpu_host_aperture:, vpr_supported and supports_cpu_host_aperture", sorted(got))


def name_cases(c, uri):
    m = model(t.write("valid.yaml", HEAD + TAIL))
    local = [s for s in m["segments"] if s["name"] == "local"][0]
    got = complete(c, uri, HEAD + "    commit_limit: |\n" + TAIL)
    t.eq(got.get("vram", {}).get("detail"), "0x200000000 (8 GiB)", "a constant with its value")
    t.eq(got.get("visible.size", {}).get("detail"), "0x%X (256 MiB)" % (256 * MiB), "SEG.size with its value")
    end = int(local["end"], 16)
    t.eq(got.get("local.end", {}).get("detail"), "0x%X (%d GiB)" % (end, end // GiB), "SEG.end, as segc dump has it")
    t.eq(got.get("bar.fb.size", {}).get("detail"), "0x10000000 (256 MiB)", "bar.NAME.size")
    t.check("page_size" in got, "page_size")
    size = int(local["size"]["value"], 16)
    t.eq(got.get("size", {}).get("detail"), "0x%X (7.75 GiB)" % size, "the current segment's size")
    t.check("vram" not in complete(c, uri, HEAD + "    kind: |\n" + TAIL), "no names for kind:")
    got = complete(c, uri, HEAD + "    kind: |\n" + TAIL)
    same(got, {"memory", "aperture", "agp"}, "kind: values")
    got = complete(c, uri, HEAD + TAIL.replace("segment: none", "segment: |"))
    same(got, {"none", "visible", "local"}, "paging segment: the segments")
    got = complete(c, uri, HEAD + "    cpu_visible: { bar: | }\n" + TAIL)
    same(got, {"fb"}, "cpu_visible bar: the BARs")
    got = complete(c, uri, HEAD.replace("arch: x64", "arch: |") + TAIL)
    same(got, {"x64", "arm64", "x86"}, "arch: values")
    t.eq(complete(c, uri, HEAD + "    # size: |\n" + TAIL), {}, "nothing in a comment")


def rule_cases(c, uri):
    got = complete(c, uri, HEAD + "    waive:\n      |\n" + TAIL)
    t.check(got and all("or waive it for one segment" in explain(r) for r in got),
            "only rules a segment can waive", sorted(got))
    t.check("cache-coherent-memory" in got and "banks-cover" not in got and "waiver-unused" not in got,
            "an advisory yes; an invariant and a board advisory no", sorted(got))
    t.check(got.get("cache-coherent-memory", {}).get("detail", "x") in explain("cache-coherent-memory"),
            "the rule's one-line text as detail")
    got = complete(c, uri, HEAD + '    waive: { cache-coherent-memory: "x", | }\n' + TAIL)
    t.check(got and "cache-coherent-memory" not in got, "a rule already waived is not offered again")


def broken_cases(c, uri):
    # The text does not parse (an unclosed flow map); the names and the
    # board's version come from the last analysis that built a spec.
    complete(c, uri, HEAD + "    |\n" + TAIL)
    broken = HEAD.replace("offset: 0 }", "offset: 0") + "    flags: [|\n" + TAIL
    got = complete(c, uri, broken)
    same(got, WDDM13 - {"cache_coherent", "partially_preserved_during_hibernate"}, "flags while the YAML is broken")
    got = complete(c, uri, HEAD.replace("offset: 0 }", "offset: 0") + "    size: vr|\n" + TAIL)
    t.eq(got.get("vram", {}).get("detail"), "0x200000000 (8 GiB)", "names while the YAML is broken")


def multiline_cases(c, uri):
    # Flow collections that opened on an earlier line: the context follows
    # them up to the line where they opened.
    got = complete(c, uri, HEAD + "    flags: [preserved_during_standby,\n            |\n" + TAIL)
    same(got, WDDM13 - {"preserved_during_standby", "cache_coherent", "partially_preserved_during_hibernate"},
         "flags on the next line of a flow list")
    got = complete(c, uri, HEAD + "    flags: [\n      preserved_during_standby,\n      |,\n      direct_flip\n    ]\n"
                   + TAIL)
    same(got, WDDM13 - {"preserved_during_standby", "direct_flip", "cache_coherent",
                        "partially_preserved_during_hibernate"},
         "a flow list over several lines: the items above and below left out")
    got = complete(c, uri, HEAD.replace("{ bar: fb, offset: 0 }", "{ bar: fb,\n      | }") + TAIL)
    t.check("offset" in got and "bar" not in got, "a flow map's keys on its next line", sorted(got))
    got = complete(c, uri, HEAD.replace("{ bar: fb, offset: 0 }", "{ offset: 0,\n      bar: | }") + TAIL)
    same(got, {"fb"}, "bar: on the next line of a flow map: the BARs")
    got = complete(c, uri, HEAD + '    waive: { cache-coherent-memory: "a [ or # b",\n      | }\n' + TAIL)
    t.check(got and "cache-coherent-memory" not in got, "a quoted [ and # on the line above do not count",
            sorted(got))
    got = complete(c, uri, HEAD + "    banks: [{ name: lo, size: 1GiB },\n      { name: hi,\n        s| }]\n" + TAIL)
    t.check("size" in got and "name" not in got and "flags" not in got, "a bank's keys in a nested flow collection",
            sorted(got))
    got = complete(c, uri, HEAD + "    banks: [{ name: lo,\n      size: vr| }]\n" + TAIL)
    t.eq(got.get("vram", {}).get("detail"), "0x200000000 (8 GiB)", "names in a value on a flow map's next line")
    # A collection closed on an earlier line: back to the block's context.
    got = complete(c, uri, HEAD + "    waive: { cache-coherent-memory: \"x\",\n      }\n    |\n" + TAIL)
    t.check("commit_limit" in got and "waive" not in got and "name" not in got,
            "after a flow map closed on an earlier line: the segment's keys", sorted(got))


def class_cases(c, uri):
    """Inside an allocation class: segment names in its lists (with their
    ids, as `segc dump --json` numbers them), the banks of its first
    preferred segment in `banks:`, and no `none` (no segment's name)."""
    banked = HEAD.replace("    size: vram - visible.size\n",
                          "    size: vram - visible.size\n    banks: [{ name: near, size: 1GiB }, { name: far }]\n")
    spec = banked + TAIL + "allocations:\n  - name: rt\n    prefer: [local, visible]\n    write: [local, visible]\n"
    ids = {s["name"]: s["id"] for s in model(t.write("classes.yaml", spec))["segments"]}
    for where in ("    write: [local, |]\n", "    evict: [|]\n", "    read: [visible, |]\n"):
        got = complete(c, uri, spec + where)
        same(got, ids, "segment names in a class's %s" % where.split(":")[0].strip())
        t.eq(got.get("local", {}).get("detail"), "id %d, memory" % ids["local"], "with its id and kind")
    same(complete(c, uri, spec.replace("prefer: [local, visible]", "prefer: [|]")), ids, "in prefer:")
    same(complete(c, uri, spec.replace("prefer: [local, visible]", "prefer: [{ segment: | }]")), ids,
         "in a preference's segment:")
    got = complete(c, uri, spec + "    banks: [|]\n")
    same(got, {"near", "far"}, "banks: the first preferred segment's banks")
    t.eq({n: i.get("detail") for n, i in got.items()},
         {"near": "bank 1 of segment local", "far": "bank 2 of segment local"}, "a bank's detail: its 1-based id")
    same(complete(c, uri, spec + "    banks: [{ bank: | }]\n"), {"near", "far"}, "a bank hint's bank:")
    same(complete(c, uri, spec.replace("prefer: [local, visible]", "prefer: [visible]") + "    banks: [|]\n"), {},
         "banks: none when the first preference has none")
    same(complete(c, uri, spec + "dma_buffer_segments: [|]\n"), ids, "dma_buffer_segments")
    got = complete(c, uri, spec + "    |\n")
    t.check({"read", "evict", "banks", "delete"} - {"delete"} <= set(got) and "write" not in got and "name" not in got,
            "a class's keys, the written ones left out", sorted(got))


def cases():
    with lsplib.Client(t.segc) as c:
        caps = c.initialize()["capabilities"]
        t.check(caps.get("completionProvider", {}).get("triggerCharacters"), "completionProvider advertised", caps)
        uri = c.open(t.write("board.yaml", HEAD + TAIL), HEAD + TAIL)
        for fn in (keys_cases, variant_cases, flag_cases, name_cases, rule_cases, broken_cases, multiline_cases,
                   class_cases):
            t.run(fn, c, uri)
        c.shutdown()
        t.eq(c.exit(), 0, "exit status after shutdown")
        t.eq(c.stderr(), "", "nothing on the server's standard error")


MORE = """segc: 1
board: { name: b1, wddm: "2.0", arch: x64 }
constants:
  vram: 8GiB
  bad: 1 - 2
bars:
  fb: { index: 0, size: 256MiB }
segments:
  - name: local
    kind: memory
    size: 1GiB
"""
# The names of MORE with their values; `base` and `size` are the current segment's.
NAMES = {"vram": "0x200000000 (8 GiB)", "bad": "its value failed", "local.base": "0",
         "local.size": "0x40000000 (1 GiB)", "local.end": "0x40000000 (1 GiB)", "bar.fb.size": "0x10000000 (256 MiB)",
         "page_size": "0x1000 (4 KiB)"}
OWN = {"base": "0", "size": "0x40000000 (1 GiB)"}


def more_cases():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        uri = c.open(t.write("more.yaml", MORE), MORE)

        def got(text):
            c.change(uri, None, MORE, version=complete.version)  # a model to read the names from
            complete.version += 1
            return {k: v.get("detail") for k, v in complete(c, uri, text).items()}
        t.eq(got(MORE + "    banks:\n      - { name: lo, size: | }\n"), dict(NAMES, **OWN),
             "a bank's size: the names and the segment's own")
        t.eq(got(MORE.replace("arch: x64", "arch: x64, page_size: |")), NAMES, "the board's page_size: no segment's own")
        t.eq(got(MORE + "    vpr: { range_start: | }\n"), dict(NAMES, **OWN), "a vpr value")
        t.eq(got(MORE + "    cpu_host_aperture: { offset: | }\n"), dict(NAMES, **OWN), "a cpu_host_aperture value")
        t.eq(got(MORE + "    cpu_host_aperture: { bar: | }\n"), {"fb": "BAR0, 0x10000000 (256 MiB)"},
             "cpu_host_aperture bar: the BARs")
        t.eq(got(MORE + "paging:\n  buffer_size: |\n"), NAMES, "a paging value other than segment")
        t.eq(got(MORE + "foo:\n  bar: |\n"), {}, "a value of a map a spec does not have: nothing")
        t.eq(got(MORE + "foo:\n  |\n"), {}, "a key of a map a spec does not have: nothing")
        t.eq(got(MORE + "  - name: g\n    kind: agp\n    flags: [|]\n"), {}, "an AGP segment's flags: none")
        t.eq(got(MORE + "    banks: [|]\n"), {}, "an item of a list other than flags: nothing")
        t.eq(got(MORE.replace("name: b1,", "name: [|],")), {}, "an item of a list in the board: nothing")
        k = complete(c, uri, MORE.replace("  fb: { index: 0, size: 256MiB }", "  fb:\n    index: 0\n    |"))
        t.eq(sorted((n, i["kind"], i.get("detail")) for n, i in k.items()),
             [("bits", 5, "expression"), ("size", 5, "expression")], "a BAR's keys not written: expressions")
        c.change(uri, None, MORE, version=complete.version)
        complete.version += 1
        # A segment before its name: in the model, but after the cursor.
        first = MORE.replace("  - name: local\n    kind: memory\n    size: 1GiB\n",
                             "  - size: 1GiB\n    commit_limit: |\n    name: local\n    kind: memory\n")
        k = complete(c, uri, first)
        t.eq({n: i.get("detail") for n, i in k.items() if i.get("detail") == "the current segment's"},
             {"base": "the current segment's", "size": "the current segment's"},
             "a segment whose name comes later: its own base and size, without values")
        # A document that never built a spec: fixed values, no names, no flags by version.
        with lsplib.Client(t.segc) as c2:
            c2.initialize()
            u2 = c2.open("untitled:never.yaml", "segc: 1\nboard: [\n")
            for text, want, what in (("segc: 1\nboard: [\nsegments:\n  - kind: |\n", {"memory", "aperture", "agp"},
                                      "kind: with no model"),
                                     ("segc: 1\nboard: [\nsegments:\n  - size: |\n", set(), "size: with no model")):
                at = text.index("|")
                plain = text.replace("|", "")
                c2.change(u2, None, plain)
                r = c2.result("textDocument/completion", {"textDocument": {"uri": u2},
                                                          "position": lsplib.offset_position(plain, at)})
                t.eq(sorted(i["label"] for i in r["items"]), sorted(want), what)
            plain = "segc: 1\nboard: [\nsegments:\n  - name: s\n    flags: []\n"
            c2.change(u2, None, plain)
            r = c2.result("textDocument/completion", {"textDocument": {"uri": u2},
                                                      "position": lsplib.find_position(plain, "[]", delta=1)})
            labels = {i["label"] for i in r["items"]}
            t.check(WDDM13 <= labels and "use_64kb_pages" in labels and not DERIVED & labels,
                    "flags with no model: every version's, no derived one", sorted(labels))
            c2.shutdown()
            t.eq(c2.exit(), 0, "no model: exit status after shutdown")
        c.shutdown()
        t.eq(c.exit(), 0, "more cases: exit status after shutdown")


def option_cases():
    """The server's -W options are the rules' settings completion follows:
    with -Wno-cache-coherent-memory, a memory segment is offered
    cache_coherent."""
    for args, offered in (((), False), (("-Wno-cache-coherent-memory",), True)):
        with lsplib.Client(t.segc, args=args) as c:
            c.initialize()
            uri = c.open("untitled:options.yaml", HEAD + TAIL)
            got = complete(c, uri, HEAD + "    flags: [|]\n" + TAIL)
            t.eq("cache_coherent" in got, offered, "lsp %s: cache_coherent on a memory segment offered: %s"
                 % (" ".join(args) or "(no option)", offered))
            c.shutdown()
            t.eq(c.exit(), 0, "lsp %s: exit status after shutdown" % " ".join(args))


t.run(cases)
t.run(more_cases)
t.run(option_cases)
t.end()
