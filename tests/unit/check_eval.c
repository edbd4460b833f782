/* SPDX-License-Identifier: MIT */
/* check_eval.c - evaluating expressions: values, units, functions,
 * references through a lookup function, and every error code at its exact
 * column, reported once. */
#include "expr_int.h"
#include "fixture.h"

#include <check.h>
#include <string.h>

enum { LINE = 12, COL = 9 }; /* where every case's text starts */
#define AT(c) ((uint32_t)(COL + (c) - 1))

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)
#define TiB ((uint64_t)1 << 40)

/* The test's names, standing in for resolve.c. */
typedef struct TestNames {
    unsigned lookups;
    Diags *d;
} TestNames;

static const struct {
    const char *name;
    uint64_t v;
} names[] = {
    {"vram", 2 * GiB},
    {"size", GiB},
    {"visible.end", 256 * MiB},
    {"bar.fb.size", 256 * MiB},
    {"K", 1000},
};

static bool test_lookup(void *ctx, const Expr *ref, uint64_t *out)
{
    TestNames *t = ctx;
    t->lookups++;
    for (size_t i = 0; i < countof(names); i++) {
        if (strcmp(names[i].name, ref->name) == 0) {
            *out = names[i].v;
            return true;
        }
    }
    error_at(t->d, C_unknown_name, ref->pos, "unknown name '%s'", ref->name);
    return false;
}

typedef struct Run {
    Arena *a;
    Diags d;
    TestNames names;
    EvalEnv env;
    Expr *e;
    bool ok;
    uint64_t v;
} Run;

/* Parses and evaluates `in`; r->ok if both succeeded. */
static void run(Run *r, const char *in, uint64_t page_size)
{
    r->a = arena_new();
    diags_init(&r->d, r->a);
    r->names = (TestNames){0, &r->d};
    r->env = (EvalEnv){&r->names, test_lookup, page_size};
    r->v = 0xBAD;
    r->e = expr_parse(r->a, in, strlen(in), (Pos){NULL, LINE, COL, 0}, &r->d);
    r->ok = r->e && expr_eval(r->e, &r->env, &r->d, &r->v);
}

/* ---- values ------------------------------------------------------------ */

static const struct {
    const char *in;
    uint64_t page_size, want;
} value_cases[] = {
    {"0", 4096, 0},
    {"42", 4096, 42},
    {"0x1_0000", 4096, 0x10000},
    {"0xC000_0000", 4096, 0xC0000000u},
    {"0b1010_1010", 4096, 170},
    {"0o777", 4096, 511},
    {"1_000_000", 4096, 1000000},
    {"18446744073709551615", 4096, UINT64_MAX},
    /* units */
    {"2GiB", 4096, 2147483648u},
    {"2 GiB", 4096, 2 * GiB},
    {"7B", 4096, 7},
    {"1KiB", 4096, 1024},
    {"3 MiB", 4096, 3 * MiB},
    {"1TiB", 4096, TiB},
    {"16777215 TiB", 4096, 16777215 * TiB},
    {"4 pages", 4096, 16384},
    {"4 pages", 65536, 4 * 65536},
    {"0 pages", 4096, 0},
    {"(1+1)GiB", 4096, 2 * GiB},
    {"1 + 2 MiB", 4096, 1 + 2 * MiB},
    {"256MiB / 4KiB", 4096, 65536},
    {"0 TiB", 4096, 0},
    /* arithmetic */
    {"1 + 2 * 3", 4096, 7},
    {"(1 + 2) * 3", 4096, 9},
    {"10 - 3 - 2", 4096, 5},
    {"7 / 2", 4096, 3},
    {"100 / 10 / 5", 4096, 2},
    {"7 % 4", 4096, 3},
    {"1 << 63", 4096, (uint64_t)1 << 63},
    {"1 << 0", 4096, 1},
    {"0 << 63", 4096, 0},
    {"0xFF >> 4", 4096, 15},
    {"0xFFFFFFFFFFFFFFFF >> 63", 4096, 1},
    {"0xF0 & 0x3C", 4096, 0x30},
    {"0xF0 | 0x0F", 4096, 0xFF},
    {"0xFF ^ 0x0F", 4096, 0xF0},
    {"~0", 4096, UINT64_MAX},
    {"~0xFFF", 4096, ~(uint64_t)0xFFF},
    {"-0", 4096, 0},
    {"-(3 - 3) + 5", 4096, 5},
    {"+7", 4096, 7},
    {"0xFFFFFFFFFFFFFFFF + 0", 4096, UINT64_MAX},
    {"0xFFFFFFFFFFFFFFFE + 1", 4096, UINT64_MAX},
    {"0xFFFFFFFFFFFFFFFF - 0xFFFFFFFFFFFFFFFF", 4096, 0},
    {"0 * 0xFFFFFFFFFFFFFFFF", 4096, 0},
    {"2 * 0x7FFFFFFFFFFFFFFF", 4096, 0xFFFFFFFFFFFFFFFEu},
    {"1 | 2 ^ 3 & 4 << 5 + 6 * 7", 4096, 1 | (2 ^ (3 & (4ull << (5 + 6 * 7))))},
    /* functions */
    {"min(3, 1, 2)", 4096, 1},
    {"max(3, 1, 2)", 4096, 3},
    {"min(5, 5)", 4096, 5},
    {"max(0, 0xFFFFFFFFFFFFFFFF)", 4096, UINT64_MAX},
    {"align_up(5, 4)", 4096, 8},
    {"align_up(8, 4)", 4096, 8},
    {"align_up(0, 4096)", 4096, 0},
    {"align_up(1, 1)", 4096, 1},
    {"align_up(1, 1 << 63)", 4096, (uint64_t)1 << 63},
    {"align_up(0xFFFF_FFFF_FFFF_FFF0, 16)", 4096, 0xFFFFFFFFFFFFFFF0u},
    {"align_down(4097, 4KiB)", 4096, 4096},
    {"align_down(4095, 4KiB)", 4096, 0},
    {"align_down(0xFFFF_FFFF_FFFF_FFFF, 16)", 4096, 0xFFFFFFFFFFFFFFF0u},
    {"min(align_up(3, 2), max(1, 2)) MiB", 4096, 2 * MiB},
    /* references */
    {"vram", 4096, 2 * GiB},
    {"vram - visible.end", 4096, 2 * GiB - 256 * MiB},
    {"bar.fb.size / 2", 4096, 128 * MiB},
    {"min(size, 512MiB)", 4096, 512 * MiB},
    {"K * 2", 4096, 2000},
    {"size KiB", 4096, GiB * KiB},
};

