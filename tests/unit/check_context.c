/* SPDX-License-Identifier: MIT */
/* check_context.c - segc lsp's text context (compiler/lsp/context.c): for a
 * spec being typed, with `|` marking the cursor, the kind of place, the
 * path of keys to its map, the key, where the word starts, and what the
 * map or list already has. */
#include "lsp/context.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static const char SEG[] = "segc: 1\n"
                          "board: { name: b, wddm: \"1.3\" }\n"
                          "segments:\n"
                          "  - name: local\n"
                          "    kind: memory\n";

static const struct {
    const char *head, *text; /* head: lines before, `text` holds the cursor */
    CtxKind kind;
    const char *path; /* "segments/#/banks/#" */
    const char *key;
    const char *word;    /* the word from its start to the cursor */
    const char *present; /* "a,b": above the cursor nearest first, then below */
} cases[] = {
    /* top-level keys, the rest of the document counted */
    {"", "seg|\nboard: {}\n", CTX_KEY, "", "", "seg", "board"},
    /* a segment's keys: its own lines above and below, not another segment's */
    {SEG, "    si|\n    flags: []\n  - name: other\n    size: 1\n", CTX_KEY, "segments/#", "", "si", "kind,name,flags"},
    {SEG, "    |", CTX_KEY, "segments/#", "", "", "kind,name"},
    /* a new item of segments: a map's first key */
    {SEG, "  - na|\n", CTX_KEY, "segments/#", "", "na", ""},
    /* values */
    {SEG, "    size: vram - vis|\n", CTX_VALUE, "segments/#", "size", "vis", ""},
    {SEG, "    kind: |\n", CTX_VALUE, "segments/#", "kind", "", ""},
    {"", "board: { name: b, wddm: |", CTX_VALUE, "board", "wddm", "", ""},
    {"", "board:\n  arch: a|\n", CTX_VALUE, "board", "arch", "a", ""},
    {"", "paging:\n  segment: |\n", CTX_VALUE, "paging", "segment", "", ""},
    /* flow maps */
    {"", "board: { name: b, w| }", CTX_KEY, "board", "", "w", "name"},
    {SEG, "    cpu_visible: { bar: fb, | }\n", CTX_KEY, "segments/#/cpu_visible", "", "", "bar"},
    {SEG, "    cpu_visible: { bar: | }\n", CTX_VALUE, "segments/#/cpu_visible", "bar", "", ""},
    {SEG, "    banks:\n      - { name: lo, size: 1 }\n      - { name: hi, s| }\n", CTX_KEY,
     "segments/#/banks/#", "", "s", "name"},
    {"", "segments:\n  - { name: a, cpu_visible: { bar: fb }, | }", CTX_KEY, "segments/#", "", "", "name,cpu_visible"},
    /* flow and block lists */
    {SEG, "    flags: [direct_flip, pre|, cache_coherent]\n", CTX_ITEM, "segments/#", "flags", "pre",
     "direct_flip,cache_coherent"},
    {SEG, "    flags: [|]\n", CTX_ITEM, "segments/#", "flags", "", ""},
    {SEG, "    flags:\n      - direct_flip\n      - |\n      - cache_coherent\n", CTX_ITEM, "segments/#", "flags", "",
     "direct_flip,cache_coherent"},
    {SEG, "    flags:\n    - direct_flip\n    - p|\n", CTX_ITEM, "segments/#", "flags", "p", "direct_flip"},
    /* waivers: keys of the waive map */
    {SEG, "    waive:\n      cache-|\n", CTX_KEY, "segments/#/waive", "", "cache-", ""},
    {SEG, "    waive: { cache-coherent-memory: \"x\", | }\n", CTX_KEY, "segments/#/waive", "", "",
     "cache-coherent-memory"},
    /* a compact sequence (dashes at the key's column) */
    {"segments:\n- name: a\n", "  si|\n", CTX_KEY, "segments/#", "", "si", "name"},
    /* CRLF line ends */
    {"segments:\r\n  - name: a\r\n", "    si|\r\n    kind: memory\r\n", CTX_KEY, "segments/#", "", "si", "name,kind"},
    /* a blank CRLF line is blank: the map goes on after it */
    {"segments:\r\n  - name: a\r\n\r\n", "    si|\r\n", CTX_KEY, "segments/#", "", "si", "name"},
    /* a key being typed before a colon already there: still a key */
    {SEG, "    si|: 1\n", CTX_KEY, "segments/#", "", "si", "kind,name"},
    {"", "board: { na|: b }", CTX_KEY, "board", "", "na", ""},
    /* blank and comment lines between a key and its map */
    {SEG, "    banks:\n\n      # the low bank\n      - { name: lo, | }\n", CTX_KEY, "segments/#/banks/#", "", "",
     "name"},
    /* a key on a dash line whose value is a block sequence below it */
    {"segments:\n", "  - banks:\n      - { s| }\n", CTX_KEY, "segments/#/banks/#", "", "s", ""},
    /* quoted strings (with escapes) and nested collections after the cursor */
    {SEG, "    waive: { cache-coherent-memory: \"a \\\" b\", | , other: [1, {x: 2}], 'q': 1 }\n", CTX_KEY,
     "segments/#/waive", "", "", "cache-coherent-memory,other"},
    {SEG, "    flags: [direct_flip, | \"q\", [x], y] # z\n", CTX_ITEM, "segments/#", "flags", "", "direct_flip,y"},
    {SEG, "    flags: [| # direct_flip\n", CTX_ITEM, "segments/#", "flags", "", ""},
    /* the cursor inside a word: the rest of it is not present; '#' inside a word is no comment */
    {"", "board: { na|me: b }", CTX_KEY, "board", "", "na", ""},
    {SEG, "    flags: [|a#b]\n", CTX_ITEM, "segments/#", "flags", "", "b"},
    /* flow collections opened on an earlier line: a list */
    {SEG, "    flags: [cpu_visible,\n            |\n", CTX_ITEM, "segments/#", "flags", "", "cpu_visible"},
    {SEG, "    flags: [direct_flip,\n            pre|,\n            cache_coherent]\n    size: 1\n", CTX_ITEM,
     "segments/#", "flags", "pre", "direct_flip,cache_coherent"},
    {SEG, "    flags: [direct_flip\n            , |\n", CTX_ITEM, "segments/#", "flags", "", "direct_flip"},
    {SEG, "    flags: [direct_flip,\r\n            |\r\n", CTX_ITEM, "segments/#", "flags", "", "direct_flip"},
    /* a map: its keys, its values; the keys on its later lines, not the block's below */
    {SEG, "    cpu_visible: { bar: fb,\n      |\n    size: 1\n", CTX_KEY, "segments/#/cpu_visible", "", "", "bar"},
    {SEG, "    cpu_visible: {\n      |\n      bar: fb, offset: 0 }\n    size: 1\n", CTX_KEY, "segments/#/cpu_visible", "",
     "", "bar,offset"},
    {SEG, "    cpu_visible: { offset: 0,\n      bar: |\n", CTX_VALUE, "segments/#/cpu_visible", "bar", "", ""},
    {"segments:\n", "  - { name: a, cpu_visible: { offset: 0,\n      bar: |\n", CTX_VALUE, "segments/#/cpu_visible", "bar",
     "", ""},
    {SEG, "    banks:\n      - { name: lo,\n          size: |\n", CTX_VALUE, "segments/#/banks/#", "size", "", ""},
    {"segments:\n", "  - { name: a, kind: memory,\n    s|\n", CTX_KEY, "segments/#", "", "s", "name,kind"},
    /* nested: a map in a list, the one before it closed on an earlier line */
    {SEG, "    banks: [{ name: lo,\n               size: 1 },\n             { name: hi,\n               s|\n",
     CTX_KEY, "segments/#/banks/#", "", "s", "name"},
    {SEG, "    cpu_visible: { x: [a,\n        b],\n      |\n", CTX_KEY, "segments/#/cpu_visible", "", "", "x"},
    /* quotes and comments on the earlier lines: their brackets do not count */
    {SEG, "    waive: { cache-coherent-memory: \"a [b # c\",\n      |\n", CTX_KEY, "segments/#/waive", "", "",
     "cache-coherent-memory"},
    {SEG, "    waive: { cache-coherent-memory: 'a { b',\n      |\n", CTX_KEY, "segments/#/waive", "", "",
     "cache-coherent-memory"},
    {SEG, "    flags: [direct_flip, # the [ first, {\n            # more ]\n            |\n", CTX_ITEM, "segments/#",
     "flags", "", "direct_flip"},
    /* a collection closed on an earlier line does not count */
    {SEG, "    flags: [direct_flip,\n      cache_coherent]\n    si|\n", CTX_KEY, "segments/#", "", "si",
     "flags,kind,name"},
    {SEG, "    cpu_visible: { bar: fb,\n      offset: 0 }\n    kind: |\n", CTX_VALUE, "segments/#", "kind", "", ""},
    {SEG, "    waive: { x: \"]\" }\n    flags: [a, b]\n    |\n", CTX_KEY, "segments/#", "", "", "flags,waive,kind,name"},
    /* quiet: a comment on a later line of a collection */
    {SEG, "    flags: [direct_flip,\n      pre, # a |\n", CTX_NONE, "", "", "", ""},
    /* quiet: a list inside a list (no key's value) */
    {SEG, "    flags: [[|]]\n", CTX_NONE, "", "", "", ""},
    /* quiet: a list that is no key's value */
    {SEG, "  - [|]\n", CTX_NONE, "", "", "", ""},
    /* quiet: comments */
    {SEG, "    # size: |\n", CTX_NONE, "", "", "", ""},
    {SEG, "    size: 1 # a |\n", CTX_NONE, "", "", "", ""},
};

