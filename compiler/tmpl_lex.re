/* SPDX-License-Identifier: MIT */
/*
 * tmpl_lex.re - the template lexer.
 *
 * Two modes over one NUL-terminated buffer.  In text mode everything up to
 * a tag opening is TEXT; a TEXT token never crosses a newline (it ends just
 * after one) and is marked blank when it is (that rule comes first: of two
 * equally long matches re2c takes the first), so tmpl_lex can apply the
 * tag-line rule line by line.  In
 * tag mode (after `{{` or `{%`) come names, keywords, literals and
 * operators until `}}` or `%}`, on the same line: only TEXT ends a line.
 *
 * The two modes are two re2c blocks inside one loop: re2c's conditions
 * would need the -c option, and every .re file in compiler/ is generated
 * with the same options.
 */
#include "tmpl_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*!re2c
    re2c:yyfill:enable = 0;
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "lx->cur";
    re2c:define:YYMARKER = "lx->mar";

    ws    = [ \t\r];
    ident = [a-zA-Z_][a-zA-Z0-9_]*;
*/

typedef struct TmplLexer {
    Arena *a;
    const SrcFile *src;
    const char *cur, *mar, *tok, *lim;
    const char *line_start; /* first byte of the current line */
    uint32_t line;
    bool in_tag;            /* the mode: text, or inside `{{ }}` / `{% %}` */
    Pos tag_pos;            /* the opening of the tag we are in */
    TokType tag_kind;       /* TT_OPEN_EXPR or TT_OPEN_STMT */
} TmplLexer;

/* Position of the current token's first byte, `len` bytes long. */
static Pos tok_pos(const TmplLexer *lx, size_t len)
{
    return (Pos){lx->src, lx->line, (uint32_t)(lx->tok - lx->line_start) + 1, (uint32_t)len};
}

static TokType error(TmplTok *t, Pos p, const char *msg)
{
    t->type = TT_ERROR;
    t->pos = p;
    t->s = msg;
    t->code = C_tmpl_syntax;
    return TT_ERROR;
}

static TokType token(TmplLexer *lx, TmplTok *t, TokType type)
{
    size_t n = (size_t)(lx->cur - lx->tok);
    bool nl = n && lx->cur[-1] == '\n'; /* a TEXT token that ends its line */
    t->type = type;
    t->pos = tok_pos(lx, n - nl);
    t->s = type == TT_TEXT ? lx->tok : arena_strndup(lx->a, lx->tok, n);
    t->n = n;
    if (nl) {
        lx->line++;
        lx->line_start = lx->cur;
    }
    return type;
}

/* `{{`, `{%` (open) or `}}`, `%}`.  Either closer ends the tag; `{{ x %}`
 * is the parser's to report. */
static TokType tag(TmplLexer *lx, TmplTok *t, TokType type, bool open)
{
    token(lx, t, type);
    lx->in_tag = open;
    lx->tag_pos = t->pos;
    lx->tag_kind = type;
    return type;
}

static TokType number(TmplLexer *lx, TmplTok *t, int base)
{
    token(lx, t, TT_INT);
    errno = 0;
    t->num = strtoull(lx->tok, NULL, base); /* accepts the `0x` */
    if (errno != ERANGE)
        return TT_INT;
    error(t, t->pos, "integer literal does not fit in 64 bits");
    t->code = C_tmpl_overflow;
    return TT_ERROR;
}

/* A string literal: the bytes between the quotes, as they are. */
static TokType string(TmplLexer *lx, TmplTok *t)
{
    token(lx, t, TT_STRING);
    t->n -= 2;
    t->s = arena_strndup(lx->a, lx->tok + 1, t->n);
    return TT_STRING;
}

static TokType bad_char(TmplLexer *lx, TmplTok *t)
{
    unsigned char c = (unsigned char)*lx->tok;
    const char *msg = c > 0x20 && c < 0x7F
                          ? arena_printf(lx->a, "unexpected character `%c` in a tag", c)
                          : arena_printf(lx->a, "unexpected byte 0x%02X in a tag", c);
    return error(t, tok_pos(lx, 1), msg);
}

/* The end of the line or of the input inside a tag. */
static TokType unclosed(TmplLexer *lx, TmplTok *t)
{
    return error(t, lx->tag_pos, lx->tag_kind == TT_OPEN_EXPR
                                     ? "this `{{` is not closed by `}}` on its line"
                                     : "this `{%` is not closed by `%}` on its line");
}

