/* SPDX-License-Identifier: MIT */
/* diff.c - what changed between two specs, and what it does to a driver.
 *
 * `segc diff OLD NEW` answers one question: a driver shipped with the code
 * generated from OLD; if it is rebuilt from NEW, does anything it (or its
 * user-mode half, or data it kept) relies on change?  Each difference is a
 * Change whose kind (changes.def) fixes its class, breaking or compatible.
 *
 * Only resolved values are compared, never text: comments, key order,
 * expressions that give the same number, constants renamed or moved into
 * an `extends` base are no change at all.  Identity is by name for
 * segments and BARs (a renamed segment is one removed and one added) and
 * by position for banks, because HintedBank ids are positions.
 *
 *   spec_diff        board, BARs, segments, paging, in that order
 *   diff_print_text  one line per change and a summary
 *   diff_print_json  the versioned JSON object (README "segc diff")
 */
#include "segc.h"

#include <inttypes.h>
#include <string.h>

const ChangeInfo change_table[CHANGE_KIND_COUNT] = {
#define CHANGE(id, name, cls, why) {name, cls, why},
#include "changes.def"
#undef CHANGE
};

int change_kind_by_name(const char *name)
{
    for (int i = 0; i < CHANGE_KIND_COUNT; i++)
        if (!strcmp(change_table[i].name, name))
            return i;
    return -1;
}

const char *change_class_name(ChangeClass c)
{
    return c == CHANGE_BREAKING ? "breaking" : "compatible";
}

/* Bits that never make a change of their own: Aperture and Agp follow
 * `kind` (kind-changed), UseBanking follows `banks` (bank-added/removed). */
#define DERIVED_ELSEWHERE (FLAG_aperture | FLAG_agp | FLAG_use_banking)
/* Bits that only move a segment between VidMm's budgets. */
#define BUDGET_FLAGS (FLAG_application_target | FLAG_local_budget_group | FLAG_non_local_budget_group)

typedef struct Dx {
    Arena *a;
    const Spec *o, *n;
    Diff *out;
} Dx;

/* ---- values as text ---------------------------------------------------------- */

/* A byte count or address: in the largest IEC unit it is a whole
 * multiple of, while that reads as a short number (3840MiB); else decimal
 * below 1 KiB and hex above. */
const char *bytes_text(Arena *a, uint64_t v)
{
    static const char *const unit[] = {"TiB", "GiB", "MiB", "KiB"};
    for (unsigned i = 0; i < countof(unit); i++) {
        unsigned shift = 40 - 10 * i;
        if (v && (v & ((UINT64_C(1) << shift) - 1)) == 0 && v >> shift < 65536)
            return arena_printf(a, "%" PRIu64 "%s", v >> shift, unit[i]);
    }
    return v < 1024 ? arena_printf(a, "%" PRIu64, v) : arena_printf(a, "0x%" PRIx64, v);
}

static const char *wddm_text(Arena *a, unsigned w)
{
    return arena_printf(a, "%u.%u", w >> 4, w & 15);
}

/* Where the CPU sees offset 0 of a CPU-visible segment: the PCI BAR
 * number and offset ("BAR0+256MiB"), or the fixed physical address, in
 * hex like every physical address ("0xd0000000"). */
static const char *window_text(Arena *a, const Segment *g)
{
    if (g->cpu == CPU_BAR)
        return arena_printf(a, "BAR%" PRIu64 "+%s", g->cpu_bar ? g->cpu_bar->index.v : 0,
                            bytes_text(a, g->cpu_offset.v));
    return arena_printf(a, "0x%" PRIx64, g->cpu_address.v);
}

static const char *range_text(Arena *a, const Bank *b)
{
    return arena_printf(a, "[%s, %s)", bytes_text(a, b->start), bytes_text(a, b->end));
}

/* ---- positions ------------------------------------------------------------------ */

static Pos or_pos(Pos p, Pos fallback)
{
    return p.file ? p : fallback;
}

/* The start of the spec named on the command line: for values nobody
 * wrote (defaults). */
static Pos spec_pos(const Spec *s)
{
    return or_pos(s->name_pos, (Pos){s->file, 1, 1, 0});
}

static Pos seg_pos(const Spec *s, const Segment *g)
{
    return or_pos(g->pos, spec_pos(s));
}

