/* SPDX-License-Identifier: MIT */
/* check_loader.c - load.c: YAML text -> Node tree, positions, errors.
 *
 * Trees are compared through a compact dump: a scalar prints as its value
 * (quoted the way it was written: 'x', "x", |x| for block scalars) followed
 * by @line:col, a mapping as {key=value,...}@line:col, a sequence as
 * [item,...]@line:col.  Diagnostics print as code@line:col, each note as
 * (note@line:col). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture.h"
#include "segc.h"

/* The file load_n read last: its tree's nodes are file 0 of &F. */
static const SrcFile *F;

static Node *load_n(const char *text, size_t len, const LoadLimits *lim)
{
    F = src_from_string(A, "t.yaml", text, len);
    return yaml_load(A, F, lim, &D);
}

static Pos pos(const Node *n)
{
    return node_pos(&F, n);
}

static Node *load(const char *text, const LoadLimits *lim)
{
    return load_n(text, strlen(text), lim);
}

static void dump(Buf *b, const Node *n)
{
    switch (n->kind) {
    case NODE_SCALAR: {
        static const char *const open[] = {"", "'", "\"", "|"};
        buf_puts(b, open[n->style]);
        for (size_t i = 0; i < n->len; i++) {
            if (n->str[i] == '\n')
                buf_puts(b, "\\n");
            else
                buf_putc(b, n->str[i]);
        }
        buf_puts(b, open[n->style]);
        break;
    }
    case NODE_MAP:
        buf_putc(b, '{');
        for (size_t i = 0; i < n->npairs; i++) {
            if (i)
                buf_putc(b, ',');
            dump(b, &n->pairs[i].key);
            buf_putc(b, '=');
            dump(b, &n->pairs[i].value);
        }
        buf_putc(b, '}');
        break;
    case NODE_SEQ:
        buf_putc(b, '[');
        for (size_t i = 0; i < n->nitems; i++) {
            if (i)
                buf_putc(b, ',');
            dump(b, &n->items[i]);
        }
        buf_putc(b, ']');
        break;
    }
    buf_printf(b, "@%u:%u", (unsigned)src_loc(pos(n)).line, (unsigned)src_loc(pos(n)).col);
}

/* The tree as a string in the arena. */
static const char *tree(const Node *n)
{
    Buf b = {0};
    dump(&b, n);
    const char *s = arena_strdup(A, b.p);
    buf_free(&b);
    return s;
}

static const char *diags(void)
{
    Buf b = {0};
    buf_puts(&b, "");
    diags_sort(&D);
    for (const Diag *g = D.head; g; g = g->next) {
        if (g != D.head)
            buf_puts(&b, "; ");
        buf_printf(&b, "%s@%u:%u", code_name(g->code), (unsigned)src_loc(g->pos).line, (unsigned)src_loc(g->pos).col);
        for (const Note *n = g->notes; n; n = n->next)
            buf_printf(&b, " (note@%u:%u)", (unsigned)src_loc(n->pos).line, (unsigned)src_loc(n->pos).col);
    }
    const char *s = arena_strdup(A, b.p);
    buf_free(&b);
    return s;
}

/* ---- valid documents --------------------------------------------------- */

