/* SPDX-License-Identifier: MIT */
/* check_selftest.c - the probes `segc build --emit-selftest` writes into the
 * self-test, and the answers it expects, against values worked out by hand
 * for one small board: every segment and bank boundary b as b - 1, b and
 * b + 1, sorted, each address once, named by its first reason. */
#include "fixture.h"
#include "segc.h"

#include <check.h>
#include <string.h>

/* Segment 1 'a': [0, 0x2000), banks 'lo' [0, 0x1000) and 'hi' [0x1000, 0x2000);
 * segment 2 'g': [0x10000, 0x11000); segment 3: the AGP aperture (no fixed range). */
static const char spec_text[] =
    "segc: 1\n"
    "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
    "bars:\n"
    "  fb: { index: 0, size: 256MiB }\n"
    "  io: { index: 2, size: 16MiB }\n"
    "segments:\n"
    "  - name: a\n"
    "    kind: memory\n"
    "    base: 0\n"
    "    size: 0x2000\n"
    "    banks: [ { name: lo, size: 0x1000 }, { name: hi } ]\n"
    "  - { name: g, kind: aperture, base: 0x10000, size: 0x1000 }\n"
    "  - { name: agp, kind: agp }\n";

static const TVal *st;

/* After the shared fixture: the spec resolved and checked in A. */
static void setup(void)
{
    Spec *s = spec_from_string(A, "t.yaml", spec_text, NULL, &D);
    ck_assert_msg(s != NULL, "spec does not resolve: %s", D.head ? D.head->msg : "?");
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, &D);
    ck_assert_msg(!diags_failed(&D), "spec is invalid: %s", D.head ? D.head->msg : "?");
    st = selftest_data(A, s);
}

static uint64_t num(const TVal *m, const char *key)
{
    const TVal *v = tv_get(m, key);
    ck_assert_msg(v != NULL, "no key '%s'", key);
    return v->kind == TV_BOOL ? v->b : v->i;
}

static const char *str(const TVal *m, const char *key)
{
    const TVal *v = tv_get(m, key);
    ck_assert_msg(v != NULL && v->kind == TV_STR, "no string '%s'", key);
    return v->s;
}

static const struct {
    uint64_t addr;
    int found;
    unsigned seg, bank;
    uint64_t offset;
    const char *what;
} lookups[] = {
    {0x0, 1, 1, 1, 0x0, "segment 1 'a' base"},
    {0x1, 1, 1, 1, 0x1, "segment 1 'a' base + 1"},
    {0xFFF, 1, 1, 1, 0xFFF, "bank 2 'hi' of segment 1 'a' start - 1"},
    {0x1000, 1, 1, 2, 0x1000, "bank 2 'hi' of segment 1 'a' start"},
    {0x1001, 1, 1, 2, 0x1001, "bank 2 'hi' of segment 1 'a' start + 1"},
    {0x1FFF, 1, 1, 2, 0x1FFF, "segment 1 'a' end - 1"},
    {0x2000, 0, 0, 0, 0, "segment 1 'a' end"},
    {0x2001, 0, 0, 0, 0, "segment 1 'a' end + 1"},
    {0xFFFF, 0, 0, 0, 0, "segment 2 'g' base - 1"},
    {0x10000, 1, 2, 0, 0x0, "segment 2 'g' base"},
    {0x10001, 1, 2, 0, 0x1, "segment 2 'g' base + 1"},
    {0x10FFF, 1, 2, 0, 0xFFF, "segment 2 'g' end - 1"},
    {0x11000, 0, 0, 0, 0, "segment 2 'g' end"},
    {0x11001, 0, 0, 0, 0, "segment 2 'g' end + 1"},
    {0xFFFFFFFFFFFFFFFEull, 0, 0, 0, 0, "the last address - 1"},
    {0xFFFFFFFFFFFFFFFFull, 0, 0, 0, 0, "the last address"},
};

START_TEST(test_lookups)
{
    const TVal *l = tv_get(st, "lookups");
    ck_assert_ptr_nonnull(l);
    ck_assert_uint_eq(l->n, countof(lookups));
    for (size_t i = 0; i < countof(lookups); i++) {
        const TVal *p = l->items[i];
        ck_assert_msg(num(p, "addr") == lookups[i].addr, "probe %zu: address 0x%llx, expected 0x%llx", i,
                      (unsigned long long)num(p, "addr"), (unsigned long long)lookups[i].addr);
        ck_assert_uint_eq(num(p, "found"), (uint64_t)lookups[i].found);
        ck_assert_uint_eq(num(p, "seg"), lookups[i].seg);
        ck_assert_uint_eq(num(p, "bank"), lookups[i].bank);
        ck_assert_uint_eq(num(p, "offset"), lookups[i].offset);
        ck_assert_str_eq(str(p, "what"), lookups[i].what);
    }
}
END_TEST

