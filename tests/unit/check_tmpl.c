/* SPDX-License-Identifier: MIT */
/* check_tmpl.c - the template engine: every construct, every filter, the
 * tag-line rule, errors with their exact positions, and the limits.
 *
 * Most cases are rows of tables run with tcase_add_loop_test: a template,
 * rendered against the context built by make_ctx(), and the exact output;
 * or a template and the one error it must produce (code, line, column and
 * a piece of the message). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "segc.h"

/* ---- the context every table case sees ---------------------------------- */

static TVal *seg(Arena *a, const char *name, uint64_t id, uint64_t size, bool cpu)
{
    TVal *m = tv_map(a);
    tv_put(a, m, "name", tv_str(a, name));
    tv_put(a, m, "id", tv_int(a, id));
    tv_put(a, m, "size", tv_int(a, size));
    tv_put(a, m, "cpu", tv_bool(a, cpu));
    tv_put(a, m, "banks", tv_list(a));
    return m;
}

static void bank(Arena *a, TVal *seg_map, const char *name, uint64_t end)
{
    TVal *b = tv_map(a);
    tv_put(a, b, "name", tv_str(a, name));
    tv_put(a, b, "end", tv_int(a, end));
    TVal *banks = (TVal *)tv_get(seg_map, "banks");
    tv_push(a, banks, b);
}

static TVal *strs(Arena *a, const char *const *s, size_t n)
{
    TVal *l = tv_list(a);
    for (size_t i = 0; i < n; i++)
        tv_push(a, l, tv_str(a, s[i]));
    return l;
}

static TVal *make_ctx(Arena *a)
{
    TVal *ctx = tv_map(a);

    TVal *board = tv_map(a);
    tv_put(a, board, "name", tv_str(a, "contoso_x1"));
    tv_put(a, board, "upper", tv_str(a, "CONTOSO_X1"));
    tv_put(a, board, "wddm", tv_int(a, 0x20));
    tv_put(a, ctx, "board", board);

    TVal *segs = tv_list(a);
    TVal *s1 = seg(a, "local_vram", 1, 0x10000000, true);
    bank(a, s1, "low", 0x1000);
    bank(a, s1, "high", 0x2000);
    TVal *s2 = seg(a, "aperture", 2, 0x1000, false);
    TVal *s3 = seg(a, "sys_mem", 3, 0x100000000, false);
    bank(a, s3, "only", 0x100000000);
    tv_push(a, segs, s1);
    tv_push(a, segs, s2);
    tv_push(a, segs, s3);
    tv_put(a, ctx, "segs", segs);

    static const char *const names[] = {"a", "b", "c"};
    tv_put(a, ctx, "names", strs(a, names, 3));
    tv_put(a, ctx, "one", strs(a, names, 1));
    TVal *nums = tv_list(a);
    tv_push(a, nums, tv_int(a, 1));
    tv_push(a, nums, tv_int(a, 22));
    tv_push(a, nums, tv_int(a, 333));
    tv_put(a, ctx, "nums", nums);
    TVal *mixed = tv_list(a);
    tv_push(a, mixed, tv_str(a, "x"));
    tv_push(a, mixed, tv_int(a, 2));
    tv_put(a, ctx, "mixed", mixed);
    TVal *maps = tv_list(a);
    tv_push(a, maps, tv_map(a));
    tv_put(a, ctx, "maps", maps);
    TVal *grid = tv_list(a);
    for (int i = 0; i < 2; i++) {
        static const char *const row[] = {"p", "q"};
        tv_push(a, grid, strs(a, row, 2));
    }
    tv_put(a, ctx, "grid", grid);

    tv_put(a, ctx, "empty", tv_list(a));
    tv_put(a, ctx, "emptymap", tv_map(a));
    tv_put(a, ctx, "nothing", NULL);
    tv_put(a, ctx, "yes", tv_bool(a, true));
    tv_put(a, ctx, "no", tv_bool(a, false));
    tv_put(a, ctx, "zero", tv_int(a, 0));
    tv_put(a, ctx, "n", tv_int(a, 31));
    tv_put(a, ctx, "big", tv_int(a, UINT64_MAX));
    tv_put(a, ctx, "wide", tv_int(a, 0x100000000));
    tv_put(a, ctx, "s", tv_str(a, "hello_world"));
    tv_put(a, ctx, "es", tv_str(a, ""));
    tv_put(a, ctx, "quote", tv_str(a, "say \"hi\"\n\\"));
    tv_put(a, ctx, "ctl", tv_str(a, "t\tr\rb\001?\?=?\x7f"));
    tv_put(a, ctx, "cmt", tv_str(a, "a */ b /* c **/"));
    tv_put(a, ctx, "utf", tv_str(a, "\xc3\xa9")); /* é: 2 bytes, 1 column */

    TVal *kw = tv_map(a);
    tv_put(a, kw, "end", tv_int(a, 1));
    tv_put(a, kw, "if", tv_int(a, 2));
    tv_put(a, kw, "in", tv_int(a, 3));
    tv_put(a, kw, "not", tv_int(a, 4));
    tv_put(a, ctx, "kw", kw);
    return ctx;
}

/* Parses and renders `len` bytes of `text`.  Returns the output (arena
 * copy) or NULL after an error, which is left in `d`. */
static const char *render_n(Arena *a, Diags *d, const char *text, size_t len, const TVal *ctx)
{
    const SrcFile *src = src_from_string(a, "t.tmpl", text, len);
    Template *t = tmpl_parse(a, src, d);
    if (!t) {
        ck_assert_msg(diags_failed(d), "tmpl_parse failed without an error: %s", text);
        return NULL;
    }
    Buf out = {0};
    bool ok = tmpl_render(a, t, ctx, &out, d);
    ck_assert_msg(ok != diags_failed(d), "render result and diagnostics disagree: %s", text);
    ck_assert_msg(out.p != NULL, "no output buffer: %s", text);
    const char *res = ok ? arena_strndup(a, out.p, out.len) : NULL;
    buf_free(&out);
    return res;
}

