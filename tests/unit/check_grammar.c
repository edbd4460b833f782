/* SPDX-License-Identifier: MIT */
/* check_grammar.c - the expression grammar through expr_parse: precedence
 * and associativity (shown by expr_print), units, calls, spans, every
 * syntax error at its exact column, and the nesting and length limits. */
#include "expr_int.h"
#include "fixture.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

enum { LINE = 3, COL = 15 }; /* where every case's text starts */
#define AT(c) ((uint32_t)(COL + (c) - 1))

static Expr *parse(Arena *a, Diags *d, const char *in)
{
    diags_init(d, a);
    return expr_parse(a, in, strlen(in), (Pos){NULL, LINE, COL, 0}, d);
}

static char *printed(Arena *a, const Expr *e)
{
    Buf b = {0};
    expr_print(&b, e);
    char *s = arena_strdup(a, b.p ? b.p : "");
    buf_free(&b);
    return s;
}

/* ---- precedence, associativity, units, calls --------------------------- */

static const struct {
    const char *in, *out;
} print_cases[] = {
    {"1", "1"},
    {"0x10 + 0b11 + 0o7", "((16 + 3) + 7)"},
    {"1 + 2 * 3", "(1 + (2 * 3))"},
    {"(1 + 2) * 3", "((1 + 2) * 3)"},
    {"((1 + (2 * 3)) << 4)", "((1 + (2 * 3)) << 4)"},
    /* left associativity at every level */
    {"1 - 2 - 3", "((1 - 2) - 3)"},
    {"8 / 4 / 2", "((8 / 4) / 2)"},
    {"1 % 2 * 3 / 4", "(((1 % 2) * 3) / 4)"},
    {"1 << 2 >> 3", "((1 << 2) >> 3)"},
    {"1 & 2 & 3", "((1 & 2) & 3)"},
    {"1 ^ 2 ^ 3", "((1 ^ 2) ^ 3)"},
    {"1 | 2 | 3", "((1 | 2) | 3)"},
    /* the whole ladder, both ways */
    {"1 | 2 ^ 3 & 4 << 5 + 6 * 7", "(1 | (2 ^ (3 & (4 << (5 + (6 * 7))))))"},
    {"1 * 2 + 3 << 4 & 5 ^ 6 | 7", "((((((1 * 2) + 3) << 4) & 5) ^ 6) | 7)"},
    {"a >> 1 - 1", "(a >> (1 - 1))"},
    /* unary */
    {"-1", "(-1)"},
    {"~0", "(~0)"},
    {"- -1", "(-(-1))"},
    {"~-~x", "(~(-(~x)))"},
    {"+1", "1"},
    {"+ +x", "x"},
    {"-a * b", "((-a) * b)"},
    {"~a + 1", "((~a) + 1)"},
    {"2 * -3", "(2 * (-3))"},
    /* postfix units bind tightest */
    {"512 MiB", "(512 MiB)"},
    {"512MiB", "(512 MiB)"},
    {"(1+1)GiB", "((1 + 1) GiB)"},
    {"4 pages", "(4 pages)"},
    {"1 + 2 MiB", "(1 + (2 MiB))"},
    {"2 MiB * 3", "((2 MiB) * 3)"},
    {"-2 MiB", "(-(2 MiB))"},
    {"~1B", "(~(1 B))"},
    {"vram KiB", "(vram KiB)"},
    {"min(1, 2) KiB", "(min(1, 2) KiB)"},
    {"1 KiB KiB", "((1 KiB) KiB)"},
    /* calls and names */
    {"min(a, b)", "min(a, b)"},
    {"max(1, 2, 3)", "max(1, 2, 3)"},
    {"align_up(size, 4KiB)", "align_up(size, (4 KiB))"},
    {"min(1 + 2, max(3, 4))", "min((1 + 2), max(3, 4))"},
    {"min((1), ((2)))", "min(1, 2)"},
    {"foo()", "foo()"},
    {"f(x) + g(y) * 2", "(f(x) + (g(y) * 2))"},
    {"visible.end + bar.fb.size", "(visible.end + bar.fb.size)"},
    {"K * M", "(K * M)"},
    {" \t1\t+\n2 ", "(1 + 2)"},
};

START_TEST(test_print)
{
    Expr *e = parse(A, &D, print_cases[_i].in);
    ck_assert_msg(e, "'%s' did not parse: %s", print_cases[_i].in, D.head ? D.head->msg : "?");
    ck_assert_uint_eq(D.count, 0);
    ck_assert_str_eq(printed(A, e), print_cases[_i].out);
}
END_TEST

