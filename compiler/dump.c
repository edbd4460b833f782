/* dump.c - `segc dump --json`: the resolved, checked model as JSON.
 *
 * For programs that need the memory map without parsing YAML or C: every
 * expression already evaluated, every default applied, every derived flag
 * set.  Each value that the spec wrote carries `where`, the file, line and
 * column of its text (its Value.pos); a defaulted value has "where": null.
 * 64-bit quantities are hex strings ("0x80000000"): a JSON number loses
 * precision past 2^53 in many readers.  Counts and ids are plain numbers.
 *
 * The document is versioned by "segc_model" and described in
 * doc/model.md; schema/model.schema.json is its schema. */
#include "segc.h"

enum { MODEL_FORMAT_VERSION = 1 };

static void where(JsonW *w, Pos p)
{
    json_key(w, "where");
    if (!p.file || !p.line) {
        json_null(w);
        return;
    }
    json_obj_begin(w);
    json_key(w, "file");
    json_str(w, p.file->name);
    json_key(w, "line");
    json_uint(w, p.line);
    json_key(w, "column");
    json_uint(w, p.col);
    json_obj_end(w);
}

/* {"value": "0x...", "where": {...} | null} */
static void value(JsonW *w, const char *key, const Value *v)
{
    json_key(w, key);
    json_obj_begin(w);
    json_key(w, "value");
    json_hex(w, v->v);
    where(w, v->set ? v->pos : (Pos){0});
    json_obj_end(w);
}

static void hex(JsonW *w, const char *key, uint64_t v)
{
    json_key(w, key);
    json_hex(w, v);
}

/* Every field of scope `sc` that applies in form `mode`, by YAML key, in
 * table order; a segment's derived end follows its size. */
static void fields(JsonW *w, FieldScope sc, CpuMode mode, const void *owner)
{
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        if (field_table[f].scope != sc || !field_in_mode((FieldId)f, mode))
            continue;
        value(w, field_table[f].key, field_value((FieldId)f, owner));
        if (f == F_size) {
            const Segment *g = owner;
            hex(w, "end", g->base.v + g->size.v);
        }
    }
}

static void str(JsonW *w, const char *key, const char *s)
{
    json_key(w, key);
    json_str(w, s);
}

static void board(JsonW *w, const Spec *s)
{
    json_key(w, "board");
    json_obj_begin(w);
    str(w, "name", s->name);
    where(w, s->name_pos);
    str(w, "camel", s->camel);
    str(w, "upper", s->upper);
    json_key(w, "wddm");
    json_obj_begin(w);
    char ver[16];
    snprintf(ver, sizeof ver, "%u.%u", s->wddm >> 4, s->wddm & 15);
    str(w, "value", ver);
    where(w, s->wddm_pos);
    json_obj_end(w);
    json_key(w, "arch");
    json_obj_begin(w);
    str(w, "value", arch_name(s->arch));
    where(w, s->arch_pos);
    json_obj_end(w);
    json_key(w, "ptr_bytes");
    json_uint(w, s->ptr_bytes);
    fields(w, SC_BOARD, CPU_NONE, s);
    /* The segment queries answered: from wddm, or --ddi. */
    json_key(w, "ddi");
    json_arr_begin(w);
    if (s->forms & DDI_QS)
        json_str(w, "qs");
    if (s->forms & DDI_QS3)
        json_str(w, "qs3");
    if (s->forms & DDI_QS4)
        json_str(w, "qs4");
    json_arr_end(w);
    json_obj_end(w);
}

/* DESCRIPTOR4's fields: null where the spec does not write them. */
static void qs4_fields(JsonW *w, const Spec *s, const Segment *g)
{
    json_key(w, "vpr");
    if (!g->vpr.set) {
        json_null(w);
    } else {
        json_obj_begin(w);
        where(w, g->vpr.pos);
        fields(w, SC_VPR, CPU_NONE, g);
        json_obj_end(w);
    }
    json_key(w, "cpu_host_aperture");
    if (g->host.mode == CPU_NONE) {
        json_null(w);
    } else {
        json_obj_begin(w);
        where(w, g->host.pos);
        if (g->host.mode == CPU_BAR) {
            str(w, "bar", g->host.bar->name);
            json_key(w, "slot");
            json_uint(w, (uint64_t)(g->host.bar - s->bars));
        }
        fields(w, SC_HOST, g->host.mode, g);
        json_key(w, "pages");
        json_uint(w, s->page_size.v ? g->host.size.v / s->page_size.v : 0);
        json_obj_end(w);
    }
    fields(w, SC_QS4, CPU_NONE, g);
}

