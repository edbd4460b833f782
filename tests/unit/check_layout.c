/* SPDX-License-Identifier: MIT */
/* check_layout.c - layout.c: choosing the lookup table costs in proportion
 * to the table it keeps, whatever --lookup-budget allows.
 *
 * Counted, not timed: Lookup.work is every entry computed while choosing
 * (kept or thrown away). */
#include "fixture.h"
#include "segc.h"

#include <check.h>

/* A 4 KiB segment at 0 and one at 2^50: a direct table would need 2^38
 * entries; the best radix tables are small. */
static const char far_board[] = "segc: 1\n"
                                "board: { name: t, wddm: \"1.3\" }\n"
                                "segments:\n"
                                "  - { name: vram, kind: memory, size: 4KiB }\n"
                                "  - { name: gart, kind: aperture, size: 4KiB, base: 0x4_0000_0000_0000 }\n";

static const struct {
    uint64_t budget;
    unsigned levels; /* of the table chosen */
} budget_cases[] = {
    {64 * 1024, 4},
    {256ull << 20, 2},
    {1ull << 40, 2}, /* a budget larger than any table */
};

START_TEST(test_work_follows_table)
{
    Spec *s = spec_from_string(A, "t.yaml", far_board, NULL, &D);
    ck_assert_ptr_nonnull(s);
    Lookup lk;
    layout_lookup(A, s, budget_cases[_i].budget, &lk);
    ck_assert_uint_eq(lk.nlevels, budget_cases[_i].levels);
    size_t kept = 0;
    for (unsigned l = 0; l < lk.nlevels; l++)
        kept += lk.levels[l].n;
    /* Every width of every level count tried, each capped by the best so
     * far: a small multiple of the table kept, never the budget. */
    ck_assert_msg(lk.work <= 64 * kept, "budget %llu: %zu entries computed for a table of %zu",
                  (unsigned long long)budget_cases[_i].budget, lk.work, kept);
    ck_assert_uint_le(lk.bytes, budget_cases[_i].budget);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *t = fixture_tcase("budget");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, test_work_follows_table, 0, (int)countof(budget_cases));
    suite_add_tcase(s, t);
    return s;
}
