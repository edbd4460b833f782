/* SPDX-License-Identifier: MIT */
/* check_emit.c - the writer, the hook files, the names the outputs
 * define, and the emitters refusing a Spec that breaks an invariant.
 *
 * A valid spec is checked, then corrupted by hand the way a rule that
 * slipped would leave it; emit_render must then write nothing and report a
 * fatal internal error naming the invariant.  The uncorrupted spec renders. */
#include "emit_int.h"
#include "fixture.h"
#include "frags.h"
#include "tools/cdefs.h"

#include <check.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
/* A key written that a form the build answers has no member for (key-not-emitted's check). */
static void sysend_qs(Spec *s, Arena *a) { (void)a; s->forms = DDI_QS | DDI_QS3; s->segs[0].system_memory_end.set = true; }
static void agp_commit(Spec *s, Arena *a) { (void)a; s->segs[2].commit_limit.set = true; }
static void banks_qs4(Spec *s, Arena *a) { (void)a; s->forms = DDI_QS3 | DDI_QS4; s->nsegs = 2; }
static void flag_qs3(Spec *s, Arena *a) { (void)a; s->wddm = 0x20; s->forms = DDI_QS3; s->segs[1].flags |= FLAG_local_budget_group; s->segs[1].flags_written |= FLAG_local_budget_group; }

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
    {clash, "[names-generated-unique] does not hold for B_SEGMENT_A"},
    {clash_count, "[names-generated-unique] does not hold for B_SEGMENT_COUNT"},
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
    {sysend_qs, "ddi-qs-system-memory-end"},
    {agp_commit, "key-not-emitted"},
    {banks_qs4, "ddi-qs4-banks"},
    {flag_qs3, "ddi-qs3-flag"},
};

static Spec *valid(Arena *a, Diags *d)
{
    diags_init(d, a);
    Spec *s = spec_from_string(a, "t.yaml", spec_text, NULL, d);
    ck_assert_msg(s != NULL, "spec does not resolve: %s", d->head ? d->head->msg : "?");
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, d, NULL);
    ck_assert_msg(d->count == 0, "spec is not clean: %s", d->head ? d->head->msg : "?");
    return s;
}

START_TEST(test_valid_renders)
{
    Spec *s = valid(A, &D);
    Outputs out = {0};
    Lookup lk;
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    ck_assert(emit_render(A, s, &bo, &lk, &out, &D));
    ck_assert_uint_eq(out.n, 4);
    ck_assert_uint_eq(D.count, 0);
    outputs_free(&out);
}
END_TEST

/* A WDDM 2.0 flag set on a segment of a QUERYSEGMENT3 answer but not
 * written in flags: (so that no check, and no re-check, sees it): the
 * descriptor's own guard stops the emitter (an internal error, abort). */
START_TEST(test_flag_form_guard)
{
    Spec *s = valid(A, &D);
    s->wddm = 0x20;
    s->forms = DDI_QS3;
    s->segs[1].flags |= FLAG_local_budget_group;
    Outputs out = {0};
    Lookup lk;
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    emit_render(A, s, &bo, &lk, &out, &D);
}
END_TEST

