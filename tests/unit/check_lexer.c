/* SPDX-License-Identifier: MIT */
/* check_lexer.c - the expression lexer: token kinds, values, columns, and
 * every lexical error with its code and exact columns. */
#include "expr_int.h"
#include "fixture.h"

#include <check.h>
#include <string.h>

/* Every case's text starts at line 7, column 11 (as after `    size: `);
 * columns in the tables are 1-based inside the text. */
enum { START = 11 }; /* the offset the text starts at */
#define AT(c) ((uint32_t)(START + (c) - 1))

enum { END = EXPR_TOK_END, NUM = EXPR_TK_NUM, NAME = EXPR_TK_NAME, UNIT = EXPR_TK_UNIT };

typedef struct Tok {
    int kind;
    unsigned col, len;
    uint64_t num;     /* NUM */
    const char *text; /* NAME: the name; UNIT: its spelling */
} Tok;

#define N(c, l, v) {NUM, c, l, v, NULL}             /* number */
#define U(c, l, u) {UNIT, c, l, 0, u}               /* unit */
#define W(c, l, w) {NAME, c, l, 0, w}               /* name */
#define P(k, c, l) {EXPR_TK_##k, c, l, 0, NULL}     /* punctuation */
#define E(c) {END, c, 0, 0, NULL}                   /* end */

static const struct {
    const char *in;
    Tok toks[10]; /* ends with the END token */
} tok_cases[] = {
    /* bases and separators */
    {"0", {N(1, 1, 0), E(2)}},
    {"42", {N(1, 2, 42), E(3)}},
    {"1_000", {N(1, 5, 1000), E(6)}},
    {"1_000_000", {N(1, 9, 1000000), E(10)}},
    {"0x10", {N(1, 4, 16), E(5)}},
    {"0xC000_0000", {N(1, 11, 0xC0000000u), E(12)}},
    {"0xdeadBEEF", {N(1, 10, 0xDEADBEEFu), E(11)}},
    {"0x1B", {N(1, 4, 27), E(5)}}, /* a hex digit, not a unit */
    {"0b1010", {N(1, 6, 10), E(7)}},
    {"0b1111_0000", {N(1, 11, 240), E(12)}},
    {"0o17", {N(1, 4, 15), E(5)}},
    {"0o7_7", {N(1, 5, 63), E(6)}},
    {"18446744073709551615", {N(1, 20, UINT64_MAX), E(21)}},
    {"0xFFFF_FFFF_FFFF_FFFF", {N(1, 21, UINT64_MAX), E(22)}},
    {"0b" "1111111111111111111111111111111111111111111111111111111111111111",
     {N(1, 66, UINT64_MAX), E(67)}},
    {"0o1777777777777777777777", {N(1, 24, UINT64_MAX), E(25)}},
    /* units, attached and apart */
    {"512MiB", {N(1, 3, 512), U(4, 3, "MiB"), E(7)}},
    {"512 MiB", {N(1, 3, 512), U(5, 3, "MiB"), E(8)}},
    {"1B 2KiB 3GiB 4TiB", {N(1, 1, 1), U(2, 1, "B"), N(4, 1, 2), U(5, 3, "KiB"),
                           N(9, 1, 3), U(10, 3, "GiB"), N(14, 1, 4),
                           U(15, 3, "TiB"), E(18)}},
    {"4 pages", {N(1, 1, 4), U(3, 5, "pages"), E(8)}},
    {"4pages", {N(1, 1, 4), U(2, 5, "pages"), E(7)}},
    {"0B", {N(1, 1, 0), U(2, 1, "B"), E(3)}},
    {"(1)GiB", {P(LP, 1, 1), N(2, 1, 1), P(RP, 3, 1), U(4, 3, "GiB"),
                E(7)}},
    /* names */
    {"vram", {W(1, 4, "vram"), E(5)}},
    {"_x9", {W(1, 3, "_x9"), E(4)}},
    {"visible.end", {W(1, 11, "visible.end"), E(12)}},
    {"bar.fb.size", {W(1, 11, "bar.fb.size"), E(12)}},
    {"MiBx", {W(1, 4, "MiBx"), E(5)}},
    /* unit-like words where no unit can stand are names */
    {"K * M", {W(1, 1, "K"), P(STAR, 3, 1), W(5, 1, "M"), E(6)}},
    {"min(MB, 1)", {W(1, 3, "min"), P(LP, 4, 1), W(5, 2, "MB"),
                    P(COMMA, 7, 1), N(9, 1, 1), P(RP, 10, 1), E(11)}},
    /* operators */
    {"+-*/%", {P(PLUS, 1, 1), P(MINUS, 2, 1), P(STAR, 3, 1),
               P(SLASH, 4, 1), P(PERCENT, 5, 1), E(6)}},
    {"<< >>&|^~", {P(SHL, 1, 2), P(SHR, 4, 2), P(AND, 6, 1),
                   P(OR, 7, 1), P(XOR, 8, 1), P(TILDE, 9, 1), E(10)}},
    {"(,)", {P(LP, 1, 1), P(COMMA, 2, 1), P(RP, 3, 1), E(4)}},
    {"a<<2", {W(1, 1, "a"), P(SHL, 2, 2), N(4, 1, 2), E(5)}},
    /* whitespace */
    {" \t 7 \t", {N(4, 1, 7), E(7)}},
    {"", {E(1)}},
    {"   ", {E(4)}},
};

