/* SPDX-License-Identifier: MIT */
/* diag.c - collecting, sorting and printing diagnostics.
 *
 * Every stage reports into one Diags list; nothing is printed until the
 * unit of work is done, so a file's diagnostics come out sorted by
 * position whichever stage found them. */
#include "segc.h"

#include <string.h>

enum { DIAG_MAX_LISTED = 1000 }; /* per Diags list; see diags_print_text */

void diags_init(Diags *d, Arena *a)
{
    *d = (Diags){.arena = a};
    d->tail = &d->head;
    d->waived_tail = &d->waived;
}

/* A Diag in `g` (NULL: a new one); fmt NULL: no message (the spill). */
static Diag *new_diag(Diags *d, Diag *g, Severity sev, Code code, Pos pos, const char *fmt, va_list ap)
{
    /* A rule's finding always points into the spec (check.c's report()
     * falls back to the segment or the file). */
    ASSERT(pos.file || code >= RULE_COUNT);
    g = g ? g : arena_alloc(d->arena, sizeof *g);
    *g = (Diag){.sev = sev, .code = code, .pos = pos, .msg = fmt ? arena_vprintf(d->arena, fmt, ap) : "",
                .seq = d->nseq++};
    g->notes_tail = &g->notes;
    return g;
}

Diag *diag_vwaived(Diags *d, Severity sev, Code code, Pos pos, const char *reason, Pos waiver_pos,
                   const char *fmt, va_list ap)
{
    Diag *g = new_diag(d, NULL, sev, code, pos, fmt, ap);
    g->waiver = reason ? reason : "";
    g->waiver_pos = waiver_pos;
    *d->waived_tail = g;
    d->waived_tail = &g->next;
    return g;
}

Diag *diag_vadd(Diags *d, Severity sev, Code code, Pos pos, const char *fmt, va_list ap)
{
    /* Hostile input can make millions of errors: keep the first ones (the
     * rest are counted, and still fail the file).  The rest share one
     * Diag, d->spill, with no message, notes or fix: nothing is formatted
     * or kept for them. */
    Diag *g;
    if (d->count < DIAG_MAX_LISTED) {
        g = new_diag(d, NULL, sev, code, pos, fmt, ap);
        *d->tail = g;
        d->tail = &g->next;
    } else {
        g = d->spill = new_diag(d, d->spill, sev, code, pos, NULL, ap);
    }
    d->count++;
    unsigned *counter[] = {[SEV_WARNING] = &d->nwarnings, [SEV_ERROR] = &d->nerrors, [SEV_FATAL] = &d->nfatal};
    if (counter[sev])
        ++*counter[sev];
    return g;
}

Diag *diag_add(Diags *d, Severity sev, Code code, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Diag *g = diag_vadd(d, sev, code, pos, fmt, ap);
    va_end(ap);
    return g;
}

void diag_note(Diags *d, Diag *on, Pos pos, const char *fmt, ...)
{
    if (!on || on == d->spill)
        return;
    Note *n = arena_alloc(d->arena, sizeof *n);
    va_list ap;
    va_start(ap, fmt);
    n->msg = arena_vprintf(d->arena, fmt, ap);
    va_end(ap);
    n->pos = pos;
    *on->notes_tail = n;
    on->notes_tail = &n->next;
}

void diag_fixit(Diags *d, Diag *on, const char *fmt, ...)
{
    if (!on || on == d->spill)
        return;
    va_list ap;
    va_start(ap, fmt);
    on->fix = arena_vprintf(d->arena, fmt, ap);
    va_end(ap);
}

bool diags_failed(const Diags *d)
{
    return d->nerrors + d->nfatal > 0;
}

