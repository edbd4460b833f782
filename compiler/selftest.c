/* SPDX-License-Identifier: MIT */
/* selftest.c - <board>_selftest.c, what `segc build --emit-selftest` writes.
 *
 * A standalone C program (templates/selftest.c.frag) that calls the
 * generated handlers the way dxgkrnl does and compares every answer with
 * constants written into the program itself.  Those constants are worked
 * out here from the spec, by code of their own: never read from what
 * emit.c computes or writes, so a wrong value in a handler and the same
 * wrong value in the header's macro still disagree with the self-test.
 * Besides the values of the spec, it holds:
 *
 *   - made-up run-time inputs (the BAR bases a resource list would give,
 *     an AGP aperture), so the program can expect base + offset;
 *   - the GPU addresses and segment offsets worth probing (every segment
 *     and bank boundary b, with b - 1 and b + 1) and the answer each one
 *     must get, found by walking the segments and their banks in order,
 *     not from the lookup table layout.c built. */
#include "emit_int.h"
#include "frags.h"

#include <stdlib.h>
#include <string.h>

enum { FAKE_AGP_BASE = 0xC0000000u, FAKE_AGP_SIZE = 0x08000000u };

/* Made-up BAR bases: 60 TiB + slot TiB.  Both 32-bit halves can be
 * non-zero with an offset, so a handler that drops the high half is
 * caught, and the slots are far apart, so a handler that reads the wrong
 * slot is too. */
static uint64_t fake_bar_base(const Spec *s, const Bar *b)
{
    return 0x00003C0000000000ull + (uint64_t)(b - s->bars) * 0x0000010000000000ull;
}

/* The 1-based bank of offset `o` in segment `g` (0: no banks), or -1 when
 * `o` is in no bank: past the end, or (never in a valid spec) a gap. */
static int bank_at(const Segment *g, uint64_t o)
{
    if (g->kind == SEG_AGP || o >= g->size.v)
        return -1;
    for (unsigned k = 0; k < g->nbanks; k++)
        if (o >= g->banks[k].start && o < g->banks[k].end)
            return (int)k + 1;
    return g->nbanks ? -1 : 0;
}

/* The segment (NULL: none) and *bank a GPU address lies in, walking
 * segments and banks in spec order: what <Prefix>LookupGpuAddress must
 * answer.  The AGP aperture and empty segments have no fixed range. */
static const Segment *locate(const Spec *s, uint64_t addr, int *bank)
{
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (addr >= g->base.v && (*bank = bank_at(g, addr - g->base.v)) >= 0)
            return g;
    }
    return NULL;
}

typedef struct Probe {
    unsigned seg;  /* BankOfOffset only: the segment id asked about */
    uint64_t at;   /* a GPU address, or an offset in the segment */
    const char *what;
    unsigned seq;  /* insertion order: the first reason for an address wins */
} Probe;

/* The probes are gathered as an array of Probe in a Buf. */
static void add(Buf *v, unsigned seg, uint64_t at, const char *what)
{
    Probe p = {seg, at, what, (unsigned)(v->len / sizeof p)};
    buf_putn(v, (const char *)&p, sizeof p);
}

/* b - 1, b and b + 1, leaving out what would wrap. */
static void add3(Arena *a, Buf *v, unsigned seg, uint64_t b, const char *what)
{
    if (b > 0)
        add(v, seg, b - 1, arena_printf(a, "%s - 1", what));
    add(v, seg, b, what);
    if (b < UINT64_MAX)
        add(v, seg, b + 1, arena_printf(a, "%s + 1", what));
}

