/* SPDX-License-Identifier: MIT */
/* check_handler.c - runs the generated segment handlers the way dxgkrnl
 * calls them and compares every answer with hand-computed values.
 *
 * Built once per board and set of forms:
 *   cc -DSEGC_GENERIC_NAMES -DSEGC_HEADER='"board_segments.h"' -Iout ...
 *   ./check_handler tests/gen/expect/board.txt
 *
 * The expectation file (see tests/gen/expect/) is written by hand from the
 * spec, independently of segc's emitter.  Every form the header says it
 * answers (SEGC_HAS_QS, _QS3, _QS4) is exercised, and the dispatcher. */
#include SEGC_HEADER

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

/* ---- a dxgkrnl stand-in -------------------------------------------------- */

static SEGC_RUNTIME runtime;
static DXGK_QUERYSEGMENTIN in;
static DXGKARG_QUERYADAPTERINFO arg;
static unsigned char outbuf[64];                /* the OUT structure */
static unsigned char descbuf[(MAXSEG + 2) * 160]; /* the descriptor array */

static void setup(DXGK_QUERYADAPTERINFOTYPE type, size_t outsize)
{
    memset(&runtime, 0, sizeof runtime);
    for (unsigned i = 0; i < sizeof runtime.BarBase / sizeof runtime.BarBase[0]; i++)
        runtime.BarBase[i].QuadPart = (LONGLONG)bar_base(i);
    memset(&in, 0, sizeof in);
    memset(outbuf, 0x5A, sizeof outbuf);
    memset(descbuf, 0xA5, sizeof descbuf);
    memset(&arg, 0, sizeof arg);
    arg.Type = type;
    arg.pInputData = &in;
    arg.InputDataSize = sizeof in;
    arg.pOutputData = outbuf;
    arg.OutputDataSize = (UINT)outsize;
}

#if SEGC_HAS_QS || SEGC_HAS_QS3
static void agp_present(void)
{
    in.AgpApertureBase.QuadPart = 0xE0000000;
    in.AgpApertureSize.QuadPart = 0x10000000;
}
#endif

static int untouched(const void *p, size_t n, unsigned char fill)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != fill)
            return 0;
    return 1;
}

START_TEST(test_constants)
{
    ck_assert_str_eq(SEGC_BOARD_NAME, E.board);
    ck_assert_uint_eq(SEGC_SEGMENT_COUNT, E.count_max);
    ck_assert_uint_eq(SEGC_SEGMENT_COUNT_NO_AGP, E.count_no_agp);
    /* A driver reports at least one segment, with or without an aperture. */
    ck_assert_uint_ge(SEGC_SEGMENT_COUNT_NO_AGP, 1);
    ck_assert_uint_eq(E.nsegs, E.count_max);
}
END_TEST

/* ---- QUERYSEGMENT and QUERYSEGMENT3: the same protocol, two types ------- */

