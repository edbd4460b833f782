/* SPDX-License-Identifier: MIT */
/* context.c - the cursor's context from the text alone.
 *
 * Block YAML says where a line belongs by its indentation: the map a line
 * is in is found by walking up to the nearest line less indented (a
 * `key:` whose value is the block, or the `- ` that opened a sequence's
 * item).  A small scanner follows flow collections (`{ bar: fb, offset:
 * 0 }`, `[direct_flip, ...]`) from the line where the outermost one still
 * open at the cursor opened: the cursor's line, or an earlier one whose
 * collection goes on over the lines down to the cursor's.  Nothing needs
 * the text to be valid YAML: the user is typing. */
#include "context.h"

#include <string.h>

static const char ITEM[] = "#";

/* ---- lines ---------------------------------------------------------------- */

/* One line, as far as the context needs it. */
typedef struct Line {
    const char *s, *e; /* without its line break */
    int indent;        /* the column of its first character; -1: blank or a comment */
    int dash;          /* the column of its last `- `; -1: none */
    int kcol;          /* the column of its `key:`; -1: none */
    Word key;
    const char *rest;  /* after the key's colon, or after the dashes */
} Line;

/* A blank or a line break. */
static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

/* The end of the word at p, at most e. */
static const char *word_end(const char *p, const char *e)
{
    while (p < e && is_word(*p))
        p++;
    return p;
}

/* The colon of a plain `key:` at p (one followed by a blank or the end of
 * the line), or NULL. */
static const char *key_colon(const char *p, const char *e)
{
    const char *q = word_end(p, e);
    return q > p && q < e && *q == ':' && (q + 1 == e || is_space(q[1])) ? q : NULL;
}

/* The end of the line p is in, at most e. */
static const char *line_end(const char *p, const char *e)
{
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    return nl ? nl : e;
}

/* Whether a `#` at p, in text from `start`, opens a comment: it follows a
 * blank or begins the text. */
static bool comment_at(const char *start, const char *p)
{
    return *p == '#' && (p == start || is_space(p[-1]));
}

static void parse_line(const char *s, const char *e, Line *l)
{
    if (e > s && e[-1] == '\r')
        e--;
    *l = (Line){s, e, -1, -1, -1, {NULL, 0}, e};
    const char *p = s;
    while (p < e && *p == ' ')
        p++;
    if (p == e || *p == '#')
        return;
    l->indent = (int)(p - s);
    for (; p < e && *p == '-' && (p + 1 == e || p[1] == ' '); l->rest = p) {
        l->dash = (int)(p - s);
        for (p++; p < e && *p == ' '; p++)
            ;
    }
    l->rest = p;
    const char *colon = key_colon(p, e);
    if (colon) {
        l->kcol = (int)(p - s);
        l->key = (Word){p, (size_t)(colon - p)};
        l->rest = colon + 1;
    }
}

/* The line before the one starting at `ls`, or false at the top. */
static bool prev_line(const char *text, const char **ls, Line *l)
{
    if (*ls == text)
        return false;
    const char *e = *ls - 1, *s = e;
    while (s > text && s[-1] != '\n')
        s--;
    parse_line(s, e, l);
    *ls = s;
    return true;
}

/* The line after the one starting at `ls`, or false at the end. */
static bool next_line(const char *end, const char **ls, Line *l)
{
    const char *nl = memchr(*ls, '\n', (size_t)(end - *ls));
    if (!nl)
        return false;
    const char *s = nl + 1, *e = memchr(s, '\n', (size_t)(end - s));
    parse_line(s, e ? e : end, l);
    *ls = s;
    return true;
}

/* ---- the path above a line ------------------------------------------------ */

typedef struct Path {
    Word step[CTX_MAX_DEPTH];
    unsigned n;
} Path;

static void push(Path *p, Word w)
{
    if (p->n < CTX_MAX_DEPTH)
        p->step[p->n++] = w;
}

/* The containers above the line at `ls`, nearest first: the line is in the
 * map whose keys stand at column `col`, or with `seq` in the sequence
 * whose dashes do.  Stops at the root, or where the text makes no sense. */
static void walk_up(const char *text, const char *ls, int col, bool seq, Path *up)
{
    Line l;
    while ((col > 0 || seq) && prev_line(text, &ls, &l)) {
        if (l.indent < 0)
            continue;
        bool parent = l.kcol >= 0 && (l.kcol < col || (seq && l.kcol == col && l.dash < 0));
        if (!seq && l.dash >= 0 && l.kcol == col) { /* the line that opened our item */
            push(up, (Word){ITEM, 1});
            col = l.dash, seq = true;
            continue;
        }
        if (!parent) {
            if (l.indent > col || (seq && l.dash == col) || (!seq && l.indent == col))
                continue; /* deeper, or a sibling */
            return;
        }
        push(up, l.key);
        col = l.kcol, seq = false;
        if (l.dash >= 0) {
            push(up, (Word){ITEM, 1});
            col = l.dash, seq = true;
        }
    }
}

