/* SPDX-License-Identifier: MIT */
/* check_json.c - the JSON writer (json.c): string escaping byte by byte,
 * the pretty layout, hex integers, code-point counting; and the
 * diagnostics report's waived findings and code-point columns. */
#include "fixture.h"
#include "segc.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *in;
    size_t len; /* 0: strlen(in) */
    const char *out;
} esc_cases[] = {
    {"plain", 0, "plain"},
    {"quote \" and backslash \\", 0, "quote \\\" and backslash \\\\"},
    {"\n\r\t\b\f", 0, "\\n\\r\\t\\b\\f"},
    {"\x01\x1f", 0, "\\u0001\\u001f"},
    {"nul\0x", 5, "nul\\u0000x"},
    {"del \x7f", 0, "del \\u007f"},
    {"C1 \xc2\x80 \xc2\x85 \xc2\x9f", 0, "C1 \\u0080 \\u0085 \\u009f"},
    /* Non-ASCII passes through as UTF-8. */
    {"v\xc3\xaf" "d\xc3\xa9" "o \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80", 0, "v\xc3\xaf" "d\xc3\xa9" "o \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80"},
    {"/ stays", 0, "/ stays"},
    /* Bytes that are not UTF-8 become U+FFFD, one per byte. */
    {"bad \xff end", 0, "bad \\ufffd end"},
    {"lone \x80", 0, "lone \\ufffd"},
    {"cut \xe2\x82", 0, "cut \\ufffd\\ufffd"},
    {"overlong \xc0\xaf", 0, "overlong \\ufffd\\ufffd"},
    {"surrogate \xed\xa0\x80", 0, "surrogate \\ufffd\\ufffd\\ufffd"},
    {"too big \xf4\x90\x80\x80", 0, "too big \\ufffd\\ufffd\\ufffd\\ufffd"},
};

START_TEST(test_escape)
{
    Buf b = {0};
    size_t n = esc_cases[_i].len ? esc_cases[_i].len : strlen(esc_cases[_i].in);
    json_escape(&b, esc_cases[_i].in, n);
    buf_putc(&b, 0);
    ck_assert_str_eq(b.p, esc_cases[_i].out);
    buf_free(&b);
}
END_TEST

START_TEST(test_layout)
{
    Buf b = {0};
    JsonW w;
    json_init(&w, &b);
    json_obj_begin(&w);
    json_key(&w, "z");
    json_uint(&w, 9007199254740992ull); /* 2^53: the largest exact number */
    json_key(&w, "a");
    json_arr_begin(&w);
    json_hex(&w, 0);
    json_hex(&w, 0xABCDEF0123456789ull);
    json_str(&w, NULL);
    json_bool(&w, true);
    json_arr_end(&w);
    json_key(&w, "empty");
    json_obj_begin(&w);
    json_obj_end(&w);
    json_key(&w, "none");
    json_arr_begin(&w);
    json_arr_end(&w);
    json_key(&w, "k\"ey");
    json_nul(&w);
    json_obj_end(&w);
    buf_putc(&b, 0);
    /* Keys in the order written, not sorted. */
    ck_assert_str_eq(b.p, "{\n"
                          "  \"z\": 9007199254740992,\n"
                          "  \"a\": [\n"
                          "    \"0x0\",\n"
                          "    \"0xABCDEF0123456789\",\n"
                          "    null,\n"
                          "    true\n"
                          "  ],\n"
                          "  \"empty\": {},\n"
                          "  \"none\": [],\n"
                          "  \"k\\\"ey\": null\n"
                          "}\n");
    ck_assert_uint_eq(w.depth, 0);
    buf_free(&b);
}
END_TEST

START_TEST(test_utf8_count)
{
    ck_assert_uint_eq(utf8_count("abc", 3), 3);
    ck_assert_uint_eq(utf8_count("v\xc3\xaf" "d\xc3\xa9" "o", 7), 5);
    ck_assert_uint_eq(utf8_count("\xf0\x9f\x98\x80", 4), 1);
    ck_assert_uint_eq(utf8_count("\xff\xfe", 2), 2);
    ck_assert_uint_eq(utf8_count("\xe2\x82", 2), 2); /* cut short: two stray bytes */
    ck_assert_uint_eq(utf8_count("", 0), 0);
}
END_TEST

/* utf8_check: where the well-formed UTF-8 ends, at the edges of each
 * form (the least and greatest value of 1, 2, 3 and 4 bytes, the
 * surrogates, U+10FFFF) and one past each. */