static const char *kind_name(int k)
{
    switch (k) {
    case END: return "END";
    case NUM: return "NUM";
    case NAME: return "NAME";
    case UNIT: return "UNIT";
    case EXPR_TOK_ERROR: return "ERROR";
    }
    return "punct";
}

START_TEST(test_tokens)
{
    ExprLexer lx;
    const char *in = tok_cases[_i].in;
    expr_lex_init(&lx, A, in, strlen(in), (Pos){NULL, START, 0}, &D);
    for (size_t k = 0; k < countof(tok_cases[_i].toks); k++) {
        const Tok *want = &tok_cases[_i].toks[k];
        ExprTok t;
        int kind = expr_lex(&lx, &t);
        ck_assert_msg(kind == want->kind, "'%s' token %zu: kind %d (%s), want %d (%s)", in, k, kind,
                      kind_name(kind), want->kind, kind_name(want->kind));
        ck_assert_int_eq(t.kind, kind);
        ck_assert_msg(t.pos.off == AT(want->col) && t.pos.len == want->len, "'%s' token %zu at %u+%u, want %u+%u",
                      in, k, t.pos.off, t.pos.len, AT(want->col), want->len);
        if (kind == NUM)
            ck_assert_uint_eq(t.num, want->num);
        if (kind == NAME)
            ck_assert_str_eq(t.name, want->text);
        if (kind == UNIT)
            ck_assert_str_eq(expr_unit_name(t.unit), want->text);
        if (kind == END)
            break;
    }
    ck_assert_uint_eq(D.count, 0);
}
END_TEST

