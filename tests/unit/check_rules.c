/* SPDX-License-Identifier: MIT */
/* check_rules.c - check.c: every rule of rules.def made to fire by a small
 * spec (rule, severity, line:col of its first diagnostic) and kept silent by
 * a close variant; -W options; waivers.
 *
 * Every case's spec resolves without a structural error, so what is tested
 * is the rule, not the front end.  A case also names the text that must
 * stand at the reported line:col, so a reader sees what the caret is under. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "segc.h"

/* Two lines: the version and the board.  Specs below start on line 3. */
#define HEAD(w) "segc: 1\nboard: { name: t, wddm: \"" w "\" }\n"
#define HEAD_X86 "segc: 1\nboard: { name: t, wddm: \"1.3\", arch: x86 }\n"
#define VRAM "  - { name: vram, kind: memory, size: 256MiB }\n"
#define GART "  - { name: gart, kind: aperture, size: 256MiB }\n"
#define FB "bars:\n  fb: { index: 0, size: 256MiB }\n"
/* An allocation class `c`, its `name:` line after the `allocations:` line. */
#define ALLOC "allocations:\n  - name: c\n"

/* Many segments or banks, each named after its number (s0, s1, ...). */
#define SEG(n) "  - { name: s" #n ", kind: memory, size: 4KiB }\n"
#define SEG10(t) SEG(t##0) SEG(t##1) SEG(t##2) SEG(t##3) SEG(t##4) SEG(t##5) SEG(t##6) SEG(t##7) SEG(t##8) SEG(t##9)
#define SEGS29 SEG10() SEG10(1) SEG(20) SEG(21) SEG(22) SEG(23) SEG(24) SEG(25) SEG(26) SEG(27) SEG(28)
#define SEGS31 SEG10() SEG10(1) SEG10(2) SEG(30)
#define BANK(n) "      - { name: b" #n ", size: 4KiB }\n"
#define BANK10(t) BANK(t##0) BANK(t##1) BANK(t##2) BANK(t##3) BANK(t##4) BANK(t##5) BANK(t##6) BANK(t##7) BANK(t##8) BANK(t##9)
#define BANKS126                                                                                             \
    BANK10() BANK10(1) BANK10(2) BANK10(3) BANK10(4) BANK10(5) BANK10(6) BANK10(7) BANK10(8) BANK10(9)        \
    BANK10(10) BANK10(11) BANK(120) BANK(121) BANK(122) BANK(123) BANK(124) BANK(125)

typedef struct Run {
    Arena *a;
    Diags d;
    Spec *s;
    unsigned errors; /* spec_check's return */
} Run;

/* Resolves `yaml` (which must resolve cleanly) and checks it under `cfg`
 * (NULL: the defaults).  Diagnostics end up sorted by position. */
static void run(Run *r, const char *yaml, const RuleConfig *cfg)
{
    RuleConfig def;
    ResolveOpts opts = {0};
    /* A case may start with "# ddi: qs,qs4" to stand for --ddi qs,qs4. */
    if (!strncmp(yaml, "# ddi: ", 7)) {
        char list[32] = {0};
        size_t n = strcspn(yaml + 7, "\n");
        memcpy(list, yaml + 7, n < sizeof list - 1 ? n : sizeof list - 1);
        opts.ddi_forms = ddi_forms_parse(list);
        ck_assert_msg(opts.ddi_forms != 0, "bad ddi list '%s'", list);
    }
    r->a = arena_new();
    diags_init(&r->d, r->a);
    r->s = spec_from_string(r->a, "t.yaml", yaml, &opts, &r->d);
    ck_assert_msg(r->s != NULL, "spec did not resolve: %s at %u:%u\n%s", r->d.head ? r->d.head->msg : "?",
                  r->d.head ? src_loc(r->d.head->pos).line : 0, r->d.head ? src_loc(r->d.head->pos).col : 0, yaml);
    ck_assert_msg(r->d.count == 0, "resolving reported: %s", r->d.head->msg);
    if (!cfg) {
        rules_default(&def);
        cfg = &def;
    }
    r->errors = spec_check(r->s, cfg, &r->d, NULL);
    diags_sort(&r->d);
}

static const Diag *first(const Run *r, const char *code)
{
    for (const Diag *g = r->d.head; g; g = g->next)
        if (!strcmp(code_name(g->code), code))
            return g;
    return NULL;
}

static unsigned count(const Run *r, const char *code)
{
    unsigned n = 0;
    for (const Diag *g = r->d.head; g; g = g->next)
        n += !strcmp(code_name(g->code), code);
    return n;
}

/* Every diagnostic as "code@line:col" for failure messages. */
static const char *all(const Run *r)
{
    Buf b = {0};
    buf_puts(&b, "");
    for (const Diag *g = r->d.head; g; g = g->next)
        buf_printf(&b, "%s%s@%u:%u", g == r->d.head ? "" : ", ", code_name(g->code), src_loc(g->pos).line, src_loc(g->pos).col);
    const char *s = arena_strdup(r->a, b.p);
    buf_free(&b);
    return s;
}