static Pos value_pos(const Spec *s, const Segment *g, const Value *v)
{
    return or_pos(v->set ? v->pos : (Pos){0}, g ? seg_pos(s, g) : spec_pos(s));
}

/* Where a flag bit of a segment is written, or the nearest place. */
static Pos flag_pos(const Spec *s, const Segment *g, unsigned bit)
{
    if ((1u << bit) == FLAG_cpu_visible) /* from cpu_visible: */
        return or_pos(g->cpu_pos, seg_pos(s, g));
    if (g->flags_written & (1u << bit))
        return g->flag_pos[bit];
    return or_pos(g->flags_pos, seg_pos(s, g));
}

static Pos window_pos(const Spec *s, const Segment *g)
{
    if (g->cpu == CPU_BAR)
        return g->cpu_offset.set ? g->cpu_offset.pos : or_pos(g->cpu_bar_pos, or_pos(g->cpu_pos, seg_pos(s, g)));
    return value_pos(s, g, &g->cpu_address);
}

/* ---- building changes -------------------------------------------------------------- */

static ChangeSide side_text(const char *text, Pos pos)
{
    return (ChangeSide){.present = true, .text = text, .pos = pos};
}

static ChangeSide side_num(const char *text, uint64_t v, Pos pos)
{
    return (ChangeSide){.present = true, .text = text, .v = v, .numeric = true, .pos = pos};
}

static ChangeSide side_bytes(Dx *x, uint64_t v, Pos pos)
{
    return side_num(bytes_text(x->a, v), v, pos);
}

static const ChangeSide absent = {0};

static ChangeSide side_field(Dx *x, FieldId f, uint64_t v, Pos pos)
{
    if (field_table[f].flags & FF_BYTES)
        return side_bytes(x, v, pos);
    return side_num(arena_printf(x->a, "%" PRIu64, v), v, pos);
}

static Change *add(Dx *x, ChangeKind k, const char *segment, ChangeSide from, ChangeSide to, const char *fmt, ...)
    PRINTF_LIKE(6, 7);
static Change *add(Dx *x, ChangeKind k, const char *segment, ChangeSide from, ChangeSide to, const char *fmt, ...)
{
    Change *c = arena_alloc(x->a, sizeof *c);
    c->kind = k;
    c->cls = change_table[k].cls;
    c->segment = segment;
    c->from = from;
    c->to = to;
    c->pos = to.present ? to.pos : from.pos;
    Buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    c->msg = arena_strdup(x->a, b.p ? b.p : "");
    buf_free(&b);
    Diff *d = x->out;
    *d->tail = c;
    d->tail = &c->next;
    d->count++;
    if (c->cls == CHANGE_BREAKING)
        d->nbreaking++;
    else
        d->ncompatible++;
    return c;
}

/* Field f of the old and new owner (the spec, or segments og/ng): one
 * change of kind k, "SUBJECT NAME OLD -> NEW", when its value differs.  The
 * name of a field in a nested map carries the map's key. */
static void field_changed(Dx *x, ChangeKind k, FieldId f, const char *subject, const Segment *og, const Segment *ng)
{
    static const char *const in[] = {[SC_CPU] = "cpu_visible.", [SC_VPR] = "vpr.",
                                     [SC_HOST] = "cpu_host_aperture.", [SC_QS4] = ""};
    const FieldInfo *fi = &field_table[f];
    const Value *ov = field_value(f, og ? (const void *)og : x->o);
    const Value *nv = field_value(f, ng ? (const void *)ng : x->n);
    if (ov->v == nv->v)
        return;
    ChangeSide a = side_field(x, f, ov->v, value_pos(x->o, og, ov));
    ChangeSide b = side_field(x, f, nv->v, value_pos(x->n, ng, nv));
    const char *path = in[fi->scope] ? in[fi->scope] : "";
    add(x, k, ng ? ng->name : NULL, a, b, "%s %s%s %s -> %s", subject, path, fi->key, a.text, b.text);
}

