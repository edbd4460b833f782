/* check_handler.c - runs a generated QUERYSEGMENT3 handler the way
 * dxgkrnl calls it and compares every answer with hand-computed values.
 *
 * Built once per board:
 *   cc -DSEGC_GENERIC_NAMES -DSEGC_HEADER='"board_segments.h"' -Iout ...
 *   ./check_handler tests/gen/expect/board.txt
 *
 * The expectation file (see tests/gen/expect/) is written by hand from the
 * spec, independently of segc's emitter. */
#include SEGC_HEADER

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

/* ---- a dxgkrnl stand-in -------------------------------------------------- */

static SEGC_RUNTIME runtime;
static DXGK_QUERYSEGMENTIN in;
static DXGK_QUERYSEGMENTOUT3 out;
static DXGK_SEGMENTDESCRIPTOR3 desc[MAXSEG + 2];
static DXGKARG_QUERYADAPTERINFO arg;

static void setup(void)
{
    memset(&runtime, 0, sizeof runtime);
    for (unsigned i = 0; i < sizeof runtime.BarBase / sizeof runtime.BarBase[0]; i++)
        runtime.BarBase[i].QuadPart = (LONGLONG)bar_base(i);
    memset(&in, 0, sizeof in);
    memset(&out, 0x5A, sizeof out);
    memset(desc, 0xA5, sizeof desc);
    memset(&arg, 0, sizeof arg);
    arg.Type = DXGKQAITYPE_QUERYSEGMENT3;
    arg.pInputData = &in;
    arg.InputDataSize = sizeof in;
    arg.pOutputData = &out;
    arg.OutputDataSize = sizeof out;
}

static void agp_present(void)
{
    in.AgpApertureBase.QuadPart = 0xE0000000;
    in.AgpApertureSize.QuadPart = 0x10000000;
    in.AgpFlags.Value = 0;
}

static NTSTATUS call1(void)
{
    out.pSegmentDescriptor = NULL;
    return SEGC_QUERY_SEGMENT3(&arg, &runtime);
}

static NTSTATUS call2(UINT n)
{
    out.NbSegment = n;
    out.pSegmentDescriptor = desc;
    return SEGC_QUERY_SEGMENT3(&arg, &runtime);
}

static int untouched(const void *p, size_t n, unsigned char fill)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != fill)
            return 0;
    return 1;
}

/* ---- tests ------------------------------------------------------------------ */

START_TEST(test_constants)
{
    ck_assert_str_eq(SEGC_BOARD_NAME, E.board);
    ck_assert_uint_eq(SEGC_SEGMENT_COUNT, E.count_max);
    ck_assert_uint_eq(SEGC_SEGMENT_COUNT_NO_AGP, E.count_no_agp);
    ck_assert_uint_eq(E.nsegs, E.count_max);
}
END_TEST

START_TEST(test_first_call_counts)
{
    setup();
    ck_assert_int_eq(call1(), STATUS_SUCCESS);
    ck_assert_uint_eq(out.NbSegment, E.count_no_agp);
    /* Only NbSegment is written in the first call. */
    ck_assert_uint_eq(out.PagingBufferSegmentId, 0x5A5A5A5Au);
    ck_assert_uint_eq(out.PagingBufferSize, 0x5A5A5A5Au);
    setup();
    agp_present();
    ck_assert_int_eq(call1(), STATUS_SUCCESS);
    ck_assert_uint_eq(out.NbSegment, E.count_max);
}
END_TEST

static void check_descriptors(unsigned count, int with_agp)
{
    ck_assert_uint_eq(out.NbSegment, count);
    ck_assert_uint_eq(out.PagingBufferSegmentId, E.paging_id);
    ck_assert_uint_eq(out.PagingBufferSize, E.paging_size);
    ck_assert_uint_eq(out.PagingBufferPrivateDataSize, E.paging_priv);
    for (unsigned i = 0; i < count; i++) {
        const ExpSeg *x = &E.seg[i];
        const DXGK_SEGMENTDESCRIPTOR3 *d = &desc[i];
        if (x->agp) {
            ck_assert_msg(with_agp, "AGP segment %u reported without an aperture", i + 1);
            ck_assert_uint_eq(d->Flags.Value, 0x2u);
            ck_assert_uint_eq((unsigned long long)d->BaseAddress.QuadPart, (unsigned long long)in.AgpApertureBase.QuadPart);
            ck_assert_uint_eq(d->Size, (SIZE_T)in.AgpApertureSize.QuadPart);
            ck_assert_uint_eq(d->CommitLimit, (SIZE_T)in.AgpApertureSize.QuadPart);
            ck_assert_uint_eq(d->NbOfBanks, 0);
            ck_assert_ptr_null(d->pBankRangeTable);
        } else {
            ck_assert_msg(d->Flags.Value == x->flags, "segment %u: Flags 0x%08X, expected 0x%08X", i + 1,
                          (unsigned)d->Flags.Value, x->flags);
            ck_assert_msg((unsigned long long)d->BaseAddress.QuadPart == x->base, "segment %u: BaseAddress 0x%llX, expected 0x%llX",
                          i + 1, (unsigned long long)d->BaseAddress.QuadPart, x->base);
            ck_assert_msg((unsigned long long)d->CpuTranslatedAddress.QuadPart == x->cpu_value,
                          "segment %u: CpuTranslatedAddress 0x%llX, expected 0x%llX", i + 1,
                          (unsigned long long)d->CpuTranslatedAddress.QuadPart, x->cpu_value);
            ck_assert_msg(d->Size == x->size, "segment %u: Size 0x%llX, expected 0x%llX", i + 1,
                          (unsigned long long)d->Size, x->size);
            ck_assert_msg(d->CommitLimit == x->commit, "segment %u: CommitLimit 0x%llX, expected 0x%llX", i + 1,
                          (unsigned long long)d->CommitLimit, x->commit);
            ck_assert_msg(d->SystemMemoryEndAddress == x->sysend, "segment %u: SystemMemoryEndAddress 0x%llX, expected 0x%llX",
                          i + 1, (unsigned long long)d->SystemMemoryEndAddress, x->sysend);
            ck_assert_uint_eq(d->NbOfBanks, x->nbanks);
            if (x->nbanks) {
                ck_assert_ptr_nonnull(d->pBankRangeTable);
                ck_assert_uint_eq(d->Flags.Value & 0x8u, 0x8u);
                for (unsigned b = 0; b < x->nbanks; b++)
                    ck_assert_msg(d->pBankRangeTable[b] == x->banks[b], "segment %u bank %u: end 0x%llX, expected 0x%llX",
                                  i + 1, b + 1, (unsigned long long)d->pBankRangeTable[b], x->banks[b]);
                ck_assert_uint_eq(d->pBankRangeTable[x->nbanks - 1], d->Size);
            } else {
                ck_assert_ptr_null(d->pBankRangeTable);
            }
        }
        ck_assert_uint_eq(d->Reserved, 0);
    }
    /* Nothing past the reported segments is written. */
    ck_assert(untouched(&desc[count], sizeof desc[0], 0xA5));
}