START_TEST(test_values)
{
    Run r;
    run(&r, value_cases[_i].in, value_cases[_i].page_size);
    ck_assert_msg(r.ok, "'%s' failed: %s", value_cases[_i].in, r.d.head ? r.d.head->msg : "?");
    ck_assert_uint_eq(r.d.count, 0);
    ck_assert_msg(r.v == value_cases[_i].want, "'%s' = %llu, want %llu", value_cases[_i].in,
                  (unsigned long long)r.v, (unsigned long long)value_cases[_i].want);
    arena_free(r.a);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

static const struct {
    const char *in;
    uint64_t page_size;
    const char *code;
    unsigned col, len;
    const char *msg; /* a substring of the message */
} error_cases[] = {
    {"0xFFFFFFFFFFFFFFFF + 1", 4096, "expr-overflow", 20, 1, "overflows 64 bits"},
    {"~0 * 2", 4096, "expr-overflow", 4, 1, "18446744073709551615 * 2 overflows"},
    {"0x1_0000_0000 * 0x1_0000_0000", 4096, "expr-overflow", 15, 1, "overflows"},
    {"2 << 63", 4096, "expr-overflow", 3, 2, "2 << 63 overflows"},
    {"16777216 TiB", 4096, "expr-overflow", 10, 3, "16777216 TiB overflows 64 bits"},
    {"(1 << 60) * 1 KiB", 4096, "expr-overflow", 11, 1, "overflows"},
    {"0x4000_0000_0000_0000 pages", 4, "expr-overflow", 23, 5, "pages overflows"},
    {"align_up(0xFFFF_FFFF_FFFF_FFFF, 16)", 4096, "expr-overflow", 1, 8,
     "align_up(18446744073709551615, 16) overflows"},
    {"18446744073709551616", 4096, "expr-overflow", 1, 20, "does not fit in 64 bits"},
    {"1 - 2", 4096, "expr-underflow", 3, 1, "1 - 2 is below zero"},
    {"-1", 4096, "expr-underflow", 1, 1, "-1 is below zero"},
    {"0 + -(2)", 4096, "expr-underflow", 5, 1, "-2 is below zero"},
    {"size - vram", 4096, "expr-underflow", 6, 1, "is below zero"},
    {"1/0", 4096, "expr-div-zero", 2, 1, "division by zero"},
    {"5 % 0", 4096, "expr-div-zero", 3, 1, "remainder by zero"},
    {"5 / (1 - 1)", 4096, "expr-div-zero", 3, 1, "division by zero"},
    {"1 << 64", 4096, "expr-shift", 3, 2, "shift count 64 is not below 64"},
    {"1 >> 64", 4096, "expr-shift", 3, 2, "shift count 64"},
    {"0 << 0xFFFFFFFFFFFFFFFF", 4096, "expr-shift", 3, 2, "not below 64"},
    {"align_up(5, 3)", 4096, "expr-align", 13, 1, "alignment 3 is not a non-zero power of two"},
    {"align_up(5, 0)", 4096, "expr-align", 13, 1, "alignment 0 is not"},
    {"align_down(5, 6 - 1)", 4096, "expr-align", 15, 5, "alignment 5"},
    {"512MB", 4096, "expr-unit", 4, 2, "ambiguous unit 'MB'"},
    {"512 MB", 4096, "expr-unit", 5, 2, "ambiguous unit 'MB'"},
    {"16 EiB", 4096, "expr-unit", 4, 3, "not supported"},
    {"4 pages", 0, "expr-unit", 3, 5, "'pages' needs a page size"},
    {"foo(1)", 4096, "expr-call", 1, 3, "unknown function 'foo'"},
    {"foo(1/0)", 4096, "expr-call", 1, 3, "unknown function 'foo'"},
    {"vram(1)", 4096, "expr-call", 1, 4, "unknown function 'vram'"},
    {"min(1)", 4096, "expr-call", 1, 6, "min takes 2 or more arguments, not 1"},
    {"max()", 4096, "expr-call", 1, 5, "max takes 2 or more arguments, not 0"},
    {"align_up(1, 2, 4)", 4096, "expr-call", 1, 17, "align_up takes 2 arguments, not 3"},
    {"1 + align_down(1)", 4096, "expr-call", 5, 13, "align_down takes 2 arguments, not 1"},
    {"nope + 1", 4096, "unknown-name", 1, 4, "unknown name 'nope'"},
    {"1 + visible.ned", 4096, "unknown-name", 5, 11, "'visible.ned'"},
    /* the first error only */
    {"1 - 2 + 1/0", 4096, "expr-underflow", 3, 1, "1 - 2"},
    {"min(1/0, 2 - 3)", 4096, "expr-div-zero", 6, 1, "division"},
    {"(1 - 2) MiB", 4096, "expr-underflow", 4, 1, "1 - 2"},
    {"nope / 0", 4096, "unknown-name", 1, 4, "nope"},
};

START_TEST(test_errors)
{
    Run r;
    const char *in = error_cases[_i].in;
    run(&r, in, error_cases[_i].page_size);
    ck_assert_msg(!r.ok, "'%s' evaluated to %llu", in, (unsigned long long)r.v);
    ck_assert_msg(r.d.nerrors == 1, "'%s': %u errors", in, r.d.nerrors);
    ck_assert_msg(strcmp(code_name(r.d.head->code), error_cases[_i].code) == 0, "'%s': code %s, want %s", in,
                  code_name(r.d.head->code), error_cases[_i].code);
    ck_assert_msg(r.d.head->pos.line == LINE && r.d.head->pos.col == AT(error_cases[_i].col) &&
                      r.d.head->pos.len == error_cases[_i].len,
                  "'%s': error at %u:%u+%u, want %u:%u+%u", in, r.d.head->pos.line,
                  r.d.head->pos.col, r.d.head->pos.len, LINE, AT(error_cases[_i].col),
                  error_cases[_i].len);
    ck_assert_msg(strstr(r.d.head->msg, error_cases[_i].msg), "'%s': message \"%s\" lacks \"%s\"",
                  in, r.d.head->msg, error_cases[_i].msg);
    ck_assert_uint_eq(r.v, 0xBAD); /* *out untouched on failure */
    arena_free(r.a);
}
END_TEST

/* ---- did-you-mean ------------------------------------------------------ */

static const struct {
    const char *in, *fix;
} fix_cases[] = {
    {"mn(1, 2)", "did you mean 'min'?"},
    {"maxx(1, 2)", "did you mean 'max'?"},
    {"align_upp(1, 2)", "did you mean 'align_up'?"},
    {"aligndown(1, 2)", "did you mean 'align_down'?"},
    {"foo(1)", "the functions are min, max, align_up and align_down"},
};

START_TEST(test_fixits)
{
    Run r;
    run(&r, fix_cases[_i].in, 4096);
    ck_assert(!r.ok);
    ck_assert_uint_eq(r.d.nerrors, 1);
    ck_assert_str_eq(code_name(r.d.head->code), "expr-call");
    ck_assert_ptr_nonnull(r.d.head->fix);
    ck_assert_str_eq(r.d.head->fix, fix_cases[_i].fix);
    arena_free(r.a);
}
END_TEST

/* ---- evaluation stops at the first error ------------------------------- */

START_TEST(test_stops_at_first_error)
{
    Run r;
    run(&r, "nope + nope2 + vram", 4096);
    ck_assert(!r.ok);
    ck_assert_uint_eq(r.names.lookups, 1);
    ck_assert_uint_eq(r.d.count, 1);
    arena_free(r.a);

    run(&r, "vram + size + bar.fb.size", 4096);
    ck_assert(r.ok);
    ck_assert_uint_eq(r.names.lookups, 3);
    arena_free(r.a);
}
END_TEST

/* Without an environment, names are unknown and `pages` has no size. */
START_TEST(test_no_env)
{
    uint64_t v = 0;
    Expr *e = expr_parse(A, "2 * x", 5, (Pos){NULL, 1, 1, 0}, &D);
    ck_assert_ptr_nonnull(e);
    ck_assert(!expr_eval(e, NULL, &D, &v));
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_str_eq(code_name(D.head->code), "expr-name");
    ck_assert_uint_eq(D.head->pos.col, 5);

    diags_init(&D, A);
    e = expr_parse(A, "1 pages", 7, (Pos){NULL, 1, 1, 0}, &D);
    ck_assert(!expr_eval(e, NULL, &D, &v));
    ck_assert_str_eq(code_name(D.head->code), "expr-unit");

    diags_init(&D, A);
    e = expr_parse(A, "3 KiB", 5, (Pos){NULL, 1, 1, 0}, &D);
    ck_assert(expr_eval(e, NULL, &D, &v));
    ck_assert_uint_eq(v, 3072);
}
END_TEST

/* The evaluator refuses trees deeper than the parser allows, at the first
 * node below the limit: 65 (then 66) `~` over a number. */
START_TEST(test_eval_depth)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = EX_NUM;
    e->pos = (Pos){NULL, 1, 100, 1};
    for (unsigned i = 0; i < EXPR_MAX_DEPTH + 1 + (unsigned)_i; i++) {
        Expr *n = arena_alloc(A, sizeof *n);
        n->kind = EX_NOT;
        n->pos = n->op_pos = (Pos){NULL, 1, i + 1, 1};
        n->nargs = 1;
        n->args = arena_alloc(A, sizeof *n->args);
        n->args[0] = e;
        e = n;
    }
    uint64_t v = 7;
    ck_assert(!expr_eval(e, NULL, &D, &v));
    ck_assert_uint_eq(v, 7);
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_str_eq(code_name(D.head->code), "limit-expr-depth");
    ck_assert_uint_eq(D.head->pos.col, _i == 0 ? 100 : 1);
}
END_TEST