/* The text of `src` at line:col. */
static const char *text_at(const SrcFile *src, unsigned line, unsigned col)
{
    const char *p = src->text;
    for (unsigned l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return p && col >= 1 && strlen(p) >= col - 1 ? p + col - 1 : "";
}

/* ---- every rule fires, and stays silent when the spec is fixed ------------ */

typedef struct RuleCase {
    const char *rule;
    const char *fires; /* a spec that breaks the rule */
    Severity sev;
    unsigned line, col; /* of the rule's first diagnostic */
    const char *at;     /* the text that starts there */
    const char *quiet;  /* a close variant that keeps every rule silent */
} RuleCase;

static const RuleCase rule_cases[] = {
    /* ---- AGP ---- */
    {"agp-exclusive",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp, flags: [direct_flip] }\n",
     SEV_ERROR, 5, 36, "[direct_flip]",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"agp-exclusive",
     HEAD("1.3") FB "segments:\n" VRAM "  - name: agp\n    kind: agp\n    cpu_visible: { bar: fb }\n",
     SEV_ERROR, 9, 18, "{ bar: fb }",
     HEAD("1.3") FB "segments:\n" "  - { name: vram, kind: memory, size: 256MiB, cpu_visible: { bar: fb } }\n"
     "  - name: agp\n    kind: agp\n"},
    {"agp-exclusive",
     HEAD("1.3") "segments:\n" VRAM "  - name: agp\n    kind: agp\n    banks:\n      - { name: all }\n",
     SEV_ERROR, 7, 5, "banks:",
     HEAD("1.3") "segments:\n" "  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: all }\n" "  - name: agp\n    kind: agp\n"},
    {"agp-at-most-one",
     HEAD("1.2") "segments:\n" VRAM "  - { name: agp1, kind: agp }\n  - { name: agp2, kind: agp }\n",
     SEV_ERROR, 6, 25, "agp }",
     HEAD("1.2") "segments:\n" VRAM "  - { name: agp2, kind: agp }\n"},
    {"agp-last",
     HEAD("1.2") "segments:\n" "  - { name: agp, kind: agp }\n" VRAM,
     SEV_ERROR, 4, 24, "agp }",
     HEAD("1.2") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"key-not-emitted",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp, commit_limit: 64MiB }\n",
     SEV_ERROR, 5, 43, "64MiB",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"key-not-emitted",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp, system_memory_end: 0 }\n",
     SEV_ERROR, 5, 48, "0 }",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"agp-base-size-ignored",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp, base: 0xE000_0000 }\n",
     SEV_WARNING, 5, 35, "0xE000_0000",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"agp-base-size-ignored",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp, size: 512MiB }\n",
     SEV_WARNING, 5, 35, "512MiB",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},

    /* ---- sizes and ranges ---- */
    {"size-nonzero",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 0\n",
     SEV_ERROR, 6, 11, "0",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 4KiB\n"},
    {"size-page-multiple",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB + 512\n",
     SEV_ERROR, 6, 11, "256MiB + 512",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB + 4KiB\n"},
    /* the page is the board's, not 4 KiB */
    {"size-page-multiple",
     "segc: 1\nboard: { name: t, page_size: 64KiB }\nsegments:\n  - { name: vram, kind: memory, size: 96KiB }\n",
     SEV_ERROR, 4, 39, "96KiB",
     "segc: 1\nboard: { name: t, page_size: 64KiB }\nsegments:\n  - { name: vram, kind: memory, size: 128KiB }\n"},
    {"size-fits-size-t",
     HEAD_X86 "segments:\n  - { name: vram, kind: memory, size: 4GiB }\n",
     SEV_ERROR, 4, 39, "4GiB",
     HEAD_X86 "segments:\n  - { name: vram, kind: memory, size: 4GiB - 4KiB }\n"},
    {"size-fits-size-t",
     HEAD_X86 "segments:\n  - { name: vram, kind: memory, size: 8GiB }\n",
     SEV_ERROR, 4, 39, "8GiB",
     HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 8GiB }\n"},
    {"field-width",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, invalid_memory_ranges: 0x1_0000_0000 }\n",
     SEV_ERROR, 5, 82, "0x1_0000_0000",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, invalid_memory_ranges: 0xFFFF_FFFF }\n"},
    {"field-width",
     HEAD("2.2") "segments:\n" GART "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, uefi_frame_buffer_ranges: 4GiB }\n",
     SEV_ERROR, 5, 85, "4GiB",
     HEAD("2.2") "segments:\n" GART "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, uefi_frame_buffer_ranges: 4 }\n"},
    {"vpr-range-inside",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    vpr: { range_size: 128MiB, count: 4GiB }\n",
     SEV_ERROR, 9, 39, "4GiB",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    vpr: { range_size: 128MiB, count: 4GiB - 1 }\n"},
    {"size-fits-size-t",
     HEAD_X86 "segments:\n  - { name: gart, kind: aperture, size: 256MiB, commit_limit: 4GiB }\n",
     SEV_ERROR, 4, 63, "4GiB",
     HEAD_X86 "segments:\n  - { name: gart, kind: aperture, size: 256MiB, commit_limit: 128MiB }\n"},
    {"range-overflow",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    base: 0xFFFF_FFFF_F000_0000\n    size: 512MiB\n",
     SEV_ERROR, 6, 11, "0xFFFF_FFFF_F000_0000",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    base: 0xFFFF_FFFF_D000_0000\n    size: 512MiB\n"},
    /* the top of the address space: a range that ends exactly at 2^64 is
     * refused (its end is no 64-bit value), one that ends at 2^64 - 1 is not */
    {"range-overflow",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    base: 0xFFFF_FFFF_FFFF_F000\n    size: 4KiB\n",
     SEV_ERROR, 6, 11, "0xFFFF_FFFF_FFFF_F000",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    base: 0xFFFF_FFFF_FFFF_EFFF\n    size: 4KiB\n"},
    {"range-overflow",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 8KiB\n"
     "    cpu_visible: { address: 0xFFFF_FFFF_FFFF_E000 }\n",
     SEV_ERROR, 7, 18, "{ address",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 8KiB\n"
     "    cpu_visible: { address: 0xFFFF_FFFF_FFFF_DFFF }\n"},
    /* a host aperture is whole pages on a page: the nearest end below 2^64 is a page below it */
    {"range-overflow",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xFFFF_FFFF_FFFF_E000, size: 8KiB }\n",
     SEV_ERROR, 9, 24, "{ address",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xFFFF_FFFF_FFFF_D000, size: 8KiB }\n"},
    /* a fixed CPU address that wraps */
    {"range-overflow",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 8KiB\n"
     "    cpu_visible: { address: 0xFFFF_FFFF_FFFF_F000 }\n",
     SEV_ERROR, 7, 18, "{ address",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 8KiB\n"
     "    cpu_visible: { address: 0xFFFF_FFFF_FFFF_C000 }\n"},
    /* a host aperture that wraps */
    {"range-overflow",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xFFFF_FFFF_FFFF_F000, size: 8KiB }\n",
     SEV_ERROR, 9, 24, "{ address",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xFFFF_FFFF_FFFF_C000, size: 8KiB }\n"},
    {"segments-overlap",
     HEAD("1.3") "segments:\n" VRAM "  - { name: more, kind: memory, base: 128MiB, size: 256MiB }\n",
     SEV_ERROR, 5, 39, "128MiB",
     HEAD("1.3") "segments:\n" VRAM "  - { name: more, kind: memory, base: vram.end, size: 256MiB }\n"},
    {"segments-max",
     HEAD("1.3") "segments:\n" SEGS31 SEG(31),
     SEV_ERROR, 35, 13, "s31",
     HEAD("1.3") "segments:\n" SEGS31},
    /* WDDM 2.x: id 31 is system memory, so 30 at most */
    {"segments-max",
     HEAD("2.0") "segments:\n" GART SEGS29 SEG(29),
     SEV_ERROR, 34, 13, "s29",
     HEAD("2.0") "segments:\n" GART SEGS29},
    /* only an AGP segment: none is left when the aperture is absent */
    {"segments-none",
     HEAD("1.3") "segments:\n  - { name: agp, kind: agp }\n",
     SEV_ERROR, 4, 24, "agp }",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"segments-none",
     HEAD("1.3") "segments: []\n",
     SEV_ERROR, 3, 11, "[]",
     HEAD("1.3") "segments: [{ name: vram, kind: memory, size: 4KiB }]\n"},

    /* ---- CPU visibility and BARs ---- */
    {"cpu-visible-aperture",
     HEAD("1.3") FB "segments:\n  - { name: gart, kind: aperture, size: 256MiB, cpu_visible: { bar: fb } }\n",
     SEV_WARNING, 6, 62, "{ bar: fb }",
     HEAD("1.3") FB "segments:\n  - { name: gart, kind: aperture, size: 256MiB }\n"},
    {"cpu-window-in-bar",
     HEAD("1.3") FB "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_visible: { bar: fb, offset: 64MiB }\n",
     SEV_ERROR, 9, 18, "{ bar: fb, offset: 64MiB }",
     HEAD("1.3") FB "segments:\n  - name: vram\n    kind: memory\n    size: 192MiB\n"
     "    cpu_visible: { bar: fb, offset: 64MiB }\n"},
    /* an offset past the end of the BAR */
    {"cpu-window-in-bar",
     HEAD("1.3") FB "segments:\n  - name: vram\n    kind: memory\n    size: 4KiB\n"
     "    cpu_visible: { bar: fb, offset: 512MiB }\n",
     SEV_ERROR, 9, 18, "{ bar: fb, offset: 512MiB }",
     HEAD("1.3") FB "segments:\n  - name: vram\n    kind: memory\n    size: 4KiB\n"
     "    cpu_visible: { bar: fb, offset: 256MiB - 4KiB }\n"},
    {"cpu-windows-overlap",
     HEAD("1.3") FB "segments:\n"
     "  - { name: a, kind: memory, size: 128MiB, cpu_visible: { bar: fb, offset: 0 } }\n"
     "  - { name: b, kind: memory, size: 128MiB, cpu_visible: { bar: fb, offset: 64MiB } }\n",
     SEV_ERROR, 7, 57, "{ bar: fb, offset: 64MiB }",
     HEAD("1.3") FB "segments:\n"
     "  - { name: a, kind: memory, size: 128MiB, cpu_visible: { bar: fb, offset: 0 } }\n"
     "  - { name: b, kind: memory, size: 128MiB, cpu_visible: { bar: fb, offset: 128MiB } }\n"},
    /* fixed physical addresses */
    {"cpu-windows-overlap",
     HEAD("1.3") "segments:\n"
     "  - { name: a, kind: memory, size: 128MiB, cpu_visible: { address: 0x8000_0000 } }\n"
     "  - { name: b, kind: memory, size: 128MiB, cpu_visible: { address: 0x8000_0000 + 127MiB } }\n",
     SEV_ERROR, 5, 57, "{ address: 0x8000_0000 + 127MiB }",
     HEAD("1.3") "segments:\n"
     "  - { name: a, kind: memory, size: 128MiB, cpu_visible: { address: 0x8000_0000 } }\n"
     "  - { name: b, kind: memory, size: 128MiB, cpu_visible: { address: 0x8000_0000 + 128MiB } }\n"},
    /* host apertures at fixed addresses */
    {"cpu-windows-overlap",
     HEAD("2.0") "segments:\n" GART "  - name: v1\n    kind: memory\n    base: 1GiB\n    size: 64MiB\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 64MiB }\n"
     "  - name: v2\n    kind: memory\n    size: 64MiB\n    cpu_host_aperture: { address: 0xE200_0000, size: 64MiB }\n",
     SEV_ERROR, 13, 24, "{ address: 0xE200_0000",
     HEAD("2.0") "segments:\n" GART "  - name: v1\n    kind: memory\n    base: 1GiB\n    size: 64MiB\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 64MiB }\n"
     "  - name: v2\n    kind: memory\n    size: 64MiB\n    cpu_host_aperture: { address: 0xE400_0000, size: 64MiB }\n"},
    /* a host aperture and a CPU window in one BAR */
    {"cpu-windows-overlap",
     HEAD("2.0") FB "segments:\n" GART "  - name: v1\n    kind: memory\n    base: 1GiB\n    size: 64MiB\n"
     "    cpu_visible: { bar: fb, offset: 0 }\n"
     "  - name: v2\n    kind: memory\n    size: 64MiB\n    cpu_host_aperture: { bar: fb, offset: 32MiB, size: 64MiB }\n",
     SEV_ERROR, 15, 24, "{ bar: fb, offset: 32MiB",
     HEAD("2.0") FB "segments:\n" GART "  - name: v1\n    kind: memory\n    base: 1GiB\n    size: 64MiB\n"
     "    cpu_visible: { bar: fb, offset: 0 }\n"
     "  - name: v2\n    kind: memory\n    size: 64MiB\n    cpu_host_aperture: { bar: fb, offset: 64MiB, size: 64MiB }\n"},
    {"bar-index",
     HEAD("1.3") "bars:\n  fb: { index: 6, size: 256MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 16, "6",
     HEAD("1.3") "bars:\n  fb: { index: 5, size: 256MiB }\nsegments:\n" VRAM},
    {"bar-index",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 256MiB }\n  regs: { index: 0, size: 16MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 5, 18, "0",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 256MiB }\n  regs: { index: 2, size: 16MiB }\nsegments:\n" VRAM},
    /* a 64-bit BAR (declared, or larger than 4 GiB) takes two registers */
    {"bar-index",
     HEAD("1.3") "bars:\n  fb: { index: 5, size: 256MiB, bits: 64 }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 16, "5",
     HEAD("1.3") "bars:\n  fb: { index: 4, size: 256MiB, bits: 64 }\nsegments:\n" VRAM},
    {"bar-index",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 8GiB }\n  regs: { index: 1, size: 16MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 5, 18, "1",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 8GiB }\n  regs: { index: 2, size: 16MiB }\nsegments:\n" VRAM},
    {"bar-index",
     HEAD("1.3") "bars:\n  regs: { index: 1, size: 16MiB }\n  fb: { index: 0, size: 256MiB, bits: 64 }\nsegments:\n" VRAM,
     SEV_ERROR, 5, 16, "0",
     HEAD("1.3") "bars:\n  regs: { index: 1, size: 16MiB }\n  fb: { index: 0, size: 256MiB }\nsegments:\n" VRAM},
    /* index + 1 would wrap past 2^64 to 0 */
    {"bar-index",
     HEAD("1.3") "bars:\n  fb: { index: 0xFFFF_FFFF_FFFF_FFFF, size: 256MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 16, "0xFFFF_FFFF_FFFF_FFFF",
     HEAD("1.3") "bars:\n  fb: { index: 5, size: 256MiB }\nsegments:\n" VRAM},
    /* a 64-bit BAR at the last index: index + 2 would wrap */
    {"bar-index",
     HEAD("1.3") "bars:\n  fb: { index: 0xFFFF_FFFF_FFFF_FFFE, size: 256MiB, bits: 64 }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 16, "0xFFFF_FFFF_FFFF_FFFE",
     HEAD("1.3") "bars:\n  fb: { index: 4, size: 256MiB, bits: 64 }\nsegments:\n" VRAM},
    {"bar-size",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 8GiB, bits: 32 }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 37, "32",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 8GiB, bits: 64 }\nsegments:\n" VRAM},
    {"bar-size",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 256MiB, bits: 48 }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 39, "48",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 256MiB, bits: 32 }\nsegments:\n" VRAM},
    {"bar-size",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 384MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 25, "384MiB",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 512MiB }\nsegments:\n" VRAM},
    {"bar-size",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 0 }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 25, "0",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 1 }\nsegments:\n" VRAM},

    /* ---- banks ---- */
    {"banks-memory-only",
     HEAD("1.3") "segments:\n  - name: gart\n    kind: aperture\n    size: 256MiB\n    banks:\n"
     "      - { name: a, size: 128MiB }\n      - { name: b }\n",
     SEV_ERROR, 7, 5, "banks:",
     HEAD("1.3") "segments:\n  - name: gart\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: a, size: 128MiB }\n      - { name: b }\n"},
    {"banks-cover",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: far, size: 64MiB }\n",
     SEV_ERROR, 9, 28, "64MiB",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: far, size: 128MiB }\n"},
    /* an empty bank */
    {"banks-cover",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 0 }\n      - { name: far }\n",
     SEV_ERROR, 8, 29, "0 }",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 4KiB }\n      - { name: far }\n"},
    /* the last bank takes the rest, and there is none */
    {"banks-cover",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 256MiB }\n      - { name: far }\n",
     SEV_ERROR, 9, 17, "far }",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 256MiB - 4KiB }\n      - { name: far }\n"},
    /* the first bank alone is larger than the segment: it, not the next, is at fault */
    {"banks-cover",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 512MiB }\n      - { name: far }\n",
     SEV_ERROR, 8, 29, "512MiB",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: far }\n"},
    /* banks that add up to more than the segment */
    {"banks-cover",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: far, size: 192MiB }\n",
     SEV_ERROR, 9, 28, "192MiB",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 320MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: far, size: 192MiB }\n"},
    {"banks-page-aligned",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB + 100 }\n      - { name: far }\n",
     SEV_ERROR, 8, 29, "128MiB + 100",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB + 4KiB }\n      - { name: far }\n"},
    {"banks-max",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 128 * 4KiB\n    banks:\n"
     BANKS126 "      - { name: b126, size: 4KiB }\n      - { name: last }\n",
     SEV_ERROR, 135, 17, "last",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 127 * 4KiB\n    banks:\n"
     BANKS126 "      - { name: last }\n"},

    /* ---- commit limits ---- */
    {"commit-limit-memory",
     HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 256MiB, commit_limit: 128MiB }\n",
     SEV_ERROR, 4, 61, "128MiB",
     HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 256MiB, commit_limit: size }\n"},
    {"commit-limit-aperture",
     HEAD("1.3") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, commit_limit: size * 2 }\n",
     SEV_ERROR, 4, 63, "size * 2",
     HEAD("1.3") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, commit_limit: \"min(size, 128MiB)\" }\n"},

    /* ---- standby and hibernate ---- */
    {"preserve-combination",
     HEAD("1.3") "segments:\n" "  - { name: vram, kind: memory, size: 256MiB, flags: [preserved_during_hibernate] }\n",
     SEV_ERROR, 4, 55, "preserved_during_hibernate",
     HEAD("1.3") "segments:\n"
     "  - { name: vram, kind: memory, size: 256MiB, flags: [preserved_during_standby, preserved_during_hibernate] }\n"},
    /* fully and partially at once */
    {"preserve-combination",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    system_memory_end: 128MiB - 1\n"
     "    flags: [preserved_during_standby, preserved_during_hibernate, partially_preserved_during_hibernate]\n",
     SEV_ERROR, 8, 67, "partially_preserved_during_hibernate",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    system_memory_end: 128MiB - 1\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"},
    {"system-memory-end-iff-partial",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby]\n    system_memory_end: 128MiB - 1\n",
     SEV_ERROR, 8, 24, "128MiB - 1",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: 128MiB - 1\n"},
    /* partially preserved, no end */
    {"system-memory-end-iff-partial",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n",
     SEV_ERROR, 7, 39, "partially_preserved_during_hibernate",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: 4KiB - 1\n"},
    /* an end of 0 (here through a constant) is what an unpreserved segment writes */
    {"system-memory-end-iff-partial",
     HEAD("1.3") "constants: { END: 4KiB }\nsegments:\n  - { name: vram, kind: memory, size: 256MiB, system_memory_end: END }\n",
     SEV_ERROR, 5, 66, "END }",
     HEAD("1.3") "constants: { END: 0 }\nsegments:\n  - { name: vram, kind: memory, size: 256MiB, system_memory_end: END }\n"},
    /* an end of 0 is no end */
    {"system-memory-end-iff-partial",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: 0\n",
     SEV_ERROR, 8, 24, "0",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: 4KiB - 1\n"},
    {"system-memory-end-inside",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: size\n",
     SEV_ERROR, 8, 24, "size",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: size - 1\n"},
    {"system-memory-end-page",
     HEAD("1.3") "constants:\n  fw_keep: 64MiB\nsegments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: size - fw_keep\n",
     SEV_WARNING, 10, 24, "size - fw_keep",
     HEAD("1.3") "constants:\n  fw_keep: 64MiB\nsegments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"
     "    system_memory_end: size - fw_keep - 1\n"},
    {"system-memory-end-memory-only",
     HEAD("1.3") "segments:\n  - name: gart\n    kind: aperture\n    size: 256MiB\n    system_memory_end: 4KiB\n",
     SEV_ERROR, 7, 24, "4KiB",
     HEAD("1.3") "segments:\n  - name: gart\n    kind: aperture\n    size: 256MiB\n"},

    /* ---- flags ---- */
    {"flag-wddm-version",
     HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 256MiB, flags: [direct_flip, use_64kb_pages] }\n",
     SEV_ERROR, 4, 68, "use_64kb_pages",
     HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 256MiB, flags: [direct_flip] }\n"},
    /* a flag a key implies: vpr: sets VprSupported, of WDDM 2.0 (with
     * --ddi qs4, ddi-field-needs-qs4 has nothing to say) */
    {"flag-wddm-version",
     "# ddi: qs4\n" HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 256MiB, vpr: { range_size: 64MiB } }\n",
     SEV_ERROR, 5, 52, "{ range_size: 64MiB }",
     "# ddi: qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, vpr: { range_size: 64MiB } }\n"},
    /* the first version that has the flag */
    {"flag-wddm-version",
     HEAD("2.8") "segments:\n" GART
     "  - { name: vram, kind: memory, size: 256MiB, flags: [populated_by_reserved_ddr_by_firmware] }\n",
     SEV_ERROR, 5, 55, "populated_by_reserved_ddr_by_firmware",
     HEAD("2.9") "segments:\n" GART
     "  - { name: vram, kind: memory, size: 256MiB, flags: [populated_by_reserved_ddr_by_firmware] }\n"},
    {"reserved-sys-mem",
     HEAD("2.0") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, flags: [reserved_sys_mem] }\n",
     SEV_ERROR, 4, 57, "reserved_sys_mem",
     HEAD("2.0") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, flags: [encrypted_paging_supported] }\n"},
    {"host-aperture-cpu-visible",
     HEAD("2.0") FB "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_visible: { bar: fb }\n    flags: [supports_cpu_host_aperture]\n",
     SEV_ERROR, 11, 13, "supports_cpu_host_aperture",
     HEAD("2.0") FB "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [supports_cpu_host_aperture]\n    cpu_host_aperture: { bar: fb, size: 64KiB }\n"},
    /* the flag comes from cpu_host_aperture: the finding points there */
    {"host-aperture-cpu-visible",
     HEAD("2.0") FB "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    cpu_visible: { bar: fb }\n"
     "    cpu_host_aperture: { bar: fb, size: 64KiB }\n" GART,
     SEV_ERROR, 10, 24, "{ bar: fb, size",
     HEAD("2.0") FB "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_host_aperture: { bar: fb, size: 64KiB }\n" GART},
    {"cached-host-aperture",
     HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, size: 256MiB, flags: [supports_cached_cpu_host_aperture] }\n",
     SEV_ERROR, 5, 55, "supports_cached_cpu_host_aperture",
     HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, size: 256MiB, flags: [supports_cached_cpu_host_aperture, "
     "supports_cpu_host_aperture], cpu_host_aperture: { address: 0xE000_0000, size: 64KiB } }\n"},
    {"use-64kb-pages-alignment",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB + 16KiB\n    size: 256MiB\n"
     "    flags: [use_64kb_pages]\n",
     SEV_ERROR, 7, 11, "1GiB + 16KiB",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB + 64KiB\n    size: 256MiB\n"
     "    flags: [use_64kb_pages]\n"},
    {"use-64kb-pages-alignment",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB + 16KiB\n"
     "    flags: [use_64kb_pages]\n",
     SEV_ERROR, 7, 11, "256MiB + 16KiB",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB + 64KiB\n"
     "    flags: [use_64kb_pages]\n"},
    {"cache-coherent-memory",
     HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 256MiB, flags: [cache_coherent] }\n",
     SEV_WARNING, 4, 55, "cache_coherent",
     HEAD("1.3") "segments:\n  - { name: vram, kind: aperture, size: 256MiB, flags: [cache_coherent] }\n"},
    {"populated-from-system-memory-aperture",
     HEAD("1.3") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, flags: [populated_from_system_memory] }\n",
     SEV_WARNING, 4, 57, "populated_from_system_memory",
     HEAD("1.3") "segments:\n  - { name: gart, kind: memory, size: 256MiB, flags: [populated_from_system_memory] }\n"},
    {"application-target-deprecated",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, size: 256MiB, flags: [application_target] }\n",
     SEV_WARNING, 5, 55, "application_target",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, size: 256MiB, flags: [local_budget_group] }\n"},

    /* ---- DDI forms ---- */
    {"ddi-form-version",
     "# ddi: qs3,qs4\n" HEAD("1.3") "segments:\n" VRAM GART,
     SEV_WARNING, 3, 25, "\"1.3\"",
     "# ddi: qs3\n" HEAD("1.3") "segments:\n" VRAM GART},
    {"ddi-qs4-banks",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    banks:\n      - { name: near, size: 64KiB }\n      - { name: far }\n",
     SEV_ERROR, 8, 5, "banks:",
     HEAD("1.3") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    banks:\n      - { name: near, size: 64KiB }\n      - { name: far }\n"},
    {"ddi-qs4-agp",
     "# ddi: qs4\n" HEAD("2.0") "segments:\n" GART "  - { name: agp, kind: agp }\n",
     SEV_ERROR, 6, 24, "agp }",
     "# ddi: qs4\n" HEAD("2.0") "segments:\n" GART},
    {"ddi-qs-system-memory-end",
     HEAD("1.1") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n    system_memory_end: 4KiB - 1\n",
     SEV_ERROR, 8, 24, "4KiB - 1",
     HEAD("1.2") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n    system_memory_end: 4KiB - 1\n"},
    /* the key, not the flag: a segment that is not partially preserved
     * (its advisory waived) answered with QUERYSEGMENT beside QUERYSEGMENT3 */
    {"ddi-qs-system-memory-end",
     "# ddi: qs,qs3\n" HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    system_memory_end: 4KiB - 1\n    waive: { system-memory-end-iff-partial: \"a fork's layout\" }\n",
     SEV_ERROR, 8, 24, "4KiB - 1",
     "# ddi: qs3\n" HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    system_memory_end: 4KiB - 1\n    waive: { system-memory-end-iff-partial: \"a fork's layout\" }\n"},
    {"ddi-field-needs-qs4",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    invalid_memory_ranges: 2\n",
     SEV_ERROR, 7, 28, "2",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n    invalid_memory_ranges: 2\n"},
    /* the QUERYSEGMENT3 answer beside the QUERYSEGMENT4 one */
    {"ddi-field-needs-qs4",
     "# ddi: qs3,qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, invalid_memory_ranges: 2 }\n",
     SEV_ERROR, 6, 82, "2 }",
     "# ddi: qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, invalid_memory_ranges: 2 }\n"},
    /* a key that implies a flag (VprSupported) is the key's finding */
    {"ddi-field-needs-qs4",
     "# ddi: qs3,qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, vpr: { range_size: 64MiB } }\n",
     SEV_ERROR, 6, 64, "{ range_size: 64MiB }",
     "# ddi: qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, base: 1GiB, size: 256MiB, vpr: { range_size: 64MiB } }\n"},
    /* banks beside QUERYSEGMENT3 */
    {"ddi-qs4-banks",
     "# ddi: qs3,qs4\n" HEAD("1.3") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    banks:\n      - { name: near, size: 64KiB }\n      - { name: far }\n",
     SEV_ERROR, 9, 5, "banks:",
     HEAD("1.3") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    banks:\n      - { name: near, size: 64KiB }\n      - { name: far }\n"},
    /* any other key of an AGP segment, whose descriptor is the aperture's */
    {"key-not-emitted",
     "# ddi: qs\n" HEAD("1.1") "segments:\n" VRAM "  - { name: agp, kind: agp, invalid_memory_ranges: 1 }\n",
     SEV_ERROR, 6, 52, "1 }",
     "# ddi: qs\n" HEAD("1.1") "segments:\n" VRAM "  - { name: agp, kind: agp }\n"},
    {"ddi-qs3-flag",
     "# ddi: qs3,qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, size: 256MiB, flags: [encrypted_paging_supported] }\n",
     SEV_ERROR, 6, 55, "encrypted_paging_supported",
     "# ddi: qs4\n" HEAD("2.0") "segments:\n" GART
     "  - { name: vram, kind: memory, size: 256MiB, flags: [encrypted_paging_supported] }\n"},
    {"vpr-range-inside",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    vpr: { range_start: 192MiB, range_size: 128MiB }\n",
     SEV_ERROR, 8, 45, "128MiB",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    vpr: { range_start: 128MiB, range_size: 128MiB }\n"},
    {"vpr-range-inside",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    vpr: { range_size: 128MiB, alignment: 3 }\n",
     SEV_ERROR, 8, 43, "3",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    vpr: { range_size: 128MiB, alignment: 4KiB }\n"},
    {"vpr-needs-range",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, size: 256MiB, flags: [vpr_supported] }\n",
     SEV_ERROR, 5, 55, "vpr_supported",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, size: 256MiB, flags: [vpr_supported], "
     "vpr: { range_size: 64MiB } }\n"},
    {"cpu-host-aperture-needs-window",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, size: 256MiB, flags: [supports_cpu_host_aperture] }\n",
     SEV_ERROR, 5, 55, "supports_cpu_host_aperture",
     HEAD("2.0") "segments:\n" GART "  - { name: vram, kind: memory, size: 256MiB, flags: [supports_cpu_host_aperture], "
     "cpu_host_aperture: { address: 0xE000_0000, size: 64KiB } }\n"},
    {"cpu-host-aperture-size",
     HEAD("2.0") FB "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_host_aperture: { bar: fb, offset: 192MiB, size: 128MiB }\n",
     SEV_ERROR, 10, 24, "{ bar: fb",
     HEAD("2.0") FB "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_host_aperture: { bar: fb, offset: 128MiB, size: 128MiB }\n"},
    {"cpu-host-aperture-size",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 100 }\n",
     SEV_ERROR, 8, 54, "100",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 4KiB }\n"},
    /* on a 64 KB-page segment the pages are 64 KiB */
    {"cpu-host-aperture-size",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n    flags: [use_64kb_pages]\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 68KiB }\n",
     SEV_ERROR, 9, 54, "68KiB",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    size: 256MiB\n    flags: [use_64kb_pages]\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 128KiB }\n"},
    {"cpu-host-aperture-aligned",
     HEAD("2.0") FB "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { bar: fb, offset: 2KiB, size: 64KiB }\n",
     SEV_ERROR, 11, 43, "2KiB",
     HEAD("2.0") FB "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { bar: fb, offset: 4KiB, size: 64KiB }\n"},
    /* at a fixed address; a page of the board's size */
    {"cpu-host-aperture-aligned",
     "segc: 1\nboard: { name: t, wddm: \"2.0\", page_size: 64KiB }\nsegments:\n" GART
     "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xE000_1000, size: 64KiB }\n",
     SEV_ERROR, 9, 35, "0xE000_1000",
     "segc: 1\nboard: { name: t, wddm: \"2.0\", page_size: 64KiB }\nsegments:\n" GART
     "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xE001_0000, size: 64KiB }\n"},
    {"cpu-host-aperture-memory",
     HEAD("2.0") "segments:\n  - name: gart\n    kind: aperture\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 4KiB }\n",
     SEV_ERROR, 7, 24, "{ address",
     HEAD("2.0") "segments:\n" GART "  - name: vram\n    kind: memory\n    base: 1GiB\n    size: 256MiB\n"
     "    cpu_host_aperture: { address: 0xE000_0000, size: 4KiB }\n"},

    /* ---- paging buffer ---- */
    {"paging-segment-aperture",
     HEAD("1.3") "segments:\n" VRAM GART "paging: { segment: vram }\n",
     SEV_ERROR, 6, 20, "vram",
     HEAD("1.3") "segments:\n" VRAM GART "paging: { segment: gart }\n"},
    {"paging-segment-aperture",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\npaging: { segment: agp }\n",
     SEV_ERROR, 6, 20, "agp",
     HEAD("1.3") "segments:\n" VRAM "  - { name: agp, kind: agp }\npaging: { segment: none }\n"},
    {"paging-size-uint",
     HEAD("1.3") "segments:\n" GART "paging:\n  segment: gart\n  buffer_size: 4GiB\n",
     SEV_ERROR, 7, 16, "4GiB",
     HEAD("1.3") "segments:\n" GART "paging:\n  segment: none\n  buffer_size: 4GiB - 1\n"},
    {"paging-buffer-fits",
     HEAD("1.3") "segments:\n" GART "paging:\n  segment: gart\n  buffer_size: 256MiB + 4KiB\n",
     SEV_ERROR, 7, 16, "256MiB + 4KiB",
     HEAD("1.3") "segments:\n" GART "paging:\n  segment: gart\n  buffer_size: 256MiB\n"},
    /* the commit limit, not the size, bounds it */
    {"paging-buffer-fits",
     HEAD("1.3") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, commit_limit: 64KiB }\n"
     "paging:\n  segment: gart\n  buffer_size: 128KiB\n",
     SEV_ERROR, 7, 16, "128KiB",
     HEAD("1.3") "segments:\n  - { name: gart, kind: aperture, size: 256MiB, commit_limit: 64KiB }\n"
     "paging:\n  segment: gart\n  buffer_size: 64KiB\n"},
    {"paging-size-uint",
     HEAD("1.3") "segments:\n" GART "paging:\n  segment: gart\n  private_data_size: 0x1_0000_0000\n",
     SEV_ERROR, 7, 22, "0x1_0000_0000",
     HEAD("1.3") "segments:\n" GART "paging:\n  segment: gart\n  private_data_size: 0xFFFF_FFFF\n"},

    /* ---- names and versions ---- */
    {"names-c-ident",
     HEAD("1.3") "segments:\n  - { name: 2d-engine, kind: memory, size: 256MiB }\n",
     SEV_ERROR, 4, 13, "2d-engine",
     HEAD("1.3") "segments:\n  - { name: engine_2d, kind: memory, size: 256MiB }\n"},
    {"names-c-ident",
     "segc: 1\nboard: { name: contoso-x1 }\nsegments:\n" VRAM,
     SEV_ERROR, 2, 16, "contoso-x1",
     "segc: 1\nboard: { name: contoso_x1 }\nsegments:\n" VRAM},
    {"names-c-ident",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near bank, size: 128MiB }\n      - { name: far }\n",
     SEV_ERROR, 8, 17, "near bank",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near_bank, size: 128MiB }\n      - { name: far }\n"},
    {"names-c-ident",
     HEAD("1.3") "segments:\n  - { name: none, kind: aperture, size: 256MiB }\n",
     SEV_ERROR, 4, 13, "none,",
     HEAD("1.3") "segments:\n  - { name: none_, kind: aperture, size: 256MiB }\n"},
    {"names-unique",
     HEAD("1.3") "segments:\n" VRAM VRAM,
     SEV_ERROR, 5, 13, "vram",
     HEAD("1.3") "segments:\n" VRAM "  - { name: vram2, kind: memory, size: 256MiB }\n"},
    {"names-unique",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: near }\n",
     SEV_ERROR, 9, 17, "near }",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    banks:\n"
     "      - { name: near, size: 128MiB }\n      - { name: far }\n"},
    {"names-generated-unique",
     HEAD("1.3") "segments:\n  - { name: local, kind: memory, size: 256MiB }\n  - { name: LOCAL, kind: aperture, size: 256MiB }\n",
     SEV_ERROR, 5, 13, "LOCAL",
     HEAD("1.3") "segments:\n  - { name: local, kind: memory, size: 256MiB }\n  - { name: LOCAL2, kind: aperture, size: 256MiB }\n"},
    {"names-generated-unique",
     HEAD("1.3") "segments:\n  - { name: count, kind: memory, size: 256MiB }\n",
     SEV_ERROR, 4, 13, "count",
     HEAD("1.3") "segments:\n  - { name: counter, kind: memory, size: 256MiB }\n"},
    {"names-generated-unique",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 256MiB }\n  FB: { index: 1, size: 256MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 5, 3, "FB:",
     HEAD("1.3") "bars:\n  fb: { index: 0, size: 256MiB }\n  FB2: { index: 1, size: 256MiB }\nsegments:\n" VRAM},
    {"names-generated-unique",
     HEAD("1.3") "bars:\n  count: { index: 0, size: 256MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 3, "count:",
     HEAD("1.3") "bars:\n  counts: { index: 0, size: 256MiB }\nsegments:\n" VRAM},
    {"names-generated-unique",
     HEAD("1.3") "segments:\n  - { name: vram_a, kind: memory, size: 256MiB, banks: [ { name: all } ] }\n"
     "  - { name: vramA, kind: memory, size: 256MiB, banks: [ { name: all } ] }\n",
     SEV_ERROR, 5, 13, "vramA",
     HEAD("1.3") "segments:\n  - { name: vram_a, kind: memory, size: 256MiB, banks: [ { name: all } ] }\n"
     "  - { name: vramA, kind: memory, size: 256MiB }\n"},
    {"names-c-ident",
     HEAD("1.3") "bars:\n  f-b: { index: 0, size: 256MiB }\nsegments:\n" VRAM,
     SEV_ERROR, 4, 3, "f-b:",
     HEAD("1.3") "bars:\n  f_b: { index: 0, size: 256MiB }\nsegments:\n" VRAM},
    {"page-size-valid",
     "segc: 1\nboard: { name: t, page_size: 6KiB }\nsegments:\n  - { name: vram, kind: memory, size: 24KiB }\n",
     SEV_ERROR, 2, 30, "6KiB",
     "segc: 1\nboard: { name: t, page_size: 8KiB }\nsegments:\n  - { name: vram, kind: memory, size: 24KiB + 8KiB }\n"},
    {"page-size-valid",
     "segc: 1\nboard: { name: t, page_size: 2KiB }\nsegments:\n  - { name: vram, kind: memory, size: 24KiB }\n",
     SEV_ERROR, 2, 30, "2KiB",
     "segc: 1\nboard: { name: t, page_size: 4KiB }\nsegments:\n  - { name: vram, kind: memory, size: 24KiB }\n"},
    {"wddm2-one-aperture",
     HEAD("2.0") "segments:\n" VRAM,
     SEV_ERROR, 2, 25, "\"2.0\"",
     HEAD("2.0") "segments:\n" VRAM GART},
    {"wddm2-one-aperture",
     HEAD("2.0") "segments:\n" GART "  - { name: gart2, kind: aperture, size: 256MiB }\n",
     SEV_ERROR, 2, 25, "\"2.0\"",
     HEAD("1.3") "segments:\n" GART "  - { name: gart2, kind: aperture, size: 256MiB }\n"},

    /* ---- variants (the base is a golden case's, read from the source tree) ---- */
    {"variant-new-segment",
     "segc: 1\nextends: tests/cases/extends/chips/sys.yaml\nsegments:\n"
     "  - { name: sysmen, kind: aperture, base: 2GiB, size: 512MiB }\n",
     SEV_WARNING, 4, 13, "sysmen",
     "segc: 1\nextends: tests/cases/extends/chips/sys.yaml\nsegments:\n"
     "  - { name: sysmen, new: true, kind: aperture, base: 2GiB, size: 512MiB }\n"},

    /* ---- allocation classes (the class starts on line 7: "  - name: c") ---- */
    {"alloc-names-known",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vrm]\n    write: [vram]\n",
     SEV_ERROR, 8, 14, "vrm]",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram]\n    write: [vram]\n"},
    {"alloc-names-known",
     HEAD("1.3") "segments:\n" "  - name: vram\n    kind: memory\n    size: 256MiB\n    banks: [{ name: near, size: 128MiB }, { name: far }]\n"
     ALLOC "    prefer: [vram]\n    write: [vram]\n    banks: [fra]\n",
     SEV_ERROR, 12, 13, "fra]",
     HEAD("1.3") "segments:\n" "  - name: vram\n    kind: memory\n    size: 256MiB\n    banks: [{ name: near, size: 128MiB }, { name: far }]\n"
     ALLOC "    prefer: [vram]\n    write: [vram]\n    banks: [far]\n"},
    {"alloc-names-known",
     HEAD("1.3") "segments:\n" VRAM GART "dma_buffer_segments: [gat]\n",
     SEV_ERROR, 6, 23, "gat]",
     HEAD("1.3") "segments:\n" VRAM GART "dma_buffer_segments: [gart]\n"},
    {"alloc-preference-supported",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [gart]\n    write: [vram]\n",
     SEV_ERROR, 8, 14, "gart]",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [gart]\n    write: [vram, gart]\n"},
    {"alloc-preference-supported",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram]\n    write: [vram, gart]\n    read: [gart]\n",
     SEV_ERROR, 8, 14, "vram]",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram]\n    write: [vram, gart]\n    read: [gart, vram]\n"},
    {"alloc-slots",
     HEAD("1.3") "segments:\n" SEG(0) SEG(1) SEG(2) SEG(3) SEG(4) SEG(5)
     "allocations:\n  - name: c\n    prefer: [s0, s1, s2, s3, s4, s5]\n    write: [s0, s1, s2, s3, s4, s5]\n",
     SEV_ERROR, 12, 34, "s5]",
     HEAD("1.3") "segments:\n" SEG(0) SEG(1) SEG(2) SEG(3) SEG(4) SEG(5)
     "allocations:\n  - name: c\n    prefer: [s0, s1, s2, s3, s4]\n    write: [s0, s1, s2, s3, s4, s5]\n"},
    {"alloc-slots",
     HEAD("1.3") "segments:\n" "  - name: vram\n    kind: memory\n    size: 256MiB\n    banks: [{ name: b0, size: 64MiB }, "
     "{ name: b1, size: 64MiB }, { name: b2, size: 64MiB }, { name: b3, size: 32MiB }, { name: b4 }]\n"
     ALLOC "    prefer: [vram]\n    write: [vram]\n    banks: [b0, b1, b2, b3, b4]\n",
     SEV_ERROR, 12, 29, "b4]",
     HEAD("1.3") "segments:\n" "  - name: vram\n    kind: memory\n    size: 256MiB\n    banks: [{ name: b0, size: 64MiB }, "
     "{ name: b1, size: 64MiB }, { name: b2, size: 64MiB }, { name: b3, size: 32MiB }, { name: b4 }]\n"
     ALLOC "    prefer: [vram]\n    write: [vram]\n    banks: [b4, b1, b2, b3]\n"},
    {"alloc-repeated",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram, gart]\n    write: [vram, gart, vram]\n",
     SEV_WARNING, 9, 25, "vram]",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram, gart]\n    write: [vram, gart]\n"},
    {"alloc-bank-hints",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram]\n    write: [vram]\n    banks: [near]\n",
     SEV_ERROR, 10, 5, "banks:",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    prefer: [vram]\n    write: [vram]\n"},
    {"alloc-eviction-aperture",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    write: [vram, gart]\n    evict: [gart, vram]\n",
     SEV_ERROR, 9, 19, "vram]",
     HEAD("1.3") "segments:\n" VRAM GART ALLOC "    write: [vram, gart]\n    evict: [gart]\n"},
    {"alloc-eviction-pitch-aligned",
     HEAD("1.3") "segments:\n" VRAM "  - { name: gart, kind: aperture, size: 256MiB, flags: [pitch_alignment] }\n"
     "  - { name: gart2, kind: aperture, size: 256MiB }\n" "allocations:\n  - name: c\n"
     "    write: [vram]\n    evict: [gart2, gart]\n",
     SEV_ERROR, 10, 20, "gart]",
     HEAD("1.3") "segments:\n" VRAM "  - { name: gart, kind: aperture, size: 256MiB, flags: [pitch_alignment] }\n"
     "  - { name: gart2, kind: aperture, size: 256MiB }\n" "allocations:\n  - name: c\n"
     "    write: [vram]\n    evict: [gart2]\n"},
    {"dma-buffer-aperture",
     HEAD("1.3") "segments:\n" VRAM GART "dma_buffer_segments: [gart, vram]\n",
     SEV_ERROR, 6, 29, "vram]",
     HEAD("1.3") "segments:\n" VRAM GART "dma_buffer_segments: [gart]\n"},
    {"alloc-64kb-alignment",
     HEAD("2.0") "segments:\n" "  - { name: vram, kind: memory, size: 256MiB, flags: [use_64kb_pages] }\n" GART ALLOC
     "    write: [gart, vram]\n",
     SEV_WARNING, 7, 11, "c\n",
     HEAD("2.0") "segments:\n" "  - { name: vram, kind: memory, size: 256MiB, flags: [use_64kb_pages] }\n" GART ALLOC
     "    write: [gart]\n"},
    {"alloc-read-set-ignored",
     HEAD("2.0") "segments:\n" VRAM GART ALLOC "    write: [vram, gart]\n    read: [vram]\n",
     SEV_WARNING, 9, 5, "read:",
     HEAD("2.0") "segments:\n" VRAM GART ALLOC "    write: [vram, gart]\n    read: [gart, vram]\n"},
    {"alloc-system-memory-id",
     HEAD("1.3") "segments:\n" SEGS31 "allocations:\n  - name: c\n    write: [s29, s30]\n",
     SEV_ERROR, 37, 18, "s30]",
     HEAD("1.3") "segments:\n" SEGS31 "allocations:\n  - name: c\n    write: [s29]\n"},
    {"names-c-ident",
     HEAD("1.3") "segments:\n" VRAM "allocations:\n  - { name: \"two words\", write: [vram] }\n",
     SEV_ERROR, 6, 13, "\"two words\"",
     HEAD("1.3") "segments:\n" VRAM "allocations:\n  - { name: two_words, write: [vram] }\n"},
    {"names-unique",
     HEAD("1.3") "segments:\n" VRAM "allocations:\n  - { name: c, write: [vram] }\n  - { name: c, write: [vram] }\n",
     SEV_ERROR, 7, 13, "c,",
     HEAD("1.3") "segments:\n" VRAM "allocations:\n  - { name: c, write: [vram] }\n  - { name: d, write: [vram] }\n"},
    {"names-generated-unique",
     HEAD("1.3") "segments:\n" VRAM "allocations:\n  - { name: class_count, write: [vram] }\n",
     SEV_ERROR, 6, 13, "class_count",
     HEAD("1.3") "segments:\n" VRAM "allocations:\n  - { name: class_counter, write: [vram] }\n"},

    /* ---- waivers ---- */
    {"waiver-unused",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
     "    waive: { cache-coherent-memory: \"scan-out needs coherent writes\" }\n",
     SEV_WARNING, 7, 14, "cache-coherent-memory:",
     HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    flags: [cache_coherent]\n"
     "    waive: { cache-coherent-memory: \"scan-out needs coherent writes\" }\n"},
};