static const struct {
    const char *yaml, *tree;
} valid[] = {
    {"a: 1\nb: two\n", "{a@1:1=1@1:4,b@2:1=two@2:4}@1:1"},
    {"segc: 1\nboard:\n  name: x1\n  wddm: \"1.3\"\n",
     "{segc@1:1=1@1:7,board@2:1={name@3:3=x1@3:9,wddm@4:3=\"1.3\"@4:9}@3:3}@1:1"},
    {"segments:\n  - name: v\n    size: 1GiB\n  - name: w\n",
     "{segments@1:1=[{name@2:5=v@2:11,size@3:5=1GiB@3:11}@2:5,{name@4:5=w@4:11}@4:5]@2:3}@1:1"},
    /* columns count bytes: é and ü are two bytes each */
    {"é: ü\nk: 'ä' # c\n", "{é@1:1=ü@1:5,k@2:1='ä'@2:4}@1:1"},
    {"k: [é, x, 'ü', \"ö\"]\n", "{k@1:1=[é@1:5,x@1:9,'ü'@1:12,\"ö\"@1:18]@1:4}@1:1"},
    {"x: {a: 1, b: [2, 3]}", "{x@1:1={a@1:5=1@1:8,b@1:11=[2@1:15,3@1:18]@1:14}@1:4}@1:1"},
    /* a BOM is not part of line 1's columns */
    {"\xEF\xBB\xBFsegc: 1\nb: é\n", "{segc@1:1=1@1:7,b@2:1=é@2:4}@1:1"},
    {"---\na: 1\n...\n", "{a@2:1=1@2:4}@2:1"},
    {"# comment\n\na: 1 # trailing\n", "{a@3:1=1@3:4}@3:1"},
    /* a node's position is after its anchor and tag */
    {"a: !!str 12\nb: &x 'q'\nc: &y !!map\n  k: v\n",
     "{a@1:1=12@1:10,b@2:1='q'@2:7,c@3:1={k@4:3=v@4:6}@4:3}@1:1"},
    {"a: ! x\n", "{a@1:1=x@1:6}@1:1"},
    {"a: |\n  line1\n  line2\nb: >-\n  folded\n  text\n",
     "{a@1:1=|line1\\nline2\\n|@1:4,b@4:1=|folded text|@4:4}@1:1"},
    {"a: 1\r\nb: 2\r\n", "{a@1:1=1@1:4,b@2:1=2@2:4}@1:1"},
    /* a lone CR ends a line for libyaml but not for segc's line numbers */
    {"a: 1\rb: 2", "{a@1:1=1@1:4,b@1:6=2@1:9}@1:1"},
    /* NEL inside a double-quoted scalar: a line break for libyaml */
    {"a: \"x\xC2\x85y\"\nb: 1\n", "{a@1:1=\"x y\"@1:4,b@2:1=1@2:4}@1:1"},
    {"a:\nb: 1\n", "{a@1:1=@1:3,b@2:1=1@2:4}@1:1"},
    {"key:\tvalue\n", "{key@1:1=value@1:6}@1:1"},
    {"- a\n- - b\n  - c\n", "[a@1:3,[b@2:5,c@3:5]@2:3]@1:1"},
    {"plain\n", "plain@1:1"},
    {"a: x\n   y\n", "{a@1:1=x y@1:4}@1:1"},
    {"? k\n: v\n", "{k@1:3=v@2:3}@1:1"},
    /* a 4-byte character counts 4 columns */
    {"\xF0\x9F\x98\x80: x\nk: [\xF0\x9F\x98\x80, y]\n", "{\xF0\x9F\x98\x80@1:1=x@1:7,k@2:1=[\xF0\x9F\x98\x80@2:5,y@2:11]@2:4}@1:1"},
    /* NEL, LS and PS end a line for libyaml, not for segc's line numbers */
    {"a: 1 # x\xC2\x85" "b: 2\n", "{a@1:1=1@1:4,b@1:11=2@1:14}@1:1"},
    {"a: 1 # x\xE2\x80\xA8" "b: 2\nc: 3\n", "{a@1:1=1@1:4,b@1:12=2@1:15,c@2:1=3@2:4}@1:1"},
    {"a: 1 # x\xE2\x80\xA9" "b: 2\n", "{a@1:1=1@1:4,b@1:12=2@1:15}@1:1"},
    /* a comment between an anchor and what it names */
    {"a: &x # the value\n  v\nb: *x\n", "{a@1:1=v@2:3,b@3:1=v@2:3}@1:1"},
    /* a verbatim tag */
    {"a: !<tag:yaml.org,2002:str> x\n", "{a@1:1=x@1:29}@1:1"},
    /* an anchored or tagged empty document is not an empty file */
    {"&a\n", "@1:3"},
    {"!!null\n", "@1:7"},
};

START_TEST(test_valid)
{
    Node *n = load(valid[_i].yaml, NULL);
    ck_assert_str_eq(diags(), "");
    ck_assert_ptr_nonnull(n);
    ck_assert_str_eq(tree(n), valid[_i].tree);
}
END_TEST

START_TEST(test_styles)
{
    Node *n = load("p: x\ns: 'x'\nd: \"x\"\nl: |\n  x\nf: >\n  x\n", NULL);
    ck_assert_ptr_nonnull(n);
    ck_assert_int_eq(node_get(n, "p")->style, SCALAR_PLAIN);
    ck_assert_int_eq(node_get(n, "s")->style, SCALAR_SINGLE);
    ck_assert_int_eq(node_get(n, "d")->style, SCALAR_DOUBLE);
    ck_assert_int_eq(node_get(n, "l")->style, SCALAR_BLOCK);
    ck_assert_int_eq(node_get(n, "f")->style, SCALAR_BLOCK);
    /* escapes are decoded and the value is NUL-terminated */
    n = load("e: \"a\\x41\\u00e9z\"\n", NULL);
    ck_assert_ptr_nonnull(n);
    const Node *e = node_get(n, "e");
    ck_assert_uint_eq(e->len, 5);
    ck_assert_mem_eq(e->str, "aA\xC3\xA9z", 6);
    /* an escaped NUL is an error at the escape: it would cut the value
     * wherever it is used as a C string */
    ck_assert_ptr_null(load("e: \"a\\x41\\0z\"\nf: 'x'\n", NULL));
    ck_assert_str_eq(diags(), "encoding@1:10");
}
END_TEST