static void flags(JsonW *w, const Segment *g)
{
    json_key(w, "flags");
    json_obj_begin(w);
    hex(w, "value", g->flags);
    json_key(w, "names");
    json_arr_begin(w);
    for (size_t i = 0; i < flag_count; i++)
        if (g->flags & (1u << flag_table[i].bit))
            json_str(w, flag_table[i].name);
    json_arr_end(w);
    /* The subset written in `flags:`; the rest segc derived. */
    json_key(w, "written");
    json_arr_begin(w);
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        if (!(g->flags_written & (1u << fi->bit)))
            continue;
        json_obj_begin(w);
        str(w, "name", fi->name);
        where(w, g->flag_pos[fi->bit]);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void cpu(JsonW *w, const Spec *s, const Segment *g)
{
    static const char *const modes[] = {"none", "bar", "address"};
    json_key(w, "cpu");
    json_obj_begin(w);
    str(w, "mode", modes[g->cpu]);
    where(w, g->cpu == CPU_NONE ? (Pos){0} : g->cpu_pos);
    if (g->cpu == CPU_BAR && g->cpu_bar) {
        json_key(w, "bar");
        json_obj_begin(w);
        str(w, "name", g->cpu_bar->name);
        json_key(w, "slot");
        json_uint(w, (uint64_t)(g->cpu_bar - s->bars));
        where(w, g->cpu_bar_pos);
        json_obj_end(w);
    }
    if (g->cpu != CPU_NONE)
        fields(w, SC_CPU, g->cpu, g);
    json_obj_end(w);
}

static void segment(JsonW *w, const Spec *s, const Segment *g)
{
    json_obj_begin(w);
    json_key(w, "id");
    json_uint(w, g->id);
    str(w, "name", g->name);
    where(w, g->pos);
    json_key(w, "kind");
    json_obj_begin(w);
    str(w, "value", seg_kind_name(g->kind));
    where(w, g->kind_pos);
    json_obj_end(w);
    fields(w, SC_SEG, CPU_NONE, g);
    flags(w, g);
    cpu(w, s, g);
    qs4_fields(w, s, g);
    json_key(w, "banks");
    json_arr_begin(w);
    for (unsigned i = 0; i < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        json_obj_begin(w);
        str(w, "name", b->name);
        where(w, b->pos);
        hex(w, "start", b->start);
        hex(w, "end", b->end);
        fields(w, SC_BANK, CPU_NONE, b);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_key(w, "waivers");
    json_arr_begin(w);
    for (unsigned i = 0; i < g->nwaivers; i++) {
        const Waiver *v = &g->waivers[i];
        json_obj_begin(w);
        str(w, "rule", v->rule);
        str(w, "reason", v->reason);
        json_key(w, "used");
        json_bool(w, v->used);
        where(w, v->pos);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

void dump_json(Buf *out, const Spec *s)
{
    JsonW w;
    json_init(&w, out);
    json_obj_begin(&w);
    json_key(&w, "segc_model");
    json_uint(&w, MODEL_FORMAT_VERSION);
    json_key(&w, "tool");
    json_obj_begin(&w);
    str(&w, "name", "segc");
    str(&w, "version", SEGC_VERSION);
    json_obj_end(&w);
    json_key(&w, "files");
    json_arr_begin(&w);
    for (unsigned i = 0; i < s->nfiles; i++)
        json_str(&w, s->files[i]->name);
    json_arr_end(&w);
    board(&w, s);

    json_key(&w, "constants");
    json_arr_begin(&w);
    for (unsigned i = 0; i < s->nconsts; i++) {
        json_obj_begin(&w);
        str(&w, "name", s->consts[i].name);
        json_key(&w, "value");
        json_hex(&w, s->consts[i].val.v);
        where(&w, s->consts[i].val.pos);
        json_obj_end(&w);
    }
    json_arr_end(&w);

    json_key(&w, "bars");
    json_arr_begin(&w);
    for (unsigned i = 0; i < s->nbars; i++) {
        const Bar *b = &s->bars[i];
        json_obj_begin(&w);
        json_key(&w, "slot");
        json_uint(&w, i);
        str(&w, "name", b->name);
        where(&w, b->pos);
        fields(&w, SC_BAR, CPU_NONE, b);
        json_obj_end(&w);
    }
    json_arr_end(&w);

    json_key(&w, "segments");
    json_arr_begin(&w);
    for (unsigned i = 0; i < s->nsegs; i++)
        segment(&w, s, &s->segs[i]);
    json_arr_end(&w);

    json_key(&w, "paging");
    json_obj_begin(&w);
    json_key(&w, "segment");
    json_obj_begin(&w);
    json_key(&w, "id");
    json_uint(&w, s->paging.seg ? s->paging.seg->id : 0);
    str(&w, "name", s->paging.seg ? s->paging.seg->name : NULL);
    where(&w, s->paging.seg_set ? s->paging.seg_pos : (Pos){0});
    json_obj_end(&w);
    fields(&w, SC_PAGING, CPU_NONE, s);
    json_obj_end(&w);
    json_obj_end(&w);
}
