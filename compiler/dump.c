/* SPDX-License-Identifier: MIT */
/* dump.c - `segc dump --json`: the resolved, checked model as JSON.
 *
 * For programs that need the memory map without parsing YAML or C: every
 * expression already evaluated, every default applied, every derived flag
 * set.  Each value that the spec wrote carries `where`, the file, line and
 * column of its text (its Value.pos); a defaulted value has "where": null.
 * 64-bit quantities are hex strings ("0x80000000"): a JSON number loses
 * precision past 2^53 in many readers.  Counts and ids are plain numbers.
 * schema/model.schema.json is the schema of the document (segc.h). */
#include "segc.h"

#include <string.h>

enum { MODEL_FORMAT_VERSION = 1 };

static void where(JsonW *w, Pos p)
{
    SrcLoc l = src_loc(p);
    if (json_kobj_if(w, "where", l.line)) {
        json_place(w, p.file->name, l.line, l.col);
        json_obj_end(w);
    }
}

/* {"value": "text", "where": {...} | null}; text NULL: "0x..." of hex. */
static void value(JsonW *w, const char *key, const char *text, uint64_t hex, Pos p)
{
    json_kobj(w, key);
    if (text)
        json_kstr(w, "value", text);
    else
        json_khex(w, "value", hex);
    where(w, p);
    json_obj_end(w);
}

/* Every field of scope `sc` that applies in form `mode`, by YAML key, in
 * table order; a segment's derived end follows its size. */
static void fields(JsonW *w, FieldScope sc, CpuMode mode, const void *owner)
{
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        if (field_table[f].scope != sc || !field_in_mode((FieldId)f, mode))
            continue;
        const Value *v = field_value((FieldId)f, owner);
        value(w, field_table[f].key, NULL, v->v, v->set ? v->pos : (Pos){0});
        if (f == F_size) {
            const Segment *g = owner;
            json_khex(w, "end", g->base.v + g->size.v);
        }
    }
}

static void board(JsonW *w, const Spec *s)
{
    json_kobj(w, "board");
    json_kstr(w, "name", s->name);
    where(w, s->name_pos);
    json_kstr(w, "camel", s->camel);
    json_kstr(w, "upper", s->upper);
    char ver[16];
    snprintf(ver, sizeof ver, "%u.%u", s->wddm >> 4, s->wddm & 15);
    value(w, "wddm", ver, 0, s->wddm_pos);
    value(w, "arch", arch_name(s->arch), 0, s->arch_pos);
    json_kuint(w, "ptr_bytes", s->ptr_bytes);
    fields(w, SC_BOARD, CPU_NONE, s);
    /* The segment queries answered: from wddm, or --ddi. */
    json_karr(w, "ddi");
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (s->forms & (1u << f))
            json_str(w, ddi_form_names[f]);
    json_arr_end(w);
    json_obj_end(w);
}

/* DESCRIPTOR4's fields: null where the spec does not write them. */
static void qs4_fields(JsonW *w, const Spec *s, const Segment *g)
{
    if (json_kobj_if(w, "vpr", g->vpr.set)) {
        where(w, g->vpr.pos);
        fields(w, SC_VPR, CPU_NONE, g);
        json_obj_end(w);
    }
    if (json_kobj_if(w, "cpu_host_aperture", g->host.mode != CPU_NONE)) {
        where(w, g->host.pos);
        if (g->host.mode == CPU_BAR) {
            json_kstr(w, "bar", g->host.bar->name);
            json_kuint(w, "slot", (uint64_t)(g->host.bar - s->bars));
        }
        fields(w, SC_HOST, g->host.mode, g);
        json_kuint(w, "pages", s->page_size.v ? g->host.size.v / s->page_size.v : 0);
        json_obj_end(w);
    }
    fields(w, SC_QS4, CPU_NONE, g);
}

