/* SPDX-License-Identifier: MIT */
/* check_diagedit.c - diag.c's machine-applicable fixes (DiagEdit): the
 * edit helpers on hand-written text, and the four findings that carry an
 * edit, each applied to its spec and the spec checked again.
 *
 * An edit is applied here from its line and column, counting bytes of the
 * text, not with diag.c's own helpers. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "segc.h"

/* `text` with edit `e` applied (at.len bytes from at.off replaced). */
static char *applied(const char *text, const DiagEdit *e)
{
    size_t off = e->at.off;
    ck_assert_uint_le(off + e->at.len, strlen(text));
    return arena_printf(A, "%.*s%s%s", (int)off, text, e->text, text + off + e->at.len);
}

/* A finding at `needle` (its first occurrence in `text`, len bytes). */
static Diag *finding_at(const SrcFile *f, const char *needle, uint32_t len)
{
    const char *at = strstr(f->text, needle);
    ck_assert_ptr_nonnull(at);
    return error_at(&D, C_unknown_key, pos_at(f, (size_t)(at - f->text), len), "x");
}

static const SrcFile *text_file(const char *text)
{
    return src_from_string(A, "t.yaml", text, strlen(text));
}

START_TEST(test_edit_set)
{
    const SrcFile *f = text_file("a: 1\n");
    Diag *g = finding_at(f, "1", 1);
    ck_assert_ptr_null(g->edit.text);
    diag_edit(&D, g, g->pos, "2");
    ck_assert_str_eq(applied(f->text, &g->edit), "a: 2\n");
    diag_edit(&D, NULL, g->pos, "3"); /* a rule switched off: no finding */
    diag_edit_append(&D, NULL, g->pos, "- 1");
    diag_edit_remove_pair(&D, NULL, g->pos);
}
END_TEST

#define BOM "\xEF\xBB\xBF"

static const struct {
    const char *text, *value, *want;
} append_cases[] = {
    {"x: 256MiB\n", "256MiB", "x: 256MiB - 1\n"},
    {"x: \"256MiB\"\n", "\"256MiB\"", "x: \"256MiB - 1\"\n"},
    {"x: 'a + b' # c\n", "'a + b'", "x: 'a + b - 1' # c\n"},
    {"x: a | b\n", "a | b", "x: (a | b) - 1\n"},
    {"{ x: 1 << 20 }\n", "1 << 20", "{ x: (1 << 20) - 1 }\n"},
    /* line 1 after a byte order mark */
    {BOM "x: 256MiB\n", "256MiB", BOM "x: 256MiB - 1\n"},
};

START_TEST(test_edit_append)
{
    const SrcFile *f = text_file(append_cases[_i].text);
    Diag *g = finding_at(f, append_cases[_i].value, (uint32_t)strlen(append_cases[_i].value));
    diag_edit_append(&D, g, g->pos, "- 1");
    ck_assert_ptr_nonnull(g->edit.text);
    ck_assert_str_eq(applied(f->text, &g->edit), append_cases[_i].want);
}
END_TEST

static const struct {
    const char *text, *value, *want;
} remove_cases[] = {
    /* alone on its line: the line goes, its line break too */
    {"a:\n  name: b\n  size: 1GiB\n  c: 2\n", "1GiB", "a:\n  name: b\n  c: 2\n"},
    {"a:\n  name: b\n  size: 1GiB # why\n", "1GiB", "a:\n  name: b\n"},
    {"a:\n  name: b\n  size: 1GiB", "1GiB", "a:\n  name: b\n"},
    /* in a flow map: with its comma */
    {"- { name: b, size: 1GiB }\n", "1GiB", "- { name: b }\n"},
    {"- { size: 1GiB, name: b }\n", "1GiB", "- { name: b }\n"},
    /* opening a block map item: the other keys follow it */
    {"- size: 1GiB\n  name: b\n", "1GiB", "- \n  name: b\n"},
    /* line 1 goes, its byte order mark stays */
    {BOM "size: 1GiB\nname: b\n", "1GiB", BOM "name: b\n"},
    {BOM "{ size: 1GiB, name: b }\n", "1GiB", BOM "{ name: b }\n"},
};

START_TEST(test_edit_remove_pair)
{
    const SrcFile *f = text_file(remove_cases[_i].text);
    Diag *g = finding_at(f, remove_cases[_i].value, (uint32_t)strlen(remove_cases[_i].value));
    diag_edit_remove_pair(&D, g, g->pos);
    ck_assert_ptr_nonnull(g->edit.text);
    ck_assert_str_eq(applied(f->text, &g->edit), remove_cases[_i].want);
    /* and the result still reads as YAML */
    Diags d2;
    diags_init(&d2, A);
    ck_assert_ptr_nonnull(yaml_load(A, text_file(applied(f->text, &g->edit)), NULL, &d2));
}
END_TEST