static int probe_cmp(const void *pa, const void *pb)
{
    const Probe *x = pa, *y = pb;
    if (x->seg != y->seg)
        return x->seg < y->seg ? -1 : 1;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorted by (segment, value), one probe per value, deterministic: *n of
 * them, in the Buf. */
static const Probe *sort_unique(Buf *v, unsigned *n)
{
    Probe *p = (Probe *)(void *)v->p;
    qsort(p, v->len / sizeof *p, sizeof *p, probe_cmp);
    *n = 0;
    for (size_t r = 0; r < v->len / sizeof *p; r++)
        if (*n == 0 || p[*n - 1].seg != p[r].seg || p[*n - 1].at != p[r].at)
            p[(*n)++] = p[r];
    return p;
}

static const char *seg_label(Arena *a, const Segment *g)
{
    return arena_printf(a, "segment %u '%s'", g->id, g->name);
}

static void lookup_probes(Emit *w, const Spec *s)
{
    Arena *a = w->a;
    Buf v = {0};
    /* Starts first, then ends, then the extremes: an address that is several
     * boundaries at once is named by the first (a segment's base rather than
     * the end of the one before). */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < s->nsegs; i++) {
            const Segment *g = &s->segs[i];
            if (g->kind == SEG_AGP)
                continue;
            const char *sl = seg_label(a, g);
            uint64_t base = g->base.v;
            if (pass == 0)
                add3(a, &v, 0, base, arena_printf(a, "%s base", sl));
            else if (g->size.v <= UINT64_MAX - base)
                add3(a, &v, 0, base + g->size.v, arena_printf(a, "%s end", sl));
            for (unsigned k = 0; k < g->nbanks; k++) {
                const Bank *b = &g->banks[k];
                uint64_t at = pass == 0 ? b->start : b->end;
                if (at <= UINT64_MAX - base)
                    add3(a, &v, 0, base + at,
                         arena_printf(a, "bank %u '%s' of %s %s", k + 1, b->name, sl, pass == 0 ? "start" : "end"));
            }
        }
    add(&v, 0, 0, "address 0");
    add(&v, 0, 1, "address 1");
    add(&v, 0, UINT64_MAX - 1, "the last address - 1");
    add(&v, 0, UINT64_MAX, "the last address");
    unsigned n;
    const Probe *p = sort_unique(&v, &n);
    for (unsigned i = 0; i < n; i++) {
        int bank = 0;
        const Segment *g = locate(s, p[i].at, &bank);
        t_lookup(w, p[i].at, g != NULL, g ? g->id : 0, g ? (unsigned)bank : 0, g ? p[i].at - g->base.v : 0,
                 p[i].what);
    }
    buf_free(&v);
}

static void bank_probes(Emit *w, const Spec *s)
{
    Arena *a = w->a;
    Buf v = {0};
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        const char *sl = seg_label(a, g);
        if (g->kind != SEG_AGP) {
            for (unsigned k = 0; k < g->nbanks; k++)
                add3(a, &v, g->id, g->banks[k].start,
                     arena_printf(a, "the start of bank %u '%s' of %s", k + 1, g->banks[k].name, sl));
            add3(a, &v, g->id, g->size.v, arena_printf(a, "the end of %s", sl));
            for (unsigned k = 0; k < g->nbanks; k++)
                add3(a, &v, g->id, g->banks[k].end,
                     arena_printf(a, "the end of bank %u '%s' of %s", k + 1, g->banks[k].name, sl));
        }
        add(&v, g->id, 0, arena_printf(a, "offset 0 of %s", sl));
        add(&v, g->id, 1, arena_printf(a, "offset 1 of %s", sl));
        add(&v, g->id, UINT64_MAX, arena_printf(a, "the largest offset in %s", sl));
    }
    add(&v, 0, 0, "segment id 0");
    add(&v, s->nsegs + 1, 0, "a segment id past the last");
    add(&v, UINT32_MAX, 0, "segment id 0xFFFFFFFF");
    unsigned n;
    const Probe *p = sort_unique(&v, &n);
    for (const Probe *end = p + n; p < end; p++) {
        /* From the segment alone: its range may overlap another's. */
        int want = p->seg >= 1 && p->seg <= s->nsegs ? bank_at(&s->segs[p->seg - 1], p->at) : 0;
        t_bank_probe(w, p->seg, p->at, want > 0 ? (unsigned)want : 0, p->what);
    }
    buf_free(&v);
}

/* What each segment's descriptor must hold, from the spec's values: the
 * CPU window and host aperture as base of the made-up BAR + offset. */
static void expected(Emit *w, const Spec *s, const SelftestNames *n)
{
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (!g->nbanks)
            continue;
        t_banks(w, i + 1, g->nbanks);
        for (unsigned k = 0; k < g->nbanks; k++)
            t_bank(w, g->banks[k].end, k + 1, g->banks[k].name);
        t_banks_end(w);
    }
    t_expected(w);
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        t_expected_segment(w, i + 1, g->name, g->kind == SEG_AGP, g->flags, g->base.v);
        if (g->cpu == CPU_BAR)
            t_expected_cpu_bar(w, &n->bar[g->cpu_bar - s->bars], g->cpu_offset.v);
        else
            t_expected_cpu(w, g->cpu == CPU_ADDRESS ? g->cpu_address.v : 0);
        t_expected_sizes(w, g->size.v, g->commit_limit.v, g->system_memory_end.v, g->nbanks);
        if (g->nbanks)
            t_expected_banks(w, i + 1);
        else
            t_expected_no_banks(w);
        if (g->host.mode == CPU_BAR)
            t_expected_host_bar(w, &n->bar[g->host.bar - s->bars], g->host.offset.v);
        else
            t_expected_host(w, g->host.mode == CPU_ADDRESS, g->host.mode == CPU_ADDRESS ? g->host.address.v : 0);
        uint64_t pages = g->host.mode != CPU_NONE && s->page_size.v ? g->host.size.v / s->page_size.v : 0;
        t_expected_rest(w, pages, g->invalid_ranges.v, g->uefi_ranges.v, g->vpr.range_start.v, g->vpr.range_size.v,
                        g->vpr.alignment.v, g->vpr.count.v, g->vpr.reserve_size.v);
    }
    t_expected_end(w);
}