static const char *render(Arena *a, Diags *d, const char *text, const TVal *ctx)
{
    return render_n(a, d, text, strlen(text), ctx);
}

static const char *first_error(const Diags *d)
{
    return d->head ? arena_printf(d->arena, "%s %u:%u %s", code_name(d->head->code), (unsigned)d->head->pos.line,
                                  (unsigned)d->head->pos.col, d->head->msg)
                   : "(none)";
}

/* ---- rendering ---------------------------------------------------------- */

typedef struct RenderCase {
    const char *tmpl, *want;
} RenderCase;

static const RenderCase render_cases[] = {
    /* text and substitution */
    {"", ""},
    {"plain text { } %} #} }} {# not a comment #}", "plain text { } %} #} }} {# not a comment #}"},
    {"{", "{"},
    {"a{b{ {c", "a{b{ {c"},
    {"{{ s }}", "hello_world"},
    {"[{{ es }}]", "[]"},
    {"{{ n }}", "31"},
    {"{{ big }}", "18446744073709551615"},
    {"{{ yes }}{{ no }}", "10"},
    {"{{ board.name }}/{{ board.upper }}/{{ board.wddm }}", "contoso_x1/CONTOSO_X1/32"},
    {"{{\ts\r\t}}", "hello_world"},
    {"{{ kw.end }}{{ kw.if }}{{ kw.in }}{{ kw.not }}", "1234"},

    /* literals */
    {"{{ 0 }} {{ 42 }} {{ 0x1f }} {{ 0X1F }} {{ 0xFFFFFFFFFFFFFFFF }}",
     "0 42 31 31 18446744073709551615"},
    {"{{ 18446744073709551615 }}", "18446744073709551615"},
    {"{{ \"a\\nb\\\" }}", "a\\nb\\"},
    {"{{ \"{{ not a tag }}\" }}", "{{ not a tag }}"},
    {"{{ \"\" }}|", "|"},

    /* operators */
    {"{{ n + 1 }} {{ n - 1 - 1 }} {{ 0x1f + 1 }} {{ big - big }}", "32 29 32 0"},
    {"{{ 1 == 1 }}{{ 1 == 2 }}{{ 1 != 2 }}{{ 2 != 2 }}", "1010"},
    {"{{ s == \"hello_world\" }}{{ s != \"hello\" }}{{ es == \"\" }}", "111"},
    {"{{ yes == yes }}{{ yes == no }}{{ no != yes }}", "101"},
    {"{{ 3 > 2 }}{{ 2 > 2 }}{{ 0 > big }}{{ big > 0 }}", "1001"},
    {"{{ not 0 }}{{ not 1 }}{{ not not 5 }}", "101"},
    {"{{ 1 and 2 }}{{ 1 and 0 }}{{ 0 or 3 }}{{ 0 or es }}", "1010"},
    {"{{ 0 and nope }}{{ 1 or nope.deeper }}", "01"},
    {"{{ 1 + 2 == 3 and not 0 }}", "1"},
    {"{{ not 1 == 2 }}", "1"},
    {"{{ 0 and 0 or 1 }}{{ 1 or 0 and 0 }}", "11"},
    {"{{ (1 + 2) - (2 - 1) }}{{ ((n)) }}", "231"},
    {"{{ n + 1 | hex }}", "0x20"},
    {"{{ (n | hex) == \"0x1F\" }}{{ not (names | join(\"\")) }}", "10"},
    {"{{ n - 1 == 30 and (s == \"x\" or 2 > 1) }}", "1"},

    /* truthiness */
    {"{% if no %}T{% else %}F{% end %}{% if zero %}T{% else %}F{% end %}"
     "{% if es %}T{% else %}F{% end %}{% if empty %}T{% else %}F{% end %}"
     "{% if emptymap %}T{% else %}F{% end %}{% if nothing %}T{% else %}F{% end %}",
     "FFFFFF"},
    {"{% if yes %}T{% end %}{% if n %}T{% end %}{% if s %}T{% end %}{% if names %}T{% end %}"
     "{% if board %}T{% end %}",
     "TTTTT"},

    /* if / elif / else */
    {"{% if yes %}a{% end %}{% if no %}b{% end %}", "a"},
    {"{% for v in nums %}{% if v == 1 %}one{% elif v == 22 %}two{% elif v > 100 %}big"
     "{% else %}?{% end %} {% end %}",
     "one two big "},
    {"{% if no %}a{% elif zero %}b{% end %}|", "|"},
    {"{% if no %}a{% elif 1 %}b{% elif 1 %}c{% else %}d{% end %}", "b"},
    {"{% if no %}a{% elif no %}b{% else %}c{% end %}", "c"},
    {"{% if yes %}{% if no %}x{% else %}{% if n > 30 %}deep{% end %}{% end %}{% end %}", "deep"},

    /* for and loop */
    {"{% for x in names %}{{ x }}{% end %}", "abc"},
    {"{% for x in empty %}never{% end %}|", "|"},
    {"{% for x in names %}{{ loop.number }}{{ loop.first }}{{ loop.last }}|{% end %}",
     "110|200|301|"},
    {"{% for x in names %}{{ x }}{% if not loop.last %}, {% end %}{% end %}", "a, b, c"},
    {"{% for s in segs %}{% for b in s.banks %}{{ s.name }}.{{ b.name }}"
     "{% if loop.first %}^{% end %}{% if loop.last %}${% end %} {% end %}{% end %}",
     "local_vram.low^ local_vram.high$ sys_mem.only^$ "},
    {"{% for s in segs %}{{ loop.number }}{% for b in s.banks %}.{{ loop.number }}{% end %}"
     "{{ loop.number }};{% end %}",
     "1.1.21;22;3.13;"},
    {"{% for row in grid %}{% for c in row %}{{ c }}{{ loop.number }}{% end %}/{% end %}",
     "p1q2/p1q2/"},
    {"{% for s in names %}{{ s }}{% end %}{{ s }}", "abchello_world"},
    {"{% for n in nums %}{% for n in names %}{{ n }}{% end %}{{ n }}{% end %}{{ n }}",
     "abc1abc22abc33331"},
    {"{% for b in segs %}{% if loop.last %}{{ b.id }}:{{ b.size | hex }}{% end %}{% end %}",
     "3:0x100000000"},

    /* filters */
    {"{{ 31 | hex }} {{ 0 | hex }} {{ big | hex }} {{ 0xabcdef | hex }}",
     "0x1F 0x0 0xFFFFFFFFFFFFFFFF 0xABCDEF"},
    {"{{ 31 | hex8 }} {{ 0xFFFFFFFF | hex8 }} {{ 0 | hex8 }}", "0x0000001F 0xFFFFFFFF 0x00000000"},
    {"{{ 31 | hex16 }} {{ big | hex16 }}", "0x000000000000001F 0xFFFFFFFFFFFFFFFF"},
    {"{{ quote | cstr }}", "\"say \\\"hi\\\"\\n\\\\\""},
    {"{{ ctl | cstr }}", "\"t\\tr\\rb\\001?\\?=?\\177\""},
    {"{{ utf | cstr }} {{ es | cstr }}", "\"\\303\\251\" \"\""},
    {"{{ cmt | comment }}", "a * / b / * c ** /"},
    {"{{ \"plain\" | comment }}{{ es | comment }}", "plain"},
    {"[{{ \"ab\" | pad(5) }}][{{ \"abcdef\" | pad(3) }}][{{ \"ab\" | pad(0) }}][{{ utf | pad(3) }}]",
     "[ab   ][abcdef][ab][\xc3\xa9  ]"},
    {"{{ names | join(\", \") }}|{{ one | join(\"+\") }}|{{ empty | join(\",\") }}|"
     "{{ names | join(\"\") }}",
     "a, b, c|a||abc"},
    {"{{ names | join(\"\") | cstr | pad(7) }}|", "\"abc\"  |"},
    {"{{ s | pad(n - 19) }}|", "hello_world |"},
    {"{{ names | join(\"-\" | pad(2)) }}", "a- b- c"},

    /* the tag-line rule: lines with only statement tags vanish */
    {"a\n{% if yes %}\nb\n{% end %}\nc\n", "a\nb\nc\n"},
    {"a\n    {% if yes %}\n  b\n    {% end %}\n", "a\n  b\n"},
    {"{% if yes %}{% if yes %}\nx\n{% end %}{% end %}\n", "x\n"},
    {"{% if yes %}{{ n }}\n{% end %}", "31\n"},
    {"x {% if yes %}\ny{% end %}", "x \ny"},
    {"a\n \t{% if no %}{% end %} ", "a\n"},
    {"a\r\n{% if yes %}\r\nb\r\n{% end %}\r\n", "a\r\nb\r\n"},
    {"\n{% if no %}\nx\n{% end %}\n\n", "\n\n"},
    {"{% for x in names %}\n  {{ x }},\n{% end %}\n", "  a,\n  b,\n  c,\n"},
    {"{{ n }}\n{% if yes %}{% end %}{{ n }}\n", "31\n31\n"},
    {"{% if yes %}{{ \"\" }}\n{% end %}", "\n"},

    /* the examples of templates/README.md */
    {"Board {{ board.name }}: {{ names | join(\", \") }}.", "Board contoso_x1: a, b, c."},
    {"static const ULONG ids[] = {\n{% for seg in segs %}\n    {{ seg.id }},\n{% end %}\n};\n",
     "static const ULONG ids[] = {\n    1,\n    2,\n    3,\n};\n"},
    {"{% for seg in segs %}\n    { {{ seg.id }}, {{ seg.name | cstr }} }"
     "{% if not loop.last %},{% end %}\n{% end %}\n",
     "    { 1, \"local_vram\" },\n    { 2, \"aperture\" },\n    { 3, \"sys_mem\" }\n"},

    /* a C file the way segc's templates write one */
    {"/* {{ board.name | comment }} */\n"
     "static const SEG g_{{ board.upper }}[{{ n - 28 }}] = {\n"
     "{% for s in segs %}\n"
     "    /* {{ loop.number }} */ { {{ s.name | cstr | pad(12) }}, {{ s.size | hex16 }}, "
     "{{ s.cpu }} }{% if not loop.last %},{% end %}\n"
     "{% end %}\n"
     "};\n",
     "/* contoso_x1 */\n"
     "static const SEG g_CONTOSO_X1[3] = {\n"
     "    /* 1 */ { \"local_vram\", 0x0000000010000000, 1 },\n"
     "    /* 2 */ { \"aperture\"  , 0x0000000000001000, 0 },\n"
     "    /* 3 */ { \"sys_mem\"   , 0x0000000100000000, 0 }\n"
     "};\n"},
};