START_TEST(test_lengths)
{
    Node *n = load("abc: 'x y'\nk: [1, 22]\nm:\n  q: 1\n", NULL);
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(pos(&n->pairs[0].key).len, 3);
    ck_assert_uint_eq(pos(&n->pairs[0].value).len, 5);
    ck_assert_uint_eq(pos(node_get(n, "k")).len, 7);
    ck_assert_uint_eq(pos(&node_get(n, "k")->items[1]).len, 2);
    ck_assert_uint_eq(pos(node_get(n, "m")).len, 1); /* spans lines */
    ck_assert_ptr_eq(pos(n).file, pos(&n->pairs[0].key).file);
    ck_assert_str_eq(pos(n).file->name, "t.yaml");
}
END_TEST

START_TEST(test_alias_shares)
{
    Node *n = load("a: &x [1, {k: v}]\nb: *x\nc: [*x, *x]\n", NULL);
    ck_assert_str_eq(diags(), "");
    ck_assert_ptr_nonnull(n);
    /* An alias is a copy of its anchor's node that shares its kids:
     * nothing below it is copied. */
    const Node *a = node_get(n, "a"), *b = node_get(n, "b"), *c = node_get(n, "c");
    ck_assert_ptr_eq(b->items, a->items);
    ck_assert_uint_eq(b->nitems, 2);
    ck_assert_ptr_eq(c->items[0].items, a->items);
    ck_assert_ptr_eq(c->items[1].items, a->items);
    ck_assert_uint_eq(c->items[1].nitems, 2);
    /* a redefined anchor: later aliases see the new node */
    n = load("a: &x 1\nb: &x 2\nc: *x\n", NULL);
    ck_assert_ptr_nonnull(n);
    ck_assert_str_eq(node_get(n, "c")->str, "2");
}
END_TEST

START_TEST(test_node_get)
{
    Node *n = load("a: 1\nb: [x]\n'': e\n", NULL);
    ck_assert_ptr_nonnull(n);
    ck_assert_str_eq(node_get(n, "a")->str, "1");
    ck_assert_str_eq(node_get(n, "")->str, "e");
    ck_assert_ptr_null(node_get(n, "c"));
    ck_assert_ptr_null(node_get(n, "a "));
    ck_assert_ptr_null(node_get(node_get(n, "b"), "x"));
    ck_assert_ptr_null(node_get(NULL, "a"));
    ck_assert_str_eq(node_kind_name(NODE_SCALAR), "scalar");
    ck_assert_str_eq(node_kind_name(NODE_MAP), "mapping");
    ck_assert_str_eq(node_kind_name(NODE_SEQ), "sequence");
}
END_TEST

/* Errors reported before this load do not make it fail. */
START_TEST(test_earlier_errors)
{
    error_at(&D, C_usage, (Pos){0}, "an earlier error");
    ck_assert_ptr_nonnull(load("a: 1\n", NULL));
    ck_assert_ptr_null(load("a: 1\na: 2\n", NULL));
}
END_TEST

/* ---- node_char_pos ----------------------------------------------------- */

