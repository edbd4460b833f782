/* SPDX-License-Identifier: MIT */
/* layout.c - the table behind <Prefix>LookupGpuAddress.
 *
 * Every GPU address maps to one region: a (segment, bank) pair, or "no
 * segment".  segc knows every boundary at build time, so it can answer a
 * lookup with a fixed number of table reads instead of walking segments.
 * Like a compiler choosing between a jump table and comparisons, it picks
 * the form per board, under a size budget:
 *
 *   direct  one table indexed by (addr - lo) >> g, where 2^g is the largest
 *           power of two dividing every boundary: 1 read, then the region
 *   radix   the same index split over 2-4 levels; identical nodes are
 *           stored once and a uniform run ends the walk early: a read per
 *           level
 *   search  an unrolled branch-free binary search over the sorted region
 *           starts, for budgets too small for either table
 *
 * A radix or search entry is the answer itself, segment id << 7 | bank id
 * (the widths of the DXGK segment and bank preference fields), 0 for no
 * segment; the offset then needs one more read, the segment's base.  A
 * direct entry is the index of its region, whose answer (bank << 32 |
 * segment, stored with one write) and base are read side by side: as few
 * instructions as a table of answers, in a byte or two an entry.  Entries
 * are the narrowest of UINT8, UINT16 and UINT32 that holds them.  Among
 * the forms that fit the budget (4 KiB by default: the table stays in a
 * few cache lines of non-paged memory) the fewest reads win, then the
 * fewest bytes; when none fits, the smallest table.  Overlapping segments
 * get no table (segc.h): an address there does not name one segment. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

/* MAX_NODE: no level-0 node beyond 2^24 entries is built, whatever the
 * budget: a bigger table has no place in a driver, and building it would
 * cost the memory of the budget. */
enum { SEG_BASE_BYTES = 8, REGION_BYTES = 16, TMP_TAG = 0x80000000u, MAX_NODE = 1 << 24 };

const char *lookup_form_name(LookupForm f)
{
    static const char *const names[] = {"direct", "radix", "search"};
    return names[f];
}

static unsigned bits_for(uint64_t n) /* bits to index n entries */
{
    unsigned b = 0;
    while (b < 64 && (n - 1) >> b)
        b++;
    return n <= 1 ? 0 : b;
}