START_TEST(test_render)
{
    const RenderCase *c = &render_cases[_i];
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const char *got = render(a, &d, c->tmpl, make_ctx(a));
    ck_assert_msg(got != NULL, "case %d: %s\n  error: %s", _i, c->tmpl, first_error(&d));
    ck_assert_msg(strcmp(got, c->want) == 0, "case %d: %s\n  want [%s]\n  got  [%s]", _i, c->tmpl,
                  c->want, got);
    ck_assert_uint_eq(d.count, 0);
    arena_free(a);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

typedef struct ErrorCase {
    const char *tmpl;
    const char *code;
    unsigned line, col;
    const char *msg; /* must occur in the message */
} ErrorCase;

static const ErrorCase error_cases[] = {
    /* unclosed and misplaced blocks */
    {"{% for s in segs %}\nx\n", "tmpl-syntax", 1, 1, "this `for` is never closed by `{% end %}`"},
    {"a\n  {% if yes %}{% for x in names %}{% end %}", "tmpl-syntax", 2, 3,
     "this `if` is never closed by `{% end %}`"},
    {"{% if yes %}\n{% for x in names %}\n{% if no %}{% end %}", "tmpl-syntax", 2, 1,
     "this `for` is never closed"},
    {"{% if yes %}{% else %}x", "tmpl-syntax", 1, 1, "this `if` is never closed"},
    {"{% end %}", "tmpl-syntax", 1, 4, "`{% end %}` without an open `if` or `for`"},
    {"{% if yes %}{% end %}{% end %}", "tmpl-syntax", 1, 25, "without an open"},
    {"{% else %}", "tmpl-syntax", 1, 4, "`{% else %}` without an open `if`"},
    {"{% elif yes %}", "tmpl-syntax", 1, 4, "`{% elif %}` without an open `if`"},
    {"{% for x in names %}{% else %}{% end %}", "tmpl-syntax", 1, 24,
     "`{% else %}` inside a `for`; only an `if` has `else`"},
    {"{% for x in names %}{% elif no %}{% end %}", "tmpl-syntax", 1, 24,
     "`{% elif %}` inside a `for`; only an `if` has `elif`"},
    {"{% if yes %}{% else %}{% elif no %}{% end %}", "tmpl-syntax", 1, 26,
     "`{% elif %}` after the `{% else %}` of this `if`"},
    {"{% if yes %}{% else %}{% else %}{% end %}", "tmpl-syntax", 1, 26, "after the `{% else %}`"},

    /* statements */
    {"{% foo %}", "tmpl-syntax", 1, 4, "expected `if` or `for` after `{%`, found name `foo`"},
    {"{% set x = 1 %}", "tmpl-syntax", 1, 4, "expected `if` or `for` after `{%`, found name `set`"},
    {"{% %}", "tmpl-syntax", 1, 4, "found `%}`"},
    {"{% for x in names %}{% loop %}{% end %}", "tmpl-syntax", 1, 24,
     "expected `if`, `for` or `end` after `{%`, found name `loop`"},
    {"{% if yes %}{% loop %}{% end %}", "tmpl-syntax", 1, 16,
     "expected `if`, `for`, `elif`, `else` or `end` after `{%`"},
    {"{% if yes %}{% else %}{% loop %}{% end %}", "tmpl-syntax", 1, 26,
     "expected `if`, `for` or `end` after `{%`"},
    {"{% if %}", "tmpl-syntax", 1, 7, "expected an expression, found `%}`"},
    {"{% if yes b %}", "tmpl-syntax", 1, 11, "expected `%}` or an operator, found name `b`"},
    {"{% for x y %}", "tmpl-syntax", 1, 10, "expected `in`, found name `y`"},
    {"{% for in names %}", "tmpl-syntax", 1, 8, "expected a name, found `in`"},
    {"{% for 1 in names %}", "tmpl-syntax", 1, 8, "expected a name, found integer `1`"},
    {"{% if yes %}{% end x %}", "tmpl-syntax", 1, 20, "expected `%}`, found name `x`"},
    {"{% if yes %}{% else x %}{% end %}", "tmpl-syntax", 1, 21, "expected `%}`, found name `x`"},
    {"{% if no %}{% elif %}{% end %}", "tmpl-syntax", 1, 20, "expected an expression, found `%}`"},
    {"{% if yes }}", "tmpl-syntax", 1, 11, "expected `%}` or an operator, found `}}`"},

    /* expressions */
    {"{{ n %}", "tmpl-syntax", 1, 6, "expected `}}` or an operator, found `%}`"},
    {"{{ }}", "tmpl-syntax", 1, 4, "expected an expression, found `}}`"},
    {"{{ + 1 }}", "tmpl-syntax", 1, 4, "expected an expression, found `+`"},
    {"{{ n + }}", "tmpl-syntax", 1, 8, "expected an expression, found `}}`"},
    {"{{ (1 }}", "tmpl-syntax", 1, 7, "expected `)` or an operator, found `}}`"},
    {"{{ n | }}", "tmpl-syntax", 1, 8, "expected a filter name, found `}}`"},
    {"{{ n | pad( }}", "tmpl-syntax", 1, 13, "expected an expression"},
    {"{{ n | pad(1 }}", "tmpl-syntax", 1, 14, "expected `)` or an operator, found `}}`"},
    {"{{ board. }}", "tmpl-syntax", 1, 11, "expected a name, found `}}`"},
    {"{{ board.1 }}", "tmpl-syntax", 1, 10, "expected a name, found integer `1`"},
    {"{{ board.name. }}", "tmpl-syntax", 1, 16, "expected a name, found `}}`"},
    {"{{ 3 > 2 > 1 }}", "tmpl-syntax", 1, 10, "comparisons do not chain"},
    {"{{ 1 == 2 != 3 }}", "tmpl-syntax", 1, 11, "comparisons do not chain"},
    {"{{ n | hex == \"0x1F\" }}", "tmpl-syntax", 1, 12, "`==` after a filter"},
    {"{{ n | hex + 1 }}", "tmpl-syntax", 1, 12, "put the filtered value in parentheses"},
    {"{{ upper(s) }}", "tmpl-syntax", 1, 9, "expected `}}` or an operator, found `(`"},
    {"{{ \"a\" \"b\" }}", "tmpl-syntax", 1, 8, "found a string"},
    {"{{ if }}", "tmpl-syntax", 1, 4, "expected an expression, found `if`"},
    {"{{ 1 == not 0 }}", "tmpl-syntax", 1, 9, "expected an expression, found `not`"},

    /* lexical errors */
    {"line1\n  {{ n", "tmpl-syntax", 2, 3, "this `{{` is not closed by `}}` on its line"},
    {"{% if yes", "tmpl-syntax", 1, 1, "this `{%` is not closed by `%}` on its line"},
    {"x {{ n\n}}", "tmpl-syntax", 1, 3, "this `{{` is not closed by `}}` on its line"},
    {"a\n{% if yes and\n      n %}\nb\n{% end %}\n", "tmpl-syntax", 2, 1,
     "this `{%` is not closed by `%}` on its line"},
    {"{{ \"abc }}", "tmpl-syntax", 1, 4, "string literal is not closed"},
    {"{{ \"a\nb\" }}", "tmpl-syntax", 1, 4, "string literal is not closed"},
    {"{{ 012 }}", "tmpl-syntax", 1, 4, "leading zero"},
    {"{{ 0x }}", "tmpl-syntax", 1, 4, "hexadecimal digits"},
    {"{{ 18446744073709551616 }}", "tmpl-overflow", 1, 4, "does not fit in 64 bits"},
    {"{{ 0x10000000000000000 }}", "tmpl-overflow", 1, 4, "does not fit in 64 bits"},
    {"{{ n @ }}", "tmpl-syntax", 1, 6, "unexpected character `@`"},
    {"{{ n \x01 }}", "tmpl-syntax", 1, 6, "unexpected byte 0x01"},
    {"{{ n & 1 }}", "tmpl-syntax", 1, 6, "unexpected character `&`"},
    {"{{ n < 1 }}", "tmpl-syntax", 1, 6, "unexpected character `<`"},
    {"{{ n ! 1 }}", "tmpl-syntax", 1, 6, "unexpected character `!`"},
    {"{{ n | pad(1, 2) }}", "tmpl-syntax", 1, 13, "unexpected character `,`"},
    {"{{- n }}", "tmpl-syntax", 1, 3, "expected an expression, found `-`"},
    {"{% if x = 1 %}", "tmpl-syntax", 1, 9, "unexpected character `=`"},
    /* the earlier of a syntax error and a later lexical error wins */
    {"{% if %} {{ @", "tmpl-syntax", 1, 7, "expected an expression"},
    {"{{ n }} {{ @ {% if %}", "tmpl-syntax", 1, 12, "unexpected character `@`"},
    {"{% if yes %}\n{{ 09 }}", "tmpl-syntax", 2, 4, "leading zero"},

    /* filters known at parse time */
    {"{{ s | upper }}", "tmpl-filter", 1, 8, "unknown filter `upper`"},
    {"{{ n | pad }}", "tmpl-filter", 1, 8, "filter `pad` takes one argument: the width"},
    {"{{ names | join }}", "tmpl-filter", 1, 12, "filter `join` takes one argument: the separator"},
    {"{{ n | hex(1) }}", "tmpl-filter", 1, 8, "filter `hex` takes no argument"},

    /* names */
    {"{{ nope }}", "tmpl-name", 1, 4, "unknown name `nope`"},
    {"x\n  {{ board.nme }}", "tmpl-name", 2, 12, "`board` has no field `nme`"},
    {"{{ segs.x }}", "tmpl-type", 1, 9, "`segs` is a list, not a map; it has no field `x`"},
    {"{{ s.x.y }}", "tmpl-type", 1, 6, "`s` is a string, not a map"},
    {"{{ board.name.x }}", "tmpl-type", 1, 15, "`board.name` is a string"},
    {"{% if nope %}{% end %}", "tmpl-name", 1, 7, "unknown name `nope`"},
    {"{{ 0 or nope }}", "tmpl-name", 1, 9, "unknown name `nope`"},
    {"{{ loop.number }}", "tmpl-name", 1, 4, "unknown name `loop`"},
    {"{% for x in names %}{{ loop.count }}{% end %}", "tmpl-name", 1, 29,
     "`loop` has no field `count`"},
    {"{% for x in names %}{% end %}{{ x }}", "tmpl-name", 1, 33, "unknown name `x`"},
    {"{% for x in segs %}{{ x.nme }}{% end %}", "tmpl-name", 1, 25, "`x` has no field `nme`"},
    {"{{ n | pad(nope) }}", "tmpl-name", 1, 12, "unknown name `nope`"},

    /* types */
    {"{{ segs }}", "tmpl-type", 1, 4, "`segs` is a list; `{{ }}` substitutes only strings"},
    {"{{ board }}", "tmpl-type", 1, 4, "`board` is a map"},
    {"{{ nothing }}", "tmpl-type", 1, 4, "`nothing` is null"},
    {"{{ (segs) }}", "tmpl-type", 1, 5, "`segs` is a list"},
    {"{% for x in board %}{% end %}", "tmpl-type", 1, 13, "`for` needs a list; `board` is a map"},
    {"{% for x in n %}{% end %}", "tmpl-type", 1, 13, "`n` is an integer"},
    {"{% for x in nothing %}{% end %}", "tmpl-type", 1, 13, "`nothing` is null"},
    {"{% for x in names | join(\",\") %}{% end %}", "tmpl-type", 1, 21,
     "`for` needs a list; the result of `join` is a string"},
    {"{% for x in 1 + 1 %}{% end %}", "tmpl-type", 1, 15, "the value is an integer"},
    {"{{ n + s }}", "tmpl-type", 1, 6, "`+` needs two integers, not an integer and a string"},
    {"{{ yes - 1 }}", "tmpl-type", 1, 8, "`-` needs two integers, not a boolean"},
    {"{{ (1 or 0) + 1 }}", "tmpl-type", 1, 13, "not a boolean and an integer"},
    {"{{ s > n }}", "tmpl-type", 1, 6, "`>` needs two integers, not a string and an integer"},
    {"{{ n == s }}", "tmpl-type", 1, 6, "`==` compares two integers, two strings or two booleans"},
    {"{{ names != names }}", "tmpl-type", 1, 10, "not a list and a list"},
    {"{{ nothing == nothing }}", "tmpl-type", 1, 12, "not null and null"},

    /* overflow */
    {"{{ 1 - 2 }}", "tmpl-overflow", 1, 6, "1 - 2 is below zero"},
    {"{{ big + 1 }}", "tmpl-overflow", 1, 8, "does not fit in 64 bits"},
    {"{{ 0xFFFFFFFFFFFFFFFF + 0xFFFFFFFFFFFFFFFF }}", "tmpl-overflow", 1, 23, "does not fit"},
    {"{% for i in nums %}{{ 300 - i }} {% end %}", "tmpl-overflow", 1, 27, "300 - 333"},

    /* filters on the wrong type */
    {"{{ s | hex }}", "tmpl-filter", 1, 8, "filter `hex` needs an integer, got a string"},
    {"{{ yes | hex }}", "tmpl-filter", 1, 10, "got a boolean"},
    {"{{ nothing | hex }}", "tmpl-filter", 1, 14, "filter `hex` needs an integer, got null"},
    {"{{ wide | hex8 }}", "tmpl-filter", 1, 11, "0x100000000 needs more than 8 hex digits"},
    {"{{ s | hex8 }}", "tmpl-filter", 1, 8, "filter `hex8` needs an integer"},
    {"{{ yes | hex16 }}", "tmpl-filter", 1, 10, "filter `hex16` needs an integer"},
    {"{{ n | cstr }}", "tmpl-filter", 1, 8, "filter `cstr` needs a string, got an integer"},
    {"{{ n | comment }}", "tmpl-filter", 1, 8, "filter `comment` needs a string"},
    {"{{ names | pad(3) }}", "tmpl-filter", 1, 12, "filter `pad` needs a string, got a list"},
    {"{{ 7 | pad(3) }}", "tmpl-filter", 1, 8, "filter `pad` needs a string, got an integer"},
    {"{{ s | pad(\"3\") }}", "tmpl-filter", 1, 12, "the width of `pad` must be an integer, got a string"},
    {"{{ board | join(\",\") }}", "tmpl-filter", 1, 12, "filter `join` needs a list, got a map"},
    {"{{ names | join(1) }}", "tmpl-filter", 1, 17, "the separator of `join` must be a string"},
    {"{{ maps | join(\",\") }}", "tmpl-filter", 1, 11, "item 0 is a map"},
    {"{{ mixed | join(\",\") }}", "tmpl-filter", 1, 12, "a list of strings; item 1 is an integer"},
    {"{{ \"\" | pad(67108864) }}", "tmpl-limit", 1, 9, "result of `pad` is over the 64 MiB output limit"},
    {"{{ \"\" | pad(big) }}", "tmpl-limit", 1, 9, "result of `pad` is over the 64 MiB output limit"},
};

START_TEST(test_error)
{
    const ErrorCase *c = &error_cases[_i];
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const char *got = render(a, &d, c->tmpl, make_ctx(a));
    ck_assert_msg(got == NULL, "case %d: %s\n  rendered [%s] instead of failing", _i, c->tmpl, got);
    ck_assert_msg(d.nerrors == 1 && d.count == 1, "case %d: %s: %u diagnostics, first %s", _i,
                  c->tmpl, d.count, first_error(&d));
    const Diag *g = d.head;
    ck_assert_msg(strcmp(code_name(g->code), c->code) == 0 && g->pos.line == c->line && g->pos.col == c->col &&
                      strstr(g->msg, c->msg) != NULL,
                  "case %d: %s\n  want %s %u:%u ...%s...\n  got  %s", _i, c->tmpl, c->code, c->line,
                  c->col, c->msg, first_error(&d));
    ck_assert_ptr_nonnull(g->pos.file);
    ck_assert_str_eq(g->pos.file->name, "t.tmpl");
    arena_free(a);
}
END_TEST

/* Did-you-mean suggestions come with the name errors. */
typedef struct SuggestCase {
    const char *tmpl, *fix;
} SuggestCase;

static const SuggestCase suggest_cases[] = {
    {"{{ bord.name }}", "did you mean 'board'?"},
    {"{{ board.nme }}", "did you mean 'name'?"},
    {"{% for seg in segs %}{{ sef.name }}{% end %}", "did you mean 'seg'?"},
    {"{% for x in names %}{{ lopo.number }}{% end %}", "did you mean 'loop'?"},
    {"{% for counter in names %}{{ countr }}{% end %}", "did you mean 'counter'?"},
    {"{% for x in names %}{{ loop.frist }}{% end %}", "did you mean 'first'?"},
    {"{{ s | cstrr }}", "did you mean 'cstr'?"},
    {"{{ n | hex4 }}", "did you mean 'hex'?"},
    {"{{ n | hx8 }}", "did you mean 'hex8'?"},
    {"{{ xyzzy_plugh }}", NULL},
};

START_TEST(test_suggest)
{
    const SuggestCase *c = &suggest_cases[_i];
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    ck_assert_ptr_null(render(a, &d, c->tmpl, make_ctx(a)));
    ck_assert_uint_eq(d.count, 1);
    if (c->fix) {
        ck_assert_ptr_nonnull(d.head->fix);
        ck_assert_str_eq(d.head->fix, c->fix);
    } else {
        ck_assert_ptr_null(d.head->fix);
    }
    arena_free(a);
}
END_TEST

/* The misplaced `else`/`elif` errors point back at the block, or at the
 * `else` already seen, in a note. */
START_TEST(test_notes)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    ck_assert_ptr_null(render(a, &d, "{% if yes %}\n  {% for x in names %}{% else %}", make_ctx(a)));
    ck_assert_uint_eq(d.count, 1);
    const Note *n = d.head->notes;
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->pos.line, 2);
    ck_assert_uint_eq(n->pos.col, 3);
    ck_assert_uint_eq(n->pos.len, 20); /* the whole `{% for x in names %}` */
    ck_assert_str_eq(n->msg, "the innermost open block is this `for`");

    diags_init(&d, a);
    ck_assert_ptr_null(render(a, &d, "{% if yes %}\n {% else %}{% elif no %}", make_ctx(a)));
    ck_assert_uint_eq(d.count, 1);
    ck_assert_uint_eq(d.head->pos.col, 15);
    n = d.head->notes;
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->pos.line, 2);
    ck_assert_uint_eq(n->pos.col, 5);
    ck_assert_str_eq(n->msg, "the `else` is here");
    arena_free(a);
}
END_TEST