/* ---- allocation classes ---------------------------------------------------- */

/* A segment's id: its place in the spec's list (counted here, not read
 * from Segment.id). */
static unsigned place_id(const Spec *s, const Place *p)
{
    return (unsigned)(p->seg - s->segs) + 1;
}

/* The set of the segments of `l`: bit id - 1 of each. */
static uint64_t set_of(const Spec *s, const PlaceList *l)
{
    uint64_t set = 0;
    for (unsigned i = 0; i < l->n; i++)
        set |= UINT64_C(1) << (place_id(s, &l->p[i]) - 1);
    return set;
}

/* The table of what each class's DXGK_ALLOCATIONINFO must hold: its sets,
 * and its preference and bank-hint slots, the banks found by name in the
 * first preferred segment; slots the spec does not fill are 0. */
static void classes_table(Emit *w, const Spec *s, const SelftestNames *n)
{
    t_classes(w, n->camel);
    for (unsigned i = 0; i < s->nclasses; i++) {
        const AllocClass *c = &s->classes[i];
        t_class(w, c->name, i, set_of(s, &c->write), set_of(s, c->read.set ? &c->read : &c->write), set_of(s, &c->evict));
        const Segment *first = c->prefer.n ? c->prefer.p[0].seg : NULL;
        for (unsigned list = 0; list < 4; list++) {
            if (list)
                t_class_next(w);
            unsigned slots = list < 2 ? PREF_SLOTS : BANK_SLOTS;
            const PlaceList *l = list < 2 ? &c->prefer : &c->banks;
            for (unsigned k = 0; k < slots; k++) {
                uint64_t v = 0;
                if (k < l->n && list % 2)
                    v = l->p[k].from_end;
                else if (k < l->n && list == 0)
                    v = place_id(s, &l->p[k]);
                for (unsigned b = 0; k < l->n && list == 2 && first && b < first->nbanks; b++)
                    if (!strcmp(first->banks[b].name, l->p[k].name))
                        v = b + 1;
                if (k)
                    sep(w);
                u_item(w, v);
            }
        }
        t_class_end(w);
    }
    t_classes_table_end(w, n->camel, n->up, n->header);
}

/* `each` for each of QUERYSEGMENT, QUERYSEGMENT3 and QUERYSEGMENT4 the spec
 * answers, with the form's suffix; for QUERYSEGMENT4 `four` instead, if
 * there is one. */
static void per_form(Emit *w, unsigned forms, void (*each)(Emit *, const char *), void (*four)(Emit *))
{
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if ((forms & (1u << f)) && (1u << f) == DDI_QS4 && four)
            four(w);
        else if (forms & (1u << f))
            each(w, DDI_SUFFIX(f));
}

/* QUERYSEGMENT (form 0) or QUERYSEGMENT3 (1): the calls and their answers. */
static void classic(Emit *w, const Spec *s, unsigned form, bool agp, unsigned no_agp)
{
    const char *sfx = DDI_SUFFIX(form);
    t_classic(w, sfx);
    if (agp) {
        t_answer_agp(w);
        if (form == 1)
            t_answer_agp_sysend(w);
        t_answer_agp_end(w);
    }
    t_answer(w);
    if (form == 1)
        t_answer_sysend(w);
    t_answer_banks(w, sfx);
    if (agp)
        t_run_agp_first(w, sfx);
    else
        t_run_first(w, sfx);
    t_run_second(w, sfx);
    if (agp)
        t_run_second_agp(w, sfx);
    t_run_more(w, sfx);
    if (no_agp > 0)
        t_run_few(w, sfx);
    if (agp)
        t_run_few_agp(w, sfx);
    t_run_null(w, sfx);
    if (s->nbars)
        t_run_refuse_runtime(w);
    else
        t_run_accept_runtime(w);
    t_run_refusals(w, sfx);
    if (form != 0)
        t_run_other_qs(w);
    t_run_other_win8(w);
    if (form != 1)
        t_run_other_qs3(w);
    t_run_others_end(w, sfx);
}

