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
    const char *s;    /* TT_TEXT: the source bytes (not NUL-terminated); TT_ERROR:
                         the message; others: a copy (TT_STRING: between the quotes) */
    size_t n;         /* bytes in s */
    uint64_t num;     /* TT_INT */
    bool blank;       /* TT_TEXT: only spaces, tabs, carriage returns and a newline */
    Code code;        /* TT_ERROR: the diagnostic code */
} TmplTok;

/* The tokens of a whole template, in the arena, up to its end (TT_EOF) or
 * its first lexical error (TT_ERROR, reported by the parser when it reaches
 * that token, so an earlier syntax error wins).  A line that holds only
 * `{% %}` tags and blanks writes nothing, not even its newline: its TT_TEXT
 * tokens come with n == 0. */
const TmplTok *tmpl_lex(Arena *a, const SrcFile *src);

#endif
