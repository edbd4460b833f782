/* SPDX-License-Identifier: MIT */
/* emit.c - the C code segc writes: which text, how often, with what.
 *
 * The text is in templates/ as fragments, compiled into segc when segc is
 * built (compiler/tools/frag.c); this file walks the checked model and
 * writes them, through emitf.  Every number written is computed here from
 * the model; each segment's descriptor, in every DDI form, is one loop
 * over fields.def.  The identifiers the outputs define are recorded as
 * they are written and compared (emit_name_clashes, names-generated-unique). */
#include "emit_int.h"
#include "frags.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- the writer ----------------------------------------------------------- */

/* buf_putn without the NUL, which emitf writes once at its end. */
static inline void put(Buf *b, const char *s, size_t n)
{
    if (b->cap - b->len <= n)
        buf_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void put_u(Buf *b, uint64_t v)
{
    char d[20], *p = d + sizeof d;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    put(b, p, (size_t)(d + sizeof d - p));
}

static void put_hex(Buf *b, uint64_t v, unsigned digits)
{
    char d[18], *p = d + sizeof d;
    unsigned n = 0;
    do
        *--p = "0123456789ABCDEF"[v & 15], n++;
    while ((v >>= 4) || n < digits);
    *--p = 'x';
    *--p = '0';
    put(b, p, (size_t)(d + sizeof d - p));
}

/* Spaces on the right of the `len` bytes of `s`, up to `width` UTF-8
 * characters. */
static void put_padded(Buf *b, const char *s, size_t len, unsigned width)
{
    size_t cols = 0;
    put(b, s, len);
    for (size_t i = 0; width && i < len; i++)
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    for (; cols < width; cols++)
        put(b, " ", 1);
}

/* A C string literal: octal escapes outside printable ASCII (a \x escape
 * would swallow a following hex digit), and no trigraph. */
static void put_cstr(Buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const char *c = s; *c; c++) {
        unsigned char u = (unsigned char)*c;
        const char *esc = u == '"' ? "\\\"" : u == '\\' ? "\\\\" : u == '\n' ? "\\n" : u == '\t' ? "\\t"
                        : u == '\r' ? "\\r" : u == '?' && c > s && c[-1] == '?' ? "\\?" : NULL;
        if (esc)
            buf_puts(b, esc);
        else if (u < 0x20 || u >= 0x7F)
            buf_printf(b, "\\%03o", u);
        else
            buf_putc(b, (char)u);
    }
    buf_putc(b, '"');
}

/* What a writer holds outside the arena (the writer is not used after). */
static void emit_done(Emit *w)
{
    buf_free(&w->str);
    buf_free(&w->scratch);
    free(w->defs);
}

static uint32_t ident_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Records the identifier of `span`, built from arguments `a`. */
static void define(Emit *w, const FragSpan *span, const FragArg *a)
{
    GROW(w->defs, w->ndefs, w->capdefs, 512);
    const FragPiece *p = &frag_pieces[span->first], *end = p + span->n;
    GenDef *g = &w->defs[w->ndefs++];
    *g = (GenDef){frag_text + p->off, p->len, span->hash, w->file, NULL};
    if (end - p > 1 || p->arg >= 0) { /* built from arguments */
        Buf *id = &w->scratch;
        id->len = 0;
        for (; p < end; p++) {
            put(id, frag_text + p->off, p->len);
            if (p->arg < 0)
                continue;
            const FragArg *x = &a[p->arg];
            if (p->conv == 'u')
                put_u(id, x->u);
            else if (p->conv == 'n')
                put(id, x->n->text, x->n->len);
            else
                put(id, x->s, strlen(x->s));
            if (p->conv == 'n' && (!g->on || x->n->kind > g->on->kind))
                g->on = x->n;
        }
        g->ident = arena_strndup(w->a, id->p, id->len);
        g->len = (unsigned)id->len;
        g->hash = ident_hash(g->ident, g->len);
    }
}

/* Writes fragment `f` with arguments `a` (frags.h's functions pass them by
 * label).  Its text is copied, and each argument written by its conversion:
 *
 *   ${x}  ${x:-N}   text, padded with spaces to N columns
 *   ${x:n}          a Name: its text, and a part of an identifier (-N pads)
 *   ${x:c}          text safe inside a comment: `*` `/` and `/` `*` split by a space
 *   ${x:q}          a C string literal
 *   ${x:v}          lines of C as they are (the hook files)
 *   ${x:u}          a number in decimal
 *   ${x:x}          0x and upper-case hex digits; ${x:Nx} at least N digits
 *   ${x:z}          0, or hex with a u suffix (0x1000u)
 *   ${x:L}          a LONGLONG: 0, 0x1000, or (LONGLONG)0x8000000000000000ULL
 *   ${x:@}          with --annotate, " [file.yaml:LINE]" of a position; else nothing
 *
 * With no output (w->out NULL) nothing is written.  Either way each
 * identifier the fragment defines at file scope is recorded in w->defs,
 * built from the same arguments (text, Names and numbers, unpadded). */
void emitf(Emit *w, const Frag *f, const FragArg *a)
{
    Buf *b = w->out;
    const FragPiece *p = &frag_pieces[f->text.first], *end = p + f->text.n;
    for (; b && p < end; p++) {
        put(b, frag_text + p->off, p->len);
        if (p->arg < 0)
            continue;
        const FragArg *x = &a[p->arg];
        switch (p->conv) {
        case 's':
        case 'v': put_padded(b, x->s, strlen(x->s), p->width); break;
        case 'n': put_padded(b, x->n->text, x->n->len, p->width); break;
        case 'c':
            for (const char *s = x->s; *s; s++) {
                put(b, s, 1);
                if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*'))
                    put(b, " ", 1);
            }
            break;
        case 'q': put_cstr(b, x->s); break;
        case 'u': put_u(b, x->u); break;
        case 'x': put_hex(b, x->u, p->width); break;
        case 'z':
        case 'L': /* 0, else hex: with a u suffix, or past INT64_MAX a LONGLONG cast and ULL */
            if (p->conv == 'L' && x->u > INT64_MAX)
                put(b, "(LONGLONG)", 10);
            if (x->u)
                put_hex(b, x->u, 0);
            else
                put(b, "0", 1);
            if (p->conv == 'z' && x->u)
                put(b, "u", 1);
            else if (p->conv == 'L' && x->u > INT64_MAX)
                put(b, "ULL", 3);
            break;
        case '@':
            if (w->annotate)
                buf_printf(b, " [%s:%u]", os_basename(x->p.file ? x->p.file->name : "?"), (unsigned)src_loc(x->p).line);
            break;
        default: BUG("a fragment conversion frag.c does not make");
        }
    }
    if (b && b->p)
        b->p[b->len] = 0;
    for (unsigned d = 0; d < f->defs.n && !w->saved; d++)
        define(w, &frag_defs[f->defs.first + d], a);
}