START_TEST(test_second_call_fills_every_field)
{
    setup();
    ck_assert_int_eq(call1(), STATUS_SUCCESS);
    UINT n = out.NbSegment;
    ck_assert_int_eq(call2(n), STATUS_SUCCESS);
    check_descriptors(E.count_no_agp, 0);
}
END_TEST

START_TEST(test_agp_present)
{
    setup();
    agp_present();
    ck_assert_int_eq(call1(), STATUS_SUCCESS);
    ck_assert_int_eq(call2(out.NbSegment), STATUS_SUCCESS);
    check_descriptors(E.count_max, 1);
}
END_TEST

START_TEST(test_too_few_descriptors)
{
    setup();
    if (E.count_no_agp == 0)
        return;
    ck_assert_int_eq(call2(E.count_no_agp - 1), STATUS_BUFFER_TOO_SMALL);
    ck_assert(untouched(desc, sizeof desc, 0xA5));
    ck_assert_uint_eq(out.PagingBufferSize, 0x5A5A5A5Au);
}
END_TEST

START_TEST(test_more_descriptors_than_needed)
{
    setup();
    ck_assert_int_eq(call2(E.count_max + 1), STATUS_SUCCESS);
    check_descriptors(E.count_no_agp, 0);
}
END_TEST

START_TEST(test_bad_arguments)
{
    setup();
    ck_assert_int_eq(SEGC_QUERY_SEGMENT3(NULL, &runtime), STATUS_INVALID_PARAMETER);
    ck_assert_int_eq(SEGC_QUERY_SEGMENT3(&arg, NULL), STATUS_INVALID_PARAMETER);
    arg.pOutputData = NULL;
    ck_assert_int_eq(call1(), STATUS_INVALID_PARAMETER);
    setup();
    arg.OutputDataSize = sizeof out - 1;
    ck_assert_int_eq(call2(E.count_max), STATUS_BUFFER_TOO_SMALL);
    setup();
    arg.Type = DXGKQAITYPE_QUERYSEGMENT;
    ck_assert_int_eq(call2(E.count_max), STATUS_NOT_SUPPORTED);
    setup();
    arg.Type = DXGKQAITYPE_DRIVERCAPS;
    ck_assert_int_eq(call1(), STATUS_NOT_SUPPORTED);
    /* None of these wrote a descriptor. */
    ck_assert(untouched(desc, sizeof desc, 0xA5));
}
END_TEST

START_TEST(test_agp_needs_input)
{
    setup();
    if (!SEGC_HAS_AGP) {
        /* Boards without AGP do not read the input at all. */
        arg.pInputData = NULL;
        arg.InputDataSize = 0;
        ck_assert_int_eq(call1(), STATUS_SUCCESS);
        return;
    }
    arg.pInputData = NULL;
    ck_assert_int_eq(call1(), STATUS_INVALID_PARAMETER);
    setup();
    arg.InputDataSize = sizeof in - 1;
    ck_assert_int_eq(call1(), STATUS_BUFFER_TOO_SMALL);
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
    TCase *tc = tcase_create("handler");
    tcase_add_test(tc, test_constants);
    tcase_add_test(tc, test_first_call_counts);
    tcase_add_test(tc, test_second_call_fills_every_field);
    tcase_add_test(tc, test_agp_present);
    tcase_add_test(tc, test_too_few_descriptors);
    tcase_add_test(tc, test_more_descriptors_than_needed);
    tcase_add_test(tc, test_bad_arguments);
    tcase_add_test(tc, test_agp_needs_input);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
