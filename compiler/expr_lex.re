/* SPDX-License-Identifier: MIT */
/*
 * expr_lex.re - the expression lexer (re2c).
 *
 * One for(;;) around one re2c block over a NUL-terminated arena copy of the
 * text.  Whitespace is skipped inside the loop; every other rule returns a
 * token, or reports a lexical error and returns EXPR_TOK_ERROR.
 *
 * Positions: a token is at start.off + its byte offset.  Text from a YAML
 * scalar is positioned by the scalar instead, from each token's byte
 * offset in its value (node_char_pos: escapes and folded lines).
 *
 * Units are words of their own, attached (512MiB) or not (512 MiB).  The
 * spellings that mean something else elsewhere (MB, K, kib, ...) are errors
 * where a unit may stand, i.e. right after an operand; anywhere else they
 * are ordinary names, so a constant may still be called `K`.
 *
 * A number is matched on its own (longest match, so 0x1B is 27, not 1
 * byte); any other word or digit that starts exactly where a number ended
 * is that number's suffix, which must be a unit.
 */
#include "expr_int.h"

#include <inttypes.h>
#include <string.h>

void expr_lex_init(ExprLexer *lx, Arena *a, const char *text, size_t len, Pos start, Diags *d)
{
    const unsigned char *buf = (const unsigned char *)arena_strndup(a, text ? text : "", text ? len : 0);
    *lx = (ExprLexer){.a = a, .d = d, .buf = buf, .cur = buf, .lim = buf + (text ? len : 0),
                      .start = start, .prev = EXPR_TOK_END};
}

/* Position of `n` bytes at `p`. */
static Pos lex_pos(const ExprLexer *lx, const unsigned char *p, size_t n)
{
    if (lx->scalar)
        return node_char_pos(lx->files, lx->scalar, (size_t)(p - lx->buf), (uint32_t)n);
    return pos_shift(lx->start, (uint32_t)(p - lx->buf), (uint32_t)n);
}

static int emit(ExprLexer *lx, ExprTok *t, int kind, const unsigned char *s, const unsigned char *e)
{
    t->kind = kind;
    t->pos = lex_pos(lx, s, (size_t)(e - s));
    t->off = (uint32_t)(s - lx->buf);
    t->len = (uint32_t)(e - s);
    lx->cur = e;
    lx->prev = kind;
    return kind;
}

/* The error token [s, e) and its diagnostic; the lexer is not called again. */
static int fail(ExprLexer *lx, ExprTok *t, const unsigned char *s, const unsigned char *e, Code code,
                const char *fmt, ...) PRINTF_LIKE(6, 7);
static int fail(ExprLexer *lx, ExprTok *t, const unsigned char *s, const unsigned char *e, Code code,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(lx->d, SEV_ERROR, code, lex_pos(lx, s, (size_t)(e - s)), fmt, ap);
    va_end(ap);
    return emit(lx, t, EXPR_TOK_ERROR, s, e);
}

static unsigned digit_value(unsigned char c) /* c: a digit the rules matched */
{
    return c <= '9' ? c - '0' : (c | 0x20u) - 'a' + 10;
}

static unsigned literal_base(const unsigned char *s, const unsigned char *e)
{
    if (e - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'b' || s[1] == 'o'))
        return s[1] == 'x' ? 16 : s[1] == 'b' ? 2 : 8;
    return 10;
}

/* The number [s, e), already matched as a well-formed literal. */
static int number(ExprLexer *lx, ExprTok *t, const unsigned char *s, const unsigned char *e)
{
    int n = (int)(e - s);
    unsigned base = literal_base(s, e);
    if (base == 10 && n > 1 && s[0] == '0') {
        const unsigned char *p = s;
        while (p + 1 < e && (*p == '0' || *p == '_'))
            p++;
        return fail(lx, t, s, e, C_expr_syntax,
                    "leading zero in '%.*s': segc has no C-style octal; write 0o%.*s for octal or %.*s for decimal", n,
                    (const char *)s, (int)(e - p), (const char *)p, (int)(e - p), (const char *)p);
    }
    uint64_t v = 0;
    for (const unsigned char *p = base == 10 ? s : s + 2; p < e; p++) {
        if (*p == '_')
            continue;
        unsigned dv = digit_value(*p);
        if (v > (UINT64_MAX - dv) / base)
            return fail(lx, t, s, e, C_expr_overflow,
                        "integer literal '%.*s' does not fit in 64 bits (the largest is 18446744073709551615)", n,
                        (const char *)s);
        v = v * base + dv;
    }
    t->num = v;
    lx->num_start = s;
    lx->num_end = e;
    return emit(lx, t, EXPR_TK_NUM, s, e);
}