static TokType end_of_input(TmplLexer *lx, TmplTok *t)
{
    if (lx->tok != lx->lim)
        return error(t, tok_pos(lx, 1), "template contains a NUL byte");
    if (lx->in_tag)
        return unclosed(lx, t);
    lx->cur = lx->tok;
    return token(lx, t, TT_EOF);
}

/* Fills *t and returns its type. */
static TokType lex(TmplLexer *lx, TmplTok *t)
{
    memset(t, 0, sizeof *t);
    for (;;) {
        lx->tok = lx->cur;
        if (!lx->in_tag) {
    /*!local:re2c
        "\x00"          { return end_of_input(lx, t); }
        "{{"            { return tag(lx, t, TT_OPEN_EXPR, true); }
        "{%"            { return tag(lx, t, TT_OPEN_STMT, true); }
        ws* "\n" | ws+  { t->blank = true; return token(lx, t, TT_TEXT); }
        [^{\n\x00]* "\n" | [^{\n\x00]+ | "{"
                        { return token(lx, t, TT_TEXT); }
    */
        }
    /*!local:re2c
        "\x00"          { return end_of_input(lx, t); }
        ws+             { continue; }
        "\n"            { return unclosed(lx, t); }
        "}}"            { return tag(lx, t, TT_CLOSE_EXPR, false); }
        "%}"            { return tag(lx, t, TT_CLOSE_STMT, false); }

        "if"            { return token(lx, t, TT_IF); }
        "elif"          { return token(lx, t, TT_ELIF); }
        "else"          { return token(lx, t, TT_ELSE); }
        "end"           { return token(lx, t, TT_END); }
        "for"           { return token(lx, t, TT_FOR); }
        "in"            { return token(lx, t, TT_IN); }
        "not"           { return token(lx, t, TT_NOT); }
        "and"           { return token(lx, t, TT_AND); }
        "or"            { return token(lx, t, TT_OR); }
        ident           { return token(lx, t, TT_NAME); }

        "0" [xX] [0-9a-fA-F]+ { return number(lx, t, 16); }
        "0" | [1-9][0-9]*     { return number(lx, t, 10); }
        "0" [xX]        { return error(t, tok_pos(lx, 2), "expected hexadecimal digits after `0x`"); }
        "0" [0-9]+      { return error(t, tok_pos(lx, (size_t)(lx->cur - lx->tok)),
                                   "integer literal with a leading zero (octal is not supported)"); }

        ["] [^"\n\x00]* ["] { return string(lx, t); }
        ["]             { return error(t, tok_pos(lx, 1), "string literal is not closed on its line"); }

        "=="            { return token(lx, t, TT_EQ); }
        "!="            { return token(lx, t, TT_NE); }
        ">"             { return token(lx, t, TT_GT); }
        "+"             { return token(lx, t, TT_PLUS); }
        "-"             { return token(lx, t, TT_MINUS); }
        "("             { return token(lx, t, TT_LPAREN); }
        ")"             { return token(lx, t, TT_RPAREN); }
        "."             { return token(lx, t, TT_DOT); }
        "|"             { return token(lx, t, TT_PIPE); }
        [^]             { return bad_char(lx, t); }
    */
    }
}

const TmplTok *tmpl_lex(Arena *a, const SrcFile *src)
{
    TmplLexer lx = {.a = a, .src = src, .cur = src->text, .lim = src->text + src->len,
                    .line_start = src->text, .line = 1};
    Buf b = {0};
    size_t n = 0, line = 0; /* tokens so far; the first of the current line */
    bool quiet = true;      /* the line so far holds only blanks and `{%` tags */
    unsigned tags = 0;      /* `{%` on the line so far */
    TmplTok t;
    do {
        lex(&lx, &t);
        buf_putn(&b, (const char *)&t, sizeof t);
        n++;
        quiet &= t.type == TT_TEXT ? t.blank : t.type != TT_OPEN_EXPR;
        tags += t.type == TT_OPEN_STMT;
        if ((t.type == TT_TEXT && t.s[t.n - 1] == '\n') || t.type == TT_EOF || t.type == TT_ERROR) {
            TmplTok *tk = (TmplTok *)(void *)b.p;
            for (; quiet && tags && line < n; line++)
                if (tk[line].type == TT_TEXT)
                    tk[line].n = 0;
            line = n;
            quiet = true;
            tags = 0;
        }
    } while (t.type != TT_EOF && t.type != TT_ERROR);
    TmplTok *toks = arena_alloc(a, b.len);
    memcpy(toks, b.p, b.len);
    buf_free(&b);
    return toks;
}