static int pos_cmp(const Diag *a, const Diag *b)
{
    const char *fa = a->pos.file ? a->pos.file->name : "";
    const char *fb = b->pos.file ? b->pos.file->name : "";
    int c = strcmp(fa, fb);
    if (c)
        return c;
    /* A finding about a whole file (POS_FILE) comes before its lines. */
    uint32_t oa = a->pos.off + 1, ob = b->pos.off + 1; /* POS_FILE + 1 is 0 */
    if (oa != ob)
        return oa < ob ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void sort_list(Diag **head, Diag ***tail)
{
    /* Insertion sort on the list: diagnostics per file are few. */
    Diag *sorted = NULL;
    for (Diag *g = *head, *next; g; g = next) {
        next = g->next;
        Diag **pp = &sorted;
        while (*pp && pos_cmp(*pp, g) <= 0)
            pp = &(*pp)->next;
        g->next = *pp;
        *pp = g;
    }
    *head = sorted;
    *tail = head;
    while (**tail)
        *tail = &(**tail)->next;
}

void diags_sort(Diags *d)
{
    sort_list(&d->head, &d->tail);
    sort_list(&d->waived, &d->waived_tail);
}

/* ---- text form --------------------------------------------------------- */

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"
#define C_RESET "\033[0m"

static const struct {
    const char *name, *color;
} severities[] = {[SEV_NOTE] = {"note", C_CYAN}, [SEV_WARNING] = {"warning", C_MAGENTA},
                  [SEV_ERROR] = {"error", C_RED}, [SEV_FATAL] = {"fatal", C_RED}};

const char *severity_name(Severity s)
{
    return (size_t)s < countof(severities) ? severities[s].name : "?";
}

const char *severity_level(Severity s)
{
    return severity_name(s == SEV_FATAL ? SEV_ERROR : s);
}

enum { EXCERPT_BEFORE = 80, EXCERPT_WIDTH = 200 }; /* bytes shown of a long line */

/* Prints the source line of `p` and a caret line under its span.  A line
 * longer than EXCERPT_WIDTH bytes is shown as a window around the column,
 * cut with "...". */
static void print_excerpt(Buf *f, Pos p, DiagStyle st)
{
    SrcLoc l = src_loc(p);
    if (!l.line)
        return;
    const char *s = l.bol, *e = l.eol;
    if (e > s && e[-1] == '\r')
        e--;
    uint32_t col = l.col;
    const char *from = s, *to = e;
    if (e - s > EXCERPT_WIDTH) {
        if (col > EXCERPT_BEFORE && (size_t)(col - 1) <= (size_t)(e - s))
            from = s + (col - 1) - EXCERPT_BEFORE;
        /* Do not start or stop inside a UTF-8 sequence. */
        while (from > s && (*from & 0xC0) == 0x80)
            from--;
        to = e - from > EXCERPT_WIDTH ? from + EXCERPT_WIDTH : e;
        while (to < e && (*to & 0xC0) == 0x80)
            to++;
    }
    const char *pre = from > s ? "..." : "";
    buf_printf(f, "%5u | %s%.*s%s\n      | %s", (unsigned)l.line, pre, (int)(to - from), from, to < e ? "..." : "",
            from > s ? "   " : "");
    /* Keep tabs as tabs so the caret lines up under them; a UTF-8
     * character takes one column, not one per byte. */
    uint32_t skip = (uint32_t)(from - s);
    for (uint32_t i = 1 + skip; i < col; i++)
        if (s + i - 1 >= e || (s[i - 1] & 0xC0) != 0x80)
            buf_putc(f, s + i - 1 < e && s[i - 1] == '\t' ? '\t' : ' ');
    uint32_t len = p.len ? p.len : 1;
    if (st.color)
        buf_puts(f, C_GREEN);
    buf_putc(f, '^');
    for (uint32_t i = 1; i < len && s + col - 1 + i < to; i++)
        if ((s[col - 1 + i] & 0xC0) != 0x80)
            buf_putc(f, '~');
    if (st.color)
        buf_puts(f, C_RESET);
    buf_putc(f, '\n');
}

/* A message quotes names from the spec: control characters in them (an
 * escape such as "\e[31m", a line break) are shown, never sent as such. */
static void put_escaped(Buf *f, const char *msg)
{
    for (const unsigned char *m = (const unsigned char *)msg; *m; m++) {
        if (*m < 0x20 || *m == 0x7F)
            buf_printf(f, "\\x%02X", *m);
        else
            buf_putc(f, *m);
    }
}

static void print_head(Buf *f, Pos p, Severity sev, Code code, const char *msg, DiagStyle st)
{
    if (st.color)
        buf_puts(f, C_BOLD);
    SrcLoc l = src_loc(p);
    if (l.line)
        buf_printf(f, "%s:%u:%u: ", p.file->name, (unsigned)l.line, (unsigned)l.col);
    else
        buf_printf(f, "%s: ", p.file ? p.file->name : "segc");
    if (st.color)
        buf_printf(f, "%s%s:" C_RESET C_BOLD, severities[sev].color, severity_name(sev));
    else
        buf_printf(f, "%s:", severity_name(sev));
    if (code != CODE_NONE)
        buf_printf(f, " [%s]", code_name(code));
    buf_putc(f, ' ');
    put_escaped(f, msg);
    if (st.color)
        buf_puts(f, C_RESET);
    buf_putc(f, '\n');
}

/* ---- --diagnostics=msvc ----------------------------------------------- */

/* MSBuild's canonical form, one line each: "ORIGIN: CATEGORY CODE: TEXT"
 * with ORIGIN "file(line,col)", "file(line,col-endcol)" for a span of
 * more than one column (endcol its last column, as MSBuild's "line-line"
 * names the last line), "file" or "segc".  Notes (and the fix) follow as
 * "ORIGIN: note: TEXT", as cl writes them: MSBuild shows them in the build
 * output without counting them as errors. */
static void msvc_line(Buf *f, Pos p, Severity sev, Code code, const char *prefix, const char *msg)
{
    SrcLoc l = src_loc(p);
    if (l.line && p.len > 1)
        buf_printf(f, "%s(%u,%u-%u): ", p.file->name, (unsigned)l.line, (unsigned)l.col, (unsigned)(l.col + p.len - 1));
    else if (l.line)
        buf_printf(f, "%s(%u,%u): ", p.file->name, (unsigned)l.line, (unsigned)l.col);
    else
        buf_printf(f, "%s: ", p.file ? p.file->name : "segc");
    if (sev == SEV_NOTE)
        buf_puts(f, "note: ");
    else
        buf_printf(f, "%s SEGC%04u: [%s] ", sev == SEV_WARNING ? "warning" : "error", rule_table[code].msvc,
                code_name(code));
    buf_puts(f, prefix);
    put_escaped(f, msg);
    buf_putc(f, '\n');
}

/* A diagnostic or note: its head line and excerpt, or its MSBuild line. */
static void print_one(Buf *f, Pos p, Severity sev, Code code, const char *msg, DiagStyle st)
{
    if (st.msvc) {
        msvc_line(f, p, sev, code, "", msg);
        return;
    }
    print_head(f, p, sev, code, msg, st);
    print_excerpt(f, p, st);
}

void diags_text(Buf *f, const Diags *d, DiagStyle st)
{
    for (const Diag *g = d->head; g; g = g->next) {
        print_one(f, g->pos, g->sev, g->code, g->msg, st);
        if (g->fix && st.msvc)
            msvc_line(f, g->pos, SEV_NOTE, CODE_NONE, "fix: ", g->fix);
        else if (g->fix)
            buf_printf(f, "      = fix: %s\n", g->fix);
        for (const Note *n = g->notes; n; n = n->next)
            print_one(f, n->pos, SEV_NOTE, CODE_NONE, n->msg, st);
    }
    if (d->count > DIAG_MAX_LISTED && d->head) {
        Pos at = pos_file(d->head->pos.file);
        char msg[96];
        snprintf(msg, sizeof msg, "%u more diagnostics not shown (at most %d per file)",
                 d->count - DIAG_MAX_LISTED, DIAG_MAX_LISTED);
        print_one(f, at, SEV_NOTE, C_limit_diagnostics, msg, st);
    }
}

void diags_print_text(FILE *f, const Diags *d, DiagStyle st)
{
    Buf b = {0};
    diags_text(&b, d, st);
    if (b.len)
        fwrite(b.p, 1, b.len, f);
    buf_free(&b);
}

/* ---- edits --------------------------------------------------------------- */

void diag_edit(Diags *d, Diag *on, Pos at, const char *text)
{
    if (on && at.file)
        on->edit = (DiagEdit){at, arena_strdup(d->arena, text)};
}

/* A line of a file, for the edits: its text (src_loc's bol and eol). */
typedef struct Line {
    const SrcFile *file;
    uint32_t line;
    const char *start, *end;
} Line;

/* Line n of f; false past its last line. */
static bool line_n(Line *l, const SrcFile *f, uint32_t n)
{
    SrcLoc c = src_loc(pos_at(f, src_line_off(f, n), 0));
    *l = (Line){f, c.line, c.bol, c.eol};
    return c.line == n;
}

/* The line of `p` and the bytes [*from, *to) of it the span covers; false
 * when the span is not on one line of its file's text. */
static bool span_of(Pos p, Line *l, const char **from, const char **to)
{
    SrcLoc c = src_loc(p);
    *l = (Line){p.file, c.line, c.bol, c.eol};
    if (!c.line || p.off < (size_t)(c.bol - p.file->text))
        return false;
    *from = p.file->text + p.off;
    *to = *from + p.len;
    return *to <= l->end;
}

/* Bytes [from, to) of line `l` as a Pos (`to` may be past the line break). */
static Pos span_pos(const Line *l, const char *from, const char *to)
{
    return pos_at(l->file, (size_t)(from - l->file->text), (size_t)(to - from));
}

static const char *skip_blanks_back(const char *p, const char *start)
{
    while (p > start && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    return p;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

void diag_edit_append(Diags *d, Diag *on, Pos value, const char *tail)
{
    Line l;
    const char *s, *e;
    if (!on || !span_of(value, &l, &s, &e) || e == s)
        return;
    if (e - s >= 2 && (*s == '"' || *s == '\'') && e[-1] == *s)
        s++, e--;
    bool loose = false; /* an operator below + and - (C's precedence) */
    for (const char *c = s; c < e; c++)
        loose = loose || (*c && strchr("<>&|^", *c));
    if (loose)
        diag_edit(d, on, span_pos(&l, s, e), arena_printf(d->arena, "(%.*s) %s", (int)(e - s), s, tail));
    else
        diag_edit(d, on, span_pos(&l, e, e), arena_printf(d->arena, " %s", tail));
}

void diag_edit_remove_pair(Diags *d, Diag *on, Pos value)
{
    Line l;
    const char *s, *e;
    if (!on || !span_of(value, &l, &s, &e))
        return;
    const char *k = skip_blanks_back(s, l.start);
    if (k == l.start || k[-1] != ':')
        return;
    const char *ke = skip_blanks_back(k - 1, l.start);
    for (k = ke; k > l.start && !strchr(" \t{,", k[-1]); k--)
        ;
    if (k == ke)
        return;
    const char *before = skip_blanks_back(k, l.start), *after = skip_blanks(e, l.end);
    if (before > l.start && before[-1] == ',') /* `, key: value` in a flow map */
        diag_edit(d, on, span_pos(&l, before - 1, e), "");
    else if (after < l.end && *after == ',') /* `key: value, ` first in a flow map */
        diag_edit(d, on, span_pos(&l, k, skip_blanks(after + 1, l.end)), "");
    else if (before == l.start && (after == l.end || *after == '#' || *after == '\r')) /* alone on its line */
        diag_edit(d, on, span_pos(&l, l.start, l.end < l.file->text + l.file->len ? l.end + 1 : l.end), "");
    else /* `- key: value` opening a block map: the other keys follow */
        diag_edit(d, on, span_pos(&l, k, e), "");
}

void diag_edit_remove_item(Diags *d, Diag *on, Pos item)
{
    Line l;
    const char *s, *e;
    if (!on || !span_of(item, &l, &s, &e) || e == s)
        return;
    const char *before = skip_blanks_back(s, l.start), *after = skip_blanks(e, l.end);
    const char *dash = before > l.start ? before - 1 : before;
    if (*dash == '-' && skip_blanks_back(dash, l.start) == l.start) { /* `- item` of a block sequence */
        if (after < l.end && *after != '#' && *after != '\r')
            return;
        /* Not the only item: a neighbouring line holds one at its column
         * (without any, `key:` would be left holding nothing). */
        bool other = false;
        for (int dl = -1; dl <= 1; dl += 2) {
            Line m;
            uint32_t n = l.line + (uint32_t)dl;
            if (n >= 1 && line_n(&m, l.file, n)) {
                const char *t = skip_blanks(m.start, m.end);
                other = other || (t - m.start == dash - l.start && t < m.end && *t == '-');
            }
        }
        if (other)
            diag_edit(d, on, span_pos(&l, l.start, l.end < l.file->text + l.file->len ? l.end + 1 : l.end), "");
    } else if (after < l.end && *after == ',') { /* `item, ` in a flow sequence */
        diag_edit(d, on, span_pos(&l, s, skip_blanks(after + 1, l.end)), "");
    } else if (before > l.start && before[-1] == ',') { /* `, item` last in it */
        diag_edit(d, on, span_pos(&l, before - 1, e), "");
    } else if (before > l.start && before[-1] == '[' && after < l.end && *after == ']') { /* `[item]` */
        diag_edit(d, on, span_pos(&l, s, e), "");
    }
}

void diag_edit_remove_block(Diags *d, Diag *on, Pos key)
{
    Line l, m;
    const char *s, *e;
    if (!on || !span_of(key, &l, &s, &e) || skip_blanks_back(s, l.start) != l.start)
        return;
    size_t indent = (size_t)(s - l.start);
    uint32_t last = l.line;
    m = l;
    for (uint32_t n = l.line + 1; line_n(&m, l.file, n); n++) {
        const char *t = skip_blanks(m.start, m.end);
        size_t in = (size_t)(t - m.start);
        if (t == m.end || *t == '#' || *t == '\r') /* blank, a comment: with what follows */
            continue;
        if (in > indent || (in == indent && *t == '-' && (t + 1 == m.end || t[1] == ' ')))
            last = n;
        else
            break;
    }
    if (!line_n(&m, l.file, last))
        return;
    diag_edit(d, on, span_pos(&l, l.start, m.end < l.file->text + l.file->len ? m.end + 1 : m.end), "");
}

/* The edit of a did-you-mean: `word` replaced where the finding points,
 * when the text there is that word (inside quotes or not). */
static void edit_word(Diags *d, Diag *on, const char *word, const char *near)
{
    Line l;
    const char *s, *e;
    size_t n = strlen(word);
    if (!on || !span_of(pos_shift(on->pos, 0, 0), &l, &s, &e))
        return;
    if (s < l.end && (*s == '"' || *s == '\''))
        s++;
    unsigned char next = s + n < l.end ? (unsigned char)s[n] : ' ';
    bool ident_next = next == '_' || next == '.' || (unsigned)((next | 32) - 'a') < 26 || (unsigned)(next - '0') < 10;
    if ((size_t)(l.end - s) >= n && !memcmp(s, word, n) && !ident_next)
        diag_edit(d, on, span_pos(&l, s, s + n), near);
}

bool diag_suggest(Diags *d, Diag *on, const char *word, const void *items, size_t n, size_t size)
{
    const char *near = closest_of(word, items, n, size);
    if (near) {
        diag_fixit(d, on, "did you mean '%s'?", near);
        edit_word(d, on, word, near);
    }
    return near != NULL;
}