static int bad_unit(ExprLexer *lx, ExprTok *t, const unsigned char *s, const unsigned char *e)
{
    int n = (int)(e - s);
    const char *w = (const char *)s;
    /* The IEC unit an ambiguous word (K, kB, Mb, GIB, ...) stands for, by
     * its first letter; P and E are beyond what segc supports. */
    static const char kmgt[] = "kmgt";
    const char *k = strchr(kmgt, s[0] | 0x20);
    if (n == 3 && (memcmp(w, "PiB", 3) == 0 || memcmp(w, "EiB", 3) == 0))
        return fail(lx, t, s, e, C_expr_unit, "unit '%.3s' is not supported: the largest unit is TiB (2^40 bytes)", w);
    if (!k)
        return fail(lx, t, s, e, C_expr_unit,
                    "ambiguous unit '%.*s': segc uses IEC units only, up to TiB; spell out the number", n, w);
    const char *iec = expr_unit_name((Unit)(UNIT_KIB + (k - kmgt)));
    unsigned shift = 10 * (unsigned)(k - kmgt + 1);
    Diag *g = error_at(lx->d, C_expr_unit, lex_pos(lx, s, (size_t)n),
                       "ambiguous unit '%.*s': segc uses IEC units only; write %s (2^%u bytes) or spell out the number",
                       n, w, iec, shift);
    diag_fixit(lx->d, g, "replace '%.*s' with '%s'", n, w, iec);
    diag_edit(lx->d, g, lex_pos(lx, s, (size_t)n), iec);
    return emit(lx, t, EXPR_TOK_ERROR, s, e);
}

/* Whether [s, e) are digits of `base` with '_' only between two of them. */
static bool digits_of(const unsigned char *s, const unsigned char *e, unsigned base)
{
    for (const unsigned char *p = s; p < e; p++) {
        unsigned c = *p | 0x20u;
        bool digit = (*p >= '0' && *p <= '9') || (c >= 'a' && c <= 'f');
        if (*p == '_' ? p == s || p + 1 == e || p[1] == '_' : !digit || digit_value(*p) >= base)
            return false;
    }
    return s < e;
}

/* The number just lexed run into a word or digits [u, e). */
static int bad_suffix(ExprLexer *lx, ExprTok *t, const unsigned char *u, const unsigned char *e)
{
    const unsigned char *s = lx->num_start;
    static const char *const base_name[] = {[2] = "binary", [8] = "octal", [16] = "hexadecimal"};
    unsigned base = literal_base(s, u);
    if (*u == '_')
        return fail(lx, t, u, u + 1, C_expr_syntax,
                    "misplaced '_' separator: '_' may only stand between two digits");
    /* 0X1F, 0B101, 0O17: a prefix in capitals, the rest a literal. */
    unsigned upper = u == s + 1 && s[0] == '0' ? (*u == 'X' ? 16 : *u == 'B' ? 2 : *u == 'O' ? 8 : 0) : 0;
    if (upper && digits_of(u + 1, e, upper)) {
        char low[3] = {'0', (char)(*u | 0x20), 0};
        Diag *g = error_at(lx->d, C_expr_syntax, lex_pos(lx, s, (size_t)(e - s)),
                           "'0%c' is not a number prefix: %s %s literal starts with %s", *u, upper == 8 ? "an" : "a",
                           base_name[upper], low);
        diag_fixit(lx->d, g, "write %s%.*s", low, (int)(e - u - 1), (const char *)u + 1);
        diag_edit(lx->d, g, lex_pos(lx, s, 2), low);
        return emit(lx, t, EXPR_TOK_ERROR, s, e);
    }
    if (u == s + 1 && s[0] == '0' && (*u == 'x' || *u == 'b' || *u == 'o'))
        return fail(lx, t, s, u + 1, C_expr_syntax, "'0%c' must be followed by %s digits", *u,
                    base_name[literal_base(s, u + 1)]);
    if (base != 10 && *u >= '0' && *u <= '9')
        return fail(lx, t, u, u + 1, C_expr_syntax, "digit '%c' is not valid in %s %s literal", *u,
                    base == 8 ? "an" : "a", base_name[base]);
    const char *units[UNIT_PAGES + 1];
    for (unsigned k = 0; k < countof(units); k++)
        units[k] = expr_unit_name((Unit)k);
    return fail(lx, t, u, e, C_expr_syntax, "invalid suffix '%.*s' on number '%.*s' (units are %s)", (int)(e - u),
                (const char *)u, (int)(u - s), (const char *)s, words_text(lx->a, units, countof(units), " and "));
}