START_TEST(test_corrupt_refused)
{
    Spec *s = valid(A, &D);
    cases[_i].corrupt(s, A);
    Outputs out = {0};
    Lookup lk;
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    memset(&lk, 0, sizeof lk); /* a corrupt spec is never laid out */
    ck_assert_msg(!emit_render(A, s, &bo, &lk, &out, &D), "case %d (%s): rendered", _i, cases[_i].invariant);
    ck_assert_uint_eq(out.n, 0);
    ck_assert_uint_eq(D.nfatal, 1);
    ck_assert_str_eq(code_name(D.head->code), "internal");
    ck_assert_msg(strstr(D.head->msg, cases[_i].invariant), "case %d: \"%s\" does not name %s", _i, D.head->msg,
                  cases[_i].invariant);
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
    const char *text = arena_printf(A, "segc: 1\nboard: { name: b, wddm: \"1.3\" }\nbars:\n  fb: %s\nsegments:\n"
                                       "  - { name: vram, kind: memory, size: 256MiB, cpu_visible: { bar: fb } }\n",
                                    bar_cases[_i].bar);
    Spec *s = spec_from_string(A, "t.yaml", text, NULL, &D);
    ck_assert_msg(s && D.count == 0, "case %d does not resolve", _i);
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, &D, NULL);
    diags_sort(&D);
    Buf got = {0};
    buf_puts(&got, "");
    for (const Diag *g = D.head; g; g = g->next)
        buf_printf(&got, "%s%s", g == D.head ? "" : " ", code_name(g->code));
    ck_assert_msg(!strcmp(got.p, bar_cases[_i].codes), "case %d (%s): got '%s', want '%s'", _i, bar_cases[_i].bar,
                  got.p, bar_cases[_i].codes);
    buf_free(&got);
    ck_assert_uint_eq(bar_regs(&s->bars[0]), bar_cases[_i].regs);
    if (!D.count) {
        Outputs out = {0};
        Lookup lk;
        BuildOpts bo = {.outdir = "out"};
        ck_assert(emit_render(A, s, &bo, &lk, &out, &D));
        const char *want = arena_printf(A, "#define B_BAR_FB_REGISTERS %uu", bar_cases[_i].regs);
        ck_assert_msg(strstr(out.files[0].text.p, want), "case %d: the header lacks '%s'", _i, want);
        outputs_free(&out);
    }
}
END_TEST

/* ---- the writer ------------------------------------------------------------- */

static Arena *wa;
static Emit w;
static Buf outbuf;

static void writer_setup(void)
{
    wa = arena_new();
    w = (Emit){.a = wa, .out = &outbuf, .file = "t.h"};
    outbuf.len = 0;
}

static void writer_teardown(void)
{
    buf_free(&outbuf);
    buf_free(&w.str);
    buf_free(&w.scratch);
    free(w.defs);
    arena_free(wa);
}

static const char *written(void)
{
    const char *t = arena_strndup(wa, outbuf.p ? outbuf.p : "", outbuf.len);
    outbuf.len = 0;
    return t;
}

/* Each conversion, through the fragments that use it. */
START_TEST(test_conversions)
{
    Name up = {"B", NAME_BOARD, 0, 1}, seg = {"LOCAL", NAME_SEGMENT, 0, 5};
    c_set(&w, "pDesc->", "Size", 0x1000, "4KiB: a */ b /* c");
    ck_assert_str_eq(written(), "    pDesc->Size = 0x1000u; /* 4KiB: a * / b / * c */\n");
    c_set(&w, "pDesc->", "CommitLimit", 0, "not set");
    ck_assert_str_eq(written(), "    pDesc->CommitLimit = 0; /* not set */\n");
    c_set_count(&w, "pDesc->", "NumVprSupported", 0, "x");
    ck_assert_str_eq(written(), "    pDesc->NumVprSupported = 0u; /* x */\n");
    c_set_count(&w, "d.", "Size", UINT64_MAX, "twenty digits");
    ck_assert_str_eq(written(), "    d.Size = 18446744073709551615u; /* twenty digits */\n");
    c_set_quad(&w, "pDesc->", "BaseAddress", 0x8000000000000000ull, "");
    ck_assert_str_eq(written(), "    pDesc->BaseAddress.QuadPart = (LONGLONG)0x8000000000000000ULL; /*  */\n");
    c_set_quad(&w, "d.", "BaseAddress", 0x7FFFFFFFFFFFFFFFull, "");
    ck_assert_str_eq(written(), "    d.BaseAddress.QuadPart = 0x7FFFFFFFFFFFFFFF; /*  */\n");
    c_set_quad(&w, "d.", "BaseAddress", 0, "");
    ck_assert_str_eq(written(), "    d.BaseAddress.QuadPart = 0; /*  */\n");
    h_segment_id(&w, &up, &seg, 2);
    ck_assert_str_eq(written(), "#define B_SEGMENT_LOCAL                    2u\n");
    c_flags_row_end(&w, 1, "a", 0x10);
    ck_assert_str_eq(written(), " }, /* 1 a: 0x00000010 */\n");
    t_test_bar(&w, &seg, 0x3C0000000000ull, "fb", 0);
    ck_assert_str_eq(written(), "#define TEST_BAR_LOCAL                    0x00003C0000000000ull /* BAR 'fb', slot 0 */\n");
    c_row_entry(&w, 0x81);
    ck_assert_str_eq(written(), "0x081,");
    t_bank_probe(&w, 1, 0, 0, "a \"b\"\\ ?" "?= \xc3\xa9\t\n");
    ck_assert_str_eq(written(), "    { 1u, 0x0ull, 0u, \"a \\\"b\\\"\\\\ ?\\?= \\303\\251\\t\\n\" },\n");
    hook(&w, "#include \"x.h\"");
    ck_assert_str_eq(written(), "#include \"x.h\"\n");
    Pos at = src_pos(src_from_string(wa, "dir/board.yaml", "1\n2\n3\n4\n5\n6\nx\n", 14), 7, 1, 1);
    c_segment(&w, 1, "a", "memory", at);
    ck_assert_str_eq(written(), "\n    /* Segment 1 'a': memory */\n");
    w.annotate = true;
    c_segment(&w, 1, "a", "memory", at);
    ck_assert_str_eq(written(), "\n    /* Segment 1 'a': memory [board.yaml:7] */\n");
}
END_TEST