START_TEST(test_context)
{
    char text[1024], path[256] = "", present[512] = "";
    int n = snprintf(text, sizeof text, "%s%s", cases[_i].head, cases[_i].text);
    ck_assert(n > 0 && (size_t)n < sizeof text);
    char *bar = strchr(text + strlen(cases[_i].head), '|');
    ck_assert_ptr_nonnull(bar);
    size_t off = (size_t)(bar - text);
    memmove(bar, bar + 1, strlen(bar));
    TextCtx c;
    text_context(text, strlen(text), off, &c);
    ck_assert_int_eq(c.kind, cases[_i].kind);
    if (c.kind == CTX_NONE)
        return;
    for (unsigned i = 0; i < c.depth; i++)
        snprintf(path + strlen(path), sizeof path - strlen(path), "%s%s", i ? "/" : "", c.path[i]);
    ck_assert_str_eq(path, cases[_i].path);
    ck_assert_str_eq(c.kind == CTX_KEY ? "" : c.key, cases[_i].key);
    ck_assert_int_eq((int)(off - c.word), (int)strlen(cases[_i].word));
    ck_assert(!strncmp(text + c.word, cases[_i].word, off - c.word));
    for (unsigned i = 0; i < c.npresent; i++)
        snprintf(present + strlen(present), sizeof present - strlen(present), "%s%.*s", i ? "," : "",
                 (int)c.present[i].n, c.present[i].s);
    ck_assert_str_eq(present, cases[_i].present);
}
END_TEST