/* diag_edit_remove_item: the item `value` names, out of its sequence;
 * NULL: no edit (the only item of a block sequence, which would leave its
 * key holding nothing). */
static const struct {
    const char *text, *value, *want;
} item_cases[] = {
    {"flags:\n  - qq\n  - rr\nsize: 1\n", "qq", "flags:\n  - rr\nsize: 1\n"},
    {"flags:\n  - qq\n  - rr # why\nsize: 1\n", "rr", "flags:\n  - qq\nsize: 1\n"},
    {"flags:\n  - qq\nsize: 1\n", "qq", NULL},
    /* the keys around it at the dash's column are no items */
    {"flags:\n- qq\nsize: 1\n", "qq", NULL},
    {"flags:\n- qq\n- rr\nsize: 1\n", "rr", "flags:\n- qq\nsize: 1\n"},
    {"flags: [qq, rr]\n", "qq", "flags: [rr]\n"},
    {"flags: [qq, rr]\n", "rr", "flags: [qq]\n"},
    {"flags: [qq]\n", "qq", "flags: []\n"},
};

START_TEST(test_edit_remove_item)
{
    const SrcFile *f = text_file(item_cases[_i].text);
    Diag *g = finding_at(f, item_cases[_i].value, (uint32_t)strlen(item_cases[_i].value));
    diag_edit_remove_item(&D, g, g->pos);
    if (!item_cases[_i].want) {
        ck_assert_ptr_null(g->edit.text);
        return;
    }
    ck_assert_ptr_nonnull(g->edit.text);
    ck_assert_str_eq(applied(f->text, &g->edit), item_cases[_i].want);
}
END_TEST

START_TEST(test_edit_none)
{
    /* A span that is no `key: value` on one line gets no edit. */
    const SrcFile *f = text_file("- 1GiB\n");
    Diag *g = finding_at(f, "1GiB", 4);
    diag_edit_remove_pair(&D, g, g->pos);
    ck_assert_ptr_null(g->edit.text);
    /* A did-you-mean whose word is not where the finding points. */
    static const char *const names[] = {"size", "base"};
    g = finding_at(f, "1GiB", 4);
    ck_assert(diag_suggest(&D, g, "sise", names, 2, sizeof *names));
    ck_assert_ptr_null(g->edit.text);
}
END_TEST

START_TEST(test_edit_suggest)
{
    static const char *const names[] = {"size", "base"};
    const SrcFile *f = text_file("a: { sise: 1, \"bse\": 2 }\n");
    Diag *g = finding_at(f, "sise", 4);
    ck_assert(diag_suggest(&D, g, "sise", names, 2, sizeof *names));
    ck_assert_str_eq(applied(f->text, &g->edit), "a: { size: 1, \"bse\": 2 }\n");
    g = finding_at(f, "\"bse\"", 3); /* a quoted key: its word inside the quotes */
    ck_assert(diag_suggest(&D, g, "bse", names, 2, sizeof *names));
    ck_assert_str_eq(applied(f->text, &g->edit), "a: { sise: 1, \"base\": 2 }\n");
}
END_TEST

/* ---- the findings that carry an edit ---------------------------------- */

#define HEAD "segc: 1\nboard: { name: t1, wddm: \"1.3\", arch: x64 }\n"