START_TEST(test_rule_fires)
{
    const RuleCase *c = &rule_cases[_i];
    Run r;
    run(&r, c->fires, NULL);
    const Diag *g = first(&r, c->rule);
    ck_assert_msg(g != NULL, "case %d: [%s] did not fire; got: %s", _i, c->rule, all(&r));
    ck_assert_msg(g->sev == c->sev, "case %d: [%s] severity %d, want %d", _i, c->rule, (int)g->sev, (int)c->sev);
    ck_assert_msg(g->pos.file == r.s->file, "case %d: [%s] not in the spec file", _i, c->rule);
    ck_assert_msg(src_loc(g->pos).line == c->line && src_loc(g->pos).col == c->col, "case %d: [%s] at %u:%u, want %u:%u", _i, c->rule,
                  src_loc(g->pos).line, src_loc(g->pos).col, c->line, c->col);
    const char *there = text_at(r.s->file, c->line, c->col);
    ck_assert_msg(!strncmp(there, c->at, strlen(c->at)), "case %d: the table's %u:%u is not at '%s'", _i, c->line,
                  c->col, c->at);
    ck_assert_ptr_nonnull(g->msg);
    ck_assert_msg(g->msg[0] != '\0', "case %d: empty message", _i);
    /* spec_check counts exactly the errors it reported. */
    ck_assert_uint_eq(r.errors, r.d.nerrors);
    arena_free(r.a);
}
END_TEST