START_TEST(test_map_at)
{
    const char *seg[] = {"segments", "#"}, *bank[] = {"segments", "#", "banks", "#"}, *bar[] = {"bars", "fb"},
               *no[] = {"bars", "#"}, *flags[] = {"segments", "#", "flags"},
               *under_scalar[] = {"segments", "#", "name", "x"};
    ck_assert_int_eq(spec_map_at(NULL, 0), MAP_SPEC);
    ck_assert_int_eq(spec_map_at(seg, 2), MAP_SEGMENT);
    ck_assert_int_eq(spec_map_at(bank, 4), MAP_BANK);
    ck_assert_int_eq(spec_map_at(bar, 2), MAP_BAR);
    ck_assert_int_eq(spec_map_at(no, 2), -1);
    ck_assert_int_eq(spec_map_at(flags, 3), -1);
    ck_assert_int_eq(spec_map_at(seg, 1), -1);
    /* a key below a key whose value is a scalar: no map */
    ck_assert_int_eq(spec_map_at(under_scalar, 4), -1);
}
END_TEST

Suite *context_suite(void)
{
    Suite *s = suite_create("context");
    TCase *tc = tcase_create("context");
    tcase_add_loop_test(tc, test_context, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, test_map_at);
    suite_add_tcase(s, tc);
    return s;
}