/* Each input fails lexing with exactly one error. */
static const struct {
    const char *in;
    const char *code;
    unsigned col, len;
    const char *msg; /* a substring of the message */
} err_cases[] = {
    {"18446744073709551616", "expr-overflow", 1, 20, "does not fit in 64 bits"},
    {"1 + 99999999999999999999", "expr-overflow", 5, 20, "does not fit in 64 bits"},
    {"0x1_0000_0000_0000_0000", "expr-overflow", 1, 23, "does not fit in 64 bits"},
    {"0b1" "0000000000000000000000000000000000000000000000000000000000000000", "expr-overflow",
     1, 67, "does not fit"},
    {"0o2000000000000000000000", "expr-overflow", 1, 24, "does not fit"},
    /* ambiguous units, attached and apart, at the unit's own columns */
    {"512MB", "expr-unit", 4, 2,
     "ambiguous unit 'MB': segc uses IEC units only; write MiB (2^20 bytes) or spell out the number"},
    {"512 MB", "expr-unit", 5, 2, "ambiguous unit 'MB'"},
    {"1 + 512  MB", "expr-unit", 10, 2, "ambiguous unit 'MB'"},
    {"4K", "expr-unit", 2, 1, "ambiguous unit 'K': segc uses IEC units only; write KiB (2^10"},
    {"4 k", "expr-unit", 3, 1, "write KiB"},
    {"4M", "expr-unit", 2, 1, "write MiB"},
    {"4G", "expr-unit", 2, 1, "write GiB (2^30 bytes)"},
    {"4 T", "expr-unit", 3, 1, "write TiB (2^40 bytes)"},
    {"4KB", "expr-unit", 2, 2, "'KB'"},
    {"4kB", "expr-unit", 2, 2, "'kB'"},
    {"4kb", "expr-unit", 2, 2, "'kb'"},
    {"4Kb", "expr-unit", 2, 2, "'Kb'"},
    {"4Mb", "expr-unit", 2, 2, "'Mb'"},
    {"4GB", "expr-unit", 2, 2, "'GB'"},
    {"4 Gb", "expr-unit", 3, 2, "'Gb'"},
    {"4TB", "expr-unit", 2, 2, "'TB'"},
    {"4 kib", "expr-unit", 3, 3, "ambiguous unit 'kib': segc uses IEC units only; write KiB"},
    {"4mib", "expr-unit", 2, 3, "'mib'"},
    {"4Mib", "expr-unit", 2, 3, "write MiB"},
    {"4 GIB", "expr-unit", 3, 3, "write GiB"},
    {"4tIb", "expr-unit", 2, 3, "write TiB"},
    {"4 PB", "expr-unit", 3, 2, "ambiguous unit 'PB'"},
    {"4 PiB", "expr-unit", 3, 3, "unit 'PiB' is not supported"},
    {"1EiB", "expr-unit", 2, 3, "unit 'EiB' is not supported"},
    {"(1) MB", "expr-unit", 5, 2, "ambiguous unit 'MB'"},
    {"vram MB", "expr-unit", 6, 2, "ambiguous unit 'MB'"},
    /* suffixes */
    {"12abc", "expr-syntax", 3, 3, "invalid suffix 'abc' on number '12'"},
    {"512MBx", "expr-syntax", 4, 3, "invalid suffix 'MBx'"},
    {"0x1z", "expr-syntax", 4, 1, "invalid suffix 'z'"},
    {"0x1g", "expr-unit", 4, 1, "ambiguous unit 'g'"},
    {"1e6", "expr-syntax", 2, 2, "invalid suffix 'e6'"},
    {"2 + 3b", "expr-syntax", 6, 1, "invalid suffix 'b'"},
    {"1_", "expr-syntax", 2, 1, "misplaced '_' separator"},
    {"1__0", "expr-syntax", 2, 1, "misplaced '_' separator"},
    {"1_MiB", "expr-syntax", 2, 1, "misplaced '_' separator"},
    /* a prefix in capitals before what would be digits, or not quite */
    {"0X1_F", "expr-syntax", 1, 5, "'0X' is not a number prefix: a hexadecimal literal starts with 0x"},
    {"0X1__F", "expr-syntax", 2, 5, "invalid suffix 'X1__F' on number '0'"},
    {"0X1F_", "expr-syntax", 2, 4, "invalid suffix 'X1F_' on number '0'"},
    {"0X_1F", "expr-syntax", 2, 4, "invalid suffix 'X_1F' on number '0'"},
    {"0x", "expr-syntax", 1, 2, "'0x' must be followed by hexadecimal digits"},
    {"0x_1", "expr-syntax", 1, 2, "'0x' must be followed by hexadecimal digits"},
    {"0b", "expr-syntax", 1, 2, "'0b' must be followed by binary digits"},
    {"0o9", "expr-syntax", 1, 2, "'0o' must be followed by octal digits"},
    {"0b12", "expr-syntax", 4, 1, "digit '2' is not valid in a binary literal"},
    {"0o78", "expr-syntax", 4, 1, "digit '8' is not valid in an octal literal"},
    {"010", "expr-syntax", 1, 3, "leading zero in '010'"},
    {"1 + 00", "expr-syntax", 5, 2, "write 0o0 for octal or 0 for decimal"},
    {"1.5", "expr-syntax", 1, 3, "fractional number '1.5'"},
    /* characters */
    {"#", "expr-syntax", 1, 1, "unexpected character '#'"},
    {"1 $ 2", "expr-syntax", 3, 1, "unexpected character '$'"},
    {"a.", "expr-syntax", 2, 1, "unexpected character '.'"},
    {"1 = 2", "expr-syntax", 3, 1, "unexpected character '='"},
    {"1 < 2", "expr-syntax", 3, 1, "unexpected character '<'"},
    {"1 \xc3\x97 2", "expr-syntax", 3, 2, "unexpected character '\xc3\x97'"},
    {"1\x01", "expr-syntax", 2, 1, "unexpected character (byte 0x01)"},
    {"\xff", "expr-syntax", 1, 1, "(byte 0xFF)"},
};