START_TEST(test_rule_quiet)
{
    const RuleCase *c = &rule_cases[_i];
    Run r;
    run(&r, c->quiet, NULL);
    ck_assert_msg(count(&r, c->rule) == 0, "case %d: [%s] fired on the fixed spec", _i, c->rule);
    ck_assert_msg(r.d.count == 0, "case %d: the fixed spec for [%s] is not silent: %s", _i, c->rule, all(&r));
    ck_assert_uint_eq(r.errors, 0);
    arena_free(r.a);
}
END_TEST

/* A rule added to rules.def without a case here fails this test. */
START_TEST(test_every_rule_has_a_case)
{
    for (int i = 0; i < RULE_COUNT; i++) {
        unsigned n = 0;
        for (size_t k = 0; k < countof(rule_cases); k++)
            n += !strcmp(rule_cases[k].rule, rule_table[i].name);
        ck_assert_msg(n > 0, "rule '%s' has no case in check_rules.c", rule_table[i].name);
        ck_assert_msg(rule_by_name(rule_table[i].name) == i, "rule_by_name('%s')", rule_table[i].name);
        ck_assert_msg(rule_table[i].sev == SEV_ERROR || rule_table[i].sev == SEV_WARNING, "rule '%s' severity",
                      rule_table[i].name);
        ck_assert_msg(rule_table[i].cls != CLASS_INVARIANT || rule_table[i].sev == SEV_ERROR,
                      "invariant '%s' is not an error", rule_table[i].name);
        ck_assert_msg(rule_table[i].why && strlen(rule_table[i].why) > 20, "rule '%s' has no class reason",
                      rule_table[i].name);
    }
    /* ...and every case names a real rule, with its default severity. */
    for (size_t k = 0; k < countof(rule_cases); k++) {
        int id = rule_by_name(rule_cases[k].rule);
        ck_assert_msg(id >= 0, "case %zu names no rule: '%s'", k, rule_cases[k].rule);
        ck_assert_msg(rule_table[id].sev == rule_cases[k].sev, "case %zu: '%s' defaults to another severity", k,
                      rule_cases[k].rule);
    }
    ck_assert_int_eq(rule_by_name("no-such-rule"), -1);
    ck_assert_int_eq(rule_by_name(""), -1);
}
END_TEST