/* A NUL byte inside the text is refused, at its position. */
START_TEST(test_nul_byte)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    static const char text[] = "ab\ncd\0ef";
    ck_assert_ptr_null(render_n(a, &d, text, sizeof text - 1, make_ctx(a)));
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(code_name(d.head->code), "tmpl-syntax");
    ck_assert_uint_eq(d.head->pos.line, 2);
    ck_assert_uint_eq(d.head->pos.col, 3);
    ck_assert_str_eq(d.head->msg, "template contains a NUL byte");
    arena_free(a);
}
END_TEST

/* Rendering without a context map: only literals and bound names work. */
START_TEST(test_null_context)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    ck_assert_str_eq(render(a, &d, "{{ 2 + 1 }}{% if 1 %}x{% end %}", NULL), "3x");
    ck_assert_ptr_null(render(a, &d, "{{ y }}", NULL));
    ck_assert_str_eq(code_name(d.head->code), "tmpl-name");
    arena_free(a);
}
END_TEST

/* A template renders the same twice, and output is appended to the buffer. */
START_TEST(test_render_twice)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const char *text = "{% for s in segs %}{{ s.name }};{% end %}";
    const SrcFile *src = src_from_string(a, "t.tmpl", text, strlen(text));
    Template *t = tmpl_parse(a, src, &d);
    ck_assert_ptr_nonnull(t);
    TVal *ctx = make_ctx(a);
    Buf out = {0};
    buf_puts(&out, ">");
    ck_assert(tmpl_render(a, t, ctx, &out, &d));
    ck_assert(tmpl_render(a, t, ctx, &out, &d));
    ck_assert_str_eq(out.p, ">local_vram;aperture;sys_mem;local_vram;aperture;sys_mem;");
    buf_free(&out);
    ck_assert(!tmpl_render(a, NULL, ctx, &out, &d));
    arena_free(a);
}
END_TEST

