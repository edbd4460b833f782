/* SPDX-License-Identifier: MIT */
/* emit.c - the model as template data, and the templates rendered.
 *
 * The C code segc writes lives in templates/ as data (see
 * templates/README.md); this file only decides what the templates see.
 * Every number is computed here, once, from the checked model, so the
 * templates hold no arithmetic beyond `id - 1`. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

/* "file:line" of `p`, or of `fallback` for a value the spec did not write. */
static const char *src_at(Arena *a, Pos p, Pos fallback)
{
    p = p.file ? p : fallback;
    return arena_printf(a, "%s:%u", os_basename(p.file ? p.file->name : "?"), (unsigned)p.line);
}

/* The text at a position: the expression the spec wrote.  A plain scalar
 * written over several lines is folded as YAML reads it (a line break and
 * the next line's indentation become one space). */
static const char *pos_text(Arena *a, Pos p)
{
    SrcLine l = {0};
    src_line(&l, p.file, p.line);
    const char *t = l.start + p.col - 1, *end = p.file->text + p.file->len;
    Buf b = {0};
    for (size_t n = 0; t < end && n < (p.len ? p.len : 1) && *t != '\r'; n++) {
        if (*t != '\n') {
            buf_putc(&b, *t++);
            continue;
        }
        while (b.len && (b.p[b.len - 1] == ' ' || b.p[b.len - 1] == '\t'))
            b.len--;
        for (t++; t < end && (*t == ' ' || *t == '\t'); t++)
            ;
        if (t == end || *t == '\n' || *t == '\r' || *t == '#')
            break;
        buf_putc(&b, ' ');
    }
    const char *r = arena_printf(a, "%.*s", (int)b.len, b.p ? b.p : "");
    buf_free(&b);
    return r;
}

/* The comment next to a value in the generated code: its IEC size, then
 * what the spec wrote ("1GiB: min(size, 1GiB)"), then with --annotate
 * where it wrote it. */
static const char *value_note(Arena *a, const FieldInfo *f, const Value *v, Pos owner, bool annotate)
{
    static const char *const dflt[] = {"not set", "the arch's page size", "the end of the previous segment",
                                       "the segment's size", "the rest of the segment", "by size"};
    const char *expr = v->set && v->pos.file ? pos_text(a, v->pos) : dflt[f->def];
    const char *iec = f->flags & FF_BYTES && v->v ? bytes_text(a, v->v) : NULL;
    const char *note = iec && strncmp(iec, "0x", 2) && strcmp(iec, expr) ? arena_printf(a, "%s: %s", iec, expr) : expr;
    return annotate ? arena_printf(a, "%s [%s]", note, src_at(a, v->set ? v->pos : owner, owner)) : note;
}

/* Every field of `scopes` with a template name, as an integer, and its
 * comment in the map `note`. */
static void put_fields(Arena *a, TVal *m, unsigned scopes, const void *owner, Pos pos, bool annotate)
{
    TVal *notes = tv_map(a);
    for (unsigned f = 0; f < FIELD_COUNT; f++)
        if (scopes & SCOPE(field_table[f].scope) && field_table[f].tmpl) {
            const Value *v = field_value((FieldId)f, owner);
            tv_put(a, m, field_table[f].tmpl, tv_int(a, v->v));
            tv_put(a, notes, field_table[f].tmpl, tv_str(a, value_note(a, &field_table[f], v, pos, annotate)));
        }
    tv_put(a, m, "note", notes);
}

