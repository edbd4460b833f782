/* diag.c - collecting, sorting and printing diagnostics.
 *
 * Every stage reports into one Diags list; nothing is printed until the
 * unit of work is done, so a file's diagnostics come out sorted by
 * position whichever stage found them. */
#include "segc.h"

#include <string.h>

void diags_init(Diags *d, Arena *a)
{
    memset(d, 0, sizeof *d);
    d->arena = a;
    d->tail = &d->head;
    d->waived_tail = &d->waived;
}

static Diag *new_diag(Diags *d, Severity sev, const char *code, Pos pos, const char *fmt, va_list ap)
{
    Diag *g = arena_alloc(d->arena, sizeof *g);
    Buf b = {0};
    buf_vprintf(&b, fmt, ap);
    g->msg = arena_strdup(d->arena, b.p);
    buf_free(&b);
    g->sev = sev;
    g->code = code;
    g->pos = pos;
    g->notes_tail = &g->notes;
    g->seq = d->nseq++;
    return g;
}

Diag *diag_vwaived(Diags *d, Severity sev, const char *code, Pos pos, const char *reason, Pos waiver_pos,
                   const char *fmt, va_list ap)
{
    Diag *g = new_diag(d, sev, code, pos, fmt, ap);
    g->waiver = reason ? reason : "";
    g->waiver_pos = waiver_pos;
    *d->waived_tail = g;
    d->waived_tail = &g->next;
    return g;
}

Diag *diag_vadd(Diags *d, Severity sev, const char *code, Pos pos, const char *fmt, va_list ap)
{
    Diag *g = new_diag(d, sev, code, pos, fmt, ap);
    *d->tail = g;
    d->tail = &g->next;
    d->count++;
    switch (sev) {
    case SEV_FATAL: d->nfatal++; break;
    case SEV_ERROR: d->nerrors++; break;
    case SEV_WARNING: d->nwarnings++; break;
    case SEV_NOTE: break;
    }
    return g;
}

Diag *diag_add(Diags *d, Severity sev, const char *code, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Diag *g = diag_vadd(d, sev, code, pos, fmt, ap);
    va_end(ap);
    return g;
}

Diag *error_at(Diags *d, const char *code, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Diag *g = diag_vadd(d, SEV_ERROR, code, pos, fmt, ap);
    va_end(ap);
    return g;
}

Diag *fatal_at(Diags *d, const char *code, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Diag *g = diag_vadd(d, SEV_FATAL, code, pos, fmt, ap);
    va_end(ap);
    return g;
}

void diag_note(Diags *d, Diag *on, Pos pos, const char *fmt, ...)
{
    if (!on)
        return;
    Note *n = arena_alloc(d->arena, sizeof *n);
    Buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    n->msg = arena_strdup(d->arena, b.p);
    buf_free(&b);
    n->pos = pos;
    *on->notes_tail = n;
    on->notes_tail = &n->next;
}

void diag_fixit(Diags *d, Diag *on, const char *fmt, ...)
{
    if (!on)
        return;
    Buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    on->fix = arena_strdup(d->arena, b.p);
    buf_free(&b);
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
    if (a->pos.line != b->pos.line)
        return a->pos.line < b->pos.line ? -1 : 1;
    if (a->pos.col != b->pos.col)
        return a->pos.col < b->pos.col ? -1 : 1;
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

const char *severity_name(Severity s)
{
    switch (s) {
    case SEV_NOTE: return "note";
    case SEV_WARNING: return "warning";
    case SEV_ERROR: return "error";
    case SEV_FATAL: return "fatal";
    }
    return "?";
}

static const char *sev_color(Severity s)
{
    switch (s) {
    case SEV_NOTE: return C_CYAN;
    case SEV_WARNING: return C_MAGENTA;
    default: return C_RED;
    }
}

/* Prints the source line of `p` and a caret line under its span. */
static void print_excerpt(FILE *f, Pos p, DiagStyle st)
{
    if (!p.file || !p.file->text || p.line == 0)
        return;
    const char *s = p.file->text, *end = s + p.file->len;
    for (uint32_t l = 1; l < p.line && s < end; s++)
        if (*s == '\n')
            l++;
    const char *e = s;
    while (e < end && *e != '\n')
        e++;
    if (e > s && e[-1] == '\r')
        e--;
    fprintf(f, "%5u | %.*s\n      | ", (unsigned)p.line, (int)(e - s), s);
    /* Keep tabs as tabs so the caret lines up under them. */
    uint32_t col = p.col ? p.col : 1;
    for (uint32_t i = 1; i < col; i++)
        fputc(s + i - 1 < e && s[i - 1] == '\t' ? '\t' : ' ', f);
    uint32_t len = p.len ? p.len : 1;
    if (st.color)
        fputs(C_GREEN, f);
    fputc('^', f);
    for (uint32_t i = 1; i < len && s + col - 1 + i < e; i++)
        fputc('~', f);
    if (st.color)
        fputs(C_RESET, f);
    fputc('\n', f);
}

static void print_head(FILE *f, Pos p, Severity sev, const char *code, const char *msg, DiagStyle st)
{
    if (st.color)
        fputs(C_BOLD, f);
    if (p.file && p.line)
        fprintf(f, "%s:%u:%u: ", p.file->name, (unsigned)p.line, (unsigned)p.col);
    else if (p.file)
        fprintf(f, "%s: ", p.file->name);
    else
        fputs("segc: ", f);
    if (st.color)
        fprintf(f, "%s%s:" C_RESET C_BOLD, sev_color(sev), severity_name(sev));
    else
        fprintf(f, "%s:", severity_name(sev));
    if (code)
        fprintf(f, " [%s]", code);
    fprintf(f, " %s", msg);
    if (st.color)
        fputs(C_RESET, f);
    fputc('\n', f);
}

void diags_print_text(FILE *f, const Diags *d, DiagStyle st)
{
    for (const Diag *g = d->head; g; g = g->next) {
        print_head(f, g->pos, g->sev, g->code, g->msg, st);
        print_excerpt(f, g->pos, st);
        if (g->fix)
            fprintf(f, "      = fix: %s\n", g->fix);
        for (const Note *n = g->notes; n; n = n->next) {
            print_head(f, n->pos, SEV_NOTE, NULL, n->msg, st);
            print_excerpt(f, n->pos, st);
        }
    }
}