/* One fault, one report: a segment size off the page is size-page-multiple's
 * alone, not also banks-page-aligned's for the last bank (which ends there). */
START_TEST(test_one_report_per_fault)
{
    Run r;
    run(&r,
        HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB + 512\n    banks:\n"
                    "      - { name: near, size: 128MiB }\n      - { name: far }\n",
        NULL);
    ck_assert_msg(r.d.count == 1 && !strcmp(code_name(r.d.head->code), "size-page-multiple"), "got: %s", all(&r));
    ck_assert_uint_eq(r.errors, 1);
    arena_free(r.a);
}
END_TEST

/* The table's prerequisites: rules, of the same scope or the board's (so a
 * checker can ask about the object it looks at), never a cycle (run()
 * aborts on one, so spec_check on any spec would), and an invariant's are
 * invariants: a skipped invariant stands behind an error reported, so
 * no option makes `check` pass where the emitters would refuse. */
START_TEST(test_prerequisites)
{
    for (int i = 0; i < RULE_COUNT; i++) {
        const RuleInfo *r = &rule_table[i];
        ck_assert_uint_le(r->npre, RULE_MAX_PRE);
        for (unsigned p = 0; p < r->npre; p++) {
            const RuleInfo *q = &rule_table[r->pre[p]];
            ck_assert_msg(r->pre[p] >= 0 && r->pre[p] < RULE_COUNT && r->pre[p] != i, "%s: prerequisite %d", r->name,
                          r->pre[p]);
            ck_assert_msg(q->scope == ON_BOARD || q->scope == r->scope || (ON_SEGMENTS(q->scope) && ON_SEGMENTS(r->scope)),
                          "%s after %s: another scope", r->name, q->name);
            ck_assert_msg(r->cls != CLASS_INVARIANT || q->cls == CLASS_INVARIANT, "invariant %s after advisory %s",
                          r->name, q->name);
        }
    }
    for (int i = 0; i < CODE_COUNT; i++) {
        ck_assert_msg(rule_table[i].msvc > 1000 && rule_table[i].msvc < 10000, "%s: SEGC%u", rule_table[i].name,
                      rule_table[i].msvc);
        for (int j = 0; j < i; j++)
            ck_assert_msg(rule_table[i].msvc != rule_table[j].msvc, "%s and %s: SEGC%u", rule_table[j].name,
                          rule_table[i].name, rule_table[i].msvc);
        ck_assert_msg((i < RULE_COUNT) == (rule_table[i].source != NULL), "%s: a rule has a source", rule_table[i].name);
    }
    ck_assert_ptr_null(code_name(CODE_NONE));
    ck_assert_str_eq(code_name(R_banks_cover), "banks-cover");
    ck_assert_str_eq(code_name(C_yaml_syntax), "yaml-syntax");
}
END_TEST