/* ---- spans ------------------------------------------------------------- */

static const struct {
    const char *in;
    ExprKind kind;
    unsigned col, len;       /* the root's span */
    unsigned op_col, op_len; /* its op_pos */
} span_cases[] = {
    {"1 + 2", EX_BIN, 1, 5, 3, 1},
    {"  (1 + 2) * 3 ", EX_BIN, 3, 11, 11, 1},
    {"(1 + 2)", EX_BIN, 1, 7, 4, 1},
    {"1 << 2", EX_BIN, 1, 6, 3, 2},
    {"min(a, b)", EX_CALL, 1, 9, 1, 3},
    {"align_up(x , 4 )", EX_CALL, 1, 16, 1, 8},
    {"512 MiB", EX_UNIT, 1, 7, 5, 3},
    {"(1+1)GiB", EX_UNIT, 1, 8, 6, 3},
    {"-x", EX_NEG, 1, 2, 1, 1},
    {"~ 0x10", EX_NOT, 1, 6, 1, 1},
    {"(1)", EX_NUM, 1, 3, 2, 1},
    {"+ 5", EX_NUM, 1, 3, 3, 1},
    {"bar.fb.size", EX_REF, 1, 11, 1, 11},
    {"1 +\n2", EX_BIN, 1, 3, 3, 1}, /* a span across lines ends with its first line */
};

START_TEST(test_spans)
{
    Expr *e = parse(A, &D, span_cases[_i].in);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->kind, span_cases[_i].kind);
    ck_assert_msg(e->pos.line == LINE && e->pos.col == AT(span_cases[_i].col) &&
                      e->pos.len == span_cases[_i].len,
                  "'%s': span %u:%u+%u, want %u:%u+%u", span_cases[_i].in, e->pos.line, e->pos.col,
                  e->pos.len, LINE, AT(span_cases[_i].col), span_cases[_i].len);
    ck_assert_msg(e->op_pos.col == AT(span_cases[_i].op_col) &&
                      e->op_pos.len == span_cases[_i].op_len,
                  "'%s': op at %u+%u, want %u+%u", span_cases[_i].in, e->op_pos.col, e->op_pos.len,
                  AT(span_cases[_i].op_col), span_cases[_i].op_len);
}
END_TEST

/* Children carry their own spans: "(1 + 2) * min(x, 3 KiB)". */
START_TEST(test_child_spans)
{
    Expr *e = parse(A, &D, "(1 + 2) * min(x, 3 KiB)");
    ck_assert_ptr_nonnull(e);
    const Expr *l = e->args[0], *r = e->args[1];
    ck_assert_uint_eq(l->pos.col, AT(1));
    ck_assert_uint_eq(l->pos.len, 7);
    ck_assert_uint_eq(l->op_pos.col, AT(4));
    ck_assert_uint_eq(l->args[1]->pos.col, AT(6));
    ck_assert_int_eq(r->kind, EX_CALL);
    ck_assert_uint_eq(r->nargs, 2);
    ck_assert_uint_eq(r->pos.col, AT(11));
    ck_assert_uint_eq(r->pos.len, 13);
    ck_assert_str_eq(r->args[0]->name, "x");
    ck_assert_uint_eq(r->args[0]->pos.col, AT(15));
    ck_assert_int_eq(r->args[1]->kind, EX_UNIT);
    ck_assert_int_eq(r->args[1]->unit, UNIT_KIB);
    ck_assert_uint_eq(r->args[1]->pos.col, AT(18));
    ck_assert_uint_eq(r->args[1]->pos.len, 5);
    ck_assert_uint_eq(r->args[1]->op_pos.col, AT(20));
}
END_TEST

/* ---- syntax errors ----------------------------------------------------- */