void selftest_write(Emit *w, const Spec *s, const Lookup *lk, const SelftestNames *n)
{
    unsigned no_agp = 0, forms = s->forms;
    for (unsigned i = 0; i < s->nsegs; i++)
        no_agp += s->segs[i].kind != SEG_AGP;
    bool agp = no_agp != s->nsegs;
    /* The paging segment's id is its place in the spec's list. */
    unsigned paging = s->paging.seg ? (unsigned)(s->paging.seg - s->segs) + 1 : 0;
    /* DXGK_WDDMVERSION: major << 12 | minor << 8; 0x1000 for WDDM 1.0 and 1.1. */
    unsigned major = s->wddm >> 4, minor = s->wddm & 15;
    uint64_t wddm = major == 1 && minor < 2 ? 0x1000 : (uint64_t)major << 12 | (uint64_t)minor << 8;
    spdx(w);
    if (*n->banner)
        hook(w, n->banner);
    t_intro(w, n->file, n->source, s->name, SEGC_VERSION, n->spec, n->camel, n->header, s->nsegs, no_agp, paging,
            s->paging.buffer_size.v, s->paging.private_data_size.v);
    if (agp)
        t_intro_agp(w);
    t_intro_end(w);
    for (unsigned i = 0; i < s->nbars; i++)
        t_test_bar(w, &n->bar[i], fake_bar_base(s, &s->bars[i]), s->bars[i].name, i);
    if (agp)
        t_test_agp(w, FAKE_AGP_BASE, FAKE_AGP_SIZE);
    t_expected_type(w);
    expected(w, s, n);
    /* The probes define no name: they are worked out only for the text. */
    if (!lk->overlap[0]) {
        t_lookups(w, n->camel);
        if (w->out)
            lookup_probes(w, s);
        t_lookups_end(w);
    } else {
        t_no_lookups(w, n->camel,
                     emit_str(w, overlap(w, lk->overlap[0]->name, lk->overlap[1]->name)));
    }
    t_bank_probes(w, n->camel);
    if (w->out)
        bank_probes(w, s);
    t_bank_probes_end(w, n->up);
    if (forms & DDI_QS4)
        t_in4(w);
    t_out(w);
    per_form(w, forms, t_out_member, NULL);
    t_out_end(w);
    per_form(w, forms, t_desc, t_desc4);
    t_fill_runtime(w);
    for (unsigned i = 0; i < s->nbars; i++)
        t_fill_bar(w, i, &n->bar[i]);
    t_setup(w);
    per_form(w, forms, t_setup_desc, t_setup_desc4);
    if (agp)
        t_setup_agp(w);
    else
        t_setup_no_agp(w);
    t_setup_args(w);
    if (forms & DDI_QS4)
        t_setup_in4(w);
    t_setup_end(w);
    per_form(w, forms, t_kept_desc, t_kept_desc4);
    t_kept_end(w, n->up, n->header, wddm, s->ptr_bytes, s->nbars);
    if (s->nbars)
        t_constant_bars(w, n->up);
    for (unsigned i = 0; i < s->nbars; i++) {
        /* Two PCI registers for a 64-bit BAR: bits: as written, else by size. */
        const Bar *b = &s->bars[i];
        bool wide = b->bits.set ? b->bits.v == 64 : b->size.v > (UINT64_C(1) << 32);
        t_constant_bar(w, n->up, &n->bar[i], i, b->index.v, wide ? 2 : 1);
    }
    if (s->nbars)
        t_constant_bars_end(w);
    for (unsigned i = 0; i < s->nsegs; i++)
        t_constant_segment(w, n->up, &n->seg[i], i + 1);
    if (s->dma.set)
        t_constant_dma(w, n->up, set_of(s, &s->dma));
    t_constants_end(w);
    if (s->nclasses) {
        classes_table(w, s, n);
        for (unsigned i = 0; i < s->nclasses; i++)
            t_class_macros(w, n->up, &n->cls[i], i);
        t_classes_end(w);
    }
    for (unsigned f = 0; f < 2; f++)
        if (forms & (1u << f))
            classic(w, s, f, agp, no_agp);
    if (forms & DDI_QS4) {
        t_qs4(w);
        if (s->nsegs > 1)
            t_qs4_few(w);
        t_qs4_bad(w);
        if (s->nbars)
            t_qs4_refuse_runtime(w);
        else
            t_qs4_accept_runtime(w);
        t_qs4_end(w);
    }
    t_dispatcher(w);
    void (*const refused[DDI_FORMS])(Emit *) = {t_refused_qs, t_refused_qs3, t_refused_qs4};
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (!(forms & (1u << f)))
            refused[f](w);
    t_dispatcher_end(w, n->camel);
    if (!lk->overlap[0])
        t_check_lookups(w, n->up, n->camel);
    t_check_banks(w, n->camel, s->ptr_bytes, n->file, arch_name(s->arch));
    if (forms & DDI_QS4)
        t_main_desc4(w, n->file);
    t_main_constants(w);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (forms & (1u << f))
            t_main_run(w, DDI_SUFFIX(f), n->camel);
    t_main_checks(w);
    if (s->nclasses)
        t_main_classes(w);
    if (forms & DDI_QS4)
        t_main_free(w);
    t_main_end(w, n->file);
    per_form(w, forms, t_main_form, NULL);
    t_main_end2(w);
}