/* emit_str: the writer's output is w->str until emit_str_end.  w->saved
 * is set (to &w->str when there is no output) so that emitf records no
 * identifier of a string's fragment. */
void emit_str_begin(Emit *w)
{
    if (w->saved)
        BUG("emit_str nested");
    w->saved = w->out ? w->out : &w->str;
    w->str.len = 0;
    if (w->out)
        w->out = &w->str;
}

const char *emit_str_end(Emit *w)
{
    bool text = w->out == &w->str;
    w->out = text ? w->saved : NULL;
    w->saved = NULL;
    return text ? arena_strndup(w->a, w->str.p ? w->str.p : "", w->str.len) : "";
}

/* ---- what the text is written from ---------------------------------------- */

/* The DXGKDDI_INTERFACE_VERSION_ that declares QUERYSEGMENT3 and
 * QUERYSEGMENT4, by form index (the header asks for no other). */
static const char *const since[DDI_FORMS] = {NULL, "WIN8", "WDDM2_0"};

typedef struct Ctx {
    Emit *w;
    const Spec *s;
    const Lookup *lk;
    Name up, camel;       /* the board's, the hook prefix in front */
    Name *seg, *seg_camel; /* each segment's UPPER and Camel */
    Name *bar;            /* each BAR's UPPER */
    Name *cls;            /* each allocation class's UPPER */
    const char *header, *source, *spec, *ident;
    const char *hook[4];  /* prefix, banner, precomp, trace ("": none) */
    unsigned no_agp;      /* segments without the AGP one */
    const SrcFile *prefix_file; /* hook-prefix.txt, when read */
    FieldId members[DDI_FORMS][FIELD_COUNT]; /* each form's fields, in the order of its members */
    unsigned nmembers[DDI_FORMS];
} Ctx;

enum { HOOK_PREFIX, HOOK_BANNER, HOOK_PRECOMP, HOOK_TRACE };

/* The text at a position: the expression the spec wrote.  A plain scalar
 * written over several lines is folded as YAML reads it (a line break and
 * the next line's indentation become one space). */
static const char *pos_text(Ctx *c, Pos p)
{
    const SrcFile *f = p.file;
    const char *end = f->text + f->len;
    const char *t = f->text + (p.off < f->len ? p.off : f->len);
    Buf *b = &c->w->scratch;
    b->len = 0;
    for (size_t n = 0; t < end && n < (p.len ? p.len : 1) && *t != '\r'; n++) {
        if (*t != '\n') {
            put(b, t++, 1);
            continue;
        }
        while (b->len && (b->p[b->len - 1] == ' ' || b->p[b->len - 1] == '\t'))
            b->len--;
        for (t++; t < end && (*t == ' ' || *t == '\t'); t++)
            ;
        if (t == end || *t == '\n' || *t == '\r' || *t == '#')
            break;
        put(b, " ", 1);
    }
    return arena_strndup(c->w->a, b->p ? b->p : "", b->len);
}

/* The comment beside a value: its IEC size, then what the spec wrote
 * ("1GiB: min(size, 1GiB)"), or what it defaults to; with --annotate
 * where it is written (`at` when the spec did not write it).  "" when no
 * text is written. */
static const char *note(Ctx *c, FieldId fid, const void *owner, Pos at)
{
    static void (*const dflt[])(Emit *) = {
        [DEF_ZERO] = note_not_set, [DEF_PAGE] = note_page, [DEF_PREV_END] = note_prev_end,
        [DEF_SIZE] = note_size, [DEF_BANK_REST] = note_bank_rest, [DEF_BAR_BITS] = note_bar_bits};
    Emit *w = c->w;
    if (!w->out)
        return "";
    const FieldInfo *f = &field_table[fid];
    const Value *v = field_value(fid, owner);
    const char *expr = v->set && v->pos.file ? pos_text(c, v->pos) : emit_str(w, dflt[f->def](w));
    /* A byte count as a spec would write it (bytes_text, unless in hex: a
     * whole number of an IEC unit below 64 Ki of it, or below 1 KiB), when
     * the spec wrote something else. */
    const char *bytes = f->flags & FF_BYTES && v->v ? bytes_text(w->a, v->v) : NULL;
    if (bytes && strncmp(bytes, "0x", 2) && strcmp(bytes, expr))
        expr = emit_str(w, note_size_and(w, bytes, expr));
    return w->annotate ? emit_str(w, note_at(w, expr, v->set && v->pos.file ? v->pos : at)) : expr;
}

/* ---- <board>_segments.h ------------------------------------------------------ */

static void classes_header(Ctx *c);