START_TEST(test_errors)
{
    ExprLexer lx;
    const char *in = err_cases[_i].in;
    expr_lex_init(&lx, A, in, strlen(in), (Pos){NULL, START, 0}, &D);
    ExprTok t;
    int kind;
    unsigned n = 0;
    while ((kind = expr_lex(&lx, &t)) != EXPR_TOK_ERROR && kind != EXPR_TOK_END)
        ck_assert_uint_lt(++n, 20);
    ck_assert_msg(kind == EXPR_TOK_ERROR, "'%s' lexed without an error", in);
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_msg(strcmp(code_name(D.head->code), err_cases[_i].code) == 0, "'%s': code %s, want %s", in,
                  code_name(D.head->code), err_cases[_i].code);
    ck_assert_msg(D.head->pos.off == AT(err_cases[_i].col) &&
                      D.head->pos.len == err_cases[_i].len,
                  "'%s': error at %u+%u, want %u+%u", in, D.head->pos.off, D.head->pos.len,
                  AT(err_cases[_i].col), err_cases[_i].len);
    ck_assert_msg(strstr(D.head->msg, err_cases[_i].msg), "'%s': message \"%s\" lacks \"%s\"", in,
                  D.head->msg, err_cases[_i].msg);
}
END_TEST

/* The fix-it for an ambiguous unit names the IEC spelling. */
START_TEST(test_unit_fixit)
{
    ExprLexer lx;
    expr_lex_init(&lx, A, "64kB", 4, (Pos){NULL, 0, 0}, &D);
    ExprTok t;
    ck_assert_int_eq(expr_lex(&lx, &t), NUM);
    ck_assert_int_eq(expr_lex(&lx, &t), EXPR_TOK_ERROR);
    ck_assert_ptr_nonnull(D.head->fix);
    ck_assert_str_eq(D.head->fix, "replace 'kB' with 'KiB'");
}
END_TEST

/* A token's offset is the text's start and its own; shown, columns
 * restart at 1 after a newline and lines advance. */
START_TEST(test_newlines)
{
    ExprLexer lx;
    const char *pre = "a\nb\nc\n12345678", *in = "1 +\n  foo\n\t2 MB";
    SrcFile *f = src_from_string(A, "t.yaml", arena_printf(A, "%s%s", pre, in), strlen(pre) + strlen(in));
    expr_lex_init(&lx, A, in, strlen(in), pos_at(f, strlen(pre), 0), &D);
    static const struct {
        int kind;
        uint32_t line, col;
    } want[] = {{NUM, 4, 9}, {EXPR_TK_PLUS, 4, 11}, {NAME, 5, 3}, {NUM, 6, 2}};
    ExprTok t;
    for (size_t i = 0; i < countof(want); i++) {
        ck_assert_int_eq(expr_lex(&lx, &t), want[i].kind);
        ck_assert_uint_eq(src_loc(t.pos).line, want[i].line);
        ck_assert_uint_eq(src_loc(t.pos).col, want[i].col);
    }
    ck_assert_int_eq(expr_lex(&lx, &t), EXPR_TOK_ERROR);
    ck_assert_str_eq(code_name(D.head->code), "expr-unit");
    ck_assert_uint_eq(src_loc(D.head->pos).line, 6);
    ck_assert_uint_eq(src_loc(D.head->pos).col, 4);
    ck_assert_uint_eq(D.head->pos.len, 2);
}
END_TEST

/* The text need not be NUL-terminated, and a NUL inside it is an error,
 * not the end. */
START_TEST(test_length_and_nul)
{
    ExprLexer lx;
    ExprTok t;
    expr_lex_init(&lx, A, "12345", 2, (Pos){NULL, 0, 0}, &D);
    ck_assert_int_eq(expr_lex(&lx, &t), NUM);
    ck_assert_uint_eq(t.num, 12);
    ck_assert_int_eq(expr_lex(&lx, &t), END);
    ck_assert_uint_eq(t.pos.off, 2);

    expr_lex_init(&lx, A, "1\0" "2", 3, (Pos){NULL, 0, 0}, &D);
    ck_assert_int_eq(expr_lex(&lx, &t), NUM);
    ck_assert_int_eq(expr_lex(&lx, &t), EXPR_TOK_ERROR);
    ck_assert_uint_eq(D.nerrors, 1);
    ck_assert_str_eq(code_name(D.head->code), "expr-syntax");
    ck_assert_uint_eq(D.head->pos.off, 1);
    ck_assert_str_eq(D.head->msg, "unexpected character (byte 0x00)");
}
END_TEST

Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = fixture_tcase("tokens");
    tcase_add_loop_test(tc, test_tokens, 0, (int)countof(tok_cases));
    tcase_add_test(tc, test_newlines);
    tcase_add_test(tc, test_length_and_nul);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("errors");
    tcase_add_loop_test(tc, test_errors, 0, (int)countof(err_cases));
    tcase_add_test(tc, test_unit_fixit);
    suite_add_tcase(s, tc);
    return s;
}