/* The identifiers a fragment defines are recorded, built from its
 * arguments, with the most particular name they come from; also when no
 * text is written. */
START_TEST(test_definitions)
{
    Name up = {"B", NAME_BOARD, 0, 1}, camel = {"B", NAME_BOARD, 0, 1}, seg = {"LOCAL", NAME_SEGMENT, 2, 5},
         seg_camel = {"Local", NAME_SEGMENT, 2, 5};
    h_segment_id(&w, &up, &seg, 3);
    c_level_array(&w, "UINT8", &camel, 2, 16);
    w.out = NULL;
    c_banks(&w, "local", &camel, &seg_camel, 4);
    ck_assert_str_eq(written(), "#define B_SEGMENT_LOCAL                    3u\n"
                                ". */\nstatic const UINT8 BLevel2[16] = {\n");
    ck_assert_uint_eq(w.ndefs, 3);
    ck_assert_int_eq((int)w.defs[0].len, 15);
    ck_assert(!memcmp(w.defs[0].ident, "B_SEGMENT_LOCAL", 15));
    ck_assert_ptr_eq(w.defs[0].on, &seg);
    ck_assert(!memcmp(w.defs[1].ident, "BLevel2", 7));
    ck_assert_ptr_eq(w.defs[1].on, &camel);
    ck_assert(!memcmp(w.defs[2].ident, "BBanksLocal", 11));
    ck_assert_ptr_eq(w.defs[2].on, &seg_camel);
    ck_assert_str_eq(emit_str(&w, desc_at(&w, 4)), "");
    w.out = &outbuf;
    ck_assert_str_eq(emit_str(&w, desc_at(&w, 4)), "pDesc[4].");
    ck_assert_uint_eq(outbuf.len, 0);
}
END_TEST

/* ---- the names the outputs define ------------------------------------------ */

static void add_name(void *ctx, int from, int to)
{
    void **c = ctx;
    const CUnit *u = c[0];
    Buf *names = c[1];
    for (int i = from; i < to; i++)
        buf_putc(names, (char)u[i].c);
    buf_putc(names, '\n');
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The lines of `b`, sorted, without repeats, joined again. */
static const char *sorted_set(Arena *a, const char *text_)
{
    char *t = arena_strdup(a, text_), *lines[4096];
    size_t n = 0;
    for (char *l = strtok(t, "\n"); l && n < countof(lines); l = strtok(NULL, "\n"))
        lines[n++] = l;
    qsort(lines, n, sizeof *lines, cmp_str);
    Buf out = {0};
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(lines[i], lines[i - 1]))
            buf_printf(&out, "%s\n", lines[i]);
    const char *r = arena_strdup(a, out.p ? out.p : "");
    buf_free(&out);
    return r;
}

static const char *const name_specs[] = {
    "samples/discrete.yaml", "samples/agp.yaml", "samples/wddm2.yaml", "samples/integrated.yaml",
    "samples/discrete_16g.yaml", "samples/paravirtual.yaml", "tests/gen/lookup/overlap.yaml",
};