/* ---- what the map or sequence already has ------------------------------------ */

static void add_present(TextCtx *c, Word w)
{
    if (w.n && c->npresent < CTX_MAX_PRESENT)
        c->present[c->npresent++] = w;
}

/* The word after a line's dashes (an item of a block sequence). */
static Word item_word(const Line *l)
{
    return (Word){l->rest, (size_t)(word_end(l->rest, l->e) - l->rest)};
}

/* Whether line `l` belongs to the same map (keys at `col`) or sequence
 * (dashes at `col`, `items`); *stop when nothing further does. */
static bool sibling(const Line *l, int col, bool items, bool up, bool *stop)
{
    *stop = false;
    if (l->indent < 0 || (l->indent > col && !(l->dash >= 0 && l->kcol == col)))
        return false;
    if (items ? l->dash == col && l->indent == col : l->kcol == col && (l->dash < 0 || up)) {
        *stop = !items && l->dash >= 0; /* the line that opened the item */
        return true;
    }
    *stop = true;
    return false;
}

/* The keys (or items) of the block map (sequence) the line at `ls` is in,
 * above it (`up`) and below it. */
static void block_present(const char *text, const char *end, const char *ls, int col, bool items, bool up,
                          TextCtx *c)
{
    Line l;
    bool stop = false;
    for (const char *p = ls; up && !stop && prev_line(text, &p, &l);)
        if (sibling(&l, col, items, true, &stop))
            add_present(c, items ? item_word(&l) : l.key);
    stop = false;
    for (const char *p = ls; !stop && next_line(end, &p, &l);)
        if (sibling(&l, col, items, false, &stop))
            add_present(c, items ? item_word(&l) : l.key);
}

/* ---- flow collections within the line -------------------------------------------- */

enum { FLOW_MAX = 8 };

typedef struct Flow {
    struct {
        char open;  /* '{' or '[' */
        Word key;   /* the key it is the value of */
    } lv[FLOW_MAX];
    unsigned depth;
    Word key;       /* the key of the entry being written in the innermost map */
    bool comment;   /* the cursor is in a comment */
} Flow;

/* The end of a quoted string at p (its closing quote + 1), or e. */
static const char *skip_quoted(const char *p, const char *e)
{
    char q = *p++;
    while (p < e && *p != q)
        p += *p == '\\' && q == '"' && p + 1 < e ? 2 : 1;
    return p < e ? p + 1 : e;
}

/* Scans [start, e): the open collections at e, the key being written, and
 * the words of the innermost collection (the one ending at e left out). */
static void scan_flow(const char *start, const char *e, Flow *f, TextCtx *c)
{
    struct {
        Word w;
        unsigned depth;
    } seen[CTX_MAX_PRESENT];
    unsigned n = 0;
    for (const char *p = start; p < e && !f->comment;) {
        if (*p == '"' || *p == '\'') {
            p = skip_quoted(p, line_end(p, e));
        } else if ((*p == '{' || *p == '[') && f->depth < FLOW_MAX) {
            f->lv[f->depth].open = *p++;
            f->lv[f->depth++].key = f->key;
            f->key = (Word){NULL, 0};
        } else if (*p == '}' || *p == ']' || *p == ',') {
            f->depth -= *p != ',' && f->depth;
            while (n && seen[n - 1].depth > f->depth)
                n--; /* the words of a collection that closed */
            f->key = (Word){NULL, 0};
            p++;
        } else if (comment_at(start, p)) {
            p = line_end(p, e);
            f->comment = p == e; /* else the comment ends with its line */
        } else if (is_word(*p)) {
            const char *q = word_end(p, e), *colon = key_colon(p, e);
            if (colon)
                f->key = (Word){p, (size_t)(colon - p)};
            if (q < e && f->depth && (colon || f->lv[f->depth - 1].open == '[') && n < countof(seen))
                seen[n].w = (Word){p, (size_t)(q - p)}, seen[n++].depth = f->depth;
            p = colon ? colon + 1 : q;
        } else {
            p++;
        }
    }
    for (unsigned i = 0; i < n; i++)
        if (seen[i].depth == f->depth)
            add_present(c, seen[i].w);
}

/* The words of the innermost collection after the cursor, to its end: on
 * the cursor's line, and on the lines after it indented past column
 * `col` (a collection's lines go deeper than the block it is in). */