static TVal *segment_data(Arena *a, const Spec *s, const Segment *g, const BuildOpts *o)
{
    TVal *m = tv_map(a);
    tv_put(a, m, "id", tv_int(a, g->id));
    tv_put(a, m, "name", tv_str(a, g->name));
    tv_put(a, m, "upper", tv_str(a, to_upper(a, g->name)));
    tv_put(a, m, "camel", tv_str(a, to_camel(a, g->name)));
    tv_put(a, m, "kind", tv_str(a, seg_kind_name(g->kind)));
    tv_put(a, m, "is_agp", tv_bool(a, g->kind == SEG_AGP));
    tv_put(a, m, "is_aperture", tv_bool(a, g->kind == SEG_APERTURE));
    tv_put(a, m, "is_memory", tv_bool(a, g->kind == SEG_MEMORY));
    tv_put(a, m, "flags", tv_int(a, g->flags));
    TVal *names = tv_list(a);
    for (size_t i = 0; i < flag_count; i++)
        if (g->flags & (1u << flag_table[i].bit))
            tv_push(a, names, tv_str(a, flag_table[i].dxgk));
    tv_put(a, m, "flag_names", names);
    tv_put(a, m, "nflags", tv_int(a, names->n));
    put_fields(a, m, SCOPE(SC_SEG) | SCOPE(SC_CPU) | SCOPE(SC_VPR) | SCOPE(SC_HOST) | SCOPE(SC_QS4), g, g->pos,
               o->annotate);
    TVal *at = tv_map(a); /* --annotate: where the values without an expression come from */
    tv_put(a, at, "flags", tv_str(a, src_at(a, g->flags_pos, g->kind_pos.file ? g->kind_pos : g->pos)));
    tv_put(a, at, "cpu", tv_str(a, src_at(a, g->cpu_pos, g->pos)));
    tv_put(a, at, "banks", tv_str(a, src_at(a, g->banks_pos, g->pos)));
    tv_put(a, m, "at", at);
    tv_put(a, m, "end", tv_int(a, g->base.v + g->size.v));
    static const char *const cpu[] = {"none", "bar", "address"};
    tv_put(a, m, "cpu", tv_str(a, cpu[g->cpu]));
    if (g->cpu == CPU_BAR && g->cpu_bar) {
        tv_put(a, m, "bar_name", tv_str(a, g->cpu_bar->name));
        tv_put(a, m, "bar_upper", tv_str(a, to_upper(a, g->cpu_bar->name)));
        tv_put(a, m, "bar_slot", tv_int(a, (uint64_t)(g->cpu_bar - s->bars)));
    }
    TVal *banks = tv_list(a);
    for (unsigned i = 0; i < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        TVal *bm = tv_map(a);
        tv_put(a, bm, "index", tv_int(a, i));
        tv_put(a, bm, "name", tv_str(a, b->name));
        tv_put(a, bm, "upper", tv_str(a, to_upper(a, b->name)));
        tv_put(a, bm, "start", tv_int(a, b->start));
        tv_put(a, bm, "end", tv_int(a, b->end));
        tv_put(a, bm, "size", tv_int(a, b->end - b->start));
        tv_push(a, banks, bm);
    }
    tv_put(a, m, "banks", banks);
    tv_put(a, m, "nbanks", tv_int(a, g->nbanks));
    tv_put(a, m, "src", tv_str(a, src_at(a, g->pos, g->pos)));
    /* DESCRIPTOR4 only. */
    tv_put(a, m, "host", tv_str(a, cpu[g->host.mode]));
    if (g->host.mode == CPU_BAR)
        tv_put(a, m, "host_bar_upper", tv_str(a, to_upper(a, g->host.bar->name)));
    tv_put(a, m, "host_pages", tv_int(a, s->page_size.v ? g->host.size.v / s->page_size.v : 0));
    return m;
}

/* Numbers as C initializer rows: 64-bit values `v` as hex ull literals,
 * 4 to a line; table entries `v32` as 3-digit hex (segment << 7 | bank
 * reads at a glance), 16 to a line. */
static TVal *rows_u64(Arena *a, const uint64_t *v, const uint32_t *v32, size_t n)
{
    TVal *rows = tv_list(a);
    Buf b = {0};
    for (size_t i = 0; i < n; i++) {
        buf_printf(&b, v ? "0x%llXu," : "0x%03llX,", (unsigned long long)(v ? v[i] : v32[i]));
        if ((i + 1) % (v ? 4 : 16) == 0 || i + 1 == n) {
            tv_push(a, rows, tv_str(a, b.p));
            b.len = 0;
        } else {
            buf_putc(&b, ' ');
        }
    }
    buf_free(&b);
    return rows;
}