/* What the names check compares (emit_defs: found in the fragments when
 * segc was built) is every identifier the files written define, found in
 * their text by the same reading of C: the fragments read in their order
 * stand for what is written. */
START_TEST(test_names_are_what_is_written)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    ResolveOpts ro = {0};
    ro.ddi_forms = _i >= (int)countof(name_specs) ? DDI_QS | DDI_QS3 | DDI_QS4 : 0;
    const char *path = name_specs[_i % countof(name_specs)];
    Spec *s = spec_load(a, path, &ro, &d);
    ck_assert_msg(s != NULL, "%s does not load", path);
    RuleConfig rc;
    rules_default(&rc);
    if (ro.ddi_forms)
        rules_option(&rc, "no-ddi-form-version");
    spec_check(s, &rc, &d, NULL);
    if (diags_failed(&d)) { /* --ddi with every form: not every spec can */
        ck_assert_msg(ro.ddi_forms, "%s: %s", path, d.head ? d.head->msg : "?");
        arena_free(a);
        return;
    }
    Lookup lk;
    Outputs out = {0};
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    ck_assert(emit_render(a, s, &bo, &lk, &out, &d));
    Buf scanned = {0};
    for (unsigned f = 0; f < out.n; f++) {
        const Buf *t = &out.files[f].text;
        CUnit *u = malloc((t->len + 1) * sizeof *u);
        for (size_t i = 0; i < t->len; i++)
            u[i] = (CUnit){(unsigned char)t->p[i], 0};
        void *ctx[] = {u, &scanned};
        cdefs_scan(u, (int)t->len, add_name, ctx);
        free(u);
    }
    unsigned n;
    const GenDef *defs = emit_defs(a, s, &n);
    Buf recorded = {0};
    for (unsigned i = 0; i < n; i++)
        buf_printf(&recorded, "%.*s\n", (int)defs[i].len, defs[i].ident);
    ck_assert_uint_gt(n, 200);
    ck_assert_str_eq(sorted_set(a, recorded.p), sorted_set(a, scanned.p));
    buf_free(&scanned);
    buf_free(&recorded);
    outputs_free(&out);
    arena_free(a);
}
END_TEST

/* emit_name_clashes finds what comparing each identifier emit_defs lists
 * with the first one before it of the same text finds, in that order,
 * though it records no name of segc_dxgk.h (it looks them up in a table
 * made when segc was built): fails when a clash with segc_dxgk.h is lost,
 * doubled or reported out of its order. */
static const char *const clash_specs[] = {
    "tests/cases/rules/names-generated-unique.yaml", "tests/cases/rules/names-generated-unique-board.yaml",
    "tests/cases/rules/names-generated-unique-dxgk.yaml", "tests/cases/rules/names-generated-unique-quiet.yaml",
    "samples/discrete.yaml", "samples/agp.yaml",
    /* three names of segc_dxgk.h, the first two in the other order there */
    "segc: 1\nboard: { name: dxgk, wddm: \"1.3\" }\nsegments:\n  - { name: id_systemmemory, kind: memory, size: 256MiB }\n"
    "  - { name: id_invalid, kind: memory, size: 256MiB }\n  - { name: set_systemmemory, kind: aperture, size: 256MiB }\n",
};

static const char *clash_name(const Spec *s, const Name *n)
{
    return n->kind == NAME_BAR ? s->bars[n->index].name : n->kind == NAME_SEGMENT ? s->segs[n->index].name
                                                        : s->classes[n->index].name;
}