/* ---- values ------------------------------------------------------------- */

START_TEST(test_values)
{
    Arena *a = arena_new();
    TVal *m = tv_map(a);
    char key[] = "k1";
    tv_put(a, m, key, tv_int(a, 1));
    key[1] = '9'; /* keys are copied */
    tv_put(a, m, "k2", tv_str(a, "two"));
    tv_put(a, m, "k1", tv_int(a, 11)); /* replaces, keeps its place */
    tv_put(a, m, "k3", NULL);
    ck_assert_uint_eq(m->n, 3);
    ck_assert_str_eq(m->keys[0], "k1");
    ck_assert_str_eq(m->keys[1], "k2");
    ck_assert_str_eq(m->keys[2], "k3");
    ck_assert_uint_eq(tv_get(m, "k1")->i, 11);
    ck_assert_str_eq(tv_get(m, "k2")->s, "two");
    ck_assert_int_eq(tv_get(m, "k3")->kind, TV_NULL);
    ck_assert_ptr_null(tv_get(m, "k9"));
    ck_assert_ptr_null(tv_get(NULL, "k1"));
    ck_assert_ptr_null(tv_get(tv_list(a), "k1"));

    TVal *l = tv_list(a);
    for (int i = 0; i < 100; i++)
        tv_push(a, l, tv_int(a, (uint64_t)i));
    tv_push(a, l, NULL);
    ck_assert_uint_eq(l->n, 101);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(l->items[i]->i, (uint64_t)i);
    ck_assert_int_eq(l->items[100]->kind, TV_NULL);

    char s[] = "abc";
    TVal *str = tv_str(a, s);
    s[0] = 'x'; /* strings are copied */
    ck_assert_str_eq(str->s, "abc");
    ck_assert_str_eq(tv_str(a, NULL)->s, "");
    ck_assert(tv_bool(a, true)->b);
    ck_assert_int_eq(tv_bool(a, false)->kind, TV_BOOL);
    arena_free(a);
}
END_TEST

