/* SPDX-License-Identifier: MIT */
/* check_lookup.c - the generated GPU-address lookup against a reference
 * written independently of segc: a linear walk over the segments and bank
 * ends of an expectation file (tests/gen/expect format).
 *
 *   cc -DSEGC_GENERIC_NAMES -DSEGC_HEADER='"board_segments.h"' ...
 *   ./check_lookup EXPECT-FILE [SEED]
 *
 * Probes every boundary b, b-1, b+1, 0, the maximum address and random
 * addresses (seeded), and BankOfOffset at every bank boundary of every
 * segment, including ids 0 and past the end. */
#include SEGC_HEADER

#include "../expect.h"

#include <inttypes.h>
#include <stdint.h>

static unsigned long failures, probes;

/* A board whose segments overlap has no LookupGpuAddress: BankOfOffset
 * alone is checked. */
#ifdef SEGC_LOOKUP_GPU_ADDRESS
typedef struct Ref {
    unsigned seg, bank;
    unsigned long long offset;
} Ref;

/* The reference: walk every segment, then its banks. */
static int reference(unsigned long long addr, Ref *out)
{
    for (unsigned i = 0; i < E.nsegs; i++) {
        const ExpSeg *s = &E.seg[i];
        if (s->agp || s->size == 0)
            continue;
        if (addr < s->base || addr - s->base >= s->size)
            continue;
        out->seg = i + 1;
        out->offset = addr - s->base;
        out->bank = 0;
        for (unsigned b = 0; b < s->nbanks; b++)
            if (out->offset < s->banks[b]) {
                out->bank = b + 1;
                break;
            }
        return 1;
    }
    return 0;
}

static void probe(unsigned long long addr)
{
    SEGC_LOCATION loc;
    Ref ref = {0, 0, 0};
    memset(&loc, 0xEE, sizeof loc);
    int want = reference(addr, &ref);
    int got = SEGC_LOOKUP_GPU_ADDRESS(addr, &loc) ? 1 : 0;
    probes++;
    if (got != want || (want && (loc.SegmentId != ref.seg || loc.Bank != ref.bank || loc.Offset != ref.offset))) {
        if (failures++ < 10)
            fprintf(stderr, "lookup(0x%llX): got %d seg %u bank %u off 0x%llX, reference %d seg %u bank %u off 0x%llX\n",
                    addr, got, got ? loc.SegmentId : 0, got ? loc.Bank : 0, got ? (unsigned long long)loc.Offset : 0,
                    want, ref.seg, ref.bank, ref.offset);
    }
}
#else
static void probe(unsigned long long addr)
{
    (void)addr;
}
#endif

static void probe3(unsigned long long b)
{
    probe(b - 1);
    probe(b);
    probe(b + 1);
}

static void probe_bank(unsigned id, unsigned long long off)
{
    /* From the segment alone: its range may overlap another's. */
    unsigned want = 0;
    if (id >= 1 && id <= E.nsegs && !E.seg[id - 1].agp && off < E.seg[id - 1].size)
        for (unsigned b = 0; b < E.seg[id - 1].nbanks; b++)
            if (off < E.seg[id - 1].banks[b]) {
                want = b + 1;
                break;
            }
    probes++;
    if (off > (unsigned long long)(SIZE_T)-1)
        return; /* not representable as SIZE_T on this host */
    unsigned got = SEGC_BANK_OF_OFFSET(id, (SIZE_T)off);
    if (got != want && failures++ < 10)
        fprintf(stderr, "BankOfOffset(%u, 0x%llX): got %u, reference %u\n", id, off, got, want);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s EXPECT-FILE [SEED]\n", argv[0]);
        return 2;
    }
    load_expect(argv[1]);
    if (argc > 2)
        rng = strtoull(argv[2], NULL, 0) | 1;
    probe(0);
    probe(1);
    probe(~0ull);
    probe(~0ull - 1);
    for (unsigned i = 0; i < E.nsegs; i++) {
        const ExpSeg *s = &E.seg[i];
        if (s->agp)
            continue;
        probe3(s->base);
        probe3(s->base + s->size);
        for (unsigned b = 0; b < s->nbanks; b++)
            probe3(s->base + s->banks[b]);
        /* Random addresses inside and around the segment. */
        for (unsigned k = 0; k < 64; k++)
            probe(s->base + (s->size ? next() % (s->size + s->size / 4 + 1) : 0));
        for (unsigned b = 0; b < s->nbanks; b++) {
            probe_bank(i + 1, s->banks[b] - 1);
            probe_bank(i + 1, s->banks[b]);
        }
        probe_bank(i + 1, 0);
        probe_bank(i + 1, s->size - 1);
        probe_bank(i + 1, s->size);
        probe_bank(i + 1, ~0ull);
    }
    probe_bank(0, 0);
    probe_bank(E.nsegs + 1, 0);
    probe_bank(~0u, 0);
    for (unsigned k = 0; k < 4096; k++)
        probe(next());
    printf("%s: %lu probes, %lu failed\n", argv[1], probes, failures);
    return failures ? 1 : 0;
}
