/* SPDX-License-Identifier: MIT */
/* check_emit.c - the emitters refuse a Spec that breaks an invariant.
 *
 * A valid spec is checked, then corrupted by hand the way a rule that
 * slipped would leave it; emit_render must then write nothing and report a
 * fatal internal error naming the invariant.  The uncorrupted spec renders. */
#include "segc.h"

#include <check.h>
#include <string.h>

static const char spec_text[] =
    "segc: 1\n"
    "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
    "bars:\n"
    "  fb: { index: 0, size: 256MiB }\n"
    "segments:\n"
    "  - name: a\n"
    "    kind: memory\n"
    "    size: 0x3000\n"
    "    cpu_visible: { bar: fb }\n"
    "    banks: [ { name: lo, size: 0x1000 }, { name: hi } ]\n"
    "  - { name: g, kind: aperture, base: 0x10000, size: 0x1000 }\n"
    "  - { name: agp, kind: agp }\n";

static void many_banks(Spec *s, Arena *a)
{
    Segment *g = &s->segs[0];
    g->nbanks = MAX_BANKS + 1;
    g->banks = arena_alloc(a, g->nbanks * sizeof *g->banks);
    for (unsigned i = 0; i < g->nbanks; i++)
        g->banks[i] = (Bank){arena_printf(a, "b%u", i), g->pos, {0x1000, g->pos, true, NULL, false}, i * 0x1000ull,
                             (i + 1) * 0x1000ull};
    g->size.v = g->nbanks * 0x1000ull;
}
static void wrap(Spec *s, Arena *a) { (void)a; s->segs[1].base.v = 0xFFFFFFFFFFFFF000ull; s->segs[1].size.v = 0x2000; }
static void bank_short(Spec *s, Arena *a) { (void)a; s->segs[0].banks[1].end = 0x2000; }
static void bank_gap(Spec *s, Arena *a) { (void)a; s->segs[0].banks[1].start = 0x1800; }
static void wddm2_flag(Spec *s, Arena *a) { (void)a; s->segs[1].flags |= FLAG_use_64kb_pages; }
static void x86_size(Spec *s, Arena *a) { (void)a; s->ptr_bytes = 4; s->segs[1].size.v = 0x100000000ull; }
static void paging_uint(Spec *s, Arena *a) { (void)a; s->paging.buffer_size.v = 0x100000000ull; }
static void agp_flag(Spec *s, Arena *a) { (void)a; s->segs[2].flags |= FLAG_cpu_visible; }
static void agp_first(Spec *s, Arena *a) { (void)a; Segment t = s->segs[1]; s->segs[1] = s->segs[2]; s->segs[2] = t; s->segs[1].id = 2; s->segs[2].id = 3; }
static void too_many(Spec *s, Arena *a)
{
    Segment *segs = arena_alloc(a, (MAX_SEGMENTS + 1) * sizeof *segs);
    for (unsigned i = 0; i < MAX_SEGMENTS + 1; i++) {
        segs[i] = s->segs[1];
        segs[i].id = i + 1;
        segs[i].name = arena_printf(a, "g%u", i);
        segs[i].base.v = i * 0x1000ull;
    }
    s->segs = segs;
    s->nsegs = MAX_SEGMENTS + 1;
}
static void no_segment(Spec *s, Arena *a) { (void)a; s->nsegs = 0; }
static void zero_size(Spec *s, Arena *a) { (void)a; s->segs[1].size.v = 0; }
static void clash(Spec *s, Arena *a) { (void)a; s->segs[1].name = "A"; }
static void clash_count(Spec *s, Arena *a) { (void)a; s->segs[1].name = "count"; }
static void bad_ident(Spec *s, Arena *a) { (void)a; s->segs[1].name = "9g"; }
static void host_and_cpu(Spec *s, Arena *a) { (void)a; s->wddm = 0x20; s->forms = DDI_QS4; s->segs[0].flags |= FLAG_supports_cpu_host_aperture; }
static void ranges_uint(Spec *s, Arena *a) { (void)a; s->segs[1].invalid_ranges.v = 0x100000000ull; }
static void uefi_uint(Spec *s, Arena *a) { (void)a; s->segs[1].uefi_ranges.v = 0x100000000ull; }
static void page_small(Spec *s, Arena *a) { (void)a; s->page_size.v = 2048; }
static void page_odd(Spec *s, Arena *a) { (void)a; s->page_size.v = 0x3000; }
static void private_uint(Spec *s, Arena *a) { (void)a; s->paging.private_data_size.v = 0x100000000ull; }
static void size_unaligned(Spec *s, Arena *a) { (void)a; s->segs[1].size.v = 0x1800; }
static void id_skipped(Spec *s, Arena *a) { (void)a; s->segs[1].id = 3; }
static void agp_banked(Spec *s, Arena *a) { (void)a; s->segs[2].nbanks = 1; s->segs[2].banks = s->segs[0].banks; }
static void x86_commit(Spec *s, Arena *a) { (void)a; s->ptr_bytes = 4; s->segs[1].commit_limit.v = 0x100000000ull; }
static void x86_sysend(Spec *s, Arena *a) { (void)a; s->ptr_bytes = 4; s->segs[1].system_memory_end.v = 0x100000000ull; }
static void host_pages(Spec *s, Arena *a) { (void)a; s->segs[1].host.size.v = 0x1000ull << 32; }
static void vpr_start(Spec *s, Arena *a) { (void)a; s->segs[1].vpr.range_start.v = 0x2000; }
static void vpr_size(Spec *s, Arena *a) { (void)a; s->segs[1].vpr.range_start.v = 0x800; s->segs[1].vpr.range_size.v = 0x1000; }
static void vpr_align(Spec *s, Arena *a) { (void)a; s->segs[1].vpr.alignment.v = 0x100000000ull; }
static void vpr_count(Spec *s, Arena *a) { (void)a; s->segs[1].vpr.count.v = 0x100000000ull; }
static void vpr_reserve(Spec *s, Arena *a) { (void)a; s->segs[1].vpr.reserve_size.v = 0x100000000ull; }
static void bank_empty(Spec *s, Arena *a) { (void)a; s->segs[0].banks[0].end = 0; s->segs[0].banks[1].start = 0; }
static void bank_x86(Spec *s, Arena *a) { (void)a; s->ptr_bytes = 4; s->segs[0].size.v = 0x3000; s->segs[0].banks[1].end = 0x100000000ull; }
static void bank_past_end(Spec *s, Arena *a) { (void)a; s->segs[0].banks[1].end = 0x4000; }

