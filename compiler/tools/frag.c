/* SPDX-License-Identifier: MIT */
/* frag.c - templates/ compiled into segc: the text segc writes, in pieces.
 *
 *   frag OUT.h OUT.c FILE...
 *
 * A FILE named *.frag is a list of fragments: a line `@@ NAME` starts one,
 * and its text runs to the next such line (lines before the first are a
 * comment).  In the text, `${LABEL}` and `${LABEL:CONV}` are arguments,
 * `$$` is a `$`, and a `$` that ends a line joins it to the next
 * (compiler/emit_int.h documents the conversions).  Any other FILE is one
 * fragment, its whole text with no escapes, named after the file
 * (segc_dxgk.h: segc_dxgk_h).
 *
 * OUT.h declares, for each fragment, `static inline void NAME(Emit *w,
 * ARGS)`: one parameter per label, in the order the labels first appear,
 * typed by their conversion, so a call that does not match the text does
 * not compile (it returns at once when there is no text to write and the
 * fragment defines no name).  OUT.c holds the fragments as literal runs and argument
 * references, and the identifiers each defines at file scope: #define
 * names, typedef names, tags, enumerators, and the functions and objects
 * it defines (not those it only declares).  Those are found by reading
 * each file's fragments in order as one C text, which the fragments are
 * written to be; an identifier may be built from arguments
 * (`${up:n}_SEGMENT_${seg:n}`), and segc records it, so built, whenever it
 * writes the fragment (emit.c's names check). */
#include "cdefs.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ARGS = 16 };

/* Text, then optionally an argument. */
typedef struct Piece {
    size_t off, len; /* literal bytes, in the file's text array */
    int arg;         /* -1: none */
    char conv;
    int width;
} Piece;

typedef struct Pieces {
    Piece *p;
    int n, cap;
} Pieces;

typedef struct Frag {
    char *name;
    const char *path;
    int line;
    Pieces text;
    char *labels[MAX_ARGS];
    char types[MAX_ARGS]; /* s: text, n: a Name, u: a number, p: a position */
    int nargs;
    Pieces *defs;
    int ndefs;
    bool plain; /* a whole file */
} Frag;

/* A file's text as the C scan reads it (cu), and where each unit is:
 * its fragment, and the index of its piece in the fragment's text. */
typedef struct Unit {
    int frag, piece;
} Unit;
typedef struct Text {
    CUnit *cu;
    Unit *u;
    int n, cap;
} Text;

static Frag *frags;
static int nfrags;
static char *lits; /* every literal byte of every file */
static size_t nlits, litcap;

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

static void die(const char *path, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: ", path, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *grow(void *p, int *cap, int n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 16;
    p = realloc(p, (size_t)*cap * size);
    if (!p)
        die("frag", 0, "out of memory");
    return p;
}

static void unit(Text *t, int c, char conv, int frag, int piece)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1 << 14;
        t->cu = realloc(t->cu, (size_t)t->cap * sizeof *t->cu);
        t->u = realloc(t->u, (size_t)t->cap * sizeof *t->u);
        if (!t->cu || !t->u)
            die("frag", 0, "out of memory");
    }
    t->cu[t->n] = (CUnit){c, conv};
    t->u[t->n++] = (Unit){frag, piece};
}

static Piece *push(Pieces *ps)
{
    ps->p = grow(ps->p, &ps->cap, ps->n, sizeof *ps->p);
    ps->p[ps->n] = (Piece){nlits, 0, -1, 0, 0};
    return &ps->p[ps->n++];
}

static void lit(Pieces *ps, char c)
{
    if (!ps->n || ps->p[ps->n - 1].arg >= 0)
        push(ps);
    if (nlits == litcap) {
        litcap = litcap ? litcap * 2 : 1 << 16;
        lits = realloc(lits, litcap);
        if (!lits)
            die("frag", 0, "out of memory");
    }
    lits[nlits++] = c;
    ps->p[ps->n - 1].len++;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die(path, 0, "cannot read");
    size_t cap = 1 << 16;
    char *t = malloc(cap + 1);
    *len = 0;
    size_t n;
    while (t && (n = fread(t + *len, 1, cap - *len, f)) > 0)
        if ((*len += n) == cap)
            t = realloc(t, (cap *= 2) + 1);
    if (!t || ferror(f))
        die(path, 0, "cannot read");
    fclose(f);
    t[*len] = 0;
    return t;
}

