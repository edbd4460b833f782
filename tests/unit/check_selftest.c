/* SPDX-License-Identifier: MIT */
/* check_selftest.c - what `segc build --emit-selftest` writes into the
 * self-test, against values worked out by hand for one small board: the
 * probes (every segment and bank boundary b as b - 1, b and b + 1, sorted,
 * each address once, named by its first reason) and their answers, the
 * made-up BAR bases, and the spec's own values. */
#include "fixture.h"
#include "segc.h"

#include <check.h>
#include <string.h>

/* Segment 1 'a': [0, 0x2000), banks 'lo' [0, 0x1000) and 'hi' [0x1000, 0x2000);
 * segment 2 'g': [0x10000, 0x11000), the paging segment, seen by the CPU
 * 4 KiB into BAR 'io'; segment 3: the AGP aperture (no fixed range). */
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
    "  - { name: g, kind: aperture, base: 0x10000, size: 0x1000, cpu_visible: { bar: io, offset: 0x1000 } }\n"
    "  - { name: agp, kind: agp }\n"
    "paging: { segment: g }\n";

static const char *text; /* b_selftest.c */

/* After the shared fixture: the spec resolved, checked and built in A. */
static void setup(void)
{
    Spec *s = spec_from_string(A, "t.yaml", spec_text, NULL, &D);
    ck_assert_msg(s != NULL, "spec does not resolve: %s", D.head ? D.head->msg : "?");
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, &D, NULL);
    ck_assert_msg(!diags_failed(&D), "spec is invalid: %s", D.head ? D.head->msg : "?");
    Lookup lk;
    Outputs out = {0};
    BuildOpts bo = {.outdir = "out", .emit_selftest = true};
    ck_assert(emit_render(A, s, &bo, &lk, &out, &D));
    ck_assert_str_eq(out.files[3].name, "b_selftest.c");
    text = arena_strdup(A, out.files[3].text.p);
    outputs_free(&out);
}

/* The lines of the initializer that follows `head` in the self-test. */
static const char *rows_after(const char *head)
{
    const char *p = strstr(text, head);
    ck_assert_msg(p != NULL, "no '%s' in the self-test", head);
    p += strlen(head);
    const char *end = strstr(p, "\n};\n");
    ck_assert_ptr_nonnull(end);
    return arena_printf(A, "%.*s\n", (int)(end - p), p);
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
    Buf want = {0};
    for (size_t i = 0; i < countof(lookups); i++)
        buf_printf(&want, "\n    { 0x%llXull, %d, %uu, %uu, 0x%llXull, \"%s\" },", (unsigned long long)lookups[i].addr,
                   lookups[i].found, lookups[i].seg, lookups[i].bank, (unsigned long long)lookups[i].offset,
                   lookups[i].what);
    buf_putc(&want, '\n');
    ck_assert_str_eq(rows_after("static const LookupProbe lookups[] = {"), want.p);
    buf_free(&want);
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
    Buf want = {0};
    for (size_t i = 0; i < countof(banks); i++)
        buf_printf(&want, "\n    { %uu, 0x%llXull, %uu, \"%s\" },", banks[i].seg, (unsigned long long)banks[i].offset,
                   banks[i].bank, banks[i].what);
    buf_putc(&want, '\n');
    ck_assert_str_eq(rows_after("static const BankProbe bank_probes[] = {"), want.p);
    buf_free(&want);
}
END_TEST

/* Made-up run-time inputs: distinct BAR bases with the high half set, and
 * an AGP aperture. */
START_TEST(test_runtime_inputs)
{
    ck_assert_ptr_nonnull(strstr(text, "\n#define TEST_BAR_FB                       0x00003C0000000000ull /* BAR 'fb', slot 0 */\n"
                                       "#define TEST_BAR_IO                       0x00003D0000000000ull /* BAR 'io', slot 1 */\n"));
    ck_assert_ptr_nonnull(strstr(text, "\n#define TEST_AGP_BASE 0xC0000000ull\n#define TEST_AGP_SIZE 0x8000000ull\n"));
}
END_TEST

/* What the handlers and the header must say, worked out from the spec by
 * selftest.c: the paging segment is the second of the list, the WDDM 1.3
 * version 0x1300, BAR 'io' is PCI BAR2, 'fb' (256 MiB) takes one register. */
START_TEST(test_spec_values)
{
    ck_assert_ptr_nonnull(strstr(text, "\n#define N_SEGMENTS 3u\n#define N_NO_AGP 2u\n#define PAGING_SEGMENT_ID 2u\n"));
    ck_assert_ptr_nonnull(strstr(text, "B_WDDM_VERSION, 0x1300u, 1);"));
    ck_assert_ptr_nonnull(strstr(text, "/* .cpu = */ TEST_BAR_IO + 0x1000ull,"));
    ck_assert_ptr_nonnull(strstr(text, "check_num(\"B_PCI_BAR_IO\", B_PCI_BAR_IO, 2u, 0);"));
    ck_assert_ptr_nonnull(strstr(text, "check_num(\"B_PCI_BAR_TABLE[1]\", pci[1], 2u, 0);"));
    ck_assert_ptr_nonnull(strstr(text, "check_num(\"B_BAR_FB_REGISTERS\", B_BAR_FB_REGISTERS, 1u, 0);"));
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
    tcase_add_test(t, test_spec_values);
    suite_add_tcase(s, t);
    return s;
}