/* A numeric value that may grow (compatible) or shrink (breaking). */
static void grown_or_shrunk(Dx *x, ChangeKind grown, ChangeKind shrunk, const char *segment, const char *subject,
                            const char *field, uint64_t ov, Pos op, uint64_t nv, Pos np)
{
    if (ov == nv)
        return;
    ChangeSide f = side_bytes(x, ov, op), t = side_bytes(x, nv, np);
    add(x, nv > ov ? grown : shrunk, segment, f, t, "%s %s %s -> %s", subject, field, f.text, t.text);
}

/* ---- the board ------------------------------------------------------------------------ */

static void diff_board(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    if (strcmp(o->name, n->name)) {
        ChangeSide f = side_text(o->name, spec_pos(o)), t = side_text(n->name, spec_pos(n));
        add(x, CH_board_renamed, NULL, f, t, "board name %s -> %s", o->name, n->name);
    }
    if (o->wddm != n->wddm) {
        ChangeSide f = side_text(wddm_text(x->a, o->wddm), or_pos(o->wddm_pos, spec_pos(o)));
        ChangeSide t = side_text(wddm_text(x->a, n->wddm), or_pos(n->wddm_pos, spec_pos(n)));
        add(x, CH_wddm_changed, NULL, f, t, "board wddm %s -> %s", f.text, t.text);
    }
    if (o->arch != n->arch) {
        ChangeSide f = side_text(arch_name(o->arch), or_pos(o->arch_pos, spec_pos(o)));
        ChangeSide t = side_text(arch_name(n->arch), or_pos(n->arch_pos, spec_pos(n)));
        add(x, CH_arch_changed, NULL, f, t, "board arch %s -> %s", f.text, t.text);
    }
    field_changed(x, CH_page_size_changed, F_page_size, "board", NULL, NULL);
}

/* ---- BARs ------------------------------------------------------------------------------ */

static const Bar *find_bar(const Spec *s, const char *name, unsigned *slot)
{
    for (unsigned i = 0; i < s->nbars; i++)
        if (!strcmp(s->bars[i].name, name)) {
            *slot = i;
            return &s->bars[i];
        }
    return NULL;
}

static const char *bar_text(Arena *a, const Bar *b)
{
    return arena_printf(a, "BAR%" PRIu64 ", %s", b->index.v, bytes_text(a, b->size.v));
}

static void diff_bars(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    unsigned slot;
    for (unsigned i = 0; i < o->nbars; i++) {
        const Bar *ob = &o->bars[i];
        if (find_bar(n, ob->name, &slot))
            continue;
        ChangeSide f = side_text(bar_text(x->a, ob), ob->pos);
        Change *c = add(x, CH_bar_removed, NULL, f, absent, "BAR '%s' removed (was slot %u: %s)", ob->name, i, f.text);
        c->bar = ob->name;
    }
    for (unsigned i = 0; i < n->nbars; i++) {
        const Bar *nb = &n->bars[i];
        const Bar *ob = find_bar(o, nb->name, &slot);
        Change *c;
        if (!ob) {
            ChangeSide t = side_text(bar_text(x->a, nb), nb->pos);
            c = add(x, CH_bar_added, NULL, absent, t, "BAR '%s' added (slot %u: %s)", nb->name, i, t.text);
            c->bar = nb->name;
            continue;
        }
        Change **mark = x->out->tail;
        if (slot != i) {
            ChangeSide f = side_num(arena_printf(x->a, "%u", slot), slot, ob->pos);
            ChangeSide t = side_num(arena_printf(x->a, "%u", i), i, nb->pos);
            add(x, CH_bar_renumbered, NULL, f, t, "BAR '%s' slot %u -> %u", nb->name, slot, i);
        }
        if (ob->index.v != nb->index.v) {
            ChangeSide f = side_num(arena_printf(x->a, "%" PRIu64, ob->index.v), ob->index.v,
                                    value_pos(o, NULL, &ob->index));
            ChangeSide t = side_num(arena_printf(x->a, "%" PRIu64, nb->index.v), nb->index.v,
                                    value_pos(n, NULL, &nb->index));
            add(x, CH_bar_index_changed, NULL, f, t, "BAR '%s' index %s -> %s", nb->name, f.text, t.text);
        }
        grown_or_shrunk(x, CH_bar_size_grown, CH_bar_size_shrunk, NULL, arena_printf(x->a, "BAR '%s'", nb->name),
                        "size", ob->size.v, value_pos(o, NULL, &ob->size), nb->size.v,
                        value_pos(n, NULL, &nb->size));
        for (c = *mark; c; c = c->next)
            c->bar = nb->name;
    }
}