/* ---- limits ------------------------------------------------------------- */

static char *nest(const char *open, const char *mid, const char *close, int n)
{
    Buf b = {0};
    for (int i = 0; i < n; i++)
        buf_puts(&b, open);
    buf_puts(&b, mid);
    for (int i = 0; i < n; i++)
        buf_puts(&b, close);
    return b.p;
}

typedef struct DepthCase {
    const char *open, *mid, *close;
    int ok_depth; /* renders at this depth, fails one deeper */
    const char *code, *msg;
} DepthCase;

static const DepthCase depth_cases[] = {
    {"{% if yes %}", "x", "{% end %}", 64, "tmpl-depth", "blocks nest deeper than 64 levels"},
    {"{% for x in one %}", "", "{% end %}", 64, "tmpl-depth", "blocks nest deeper than 64 levels"},
};

START_TEST(test_depth_blocks)
{
    const DepthCase *c = &depth_cases[_i];
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    char *ok = nest(c->open, c->mid, c->close, c->ok_depth);
    char *bad = nest(c->open, c->mid, c->close, c->ok_depth + 1);
    ck_assert_msg(render(a, &d, ok, make_ctx(a)) != NULL, "%s", first_error(&d));
    ck_assert_ptr_null(render(a, &d, bad, make_ctx(a)));
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(code_name(d.head->code), c->code);
    ck_assert_str_eq(d.head->msg, c->msg);
    ck_assert_uint_eq(d.head->pos.col, (uint32_t)(c->ok_depth * strlen(c->open) + 1));
    free(ok);
    free(bad);
    arena_free(a);
}
END_TEST