static void header(Ctx *c)
{
    Emit *w = c->w;
    const Spec *s = c->s;
    spdx(w);
    if (*c->hook[HOOK_BANNER])
        hook(w, c->hook[HOOK_BANNER]);
    h_intro(w, c->header, s->name, SEGC_VERSION, c->spec, &c->up);
    for (unsigned i = 0; i < s->nsegs; i++)
        h_segment_id(w, &c->up, &c->seg[i], s->segs[i].id);
    /* DXGK_WDDMVERSION: 0x1000 stands for every WDDM 1.0/1.1 driver. */
    uint64_t caps = s->wddm < 0x12 ? 0x1000 : (uint64_t)(s->wddm >> 4) << 12 | (uint64_t)(s->wddm & 15) << 8;
    h_constants(w, &c->up, s->nsegs, c->no_agp, s->paging.seg ? s->paging.seg->id : 0, s->paging.buffer_size.v,
                s->paging.private_data_size.v, caps, arch_name(s->arch), c->source, s->ptr_bytes);
    for (unsigned i = 0; i < s->nbars; i++) {
        const Bar *b = &s->bars[i];
        h_bar(w, &c->up, &c->bar[i], i, note(c, F_bar_size, b, b->pos), b->index.v, bar_regs(b),
              bar_regs(b) == 2 ? 64 : 32);
    }
    h_bar_count(w, &c->up, s->nbars);
    for (unsigned i = 0; i < s->nbars || i == 0; i++) {
        if (i)
            sep(w);
        u_item(w, s->nbars ? s->bars[i].index.v : 0);
    }
    h_registers_table(w, &c->up);
    for (unsigned i = 0; i < s->nbars || i == 0; i++) {
        if (i)
            sep(w);
        u_item(w, s->nbars ? bar_regs(&s->bars[i]) : 0);
    }
    h_runtime(w);
    if (!s->nbars)
        h_runtime_no_bars(w);
    h_runtime_struct(w, &c->up, s->nbars ? s->nbars : 1);
    for (unsigned f = 1; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            h_form_version(w, since[f], c->header, DDI_SUFFIX(f));
    h_queries(w);
    for (unsigned f = 0, n = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f)) {
            if (n++)
                sep(w);
            form_name(w, DDI_SUFFIX(f));
        }
    h_queries_forward(w);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            h_queries_case(w, DDI_SUFFIX(f));
    h_queries_return(w, &c->camel);
    if (s->forms & DDI_QS4)
        h_queries_stride(w);
    h_queries_status(w);
    h_dispatch_prototype(w, &c->camel, &c->up);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f)) {
            if (f == 2)
                h_query4(w);
            else
                h_query_classic(w, DDI_SUFFIX(f));
            h_query_prototype(w, &c->camel, DDI_SUFFIX(f), &c->up);
        }
    h_location(w, &c->up);
    if (!c->lk->overlap[0])
        h_lookup(w, lookup_form_name(c->lk->form), c->lk->bytes, c->lk->loads, &c->camel, &c->up);
    else
        h_no_lookup(w, &c->camel, emit_str(w, overlap(w, c->lk->overlap[0]->name, c->lk->overlap[1]->name)));
    h_bank_of_offset(w, &c->camel);
    classes_header(c);
    h_generic(w, s->name, &c->up, !!(s->forms & DDI_QS), !!(s->forms & DDI_QS3), !!(s->forms & DDI_QS4), &c->camel);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            h_generic_query(w, DDI_SUFFIX(f), &c->camel);
    h_generic_rest(w, &c->up, c->no_agp != s->nsegs);
    if (!c->lk->overlap[0])
        h_generic_lookup(w, &c->camel);
    h_end(w, &c->camel, &c->up);
}

/* ---- <board>_segments.h and .c: the allocation classes ----------------------- */

/* The enum, each class's macros, the prototype and the DMA set; nothing
 * for a spec that writes neither `allocations:` nor `dma_buffer_segments:`. */
static void classes_header(Ctx *c)
{
    Emit *w = c->w;
    const Spec *s = c->s;
    Arena *a = w->a;
    if (s->nclasses) {
        h_classes(w, &c->up);
        for (unsigned i = 0; i < s->nclasses; i++)
            h_class_enum(w, &c->up, &c->cls[i], i);
        h_class_enum_end(w, &c->up, s->nclasses);
    }
    for (unsigned i = 0; i < s->nclasses; i++) {
        const AllocClass *k = &s->classes[i];
        uint64_t align = 0;
        for (unsigned j = 0; j < 2; j++) {
            const PlaceList *l = j ? class_read(k) : &k->write;
            for (unsigned p = 0; p < l->n; p++)
                align = l->p[p].seg->flags & FLAG_use_64kb_pages ? 0x10000 : align;
        }
        bool text = w->out != NULL; /* the comments only when text is written */
        h_class(w, k->name, &c->up, &c->cls[i], places_mask(&k->write), text ? places_text(a, &k->write, true) : "",
                places_mask(class_read(k)), text ? places_text(a, class_read(k), true) : "", places_mask(&k->evict),
                text ? places_text(a, &k->evict, true) : "", class_preferred(k),
                text ? places_text(a, &k->prefer, true) : "", class_hinted_bank(k),
                text ? places_text(a, &k->banks, true) : "", align);
    }
    if (s->nclasses)
        h_fill_prototype(w, &c->camel, &c->up);
    if (s->dma.set)
        h_dma(w, w->out ? places_text(a, &s->dma, true) : "", &c->up, places_mask(&s->dma));
}

static void classes_source(Ctx *c)
{
    Emit *w = c->w;
    const Spec *s = c->s;
    if (!s->nclasses)
        return;
    c_classes(w, &c->up, &c->camel, s->nclasses);
    for (unsigned i = 0; i < s->nclasses; i++)
        c_class_row(w, &c->up, &c->cls[i]);
    c_fill(w, &c->camel, &c->up);
}

/* ---- <board>_segments.c: the descriptors ------------------------------------- */

/* Writes field `fid` of segment `g` into its member of descriptor `d`
 * (the lvalue prefix, "pDesc[0]." or "pDesc->") of form `form`, as
 * fields.def says it is written. */