/* ---- segments ----------------------------------------------------------------------------- */

static const Segment *find_seg(const Spec *s, const char *name)
{
    for (unsigned i = 0; i < s->nsegs; i++)
        if (!strcmp(s->segs[i].name, name))
            return &s->segs[i];
    return NULL;
}

static void diff_flags(Dx *x, const Segment *og, const Segment *ng)
{
    uint32_t changed = (og->flags ^ ng->flags) & ~(uint32_t)DERIVED_ELSEWHERE;
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        uint32_t m = 1u << fi->bit;
        if (!(changed & m))
            continue;
        bool was = og->flags & m;
        ChangeSide f = side_num(was ? "on" : "off", was, flag_pos(x->o, og, fi->bit));
        ChangeSide t = side_num(was ? "off" : "on", !was, flag_pos(x->n, ng, fi->bit));
        Change *c = add(x, m & BUDGET_FLAGS ? CH_flags_changed : CH_flag_behaviour_changed, ng->name, f, t,
                        "segment '%s' %s %s -> %s", ng->name, fi->dxgk, f.text, t.text);
        c->flag = fi->dxgk;
    }
}

static void diff_banks(Dx *x, const Segment *og, const Segment *ng)
{
    const Spec *o = x->o, *n = x->n;
    unsigned common = og->nbanks < ng->nbanks ? og->nbanks : ng->nbanks;
    for (unsigned k = 0; k < common; k++) {
        const Bank *ob = &og->banks[k], *nb = &ng->banks[k];
        if (strcmp(ob->name, nb->name)) {
            ChangeSide f = side_text(ob->name, ob->pos), t = side_text(nb->name, nb->pos);
            Change *c = add(x, CH_bank_renamed, ng->name, f, t, "segment '%s' bank %u name %s -> %s", ng->name, k + 1,
                            ob->name, nb->name);
            c->bank = nb->name;
            c->bank_id = k + 1;
        }
        /* The end of the last bank is the segment's end: size-grown or
         * size-shrunk speaks for it. */
        if (k + 1 < og->nbanks && k + 1 < ng->nbanks && ob->end != nb->end) {
            ChangeSide f = side_bytes(x, ob->end, or_pos(ob->size.set ? ob->size.pos : (Pos){0}, ob->pos));
            ChangeSide t = side_bytes(x, nb->end, or_pos(nb->size.set ? nb->size.pos : (Pos){0}, nb->pos));
            Change *c = add(x, CH_bank_boundary_moved, ng->name, f, t, "segment '%s' bank %u '%s' end %s -> %s",
                            ng->name, k + 1, nb->name, f.text, t.text);
            c->bank = nb->name;
            c->bank_id = k + 1;
        }
    }
    for (unsigned k = common; k < ng->nbanks; k++) {
        const Bank *nb = &ng->banks[k];
        ChangeSide t = side_text(range_text(x->a, nb), or_pos(nb->pos, seg_pos(n, ng)));
        Change *c = add(x, CH_bank_added, ng->name, absent, t, "segment '%s' bank %u '%s' added: %s", ng->name, k + 1,
                        nb->name, t.text);
        c->bank = nb->name;
        c->bank_id = k + 1;
    }
    for (unsigned k = common; k < og->nbanks; k++) {
        const Bank *ob = &og->banks[k];
        ChangeSide f = side_text(range_text(x->a, ob), or_pos(ob->pos, seg_pos(o, og)));
        Change *c = add(x, CH_bank_removed, ng->name, f, absent, "segment '%s' bank %u '%s' removed (was %s)", ng->name,
                        k + 1, ob->name, f.text);
        c->bank = ob->name;
        c->bank_id = k + 1;
    }
}