static const struct {
    const char *yaml, *key;
    size_t i;
    uint32_t len;
    uint32_t line, col, plen;
} charpos[] = {
    {"a: 1 + 2", "a", 2, 1, 1, 6, 1},
    {"a: 1 + 2", "a", 0, 0, 1, 4, 0},
    {"a: '1 + 2'", "a", 2, 1, 1, 7, 1},
    {"a: \"1 + 2\"", "a", 4, 1, 1, 9, 1},
    {"a: \"1 + 2\"", "a", 5, 0, 1, 10, 0}, /* the end: the closing quote */
    {"é: 'é + x'", "é", 5, 1, 1, 11, 1},
    {"k: [é, 'x * y']", "k", 0, 0, 0, 0, 0}, /* (not a scalar: skipped) */
    /* escapes: \x41 is one value byte written in four */
    {"a: \"\\x41 + zz\"", "a", 4, 2, 1, 12, 2},
    {"a: \"\\x41 + zz\"", "a", 0, 1, 1, 5, 4},
    {"a: \"\\u00e9 + z\"", "a", 5, 1, 1, 14, 1},
    {"a: 'it''s x'", "a", 5, 1, 1, 11, 1},
    {"a: 'it''s x'", "a", 2, 1, 1, 7, 2},
    /* folded flow scalars */
    {"a: 1 +\n  2\n", "a", 4, 1, 2, 3, 1},
    {"a: 1 +\n  2\n", "a", 3, 1, 1, 7, 1},
    {"a: \"ab\\\n   cd\"", "a", 2, 2, 2, 4, 2},
    {"a: 'x\n\n  y'", "a", 2, 1, 3, 3, 1},
    /* block scalars */
    {"a: |\n  x = 1\n  y = 22\n", "a", 10, 1, 3, 7, 1},
    {"a: |\n  x = 1\n    y\n", "a", 8, 1, 3, 5, 1},
    {"a: >\n  foo bar\n", "a", 4, 3, 2, 7, 3},
    /* anchor and tag before the scalar */
    {"a: &n !!str 'xy'", "a", 1, 1, 1, 15, 1},
    /* BOM on line 1, with an escape so the slow path runs */
    {"\xEF\xBB\xBF" "a: \"\\tb\"", "a", 1, 1, 1, 7, 1},
    /* every escape stands for as many value bytes as it decodes to */
    {"a: \"\\u00E9 + z\"", "a", 5, 1, 1, 14, 1},
    {"a: \"\\U0001F600 + z\"", "a", 7, 1, 1, 18, 1},
    {"a: \"\\N\\_\\L\\P x\"", "a", 11, 1, 1, 14, 1},
    {"a: \"\\N\\_\\L\\P x\"", "a", 8, 1, 1, 11, 1},
    /* CR LF line breaks, blanks before a break */
    {"a: \"ab\\\r\n   cd\"", "a", 2, 2, 2, 4, 2},
    {"a: 1 +  \n  2\n", "a", 4, 1, 2, 3, 1},
    {"a: 1 +  \n  2\n", "a", 3, 1, 1, 9, 1},
    {"a: 1 +\r\n  2\r\n", "a", 4, 1, 2, 3, 1},
    {"a: 1\t+\t\n  2\n", "a", 4, 1, 2, 3, 1},
    {"a: 1\t+\t\n  2\n", "a", 3, 1, 1, 8, 1},
    {"a: 'x\r\n\r\n  y'", "a", 2, 1, 3, 3, 1},
    {"a: 'x\r  y'", "a", 2, 1, 1, 9, 1}, /* a lone CR: one line for segc */
    {"a: \"\\u0041 + z\"", "a", 4, 1, 1, 14, 1},
    {"a: \"\\u20AC + z\"", "a", 6, 1, 1, 14, 1},
    {"a: \"ab\\\n \t cd\"", "a", 2, 1, 2, 4, 1},
    {"a: \"x  \r\n  y\"", "a", 2, 1, 2, 3, 1},
    /* each empty line folds to a line feed of its own */
    {"a: 1 +\n\n\n  2\n", "a", 5, 1, 4, 3, 1},
    {"a: 1 +\n\n\n  2\n", "a", 4, 1, 1, 7, 1},
    {"a: |\n  x\n\n  y\n", "a", 3, 1, 4, 3, 1},
    /* past the end */
    {"a: 1 + 2", "a", 99, 0, 1, 9, 0},
    {"a: |\n  x = 1\n", "a", 6, 0, 2, 8, 0},
    {"a: |-\n  x = 1", "a", 5, 0, 2, 8, 0},
    {"a: |\r\n  x = 1\r\n  y = 22\r\n", "a", 10, 1, 3, 7, 1},
    {"a: |", "a", 0, 0, 1, 4, 0},
};