/* One descriptor's common fields against the expectation. */
#define CHECK_CLASSIC_DESC(d, x, i, with_agp)                                                                         \
    do {                                                                                                             \
        if ((x)->agp) {                                                                                              \
            ck_assert_msg(with_agp, "AGP segment %u reported without an aperture", (i) + 1);                         \
            ck_assert_uint_eq((d)->Flags.Value, 0x2u);                                                               \
            ck_assert_uint_eq((unsigned long long)(d)->BaseAddress.QuadPart,                                         \
                              (unsigned long long)in.AgpApertureBase.QuadPart);                                      \
            ck_assert_uint_eq((d)->Size, (SIZE_T)in.AgpApertureSize.QuadPart);                                       \
            ck_assert_uint_eq((d)->CommitLimit, (SIZE_T)in.AgpApertureSize.QuadPart);                                \
            ck_assert_uint_eq((d)->NbOfBanks, 0);                                                                    \
            ck_assert_ptr_null((d)->pBankRangeTable);                                                                \
            break;                                                                                                   \
        }                                                                                                            \
        ck_assert_msg((d)->Flags.Value == (x)->flags, "segment %u: Flags 0x%08X, expected 0x%08X", (i) + 1,          \
                      (unsigned)(d)->Flags.Value, (x)->flags);                                                       \
        ck_assert_msg((unsigned long long)(d)->BaseAddress.QuadPart == (x)->base,                                    \
                      "segment %u: BaseAddress 0x%llX, expected 0x%llX", (i) + 1,                                    \
                      (unsigned long long)(d)->BaseAddress.QuadPart, (x)->base);                                     \
        ck_assert_msg((unsigned long long)(d)->CpuTranslatedAddress.QuadPart == (x)->cpu_value,                      \
                      "segment %u: CpuTranslatedAddress 0x%llX, expected 0x%llX", (i) + 1,                           \
                      (unsigned long long)(d)->CpuTranslatedAddress.QuadPart, (x)->cpu_value);                       \
        ck_assert_msg((d)->Size == (x)->size, "segment %u: Size 0x%llX, expected 0x%llX", (i) + 1,                   \
                      (unsigned long long)(d)->Size, (x)->size);                                                     \
        ck_assert_msg((d)->CommitLimit == (x)->commit, "segment %u: CommitLimit 0x%llX, expected 0x%llX", (i) + 1,   \
                      (unsigned long long)(d)->CommitLimit, (x)->commit);                                            \
        ck_assert_uint_eq((d)->NbOfBanks, (x)->nbanks);                                                              \
        if ((x)->nbanks) {                                                                                           \
            ck_assert_ptr_nonnull((d)->pBankRangeTable);                                                             \
            ck_assert_uint_eq((d)->Flags.Value & 0x8u, 0x8u);                                                        \
            for (unsigned b = 0; b < (x)->nbanks; b++)                                                               \
                ck_assert_msg((d)->pBankRangeTable[b] == (x)->banks[b],                                              \
                              "segment %u bank %u: end 0x%llX, expected 0x%llX", (i) + 1, b + 1,                     \
                              (unsigned long long)(d)->pBankRangeTable[b], (x)->banks[b]);                           \
            ck_assert_uint_eq((d)->pBankRangeTable[(x)->nbanks - 1], (d)->Size);                                     \
        } else {                                                                                                     \
            ck_assert_ptr_null((d)->pBankRangeTable);                                                                \
        }                                                                                                            \
    } while (0)

/* The tests of one classic form: FN answers TYPE with OUT_T over DESC_T;
 * EXTRA checks the fields only that form has. */