START_TEST(test_eval_depth_limit_exact)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = EX_NUM;
    for (unsigned i = 0; i < EXPR_MAX_DEPTH; i++) {
        Expr *n = arena_alloc(A, sizeof *n);
        n->kind = EX_NOT;
        n->nargs = 1;
        n->args = arena_alloc(A, sizeof *n->args);
        n->args[0] = e;
        e = n;
    }
    uint64_t v = 1;
    ck_assert(expr_eval(e, NULL, &D, &v));
    ck_assert_uint_eq(v, 0); /* an even number of ~ */
    ck_assert_uint_eq(D.count, 0);
}
END_TEST

Suite *eval_suite(void)
{
    Suite *s = suite_create("eval");
    TCase *tc = fixture_tcase("values");
    tcase_add_loop_test(tc, test_values, 0, (int)countof(value_cases));
    tcase_add_test(tc, test_stops_at_first_error);
    tcase_add_test(tc, test_no_env);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("errors");
    tcase_add_loop_test(tc, test_errors, 0, (int)countof(error_cases));
    tcase_add_loop_test(tc, test_fixits, 0, (int)countof(fix_cases));
    tcase_add_loop_test(tc, test_eval_depth, 0, 2);
    tcase_add_test(tc, test_eval_depth_limit_exact);
    suite_add_tcase(s, tc);
    return s;
}