static int bad_char(ExprLexer *lx, ExprTok *t, const unsigned char *s, const unsigned char *e)
{
    if (e - s > 1)
        return fail(lx, t, s, e, C_expr_syntax, "unexpected character '%.*s'", (int)(e - s), (const char *)s);
    if (*s > 0x20 && *s < 0x7f)
        return fail(lx, t, s, e, C_expr_syntax, "unexpected character '%c'", *s);
    return fail(lx, t, s, e, C_expr_syntax, "unexpected character (byte 0x%02X)", *s);
}

/* A fractional number [s, e): an error, with the whole number of bytes it
 * spells with the unit after it when there is one (2.5GiB: 2560MiB). */
static int fraction(ExprLexer *lx, ExprTok *t, const unsigned char *s, const unsigned char *e)
{
    Diag *g = error_at(lx->d, C_expr_syntax, lex_pos(lx, s, (size_t)(e - s)),
                       "fractional number '%.*s': expressions are unsigned integers", (int)(e - s), (const char *)s);
    const unsigned char *w = e, *we;
    while (w < lx->lim && (*w == ' ' || *w == '\t'))
        w++;
    for (we = w; we < lx->lim && ((*we | 0x20u) - 'a' < 26u); we++)
        ;
    Unit unit = UNIT_B;
    if (we > w && (!expr_unit_lookup((const char *)w, (size_t)(we - w), &unit) || unit == UNIT_PAGES))
        we = w = e; /* another word, or pages (whose size is the spec's) */
    if (we == w)
        we = e, unit = UNIT_B;
    /* int.frac << shift, exactly: frac / 10^n is q / 2^n once 5^n divides
     * it (at most 12 digits, so nothing below overflows). */
    unsigned shift = expr_unit_shift(unit), n = 0;
    uint64_t ip = 0, frac = 0, five = 1;
    const unsigned char *p = s;
    for (; *p != '.'; p++)
        if (*p != '_')
            ip = ip > (UINT64_MAX - 9) / 10 ? UINT64_MAX : ip * 10 + (*p - '0');
    for (p++; p < e && n < 13; p++, n++)
        frac = frac * 10 + (*p - '0'), five *= 5;
    if (literal_base(s, e) != 10 || n > 12 || frac % five || ip > UINT64_MAX >> shift)
        return emit(lx, t, EXPR_TOK_ERROR, s, e);
    uint64_t q = frac / five << shift; /* q < 2^12, shift <= 40 */
    if (q & ((UINT64_C(1) << n) - 1) || (ip << shift) > UINT64_MAX - (q >> n))
        return emit(lx, t, EXPR_TOK_ERROR, s, e);
    /* In the largest unit up to the written one that counts it whole. */
    uint64_t v = (ip << shift) + (q >> n);
    unsigned u = shift;
    while (u && v & ((UINT64_C(1) << u) - 1))
        u -= 10;
    const char *whole = arena_printf(lx->a, "%" PRIu64 "%s", v >> u, u ? expr_unit_name((Unit)(UNIT_B + u / 10)) : "");
    diag_fixit(lx->d, g, "write %s (%.*s as a whole number)", whole, (int)(we - s), (const char *)s);
    diag_edit(lx->d, g, lex_pos(lx, s, (size_t)(we - s)), whole);
    return emit(lx, t, EXPR_TOK_ERROR, s, e);
}

/* True if the previous token ended an operand, so a unit may follow. */
static bool after_operand(const ExprLexer *lx)
{
    return lx->prev == EXPR_TK_NUM || lx->prev == EXPR_TK_NAME || lx->prev == EXPR_TK_RP || lx->prev == EXPR_TK_UNIT;
}