/* Expressions: 64 levels of parentheses, `not`, operators and filters are
 * fine, one more is refused; very long runs are refused the same way, not
 * by the end of the C stack. */
START_TEST(test_depth_expr)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    TVal *ctx = make_ctx(a);
    struct {
        const char *open, *mid, *close;
        int n;
        bool ok;
        const char *msg;
    } cases[] = {
        {"(", "1", ")", 64, true, NULL},
        {"(", "1", ")", 65, false, "parentheses nest deeper than 64 levels"},
        {"not ", "1", "", 64, true, NULL},
        {"not ", "1", "", 65, false, "expression nests deeper than 64 levels"},
        {"not ", "1", "", 100000, false, "expression nests deeper than 64 levels"},
        {"(", "1", ")", 100000, false, "parentheses nest deeper than 64 levels"},
        {"", "1", " + 1", 64, true, NULL},
        {"", "1", " + 1", 65, false, "expression nests deeper than 64 levels"},
        {"", "s", " | comment", 64, true, NULL},
        {"", "s", " | comment", 65, false, "expression nests deeper than 64 levels"},
        {"(1 + ", "1", ")", 64, true, NULL},
    };
    for (size_t i = 0; i < countof(cases); i++) {
        char *e = nest(cases[i].open, cases[i].mid, cases[i].close, cases[i].n);
        char *text = arena_printf(a, "{{ %s }}", e);
        free(e);
        diags_init(&d, a);
        const char *got = render(a, &d, text, ctx);
        if (cases[i].ok) {
            ck_assert_msg(got != NULL, "row %zu: %s", i, first_error(&d));
        } else {
            ck_assert_msg(got == NULL && d.count == 1, "row %zu", i);
            ck_assert_str_eq(code_name(d.head->code), "tmpl-depth");
            ck_assert_str_eq(d.head->msg, cases[i].msg);
        }
    }
    arena_free(a);
}
END_TEST