static void put_field(Ctx *c, const Segment *g, unsigned form, const char *d, FieldId fid)
{
    Emit *w = c->w;
    const Spec *s = c->s;
    const FieldInfo *f = &field_table[fid];
    const Value *v = field_value(fid, g);
    const char *m = f->dxgk;
    if (!f->at[form])
        BUG("a field written into a form fields.def says cannot carry it");
    bool host = form == 2 && g->host.mode != CPU_NONE; /* DESCRIPTOR4's union holds the host aperture */
    switch (f->write) {
    case WR_INT:
        if (f->flags & FF_BYTES)
            c_set(w, d, m, v->v, note(c, fid, g, g->pos));
        else if (f->flags & FF_WDDM2_2)
            c_set_count_wddm2_2(w, d, m, v->v, note(c, fid, g, g->pos));
        else
            c_set_count(w, d, m, v->v, note(c, fid, g, g->pos));
        break;
    case WR_QUAD: c_set_quad(w, d, m, v->v, note(c, fid, g, g->pos)); break;
    case WR_CPU:
        if (host || !(field_in_mode(fid, g->cpu) || (g->cpu == CPU_NONE && f->flags & FF_BAR)))
            break;
        if (g->cpu == CPU_BAR) {
            const Name *bar = &c->bar[g->cpu_bar - s->bars];
            if (form == 2)
                c_assert_bar4(w, &c->up, bar);
            else
                c_assert_bar(w, &c->up, bar, g->cpu_bar->name);
            if (v->v)
                c_set_cpu_bar_offset(w, d, m, &c->up, bar, v->v, g->cpu_bar->name, note(c, fid, g, g->pos));
            else
                c_set_cpu_bar(w, d, m, &c->up, bar, g->cpu_bar->name, g->cpu_pos.file ? g->cpu_pos : g->pos);
        } else if (g->cpu == CPU_ADDRESS) {
            c_set_quad(w, d, m, v->v, note(c, fid, g, g->pos));
        } else {
            c_set_cpu_none(w, d, m, g->cpu_pos.file ? g->cpu_pos : g->pos);
        }
        break;
    case WR_HOST:
        if (f->flags & (FF_BAR | FF_ADDRESS) && !field_in_mode(fid, g->host.mode))
            break;
        if (f->flags & FF_BAR) {
            const Name *bar = &c->bar[g->host.bar - s->bars];
            c_assert_bar4(w, &c->up, bar);
            c_set_host_bar(w, d, m, &c->up, bar);
            if (v->v)
                c_plus(w, v->v);
            c_set_host_bar_end(w, note(c, fid, g, g->pos));
        } else if (f->flags & FF_ADDRESS) {
            c_set_host_address(w, d, m, v->v, note(c, fid, g, g->pos));
        } else if (host) {
            c_set_host_pages(w, d, m, s->page_size.v ? g->host.size.v / s->page_size.v : 0);
            if (w->annotate)
                ann_comment(w, g->cpu_pos.file ? g->cpu_pos : g->pos);
            nl(w);
        } else {
            c_set_host_none(w, d, m, g->cpu_pos.file ? g->cpu_pos : g->pos);
        }
        break;
    case WR_BANKS: {
        Pos at = g->banks_pos.file ? g->banks_pos : g->pos;
        if (g->nbanks)
            c_set_banks(w, d, g->nbanks, g->name, at, m, &c->camel, &c->seg_camel[g->id - 1]);
        else
            c_set_no_banks(w, d, at, m);
        if (w->annotate)
            ann_comment(w, at);
        nl(w);
        break;
    }
    case WR_NONE: BUG("a field without a DXGK member written");
    }
}

/* The descriptor of non-AGP segment `g` in form `form`: its flags, then
 * every field of fields.def that the form carries, in the order of the
 * form's members. */
static void descriptor(Ctx *c, const Segment *g, unsigned form)
{
    Emit *w = c->w;
    /* The checks made sure of it (key-not-emitted's rows): the form has a
     * member for every key written and a bit for every flag. */
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        Pos at;
        if (field_written((FieldId)f, g, &at) && !field_in_form((FieldId)f, form))
            BUG("a key written for a segment that the form's descriptor cannot carry");
    }
    for (size_t i = 0; i < flag_count; i++)
        if ((g->flags & (1u << flag_table[i].bit)) && !flag_in_form(flag_table[i].bit, form))
            BUG("a flag the form's DXGK_SEGMENTFLAGS cannot carry");
    const char *d = form == 2 ? emit_str(w, desc4_at(w)) : emit_str(w, desc_at(w, g->id - 1));
    c_set_flags(w, d, &c->camel, g->id);
    const char *flags = w->out ? flags_text(w->a, g->flags, " | ", true) : NULL; /* in its comment */
    if (flags)
        text(w, flags);
    else
        no_flags(w);
    c_set_flags_end(w, g->flags_pos.file ? g->flags_pos : g->kind_pos.file ? g->kind_pos : g->pos);
    for (unsigned i = 0; i < c->nmembers[form]; i++)
        put_field(c, g, form, d, c->members[form][i]);
    if (form == 1)
        c_set_reserved(w, d);
}

static void query(Ctx *c, unsigned form)
{
    Emit *w = c->w;
    const Spec *s = c->s;
    const char *sfx = DDI_SUFFIX(form);
    bool agp = c->no_agp != s->nsegs;
    c_query(w, &c->camel, sfx, &c->up);
    if (form == 2) {
        c_query_stride_var(w);
    } else {
        if (agp)
            c_query_agp_vars(w);
        c_query_count_var(w);
    }
    if (!s->nbars)
        c_query_unused(w);
    c_query_null(w);
    if (s->nbars)
        c_query_null_runtime(w);
    c_query_checks(w, sfx);
    if (form == 2) {
        c_query4_calls(w, &c->up);
    } else {
        if (agp)
            c_query_agp_count(w, &c->up);
        else
            c_query_count(w, &c->up);
        c_query_calls(w, sfx);
    }
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (g->kind == SEG_AGP) {
            for (unsigned f = 0; f < FIELD_COUNT; f++) { /* key-not-emitted: the descriptor is the aperture's */
                Pos at;
                if (field_written((FieldId)f, g, &at) && !field_agp_ignored((FieldId)f))
                    BUG("a key written for the AGP segment, whose descriptor is the aperture's");
            }
            c_agp_segment(w, g->id, g->name, g->pos, i, &c->camel);
            if (form == 1)
                c_agp_segment_sysend(w, i);
            c_agp_segment_end(w);
            continue;
        }
        c_segment(w, g->id, g->name, seg_kind_name(g->kind), g->pos);
        if (form == 2)
            c_segment4(w, i);
        descriptor(c, g, form);
    }
    if (form == 2)
        c_query4_nb(w, &c->up);
    else
        c_query_nb(w);
    c_query_end(w, &c->up);
}

/* ---- <board>_segments.c: the lookup ---------------------------------------- */

/* Numbers as initializer rows: 64-bit values 4 to a line, table entries
 * (segment << 7 | bank reads at a glance in 3 hex digits) 16. */
static void rows(Emit *w, const uint64_t *v, const uint32_t *v32, size_t n)
{
    for (size_t i = 0; i < n && w->out; i++) { /* numbers: no name defined */
        if (i % (v ? 4 : 16) == 0)
            indent(w);
        if (v)
            c_row_u64(w, v[i]);
        else
            c_row_entry(w, v32[i]);
        if ((i + 1) % (v ? 4 : 16) == 0 || i + 1 == n)
            nl(w);
        else
            space(w);
    }
}