/* A prerequisite holds per object: a zero-size segment with banks gets
 * size-nonzero alone (its banks cannot cover 0 bytes, and saying so adds
 * nothing), while banks-cover still runs on the next segment, whose size is
 * not 0. */
START_TEST(test_prerequisite_per_segment)
{
    Run r;
    run(&r,
        HEAD("1.3") "segments:\n"
                    "  - { name: vram, kind: memory, size: 0, banks: [{ name: a, size: 4KiB }, { name: b }] }\n"
                    "  - { name: more, kind: memory, base: 1GiB, size: 8KiB, banks: [{ name: a, size: 4KiB }, { name: b, size: 8KiB }] }\n",
        NULL);
    ck_assert_msg(count(&r, "size-nonzero") == 1 && count(&r, "banks-cover") == 1 && r.d.count == 2, "got: %s", all(&r));
    ck_assert_uint_eq(src_loc(first(&r, "size-nonzero")->pos).line, 4);
    ck_assert_uint_eq(src_loc(first(&r, "banks-cover")->pos).line, 5);
    arena_free(r.a);
    /* Without the zero size, the first segment's banks are checked. */
    run(&r,
        HEAD("1.3") "segments:\n"
                    "  - { name: vram, kind: memory, size: 4KiB, banks: [{ name: a, size: 8KiB }, { name: b }] }\n",
        NULL);
    ck_assert_msg(count(&r, "banks-cover") == 1 && r.d.count == 1, "got: %s", all(&r));
    arena_free(r.a);
}
END_TEST

/* A board name that is not an identifier: names-c-ident, and not
 * names-generated-unique, which compares the identifiers of the rendered
 * outputs and so runs only on a spec nothing else was reported for (the
 * two segments' names are compared once the board's is fixed).  No
 * message says "(null)". */
START_TEST(test_generated_names_odd_board)
{
    Run r;
    run(&r,
        "segc: 1\nboard: { name: contoso-x1, wddm: \"1.3\" }\nsegments:\n"
        "  - { name: a, kind: memory, size: 4KiB }\n  - { name: A, kind: memory, base: 1GiB, size: 4KiB }\n",
        NULL);
    ck_assert_msg(count(&r, "names-c-ident") == 1 && r.d.count == 1, "got: %s", all(&r));
    ck_assert_msg(!strstr(first(&r, "names-c-ident")->msg, "(null)"), "%s", first(&r, "names-c-ident")->msg);
    arena_free(r.a);
    run(&r,
        "segc: 1\nboard: { name: contoso_x1, wddm: \"1.3\" }\nsegments:\n"
        "  - { name: a, kind: memory, size: 4KiB }\n  - { name: A, kind: memory, base: 1GiB, size: 4KiB }\n",
        NULL);
    ck_assert_msg(count(&r, "names-generated-unique") == 1 && r.d.count == 1, "got: %s", all(&r));
    ck_assert_msg(strstr(first(&r, "names-generated-unique")->msg, "CONTOSO_X1_SEGMENT_A"), "%s",
                  first(&r, "names-generated-unique")->msg);
    arena_free(r.a);
}
END_TEST

/* The board's name names the output files: BOARD_NAME_MAX bytes fit a
 * file name with segc's suffix and temporary, one more does not. */
START_TEST(test_board_name_length)
{
    for (unsigned n = BOARD_NAME_MAX; n <= BOARD_NAME_MAX + 1; n++) {
        char name[BOARD_NAME_MAX + 2];
        memset(name, 'b', n);
        name[n] = 0;
        char spec[512];
        snprintf(spec, sizeof spec, "segc: 1\nboard: { name: %s }\nsegments:\n" VRAM, name);
        Run r;
        run(&r, spec, NULL);
        ck_assert_msg(r.d.count == (n > BOARD_NAME_MAX), "%u bytes: %s", n, all(&r));
        if (r.d.count) {
            ck_assert_str_eq(code_name(r.d.head->code), "names-c-ident");
            ck_assert(src_loc(r.d.head->pos).line == 2 && src_loc(r.d.head->pos).col == 16);
        }
        arena_free(r.a);
    }
    ck_assert_int_eq(BOARD_NAME_MAX + strlen("_segments.h") + strlen("..segc-XXXXXX"), 255);
}
END_TEST

/* A rule's finding with no position is a bug in segc, caught where it is made. */
START_TEST(test_rule_finding_needs_position)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    diag_add(&d, SEV_ERROR, R_segments_none, (Pos){0}, "no position");
}
END_TEST

/* ---- -W options ---------------------------------------------------------------- */

/* One warning (cache-coherent-memory at 4:73) and one error
 * (commit-limit-memory at 4:59) on the same segment: two advisories. */
static const char both_spec[] =
    HEAD("1.3") "segments:\n  - { name: vram, kind: memory, size: 4KiB, commit_limit: 8KiB, flags: [cache_coherent] }\n";

enum { ABSENT = -1 };

