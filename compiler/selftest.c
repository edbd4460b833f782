/* SPDX-License-Identifier: MIT */
/* selftest.c - what `segc build --emit-selftest` writes into the self-test.
 *
 * templates/selftest.c.tmpl renders a standalone C program that calls the
 * generated handlers the way dxgkrnl does and compares every answer with
 * constants written into the program itself.  Most of those constants are
 * the model values the handler templates see (`segments`, `count`,
 * `paging`); this file adds what only the self-test needs:
 *
 *   - made-up run-time inputs (the BAR bases a resource list would give,
 *     an AGP aperture), so the program can expect base + offset;
 *   - the GPU addresses and segment offsets worth probing (every segment
 *     and bank boundary b, with b - 1 and b + 1) and the answer each one
 *     must get, found by walking the segments and their banks in order,
 *     not from the lookup table layout.c built. */
#include "segc.h"

#include <stdlib.h>

enum { FAKE_AGP_BASE = 0xC0000000u, FAKE_AGP_SIZE = 0x08000000u };

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

static TVal *lookup_probes(Arena *a, const Spec *s)
{
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
    TVal *list = tv_list(a);
    for (unsigned i = 0; i < n; i++) {
        int bank = 0;
        const Segment *g = locate(s, p[i].at, &bank);
        TVal *m = tv_map(a);
        tv_put(a, m, "addr", tv_int(a, p[i].at));
        tv_put(a, m, "found", tv_bool(a, g != NULL));
        tv_put(a, m, "seg", tv_int(a, g ? g->id : 0));
        tv_put(a, m, "bank", tv_int(a, g ? (unsigned)bank : 0));
        tv_put(a, m, "offset", tv_int(a, g ? p[i].at - g->base.v : 0));
        tv_put(a, m, "what", tv_str(a, p[i].what));
        tv_push(a, list, m);
    }
    buf_free(&v);
    return list;
}

static TVal *bank_probes(Arena *a, const Spec *s)
{
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
    TVal *list = tv_list(a);
    for (const Probe *end = p + n; p < end; p++) {
        /* From the segment alone: its range may overlap another's. */
        int want = p->seg >= 1 && p->seg <= s->nsegs ? bank_at(&s->segs[p->seg - 1], p->at) : 0;
        TVal *m = tv_map(a);
        tv_put(a, m, "seg", tv_int(a, p->seg));
        tv_put(a, m, "offset", tv_int(a, p->at));
        tv_put(a, m, "bank", tv_int(a, want > 0 ? (unsigned)want : 0));
        tv_put(a, m, "what", tv_str(a, p->what));
        tv_push(a, list, m);
    }
    buf_free(&v);
    return list;
}

TVal *selftest_data(Arena *a, const Spec *s)
{
    TVal *m = tv_map(a);
    tv_put(a, m, "file", tv_str(a, arena_printf(a, "%s_selftest.c", s->name)));
    TVal *bars = tv_list(a);
    for (unsigned i = 0; i < s->nbars; i++) {
        TVal *b = tv_map(a);
        tv_put(a, b, "slot", tv_int(a, i));
        tv_put(a, b, "name", tv_str(a, s->bars[i].name));
        tv_put(a, b, "upper", tv_str(a, to_upper(a, s->bars[i].name)));
        /* Made-up bases: 60 TiB + slot TiB.  Both 32-bit halves can be
         * non-zero with an offset, so a handler that drops the high half is
         * caught, and the slots are far apart, so a handler that reads the
         * wrong slot is too. */
        tv_put(a, b, "base", tv_int(a, 0x00003C0000000000ull + (uint64_t)i * 0x0000010000000000ull));
        tv_push(a, bars, b);
    }
    tv_put(a, m, "bars", bars);
    tv_put(a, m, "agp_base", tv_int(a, FAKE_AGP_BASE));
    tv_put(a, m, "agp_size", tv_int(a, FAKE_AGP_SIZE));
    tv_put(a, m, "lookups", lookup_probes(a, s));
    tv_put(a, m, "bank_probes", bank_probes(a, s));
    return m;
}