#define CLASSIC_TESTS(NAME, FN, TYPE, OUT_T, DESC_T, EXTRA)                                                           \
    static NTSTATUS NAME##_call1(void)                                                                               \
    {                                                                                                                \
        ((OUT_T *)outbuf)->pSegmentDescriptor = NULL;                                                                \
        return FN(&arg, &runtime);                                                                                   \
    }                                                                                                                \
    static NTSTATUS NAME##_call2(UINT n)                                                                             \
    {                                                                                                                \
        ((OUT_T *)outbuf)->NbSegment = n;                                                                            \
        ((OUT_T *)outbuf)->pSegmentDescriptor = (DESC_T *)(void *)descbuf;                                           \
        return FN(&arg, &runtime);                                                                                   \
    }                                                                                                                \
    static void NAME##_check(unsigned count, int with_agp)                                                           \
    {                                                                                                                \
        const OUT_T *o = (const OUT_T *)outbuf;                                                                      \
        const DESC_T *desc = (const DESC_T *)(const void *)descbuf;                                                  \
        ck_assert_uint_eq(o->NbSegment, count);                                                                      \
        ck_assert_uint_eq(o->PagingBufferSegmentId, E.paging_id);                                                    \
        ck_assert_uint_eq(o->PagingBufferSize, E.paging_size);                                                       \
        ck_assert_uint_eq(o->PagingBufferPrivateDataSize, E.paging_priv);                                            \
        for (unsigned i = 0; i < count; i++) {                                                                       \
            const ExpSeg *x = &E.seg[i];                                                                             \
            const DESC_T *d = &desc[i];                                                                              \
            CHECK_CLASSIC_DESC(d, x, i, with_agp);                                                                   \
            EXTRA;                                                                                                   \
        }                                                                                                            \
        ck_assert(untouched(&desc[count], sizeof desc[0], 0xA5));                                                    \
    }                                                                                                                \
    START_TEST(NAME##_first_call)                                                                                    \
    {                                                                                                                \
        setup(TYPE, sizeof(OUT_T));                                                                                  \
        ck_assert_int_eq(NAME##_call1(), STATUS_SUCCESS);                                                            \
        ck_assert_uint_eq(((OUT_T *)outbuf)->NbSegment, E.count_no_agp);                                             \
        ck_assert_uint_eq(((OUT_T *)outbuf)->PagingBufferSize, 0x5A5A5A5Au); /* only NbSegment */                   \
        setup(TYPE, sizeof(OUT_T));                                                                                  \
        agp_present();                                                                                               \
        ck_assert_int_eq(NAME##_call1(), STATUS_SUCCESS);                                                            \
        ck_assert_uint_eq(((OUT_T *)outbuf)->NbSegment, E.count_max);                                                \
    }                                                                                                                \
    END_TEST                                                                                                         \
    START_TEST(NAME##_second_call)                                                                                   \
    {                                                                                                                \
        setup(TYPE, sizeof(OUT_T));                                                                                  \
        ck_assert_int_eq(NAME##_call1(), STATUS_SUCCESS);                                                            \
        ck_assert_int_eq(NAME##_call2(((OUT_T *)outbuf)->NbSegment), STATUS_SUCCESS);                                \
        NAME##_check(E.count_no_agp, 0);                                                                             \
        setup(TYPE, sizeof(OUT_T));                                                                                  \
        agp_present();                                                                                               \
        ck_assert_int_eq(NAME##_call2(E.count_max), STATUS_SUCCESS);                                                 \
        NAME##_check(E.count_max, 1);                                                                                \
        setup(TYPE, sizeof(OUT_T)); /* more room than needed */                                                      \
        ck_assert_int_eq(NAME##_call2(E.count_max + 1), STATUS_SUCCESS);                                             \
        NAME##_check(E.count_no_agp, 0);                                                                             \
    }                                                                                                                \
    END_TEST                                                                                                         \
    START_TEST(NAME##_refusals)                                                                                      \
    {                                                                                                                \
        setup(TYPE, sizeof(OUT_T));                                                                                  \
        if (E.count_no_agp)                                                                                          \
            ck_assert_int_eq(NAME##_call2(E.count_no_agp - 1), STATUS_BUFFER_TOO_SMALL);                             \
        ck_assert_int_eq(FN(NULL, &runtime), STATUS_INVALID_PARAMETER);                                              \
        if (SEGC_BAR_COUNT) /* a board with no BARs needs no runtime */                                            \
            ck_assert_int_eq(FN(&arg, NULL), STATUS_INVALID_PARAMETER);                                              \
        arg.pOutputData = NULL;                                                                                      \
        ck_assert_int_eq(FN(&arg, &runtime), STATUS_INVALID_PARAMETER);                                              \
        setup(TYPE, sizeof(OUT_T) - 1);                                                                              \
        ck_assert_int_eq(NAME##_call2(E.count_max), STATUS_BUFFER_TOO_SMALL);                                        \
        setup(DXGKQAITYPE_DRIVERCAPS, sizeof(OUT_T));                                                                \
        ck_assert_int_eq(NAME##_call2(E.count_max), STATUS_NOT_SUPPORTED);                                           \
        ck_assert(untouched(descbuf, sizeof descbuf, 0xA5));                                                         \
        setup(TYPE, sizeof(OUT_T));                                                                                  \
        if (SEGC_HAS_AGP) {                                                                                          \
            arg.pInputData = NULL;                                                                                   \
            ck_assert_int_eq(NAME##_call1(), STATUS_INVALID_PARAMETER);                                              \
            setup(TYPE, sizeof(OUT_T));                                                                              \
            arg.InputDataSize = sizeof in - 1;                                                                       \
            ck_assert_int_eq(NAME##_call1(), STATUS_BUFFER_TOO_SMALL);                                               \
        } else { /* a board without AGP never reads the input */                                                     \
            arg.pInputData = NULL;                                                                                   \
            arg.InputDataSize = 0;                                                                                   \
            ck_assert_int_eq(NAME##_call1(), STATUS_SUCCESS);                                                        \
        }                                                                                                            \
    }                                                                                                                \
    END_TEST

#if SEGC_HAS_QS3
CLASSIC_TESTS(qs3, SEGC_QUERY_SEGMENT3, DXGKQAITYPE_QUERYSEGMENT3, DXGK_QUERYSEGMENTOUT3, DXGK_SEGMENTDESCRIPTOR3, {
    if (!x->agp)
        ck_assert_msg(d->SystemMemoryEndAddress == x->sysend, "segment %u: SystemMemoryEndAddress 0x%llX, expected 0x%llX",
                      i + 1, (unsigned long long)d->SystemMemoryEndAddress, x->sysend);
    ck_assert_uint_eq(d->Reserved, 0);
})
#endif
#if SEGC_HAS_QS
/* The legacy descriptor has no SystemMemoryEndAddress (segc refuses a
 * partially preserved segment for it) and keeps Flags last. */
CLASSIC_TESTS(qs, SEGC_QUERY_SEGMENT, DXGKQAITYPE_QUERYSEGMENT, DXGK_QUERYSEGMENTOUT, DXGK_SEGMENTDESCRIPTOR, {
    ck_assert_uint_eq(x->sysend, 0);
    ck_assert_uint_eq(offsetof(DXGK_SEGMENTDESCRIPTOR, Flags), 48);
})
#endif

/* ---- QUERYSEGMENT4 ------------------------------------------------------------ */

#if SEGC_HAS_QS4
static DXGK_QUERYSEGMENTOUT4 *out4(void)
{
    return (DXGK_QUERYSEGMENTOUT4 *)(void *)outbuf;
}

static NTSTATUS qs4_call2(UINT n, SIZE_T stride)
{
    out4()->NbSegment = n;
    out4()->pSegmentDescriptor = descbuf;
    out4()->SegmentDescriptorStride = stride;
    return SEGC_QUERY_SEGMENT4(&arg, &runtime);
}

static void qs4_check(SIZE_T stride)
{
    ck_assert_uint_eq(out4()->NbSegment, E.count_max);
    ck_assert_uint_eq(out4()->PagingBufferSegmentId, E.paging_id);
    ck_assert_uint_eq(out4()->PagingBufferSize, E.paging_size);
    ck_assert_uint_eq(out4()->PagingBufferPrivateDataSize, E.paging_priv);
    ck_assert_uint_eq(out4()->SegmentDescriptorStride, stride); /* the OS's, left alone */
    for (unsigned i = 0; i < E.count_max; i++) {
        const ExpSeg *x = &E.seg[i];
        const DXGK_SEGMENTDESCRIPTOR4 *d = (const DXGK_SEGMENTDESCRIPTOR4 *)(const void *)(descbuf + i * stride);
        ck_assert_msg(!x->agp, "an AGP segment in a QUERYSEGMENT4 board");
        ck_assert_msg(d->Flags.Value == x->flags, "segment %u: Flags 0x%08X, expected 0x%08X", i + 1,
                      (unsigned)d->Flags.Value, x->flags);
        ck_assert_uint_eq((unsigned long long)d->BaseAddress.QuadPart, x->base);
        ck_assert_uint_eq(d->Size, x->size);
        ck_assert_uint_eq(d->CommitLimit, x->commit);
        ck_assert_uint_eq(d->SystemMemoryEndAddress, x->sysend);
        if (x->host) {
            ck_assert_msg(d->CpuHostAperture.PhysicalAddress == x->host_value, "segment %u: host aperture 0x%llX, expected 0x%llX",
                          i + 1, (unsigned long long)d->CpuHostAperture.PhysicalAddress, x->host_value);
            ck_assert_uint_eq(d->CpuHostAperture.SizeInPages, x->host_pages);
        } else {
            ck_assert_uint_eq((unsigned long long)d->CpuTranslatedAddress.QuadPart, x->cpu_value);
            ck_assert_uint_eq(d->CpuHostAperture.SizeInPages, 0);
        }
        ck_assert_uint_eq(d->NumInvalidMemoryRanges, x->invalid_ranges);
        ck_assert_uint_eq(d->VprRangeStartOffset, x->vpr_start);
        ck_assert_uint_eq(d->VprRangeSize, x->vpr_size);
        ck_assert_uint_eq(d->VprAlignment, x->vpr_align);
        ck_assert_uint_eq(d->NumVprSupported, x->vpr_count);
        ck_assert_uint_eq(d->VprReserveSize, x->vpr_reserve);
        ck_assert_uint_eq(d->NumUEFIFrameBufferRanges, x->uefi_ranges);
        /* The bytes of a larger stride past the struct are the OS's. */
        if (stride > sizeof *d)
            ck_assert(untouched(descbuf + i * stride + sizeof *d, stride - sizeof *d, 0xA5));
    }
    ck_assert(untouched(descbuf + E.count_max * stride, stride, 0xA5));
}

START_TEST(qs4_first_call)
{
    setup(DXGKQAITYPE_QUERYSEGMENT4, sizeof(DXGK_QUERYSEGMENTOUT4));
    out4()->NbSegment = 0; /* how the OS asks for the count */
    out4()->pSegmentDescriptor = NULL;
    ck_assert_int_eq(SEGC_QUERY_SEGMENT4(&arg, &runtime), STATUS_SUCCESS);
    ck_assert_uint_eq(out4()->NbSegment, E.count_max);
    ck_assert_uint_eq(out4()->PagingBufferSize, 0x5A5A5A5Au);
    ck_assert(untouched(descbuf, sizeof descbuf, 0xA5));
}
END_TEST

START_TEST(qs4_second_call)
{
    static const SIZE_T strides[] = {sizeof(DXGK_SEGMENTDESCRIPTOR4), sizeof(DXGK_SEGMENTDESCRIPTOR4) + 8,
                                     sizeof(DXGK_SEGMENTDESCRIPTOR4) + 64};
    for (size_t k = 0; k < sizeof strides / sizeof strides[0]; k++) {
        setup(DXGKQAITYPE_QUERYSEGMENT4, sizeof(DXGK_QUERYSEGMENTOUT4));
        ck_assert_int_eq(qs4_call2(E.count_max, strides[k]), STATUS_SUCCESS);
        qs4_check(strides[k]);
    }
}
END_TEST

START_TEST(qs4_refusals)
{
    const SIZE_T s = sizeof(DXGK_SEGMENTDESCRIPTOR4);
    setup(DXGKQAITYPE_QUERYSEGMENT4, sizeof(DXGK_QUERYSEGMENTOUT4));
    ck_assert_int_eq(qs4_call2(E.count_max, s - 8), STATUS_INVALID_PARAMETER);  /* stride too short */
    ck_assert_int_eq(qs4_call2(E.count_max, s + 4), STATUS_INVALID_PARAMETER);  /* misaligned */
    if (E.count_max > 1)
        ck_assert_int_eq(qs4_call2(E.count_max - 1, s), STATUS_BUFFER_TOO_SMALL);
    out4()->pSegmentDescriptor = NULL;
    out4()->NbSegment = E.count_max;
    out4()->SegmentDescriptorStride = s;
    ck_assert_int_eq(SEGC_QUERY_SEGMENT4(&arg, &runtime), STATUS_INVALID_PARAMETER);
    setup(DXGKQAITYPE_QUERYSEGMENT4, sizeof(DXGK_QUERYSEGMENTOUT4) - 1);
    ck_assert_int_eq(qs4_call2(E.count_max, s), STATUS_BUFFER_TOO_SMALL);
    setup(DXGKQAITYPE_QUERYSEGMENT3, sizeof(DXGK_QUERYSEGMENTOUT4));
    ck_assert_int_eq(qs4_call2(E.count_max, s), STATUS_NOT_SUPPORTED);
    ck_assert_int_eq(SEGC_QUERY_SEGMENT4(NULL, &runtime), STATUS_INVALID_PARAMETER);
    ck_assert(untouched(descbuf, sizeof descbuf, 0xA5));
}
END_TEST
#endif

/* ---- the dispatcher ------------------------------------------------------------- */

START_TEST(test_dispatch)
{
    static const DXGK_QUERYADAPTERINFOTYPE types[] = {DXGKQAITYPE_QUERYSEGMENT, DXGKQAITYPE_QUERYSEGMENT3,
                                                      DXGKQAITYPE_QUERYSEGMENT4, DXGKQAITYPE_DRIVERCAPS};
    static const int answered[] = {SEGC_HAS_QS, SEGC_HAS_QS3, SEGC_HAS_QS4, 0};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        setup(types[k], sizeof outbuf);
        /* A first call of every form: NULL descriptors, NbSegment 0. */
        memset(outbuf, 0, sizeof outbuf);
        NTSTATUS st = SEGC_QUERY_SEGMENTS(&arg, &runtime);
        if (answered[k]) {
            ck_assert_int_eq(st, STATUS_SUCCESS);
            ck_assert_uint_eq(*(UINT *)(void *)outbuf, types[k] == DXGKQAITYPE_QUERYSEGMENT4 ? E.count_max : E.count_no_agp);
        } else {
            ck_assert_int_eq(st, STATUS_NOT_SUPPORTED);
        }
    }
    ck_assert_int_eq(SEGC_QUERY_SEGMENTS(NULL, &runtime), STATUS_INVALID_PARAMETER);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s EXPECT-FILE\n", argv[0]);
        return 2;
    }
    load_expect(argv[1]);
    Suite *s = suite_create(SEGC_BOARD_NAME);
    TCase *tc = tcase_create("handlers");
    tcase_add_test(tc, test_constants);
    tcase_add_test(tc, test_dispatch);
#if SEGC_HAS_QS3
    tcase_add_test(tc, qs3_first_call);
    tcase_add_test(tc, qs3_second_call);
    tcase_add_test(tc, qs3_refusals);
#endif
#if SEGC_HAS_QS
    tcase_add_test(tc, qs_first_call);
    tcase_add_test(tc, qs_second_call);
    tcase_add_test(tc, qs_refusals);
#endif
#if SEGC_HAS_QS4
    tcase_add_test(tc, qs4_first_call);
    tcase_add_test(tc, qs4_second_call);
    tcase_add_test(tc, qs4_refusals);
#endif
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