static const struct {
    const char *code, *spec, *fixed;
} fix_cases[] = {
    {"expr-unit", HEAD "constants:\n  vram: 256MB\nsegments:\n  - { name: v, kind: memory, size: vram }\n",
     HEAD "constants:\n  vram: 256MiB\nsegments:\n  - { name: v, kind: memory, size: vram }\n"},
    /* on line 1 after a byte order mark */
    {"expr-unit", BOM "constants: { vram: 256MB }\n" HEAD "segments:\n  - { name: v, kind: memory, size: vram }\n",
     BOM "constants: { vram: 256MiB }\n" HEAD "segments:\n  - { name: v, kind: memory, size: vram }\n"},
    {"unknown-key", HEAD "segments:\n  - name: v\n    kind: memory\n    sise: 1GiB\n",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n"},
    {"unknown-name", HEAD "constants: { vram: 1GiB }\nsegments:\n  - { name: v, kind: memory, size: vrm }\n",
     HEAD "constants: { vram: 1GiB }\nsegments:\n  - { name: v, kind: memory, size: vram }\n"},
    {"banks-cover",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    banks:\n      - { name: a, size: 256MiB }\n"
          "      - name: b\n        size: 256MiB\n",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    banks:\n      - { name: a, size: 256MiB }\n"
          "      - name: b\n"},
    {"banks-cover",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    banks:\n      - { name: a, size: 256MiB }\n"
          "      - { name: b, size: 1GiB }\n",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    banks:\n      - { name: a, size: 256MiB }\n"
          "      - { name: b }\n"},
    {"system-memory-end-page",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    system_memory_end: 256MiB\n"
          "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    system_memory_end: 256MiB - 1\n"
          "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"},
    {"system-memory-end-inside",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    system_memory_end: size\n"
          "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n",
     HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    system_memory_end: size - 1\n"
          "    flags: [preserved_during_standby, partially_preserved_during_hibernate]\n"},
};

/* Checks `spec` as segc check does; the diagnostics in *d. */
static void check_spec(const char *spec, Diags *d)
{
    diags_init(d, A);
    RuleConfig rc;
    rules_default(&rc);
    Spec *s = spec_from_string(A, "t.yaml", spec, NULL, d);
    if (s)
        spec_check(s, &rc, d, NULL);
}

START_TEST(test_finding_edit)
{
    Diags d;
    check_spec(fix_cases[_i].spec, &d);
    const Diag *g = d.head;
    while (g && strcmp(code_name(g->code), fix_cases[_i].code))
        g = g->next;
    ck_assert_msg(g != NULL, "no %s", fix_cases[_i].code);
    ck_assert_ptr_nonnull(g->edit.text);
    ck_assert_ptr_nonnull(g->fix); /* the text form says it too */
    const char *fixed = applied(fix_cases[_i].spec, &g->edit);
    ck_assert_str_eq(fixed, fix_cases[_i].fixed);
    check_spec(fixed, &d);
    ck_assert_msg(d.head == NULL, "%s: %s", d.head ? code_name(d.head->code) : "", d.head ? d.head->msg : "");
}
END_TEST

/* A key a DDI form cannot carry, written in a flow map: the edit removes
 * its pair (a list's key would go as a block). */
START_TEST(test_form_edit_flow)
{
    static const char head[] = "segc: 1\nboard: { name: t1, wddm: \"1.1\", arch: x64 }\nsegments:\n";
    char spec[512], want[512];
    snprintf(spec, sizeof spec, "%s  - { name: v, kind: memory, size: 1GiB, system_memory_end: 256MiB - 1 }\n", head);
    snprintf(want, sizeof want, "%s  - { name: v, kind: memory, size: 1GiB }\n", head);
    Diags d;
    check_spec(spec, &d);
    const Diag *g = d.head;
    while (g && g->code != R_ddi_qs_system_memory_end)
        g = g->next;
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(g->edit.text);
    ck_assert_str_eq(applied(spec, &g->edit), want);
}
END_TEST

START_TEST(test_no_edit)
{
    /* A finding segc has no one edit for: a bank size past the end that is
     * not the last bank's. */
    Diags d;
    check_spec(HEAD "segments:\n  - name: v\n    kind: memory\n    size: 1GiB\n    banks:\n"
                    "      - { name: a, size: 2GiB }\n      - { name: b }\n",
               &d);
    ck_assert_ptr_nonnull(d.head);
    for (const Diag *g = d.head; g; g = g->next)
        ck_assert_ptr_null(g->edit.text);
}
END_TEST

Suite *diagedit_suite(void)
{
    Suite *s = suite_create("diagedit");
    TCase *tc = fixture_tcase("helpers");
    tcase_add_test(tc, test_edit_set);
    tcase_add_loop_test(tc, test_edit_append, 0, (int)countof(append_cases));
    tcase_add_loop_test(tc, test_edit_remove_pair, 0, (int)countof(remove_cases));
    tcase_add_loop_test(tc, test_edit_remove_item, 0, (int)countof(item_cases));
    tcase_add_test(tc, test_edit_none);
    tcase_add_test(tc, test_edit_suggest);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("findings");
    tcase_add_loop_test(tc, test_finding_edit, 0, (int)countof(fix_cases));
    tcase_add_test(tc, test_no_edit);
    tcase_add_test(tc, test_form_edit_flow);
    suite_add_tcase(s, tc);
    return s;
}