/* One for(;;) around one re2c block: every token rule sits in that block,
 * so this function is as long as the token list (the scanner re2c
 * generates from it cannot be split). */
int expr_lex(ExprLexer *lx, ExprTok *t)
{
    const unsigned char *YYCURSOR = lx->cur, *YYMARKER = YYCURSOR, *s;
    memset(t, 0, sizeof *t);

    for (;;) {
        s = YYCURSOR;
        /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;

        dec   = [0-9]+ ("_" [0-9]+)*;
        hex   = "0x" [0-9a-fA-F]+ ("_" [0-9a-fA-F]+)*;
        bin   = "0b" [01]+ ("_" [01]+)*;
        oct   = "0o" [0-7]+ ("_" [0-7]+)*;
        num   = dec | hex | bin | oct;
        ident = [A-Za-z_][A-Za-z0-9_]*;
        name  = ident ("." ident)*;
        ambig = [kKmMgGtT] | [kKmMgGtTpPeE] [bB] | 'kib' | 'mib' | 'gib' | 'tib' | 'pib' | 'eib';
        utf8  = [\xc2-\xf4] [\x80-\xbf]+;

        "\x00" {
            if (s < lx->lim)
                return bad_char(lx, t, s, YYCURSOR);
            return emit(lx, t, EXPR_TOK_END, s, s);
        }
        [ \t\r\n]+ { continue; }

        num {
            if (s == lx->num_end) /* 0b12, 0o78 */
                return bad_suffix(lx, t, s, YYCURSOR);
            return number(lx, t, s, YYCURSOR);
        }
        num "." [0-9]+ { return fraction(lx, t, s, YYCURSOR); }
        ambig {
            if (expr_unit_lookup((const char *)s, (size_t)(YYCURSOR - s), &t->unit))
                return emit(lx, t, EXPR_TK_UNIT, s, YYCURSOR);
            if (after_operand(lx))
                return bad_unit(lx, t, s, YYCURSOR);
            t->name = arena_strndup(lx->a, (const char *)s, (size_t)(YYCURSOR - s));
            return emit(lx, t, EXPR_TK_NAME, s, YYCURSOR);
        }
        name {
            /* A unit word (EXPR_UNITS) is one wherever it stands. */
            if (expr_unit_lookup((const char *)s, (size_t)(YYCURSOR - s), &t->unit))
                return emit(lx, t, EXPR_TK_UNIT, s, YYCURSOR);
            if (s == lx->num_end)
                return bad_suffix(lx, t, s, YYCURSOR);
            t->name = arena_strndup(lx->a, (const char *)s, (size_t)(YYCURSOR - s));
            return emit(lx, t, EXPR_TK_NAME, s, YYCURSOR);
        }

        "<<" { return emit(lx, t, EXPR_TK_SHL, s, YYCURSOR); }
        ">>" { return emit(lx, t, EXPR_TK_SHR, s, YYCURSOR); }
        "+"  { return emit(lx, t, EXPR_TK_PLUS, s, YYCURSOR); }
        "-"  { return emit(lx, t, EXPR_TK_MINUS, s, YYCURSOR); }
        "*"  { return emit(lx, t, EXPR_TK_STAR, s, YYCURSOR); }
        "/"  { return emit(lx, t, EXPR_TK_SLASH, s, YYCURSOR); }
        "%"  { return emit(lx, t, EXPR_TK_PERCENT, s, YYCURSOR); }
        "&"  { return emit(lx, t, EXPR_TK_AND, s, YYCURSOR); }
        "|"  { return emit(lx, t, EXPR_TK_OR, s, YYCURSOR); }
        "^"  { return emit(lx, t, EXPR_TK_XOR, s, YYCURSOR); }
        "~"  { return emit(lx, t, EXPR_TK_TILDE, s, YYCURSOR); }
        "("  { return emit(lx, t, EXPR_TK_LP, s, YYCURSOR); }
        ")"  { return emit(lx, t, EXPR_TK_RP, s, YYCURSOR); }
        ","  { return emit(lx, t, EXPR_TK_COMMA, s, YYCURSOR); }

        utf8 { return bad_char(lx, t, s, YYCURSOR); }
        [^]  { return bad_char(lx, t, s, YYCURSOR); }
        */
    }
}