START_TEST(test_clashes_as_compared)
{
    const char *spec = clash_specs[_i];
    Spec *s = strncmp(spec, "segc:", 5) ? spec_load(A, spec, &(ResolveOpts){0}, &D)
                                        : spec_from_string(A, "t.yaml", spec, NULL, &D);
    ck_assert_msg(s != NULL, "case %d does not resolve", _i);
    unsigned n, nd, want = 0;
    const NameClash *k = emit_name_clashes(A, s, NULL, &n);
    const GenDef *d = emit_defs(A, s, &nd);
    NameClash *ref = arena_alloc(A, (nd + 1) * sizeof *ref);
    for (unsigned i = 0; i < nd; i++) {
        const GenDef *x = &d[i], *y = NULL;
        for (unsigned j = 0; j < i && !y; j++)
            y = d[j].len == x->len && !memcmp(d[j].ident, x->ident, x->len) ? &d[j] : NULL;
        if (!y || (!x->on && !y->on) ||
            (x->on && y->on && x->on->kind == y->on->kind && x->on->index != y->on->index &&
             x->on->kind != NAME_BOARD && !strcmp(clash_name(s, x->on), clash_name(s, y->on))))
            continue;
        NameClash c = {arena_strndup(A, x->ident, x->len),
                       {{y->on ? y->on->kind : 0, y->on ? y->on->index : 0, y->file},
                        {x->on ? x->on->kind : 0, x->on ? x->on->index : 0, x->file}}};
        bool seen = false;
        for (unsigned j = 0; j < want; j++)
            seen |= ref[j].def[0].kind == c.def[0].kind && ref[j].def[0].index == c.def[0].index &&
                    ref[j].def[1].kind == c.def[1].kind && ref[j].def[1].index == c.def[1].index;
        if (!seen)
            ref[want++] = c;
    }
    ck_assert_uint_eq(n, want);
    if (_i == (int)countof(clash_specs) - 1)
        ck_assert_str_eq(k[0].ident, "DXGK_SEGMENT_ID_INVALID");
    for (unsigned i = 0; i < n; i++) {
        ck_assert_str_eq(k[i].ident, ref[i].ident);
        for (int e = 0; e < 2; e++) {
            ck_assert_uint_eq(k[i].def[e].kind, ref[i].def[e].kind);
            ck_assert_uint_eq(k[i].def[e].index, ref[i].def[e].index);
            ck_assert_str_eq(k[i].def[e].file, ref[i].def[e].file);
        }
    }
}
END_TEST

/* cdefs_scan on C text alone: what it defines, one name a line. */
static const struct {
    const char *text, *defs;
} cdefs_cases[] = {
    {"int f(void) { return 0; }\nstatic int n, m[2];\n", "f\nn\nm\n"},
    /* a prototype names nothing, also when the text ends at its ')' */
    {"int f(void);\n", ""},
    {"int f(void)", ""},
    {"typedef int (*cb)(void);\nenum e { A, B = 2 };\n", "cb\ne\nA\nB\n"},
    /* a typedef of a function type names its type, alone or in a list */
    {"typedef int fn(void);\n", "fn\n"},
    {"typedef void g(int), h(void);\n", "g\nh\n"},
};

START_TEST(test_cdefs_text)
{
    const char *text = cdefs_cases[_i].text;
    size_t n = strlen(text);
    CUnit *u = malloc((n + 1) * sizeof *u);
    for (size_t i = 0; i < n; i++)
        u[i] = (CUnit){(unsigned char)text[i], 0};
    Buf names = {0};
    void *ctx[] = {u, &names};
    cdefs_scan(u, (int)n, add_name, ctx);
    buf_putc(&names, 0);
    ck_assert_str_eq(names.p, cdefs_cases[_i].defs);
    buf_free(&names);
    free(u);
}
END_TEST

/* ---- hook files ------------------------------------------------------------------ */

static char Hooks[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(p);
    return 0;
}