static void lookup_tables(Ctx *c)
{
    Emit *w = c->w;
    const Lookup *lk = c->lk;
    const char *type = lk->entry_bytes == 1 ? "UINT8" : lk->entry_bytes == 2 ? "UINT16" : "UINT32";
    c_lookup(w, lookup_form_name(lk->form), lk->bytes, lk->loads);
    if (lk->form == LOOKUP_DIRECT) {
        c_lookup_direct(w);
    } else {
        c_lookup_answer(w);
        if (lk->tag)
            c_lookup_tag(w, lk->tag);
        c_lookup_regions(w);
    }
    c_lookup_regions_head(w);
    for (unsigned i = 0; i < lk->nregions; i++)
        if (lk->regions[i].seg) {
            c_lookup_region(w, lk->regions[i].start, lk->regions[i].end, lk->regions[i].seg);
            if (lk->regions[i].bank)
                bank_n(w, lk->regions[i].bank);
            nl(w);
        }
    c_lookup_regions_end(w);
    if (lk->form == LOOKUP_SEARCH) {
        if (lk->nstarts > 1) {
            c_starts(w, lk->lo, &c->camel, lk->nstarts);
            rows(w, lk->starts, NULL, lk->nstarts);
            c_starts_end(w);
        }
        c_start_regions(w, type, &c->camel, lk->nstarts);
        rows(w, NULL, lk->start_region, lk->nstarts);
        c_start_regions_end(w);
    } else {
        if (lk->form == LOOKUP_DIRECT) {
            c_region(w, &c->camel, lk->nregions);
            for (int half = 0; half < 2; half++) {
                if (half)
                    c_region_half(w);
                for (unsigned i = 0; i < lk->nregions; i++) {
                    const LookupRegion *r = &lk->regions[i];
                    c_region_answer(w, half ? r->seg_base : (uint64_t)r->bank << 32 | r->seg);
                    /* "segment 2 bank 1", "2 bank 1" or "none": what it answers */
                    if (!r->seg)
                        c_region_none(w);
                    else if (half)
                        c_region_base_segment(w, r->seg);
                    else
                        c_region_segment(w, r->seg);
                    if (r->seg && r->bank)
                        bank_n(w, r->bank);
                    c_region_row_end(w);
                }
            }
            c_region_end(w);
        }
        for (unsigned l = 0; l < lk->nlevels; l++) {
            const LookupLevel *L = &lk->levels[l];
            c_level(w, l, L->shift);
            if (L->bits)
                c_level_mask(w, ((uint64_t)1 << L->bits) - 1);
            if (lk->tag)
                c_level_tag(w, lk->tag, l + 1);
            c_level_array(w, type, &c->camel, l, L->n);
            rows(w, NULL, L->entries, L->n);
            c_level_end(w);
        }
    }
    nl(w);
}

static void lookup_function(Ctx *c)
{
    Emit *w = c->w;
    const Lookup *lk = c->lk;
    c_lookup_function(w, &c->camel, &c->up);
    if (lk->nregions <= 1) {
        c_lookup_empty(w);
        c_function_end(w);
        return;
    }
    c_lookup_off(w);
    if (lk->lo)
        c_lookup_lo(w, lk->lo);
    if (lk->form == LOOKUP_DIRECT) {
        c_lookup_direct_code(w, lk->granule_log2, lk->nlevels ? lk->levels[0].n - 1 : 0, &c->camel);
        c_function_end(w);
        return;
    }
    c_lookup_entry(w);
    if (lk->form == LOOKUP_SEARCH)
        c_lookup_search_index(w);
    c_lookup_span(w, lk->span);
    if (lk->form == LOOKUP_SEARCH) {
        for (unsigned st = lk->nstarts / 2; st >= 1; st /= 2)
            c_lookup_step(w, &c->camel, st);
        c_lookup_search_answer(w, &c->camel);
    } else {
        for (unsigned l = 0; l < lk->nlevels; l++) {
            const LookupLevel *L = &lk->levels[l];
            if (l == 0)
                c_lookup_level0(w, &c->camel, L->shift);
            else
                c_lookup_level(w, lk->tag, &c->camel, l, L->bits, L->shift, ((uint64_t)1 << L->bits) - 1);
        }
    }
    c_lookup_answer_code(w, &c->camel);
    c_function_end(w);
}

static void source(Ctx *c)
{
    Emit *w = c->w;
    const Spec *s = c->s;
    const Lookup *lk = c->lk;
    spdx(w);
    if (*c->hook[HOOK_BANNER])
        hook(w, c->hook[HOOK_BANNER]);
    c_intro(w, c->source, s->name);
    for (unsigned f = 0, n = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f)) {
            if (n++)
                sep(w);
            query_type(w, DDI_SUFFIX(f));
        }
    c_intro_end(w, SEGC_VERSION, c->spec);
    if (*c->hook[HOOK_PRECOMP])
        hook(w, c->hook[HOOK_PRECOMP]);
    c_include(w, c->header);
    if (*c->hook[HOOK_TRACE])
        hook(w, c->hook[HOOK_TRACE]);
    c_trace(w, &c->camel, c->spec, arch_name(s->arch), s->ptr_bytes);
    if (s->ptr_bytes == 4)
        c_arch32(w, &c->up, c->ident, arch_name(s->arch));
    else
        c_arch64(w, &c->up, c->ident, arch_name(s->arch));
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (!g->nbanks)
            continue;
        c_banks(w, g->name, &c->camel, &c->seg_camel[i], g->nbanks);
        for (unsigned k = 0; k < g->nbanks; k++)
            c_bank(w, g->banks[k].end, k + 1, g->banks[k].name, g->banks[k].start);
        c_array_end(w);
        nl(w);
    }
    c_flags(w, &c->camel, s->nsegs + 1);
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        c_flags_row(w);
        unsigned n = 0;
        for (size_t k = 0; k < flag_count; k++)
            if (g->flags & (1u << flag_table[k].bit)) {
                if (n++)
                    sep(w);
                flag_set(w, flag_table[k].dxgk);
            }
        if (!n)
            flag_none(w);
        c_flags_row_end(w, g->id, g->name, g->flags);
    }
    c_flags_end(w, &c->camel);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            c_alloc_text(w, &c->camel, DDI_SUFFIX(f));
    c_alloc_text_end(w);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            query(c, f);
    c_dispatch(w, &c->camel, &c->up);
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            c_dispatch_case(w, DDI_SUFFIX(f), &c->camel);
    c_dispatch_end(w, &c->camel);
    if (!lk->overlap[0]) {
        lookup_tables(c);
        c_segment_base(w, &c->camel, s->nsegs + 1);
        for (unsigned i = 0; i < s->nsegs; i++)
            c_segment_row(w, s->segs[i].base.v, s->segs[i].id, s->segs[i].name);
        c_segment_base_end(w);
    } else {
        c_segment_size_only(w);
    }
    c_segment_size(w, &c->camel, s->nsegs + 1);
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (g->kind == SEG_AGP)
            c_segment_size_agp(w, g->id, g->name);
        else
            c_segment_row(w, g->size.v, g->id, g->name);
    }
    c_segment_size_end(w);
    if (!lk->overlap[0])
        lookup_function(c);
    c_bank_of_offset(w, &c->camel);
    if (!lk->overlap[0]) {
        c_bank_of_offset_location(w, &c->up);
        c_bank_of_offset_check(w, s->nsegs, &c->camel);
        c_bank_of_offset_lookup(w, &c->camel);
        return;
    }
    c_bank_of_offset_check(w, s->nsegs, &c->camel);
    c_bank_of_offset_walk(w);
    for (unsigned i = 0; i < s->nsegs; i++)
        if (s->segs[i].nbanks)
            c_bank_of_offset_case(w, s->segs[i].id, &c->camel, &c->seg_camel[i]);
    c_bank_of_offset_walk_end(w);
}

