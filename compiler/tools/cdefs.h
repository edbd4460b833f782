/* SPDX-License-Identifier: MIT */
/* cdefs.h - the identifiers a C text defines at file scope.
 *
 * Read by compiler/tools/frag.c over the fragments of templates/ (where
 * an argument of a fragment may be part of an identifier) and by
 * tests/unit/check_emit.c over the files segc wrote, so the two can be
 * compared.  It knows the C that segc writes, not all of C: comments and
 * literals are skipped; of the preprocessor only #define names count (the
 * other lines are skipped, so both branches of an #if count); at file
 * scope every declarator of a declaration counts, and the tags and
 * enumerators it declares, and a function's name when its body follows
 * (not a prototype's); `extern "C" {` opens no scope.
 *
 * The text is an array of CUnit: a byte, or an argument (c -1) whose
 * conversion says whether it can be part of an identifier (s, n; u after
 * its first character) or is a number.  A verbatim argument (v) ends a
 * declaration.  cdefs_scan calls def(ctx, from, to) for each identifier
 * defined, units [from, to). */
#ifndef SEGC_CDEFS_H
#define SEGC_CDEFS_H

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct CUnit {
    int c;     /* a byte; -1: an argument */
    char conv; /* an argument's conversion */
} CUnit;

typedef void CDefFn(void *ctx, int from, int to);

typedef struct CTok {
    int kind; /* 'I' an identifier, 'N' a number, 'S' a string, or the punctuation byte */
    int from, to;
} CTok;

typedef struct CScan {
    const CUnit *u;
    int n;
    CDefFn *def;
    void *ctx;
} CScan;

static int cdefs_ch(const CScan *s, int i)
{
    return i < s->n ? s->u[i].c : 0;
}

static bool cdefs_ident_unit(const CScan *s, int i, bool first)
{
    if (i >= s->n)
        return false;
    if (s->u[i].c < 0)
        return strchr(first ? "sn" : "snu", s->u[i].conv) != NULL;
    return isalpha(s->u[i].c) || s->u[i].c == '_' || (!first && isdigit(s->u[i].c));
}

static bool cdefs_is_word(const CScan *s, const CTok *t, const char *w)
{
    if (t->kind != 'I' || t->to - t->from != (int)strlen(w))
        return false;
    for (int i = t->from; i < t->to; i++)
        if (s->u[i].c != w[i - t->from])
            return false;
    return true;
}

/* The unit after a comment or a string/char literal that starts at i, or
 * -1 when none does. */
static int cdefs_skip(const CScan *s, int i)
{
    if (cdefs_ch(s, i) == '/' && cdefs_ch(s, i + 1) == '*') {
        for (i += 2; i < s->n && !(cdefs_ch(s, i) == '*' && cdefs_ch(s, i + 1) == '/'); i++)
            ;
        return i + 2;
    }
    if (cdefs_ch(s, i) == '/' && cdefs_ch(s, i + 1) == '/') {
        while (i < s->n && cdefs_ch(s, i) != '\n')
            i++;
        return i;
    }
    if (cdefs_ch(s, i) == '"' || cdefs_ch(s, i) == '\'') {
        int q = cdefs_ch(s, i++);
        while (i < s->n && cdefs_ch(s, i) != q && cdefs_ch(s, i) != '\n')
            i += cdefs_ch(s, i) == '\\' ? 2 : 1;
        return i + 1;
    }
    return -1;
}

static void cdefs_push(CTok **t, int *n, int *cap, CTok k)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *t = realloc(*t, (size_t)*cap * sizeof **t);
        if (!*t)
            abort();
    }
    (*t)[(*n)++] = k;
}

/* The tokens of the text; #define names are reported on the way and
 * every other preprocessor line is skipped. */