static const struct {
    const char *in;
    unsigned line, col, len; /* line relative to the first (0) */
    const char *msg;
} syntax_cases[] = {
    {"", 0, 1, 0, "empty expression"},
    {"   ", 0, 1, 0, "empty expression"},
    {"1 +", 0, 4, 0, "unexpected end of expression"},
    {"(1", 0, 3, 0, "unexpected end of expression"},
    {"~", 0, 2, 0, "unexpected end of expression"},
    {"min(1, 2", 0, 9, 0, "unexpected end of expression"},
    {"1)", 0, 2, 1, "unexpected ')'"},
    {"()", 0, 2, 1, "unexpected ')'"},
    {"(1 + 2))", 0, 8, 1, "unexpected ')'"},
    {"min(1,)", 0, 7, 1, "unexpected ')'"},
    {"min(,1)", 0, 5, 1, "unexpected ','"},
    {"1, 2", 0, 2, 1, "unexpected ','"},
    {"1 2", 0, 3, 1, "unexpected number '2'"},
    {"0x10 0x20", 0, 6, 4, "unexpected number '0x20'"},
    {"a b", 0, 3, 1, "unexpected name 'b'"},
    {"1 + pages", 0, 5, 5, "unexpected unit 'pages'"},
    {"MiB", 0, 1, 3, "unexpected unit 'MiB'"},
    {"1 * * 2", 0, 5, 1, "unexpected '*'"},
    {"1 << << 2", 0, 6, 2, "unexpected '<<'"},
    {"* 2", 0, 1, 1, "unexpected '*'"},
    {"f(1)(2)", 0, 5, 1, "unexpected '('"},
    {"(1)(2)", 0, 4, 1, "unexpected '('"},
    {"1 ~ 2", 0, 3, 1, "unexpected '~'"},
    {"1 +\n  )", 1, 3, 1, "unexpected ')'"},
};

START_TEST(test_syntax)
{
    const char *in = syntax_cases[_i].in;
    Expr *e = parse(A, &D, in);
    ck_assert_msg(e == NULL, "'%s' parsed", in);
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_str_eq(code_name(D.head->code), "expr-syntax");
    ck_assert_str_eq(D.head->msg, syntax_cases[_i].msg);
    uint32_t col = syntax_cases[_i].line ? syntax_cases[_i].col : AT(syntax_cases[_i].col);
    ck_assert_msg(D.head->pos.line == LINE + syntax_cases[_i].line && D.head->pos.col == col &&
                      D.head->pos.len == syntax_cases[_i].len,
                  "'%s': error at %u:%u+%u, want %u:%u+%u", in, D.head->pos.line, D.head->pos.col,
                  D.head->pos.len, LINE + syntax_cases[_i].line, col, syntax_cases[_i].len);
}
END_TEST

/* Lexical errors come out of expr_parse unchanged, once. */
START_TEST(test_lex_error_through_parse)
{
    ck_assert_ptr_null(parse(A, &D, "1 + 512MB"));
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_str_eq(code_name(D.head->code), "expr-unit");
    ck_assert_uint_eq(D.head->pos.col, AT(8));
    ck_assert_ptr_null(parse(A, &D, "(1 + 2) # 3"));
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_uint_eq(D.head->pos.col, AT(9));
}
END_TEST

/* ---- limits ------------------------------------------------------------ */

/* `n` copies of `unit` around `core`, then `n` copies of `close`. */
static char *repeat(Arena *a, const char *unit, unsigned n, const char *core, const char *close)
{
    size_t lu = strlen(unit), lc = strlen(core), lz = strlen(close);
    char *s = arena_alloc(a, n * (lu + lz) + lc + 1), *p = s;
    for (unsigned i = 0; i < n; i++, p += lu)
        memcpy(p, unit, lu);
    memcpy(p, core, lc);
    p += lc;
    for (unsigned i = 0; i < n; i++, p += lz)
        memcpy(p, close, lz);
    *p = 0;
    return s;
}