static TVal *lookup_data(Arena *a, const Lookup *lk)
{
    TVal *m = tv_map(a);
    tv_put(a, m, "form", tv_str(a, lookup_form_name(lk->form)));
    /* Overlapping segments: no LookupGpuAddress, and the reason. */
    tv_put(a, m, "available", tv_bool(a, !lk->overlap[0]));
    if (lk->overlap[0])
        tv_put(a, m, "overlap", tv_str(a, arena_printf(a, "segments '%s' and '%s'", lk->overlap[0]->name,
                                                       lk->overlap[1]->name)));
    tv_put(a, m, "empty", tv_bool(a, lk->nregions <= 1));
    tv_put(a, m, "lo", tv_int(a, lk->lo));
    tv_put(a, m, "span", tv_int(a, lk->span));
    tv_put(a, m, "granule_log2", tv_int(a, lk->granule_log2));
    /* The direct table's entries before its sentinel. */
    tv_put(a, m, "direct_entries", tv_int(a, lk->form == LOOKUP_DIRECT && lk->nlevels ? lk->levels[0].n - 1 : 0));
    tv_put(a, m, "type", tv_str(a, lk->entry_bytes == 1 ? "UINT8" : lk->entry_bytes == 2 ? "UINT16" : "UINT32"));
    tv_put(a, m, "tag", tv_int(a, lk->tag));
    tv_put(a, m, "bytes", tv_int(a, lk->bytes));
    tv_put(a, m, "loads", tv_int(a, lk->loads));
    TVal *levels = tv_list(a);
    for (unsigned l = 0; l < lk->nlevels; l++) {
        const LookupLevel *L = &lk->levels[l];
        TVal *lv = tv_map(a);
        tv_put(a, lv, "index", tv_int(a, l));
        tv_put(a, lv, "shift", tv_int(a, L->shift));
        tv_put(a, lv, "bits", tv_int(a, L->bits));
        tv_put(a, lv, "mask", tv_int(a, L->bits ? ((uint64_t)1 << L->bits) - 1 : 0));
        tv_put(a, lv, "n", tv_int(a, L->n));
        tv_put(a, lv, "rows", rows_u64(a, NULL, L->entries, L->n));
        tv_push(a, levels, lv);
    }
    tv_put(a, m, "levels", levels);
    TVal *regs = tv_list(a);
    for (unsigned i = 0; i < lk->nregions; i++) {
        TVal *r = tv_map(a);
        tv_put(a, r, "seg", tv_int(a, lk->regions[i].seg));
        tv_put(a, r, "bank", tv_int(a, lk->regions[i].bank));
        tv_put(a, r, "base", tv_int(a, lk->regions[i].seg_base));
        tv_put(a, r, "answer", tv_int(a, (uint64_t)lk->regions[i].bank << 32 | lk->regions[i].seg));
        tv_put(a, r, "start", tv_int(a, lk->regions[i].start));
        tv_put(a, r, "end", tv_int(a, lk->regions[i].end));
        tv_push(a, regs, r);
    }
    tv_put(a, m, "regions", regs);
    tv_put(a, m, "nregions", tv_int(a, lk->nregions));
    tv_put(a, m, "nstarts", tv_int(a, lk->nstarts));
    tv_put(a, m, "starts", rows_u64(a, lk->starts, NULL, lk->nstarts));
    tv_put(a, m, "start_regions", rows_u64(a, NULL, lk->start_region, lk->nstarts));
    TVal *steps = tv_list(a);
    for (unsigned st = lk->nstarts / 2; st >= 1; st /= 2)
        tv_push(a, steps, tv_int(a, st));
    tv_put(a, m, "steps", steps);
    return m;
}

/* The DDI forms answered.  QUERYSEGMENT and QUERYSEGMENT3 share the
 * two-call protocol and differ in types and one field, so the template
 * writes both from one body over `ddi.classic`. */
static TVal *ddi_data(Arena *a, const Spec *s)
{
    TVal *ddi = tv_map(a);
    tv_put(a, ddi, "qs", tv_bool(a, s->forms & DDI_QS));
    tv_put(a, ddi, "qs3", tv_bool(a, s->forms & DDI_QS3));
    tv_put(a, ddi, "qs4", tv_bool(a, s->forms & DDI_QS4));
    TVal *classic = tv_list(a);
    static const struct {
        unsigned form;
        const char *suffix, *out, *desc, *type;
    } forms[] = {
        {DDI_QS, "", "DXGK_QUERYSEGMENTOUT", "DXGK_SEGMENTDESCRIPTOR", "DXGKQAITYPE_QUERYSEGMENT"},
        {DDI_QS3, "3", "DXGK_QUERYSEGMENTOUT3", "DXGK_SEGMENTDESCRIPTOR3", "DXGKQAITYPE_QUERYSEGMENT3"},
    };
    for (size_t i = 0; i < countof(forms); i++) {
        if (!(s->forms & forms[i].form))
            continue;
        TVal *f = tv_map(a);
        tv_put(a, f, "suffix", tv_str(a, forms[i].suffix));
        tv_put(a, f, "out", tv_str(a, forms[i].out));
        tv_put(a, f, "desc", tv_str(a, forms[i].desc));
        tv_put(a, f, "type", tv_str(a, forms[i].type));
        tv_put(a, f, "sysend", tv_bool(a, forms[i].form == DDI_QS3));
        tv_push(a, classic, f);
    }
    tv_put(a, ddi, "classic", classic);
    return ddi;
}