static CTok *cdefs_tokens(const CScan *s, int *ntok)
{
    CTok *t = NULL;
    int n = 0, cap = 0;
    bool line_start = true;
    for (int i = 0, at = -1; i < s->n;) {
        if (i == at)
            abort(); /* every unit is taken: a scan that stands still would never end */
        at = i;
        int c = cdefs_ch(s, i), j;
        if (c == '\n') {
            line_start = true;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if ((j = cdefs_skip(s, i)) >= 0) {
            if (c == '"' || c == '\'')
                cdefs_push(&t, &n, &cap, (CTok){'S', i, j});
            i = j;
            line_start = false;
        } else if (c == '#' && line_start) {
            int k = i + 1, w = 0;
            while (cdefs_ch(s, k) == ' ' || cdefs_ch(s, k) == '\t')
                k++;
            while (w < 6 && cdefs_ch(s, k + w) == "define"[w])
                w++;
            if (w == 6 && !cdefs_ident_unit(s, k + 6, false)) {
                for (k += 6; cdefs_ch(s, k) == ' ' || cdefs_ch(s, k) == '\t';)
                    k++;
                int from = k;
                while (cdefs_ident_unit(s, k, k == from))
                    k++;
                if (k > from)
                    s->def(s->ctx, from, k);
            }
            for (i = k; i < s->n && cdefs_ch(s, i) != '\n';) /* to the end of the logical line */
                if (cdefs_ch(s, i) == '\\' && cdefs_ch(s, i + 1) == '\n')
                    i += 2;
                else if ((j = cdefs_skip(s, i)) >= 0)
                    i = j;
                else
                    i++;
        } else if (cdefs_ident_unit(s, i, true) || (c < 0 && cdefs_ident_unit(s, i, false))) {
            int from = i;
            bool num = c < 0 && !cdefs_ident_unit(s, i, true);
            while (cdefs_ident_unit(s, i, false) || (num && cdefs_ch(s, i) == '.'))
                i++;
            cdefs_push(&t, &n, &cap, (CTok){num ? 'N' : 'I', from, i});
            line_start = false;
        } else if (isdigit(c)) {
            int from = i;
            while (i < s->n && (isalnum(cdefs_ch(s, i)) || cdefs_ch(s, i) == '.' || cdefs_ch(s, i) < 0))
                i++;
            cdefs_push(&t, &n, &cap, (CTok){'N', from, i});
            line_start = false;
        } else {
            bool verbatim = c < 0 && s->u[i].conv == 'v';
            cdefs_push(&t, &n, &cap, (CTok){c >= 0 ? c : verbatim ? ';' : 'N', i, i + 1});
            line_start = false;
            i++;
        }
    }
    *ntok = n;
    return t;
}

/* The index of the token that closes the bracket at t[i]. */
static int cdefs_matching(const CTok *t, int n, int i)
{
    int open = t[i].kind, close = open == '(' ? ')' : open == '[' ? ']' : '}', depth = 0;
    for (; i < n; i++)
        if (t[i].kind == open)
            depth++;
        else if (t[i].kind == close && --depth == 0)
            return i;
    return n - 1;
}

/* A declarator's name: an identifier after a type (an identifier, `*` or
 * the `}` of a struct body), or after the `,` of another declarator, in
 * the same declaration. */
static bool cdefs_declares(const CTok *t, int i, int start)
{
    int p = i > start ? t[i - 1].kind : 0;
    return i > start && t[i].kind == 'I' && (p == 'I' || p == '*' || p == '}' || p == ',');
}

static void cdefs_scan(const CUnit *u, int n, CDefFn *def, void *ctx)
{
    CScan sc = {u, n, def, ctx}, *s = &sc;
    int nt;
    CTok *t = cdefs_tokens(s, &nt);
    int start = 0;
    bool typedef_ = false;
    for (int i = 0; i < nt; i++) {
        const CTok *k = &t[i];
        if (i == start)
            typedef_ = false;
        if (cdefs_is_word(s, k, "typedef")) {
            typedef_ = true;
        } else if (cdefs_is_word(s, k, "extern") && i + 2 < nt && t[i + 1].kind == 'S' && t[i + 2].kind == '{') {
            i += 2; /* extern "C" { ... }: its braces are not a scope */
            start = i + 1;
        } else if ((cdefs_is_word(s, k, "struct") || cdefs_is_word(s, k, "union") || cdefs_is_word(s, k, "enum")) &&
                   i + 1 < nt) {
            int b = t[i + 1].kind == 'I' ? i + 2 : i + 1;
            if (b < nt && t[b].kind == '{') {
                if (b == i + 2)
                    def(ctx, t[i + 1].from, t[i + 1].to);
                int end = cdefs_matching(t, nt, b);
                if (cdefs_is_word(s, k, "enum"))
                    for (int j = b + 1, depth = 0; j < end; j++) {
                        depth += t[j].kind == '(' || t[j].kind == '{';
                        depth -= t[j].kind == ')' || t[j].kind == '}';
                        if (!depth && t[j].kind == 'I' && (t[j - 1].kind == '{' || t[j - 1].kind == ','))
                            def(ctx, t[j].from, t[j].to);
                    }
                i = end;
            }
        } else if (k->kind == '(') {
            int close = cdefs_matching(t, nt, i);
            if (i + 3 < nt && t[i + 1].kind == '*' && t[i + 2].kind == 'I' && t[i + 3].kind == ')') {
                def(ctx, t[i + 2].from, t[i + 2].to); /* (*name) */
            } else if (cdefs_declares(t, i - 1, start) && close + 1 < nt) {
                int next = t[close + 1].kind;
                if (next == '{') { /* a function defined: its body is not file scope */
                    def(ctx, t[i - 1].from, t[i - 1].to);
                    i = cdefs_matching(t, nt, close + 1);
                    start = i + 1;
                    continue;
                }
                if (typedef_ && (next == ';' || next == ','))
                    def(ctx, t[i - 1].from, t[i - 1].to);
            }
            i = close;
        } else if (k->kind == '[' || k->kind == '=' || k->kind == ',' || k->kind == ';') {
            if (cdefs_declares(t, i - 1, start))
                def(ctx, t[i - 1].from, t[i - 1].to);
            if (k->kind == '[') {
                i = cdefs_matching(t, nt, i);
            } else if (k->kind == '=') { /* the initializer, to its `,` or `;` */
                for (int depth = 0; i + 1 < nt; i++) {
                    int c = t[i + 1].kind;
                    if (!depth && (c == ',' || c == ';'))
                        break;
                    depth += c == '(' || c == '{' || c == '[';
                    depth -= c == ')' || c == '}' || c == ']';
                }
            } else if (k->kind == ';') {
                start = i + 1;
            }
        } else if (k->kind == '{') {
            i = cdefs_matching(t, nt, i);
        } else if (k->kind == '}') {
            start = i + 1; /* the end of extern "C" */
        }
    }
    free(t);
}

#endif