START_TEST(test_char_pos)
{
    Node *n = load(charpos[_i].yaml, NULL);
    ck_assert_str_eq(diags(), "");
    ck_assert_ptr_nonnull(n);
    const Node *s = node_get(n, charpos[_i].key);
    ck_assert_ptr_nonnull(s);
    if (s->kind != NODE_SCALAR)
        return;
    Pos p = node_char_pos(&F, s, charpos[_i].i, charpos[_i].len);
    ck_assert_ptr_eq(p.file, pos(s).file);
    ck_assert_uint_eq(src_loc(p).line, charpos[_i].line);
    ck_assert_uint_eq(src_loc(p).col, charpos[_i].col);
    ck_assert_uint_eq(p.len, charpos[_i].plen);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

static const LoadLimits small_depth = {3, 64 * 1024, 10000};
static const LoadLimits small_scalar = {64, 4, 10000};
static const LoadLimits small_alias = {64, 64 * 1024, 5};

static const struct {
    const char *yaml;
    const LoadLimits *lim;
    const char *diags;
    const char *msg; /* the first diagnostic's message, or NULL */
} bad[] = {
    {"a:\n\tb: 1\n", NULL, "yaml-syntax@2:1",
     "tab character used for indentation; YAML needs spaces"},
    {"a:\n  b: 1\n\tc: 2\n", NULL, "yaml-syntax@3:1",
     "tab character used for indentation; YAML needs spaces"},
    {"- \tx\n", NULL, "yaml-syntax@1:3", "tab character where YAML expects a space; use spaces"},
    {"a: [1, 2", NULL, "yaml-syntax@1:9 (note@1:4)",
     "did not find expected ',' or ']' while parsing a flow sequence"},
    {"a: \"abc", NULL, "yaml-syntax@1:8 (note@1:4)",
     "found unexpected end of stream while scanning a quoted scalar"},
    {"a:\n  b: {x: 1\n", NULL, "yaml-syntax@3:1 (note@2:6)", NULL},
    {"a: b: c\n", NULL, "yaml-syntax@1:5", "mapping values are not allowed in this context"},
    {"é: [ü, ]]\n", NULL, "yaml-syntax@1:11 (note@1:1)",
     "did not find expected key while parsing a block mapping"},
    {"a: 1\n\x01\n", NULL, "yaml-syntax@2:1", "control characters are not allowed (0x1)"},
    /* errors found before a syntax error are kept */
    {"a: 1\na: 2\nb: [\n", NULL, "duplicate-key@2:1 (note@1:1); yaml-syntax@4:1", NULL},
    {"a: 1\nb: 2\na: 3\n", NULL, "duplicate-key@3:1 (note@1:1)", "duplicate key `a` in this mapping"},
    {"x: {k: 1, k: 2}", NULL, "duplicate-key@1:11 (note@1:5)", NULL},
    {"x: {é: 1, é: 2}", NULL, "duplicate-key@1:12 (note@1:5)", NULL},
    {"a: 1\n'a': 2\n\"a\": 3\n", NULL,
     "duplicate-key@2:1 (note@1:1); duplicate-key@3:1 (note@1:1)", NULL},
    {"m: {a: 1}\nn: {a: 1}\n", NULL, "", NULL}, /* (no error: different mappings) */
    {"a: &k x\n*k : 1\nx: 2\n", NULL, "duplicate-key@3:1 (note@2:1)", NULL},
    {"? [a]\n: 1\n", NULL, "yaml-key@1:3", "a mapping key must be a scalar, not a sequence"},
    {"{{a: 1}: 2}", NULL, "yaml-key@1:2", "a mapping key must be a scalar, not a mapping"},
    {"a: *nope\n", NULL, "yaml-alias@1:4",
     "undefined alias `*nope`; an anchor `&nope` must come before its aliases"},
    {"b: *a\na: &a 1\n", NULL, "yaml-alias@1:4", NULL},
    {"a: &r [1, *r]\n", NULL, "yaml-alias@1:11", "alias `*r` is inside the node it refers to (a cycle)"},
    {"a: &a [1, 2, 3]\nb: *a\nc: *a\nd: *a\n", &small_alias, "limit-alias@3:4",
     "alias expansion exceeds 5 nodes (billion laughs?)"},
    {"[[[[1]]]]", &small_depth, "limit-depth@1:4", "mappings and sequences nest deeper than 3 levels"},
    {"a:\n  b:\n    c:\n      d: 1\n", &small_depth, "limit-depth@4:7", NULL},
    {"a: &a [[1]]\nb: [*a]\n", &small_depth, "limit-depth@2:5",
     "alias `*a` nests mappings and sequences deeper than 3 levels"},
    {"a: hello\nb: 'abcd'\n", &small_scalar, "limit-scalar@1:4",
     "scalar is 5 bytes long; the limit is 4 bytes"},
    {"a: 1\n---\nb: 2\n", NULL, "yaml-multi-doc@2:1",
     "a second YAML document; a spec file holds exactly one"},
    {"--- 1\n--- 2\n", NULL, "yaml-multi-doc@2:1", NULL},
    {"", NULL, "yaml-empty@1:1", "the file is empty; a spec starts with `segc: 1`"},
    {"# nothing but a comment\n\n", NULL, "yaml-empty@1:1", NULL},
    {"---\n", NULL, "yaml-empty@1:1", NULL},
    {"\xEF\xBB\xBF", NULL, "yaml-empty@1:1", NULL},
    {"base: &b {x: 1}\nd:\n  <<: *b\n", NULL, "yaml-merge@3:3",
     "merge keys (<<) are not supported; use extends: or repeat the keys"},
    {"a: !foo 1\n", NULL, "yaml-tag@1:4", "custom tags are not supported (found `!foo`)"},
    {"a: !!binary aGk=\n", NULL, "yaml-tag@1:4", "custom tags are not supported (found `!!binary`)"},
    {"a: &x !!map [1]\n", NULL, "yaml-tag@1:7", "tag !!map cannot be used on a sequence"},
    {"a: !!int {}\n", NULL, "yaml-tag@1:4", "tag !!int cannot be used on a mapping"},
    /* an alias before any anchor, as the whole document */
    {"*a\n", NULL, "yaml-alias@1:1", "undefined alias `*a`; an anchor `&a` must come before its aliases"},
    /* keys in messages: control characters shown as ?, long ones cut on a
     * character boundary */
    {"\"a\\tb\": 1\n\"a\\tb\": 2\n", NULL, "duplicate-key@2:1 (note@1:1)", "duplicate key `a?b` in this mapping"},
    {"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\xC3\xA9zz: 1\n"
     "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\xC3\xA9zz: 2\n", NULL, "duplicate-key@2:1 (note@1:1)",
     "duplicate key `kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...` in this mapping"},
    /* a tab after spaces of indentation */
    {"a:\n  \tb: 1\n", NULL, "yaml-syntax@2:3", "tab character used for indentation; YAML needs spaces"},
    /* libyaml's "while scanning an anchor": the note says where it starts */
    {"a: &\n", NULL, "yaml-syntax@1:5 (note@1:4)",
     "did not find expected alphabetic or numeric character while scanning an anchor"},
    /* everything in one run */
    {"a: !x 1\na: 2\nb: *u\n<<: 1\n", NULL,
     "yaml-tag@1:4; duplicate-key@2:1 (note@1:1); yaml-alias@3:4; yaml-merge@4:1", NULL},
};

START_TEST(test_bad)
{
    Node *n = load(bad[_i].yaml, bad[_i].lim);
    ck_assert_str_eq(diags(), bad[_i].diags);
    if (bad[_i].diags[0])
        ck_assert_ptr_null(n);
    else
        ck_assert_ptr_nonnull(n);
    if (bad[_i].msg)
        ck_assert_str_eq(D.head->msg, bad[_i].msg);
    for (const Diag *g = D.head; g; g = g->next) {
        ck_assert_int_eq(g->sev, SEV_ERROR);
        ck_assert_ptr_eq(g->pos.file, D.head->pos.file);
    }
}
END_TEST

/* A tab where YAML wants spaces: the fix and its edit make spaces of it,
 * in the indentation the file's step for each tab (2 without one). */
static const struct {
    const char *yaml, *fix, *spaces;
    unsigned line, col, len;
} tab_fixes[] = {
    {"a:\n\tb: 1\n", "indent with 2 spaces", "  ", 2, 1, 1},
    {"a:\n    b: 1\nc:\n  \td: 2\n", "indent with 6 spaces", "      ", 4, 1, 3},
    {"- \tx\n", "replace the tab with 1 space", " ", 1, 3, 1},
};

START_TEST(test_tab_fix)
{
    ck_assert_ptr_null(load(tab_fixes[_i].yaml, NULL));
    ck_assert_str_eq(D.head->fix, tab_fixes[_i].fix);
    ck_assert_str_eq(D.head->edit.text, tab_fixes[_i].spaces);
    ck_assert_uint_eq(src_loc(D.head->edit.at).line, tab_fixes[_i].line);
    ck_assert_uint_eq(src_loc(D.head->edit.at).col, tab_fixes[_i].col);
    ck_assert_uint_eq(D.head->edit.at.len, tab_fixes[_i].len);
}
END_TEST

START_TEST(test_spans)
{
    ck_assert_ptr_null(load("a: !!binary x\nb: !<tag:x> y\n", NULL));
    ck_assert_uint_eq(D.head->pos.len, 8);
    ck_assert_uint_eq(D.head->next->pos.len, 8);
    ck_assert_uint_eq(src_loc(D.head->next->pos).col, 4);
    diags_init(&D, A);
    ck_assert_ptr_null(load("a: 1\n---\nb: *xyz\n", NULL));
    ck_assert_uint_eq(D.head->pos.len, 3);
}
END_TEST

START_TEST(test_dup_note_text)
{
    ck_assert_ptr_null(load("abc: 1\nabc: 2\n", NULL));
    ck_assert_ptr_nonnull(D.head);
    ck_assert_uint_eq(D.head->pos.len, 3);
    ck_assert_ptr_nonnull(D.head->notes);
    ck_assert_str_eq(D.head->notes->msg, "first written here");
    ck_assert_uint_eq(D.head->notes->pos.len, 3);
    ck_assert_ptr_null(D.head->notes->next);
}
END_TEST

/* ---- hostile and large inputs ------------------------------------------ */

static char *gen_bomb(int levels)
{
    Buf b = {0};
    buf_puts(&b, "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int i = 1; i < levels; i++) {
        buf_printf(&b, "l%d: &l%d [", i, i);
        for (int k = 0; k < 9; k++)
            buf_printf(&b, "%s*l%d", k ? ", " : "", i - 1);
        buf_puts(&b, "]\n");
    }
    return b.p;
}

START_TEST(test_alias_bomb)
{
    char *y = gen_bomb(30); /* 9^30 nodes if expanded */
    clock_t t0 = clock();
    Node *n = load(y, NULL);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    free(y);
    ck_assert_ptr_null(n);
    /* expansion sizes 10, 91, 820, 7381: the first *l3 in l4 crosses 10000 */
    ck_assert_str_eq(diags(), "limit-alias@5:10");
    ck_assert_double_lt(secs, 2.0);
}
END_TEST

START_TEST(test_deep_nesting)
{
    enum { N = 200000 };
    char *y = malloc(2 * N + 1);
    memset(y, '[', N);
    memset(y + N, ']', N);
    y[2 * N] = 0;
    ck_assert_ptr_null(load(y, NULL));
    ck_assert_str_eq(diags(), "limit-depth@1:65");
    /* truncated: no closing brackets at all */
    diags_init(&D, A);
    y[N] = 0;
    ck_assert_ptr_null(load(y, NULL));
    ck_assert_str_eq(diags(), "limit-depth@1:65");
    /* exactly at the limit is fine */
    diags_init(&D, A);
    memset(y, '[', 64);
    memset(y + 64, ']', 64);
    y[128] = 0;
    Node *n = load(y, NULL);
    ck_assert_str_eq(diags(), "");
    ck_assert_ptr_nonnull(n);
    free(y);
}
END_TEST

START_TEST(test_big_scalar)
{
    size_t n = 64 * 1024 + 1;
    char *y = malloc(n + 4);
    memcpy(y, "a: ", 3);
    memset(y + 3, 'x', n);
    y[n + 3] = 0;
    ck_assert_ptr_null(load(y, NULL));
    ck_assert_str_eq(diags(), "limit-scalar@1:4");
    diags_init(&D, A);
    y[n + 2] = 0; /* exactly 64 KiB */
    ck_assert_ptr_nonnull(load(y, NULL));
    free(y);
}
END_TEST

/* 100 000 lines, 100 000 keys in one mapping, and one 100 000-item line:
 * each position exact, and fast (the conversions must not be quadratic). */
START_TEST(test_large)
{
    enum { N = 100000 };
    Buf b = {0};
    for (int i = 0; i < N; i++)
        buf_printf(&b, "key%d: é%d\n", i, i);
    clock_t t0 = clock();
    Node *n = load_n(b.p, b.len, NULL);
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->npairs, N);
    ck_assert_uint_eq(src_loc(pos(&n->pairs[N - 1].key)).line, N);
    ck_assert_uint_eq(src_loc(pos(&n->pairs[N - 1].value)).col, 11); /* "key99999: " */
    buf_free(&b);

    buf_puts(&b, "[");
    for (int i = 0; i < N; i++)
        buf_printf(&b, "%sé", i ? "," : "");
    buf_puts(&b, "]");
    n = load_n(b.p, b.len, NULL);
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->nitems, N);
    ck_assert_uint_eq(src_loc(pos(&n->items[N - 1])).col, 2 + (N - 1) * 3);
    buf_free(&b);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_double_lt(secs, 20.0);
}
END_TEST