static void flags(JsonW *w, const Segment *g)
{
    json_kobj(w, "flags");
    json_khex(w, "value", g->flags);
    json_karr(w, "names");
    for (size_t i = 0; i < flag_count; i++)
        if (g->flags & (1u << flag_table[i].bit))
            json_str(w, flag_table[i].name);
    json_arr_end(w);
    /* The subset written in `flags:`; the rest segc derived. */
    json_karr(w, "written");
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        if (!(g->flags_written & (1u << fi->bit)))
            continue;
        json_obj_begin(w);
        json_kstr(w, "name", fi->name);
        where(w, g->flag_pos[fi->bit]);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void cpu(JsonW *w, const Spec *s, const Segment *g)
{
    static const char *const modes[] = {"none", "bar", "address"};
    json_kobj(w, "cpu");
    json_kstr(w, "mode", modes[g->cpu]);
    where(w, g->cpu == CPU_NONE ? (Pos){0} : g->cpu_pos);
    if (g->cpu == CPU_BAR && g->cpu_bar) {
        json_kobj(w, "bar");
        json_kstr(w, "name", g->cpu_bar->name);
        json_kuint(w, "slot", (uint64_t)(g->cpu_bar - s->bars));
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
    json_kuint(w, "id", g->id);
    json_kstr(w, "name", g->name);
    where(w, g->pos);
    value(w, "kind", seg_kind_name(g->kind), 0, g->kind_pos);
    fields(w, SC_SEG, CPU_NONE, g);
    flags(w, g);
    cpu(w, s, g);
    qs4_fields(w, s, g);
    json_karr(w, "banks");
    for (unsigned i = 0; i < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        json_obj_begin(w);
        json_kstr(w, "name", b->name);
        where(w, b->pos);
        json_khex(w, "start", b->start);
        json_khex(w, "end", b->end);
        fields(w, SC_BANK, CPU_NONE, b);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_karr(w, "waivers");
    for (unsigned i = 0; i < g->nwaivers; i++) {
        const Waiver *v = &g->waivers[i];
        json_obj_begin(w);
        json_kstr(w, "rule", v->rule);
        json_kstr(w, "reason", v->reason);
        json_kbool(w, "used", v->used);
        where(w, v->pos);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

/* A place list under "KEY".  A segment set (`slots` 0):
 * {"set": "0x...", "written": bool, "where", "segments": [...]}, the names
 * it is made of (`read` left out: the write set's, written false).  A
 * preference (DXGK_SEGMENTPREFERENCE, `slots` SLOT_SEG) or a bank hint
 * (DXGK_SEGMENTBANKPREFERENCE, SLOT_BANK): {"value": "0x...", "where",
 * "slots": [...]}, each with its from_end. */
enum { SLOT_SEG = 1, SLOT_BANK };
static void places_json(JsonW *w, const char *key, const PlaceList *l, bool written, int slots, uint32_t value)
{
    json_kobj(w, key);
    if (slots) {
        json_khex(w, "value", value);
    } else {
        json_khex(w, "set", places_mask(l));
        json_kbool(w, "written", written);
    }
    where(w, written ? l->pos : (Pos){0});
    json_karr(w, slots ? "slots" : "segments");
    for (unsigned i = 0; i < l->n; i++) {
        json_obj_begin(w);
        json_kuint(w, "id", slots == SLOT_BANK ? l->p[i].bank : l->p[i].seg->id);
        json_kstr(w, "name", l->p[i].name);
        if (slots)
            json_kbool(w, "from_end", l->p[i].from_end);
        where(w, l->p[i].pos);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void classes_json(JsonW *w, const Spec *s)
{
    json_karr(w, "allocations");
    for (unsigned i = 0; i < s->nclasses; i++) {
        const AllocClass *c = &s->classes[i];
        json_obj_begin(w);
        json_kuint(w, "index", i);
        json_kstr(w, "name", c->name);
        where(w, c->pos);
        places_json(w, "write", &c->write, true, 0, 0);
        places_json(w, "read", class_read(c), c->read.set, 0, 0);
        places_json(w, "evict", &c->evict, c->evict.set, 0, 0);
        places_json(w, "prefer", &c->prefer, c->prefer.set, SLOT_SEG, class_preferred(c));
        places_json(w, "banks", &c->banks, c->banks.set, SLOT_BANK, class_hinted_bank(c));
        json_obj_end(w);
    }
    json_arr_end(w);
    places_json(w, "dma_buffer_segments", &s->dma, s->dma.set, 0, 0);
}

void dump_json(Buf *out, const Spec *s)
{
    JsonW w;
    json_doc_begin(&w, out, "segc_model", MODEL_FORMAT_VERSION);
    json_karr(&w, "files");
    for (unsigned i = 0; i < s->nfiles; i++)
        json_str(&w, s->files[i]->name);
    json_arr_end(&w);
    board(&w, s);

    json_karr(&w, "constants");
    for (unsigned i = 0; i < s->nconsts; i++) {
        json_obj_begin(&w);
        json_kstr(&w, "name", s->consts[i].name);
        json_khex(&w, "value", s->consts[i].val.v);
        where(&w, s->consts[i].val.pos);
        json_obj_end(&w);
    }
    json_arr_end(&w);

    json_karr(&w, "bars");
    for (unsigned i = 0; i < s->nbars; i++) {
        const Bar *b = &s->bars[i];
        json_obj_begin(&w);
        json_kuint(&w, "slot", i);
        json_kstr(&w, "name", b->name);
        where(&w, b->pos);
        fields(&w, SC_BAR, CPU_NONE, b);
        json_obj_end(&w);
    }
    json_arr_end(&w);

    json_karr(&w, "segments");
    for (unsigned i = 0; i < s->nsegs; i++)
        segment(&w, s, &s->segs[i]);
    json_arr_end(&w);

    json_kobj(&w, "paging");
    json_kobj(&w, "segment");
    json_kuint(&w, "id", s->paging.seg ? s->paging.seg->id : 0);
    json_kstr(&w, "name", s->paging.seg ? s->paging.seg->name : NULL);
    where(&w, s->paging.seg_set ? s->paging.seg_pos : (Pos){0});
    json_obj_end(&w);
    fields(&w, SC_PAGING, CPU_NONE, s);
    json_obj_end(&w);
    classes_json(&w, s);
    json_obj_end(&w);
}

/* ---- segc dump --yaml: the spec and its extends chain as one spec ---------- */

/* The merged tree spec_read built (Source.root: sections key by key,
 * segments by name, `extends:` dropped) written back as YAML.  Constants
 * stay expressions; a constant a -D overrides gets the -D text.  A plain
 * scalar is written plain (it was valid plain where it stood, and block
 * context takes more than flow context), any other scalar double-quoted
 * with its escapes, so every scalar reads back as the same text and the
 * same style class.  Below the top-level sections, a map or sequence of
 * scalars that fits on a line and whose plain scalars flow context takes
 * is written in flow style. */

enum { YAML_INDENT = 2, YAML_FLOW_MAX = 100 };

static void yaml_quoted(Buf *b, const char *s, size_t n)
{
    buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            buf_printf(b, "\\%c", c);
        else if (c == '\n')
            buf_puts(b, "\\n");
        else if (c == '\t')
            buf_puts(b, "\\t");
        else if (c < 0x20 || c == 0x7F)
            buf_printf(b, "\\x%02X", c);
        else
            buf_putc(b, (char)c);
    }
    buf_putc(b, '"');
}

static void yaml_scalar(Buf *b, const char *s, size_t n, ScalarStyle style)
{
    if (style == SCALAR_PLAIN)
        buf_putn(b, s, n);
    else
        yaml_quoted(b, s, n);
}

/* Whether a plain scalar may stand in a flow collection as it is. */
static bool flow_plain(const Node *n)
{
    if (n->style != SCALAR_PLAIN)
        return true;
    if (!n->len || n->str[n->len - 1] == ':')
        return false;
    for (size_t i = 0; i < n->len; i++)
        if (strchr(",[]{}#", n->str[i]) || (n->str[i] == ':' && n->str[i + 1] == ' '))
            return false;
    return true;
}

typedef struct YamlOut {
    Buf *b;
    const Node *constants; /* the top-level constants: map (for -D) */
    const ResolveOpts *ro;
} YamlOut;

/* The -D text for constant `key` of map `m`, or NULL. */
static const char *yaml_define(const YamlOut *y, const Node *m, const Node *key)
{
    const char *e = NULL;
    for (unsigned i = 0; m == y->constants && y->ro && i < y->ro->ndefines; i++)
        if (!strcmp(y->ro->defines[i].name, key->str))
            e = y->ro->defines[i].expr;
    return e;
}

static void yaml_value_scalar(const YamlOut *y, const Node *m, const Node *key, const Node *v)
{
    const char *def = key ? yaml_define(y, m, key) : NULL;
    if (def)
        yaml_quoted(y->b, def, strlen(def));
    else
        yaml_scalar(y->b, v->str, v->len, v->style);
}

/* `n` in flow style on one line, if it is a collection of scalars that
 * fits in `room` columns; false (nothing written) otherwise. */
static bool yaml_flow(const YamlOut *y, const Node *n, size_t room)
{
    Buf f = {0};
    size_t count = n->kind == NODE_MAP ? n->npairs : n->nitems;
    bool ok = true;
    buf_puts(&f, n->kind == NODE_MAP ? (count ? "{ " : "{") : "[");
    for (size_t i = 0; ok && i < count; i++) {
        const Node *k = n->kind == NODE_MAP ? &n->pairs[i].key : NULL;
        const Node *v = k ? &n->pairs[i].value : &n->items[i];
        ok = v->kind == NODE_SCALAR && flow_plain(v) && (!k || flow_plain(k)) && (!k || v->len || v->style);
        if (!ok)
            break;
        if (i)
            buf_puts(&f, ", ");
        if (k) {
            yaml_scalar(&f, k->str, k->len, k->style);
            buf_puts(&f, ": ");
        }
        YamlOut fy = {&f, y->constants, y->ro};
        yaml_value_scalar(&fy, n, k, v);
    }
    buf_puts(&f, n->kind == NODE_MAP ? (count ? " }" : "}") : "]");
    ok = ok && f.len <= room;
    if (ok)
        buf_putn(y->b, f.p, f.len);
    buf_free(&f);
    return ok;
}

static void yaml_block(const YamlOut *y, const Node *n, unsigned indent, bool first_inline);

/* What follows "key:" or "-": a scalar or a flow collection on the same
 * line, else a block below it (a sequence item's map starts on the line
 * of its "- "). */
static void yaml_after(const YamlOut *y, const Node *m, const Node *key, const Node *v, unsigned indent, size_t col)
{
    Buf *b = y->b;
    if (v->kind == NODE_SCALAR) {
        if (v->len || v->style != SCALAR_PLAIN || (key && yaml_define(y, m, key)))
            buf_putc(b, ' ');
        yaml_value_scalar(y, m, key, v);
        buf_putc(b, '\n');
        return;
    }
    buf_putc(b, ' ');
    /* The top-level sections stay blocks, unless empty (a block of nothing
     * would read as null: `bars:` of a variant that deleted every BAR). */
    if ((indent || !(v->kind == NODE_MAP ? v->npairs : v->nitems)) &&
        yaml_flow(y, v, col + 1 < YAML_FLOW_MAX ? YAML_FLOW_MAX - col - 1 : 0)) {
        buf_putc(b, '\n');
        return;
    }
    b->len--;
    if (!key && v->kind == NODE_MAP) {
        buf_putc(b, ' ');
        yaml_block(y, v, indent + YAML_INDENT, true);
        return;
    }
    buf_putc(b, '\n');
    yaml_block(y, v, indent + YAML_INDENT, false);
}

static void yaml_block(const YamlOut *y, const Node *n, unsigned indent, bool first_inline)
{
    Buf *b = y->b;
    size_t count = n->kind == NODE_MAP ? n->npairs : n->nitems;
    for (size_t i = 0; i < count; i++) {
        if (i || !first_inline)
            buf_printf(b, "%*s", (int)indent, "");
        size_t line = b->len;
        while (line && b->p[line - 1] != '\n')
            line--;
        if (n->kind == NODE_SEQ) {
            buf_putc(b, '-');
            yaml_after(y, n, NULL, &n->items[i], indent, b->len - line);
            continue;
        }
        const Node *k = &n->pairs[i].key;
        yaml_scalar(b, k->str, k->len, k->style);
        buf_putc(b, ':');
        yaml_after(y, n, k, &n->pairs[i].value, indent, b->len - line);
    }
}

void dump_yaml(Buf *out, const Source *src, const ResolveOpts *ro)
{
    buf_printf(out, "# %s", src->files[0]->name);
    for (unsigned i = 1; i < src->nfiles; i++)
        buf_printf(out, "%s%s", i == 1 ? " with the files it extends merged in: " : ", ", src->files[i]->name);
    buf_puts(out, "\n# (segc dump --yaml: expressions as written; a constant -D sets has the -D text)\n");
    YamlOut y = {out, node_get(src->root, "constants"), ro};
    if (src->root->kind == NODE_MAP && src->root->npairs)
        yaml_block(&y, src->root, 0, false);
    else
        buf_puts(out, "{}\n");
}