static void flow_after(const char *p, const char *e, char open, int col, TextCtx *c)
{
    int depth = 0;
    p = word_end(p, e); /* the rest of the word being typed */
    for (; p < e && depth >= 0; p++) {
        if (*p == '"' || *p == '\'') {
            p = skip_quoted(p, line_end(p, e)) - 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        } else if (*p == '#' && is_space(p[-1])) {
            p = line_end(p, e) - 1;
        } else if (*p == '\n') {
            Line l;
            parse_line(p + 1, line_end(p + 1, e), &l);
            if (l.indent >= 0 && l.indent <= col)
                return;
        } else if (is_word(*p) && !depth) {
            const char *q = word_end(p, e), *colon = key_colon(p, e);
            if (colon || open == '[')
                add_present(c, (Word){p, (size_t)(q - p)});
            p = q - 1;
        }
    }
}

/* ---- flow collections over several lines ----------------------------------------- */

/* One line's brackets [s, e), quotes and comments read as scan_flow reads
 * them: the closing ones that match none before them on the line, the
 * opening ones no later one closes, and its first and last characters
 * (0: none). */
typedef struct Balance {
    unsigned closes, opens;
    char first, last;
} Balance;

static Balance balance(const char *s, const char *e)
{
    Balance b = {0, 0, 0, 0};
    for (const char *p = s; p < e && !comment_at(s, p); p++) {
        if (!is_space(*p))
            b.last = b.first ? *p : (b.first = *p);
        if (*p == '"' || *p == '\'') {
            p = skip_quoted(p, e) - 1;
            b.last = p[0];
        } else if (*p == '{' || *p == '[') {
            b.opens++;
        } else if (*p == '}' || *p == ']') {
            b.opens ? b.opens-- : b.closes++;
        }
    }
    return b;
}

/* The start of the line where the outermost flow collection open at `cur`
 * opened, or `ls` (the cursor's line) when none opened on an earlier line.
 * Walks up from the cursor's line through the lines the collection goes
 * on over: a line with collections open at its end that the lines below
 * do not close, one whose brackets the lines below close, one that ends
 * with `,` or is followed by one that starts with it.  The first other
 * line (blank and comment lines aside) ends the walk. */
static const char *flow_start(const char *text, const char *ls, const char *cur)
{
    Balance b = balance(ls, cur);
    unsigned pending = b.closes; /* closed below, opened above */
    bool comma = b.first == ',';
    const char *top = ls, *p = ls;
    Line l;
    while (prev_line(text, &p, &l)) {
        b = balance(l.s, l.e);
        if (!b.first)
            continue;
        bool open = b.opens > pending;
        if (!open && !pending && b.last != ',' && !comma)
            break;
        if (open)
            top = l.s;
        pending = open ? b.closes : pending - b.opens + b.closes;
        comma = b.first == ',';
    }
    return top;
}

/* ---- the context ---------------------------------------------------------------- */

/* `w` into a name of the context, cut to CTX_MAX_NAME - 1 bytes. */
static void set_name(char *name, Word w)
{
    size_t n = w.n < CTX_MAX_NAME - 1 ? w.n : CTX_MAX_NAME - 1;
    memcpy(name, w.s, n);
    name[n] = 0;
}

static void set_path(TextCtx *c, const Path *p, bool reversed)
{
    for (unsigned i = 0; i < p->n && c->depth < CTX_MAX_DEPTH; i++)
        set_name(c->path[c->depth++], p->step[reversed ? p->n - 1 - i : i]);
}

/* Inside flow collections: the path goes on through their keys.  `col`:
 * the column of the block entry they are in (flow_after). */
static void flow_context(const Flow *f, const char *cur, const char *end, int col, TextCtx *c)
{
    Path p = {0};
    for (unsigned i = 0; i < f->depth; i++) {
        if (f->lv[i].key.s)
            push(&p, f->lv[i].key);
        if (f->lv[i].open == '[' && i + 1 < f->depth)
            push(&p, (Word){ITEM, 1});
    }
    bool list = f->lv[f->depth - 1].open == '[';
    if (list) {
        if (!f->lv[f->depth - 1].key.s)
            return; /* a list that is no key's value */
        set_name(c->key, f->lv[f->depth - 1].key);
        p.n--;
    } else if (f->key.s) {
        set_name(c->key, f->key);
    }
    set_path(c, &p, false);
    c->kind = list ? CTX_ITEM : f->key.s ? CTX_VALUE : CTX_KEY;
    if (c->kind != CTX_VALUE)
        flow_after(cur, end, list ? '[' : '{', col, c);
    else
        c->npresent = 0;
}