/* A big mapping inside the document takes the loader's stack for its
 * kids (load.c on_end): its keys, and the document's keys around it, come
 * out in place, and a repeated key among them is found where written. */
START_TEST(test_big_nested)
{
    enum { N = 5000 };
    for (int dup = 0; dup < 2; dup++) {
        Buf b = {0};
        buf_puts(&b, "a: 1\nb:\n");
        for (int i = 0; i < N; i++)
            buf_printf(&b, "  k%d: %d\n", i, i);
        buf_puts(&b, dup ? "  k7: again\nc: [x, y]\n" : "c: [x, y]\n");
        unsigned before = D.nerrors;
        Node *n = load_n(b.p, b.len, NULL);
        buf_free(&b);
        if (dup) {
            ck_assert_ptr_null(n);
            ck_assert_uint_eq(D.nerrors, before + 1);
            ck_assert_str_eq(diags(), "duplicate-key@5003:3 (note@10:3)");
            continue;
        }
        ck_assert_ptr_nonnull(n);
        ck_assert_uint_eq(n->npairs, 3);
        ck_assert_str_eq(node_get(n, "a")->str, "1");
        const Node *m = node_get(n, "b"), *c = node_get(n, "c");
        ck_assert_uint_eq(m->npairs, N);
        ck_assert_str_eq(m->pairs[N - 1].key.str, "k4999");
        ck_assert_str_eq(m->pairs[N - 1].value.str, "4999");
        ck_assert_uint_eq(src_loc(pos(&m->pairs[N - 1].key)).line, N + 2);
        ck_assert_uint_eq(c->nitems, 2);
        ck_assert_str_eq(c->items[1].str, "y");
        ck_assert_uint_eq(src_loc(pos(&c->items[1])).line, N + 3);
    }
}
END_TEST