/* Output past 64 MiB stops the render at the tag that crossed the line;
 * so do a filter result too long to write and memory past 256 MiB. */
START_TEST(test_output_limit)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    TVal *ctx = tv_map(a);
    char *blob = xmalloc((1u << 20) + 1);
    memset(blob, 'x', 1u << 20);
    blob[1u << 20] = 0;
    tv_put(a, ctx, "blob", tv_str(a, blob));
    free(blob);
    TVal *items = tv_list(a);
    for (int i = 0; i < 100; i++)
        tv_push(a, items, tv_int(a, (uint64_t)i));
    tv_put(a, ctx, "items", items);
    ck_assert_ptr_null(render(a, &d, "{% for i in items %}\n  {{ blob }}\n{% end %}", ctx));
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(code_name(d.head->code), "tmpl-limit");
    ck_assert_uint_eq(d.head->pos.line, 2);
    ck_assert_uint_eq(d.head->pos.col, 3);
    ck_assert_str_eq(d.head->msg, "output grows past the 64 MiB limit");

    /* A filter result that could never be written is refused before it is
     * made: `cstr` more than doubles a string of backslashes each time. */
    tv_put(a, ctx, "bs", tv_str(a, "\\\\"));
    char *chain = nest("", "bs", " | cstr", 40);
    diags_init(&d, a);
    ck_assert_ptr_null(render(a, &d, arena_printf(a, "{{ %s }}", chain), ctx));
    free(chain);
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(code_name(d.head->code), "tmpl-limit");
    ck_assert_str_eq(d.head->msg, "result of `cstr` is over the 64 MiB output limit");

    /* Results that are made and dropped still count against the memory
     * limit (4 MiB a pass here), though nothing is written. */
    diags_init(&d, a);
    ck_assert_ptr_null(
        render(a, &d, "{% for i in items %}{% if blob | cstr %}{% end %}{% end %}", ctx));
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(code_name(d.head->code), "tmpl-limit");
    ck_assert_uint_eq(d.head->pos.col, 34);
    ck_assert_str_eq(d.head->msg, "template uses more than 256 MiB of memory");
    arena_free(a);
}
END_TEST

/* A template that loops without end (here 2^36 iterations producing
 * nothing) is stopped by the step limit. */
START_TEST(test_step_limit)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    TVal *ctx = tv_map(a);
    TVal *items = tv_list(a);
    for (int i = 0; i < 4096; i++)
        tv_push(a, items, tv_int(a, (uint64_t)i));
    tv_put(a, ctx, "items", items);
    ck_assert_ptr_null(render(a, &d,
                              "{% for i in items %}{% for j in items %}{% for k in items %}"
                              "{% end %}{% end %}{% end %}",
                              ctx));
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(code_name(d.head->code), "tmpl-limit");
    ck_assert_uint_eq(d.head->pos.col, 44);
    ck_assert(strstr(d.head->msg, "steps") != NULL);
    arena_free(a);
}
END_TEST

/* Bytes that are not a template must give errors, never a crash. */
static const char *const hostile[] = {
    "{{", "{%", "{{{{", "{%%}", "{{}}", "{%-", "{{-",
    "{{ -}}", "{%- -%}", "{% if", "{% if yes %}{% elif", "{{ \"", "{{ \"\\", "{{ (((", "{{ )))",
    "{{ a.b.c.d.e.f }}", "{{ . }}", "{{ | }}", "{{ a | b | c }}", "{% for %}", "{% set = %}",
    "{% if yes %}{% end", "\xff\xfe{{ \xff }}", "{{ 0x }}", "{{ 1 ==== 2 }}", "{% end %}{% end %}",
    "{{ a,b }}", "{{ n | pad(1,) }}", "{% if yes %}{% else %}", "{% for x in names %}{% elif %}",
};

START_TEST(test_hostile)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const char *got = render(a, &d, hostile[_i], make_ctx(a));
    ck_assert_msg(got == NULL && d.nerrors == 1, "%s: %s", hostile[_i], first_error(&d));
    ck_assert_uint_ge(d.head->pos.line, 1);
    ck_assert_uint_ge(d.head->pos.col, 1);
    arena_free(a);
}
END_TEST

Suite *tmpl_suite(void)
{
    Suite *s = suite_create("tmpl");
    TCase *tc = tcase_create("render");
    tcase_add_loop_test(tc, test_render, 0, (int)countof(render_cases));
    tcase_add_test(tc, test_null_context);
    tcase_add_test(tc, test_render_twice);
    tcase_add_test(tc, test_values);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_error, 0, (int)countof(error_cases));
    tcase_add_loop_test(tc, test_suggest, 0, (int)countof(suggest_cases));
    tcase_add_test(tc, test_notes);
    tcase_add_test(tc, test_nul_byte);
    tcase_add_loop_test(tc, test_hostile, 0, (int)countof(hostile));
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_depth_blocks, 0, (int)countof(depth_cases));
    tcase_add_test(tc, test_depth_expr);
    tcase_add_test(tc, test_output_limit);
    tcase_add_test(tc, test_step_limit);
    suite_add_tcase(s, tc);
    return s;
}