/* ---- the names the hooks, the board, the segments and the BARs give -------- */

static const char *const hook_names[] = {"prefix", "banner", "precomp", "trace"};

/* The text of hook file `src` with its {{ NAME }}s replaced, trailing
 * blanks cut; NULL after an error at the file. */
static const char *hook_text(Ctx *c, const SrcFile *src, Diags *d)
{
    /* What a hook file may name: {{ NAME }} (templates/README.md). */
    const char *names[] = {"board.name", "board.upper", "board.camel", "spec.file", "segc.version", "header",
                           "source"};
    const char *values[] = {c->s->name, c->up.text, c->camel.text, c->spec, SEGC_VERSION, c->header, c->source};
    Buf b = {0};
    const char *t = src->text, *end = t + src->len;
    while (t < end) {
        if (t + 1 < end && t[0] == '{' && (t[1] == '{' || t[1] == '%')) {
            const char *n = t + 2, *e;
            while (n < end && (*n == ' ' || *n == '\t'))
                n++;
            for (e = n; e < end && (isalnum((unsigned char)*e) || *e == '_' || *e == '.'); e++)
                ;
            const char *close = e;
            while (close < end && (*close == ' ' || *close == '\t'))
                close++;
            const char *const *k = t[1] == '{' && close + 1 < end && close[0] == '}' && close[1] == '}'
                                       ? NAMED(names, countof(names), n, (size_t)(e - n)) : NULL;
            if (!k) {
                fatal_at(d, C_template, pos_at(src, (size_t)(t - src->text), 2),
                         "a hook file substitutes only {{ board.name }}, {{ board.upper }}, {{ board.camel }}, "
                         "{{ spec.file }}, {{ segc.version }}, {{ header }} and {{ source }}");
                buf_free(&b);
                return NULL;
            }
            buf_puts(&b, values[k - names]);
            t = close + 2;
            continue;
        }
        buf_putc(&b, *t++);
    }
    while (b.len && (b.p[b.len - 1] == '\n' || b.p[b.len - 1] == ' ' || b.p[b.len - 1] == '\r'))
        b.len--;
    const char *text = arena_strndup(c->w->a, b.p ? b.p : "", b.len);
    buf_free(&b);
    return text;
}

static Name name_of(const char *text, NameKind kind, unsigned index)
{
    return (Name){text, kind, index, strlen(text)};
}

static void set_board_names(Ctx *c, const char *prefix)
{
    Arena *a = c->w->a;
    c->up = name_of(*prefix ? arena_printf(a, "%s_%s", to_upper(a, prefix), c->s->upper) : c->s->upper, NAME_BOARD, 0);
    c->camel = name_of(*prefix ? arena_printf(a, "%s%s", prefix, c->s->camel) : c->s->camel, NAME_BOARD, 0);
}

/* The hook files of --templates DIR (each read if present), the board's,
 * segments' and BARs' names.  False after an error. */
static bool ctx_init(Ctx *c, Emit *w, const Spec *s, const BuildOpts *o, const Lookup *lk, Outputs *out, Diags *d)
{
    Arena *a = w->a;
    *c = (Ctx){.w = w, .s = s, .lk = lk};
    c->header = arena_printf(a, "%s_segments.h", s->name);
    c->source = arena_printf(a, "%s_segments.c", s->name);
    c->spec = os_basename(s->file->name);
    char *ident = arena_strdup(a, c->spec); /* the file name as a C identifier, for _Static_assert's message */
    for (char *p = ident; *p; p++)
        *p = (char)(isalnum((unsigned char)*p) && (unsigned char)*p < 0x80 ? *p : '_');
    c->ident = ident;
    for (unsigned i = 0; i < s->nsegs; i++)
        c->no_agp += s->segs[i].kind != SEG_AGP;
    c->seg = arena_alloc(a, (s->nsegs + 1) * sizeof *c->seg);
    c->seg_camel = arena_alloc(a, (s->nsegs + 1) * sizeof *c->seg_camel);
    for (unsigned i = 0; i < s->nsegs; i++) {
        c->seg[i] = name_of(to_upper(a, s->segs[i].name), NAME_SEGMENT, i);
        c->seg_camel[i] = name_of(to_camel(a, s->segs[i].name), NAME_SEGMENT, i);
    }
    c->bar = arena_alloc(a, (s->nbars + 1) * sizeof *c->bar);
    for (unsigned i = 0; i < s->nbars; i++)
        c->bar[i] = name_of(to_upper(a, s->bars[i].name), NAME_BAR, i);
    c->cls = arena_alloc(a, (s->nclasses + 1) * sizeof *c->cls);
    for (unsigned i = 0; i < s->nclasses; i++)
        c->cls[i] = name_of(to_upper(a, s->classes[i].name), NAME_CLASS, i);
    for (unsigned form = 0; form < DDI_FORMS; form++) /* the fields of each form answered, by place */
        for (unsigned at = 1; s->forms & (1u << form) && at <= DDI_MEMBERS; at++)
            for (unsigned f = 0; f < FIELD_COUNT; f++)
                if (field_table[f].at[form] == at)
                    c->members[form][c->nmembers[form]++] = (FieldId)f;
    set_board_names(c, "");
    for (size_t i = 0; i < countof(c->hook); i++)
        c->hook[i] = "";
    if (!o || !o->templates_dir)
        return true;
    static const char *const gone[] = {"segments.h.tmpl", "segments.c.tmpl", "selftest.c.tmpl", "segc_dxgk.h"};
    for (size_t i = 0; i < countof(gone); i++) {
        const char *p = arena_printf(a, "%s/%s", o->templates_dir, gone[i]);
        if (os_kind(p) != OS_MISSING) {
            fatal_at(d, C_template, (Pos){0},
                     "%s: segc no longer renders whole templates; --templates reads only the hook files "
                     "hook-banner.txt, hook-precomp.txt, hook-trace.txt and hook-prefix.txt (templates/README.md)",
                     p);
            return false;
        }
    }
    for (size_t i = 0; i < countof(hook_names); i++) {
        const char *p = arena_printf(a, "%s/hook-%s.txt", o->templates_dir, hook_names[i]);
        if (os_kind(p) == OS_MISSING)
            continue;
        const SrcFile *src = src_read(a, p, d);
        if (!src)
            return false;
        if (out->nhooks < MAX_OUTPUTS)
            out->hooks[out->nhooks++] = src;
        const char *text = hook_text(c, src, d);
        if (!text)
            return false;
        c->hook[i] = text;
        if (i == HOOK_PREFIX && *text && !is_c_ident(text)) {
            fatal_at(d, C_template, src_pos(src, 1, 1, 0), "hook-prefix.txt must hold a C identifier, not '%s'", text);
            return false;
        }
        if (i == HOOK_PREFIX) { /* ContosoD8 -> XyzContosoD8, CONTOSO_D8 -> XYZ_CONTOSO_D8 */
            set_board_names(c, text);
            c->prefix_file = src;
        }
    }
    return true;
}