static bool is_ident(const char *s)
{
    static const char *const reserved[] = {"w", "a", "auto", "break", "case", "char", "const", "continue",
        "default", "do", "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
        "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
        "union", "unsigned", "void", "volatile", "while"};
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (const char *c = s; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return false;
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (!strcmp(s, reserved[i]))
            return false;
    return true;
}

/* The C type a conversion takes: see emit_int.h. */
static char conv_type(char conv)
{
    return strchr("scqv", conv) ? 's' : conv == 'n' ? 'n' : strchr("uxzL", conv) ? 'u' : conv == '@' ? 'p' : 0;
}

/* `${LABEL[:CONV]}` at t (after the `${`); returns the byte after `}`. */
static const char *escape(Frag *f, const char *t, int line, Text *text)
{
    const char *end = strchr(t, '}'), *colon = memchr(t, ':', end ? (size_t)(end - t) : 0);
    if (!end || memchr(t, '\n', (size_t)(end - t)))
        die(f->path, line, "an unclosed ${ in fragment %s", f->name);
    char label[64];
    size_t ln = (size_t)((colon ? colon : end) - t);
    if (ln >= sizeof label)
        die(f->path, line, "a label too long");
    memcpy(label, t, ln);
    label[ln] = 0;
    if (!is_ident(label))
        die(f->path, line, "'%s' cannot be a label (a C identifier, not a keyword, w or a)", label);
    int width = 0;
    char conv = 's';
    if (colon) {
        const char *c = colon + 1;
        bool left = *c == '-';
        c += left;
        while (isdigit((unsigned char)*c))
            width = width * 10 + (*c++ - '0');
        conv = *c;
        if (c + 1 != end || !conv_type(conv))
            die(f->path, line, "'%.*s': a conversion is one of s n c q v u x z L @, after an optional width",
                (int)(end - colon - 1), colon + 1);
        if (width && (left ? !strchr("sn", conv) : conv != 'x'))
            die(f->path, line, "'%.*s': a width is -N before s or n (padding), or N before x (digits)",
                (int)(end - colon - 1), colon + 1);
    }
    int arg = 0;
    while (arg < f->nargs && strcmp(f->labels[arg], label))
        arg++;
    if (arg == f->nargs) {
        if (f->nargs == MAX_ARGS)
            die(f->path, line, "more than %d labels in fragment %s", MAX_ARGS, f->name);
        f->labels[f->nargs] = dup(label);
        f->types[f->nargs++] = conv_type(conv);
    } else if (f->types[arg] != conv_type(conv)) {
        die(f->path, line, "label '%s' used with conversions of two types", label);
    }
    Piece *p = f->text.n && f->text.p[f->text.n - 1].arg < 0 ? &f->text.p[f->text.n - 1] : push(&f->text);
    p->arg = arg;
    p->conv = conv;
    p->width = width;
    unit(text, -1, conv, (int)(f - frags), f->text.n - 1);
    return end + 1;
}

/* Reads the fragments of one file into frags, and its text as the C scan
 * reads it into *out. */
static void read_frags(const char *path, Text *out)
{
    size_t len;
    char *text = read_file(path, &len);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bl = strlen(base);
    bool plain = bl < 5 || strcmp(base + bl - 5, ".frag");
    Frag *f = NULL;
    int line = 1;
    for (const char *t = text; t < text + len;) {
        if (plain ? t == text : t[0] == '@' && t[1] == '@' && (t == text || t[-1] == '\n')) {
            char name[64];
            if (plain) {
                snprintf(name, sizeof name, "%s", base);
                for (char *c = name; *c; c++)
                    *c = isalnum((unsigned char)*c) ? *c : '_';
            } else if (sscanf(t, "@@ %63[A-Za-z0-9_]", name) != 1 || !is_ident(name)) {
                die(path, line, "`@@ NAME` needs a C identifier");
            }
            for (int i = 0; i < nfrags; i++)
                if (!strcmp(frags[i].name, name))
                    die(path, line, "a second fragment %s (the first is at %s:%d)", name, frags[i].path, frags[i].line);
            static int cap;
            frags = grow(frags, &cap, nfrags, sizeof *frags);
            f = &frags[nfrags++];
            *f = (Frag){dup(name), path, line, {0}, {0}, {0}, 0, NULL, 0, plain};
            if (!plain) {
                while (t < text + len && *t != '\n')
                    t++;
                t += t < text + len;
                line++;
                continue;
            }
        }
        if (!f) { /* the comment before the first fragment */
            line += *t++ == '\n';
            continue;
        }
        if (!plain && *t == '$') {
            if (t[1] == '$') {
                t++;
            } else if (t[1] == '\n') {
                t += 2;
                line++;
                continue;
            } else if (t[1] == '{') {
                t = escape(f, t + 2, line, out);
                continue;
            } else {
                die(path, line, "a $ that starts no escape (write $$ for a $)");
            }
        }
        lit(&f->text, *t);
        unit(out, (unsigned char)*t, 0, (int)(f - frags), f->text.n - 1);
        line += *t++ == '\n';
    }
}

/* ---- the C scan ---------------------------------------------------------- */

/* Records the identifier of units [from, to) as the fragment its first
 * unit is in defines it: literal bytes and arguments (without padding). */
static void add_def(void *ctx, int from, int to)
{
    const Text *text = ctx;
    const Unit *u = text->u;
    Frag *f = &frags[u[from].frag];
    for (int i = from; i < to; i++)
        if (u[i].frag != u[from].frag)
            die(f->path, f->line, "fragment %s: an identifier runs into the next fragment", f->name);
    static int cap;
    if (f->ndefs == 0)
        cap = 0;
    f->defs = grow(f->defs, &cap, f->ndefs, sizeof *f->defs);
    Pieces *d = &f->defs[f->ndefs++];
    *d = (Pieces){0};
    for (int i = from; i < to; i++) {
        if (text->cu[i].c >= 0) {
            lit(d, (char)text->cu[i].c);
            continue;
        }
        Piece *p = d->n && d->p[d->n - 1].arg < 0 ? &d->p[d->n - 1] : push(d);
        const Piece *src = &f->text.p[u[i].piece];
        p->arg = src->arg;
        p->conv = src->conv;
    }
}

/* ---- output ----------------------------------------------------------------- */

static const char *ctype(char type)
{
    return type == 's' ? "const char *" : type == 'n' ? "const Name *" : type == 'u' ? "uint64_t " : "Pos ";
}

/* The hash of an identifier that is all text, as emit.c's ident_hash
 * makes it; 0 for one built from arguments. */
static unsigned long def_hash(const Pieces *d)
{
    unsigned long h = 2166136261u;
    for (size_t k = 0; d->n == 1 && d->p[0].arg < 0 && k < d->p[0].len; k++)
        h = ((h ^ (unsigned char)lits[d->p[0].off + k]) * 16777619u) & 0xFFFFFFFFu;
    return d->n == 1 && d->p[0].arg < 0 ? h : 0;
}

/* The pieces of `ps` into frag_pieces; returns the next piece's index. */
static unsigned put_pieces(FILE *c, const Pieces *ps, unsigned at)
{
    for (int i = 0; i < ps->n; i++) {
        const Piece *p = &ps->p[i];
        fprintf(c, "    {%zu, %zu, %d, '%c', %d},\n", p->off, p->len, p->arg, p->arg < 0 ? ' ' : p->conv, p->width);
    }
    return at + (unsigned)ps->n;
}

/* The fragment that is a whole file (segc_dxgk.h), written the same for
 * every spec: its identifiers in an open-addressed table by hash, so that
 * segc compares a name with them without recording each (its declaration
 * into h, or the table into c). */
static void put_fixed(FILE *h, FILE *c)
{
    enum { SLOTS = 512 };
    unsigned short slot[SLOTS] = {0}; /* index + 1 in f->defs */
    const Frag *f = NULL;
    int first = 0; /* the frag_defs index of f's first identifier */
    for (int i = 0; i < nfrags; i++) {
        if (frags[i].plain && f)
            die(frags[i].path, 1, "a second whole file (the first is %s)", f->path);
        if (frags[i].plain)
            f = &frags[i];
        first += f ? 0 : frags[i].ndefs;
    }
    if (!f || 2 * f->ndefs > SLOTS)
        die(f ? f->path : "frag", 0, "no whole file among the fragments, or more than %d identifiers", SLOTS / 2);
    for (int d = 0; d < f->ndefs; d++) {
        const Piece *p = &f->defs[d].p[0], *q;
        unsigned k = (unsigned)def_hash(&f->defs[d]) & (SLOTS - 1);
        while (slot[k] && ((q = &f->defs[slot[k] - 1].p[0])->len != p->len || memcmp(lits + q->off, lits + p->off, p->len)))
            k = (k + 1) & (SLOTS - 1);
        if (!slot[k])
            slot[k] = (unsigned short)(d + 1);
    }
    if (h)
        fprintf(h, "\n/* The identifiers of %s, the whole file: frag_defs index + 1, by hash; 0: none. */\n"
                   "enum { FRAG_FIXED = FR_%s, FRAG_FIXED_SLOTS = %d };\nextern const unsigned short frag_fixed[];\n",
                f->name, f->name, SLOTS);
    if (!c)
        return;
    fputs("\nconst unsigned short frag_fixed[] = {", c);
    for (int k = 0; k < SLOTS; k++)
        fprintf(c, "%s%d,", k % 16 ? "" : "\n", slot[k] ? first + slot[k] : 0);
    fputs("\n};\n", c);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fputs("usage: frag OUT.h OUT.c FILE...\n", stderr);
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        Text text = {0};
        read_frags(argv[i], &text);
        cdefs_scan(text.cu, text.n, add_def, &text);
        free(text.cu);
        free(text.u);
    }
    FILE *h = fopen(argv[1], "wb"), *c = fopen(argv[2], "wb");
    if (!h || !c)
        die(argv[h ? 2 : 1], 0, "cannot write");
    fputs("/* Generated by compiler/tools/frag.c from templates/; do not edit. */\n"
          "#ifndef SEGC_FRAGS_H\n#define SEGC_FRAGS_H\n#include \"emit_int.h\"\n\nenum {\n", h);
    for (int i = 0; i < nfrags; i++)
        fprintf(h, "    FR_%s,\n", frags[i].name);
    fputs("    FRAG_COUNT\n};\nextern const char frag_text[];\nextern const FragPiece frag_pieces[];\n"
          "extern const FragSpan frag_defs[];\nextern const Frag frags[FRAG_COUNT];\n", h);
    for (int i = 0; i < nfrags; i++) {
        const Frag *f = &frags[i];
        fprintf(h, "\n/* %s:%d */\nstatic inline void %s(Emit *w", f->path, f->line, f->name);
        for (int a = 0; a < f->nargs; a++)
            fprintf(h, ", %s%s", ctype(f->types[a]), f->labels[a]);
        /* A fragment that defines no name has nothing to do without text. */
        const char *skip = f->ndefs ? "" : "    if (!w->out)\n        return;\n";
        if (!f->nargs) {
            fprintf(h, ")\n{\n%s    emitf(w, &frags[FR_%s], NULL);\n}\n", skip, f->name);
            continue;
        }
        fprintf(h, ")\n{\n%s    const FragArg a[] = {", skip);
        for (int a = 0; a < f->nargs; a++)
            fprintf(h, "%s{.%c = %s}", a ? ", " : "", f->types[a], f->labels[a]);
        fprintf(h, "};\n    emitf(w, &frags[FR_%s], a);\n}\n", f->name);
    }
    put_fixed(h, NULL);
    fputs("#endif\n", h);

    /* No pointers: nothing for the loader to relocate when segc starts. */
    fputs("/* Generated by compiler/tools/frag.c from templates/; do not edit. */\n#include \"frags.h\"\n\n"
          "const char frag_text[] = {", c);
    for (size_t i = 0; i < nlits; i++)
        fprintf(c, "%s%d,", i % 24 ? "" : "\n", (unsigned char)lits[i]);
    fputs("0};\n\nconst FragPiece frag_pieces[] = {\n", c);
    unsigned at = 0;
    for (int i = 0; i < nfrags; i++) {
        at = put_pieces(c, &frags[i].text, at);
        for (int d = 0; d < frags[i].ndefs; d++)
            at = put_pieces(c, &frags[i].defs[d], at);
    }
    fputs("};\n\nconst FragSpan frag_defs[] = {\n", c);
    at = 0;
    for (int i = 0; i < nfrags; i++) {
        at += (unsigned)frags[i].text.n;
        for (int d = 0; d < frags[i].ndefs; d++) {
            fprintf(c, "    {%u, %d, %luu}, /* %s */\n", at, frags[i].defs[d].n, def_hash(&frags[i].defs[d]),
                    frags[i].name);
            at += (unsigned)frags[i].defs[d].n;
        }
    }
    fputs("    {0, 0, 0}\n};\n\nconst Frag frags[FRAG_COUNT] = {\n", c);
    at = 0;
    for (int i = 0, def = 0; i < nfrags; i++) {
        const Frag *f = &frags[i];
        fprintf(c, "    {{%u, %d, 0}, {%d, %d, 0}}, /* %s */\n", at, f->text.n, def, f->ndefs, f->name);
        at += (unsigned)f->text.n;
        for (int d = 0; d < f->ndefs; d++)
            at += (unsigned)f->defs[d].n;
        def += f->ndefs;
    }
    fputs("};\n", c);
    put_fixed(NULL, c);
    if (fclose(h) || fclose(c))
        die(argv[1], 0, "cannot write");
    return 0;
}