static const struct {
    void (*corrupt)(Spec *, Arena *);
    const char *invariant;
} cases[] = {
    {many_banks, "banks-max"},
    {wrap, "range-overflow"},
    {bank_short, "banks-cover"},
    {bank_gap, "banks-cover"},
    {wddm2_flag, "flag-wddm-version"},
    {x86_size, "size-fits-size-t"},
    {paging_uint, "paging-size-uint"},
    {agp_flag, "agp-exclusive"},
    {agp_first, "agp-last"},
    {too_many, "segments-max"},
    {no_segment, "segments-none"},
    {zero_size, "size-nonzero"},
    {clash, "[names-generated-unique] does not hold for segment 'A' (segment 'a' and segment 'A'"},
    {clash_count, "[names-generated-unique] does not hold for segment 'count' (the segment count and segment 'count'"},
    {bad_ident, "names-c-ident"},
    {host_and_cpu, "host-aperture-cpu-visible"},
    {ranges_uint, "[field-width] does not hold for segment 'g' (invalid_memory_ranges of segment 'g' (0x100000000 (4 GiB)) does not fit NumInvalidMemoryRanges"},
    {uefi_uint, "[field-width] does not hold for segment 'g' (uefi_frame_buffer_ranges of segment 'g' (0x100000000 (4 GiB)) does not fit NumUEFIFrameBufferRanges"},
    {page_small, "page-size-valid"},
    {page_odd, "page-size-valid"},
    {private_uint, "paging-size-uint"},
    {size_unaligned, "size-page-multiple"},
    {id_skipped, "segment 'g' at position 2 has id 3"},
    {agp_banked, "agp-exclusive"},
    {x86_commit, "size-fits-size-t"},
    {x86_sysend, "size-fits-size-t"},
    {host_pages, "cpu-host-aperture-size"},
    {vpr_start, "vpr-range-inside"},
    {vpr_size, "vpr-range-inside"},
    {vpr_align, "vpr-range-inside"},
    {vpr_count, "vpr-range-inside"},
    {vpr_reserve, "vpr-range-inside"},
    {bank_empty, "banks-cover"},
    {bank_x86, "banks-cover"},
    {bank_past_end, "banks-cover"},
};

static Spec *valid(Arena *a, Diags *d)
{
    diags_init(d, a);
    Spec *s = spec_from_string(a, "t.yaml", spec_text, NULL, d);
    ck_assert_msg(s != NULL, "spec does not resolve: %s", d->head ? d->head->msg : "?");
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, d);
    ck_assert_msg(d->count == 0, "spec is not clean: %s", d->head ? d->head->msg : "?");
    return s;
}

START_TEST(test_valid_renders)
{
    Arena *a = arena_new();
    Diags d;
    Spec *s = valid(a, &d);
    Outputs out;
    Lookup lk;
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    layout_lookup(a, s, 0, &lk);
    ck_assert(emit_render(a, s, &bo, &lk, &out, &d));
    ck_assert_uint_eq(out.n, 4);
    ck_assert_uint_eq(d.count, 0);
    outputs_free(&out);
    arena_free(a);
}
END_TEST