/* ---- rendering, and the names the outputs define ---------------------------- */

/* The first `n` outputs (the self-test the fourth), each one's text into
 * `out` when its bit of `text` is set, and the names each defines. */
static void render(Ctx *c, Outputs *out, unsigned text, unsigned n)
{
    Emit *w = c->w;
    const char *names[] = {c->header, c->source, "segc_dxgk.h", arena_printf(w->a, "%s_selftest.c", c->s->name)};
    const FragPiece *whole = &frag_pieces[frags[FRAG_FIXED].text.first]; /* one piece: a whole file */
    for (unsigned i = 0; i < n; i++) {
        Output *f = text & (1u << i) ? &out->files[out->n++] : NULL;
        if (f)
            f->name = names[i];
        w->out = f && i != 2 ? &f->text : NULL;
        if (w->out) /* enough for most boards: the text is not copied as it grows */
            buf_reserve(w->out, 1u << 15);
        w->file = names[i];
        if (i == 0) {
            header(c);
        } else if (i == 1) {
            source(c), classes_source(c);
        } else if (i == 3) {
            selftest_write(w, c->s, c->lk, &(SelftestNames){&c->up, &c->camel, c->seg, c->bar, c->cls, c->header,
                           c->source, names[3], c->spec, c->hook[HOOK_BANNER]});
        } else { /* segc_dxgk.h: segc's own text, not copied (cap 0); its names are frag_fixed's */
            w->fixed_at = w->ndefs, w->fixed_file = names[i];
            if (f)
                f->text = (Buf){(char *)(uintptr_t)(frag_text + whole->off), whole->len, 0};
        }
    }
    w->out = NULL;
}

/* The spec's name a Name is made from. */
static const char *name_text(const Spec *s, const Name *n)
{
    return n->kind == NAME_BAR ? s->bars[n->index].name : n->kind == NAME_SEGMENT ? s->segs[n->index].name
                                                        : s->classes[n->index].name;
}

/* Adds the clash of definition x with y, the first of its identifier, to
 * out (*n of them, room for *cap): where at least one is built from a name
 * of the spec, once per pair of origins; two different entries of one
 * name are names-unique's to report. */
static void clash(const Emit *w, const Spec *s, const GenDef *y, const GenDef *x, NameClash **out, unsigned *n,
                  unsigned *cap)
{
    if (!x->on && !y->on)
        return; /* segc's own text: its #if branches may define a name twice */
    if (x->on && y->on && x->on->kind == y->on->kind && x->on->index != y->on->index && x->on->kind != NAME_BOARD &&
        !strcmp(name_text(s, x->on), name_text(s, y->on)))
        return;
    NameClash k = {arena_strndup(w->a, x->ident, x->len),
                   {{y->on ? y->on->kind : 0, y->on ? y->on->index : 0, y->file},
                    {x->on ? x->on->kind : 0, x->on ? x->on->index : 0, x->file}}};
    for (unsigned j = 0; j < *n; j++)
        if ((*out)[j].def[0].kind == k.def[0].kind && (*out)[j].def[0].index == k.def[0].index &&
            (*out)[j].def[1].kind == k.def[1].kind && (*out)[j].def[1].index == k.def[1].index)
            return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        NameClash *grown = arena_alloc(w->a, *cap * sizeof *grown);
        if (*n)
            memcpy(grown, *out, *n * sizeof *grown);
        *out = grown;
    }
    (*out)[(*n)++] = k;
}

/* The first definition of segc_dxgk.h (frag_fixed) of x's identifier, in
 * *y: its index in frag_defs, or -1. */
static int fixed(const Emit *w, const GenDef *x, GenDef *y)
{
    for (unsigned h = x->hash & (FRAG_FIXED_SLOTS - 1); frag_fixed[h]; h = (h + 1) & (FRAG_FIXED_SLOTS - 1)) {
        const FragSpan *d = &frag_defs[frag_fixed[h] - 1];
        const FragPiece *p = &frag_pieces[d->first];
        *y = (GenDef){frag_text + p->off, p->len, d->hash, w->fixed_file, NULL};
        if (d->hash == x->hash && p->len == x->len && !memcmp(y->ident, x->ident, x->len))
            return frag_fixed[h] - 1;
    }
    return -1;
}

/* The identifiers defined twice, as clash() keeps them, each where it is
 * defined again, in order: w->defs, and segc_dxgk.h's at w->fixed_at (a
 * name of the spec defined before and there too is found from the name). */