static const struct {
    const char *args[4]; /* -W arguments in order, NULL-terminated */
    int coherent, page;  /* severity of each rule's diagnostic, or ABSENT */
} wopt_cases[] = {
    {{NULL}, SEV_WARNING, SEV_ERROR},
    {{"no-cache-coherent-memory"}, ABSENT, SEV_ERROR},
    {{"no-commit-limit-memory"}, SEV_WARNING, ABSENT},
    {{"no-cache-coherent-memory", "no-commit-limit-memory"}, ABSENT, ABSENT},
    /* -W name turns a rule back on */
    {{"no-cache-coherent-memory", "cache-coherent-memory"}, SEV_WARNING, SEV_ERROR},
    {{"error"}, SEV_ERROR, SEV_ERROR},
    {{"error", "no-error"}, SEV_WARNING, SEV_ERROR},
    {{"error=cache-coherent-memory"}, SEV_ERROR, SEV_ERROR},
    {{"no-error=commit-limit-memory"}, SEV_WARNING, SEV_WARNING},
    {{"no-error=cache-coherent-memory"}, SEV_WARNING, SEV_ERROR},
    /* -Wno-error=x keeps x a warning under -Werror, in either order */
    {{"error", "no-error=cache-coherent-memory"}, SEV_WARNING, SEV_ERROR},
    {{"no-error=cache-coherent-memory", "error"}, SEV_WARNING, SEV_ERROR},
    {{"error", "no-error=commit-limit-memory"}, SEV_ERROR, SEV_WARNING},
    /* the last setting of a rule wins */
    {{"error=cache-coherent-memory", "no-cache-coherent-memory"}, ABSENT, SEV_ERROR},
    {{"no-cache-coherent-memory", "error=cache-coherent-memory"}, SEV_ERROR, SEV_ERROR},
    /* off beats -Werror */
    {{"error", "no-cache-coherent-memory"}, ABSENT, SEV_ERROR},
};

START_TEST(test_wopts)
{
    RuleConfig cfg;
    rules_default(&cfg);
    for (unsigned k = 0; wopt_cases[_i].args[k]; k++)
        ck_assert_msg(rules_option(&cfg, wopt_cases[_i].args[k]), "-W%s refused", wopt_cases[_i].args[k]);
    Run r;
    run(&r, both_spec, &cfg);
    const Diag *cc = first(&r, "cache-coherent-memory"), *pm = first(&r, "commit-limit-memory");
    ck_assert_uint_eq(r.d.count, (cc != NULL) + (pm != NULL));
    ck_assert_int_eq(cc ? (int)cc->sev : ABSENT, wopt_cases[_i].coherent);
    ck_assert_int_eq(pm ? (int)pm->sev : ABSENT, wopt_cases[_i].page);
    if (cc)
        ck_assert(src_loc(cc->pos).line == 4 && src_loc(cc->pos).col == 73);
    if (pm)
        ck_assert(src_loc(pm->pos).line == 4 && src_loc(pm->pos).col == 59);
    unsigned want = (wopt_cases[_i].coherent == SEV_ERROR) + (wopt_cases[_i].page == SEV_ERROR);
    ck_assert_uint_eq(r.errors, want);
    ck_assert_uint_eq(r.d.nerrors, want);
    arena_free(r.a);
}
END_TEST

static const char *const bad_wopts[] = {
    "no-such-rule", "error=no-such-rule", "no-error=no-such-rule", "no-", "error=", "no-error=", "",
    "cache_coherent_memory", "Cache-coherent-memory", "no-cache-coherent", "error=cache-coherent-memory ",
};

START_TEST(test_wopt_unknown)
{
    RuleConfig cfg, before;
    rules_default(&cfg);
    ck_assert(rules_option(&cfg, "no-segments-overlap"));
    before = cfg;
    ck_assert_msg(!rules_option(&cfg, bad_wopts[_i]), "-W%s accepted", bad_wopts[_i]);
    ck_assert_msg(memcmp(&cfg, &before, sizeof cfg) == 0, "-W%s changed the configuration", bad_wopts[_i]);
}
END_TEST

/* Invariants can be named, and made errors (they are), never lowered. */
START_TEST(test_wopt_invariant)
{
    RuleConfig cfg, before;
    rules_default(&cfg);
    before = cfg;
    for (int i = 0; i < RULE_COUNT; i++) {
        char no[96], noerr[96], err[96];
        snprintf(no, sizeof no, "no-%s", rule_table[i].name);
        snprintf(noerr, sizeof noerr, "no-error=%s", rule_table[i].name);
        snprintf(err, sizeof err, "error=%s", rule_table[i].name);
        bool inv = rule_table[i].cls == CLASS_INVARIANT;
        ck_assert_msg(rules_option(&cfg, no) == (inv ? WOPT_INVARIANT : WOPT_OK), "-W%s", no);
        ck_assert_msg(rules_option(&cfg, noerr) == (inv ? WOPT_INVARIANT : WOPT_OK), "-W%s", noerr);
        ck_assert_msg(rules_option(&cfg, err) == WOPT_OK, "-W%s", err);
        ck_assert_msg(rules_option(&cfg, rule_table[i].name) == WOPT_OK, "-W%s", rule_table[i].name);
    }
    ck_assert(memcmp(&cfg, &before, sizeof cfg) == 0);
    ck_assert_int_eq(rules_option(&cfg, "no-banks-max"), WOPT_INVARIANT);
    ck_assert_int_eq(rules_option(&cfg, "no-cache-coherent-memory"), WOPT_OK);
}
END_TEST

START_TEST(test_wopt_settings)
{
    RuleConfig cfg;
    memset(&cfg, 0xA5, sizeof cfg);
    rules_default(&cfg);
    for (int i = 0; i < RULE_COUNT; i++)
        ck_assert_int_eq(cfg.setting[i], RS_DEFAULT);
    ck_assert(!cfg.werror_all);
    int id = rule_by_name("segments-overlap");
    ck_assert(rules_option(&cfg, "no-segments-overlap"));
    ck_assert_int_eq(cfg.setting[id], RS_OFF);
    ck_assert(rules_option(&cfg, "error=segments-overlap"));
    ck_assert_int_eq(cfg.setting[id], RS_ERROR);
    ck_assert(rules_option(&cfg, "no-error=segments-overlap"));
    ck_assert_int_eq(cfg.setting[id], RS_WARNING);
    ck_assert(rules_option(&cfg, "segments-overlap"));
    ck_assert_int_eq(cfg.setting[id], RS_DEFAULT);
    ck_assert(!cfg.werror_all);
    ck_assert(rules_option(&cfg, "error"));
    ck_assert(cfg.werror_all);
    for (int i = 0; i < RULE_COUNT; i++)
        ck_assert_int_eq(cfg.setting[i], RS_DEFAULT);
}
END_TEST

/* ---- waivers ------------------------------------------------------------------- */

/* Two memory segments break cache-coherent-memory; the first waives it. */
static const char waive_one[] =
    HEAD("1.3") "segments:\n"
    "  - name: vram\n"                                             /* 4 */
    "    kind: memory\n"
    "    size: 256MiB\n"
    "    flags: [cache_coherent]\n"                                /* 7 */
    "    waive: { cache-coherent-memory: \"scan-out engine\" }\n"  /* 8 */
    "  - name: pool\n"                                             /* 9 */
    "    kind: memory\n"
    "    size: 256MiB\n"
    "    flags: [cache_coherent]\n";                               /* 12 */

START_TEST(test_waiver_one_segment)
{
    Run r;
    run(&r, waive_one, NULL);
    ck_assert_msg(r.d.count == 1, "got: %s", all(&r));
    const Diag *g = first(&r, "cache-coherent-memory");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(g->sev, SEV_WARNING);
    ck_assert_uint_eq(src_loc(g->pos).line, 12);
    ck_assert_uint_eq(src_loc(g->pos).col, 13);
    ck_assert_ptr_null(first(&r, "waiver-unused"));
    ck_assert_uint_eq(r.s->segs[0].nwaivers, 1);
    ck_assert(r.s->segs[0].waivers[0].used);
    ck_assert_str_eq(r.s->segs[0].waivers[0].rule, "cache-coherent-memory");
    ck_assert_str_eq(r.s->segs[0].waivers[0].reason, "scan-out engine");
    ck_assert_uint_eq(src_loc(r.s->segs[0].waivers[0].pos).line, 8);
    ck_assert_uint_eq(src_loc(r.s->segs[0].waivers[0].pos).col, 14);
    arena_free(r.a);
}
END_TEST

/* A waiver silences an error rule as well, and the spec then passes. */
START_TEST(test_waiver_error_rule)
{
    Run r;
    run(&r,
        HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    commit_limit: 128MiB\n"
                    "    waive: { commit-limit-memory: \"firmware caps it\" }\n",
        NULL);
    ck_assert_msg(r.d.count == 0, "got: %s", all(&r));
    ck_assert_uint_eq(r.errors, 0);
    ck_assert(r.s->segs[0].waivers[0].used);
    arena_free(r.a);
}
END_TEST

/* A waiver names one rule: another rule on the same segment still fires, and
 * the waiver, unused, is reported. */
START_TEST(test_waiver_other_rule)
{
    Run r;
    run(&r,
        HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    flags: [cache_coherent]\n"
                    "    waive: { commit-limit-memory: \"firmware caps it\" }\n",
        NULL);
    ck_assert_msg(r.d.count == 2, "got: %s", all(&r));
    const Diag *g = first(&r, "cache-coherent-memory");
    ck_assert(g && src_loc(g->pos).line == 7 && src_loc(g->pos).col == 13);
    g = first(&r, "waiver-unused");
    ck_assert(g && src_loc(g->pos).line == 8 && src_loc(g->pos).col == 14 && g->sev == SEV_WARNING);
    ck_assert_ptr_nonnull(strstr(g->msg, "'commit-limit-memory'"));
    ck_assert_ptr_nonnull(strstr(g->msg, "'vram'"));
    ck_assert(!r.s->segs[0].waivers[0].used);
    ck_assert_uint_eq(r.errors, 0);
    arena_free(r.a);
}
END_TEST

/* A pairwise finding (segments-overlap, cpu-windows-overlap: reported at
 * the later segment of the pair, naming the earlier) is waived by a waiver
 * on either segment, and every waiver it used is used; waiver-unused is
 * only for a waiver no finding used.  Segments a, b, c in that order; a
 * and b overlap, c overlaps neither unless `c_on_a` puts it over a. */
static const struct {
    const char *rule;
    const char *wa, *wb, *wc; /* the segment's waiver of the rule, or "" */
    bool c_on_a;
    unsigned findings, unused; /* reported (not waived) */
    bool used_a, used_b, used_c;
} pair_cases[] = {
    {"segments-overlap", "W", "", "", false, 0, 0, true, false, false},   /* on the earlier */
    {"segments-overlap", "", "W", "", false, 0, 0, false, true, false},   /* on the later */
    {"segments-overlap", "W", "W", "", false, 0, 0, true, true, false},   /* on both */
    {"segments-overlap", "", "", "", false, 1, 0, false, false, false},   /* on neither */
    {"segments-overlap", "", "", "W", false, 1, 1, false, false, false},  /* on a segment of no pair */
    {"segments-overlap", "W", "", "", true, 0, 0, true, false, false},    /* one waiver, two pairs */
    {"segments-overlap", "", "W", "", true, 1, 0, false, true, false},    /* c over a: b's waiver is not c's */
    {"cpu-windows-overlap", "W", "", "", false, 0, 0, true, false, false},
    {"cpu-windows-overlap", "", "W", "", false, 0, 0, false, true, false},
    {"cpu-windows-overlap", "W", "W", "", false, 0, 0, true, true, false},
    {"cpu-windows-overlap", "", "", "", false, 1, 0, false, false, false},
    {"cpu-windows-overlap", "", "", "W", false, 1, 1, false, false, false},
    {"cpu-windows-overlap", "W", "", "", true, 0, 0, true, false, false},
};