START_TEST(test_corrupt_refused)
{
    Arena *a = arena_new();
    Diags d;
    Spec *s = valid(a, &d);
    cases[_i].corrupt(s, a);
    Outputs out;
    Lookup lk;
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    memset(&lk, 0, sizeof lk); /* a corrupt spec is never laid out */
    ck_assert_msg(!emit_render(a, s, &bo, &lk, &out, &d), "case %d (%s): rendered", _i, cases[_i].invariant);
    ck_assert_uint_eq(out.n, 0);
    ck_assert_uint_eq(d.nfatal, 1);
    ck_assert_str_eq(code_name(d.head->code), "internal");
    ck_assert_msg(strstr(d.head->msg, cases[_i].invariant), "case %d: \"%s\" does not name %s", _i, d.head->msg,
                  cases[_i].invariant);
    arena_free(a);
}
END_TEST

/* ---- the BAR register count at 4 GiB ----------------------------------------- */

/* A BAR above 4 GiB is 64-bit unless `bits:` says otherwise, and a 64-bit
 * BAR takes two PCI registers: the same count for bar-index and for the
 * header's _REGISTERS (bar_regs).  At exactly 4 GiB a BAR is 32-bit, so
 * `size > 4 GiB` turned into `>=` anywhere fails a case here. */
static const struct {
    const char *bar;   /* the BAR's map */
    const char *codes; /* what check reports, as "code code", or "" */
    unsigned regs;     /* registers the BAR takes (the model's, and the header's when it builds) */
} bar_cases[] = {
    {"{ index: 5, size: 4GiB - 4KiB }", "bar-size", 1},
    {"{ index: 5, size: 4GiB }", "", 1},
    {"{ index: 4, size: 4GiB }", "", 1},
    {"{ index: 5, size: 4GiB, bits: 32 }", "", 1},
    {"{ index: 4, size: 4GiB, bits: 64 }", "", 2},
    {"{ index: 5, size: 4GiB, bits: 64 }", "bar-index", 2},
    {"{ index: 4, size: 8GiB }", "", 2},
    {"{ index: 5, size: 8GiB }", "bar-index", 2},
    {"{ index: 4, size: 4GiB + 4KiB }", "bar-size", 2},
    {"{ index: 0, size: 8GiB, bits: 32 }", "bar-size", 1},
    /* index + registers would wrap past 2^64 */
    {"{ index: 0xFFFF_FFFF_FFFF_FFFF, size: 256MiB }", "bar-index", 1},
    {"{ index: 0xFFFF_FFFF_FFFF_FFFF, size: 8GiB }", "bar-index", 2},
};

START_TEST(test_bar_registers)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const char *text = arena_printf(a, "segc: 1\nboard: { name: b, wddm: \"1.3\" }\nbars:\n  fb: %s\nsegments:\n"
                                       "  - { name: vram, kind: memory, size: 256MiB, cpu_visible: { bar: fb } }\n",
                                    bar_cases[_i].bar);
    Spec *s = spec_from_string(a, "t.yaml", text, NULL, &d);
    ck_assert_msg(s && d.count == 0, "case %d does not resolve", _i);
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, &d);
    diags_sort(&d);
    Buf got = {0};
    buf_puts(&got, "");
    for (const Diag *g = d.head; g; g = g->next)
        buf_printf(&got, "%s%s", g == d.head ? "" : " ", code_name(g->code));
    ck_assert_msg(!strcmp(got.p, bar_cases[_i].codes), "case %d (%s): got '%s', want '%s'", _i, bar_cases[_i].bar,
                  got.p, bar_cases[_i].codes);
    buf_free(&got);
    ck_assert_uint_eq(bar_regs(&s->bars[0]), bar_cases[_i].regs);
    if (!d.count) {
        Outputs out;
        Lookup lk;
        BuildOpts bo = {.outdir = "out"};
        layout_lookup(a, s, 0, &lk);
        ck_assert(emit_render(a, s, &bo, &lk, &out, &d));
        const char *want = arena_printf(a, "#define B_BAR_FB_REGISTERS %uu", bar_cases[_i].regs);
        ck_assert_msg(strstr(out.files[0].text.p, want), "case %d: the header lacks '%s'", _i, want);
        outputs_free(&out);
    }
    arena_free(a);
}
END_TEST

Suite *emit_suite(void)
{
    Suite *s = suite_create("emit");
    TCase *tc = tcase_create("preconditions");
    tcase_add_test(tc, test_valid_renders);
    tcase_add_loop_test(tc, test_corrupt_refused, 0, (int)countof(cases));
    suite_add_tcase(s, tc);
    tc = tcase_create("bar registers");
    tcase_add_loop_test(tc, test_bar_registers, 0, (int)countof(bar_cases));
    suite_add_tcase(s, tc);
    return s;
}