/* DESCRIPTOR4's fields, one change per field that differs. */
static void diff_qs4(Dx *x, const Segment *og, const Segment *ng)
{
    const char *name = ng->name;
    const char *subject = arena_printf(x->a, "segment '%s'", name);
    for (unsigned f = 0; f < FIELD_COUNT; f++)
        if (field_table[f].scope >= SC_VPR)
            field_changed(x, CH_qs4_field_changed, (FieldId)f, subject, og, ng);
    const char *ob = og->host.mode == CPU_BAR ? og->host.bar->name : "", *nb = ng->host.mode == CPU_BAR ? ng->host.bar->name : "";
    if (og->host.mode != ng->host.mode || strcmp(ob, nb)) {
        ChangeSide a = side_text(og->host.mode == CPU_NONE ? "none" : og->host.mode == CPU_BAR ? ob : "address", og->host.pos);
        ChangeSide b = side_text(ng->host.mode == CPU_NONE ? "none" : ng->host.mode == CPU_BAR ? nb : "address", ng->host.pos);
        add(x, CH_qs4_field_changed, name, a, b, "segment '%s' cpu_host_aperture %s -> %s", name, a.text, b.text);
    }
}

static void diff_segment(Dx *x, const Segment *og, const Segment *ng)
{
    const Spec *o = x->o, *n = x->n;
    const char *name = ng->name;
    const char *subject = arena_printf(x->a, "segment '%s'", name);
    if (og->id != ng->id) {
        ChangeSide f = side_num(arena_printf(x->a, "%u", og->id), og->id, seg_pos(o, og));
        ChangeSide t = side_num(arena_printf(x->a, "%u", ng->id), ng->id, seg_pos(n, ng));
        add(x, CH_segment_renumbered, name, f, t, "segment '%s' id %u -> %u", name, og->id, ng->id);
    }
    if (og->kind != ng->kind) {
        ChangeSide f = side_text(seg_kind_name(og->kind), or_pos(og->kind_pos, seg_pos(o, og)));
        ChangeSide t = side_text(seg_kind_name(ng->kind), or_pos(ng->kind_pos, seg_pos(n, ng)));
        add(x, CH_kind_changed, name, f, t, "segment '%s' kind %s -> %s", name, f.text, t.text);
    }
    /* VidMm ignores the base, size and commit limit of an AGP segment: it
     * uses the aperture the OS found. */
    if (og->kind != SEG_AGP && ng->kind != SEG_AGP) {
        field_changed(x, CH_base_moved, F_base, subject, og, ng);
        grown_or_shrunk(x, CH_size_grown, CH_size_shrunk, name, subject, "size", og->size.v,
                        value_pos(o, og, &og->size), ng->size.v, value_pos(n, ng, &ng->size));
        /* A commit limit that follows the size changes with it. */
        if (og->commit_limit.v != og->size.v || ng->commit_limit.v != ng->size.v)
            field_changed(x, CH_commit_limit_changed, F_commit_limit, subject, og, ng);
    }
    /* Gaining or losing CPU visibility is the CpuVisible flag (diff_flags). */
    if (og->cpu != CPU_NONE && ng->cpu != CPU_NONE) {
        const char *ow = window_text(x->a, og), *nw = window_text(x->a, ng);
        if (strcmp(ow, nw) || og->cpu != ng->cpu) {
            ChangeSide f = side_text(ow, window_pos(o, og)), t = side_text(nw, window_pos(n, ng));
            add(x, CH_cpu_window_moved, name, f, t, "segment '%s' cpu_visible %s -> %s", name, ow, nw);
        }
    }
    diff_flags(x, og, ng);
    diff_banks(x, og, ng);
    field_changed(x, CH_system_memory_end_changed, F_system_memory_end, subject, og, ng);
    diff_qs4(x, og, ng);
}

static void diff_segments(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    for (unsigned i = 0; i < o->nsegs; i++) {
        const Segment *og = &o->segs[i];
        if (find_seg(n, og->name))
            continue;
        ChangeSide f = side_num(arena_printf(x->a, "%u", og->id), og->id, seg_pos(o, og));
        add(x, CH_segment_removed, og->name, f, absent, "segment '%s' removed (was id %u)", og->name, og->id);
    }
    for (unsigned i = 0; i < n->nsegs; i++) {
        const Segment *ng = &n->segs[i];
        const Segment *og = find_seg(o, ng->name);
        if (og) {
            diff_segment(x, og, ng);
            continue;
        }
        ChangeSide t = side_num(arena_printf(x->a, "%u", ng->id), ng->id, seg_pos(n, ng));
        add(x, CH_segment_added, ng->name, absent, t, "segment '%s' added as id %u", ng->name, ng->id);
    }
}