static NameClash *clashes(const Emit *w, const Spec *s, unsigned *n)
{
    unsigned cap = 16;
    while (cap < 2 * w->ndefs)
        cap *= 2;
    int *slot = arena_alloc(w->a, cap * sizeof *slot); /* index + 1 of an identifier's first definition */
    unsigned *early = NULL; /* first definitions before segc_dxgk.h of names it defines too, in its order */
    NameClash *out = NULL;
    unsigned outcap = 0, nearly = 0;
    *n = 0;
    for (unsigned i = 0; i <= w->ndefs; i++) {
        GenDef f;
        for (unsigned e = 0; w->fixed_file && i == w->fixed_at && e < nearly; e++) {
            fixed(w, &w->defs[early[e]], &f);
            clash(w, s, &w->defs[early[e]], &f, &out, n, &outcap);
        }
        if (i == w->ndefs)
            break;
        const GenDef *x = &w->defs[i], *y;
        uint32_t h = x->hash & (cap - 1);
        while (slot[h] && ((y = &w->defs[slot[h] - 1])->len != x->len || y->hash != x->hash ||
                           memcmp(y->ident, x->ident, x->len)))
            h = (h + 1) & (cap - 1);
        int k = w->fixed_file && (i >= w->fixed_at || x->on) && !slot[h] ? fixed(w, x, &f) : -1;
        if (slot[h])
            clash(w, s, &w->defs[slot[h] - 1], x, &out, n, &outcap);
        else if (k >= 0 && i >= w->fixed_at)
            clash(w, s, &f, x, &out, n, &outcap);
        else
            slot[h] = (int)i + 1;
        if (k < 0 || i >= w->fixed_at)
            continue;
        if (!early)
            early = arena_alloc(w->a, w->fixed_at * sizeof *early);
        unsigned e = nearly++;
        for (; e && fixed(w, &w->defs[early[e - 1]], &f) > k; e--)
            early[e] = early[e - 1];
        early[e] = i;
    }
    return out;
}

/* Every output of `segc build --emit-selftest` without hook files, with
 * the default lookup budget: the identifiers in w (the board's Names they
 * point to are in the arena, with the Ctx), and the text of the files of
 * out->build when it renders alike (no hook files, no --annotate, the
 * default budget). */
static void collect(Emit *w, const Spec *s, Outputs *out)
{
    Lookup lk;
    layout_lookup(w->a, s, 0, &lk);
    Ctx *c = arena_alloc(w->a, sizeof *c);
    const BuildOpts *o = out ? out->build : NULL;
    bool text = o && !o->templates_dir && !o->annotate && !o->lookup_budget;
    ctx_init(c, w, s, NULL, &lk, out, NULL);
    render(c, out, text ? (out->build->emit_selftest ? 15u : 7u) : 0, 4);
}

NameClash *emit_name_clashes(Arena *a, const Spec *s, Outputs *out, unsigned *n)
{
    Emit w = {.a = a};
    collect(&w, s, out);
    NameClash *k = clashes(&w, s, n);
    emit_done(&w);
    return k;
}

const GenDef *emit_defs(Arena *a, const Spec *s, unsigned *n)
{
    Emit w = {.a = a};
    collect(&w, s, NULL);
    const FragSpan fx = frags[FRAG_FIXED].defs; /* segc_dxgk.h's, where it is written */
    GenDef *defs = arena_alloc(a, (w.ndefs + fx.n + 1) * sizeof *defs);
    memcpy(defs, w.defs, w.fixed_at * sizeof *defs);
    for (unsigned i = 0; i < fx.n; i++) {
        const FragPiece *p = &frag_pieces[frag_defs[fx.first + i].first];
        defs[w.fixed_at + i] = (GenDef){frag_text + p->off, p->len, frag_defs[fx.first + i].hash, w.fixed_file, NULL};
    }
    memcpy(defs + w.fixed_at + fx.n, w.defs + w.fixed_at, (w.ndefs - w.fixed_at) * sizeof *defs);
    *n = w.ndefs + fx.n;
    emit_done(&w);
    return defs;
}

/* ---- preconditions: the invariants the emitted code relies on --------------- */

/* The checkers of the invariants (check.c) over the model about to be
 * emitted, and the one fact of the model they take as given: segment ids
 * are 1-based positions (resolve.c), which every emitted table indexes by. */
bool emit_preconditions(Arena *a, const Spec *s, Diags *d)
{
    const Segment *g = NULL;
    const char *what = NULL;
    Code broken = check_invariants(a, s, &g, &what);
    if (broken != CODE_NONE)
        fatal_at(d, C_internal, g ? g->pos : s->name_pos,
                 "internal error: the invariant [%s] does not hold%s (%s), yet the checks passed; segc refuses to "
                 "write code that relies on it", code_name(broken),
                 g ? arena_printf(a, " for segment '%s'", g->name) : "", what);
    for (unsigned i = 0; broken == CODE_NONE && i < s->nsegs; i++)
        if (s->segs[i].id != i + 1) {
            fatal_at(d, C_internal, s->segs[i].pos, "internal error: segment '%s' at position %u has id %u",
                     s->segs[i].name, i + 1, s->segs[i].id);
            return false;
        }
    return broken == CODE_NONE;
}

bool emit_render(Arena *a, const Spec *s, const BuildOpts *o, Lookup *lk, Outputs *out, Diags *d)
{
    if (!emit_preconditions(a, s, d)) {
        outputs_free(out);
        return false;
    }
    layout_lookup(a, s, o->lookup_budget, lk);
    if (out->n) /* the names check rendered them, and compared what they define */
        return true;
    Emit w = {.a = a, .annotate = o->annotate};
    Ctx c;
    if (!ctx_init(&c, &w, s, o, lk, out, d))
        return false;
    render(&c, out, 15, o->emit_selftest ? 4 : 3);
    unsigned n;
    const NameClash *k = clashes(&w, s, &n);
    emit_done(&w);
    /* check compared the names of the same outputs without the hook
     * files, and no prefix can make a name of the board one of segc's. */
    if (n)
        fatal_at(d, C_internal, s->name_pos,
                 "internal error: the invariant [%s] does not hold for %s (in %s and %s%s), yet the checks passed; "
                 "segc refuses to write code that relies on it", code_name(R_names_generated_unique), k->ident,
                 k->def[0].file, k->def[1].file, c.prefix_file ? ", with the prefix of hook-prefix.txt" : "");
    if (n)
        outputs_free(out);
    return !n;
}

void outputs_free(Outputs *out)
{
    for (unsigned i = 0; i < out->n; i++)
        if (out->files[i].text.cap) /* else segc_dxgk.h's, segc's own */
            buf_free(&out->files[i].text);
    out->n = 0;
}