/* A line with no `key:` before the cursor, in block style: a key being
 * typed, or an item of a sequence (a scalar, or a map's first key). */
static void block_word(const char *text, const char *end, const char *ls, const Line *l, int col, TextCtx *c)
{
    Path up = {0};
    if (l->dash < 0) {
        walk_up(text, ls, col, false, &up);
        set_path(c, &up, true);
        c->kind = CTX_KEY;
        block_present(text, end, ls, col, false, true, c);
        return;
    }
    walk_up(text, ls, l->dash, true, &up);
    set_path(c, &up, true);
    const char *item[CTX_MAX_DEPTH + 1];
    for (unsigned i = 0; i < c->depth; i++)
        item[i] = c->path[i];
    item[c->depth] = ITEM;
    if (spec_map_at(item, c->depth + 1) >= 0) { /* the first key of a map */
        strcpy(c->path[c->depth++], ITEM);
        c->kind = CTX_KEY;
        block_present(text, end, ls, col, false, false, c);
    } else if (c->depth) {
        strcpy(c->key, c->path[--c->depth]);
        c->kind = CTX_ITEM;
        block_present(text, end, ls, l->dash, true, true, c);
    }
}

void text_context(const char *text, size_t len, size_t off, TextCtx *c)
{
    memset(c, 0, sizeof *c);
    c->word = off = off < len ? off : len;
    const char *cur = text + off, *ls = cur, *end = text + len;
    while (ls > text && ls[-1] != '\n')
        ls--;
    while (c->word > (size_t)(ls - text) && is_word(text[c->word - 1]))
        c->word--;
    Line l;
    parse_line(ls, cur, &l);
    if (l.indent < 0 && l.e > ls && memchr(ls, '#', (size_t)(l.e - ls)))
        return; /* a comment line */
    /* From the line where a collection opened (the cursor's, or an earlier
     * one); when that one closed before the cursor, from the cursor's line. */
    const char *fs = flow_start(text, ls, cur);
    Line open;
    parse_line(fs, line_end(fs, cur), &open);
    Flow f = {.key = open.key};
    scan_flow(open.rest, cur, &f, c);
    if (f.depth) {
        l = open, ls = fs;
    } else if (fs != ls && !f.comment) {
        f = (Flow){.key = l.key}, c->npresent = 0;
        scan_flow(l.rest, cur, &f, c);
    }
    if (f.comment)
        return;
    int col = l.e < cur ? l.indent : (int)(c->word - (size_t)(ls - text)); /* the opening line's, or the word's */
    if (l.kcol < 0 && !f.depth) {
        block_word(text, end, ls, &l, col, c);
        return;
    }
    Path up = {0};
    if (l.dash >= 0)
        walk_up(text, ls, l.dash, true, &up);
    else
        walk_up(text, ls, l.kcol >= 0 ? l.kcol : col, false, &up);
    set_path(c, &up, true);
    if (l.dash >= 0)
        strcpy(c->path[c->depth < CTX_MAX_DEPTH ? c->depth++ : c->depth - 1], ITEM);
    if (f.depth) {
        flow_context(&f, cur, end, l.kcol >= 0 ? l.kcol : (int)(l.rest - l.s), c);
        return;
    }
    set_name(c->key, l.key);
    c->kind = CTX_VALUE;
}

bool ctx_present(const TextCtx *c, const char *w)
{
    for (unsigned i = 0; i < c->npresent; i++)
        if (strlen(w) == c->present[i].n && !memcmp(w, c->present[i].s, c->present[i].n))
            return true;
    return false;
}

/* ---- the maps of a spec ------------------------------------------------------------- */

bool path_match(const char *const *path, unsigned depth, const char *pattern)
{
    unsigned i = 0;
    for (const char *p = pattern; *p; i++) {
        size_t n = strcspn(p, " ");
        bool any = n == 1 && *p == '*' && i < depth && strcmp(path[i], ITEM);
        if (i >= depth || (!any && (strlen(path[i]) != n || strncmp(path[i], p, n))))
            return false;
        p += n + (p[n] == ' ');
    }
    return i == depth;
}

const char *text_top_key(const SrcFile *f, const char *key)
{
    size_t n = strlen(key);
    for (const char *s = f->text + src_line_off(f, 1), *e = f->text + f->len; s < e; s = line_end(s, e) + 1) {
        if ((size_t)(e - s) <= n || memcmp(s, key, n))
            continue;
        const char *c = s + n + strspn(s + n, " \t");
        if (c < e && *c == ':')
            return c + 1;
    }
    return NULL;
}