/* ---- paging ---------------------------------------------------------------------------------- */

static void diff_paging(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    const char *os = o->paging.seg ? o->paging.seg->name : "none";
    const char *ns = n->paging.seg ? n->paging.seg->name : "none";
    if (strcmp(os, ns)) {
        ChangeSide f = side_text(os, or_pos(o->paging.seg_pos, spec_pos(o)));
        ChangeSide t = side_text(ns, or_pos(n->paging.seg_pos, spec_pos(n)));
        add(x, CH_paging_segment_changed, NULL, f, t, "paging segment %s -> %s", os, ns);
    }
    grown_or_shrunk(x, CH_paging_size_grown, CH_paging_size_shrunk, NULL, "paging", "buffer_size",
                    o->paging.buffer_size.v, value_pos(o, NULL, &o->paging.buffer_size), n->paging.buffer_size.v,
                    value_pos(n, NULL, &n->paging.buffer_size));
    field_changed(x, CH_paging_private_data_changed, F_paging_private_data_size, "paging", NULL, NULL);
}

void spec_diff(Arena *a, const Spec *old_spec, const Spec *new_spec, Diff *out)
{
    memset(out, 0, sizeof *out);
    out->tail = &out->head;
    Dx x = {a, old_spec, new_spec, out};
    diff_board(&x);
    diff_bars(&x);
    diff_segments(&x);
    diff_paging(&x);
}

/* ---- output ------------------------------------------------------------------------------------ */

static void put_pos(Buf *b, Pos p)
{
    buf_printf(b, "%s:%u:%u", p.file ? p.file->name : "?", (unsigned)p.line, (unsigned)p.col);
}

static void summary(Buf *b, const Diff *d)
{
    if (!d->count) {
        buf_puts(b, "no change\n");
        return;
    }
    buf_printf(b, "%u change%s: %u breaking, %u compatible\n", d->count, d->count == 1 ? "" : "s", d->nbreaking,
               d->ncompatible);
}

void diff_print_text(Buf *b, const Diff *d)
{
    for (const Change *c = d->head; c; c = c->next) {
        buf_printf(b, "%s: ", change_class_name(c->cls));
        put_pos(b, c->pos);
        buf_printf(b, ": [%s] %s\n", change_table[c->kind].name, c->msg);
    }
    summary(b, d);
}


static void json_pos(JsonW *w, Pos p)
{
    json_kstr(w, "file", p.file ? p.file->name : NULL);
    json_kuint(w, "line", p.line);
    json_kuint(w, "col", p.col);
}

static void json_side(JsonW *w, const ChangeSide *s)
{
    if (!s->present) {
        json_null(w);
        return;
    }
    json_obj_begin(w);
    json_kstr(w, "text", s->text);
    if (s->numeric) {
        json_kuint(w, "value", s->v);
    }
    json_pos(w, s->pos);
    json_obj_end(w);
}

void diff_print_json(Buf *b, const Diff *d, const char *old_name, const char *new_name)
{
    JsonW w;
    json_init(&w, b);
    json_obj_begin(&w);
    json_kuint(&w, "segc_diff", 1);
    json_kstr(&w, "old", old_name);
    json_kstr(&w, "new", new_name);
    json_karr(&w, "changes");
    for (const Change *c = d->head; c; c = c->next) {
        json_obj_begin(&w);
        json_kstr(&w, "class", change_class_name(c->cls));
        json_kstr(&w, "kind", change_table[c->kind].name);
        json_pos(&w, c->pos);
        json_kstr(&w, "segment", c->segment);
        json_kstr(&w, "bank", c->bank);
        json_key(&w, "bank_id");
        if (c->bank_id)
            json_uint(&w, c->bank_id);
        else
            json_null(&w);
        json_kstr(&w, "bar", c->bar);
        json_kstr(&w, "flag", c->flag);
        json_kstr(&w, "message", c->msg);
        json_key(&w, "old");
        json_side(&w, &c->from);
        json_key(&w, "new");
        json_side(&w, &c->to);
        json_obj_end(&w);
    }
    json_arr_end(&w);
    json_kuint(&w, "breaking", d->nbreaking);
    json_kuint(&w, "compatible", d->ncompatible);
    json_obj_end(&w);
}