static const struct {
    const char *unit, *core, *close;
    unsigned n;
    bool ok;
    unsigned col; /* of the limit error, 1-based in the text; 0: don't check */
    const char *msg;
} depth_cases[] = {
    {"(", "1", ")", EXPR_MAX_DEPTH, true, 0, NULL},
    {"(", "1", ")", EXPR_MAX_DEPTH + 1, false, EXPR_MAX_DEPTH + 1, "more than 64 nested parentheses"},
    {"(", "1", "", 1000, false, EXPR_MAX_DEPTH + 1, "more than 64 nested parentheses"},
    {"-", "0", "", EXPR_MAX_DEPTH, true, 0, NULL},
    {"-", "0", "", EXPR_MAX_DEPTH + 1, false, 1, "expression nests more than 64 levels deep"},
    {"~", "0", "", EXPR_MAX_DEPTH + 1, false, 1, "expression nests more than 64 levels deep"},
    {"+", "0", "", EXPR_MAX_DEPTH + 1, false, 1, "expression nests more than 64 levels deep"},
    /* so long that the parser's stack fills before any reduction */
    {"-", "0", "", 3000, false, 0, "expression nests more than 64 levels deep"},
    {"1+", "1", "", EXPR_MAX_DEPTH, true, 0, NULL},
    {"1+", "1", "", EXPR_MAX_DEPTH + 1, false, 2 * EXPR_MAX_DEPTH + 2,
     "expression nests more than 64 levels deep"},
    {"1+(", "1", ")", EXPR_MAX_DEPTH, true, 0, NULL},
    /* the most stack a legal expression takes: calls, 4 entries a level */
    {"min(1, ", "1", ")", EXPR_MAX_DEPTH, true, 0, NULL},
    {"min(1, ", "1", ")", EXPR_MAX_DEPTH + 1, false, 7 * EXPR_MAX_DEPTH + 4,
     "more than 64 nested parentheses"},
    {"-min(0, ", "1", ")", EXPR_MAX_DEPTH / 2, true, 0, NULL},
    {"-min(0, ", "1", ")", EXPR_MAX_DEPTH / 2 + 1, false, 0,
     "expression nests more than 64 levels deep"},
};

START_TEST(test_depth)
{
    char *in = repeat(A, depth_cases[_i].unit, depth_cases[_i].n, depth_cases[_i].core,
                      depth_cases[_i].close);
    Expr *e = parse(A, &D, in);
    if (depth_cases[_i].ok) {
        ck_assert_msg(e != NULL, "case %d: %s", _i, D.head ? D.head->msg : "?");
        ck_assert_uint_eq(D.count, 0);
    } else {
        ck_assert_ptr_null(e);
        ck_assert_uint_eq(D.nerrors, 1);
        ck_assert_str_eq(code_name(D.head->code), "limit-expr-depth");
        ck_assert_uint_eq(D.head->pos.line, LINE);
        if (depth_cases[_i].col)
            ck_assert_uint_eq(D.head->pos.col, AT(depth_cases[_i].col));
        if (depth_cases[_i].msg)
            ck_assert_str_eq(D.head->msg, depth_cases[_i].msg);
    }
}
END_TEST

START_TEST(test_length)
{
    /* exactly at the limit: fine */
    char *in = arena_alloc(A, EXPR_MAX_LEN + 2);
    memset(in, ' ', EXPR_MAX_LEN + 1);
    in[0] = '7';
    in[EXPR_MAX_LEN] = 0;
    Expr *e = parse(A, &D, in);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->num, 7);
    /* one byte over */
    in[EXPR_MAX_LEN] = ' ';
    ck_assert_ptr_null(parse(A, &D, in));
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_str_eq(code_name(D.head->code), "limit-expr-length");
    ck_assert_uint_eq(D.head->pos.line, LINE);
    ck_assert_uint_eq(D.head->pos.col, COL);
    ck_assert_str_eq(D.head->msg, "expression is 4097 bytes long; the limit is 4096");
}
END_TEST

/* The printer stops at the depth limit on trees built by hand. */
START_TEST(test_print_deep)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = EX_NUM;
    for (int i = 0; i < EXPR_MAX_DEPTH + 10; i++) {
        Expr *n = arena_alloc(A, sizeof *n);
        n->kind = EX_NOT;
        n->nargs = 1;
        n->args = arena_alloc(A, sizeof *n->args);
        n->args[0] = e;
        e = n;
    }
    char *s = printed(A, e);
    ck_assert_ptr_nonnull(strstr(s, "(~...)"));
    ck_assert_ptr_null(strstr(s, "0"));
}
END_TEST

Suite *grammar_suite(void)
{
    Suite *s = suite_create("grammar");
    TCase *tc = fixture_tcase("print");
    tcase_add_loop_test(tc, test_print, 0, (int)countof(print_cases));
    tcase_add_loop_test(tc, test_spans, 0, (int)countof(span_cases));
    tcase_add_test(tc, test_child_spans);
    tcase_add_test(tc, test_print_deep);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("errors");
    tcase_add_loop_test(tc, test_syntax, 0, (int)countof(syntax_cases));
    tcase_add_test(tc, test_lex_error_through_parse);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("limits");
    tcase_add_loop_test(tc, test_depth, 0, (int)countof(depth_cases));
    tcase_add_test(tc, test_length);
    suite_add_tcase(s, tc);
    return s;
}