START_TEST(test_utf8_check)
{
    static const struct {
        const char *s;
        size_t ok; /* bytes well-formed from the start */
    } c[] = {
        {"\x7f", 1},
        {"\xc2\x80", 2},         /* U+0080 */
        {"\xc1\xbf", 0},         /* U+007F in two bytes */
        {"\xdf\xbf", 2},         /* U+07FF */
        {"\xe0\xa0\x80", 3},     /* U+0800 */
        {"\xe0\x9f\xbf", 0},     /* U+07FF in three bytes */
        {"\xed\x9f\xbf", 3},     /* U+D7FF */
        {"\xed\xa0\x80", 0},     /* U+D800, a surrogate */
        {"\xed\xbf\xbf", 0},     /* U+DFFF */
        {"\xee\x80\x80", 3},     /* U+E000 */
        {"\xef\xbf\xbf", 3},     /* U+FFFF */
        {"\xf0\x90\x80\x80", 4}, /* U+10000 */
        {"\xf0\x8f\xbf\xbf", 0}, /* U+FFFF in four bytes */
        {"\xf4\x8f\xbf\xbf", 4}, /* U+10FFFF */
        {"\xf4\x90\x80\x80", 0}, /* U+110000 */
        {"\xf8\x88\x80\x80\x80", 0},
        {"ab\xe2\x82", 2},       /* cut short */
        {"abcdefgh\xe0\xa0\x80x", 12},
        {"abcdefgh\xe0\x9f\xbfx", 8},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        ck_assert_msg(utf8_check((const unsigned char *)c[i].s, strlen(c[i].s)) == c[i].ok, "case %zu", i);
}
END_TEST

/* Diagnostics sort by file, then place (a finding about a whole file
 * before its lines), then the order they were made in. */
START_TEST(test_diag_order)
{
    SrcFile *f = src_from_string(A, "t.yaml", "abcdefghijklmnopqrstuvwxyz\n", 27);
    error_at(&D, C_internal, pos_at(f, 11, 1), "eleven");
    error_at(&D, C_internal, pos_at(f, 10, 1), "ten");
    error_at(&D, C_internal, pos_at(f, 10, 1), "ten again");
    error_at(&D, C_internal, pos_file(f), "the file");
    error_at(&D, C_internal, pos_at(f, 0, 1), "zero");
    diags_sort(&D);
    static const char *const want[] = {"the file", "zero", "ten", "ten again", "eleven"};
    const Diag *g = D.head;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++, g = g->next) {
        ck_assert_ptr_nonnull(g);
        ck_assert_str_eq(g->msg, want[i]);
    }
    ck_assert_ptr_null(g);
}
END_TEST

/* A waived finding is kept apart: not counted, not printed as text, and it
 * carries the waiver's reason; SARIF columns count code points. */
static const char waived_spec[] = "segc: 1\n"
                                  "board: { name: t, wddm: \"1.3\" }\n"
                                  "segments:\n"
                                  "  - { name: \"\xc3\xa9\", kind: memory, size: 256MiB, flags: [cache_coherent],\n"
                                  "      waive: { cache-coherent-memory: \"needed\" } }\n";

START_TEST(test_waived_kept_apart)
{
    RuleConfig rc;
    rules_default(&rc);
    Spec *s = spec_from_string(A, "t.yaml", waived_spec, &(ResolveOpts){0}, &D);
    ck_assert_ptr_nonnull(s);
    spec_check(s, &rc, &D, NULL);
    diags_sort(&D);
    /* names-c-ident fires on the name; the waived finding is elsewhere. */
    ck_assert_ptr_nonnull(D.head);
    ck_assert_str_eq(code_name(D.head->code), "names-c-ident");
    ck_assert_ptr_null(D.head->next);
    ck_assert_uint_eq(D.nwarnings, 0);
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_ptr_nonnull(D.waived);
    ck_assert_ptr_null(D.waived->next);
    ck_assert_str_eq(code_name(D.waived->code), "cache-coherent-memory");
    ck_assert_str_eq(D.waived->waiver, "needed");
    ck_assert_uint_eq(src_loc(D.waived->pos).line, 4);
    ck_assert_uint_eq(src_loc(D.waived->pos).col, 55); /* bytes: the é is two */
    ck_assert_uint_eq(src_loc(D.waived->waiver_pos).line, 5);
    ck_assert_uint_eq(src_loc(D.waived->waiver_pos).col, 16);
    /* Text output leaves it out. */
    char *text = NULL, *doc = NULL;
    size_t tn = 0, dn = 0;
    FILE *f = open_memstream(&text, &tn);
    diags_print_text(f, &D, (DiagStyle){false});
    fclose(f);
    ck_assert_ptr_null(strstr(text, "cache-coherent-memory"));
    ck_assert_ptr_nonnull(strstr(text, "names-c-ident"));
    /* SARIF: a suppressed result at code-point column 54 (byte 55). */
    DiagReport *r = diag_report_new();
    diag_report_add(r, "t.yaml", &D, s);
    f = open_memstream(&doc, &dn);
    diag_report_write(f, r, DIAG_SARIF);
    fclose(f);
    const char *res = strstr(doc, "\"ruleId\": \"cache-coherent-memory\"");
    ck_assert_ptr_nonnull(res);
    ck_assert_ptr_nonnull(strstr(res, "\"startColumn\": 54,\n"));
    ck_assert_ptr_nonnull(strstr(res, "\"justification\": \"needed\""));
    diag_report_free(r);
    free(text);
    free(doc);
}
END_TEST

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = fixture_tcase("writer");
    tcase_add_loop_test(tc, test_escape, 0, (int)(sizeof esc_cases / sizeof esc_cases[0]));
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_utf8_count);
    tcase_add_test(tc, test_utf8_check);
    tcase_add_test(tc, test_diag_order);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("waived");
    tcase_add_test(tc, test_waived_kept_apart);
    suite_add_tcase(s, tc);
    return s;
}