static const struct {
    unsigned seg;
    uint64_t offset;
    unsigned bank;
    const char *what;
} banks[] = {
    {0, 0x0, 0, "segment id 0"},
    {1, 0x0, 1, "the start of bank 1 'lo' of segment 1 'a'"},
    {1, 0x1, 1, "the start of bank 1 'lo' of segment 1 'a' + 1"},
    {1, 0xFFF, 1, "the start of bank 2 'hi' of segment 1 'a' - 1"},
    {1, 0x1000, 2, "the start of bank 2 'hi' of segment 1 'a'"},
    {1, 0x1001, 2, "the start of bank 2 'hi' of segment 1 'a' + 1"},
    {1, 0x1FFF, 2, "the end of segment 1 'a' - 1"},
    {1, 0x2000, 0, "the end of segment 1 'a'"},
    {1, 0x2001, 0, "the end of segment 1 'a' + 1"},
    {1, 0xFFFFFFFFFFFFFFFFull, 0, "the largest offset in segment 1 'a'"},
    {2, 0x0, 0, "offset 0 of segment 2 'g'"},
    {2, 0x1, 0, "offset 1 of segment 2 'g'"},
    {2, 0xFFF, 0, "the end of segment 2 'g' - 1"},
    {2, 0x1000, 0, "the end of segment 2 'g'"},
    {2, 0x1001, 0, "the end of segment 2 'g' + 1"},
    {2, 0xFFFFFFFFFFFFFFFFull, 0, "the largest offset in segment 2 'g'"},
    {3, 0x0, 0, "offset 0 of segment 3 'agp'"},
    {3, 0x1, 0, "offset 1 of segment 3 'agp'"},
    {3, 0xFFFFFFFFFFFFFFFFull, 0, "the largest offset in segment 3 'agp'"},
    {4, 0x0, 0, "a segment id past the last"},
    {0xFFFFFFFFu, 0x0, 0, "segment id 0xFFFFFFFF"},
};

START_TEST(test_bank_probes)
{
    const TVal *l = tv_get(st, "bank_probes");
    ck_assert_ptr_nonnull(l);
    ck_assert_uint_eq(l->n, countof(banks));
    for (size_t i = 0; i < countof(banks); i++) {
        const TVal *p = l->items[i];
        ck_assert_uint_eq(num(p, "seg"), banks[i].seg);
        ck_assert_msg(num(p, "offset") == banks[i].offset, "probe %zu: offset 0x%llx, expected 0x%llx", i,
                      (unsigned long long)num(p, "offset"), (unsigned long long)banks[i].offset);
        ck_assert_uint_eq(num(p, "bank"), banks[i].bank);
        ck_assert_str_eq(str(p, "what"), banks[i].what);
    }
}
END_TEST

/* Made-up run-time inputs: distinct BAR bases with the high half set, and
 * an AGP aperture. */
START_TEST(test_runtime_inputs)
{
    ck_assert_str_eq(str(st, "file"), "b_selftest.c");
    const TVal *bars = tv_get(st, "bars");
    ck_assert_ptr_nonnull(bars);
    ck_assert_uint_eq(bars->n, 2);
    ck_assert_str_eq(str(bars->items[0], "upper"), "FB");
    ck_assert_uint_eq(num(bars->items[0], "slot"), 0);
    ck_assert_uint_eq(num(bars->items[0], "base"), 0x00003C0000000000ull);
    ck_assert_str_eq(str(bars->items[1], "name"), "io");
    ck_assert_uint_eq(num(bars->items[1], "slot"), 1);
    ck_assert_uint_eq(num(bars->items[1], "base"), 0x00003D0000000000ull);
    ck_assert_uint_eq(num(st, "agp_base"), 0xC0000000u);
    ck_assert_uint_eq(num(st, "agp_size"), 0x08000000u);
}
END_TEST

Suite *selftest_suite(void)
{
    Suite *s = suite_create("selftest");
    TCase *t = fixture_tcase("probes");
    tcase_add_checked_fixture(t, setup, NULL);
    tcase_add_test(t, test_lookups);
    tcase_add_test(t, test_bank_probes);
    tcase_add_test(t, test_runtime_inputs);
    suite_add_tcase(s, t);
    return s;
}