static void hooks_setup(void)
{
    strcpy(Hooks, "/tmp/segc-hooks-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(Hooks));
}

static void hooks_teardown(void)
{
    nftw(Hooks, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void hook_file(const char *name, const char *text_)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", Hooks, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text_, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Renders the spec of this file with the hook files of Hooks: true, or
 * false with the first diagnostic's message in *msg. */
static bool render_hooked(Arena *a, Outputs *out, const char **msg)
{
    Diags d;
    Spec *s = valid(a, &d);
    Lookup lk;
    BuildOpts bo = {.outdir = "out", .templates_dir = Hooks, .emit_selftest = true};
    bool ok = emit_render(a, s, &bo, &lk, out, &d);
    /* file:line:col, then the length of the span the finding marks */
    *msg = d.head ? arena_printf(a, "%s:%u:%u+%u: [%s] %s", d.head->pos.file ? os_basename(d.head->pos.file->name) : "",
                                 src_loc(d.head->pos).line, src_loc(d.head->pos).col, (unsigned)d.head->pos.len,
                                 code_name(d.head->code), d.head->msg) : "";
    return ok;
}

START_TEST(test_hooks)
{
    Outputs out = {0};
    const char *msg;
    hook_file("hook-banner.txt", "/* {{ board.name }} {{board.upper}} {{ spec.file }} {{ header }} */\n\n  \n");
    hook_file("hook-prefix.txt", "Xyz\n");
    hook_file("hook-trace.txt", "#include \"{{ source }}.tmh\"\n");
    ck_assert_msg(render_hooked(A, &out, &msg), "%s", msg);
    ck_assert_uint_eq(out.nhooks, 3);
    for (unsigned f = 0; f < out.n; f++)
        if (f != 2) /* segc_dxgk.h has no banner */
            ck_assert_msg(strstr(out.files[f].text.p, "\n/* b XYZ_B t.yaml b_segments.h */\n/*"), "%s: no banner",
                          out.files[f].name);
    ck_assert_ptr_nonnull(strstr(out.files[0].text.p, "#define XYZ_B_SEGMENT_COUNT"));
    ck_assert_ptr_nonnull(strstr(out.files[1].text.p, "NTSTATUS XyzBQuerySegment3("));
    ck_assert_ptr_nonnull(strstr(out.files[1].text.p, "#include \"b_segments.h\"\n#include \"b_segments.c.tmh\"\n"));
    outputs_free(&out);
}
END_TEST

static const struct {
    const char *file, *text, *msg;
} bad_hooks[] = {
    {"hook-banner.txt", "/* ok */\n/* {{ board.wddm }} */", "hook-banner.txt:2:4+2: [template] a hook file substitutes only"},
    {"hook-trace.txt", "{% if x %}", "hook-trace.txt:1:1+2: [template] a hook file substitutes only"},
    {"hook-precomp.txt", "{{ header", "hook-precomp.txt:1:1+2: [template] a hook file substitutes only"},
    {"hook-prefix.txt", "not one\n", "hook-prefix.txt:1:1+0: [template] hook-prefix.txt must hold a C identifier, not 'not one'"},
    {"segments.c.tmpl", "x", ":0:0+0: [template] "},
};

START_TEST(test_bad_hooks)
{
    Outputs out = {0};
    const char *msg;
    hook_file(bad_hooks[_i].file, bad_hooks[_i].text);
    ck_assert(!render_hooked(A, &out, &msg));
    ck_assert_uint_eq(out.n, 0);
    ck_assert_msg(strstr(msg, bad_hooks[_i].msg), "'%s' does not say '%s'", msg, bad_hooks[_i].msg);
}
END_TEST

Suite *emit_suite(void)
{
    Suite *s = suite_create("emit");
    TCase *tc = fixture_tcase("preconditions");
    tcase_add_test(tc, test_valid_renders);
    tcase_add_loop_test(tc, test_corrupt_refused, 0, (int)countof(cases));
    /* An abort can only be caught in a forked test (not under CK_FORK=no). */
    const char *fork = getenv("CK_FORK");
    if (!fork || strcmp(fork, "no"))
        tcase_add_test_raise_signal(tc, test_flag_form_guard, SIGABRT);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("bar registers");
    tcase_add_loop_test(tc, test_bar_registers, 0, (int)countof(bar_cases));
    suite_add_tcase(s, tc);
    tc = fixture_tcase("writer");
    tcase_add_checked_fixture(tc, writer_setup, writer_teardown);
    tcase_add_test(tc, test_conversions);
    tcase_add_test(tc, test_definitions);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("names");
    tcase_add_loop_test(tc, test_names_are_what_is_written, 0, 2 * (int)countof(name_specs));
    tcase_add_loop_test(tc, test_clashes_as_compared, 0, (int)countof(clash_specs));
    tcase_add_loop_test(tc, test_cdefs_text, 0, (int)countof(cdefs_cases));
    suite_add_tcase(s, tc);
    tc = fixture_tcase("hooks");
    tcase_add_checked_fixture(tc, hooks_setup, hooks_teardown);
    tcase_add_test(tc, test_hooks);
    tcase_add_loop_test(tc, test_bad_hooks, 0, (int)countof(bad_hooks));
    suite_add_tcase(s, tc);
    return s;
}
