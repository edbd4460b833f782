/* SPDX-License-Identifier: MIT */
/*
 * tmpl_int.h - the template engine's tokens, shared by tmpl_lex.re (which
 * makes them) and tmpl.c (which parses them).  Nothing here is visible
 * outside the engine; templates/README.md is the language reference.
 */
#ifndef TMPL_INT_H
#define TMPL_INT_H

#include "segc.h"

enum {
    TMPL_MAX_DEPTH = 64,         /* nested blocks, parentheses, expression tree */
    TMPL_MAX_OUTPUT = 64u << 20, /* bytes one render may produce */
    TMPL_MAX_MEMORY = 256u << 20, /* arena bytes one render may allocate */
    TMPL_MAX_STEPS = 1u << 24,   /* statements + loop passes per render */
};

/* The keywords IF..OR are contiguous: after `.` any of them is a field
 * name (`bank.end`).  The operators EQ..MINUS are contiguous too. */
typedef enum {
    TT_EOF, TT_ERROR, TT_TEXT, TT_OPEN_EXPR, TT_OPEN_STMT, TT_CLOSE_EXPR, TT_CLOSE_STMT,
    TT_NAME, TT_INT, TT_STRING, TT_LPAREN, TT_RPAREN, TT_DOT, TT_PIPE,
    TT_IF, TT_ELIF, TT_ELSE, TT_END, TT_FOR, TT_IN, TT_NOT, TT_AND, TT_OR,
    TT_EQ, TT_NE, TT_GT, TT_PLUS, TT_MINUS,
} TokType;

typedef struct TmplTok {
    TokType type;
    Pos pos;          /* first byte; len is the token's length on its line */
    const char *s;    /* TT_TEXT, operators: the source bytes (not NUL-terminated);
                         names, keywords, TT_STRING: NUL-terminated arena copy;
                         TT_ERROR: the message */
    size_t n;         /* bytes in s */
    uint64_t num;     /* TT_INT */
    const char *code; /* TT_ERROR: the diagnostic code */
} TmplTok;

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

void tmpl_lex_init(TmplLexer *lx, Arena *a, const SrcFile *src);
/* Fills *t and returns its type: TT_EOF at the end, TT_ERROR for a
 * lexical error (reported by the parser when it reaches that token, so
 * an earlier syntax error wins). */
TokType tmpl_lex(TmplLexer *lx, TmplTok *t);

#endif