static int region_cmp(const void *pa, const void *pb)
{
    const LookupRegion *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The region containing offset `off` (0 for a gap) and where that run of
 * identical answers ends. */
static unsigned run_at(const Lookup *lk, uint64_t off, uint64_t *run_end)
{
    uint64_t addr = lk->lo + off;
    unsigned lo = 1, hi = lk->nregions; /* first region with end > addr */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (lk->regions[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (off >= lk->span || lo == lk->nregions) {
        *run_end = UINT64_MAX;
        return 0;
    }
    const LookupRegion *r = &lk->regions[lo];
    if (r->start <= addr) {
        *run_end = r->end - lk->lo;
        return lo;
    }
    *run_end = r->start - lk->lo;
    return 0;
}

static uint32_t answer(const Lookup *lk, unsigned r)
{
    return r ? (uint32_t)(lk->regions[r].seg << LOOKUP_BANK_BITS | lk->regions[r].bank) : 0;
}

static uint32_t max_answer(const Lookup *lk)
{
    uint32_t m = 0;
    for (unsigned r = 1; r < lk->nregions; r++)
        m = answer(lk, r) > m ? answer(lk, r) : m;
    return m;
}

/* ---- radix builder ---------------------------------------------------------- */

typedef struct Level {
    uint32_t *e;
    size_t n, cap;
    size_t *hash_slot; /* open addressing: node start + 1, 0 empty */
    size_t hcap;
} Level;

typedef struct Build {
    const Lookup *lk;
    unsigned nlevels;
    unsigned shift[LOOKUP_MAX_LEVELS], bits[LOOKUP_MAX_LEVELS];
    uint64_t count0; /* entries of level 0 */
    Level lv[LOOKUP_MAX_LEVELS];
    size_t work, limit; /* entries computed (stored or not), and when to give up */
    bool over;
} Build;

static size_t node_len(const Build *b, unsigned level)
{
    return level == 0 ? (size_t)b->count0 : (size_t)1 << b->bits[level];
}

static uint64_t hash_node(const uint32_t *e, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ e[i]) * 1099511628211ull;
    return h;
}

/* Stores a node once: returns the index of an identical node if any. */
static uint32_t intern(Build *b, unsigned level, const uint32_t *e, size_t n)
{
    Level *L = &b->lv[level];
    if (L->hcap == 0 || (L->n / n + 1) * 2 > L->hcap) {
        size_t cap = L->hcap ? L->hcap * 2 : 64;
        size_t *slots = xmalloc(cap * sizeof *slots);
        memset(slots, 0, cap * sizeof *slots);
        for (size_t start = 0; start < L->n; start += n) { /* every node stored so far */
            size_t k = hash_node(L->e + start, n) & (cap - 1);
            while (slots[k])
                k = (k + 1) & (cap - 1);
            slots[k] = start + 1;
        }
        free(L->hash_slot);
        L->hash_slot = slots;
        L->hcap = cap;
    }
    size_t k = hash_node(e, n) & (L->hcap - 1);
    while (L->hash_slot[k]) {
        size_t start = L->hash_slot[k] - 1;
        if (!memcmp(L->e + start, e, n * sizeof *e))
            return (uint32_t)(start / n);
        k = (k + 1) & (L->hcap - 1);
    }
    if (L->n + n > L->cap) {
        L->cap = (L->n + n) * 2;
        L->e = xrealloc(L->e, L->cap * sizeof *L->e);
    }
    memcpy(L->e + L->n, e, n * sizeof *e);
    L->hash_slot[k] = L->n + 1;
    uint32_t idx = (uint32_t)(L->n / n);
    L->n += n;
    return idx;
}

/* Builds the node of `level` covering offsets from `base`; returns its
 * index in that level. */
static uint32_t build_node(Build *b, unsigned level, uint64_t base)
{
    size_t n = node_len(b, level);
    if (n > b->limit - b->work) { /* cannot fit: never compute it */
        b->over = true;
        return 0;
    }
    b->work += n;
    uint32_t *tmp = xmalloc(n * sizeof *tmp);
    unsigned sh = b->shift[level];
    bool last = level + 1 == b->nlevels;
    uint64_t len = (uint64_t)1 << sh;
    for (size_t i = 0; i < n && !b->over;) {
        uint64_t off = base + ((uint64_t)i << sh);
        uint64_t run_end;
        unsigned r = run_at(b->lk, off, &run_end);
        if (!last && run_end - off < len && off < b->lk->span) {
            tmp[i++] = TMP_TAG | build_node(b, level + 1, off);
            continue;
        }
        /* This entry answers from run r, and so does each next one that
         * starts in the run (at the last level) or lies in it. */
        uint32_t v = b->nlevels == 1 ? r : answer(b->lk, r); /* direct: the region itself */
        do
            tmp[i++] = v;
        while (i < n && (off = base + ((uint64_t)i << sh)) < run_end &&
               (last || off >= b->lk->span || run_end - off >= len));
    }
    uint32_t idx = b->over ? 0 : intern(b, level, tmp, n);
    free(tmp);
    return idx;
}

static void build_free(Build *b)
{
    for (unsigned i = 0; i < LOOKUP_MAX_LEVELS; i++) {
        free(b->lv[i].e);
        free(b->lv[i].hash_slot);
    }
}

/* The entry width for the largest value a table holds. */
static unsigned entry_bytes(const Lookup *lk, const Build *b)
{
    uint64_t maxv = b->nlevels == 1 ? lk->nregions - 1 : max_answer(lk);
    for (unsigned l = 1; l < b->nlevels; l++) {
        uint64_t nodes = b->lv[l].n / node_len(b, l);
        if (nodes > maxv)
            maxv = nodes;
    }
    /* A direct table has no child entries: its values need no tag bit. */
    uint64_t room = b->nlevels > 1 ? 0x80 : 0x100;
    return maxv < room ? 1 : maxv < room << 8 ? 2 : 4;
}

static size_t table_bytes(const Lookup *lk, const Build *b)
{
    size_t n = 0;
    for (unsigned l = 0; l < b->nlevels; l++)
        n += b->lv[l].n;
    return n * entry_bytes(lk, b) + lk->seg_bytes + (b->nlevels == 1 ? (size_t)lk->nregions * REGION_BYTES : 0);
}

/* Tries one split, every level below 0 indexed by `width` bits; true if
 * it fits `budget`, its tables left in `b`.  It computes at most as many
 * entries as the budget has room for at the narrowest entry, one byte. */
static bool try_split(Build *b, Lookup *lk, unsigned nlevels, unsigned width, uint64_t budget)
{
    *b = (Build){.lk = lk, .nlevels = nlevels};
    unsigned sh = lk->granule_log2;
    for (unsigned l = nlevels; l-- > 1; sh += width) {
        b->shift[l] = sh;
        b->bits[l] = width;
    }
    b->shift[0] = sh;
    uint64_t idx_count = lk->span >> lk->granule_log2;
    uint64_t below = sh - lk->granule_log2 >= 64 ? UINT64_MAX : (uint64_t)1 << (sh - lk->granule_log2);
    b->count0 = idx_count / below + (idx_count % below != 0); /* >= 1: span > 0 */
    uint64_t rec = lk->seg_bytes, room = budget < rec ? 0 : budget - rec;
    if (b->count0 + (nlevels == 1) > room || b->count0 > MAX_NODE)
        return false;
    b->limit = room > SIZE_MAX ? SIZE_MAX : (size_t)room;
    build_node(b, 0, 0);
    lk->work += b->work;
    if (b->over || table_bytes(lk, b) > budget) {
        build_free(b);
        return false;
    }
    return true;
}

/* Keeps the built tables in the Lookup (arena copies) and frees b's. */
static void adopt(Arena *a, Lookup *lk, Build *b)
{
    lk->entry_bytes = entry_bytes(lk, b);
    /* A child entry has the top bit of its width set. */
    lk->tag = b->nlevels == 1 ? 0 : lk->entry_bytes == 1 ? 0x80u : lk->entry_bytes == 2 ? 0x8000u : TMP_TAG;
    lk->nlevels = b->nlevels;
    lk->form = b->nlevels == 1 ? LOOKUP_DIRECT : LOOKUP_RADIX;
    for (unsigned l = 0; l < b->nlevels; l++) {
        LookupLevel *L = &lk->levels[l];
        L->shift = b->shift[l];
        L->bits = l == 0 ? 0 : b->bits[l];
        L->n = b->lv[l].n;
        /* The direct form ends with a 0 ("no segment") that an index past
         * the end is clamped to, so its lookup needs no branch. */
        L->entries = arena_alloc(a, (L->n + 1) * sizeof *L->entries);
        for (size_t i = 0; i < L->n; i++) {
            uint32_t e = b->lv[l].e[i];
            L->entries[i] = e & TMP_TAG ? (e & ~TMP_TAG) | lk->tag : e;
        }
    }
    if (b->nlevels == 1)
        lk->levels[0].n++; /* the sentinel, already 0 */
    lk->bytes = table_bytes(lk, b) + (b->nlevels == 1 ? lk->entry_bytes : 0);
    lk->loads = b->nlevels == 1 ? 3 : b->nlevels + 1; /* + the answer and base of the region, or the segment base */
    build_free(b);
}

/* ---- search form -------------------------------------------------------------- */

static void build_search(Arena *a, Lookup *lk)
{
    /* A start per region and per gap before one, then padding to a power
     * of two: starts past every offset, answering 0 (arena memory). */
    unsigned n = 0, cap = 4 * lk->nregions;
    uint64_t *starts = lk->starts = arena_alloc(a, cap * sizeof *starts);
    uint32_t *reg = lk->start_region = arena_alloc(a, cap * sizeof *reg);
    uint64_t at = 0;
    for (unsigned i = 1; i < lk->nregions; i++) {
        uint64_t s = lk->regions[i].start - lk->lo;
        if (s > at) { /* a gap between two regions */
            starts[n] = at;
            reg[n++] = 0;
        }
        starts[n] = s;
        reg[n++] = answer(lk, i);
        at = lk->regions[i].end - lk->lo;
    }
    unsigned p = 1;
    while (p < n)
        p *= 2;
    while (n < p)
        starts[n++] = UINT64_MAX;
    lk->nstarts = p;
    lk->form = LOOKUP_SEARCH;
    lk->entry_bytes = max_answer(lk) < 0x100 ? 1 : 2;
    lk->bytes = (size_t)p * (8 + lk->entry_bytes) + lk->seg_bytes;
    lk->loads = bits_for(p) + 2;
}

/* ---- entry point ---------------------------------------------------------------- */

/* The regions of every segment with a fixed GPU range, sorted, region 0
 * "none"; false (and lk->overlap set) when two of them overlap. */
static bool collect_regions(Arena *a, const Spec *s, Lookup *lk)
{
    unsigned cap = 1;
    for (unsigned i = 0; i < s->nsegs; i++)
        cap += s->segs[i].nbanks ? s->segs[i].nbanks : 1;
    LookupRegion *r = arena_alloc(a, cap * sizeof *r);
    unsigned n = 1; /* r[0]: none (arena memory is zeroed) */
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (g->kind == SEG_AGP || g->size.v == 0)
            continue; /* the AGP aperture's address is known only at run time */
        for (unsigned k = 0; k < (g->nbanks ? g->nbanks : 1); k++) { /* no banks: one region, bank 0 */
            uint64_t start = g->nbanks ? g->banks[k].start : 0, end = g->nbanks ? g->banks[k].end : g->size.v;
            r[n++] = (LookupRegion){g->base.v + start, g->base.v + end, g->id, g->nbanks ? k + 1 : 0, g->base.v};
        }
    }
    qsort(r + 1, n - 1, sizeof *r, region_cmp);
    lk->regions = r;
    for (unsigned i = 2; i < n; i++)
        if (r[i].start < r[i - 1].end) {
            /* Only with segments-overlap off: no lookup, the handler stays. */
            lk->overlap[0] = &s->segs[r[i - 1].seg - 1];
            lk->overlap[1] = &s->segs[r[i].seg - 1];
            lk->nregions = 1;
            return false;
        }
    lk->nregions = n;
    return true;
}

/* The smallest radix table of `levels` levels that fits `budget`, adopted
 * into lk; false if none fits.  Lower levels share a width; level 0 takes
 * the remaining bits.  The widths are tried nearest first to where a
 * level-0 table and a node per boundary are of a size, (T - log2
 * boundaries) / levels: the smallest table comes early and caps what the
 * others may compute, so the work follows the table, not the budget. */
static bool try_radix(Arena *a, Lookup *lk, unsigned levels, uint64_t budget)
{
    unsigned T = bits_for(lk->span >> lk->granule_log2), nb = bits_for(2 * (uint64_t)lk->nregions);
    Build best;
    size_t best_bytes = SIZE_MAX;
    /* best_width: 0 until a table fits (a tried width is at least 1) */
    unsigned guess = T > nb + levels ? (T - nb) / levels : 1, best_width = 0;
    guess = guess > 16 ? 16 : guess;
    for (unsigned step = 0; step < 32; step++) {
        unsigned width = step & 1 ? guess - (step + 1) / 2 : guess + step / 2;
        if (width < 1 || width > 16 || width * (levels - 1) >= T)
            continue;
        Build cand;
        if (!try_split(&cand, lk, levels, width, best_bytes < budget ? best_bytes : budget))
            continue;
        size_t bytes = table_bytes(lk, &cand);
        if (best_width && (bytes > best_bytes || (bytes == best_bytes && width >= best_width))) {
            build_free(&cand);
            continue;
        }
        if (best_width)
            build_free(&best);
        best = cand;
        best_bytes = bytes;
        best_width = width;
    }
    if (best_width)
        adopt(a, lk, &best);
    return best_width;
}

void layout_lookup(Arena *a, const Spec *s, uint64_t budget, Lookup *lk)
{
    memset(lk, 0, sizeof *lk);
    if (!budget)
        budget = LOOKUP_DEFAULT_BUDGET;
    if (!collect_regions(a, s, lk))
        return;
    const LookupRegion *r = lk->regions;
    unsigned n = lk->nregions;
    lk->seg_bytes = (size_t)(s->nsegs + 1) * SEG_BASE_BYTES;
    if (n == 1) { /* nothing addressable: every lookup answers FALSE */
        lk->form = LOOKUP_DIRECT;
        lk->entry_bytes = 1;
        return;
    }
    lk->lo = r[1].start;
    lk->span = r[n - 1].end - lk->lo;
    uint64_t all = lk->span;
    for (unsigned i = 1; i < n; i++)
        all |= (r[i].start - lk->lo) | (r[i].end - lk->lo);
    while (!(all >> lk->granule_log2 & 1)) /* all: non-zero, as span is */
        lk->granule_log2++;

    Build b;
    if (try_split(&b, lk, 1, 0, budget)) {
        adopt(a, lk, &b);
        return;
    }
    /* Radix: more levels cost a read each, so try 2 levels, then 3, then 4. */
    for (unsigned levels = 2; levels <= LOOKUP_MAX_LEVELS; levels++)
        if (try_radix(a, lk, levels, budget))
            return;
    /* Nothing fits: the smallest table, the search, and -v says so. */
    build_search(a, lk);
    lk->over_budget = lk->bytes > budget;
}