/* src_loc and src_line_off against counting line feeds from the start,
 * at every offset of files of 0 to 100 lines (across the line table's
 * steps), with and without a BOM and a final line feed, lines of 0 to 6
 * bytes. */
START_TEST(test_lines)
{
    bool bom = _i & 1, last_lf = _i & 2;
    for (int nl = 0; nl <= 100; nl += nl < 40 ? 1 : 13) {
        Buf b = {0};
        buf_puts(&b, bom ? "\xEF\xBB\xBF" : "");
        for (int l = 0; l < nl; l++) {
            for (int k = 0; k < (l * 7) % 6; k++)
                buf_putc(&b, 'a' + k);
            if (l + 1 < nl || last_lf)
                buf_putc(&b, '\n');
        }
        const SrcFile *f = src_from_string(A, "t.yaml", b.p ? b.p : "", b.len);
        size_t start = bom ? 3 : 0, line = 1, bol = start;
        for (size_t off = start; off <= b.len; off++) {
            SrcLoc l = src_loc(pos_at(f, off, 1));
            ck_assert_msg(l.line == line && l.col == off - bol + 1 && l.bol == f->text + bol,
                          "%d lines, offset %zu: %u:%u, want %zu:%zu", nl, off, l.line, l.col, line, off - bol + 1);
            ck_assert_uint_eq(src_line_off(f, (uint32_t)line), bol);
            if (off < b.len && b.p[off] == '\n')
                line++, bol = off + 1;
        }
        ck_assert_uint_eq(src_line_off(f, (uint32_t)line + 1), b.len); /* past the last line */
        buf_free(&b);
    }
}
END_TEST