/* Everything a template can name; documented in templates/README.md. */
static TVal *context(Arena *a, const Spec *s, const BuildOpts *o)
{
    TVal *root = tv_map(a);
    TVal *segc = tv_map(a);
    tv_put(a, segc, "version", tv_str(a, SEGC_VERSION));
    tv_put(a, root, "segc", segc);
    TVal *spec = tv_map(a);
    const char *file = os_basename(s->file->name);
    char *ident = arena_printf(a, "%s", file);
    for (char *c = ident; *c; c++) /* the file name as a C identifier, for messages of _Static_assert */
        *c = (char)((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ? *c : '_');
    tv_put(a, spec, "file", tv_str(a, file));
    tv_put(a, spec, "ident", tv_str(a, ident));
    tv_put(a, root, "spec", spec);
    tv_put(a, root, "header", tv_str(a, arena_printf(a, "%s_segments.h", s->name)));
    tv_put(a, root, "source", tv_str(a, arena_printf(a, "%s_segments.c", s->name)));
    tv_put(a, root, "annotate", tv_bool(a, o->annotate));

    TVal *board = tv_map(a);
    tv_put(a, board, "name", tv_str(a, s->name));
    tv_put(a, board, "camel", tv_str(a, s->camel));
    tv_put(a, board, "upper", tv_str(a, s->upper));
    tv_put(a, board, "wddm_major", tv_int(a, s->wddm >> 4));
    tv_put(a, board, "wddm_minor", tv_int(a, s->wddm & 15));
    /* DXGK_WDDMVERSION: 0x1000 stands for every WDDM 1.0/1.1 driver. */
    tv_put(a, board, "wddm_caps",
           tv_int(a, s->wddm < 0x12 ? 0x1000 : (uint64_t)(s->wddm >> 4) << 12 | (uint64_t)(s->wddm & 15) << 8));
    tv_put(a, board, "arch", tv_str(a, arch_name(s->arch)));
    tv_put(a, board, "ptr_bytes", tv_int(a, s->ptr_bytes));
    put_fields(a, board, SCOPE(SC_BOARD), s, s->name_pos, o->annotate);
    tv_put(a, root, "board", board);

    TVal *segs = tv_list(a);
    bool agp = false;
    for (unsigned i = 0; i < s->nsegs; i++) {
        tv_push(a, segs, segment_data(a, s, &s->segs[i], o));
        agp |= s->segs[i].kind == SEG_AGP;
    }
    tv_put(a, root, "segments", segs);
    TVal *count = tv_map(a);
    tv_put(a, count, "max", tv_int(a, s->nsegs));
    tv_put(a, count, "no_agp", tv_int(a, s->nsegs - agp));
    tv_put(a, count, "has_agp", tv_int(a, agp));
    tv_put(a, root, "count", count);

    TVal *bars = tv_list(a);
    for (unsigned i = 0; i < s->nbars; i++) {
        TVal *bm = tv_map(a);
        tv_put(a, bm, "slot", tv_int(a, i));
        tv_put(a, bm, "name", tv_str(a, s->bars[i].name));
        tv_put(a, bm, "upper", tv_str(a, to_upper(a, s->bars[i].name)));
        tv_put(a, bm, "regs", tv_int(a, bar_regs(&s->bars[i])));
        put_fields(a, bm, SCOPE(SC_BAR), &s->bars[i], s->bars[i].pos, o->annotate);
        tv_push(a, bars, bm);
    }
    tv_put(a, root, "bars", bars);
    tv_put(a, root, "bar_count", tv_int(a, s->nbars));
    tv_put(a, root, "bar_slots", tv_int(a, s->nbars ? s->nbars : 1));

    tv_put(a, root, "ddi", ddi_data(a, s));
    TVal *paging = tv_map(a);
    tv_put(a, paging, "segment_id", tv_int(a, s->paging.seg ? s->paging.seg->id : 0));
    put_fields(a, paging, SCOPE(SC_PAGING), s, s->paging.seg_pos, o->annotate);
    tv_put(a, root, "paging", paging);
    return root;
}

/* A template by file name: the --templates directory first, then the one
 * compiled into segc. */
static const SrcFile *find_template(Arena *a, const char *name, const BuildOpts *o, Outputs *out, Diags *d,
                                    bool optional)
{
    if (o->templates_dir) {
        char *p = arena_printf(a, "%s/%s", o->templates_dir, name);
        FILE *f = os_fopen(p, "rb");
        if (f) {
            fclose(f);
            const SrcFile *src = src_read(a, p, d);
            if (src && out->ntemplates < MAX_OUTPUTS)
                out->templates[out->ntemplates++] = src;
            return src;
        }
    }
    for (size_t i = 0; i < embedded_template_count && !optional; i++)
        if (!strcmp(embedded_templates[i].name, name))
            return src_from_string(a, name, embedded_templates[i].data, embedded_templates[i].len);
    if (!optional)
        fatal_at(d, C_template, (Pos){0}, "no template named '%s' is built in", name);
    return NULL;
}

static bool render(Arena *a, const char *tmpl, const char *outname, const TVal *ctx, const BuildOpts *o,
                   Outputs *out, Diags *d)
{
    const SrcFile *src = find_template(a, tmpl, o, out, d, false);
    if (!src)
        return false;
    Output *f = &out->files[out->n++];
    f->name = outname;
    if (!ctx) { /* copied as it is */
        buf_putn(&f->text, src->text, src->len);
        return true;
    }
    return tmpl_render(a, tmpl_parse(a, src, d), ctx, &f->text, d);
}

/* The hook points of the shipped templates (templates/README.md): each is
 * the text DIR/hook-NAME.txt of --templates renders to, trailing blanks
 * cut, or empty.  The prefix goes in front of every board symbol. */
static bool put_hooks(Arena *a, TVal *ctx, const Spec *s, const BuildOpts *o, Outputs *out, Diags *d)
{
    static const char *const names[] = {"prefix", "banner", "precomp", "trace"};
    TVal *hooks = tv_map(a);
    tv_put(a, ctx, "hook", hooks);
    for (size_t i = 0; i < countof(names); i++) {
        const SrcFile *src = find_template(a, arena_printf(a, "hook-%s.txt", names[i]), o, out, d, true);
        Buf b = {0};
        bool ok = !src || tmpl_render(a, tmpl_parse(a, src, d), ctx, &b, d);
        while (b.len && (b.p[b.len - 1] == '\n' || b.p[b.len - 1] == ' ' || b.p[b.len - 1] == '\r'))
            b.len--;
        const char *text = arena_printf(a, "%.*s", (int)b.len, b.len ? b.p : "");
        buf_free(&b);
        if (!ok)
            return false;
        tv_put(a, hooks, names[i], tv_str(a, text));
        if (i == 0 && *text && !is_c_ident(text)) {
            fatal_at(d, C_template, (Pos){src, 1, 1, 0}, "hook-prefix.txt must hold a C identifier, not '%s'", text);
            return false;
        }
        if (i == 0 && *text) { /* ContosoD8 -> XyzContosoD8, CONTOSO_D8 -> XYZ_CONTOSO_D8 */
            TVal *board = (TVal *)tv_get(ctx, "board");
            tv_put(a, board, "camel", tv_str(a, arena_printf(a, "%s%s", text, s->camel)));
            tv_put(a, board, "upper", tv_str(a, arena_printf(a, "%s_%s", to_upper(a, text), s->upper)));
        }
    }
    return true;
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

bool emit_render(Arena *a, const Spec *s, const BuildOpts *o, const Lookup *lk, Outputs *out, Diags *d)
{
    memset(out, 0, sizeof *out);
    if (!emit_preconditions(a, s, d))
        return false;
    TVal *ctx = context(a, s, o);
    tv_put(a, ctx, "lookup", lookup_data(a, lk));
    bool ok = put_hooks(a, ctx, s, o, out, d) &&
              render(a, "segments.h.tmpl", arena_printf(a, "%s_segments.h", s->name), ctx, o, out, d) &&
              render(a, "segments.c.tmpl", arena_printf(a, "%s_segments.c", s->name), ctx, o, out, d) &&
              render(a, "segc_dxgk.h", "segc_dxgk.h", NULL, o, out, d);
    if (ok && o->emit_selftest) {
        tv_put(a, ctx, "selftest", selftest_data(a, s));
        ok = render(a, "selftest.c.tmpl", arena_printf(a, "%s_selftest.c", s->name), ctx, o, out, d);
    }
    if (!ok)
        outputs_free(out);
    return ok;
}

void outputs_free(Outputs *out)
{
    for (unsigned i = 0; i < out->n; i++)
        buf_free(&out->files[i].text);
    out->n = 0;
}