START_TEST(test_waiver_pair)
{
    bool gpu = !strcmp(pair_cases[_i].rule, "segments-overlap");
    char w[3][96], spec[1024];
    const char *on[3] = {pair_cases[_i].wa, pair_cases[_i].wb, pair_cases[_i].wc};
    for (int i = 0; i < 3; i++)
        snprintf(w[i], sizeof w[i], *on[i] ? ", waive: { %s: \"shared on purpose\" }" : "", pair_cases[_i].rule);
    /* GPU ranges: a [0, 256M), b [128M, 384M), c [1G, ...) or over a.
     * CPU windows in BAR fb: a [0, 64M), b [32M, 96M), c [128M, 144M) or
     * [0, 16M) (over a alone); the GPU ranges apart. */
    if (gpu)
        snprintf(spec, sizeof spec,
                 HEAD("1.3") "segments:\n"
                 "  - { name: a, kind: memory, base: 0, size: 256MiB%s }\n"
                 "  - { name: b, kind: memory, base: 128MiB, size: 256MiB%s }\n"
                 "  - { name: c, kind: memory, base: %s, size: 64MiB%s }\n",
                 w[0], w[1], pair_cases[_i].c_on_a ? "64MiB" : "1GiB", w[2]);
    else
        snprintf(spec, sizeof spec,
                 HEAD("1.3") FB "segments:\n"
                 "  - { name: a, kind: memory, base: 0, size: 64MiB, cpu_visible: { bar: fb, offset: 0 }%s }\n"
                 "  - { name: b, kind: memory, base: 1GiB, size: 64MiB, cpu_visible: { bar: fb, offset: 32MiB }%s }\n"
                 "  - { name: c, kind: memory, base: 2GiB, size: 16MiB, cpu_visible: { bar: fb, offset: %s }%s }\n",
                 w[0], w[1], pair_cases[_i].c_on_a ? "0" : "128MiB", w[2]);
    Run r;
    run(&r, spec, NULL);
    ck_assert_msg(count(&r, pair_cases[_i].rule) == pair_cases[_i].findings &&
                      count(&r, "waiver-unused") == pair_cases[_i].unused &&
                      r.d.count == pair_cases[_i].findings + pair_cases[_i].unused,
                  "case %d: got: %s\n%s", _i, all(&r), spec);
    bool used[3] = {pair_cases[_i].used_a, pair_cases[_i].used_b, pair_cases[_i].used_c};
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(r.s->segs[i].nwaivers, *on[i] ? 1 : 0);
        if (*on[i])
            ck_assert_msg(r.s->segs[i].waivers[0].used == used[i], "case %d: segment %d's waiver", _i, i);
    }
    /* The waived findings are kept (SARIF shows them suppressed), at the later segment. */
    unsigned waived = 0;
    for (const Diag *g = r.d.waived; g; g = g->next)
        waived += !strcmp(code_name(g->code), pair_cases[_i].rule);
    ck_assert_uint_eq(waived + pair_cases[_i].findings, pair_cases[_i].c_on_a ? 2 : 1);
    arena_free(r.a);
}
END_TEST

/* -W settings and waivers together. */
static const struct {
    const char *arg;
    unsigned unused; /* waiver-unused reports for a waiver that is not needed */
    Severity unused_sev;
} waive_wopt_cases[] = {
    /* -Werror promotes waiver-unused, a warning, too */
    {"error", 1, SEV_ERROR},
    {"no-waiver-unused", 0, SEV_WARNING},
    {"error=waiver-unused", 1, SEV_ERROR},
    /* a rule switched off for the run still applies to the segment: its
     * waiver is not "unused" (the next run without -Wno- needs it) */
    {"no-cache-coherent-memory", 1, SEV_WARNING},
    /* a waiver beats -Werror=rule */
    {"error=cache-coherent-memory", 1, SEV_WARNING},
};

START_TEST(test_waiver_wopts)
{
    static const char unused[] = HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
                                             "    waive: { cache-coherent-memory: \"scan-out\" }\n";
    static const char used[] = HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n"
                                           "    flags: [cache_coherent]\n"
                                           "    waive: { cache-coherent-memory: \"scan-out\" }\n";
    RuleConfig cfg;
    rules_default(&cfg);
    ck_assert(rules_option(&cfg, waive_wopt_cases[_i].arg));
    Run r;
    /* The waiver that is needed stays quiet under every option. */
    run(&r, used, &cfg);
    ck_assert_msg(r.d.count == 0, "-W%s, used waiver: %s", waive_wopt_cases[_i].arg, all(&r));
    arena_free(r.a);
    /* The unneeded one is reported unless waiver-unused is off. */
    run(&r, unused, &cfg);
    ck_assert_uint_eq(count(&r, "waiver-unused"), waive_wopt_cases[_i].unused);
    ck_assert_uint_eq(r.d.count, waive_wopt_cases[_i].unused);
    if (waive_wopt_cases[_i].unused) {
        ck_assert_int_eq(first(&r, "waiver-unused")->sev, waive_wopt_cases[_i].unused_sev);
        ck_assert_uint_eq(r.errors, waive_wopt_cases[_i].unused_sev == SEV_ERROR);
    }
    arena_free(r.a);
}
END_TEST

/* Each waiver is judged on its own: of two on one segment, the used one is
 * quiet and the other reported, in the order written. */
START_TEST(test_waiver_two)
{
    Run r;
    run(&r,
        HEAD("1.3") "segments:\n  - name: vram\n    kind: memory\n    size: 256MiB\n    flags: [cache_coherent]\n"
                    "    waive:\n      commit-limit-memory: \"none here\"\n      cache-coherent-memory: \"scan-out\"\n"
                    "      segments-overlap: \"never\"\n",
        NULL);
    ck_assert_msg(r.d.count == 2, "got: %s", all(&r));
    const Diag *g = r.d.head;
    ck_assert_str_eq(code_name(g->code), "waiver-unused");
    ck_assert(src_loc(g->pos).line == 9 && src_loc(g->pos).col == 7);
    ck_assert_ptr_nonnull(strstr(g->msg, "'commit-limit-memory'"));
    g = g->next;
    ck_assert_str_eq(code_name(g->code), "waiver-unused");
    ck_assert(src_loc(g->pos).line == 11 && src_loc(g->pos).col == 7);
    ck_assert_ptr_nonnull(strstr(g->msg, "'segments-overlap'"));
    ck_assert_uint_eq(r.s->segs[0].nwaivers, 3);
    ck_assert(!r.s->segs[0].waivers[0].used && r.s->segs[0].waivers[1].used && !r.s->segs[0].waivers[2].used);
    arena_free(r.a);
}
END_TEST

/* The WDDM 2.0 gate of the allocation rules: one class that prefers a
 * segment outside its read set, at each version.  Before 2.0 VidMm reads
 * the read set, so the preference must be in it (an error) and a read set
 * that differs from the write set means something; from 2.0 only the write
 * set counts, so the preference is fine and the differing read set is what
 * says nothing (a warning). */
#define READ_GATE(w) HEAD(w) "segments:\n" VRAM GART ALLOC "    prefer: [vram]\n    write: [vram, gart]\n    read: [gart]\n"
static const struct {
    const char *spec;
    unsigned preference_supported, read_set_ignored;
} read_gate[] = {
    {READ_GATE("1.0"), 1, 0},
    {READ_GATE("1.3"), 1, 0},
    {READ_GATE("2.0"), 0, 1},
    {READ_GATE("3.0"), 0, 1},
};

START_TEST(test_alloc_read_gate)
{
    Run r;
    run(&r, read_gate[_i].spec, NULL);
    ck_assert_msg(count(&r, "alloc-preference-supported") == read_gate[_i].preference_supported,
                  "case %d: [alloc-preference-supported] %u times: %s", _i, count(&r, "alloc-preference-supported"),
                  all(&r));
    ck_assert_msg(count(&r, "alloc-read-set-ignored") == read_gate[_i].read_set_ignored,
                  "case %d: [alloc-read-set-ignored] %u times: %s", _i, count(&r, "alloc-read-set-ignored"), all(&r));
    ck_assert_msg(r.d.count == read_gate[_i].preference_supported + read_gate[_i].read_set_ignored,
                  "case %d: other findings: %s", _i, all(&r));
    arena_free(r.a);
}
END_TEST

Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("rules");
    tcase_add_loop_test(tc, test_rule_fires, 0, (int)countof(rule_cases));
    tcase_add_loop_test(tc, test_rule_quiet, 0, (int)countof(rule_cases));
    tcase_add_test(tc, test_every_rule_has_a_case);
    tcase_add_loop_test(tc, test_alloc_read_gate, 0, (int)countof(read_gate));
    tcase_add_test(tc, test_one_report_per_fault);
    tcase_add_test(tc, test_prerequisites);
    tcase_add_test(tc, test_prerequisite_per_segment);
    tcase_add_test(tc, test_generated_names_odd_board);
    tcase_add_test(tc, test_board_name_length);
    /* An abort can only be caught in a forked test: the single-process
     * run under valgrind (CK_FORK=no) leaves this one to the normal run. */
    const char *fork = getenv("CK_FORK");
    if (!fork || strcmp(fork, "no"))
        tcase_add_test_raise_signal(tc, test_rule_finding_needs_position, SIGABRT);
    suite_add_tcase(s, tc);
    tc = tcase_create("options");
    tcase_add_loop_test(tc, test_wopts, 0, (int)countof(wopt_cases));
    tcase_add_loop_test(tc, test_wopt_unknown, 0, (int)countof(bad_wopts));
    tcase_add_test(tc, test_wopt_settings);
    tcase_add_test(tc, test_wopt_invariant);
    suite_add_tcase(s, tc);
    tc = tcase_create("waivers");
    tcase_add_test(tc, test_waiver_one_segment);
    tcase_add_test(tc, test_waiver_error_rule);
    tcase_add_test(tc, test_waiver_other_rule);
    tcase_add_loop_test(tc, test_waiver_pair, 0, countof(pair_cases));
    tcase_add_loop_test(tc, test_waiver_wopts, 0, (int)countof(waive_wopt_cases));
    tcase_add_test(tc, test_waiver_two);
    suite_add_tcase(s, tc);
    return s;
}