/* Mangled documents must never crash or leak (run under ASan and
 * valgrind); and NULL comes back exactly when an error was reported. */
static const char *const seeds[] = {
    ("segc: 1\nboard:\n  name: x1 # c\n  wddm: \"1.3\"\nsegments:\n  - {name: v, size: 1GiB}\n"
     "  - name: w\n    flags: [a, b]\n    text: |\n      l1\n      l2\n"),
    "a: &a [x, 'y', \"z\\x41\"]\nb: *a\n? [k]\n: v\n--- \nc: !t d\n",
    "\xEF\xBB\xBFk: é\r\nl: >-\r\n  f\r\n  g\r\n<<: {}\n",
};

START_TEST(test_mutations)
{
    uint64_t rng = 0x9E3779B97F4A7C15u ^ (uint64_t)_i;
    for (int round = 0; round < 300; round++) {
        const char *seed = seeds[(size_t)round % countof(seeds)];
        size_t len = strlen(seed);
        char *t = malloc(len + 16);
        memcpy(t, seed, len);
        int edits = 1 + round % 4;
        for (int e = 0; e < edits && len > 0; e++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            size_t at = (size_t)(rng >> 33) % len;
            static const char alphabet[] = " \t\n\r:-[]{},#&*!|>'\"?\\x\xC3\xA9\x01";
            char c = alphabet[(rng >> 20) % (sizeof alphabet - 1)];
            switch ((rng >> 10) % 3) {
            case 0: t[at] = c; break;
            case 1: memmove(t + at, t + at + 1, len - at - 1), len--; break;
            default: memmove(t + at + 1, t + at, len - at), t[at] = c, len++; break;
            }
        }
        unsigned before = D.nerrors;
        Node *n = load_n(t, len, NULL);
        ck_assert((n == NULL) == (D.nerrors > before));
        if (n && n->kind == NODE_SCALAR && n->len)
            (void)node_char_pos(&F, n, n->len / 2, 1);
        free(t);
    }
}
END_TEST

Suite *loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = fixture_tcase("loader");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_valid, 0, (int)countof(valid));
    tcase_add_test(tc, test_styles);
    tcase_add_test(tc, test_lengths);
    tcase_add_test(tc, test_alias_shares);
    tcase_add_test(tc, test_node_get);
    tcase_add_test(tc, test_earlier_errors);
    tcase_add_loop_test(tc, test_char_pos, 0, (int)countof(charpos));
    tcase_add_loop_test(tc, test_bad, 0, (int)countof(bad));
    tcase_add_loop_test(tc, test_tab_fix, 0, (int)countof(tab_fixes));
    tcase_add_test(tc, test_spans);
    tcase_add_test(tc, test_dup_note_text);
    tcase_add_test(tc, test_alias_bomb);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_big_scalar);
    tcase_add_test(tc, test_large);
    tcase_add_test(tc, test_big_nested);
    tcase_add_loop_test(tc, test_lines, 0, 4);
    tcase_add_loop_test(tc, test_mutations, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}
