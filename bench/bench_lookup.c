/* SPDX-License-Identifier: MIT */
/* bench_lookup.c - one board's generated LookupGpuAddress against the two
 * ways drivers answer the question by hand, over the same addresses:
 *
 *   linear   walk the segments, then the segment's banks (what hand-written
 *            drivers do)
 *   bsearch  binary search over the sorted (segment, bank) ranges
 *   segc     the generated table
 *   none     the loop alone, to subtract its cost
 *
 *   bench_lookup EXPECT-FILE MODE COUNT
 *
 * Prints ns per lookup; run under callgrind for instructions per lookup.
 * The boards' ranges come from the expectation file (tests/gen/expect
 * format), not from segc. */
#include SEGC_HEADER

#include "../tests/gen/expect.h"

#include <stdint.h>
#include <time.h>

typedef struct Range {
    unsigned long long start, end, base;
    unsigned seg, bank;
} Range;

static Range ranges[MAXSEG * MAXBANK];
static unsigned nranges;

enum { NADDR = 4096 };
static unsigned long long addrs[NADDR];

/* Hand-written style: every segment, then its banks. */
typedef BOOLEAN (*LookupFn)(ULONGLONG, SEGC_LOCATION *);

/* The baselines have the generated function's signature, and like it are
 * called through a pointer, so all of them pay the same call. */
static BOOLEAN __attribute__((noinline)) lookup_linear(ULONGLONG a, SEGC_LOCATION *loc)
{
    for (unsigned i = 0; i < E.nsegs; i++) {
        const ExpSeg *s = &E.seg[i];
        if (s->agp || a < s->base || a - s->base >= s->size)
            continue;
        unsigned long long off = a - s->base;
        unsigned bank = 0;
        for (unsigned b = 0; b < s->nbanks; b++)
            if (off < s->banks[b]) {
                bank = b + 1;
                break;
            }
        loc->SegmentId = i + 1;
        loc->Bank = bank;
        loc->Offset = off;
        return 1;
    }
    return 0;
}

static BOOLEAN __attribute__((noinline)) lookup_bsearch(ULONGLONG a, SEGC_LOCATION *loc)
{
    unsigned lo = 0, hi = nranges;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (ranges[mid].end <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == nranges || a < ranges[lo].start)
        return 0;
    loc->SegmentId = ranges[lo].seg;
    loc->Bank = ranges[lo].bank;
    loc->Offset = a - ranges[lo].base;
    return 1;
}

static BOOLEAN __attribute__((noinline)) lookup_none(ULONGLONG a, SEGC_LOCATION *loc)
{
    loc->Offset = a;
    return 1;
}

static int range_cmp(const void *pa, const void *pb)
{
    const Range *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s EXPECT-FILE linear|bsearch|segc|none COUNT\n", argv[0]);
        return 2;
    }
    load_expect(argv[1]);
    for (unsigned i = 0; i < E.nsegs; i++) {
        const ExpSeg *s = &E.seg[i];
        if (s->agp)
            continue;
        unsigned long long at = 0;
        for (unsigned b = 0; b < (s->nbanks ? s->nbanks : 1); b++) {
            unsigned long long end = s->nbanks ? s->banks[b] : s->size;
            ranges[nranges++] = (Range){s->base + at, s->base + end, s->base, i + 1, s->nbanks ? b + 1 : 0};
            at = end;
        }
    }
    qsort(ranges, nranges, sizeof ranges[0], range_cmp);
    /* 7 of 8 addresses inside a random range, the rest anywhere. */
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (unsigned i = 0; i < NADDR; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const Range *r = &ranges[x % nranges];
        addrs[i] = (i & 7) ? r->start + (x >> 11) % (r->end - r->start) : x;
    }
    LookupFn fn = !strcmp(argv[2], "linear")    ? lookup_linear
                  : !strcmp(argv[2], "bsearch") ? lookup_bsearch
                  : !strcmp(argv[2], "segc")    ? SEGC_LOOKUP_GPU_ADDRESS
                                                : lookup_none;
    unsigned long n = strtoul(argv[3], NULL, 10);
    struct timespec t0, t1;
    unsigned long long sum = 0;
    SEGC_LOCATION loc;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned long i = 0; i < n; i++)
        if (fn(addrs[i & (NADDR - 1)], &loc))
            sum += loc.Offset + loc.Bank + loc.SegmentId;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%.3f ns/lookup checksum %llu\n", n ? ns / (double)n : 0.0, sum);
    return 0;
}
