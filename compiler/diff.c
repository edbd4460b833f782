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
 * A knock-on change (a value whose expression reads the same on both
 * sides) names its cause, the first name it reads whose value changed;
 * a changed constant lists those it caused as notes.
 */
#include "segc.h"

#include <inttypes.h>
#include <string.h>

enum { DIFF_FORMAT_VERSION = 2 };

const ChangeInfo change_table[CHANGE_KIND_COUNT] = {
#define CHANGE(id, name, cls, why) {name, cls, why},
#include "changes.def"
#undef CHANGE
};

const char *change_class_name(ChangeClass c)
{
    return c == CHANGE_BREAKING ? "breaking" : "compatible";
}

/* Bits that only move a segment between VidMm's budgets. */
#define BUDGET_FLAGS (FLAG_application_target | FLAG_local_budget_group | FLAG_non_local_budget_group)

typedef struct Dx {
    Arena *a;
    const Spec *o, *n;
    Diff *out;
} Dx;

/* ---- values as text ---------------------------------------------------------- */

/* See segc.h: the largest unit v is a whole multiple of, fewer than 65536
 * times.  diff's own messages write qty(), as check's do. */
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

/* How much a byte count changed: ", +256 MiB". */
static const char *delta_text(Arena *a, uint64_t from, uint64_t to)
{
    return arena_printf(a, ", %c%s", to > from ? '+' : '-', iec(a, to > from ? to - from : from - to));
}

/* Where the CPU sees offset 0 of a CPU-visible segment: the PCI BAR
 * number and offset ("BAR0+0x10000000 (256 MiB)"), or the fixed physical
 * address. */
static const char *window_text(Arena *a, const Segment *g)
{
    if (g->cpu == CPU_BAR)
        return arena_printf(a, "BAR%" PRIu64 "+%s", g->cpu_bar ? g->cpu_bar->index.v : 0, qty(a, g->cpu_offset.v));
    return qty(a, g->cpu_address.v);
}

/* A bank's GPU range, end exclusive, and its size. */
static const char *range_text(Arena *a, const Bank *b)
{
    return arena_printf(a, "[0x%" PRIX64 ", 0x%" PRIX64 "), %s", b->start, b->end, iec(a, b->end - b->start));
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
    return or_pos(s->name_pos, src_pos(s->file, 1, 1, 0));
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
    if (g->flags_written & (1u << bit))
        return g->flag_pos[bit];
    return or_pos(g->flags_pos, seg_pos(s, g));
}

/* Where a CPU window is written: its `bar:` when `bar_moved` (the window
 * went through another BAR, or its BAR to another PCI BAR), else its
 * `offset:` (or `bar:` when the offset is the default), or its `address:`. */
static Pos window_pos(const Spec *s, const Segment *g, bool bar_moved)
{
    Pos bar = or_pos(g->cpu_bar_pos, or_pos(g->cpu_pos, seg_pos(s, g)));
    if (g->cpu == CPU_BAR)
        return g->cpu_offset.set && !bar_moved ? g->cpu_offset.pos : bar;
    return value_pos(s, g, &g->cpu_address);
}

/* Whether the BAR a window goes through is another one: another name,
 * another PCI BAR index, or none on one side (a fixed address). */
static bool window_bar_moved(const Segment *og, const Segment *ng)
{
    if (og->cpu != CPU_BAR || ng->cpu != CPU_BAR)
        return og->cpu != ng->cpu;
    if (!og->cpu_bar || !ng->cpu_bar)
        return og->cpu_bar != ng->cpu_bar;
    return strcmp(og->cpu_bar->name, ng->cpu_bar->name) || og->cpu_bar->index.v != ng->cpu_bar->index.v;
}

/* ---- building changes -------------------------------------------------------------- */

static const ChangeSide absent = {0};

static ChangeSide side_text(const char *text, Pos pos)
{
    return (ChangeSide){.present = true, .text = text, .pos = pos};
}

/* A number: a byte count as check writes one (qty), anything else in
 * decimal. */
static ChangeSide side_num(Dx *x, bool bytes, uint64_t v, Pos pos)
{
    const char *text = bytes ? qty(x->a, v) : arena_printf(x->a, "%" PRIu64, v);
    return (ChangeSide){.present = true, .text = text, .v = v, .numeric = true, .pos = pos};
}

static Change *add(Dx *x, ChangeKind k, const char *segment, ChangeSide from, ChangeSide to, const char *fmt, ...)
    PRINTF_LIKE(6, 7);
static Change *add(Dx *x, ChangeKind k, const char *segment, ChangeSide from, ChangeSide to, const char *fmt, ...)
{
    Change *c = arena_alloc(x->a, sizeof *c);
    *c = (Change){.kind = k, .segment = segment, .from = from, .to = to,
                  .pos = to.present ? to.pos : from.pos};
    va_list ap;
    va_start(ap, fmt);
    c->msg = arena_vprintf(x->a, fmt, ap);
    va_end(ap);
    Diff *d = x->out;
    *d->tail = c;
    d->tail = &c->next;
    d->count++;
    d->nbreaking += change_table[k].cls == CHANGE_BREAKING;
    return c;
}

/* A value shown as text: one change "WHAT OLD -> NEW" when the texts differ. */
static Change *text_changed(Dx *x, ChangeKind k, const char *segment, const char *what, const char *ot, Pos op,
                            const char *nt, Pos np)
{
    if (!strcmp(ot, nt))
        return NULL;
    return add(x, k, segment, side_text(ot, op), side_text(nt, np), "%s %s -> %s", what, ot, nt);
}

static void on_bank(Change *c, const char *name, unsigned k)
{
    if (c)
        c->bank = name, c->bank_id = k + 1;
}

/* ---- causes: why a value the spec did not edit changed --------------------------- */

/* A name an expression reads, as one spec resolves it: its value, what
 * it belongs to ("segment 'a'", "constant 'vram'") and the field key
 * ("size"; NULL for a constant). */
typedef struct Ref {
    uint64_t v;
    const char *what, *key;
} Ref;

/* `name` in spec s, in segment g (NULL: outside any), as resolve.c reads
 * it (ref_target).  SEG.end never comes here: name_change splits it. */
static bool ref_of(Dx *x, const Spec *s, const Segment *g, const char *name, Ref *r)
{
    RefTarget t = ref_target(s, g, name);
    if (t.kind == REF_END || !ref_resolved(s, t, &r->v))
        return false;
    FieldScope sc = field_table[t.field].scope;
    r->key = t.kind == REF_CONSTANT ? NULL : field_table[t.field].ref;
    r->what = t.kind == REF_CONSTANT ? arena_printf(x->a, "constant '%s'", s->consts[t.index].name)
              : sc == SC_SEG         ? arena_printf(x->a, "segment '%s'", s->segs[t.index].name)
              : sc == SC_BAR         ? arena_printf(x->a, "BAR '%s'", s->bars[t.index].name)
                                     : "board";
    return true;
}

/* "segment 'a' grew", "constant 'vram' changed", or NULL when `name`
 * has the same value in both specs.  SEG.end changes when SEG grows,
 * shrinks or moves. */
static const char *name_change(Dx *x, const Segment *og, const Segment *ng, const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && !strcmp(name + n - 4, ".end")) {
        const char *c = name_change(x, og, ng, arena_printf(x->a, "%.*s.size", (int)(n - 4), name));
        return c ? c : name_change(x, og, ng, arena_printf(x->a, "%.*s.base", (int)(n - 4), name));
    }
    Ref o, r;
    if (!ref_of(x, x->o, og, name, &o) || !ref_of(x, x->n, ng, name, &r) || o.v == r.v)
        return NULL;
    const char *verb = !r.key ? "changed"
                       : !strcmp(r.key, "size") ? (r.v > o.v ? "grew" : "shrank")
                       : !strcmp(r.key, "base") ? "moved"
                                                : arena_printf(x->a, "%s changed", r.key);
    return arena_printf(x->a, "%s %s", r.what, verb);
}

/* The first name in e whose value changed. */
static const char *expr_cause(Dx *x, const Segment *og, const Segment *ng, const Expr *e)
{
    const char *c = e->kind == EX_REF ? name_change(x, og, ng, e->name) : NULL;
    for (unsigned i = 0; !c && i < e->nargs; i++)
        c = expr_cause(x, og, ng, e->args[i]);
    return c;
}

/* The expression text of a value its spec wrote (quotes dropped). */
static bool value_text(const Value *v, const char **text, size_t *len)
{
    if (!v->set || !pos_placed(v->pos) || !v->pos.len || !v->pos.file->text || v->pos.off > v->pos.file->len)
        return false;
    const char *p = v->pos.file->text + v->pos.off, *end = v->pos.file->text + v->pos.file->len;
    if ((size_t)(end - p) < v->pos.len)
        return false;
    bool quoted = v->pos.len >= 2 && (*p == '"' || *p == '\'');
    *text = p + quoted;
    *len = v->pos.len - 2 * quoted;
    return true;
}

/* The segment before g whose end is g's default base: AGP segments are
 * skipped. */
static const Segment *prev_seg(const Spec *s, const Segment *g)
{
    while (g > s->segs)
        if ((--g)->kind != SEG_AGP)
            return g;
    return NULL;
}

/* Without `base:`, a segment starts where the one before it ends. */
static const char *prev_cause(Dx *x, const Segment *og, const Segment *ng)
{
    const Segment *po = prev_seg(x->o, og), *pn = prev_seg(x->n, ng);
    if (po && pn && !strcmp(po->name, pn->name))
        return name_change(x, og, ng, arena_printf(x->a, "%s.end", pn->name));
    return pn ? arena_printf(x->a, "segment '%s' now comes before it", pn->name)
           : po ? arena_printf(x->a, "segment '%s' no longer comes before it", po->name)
                : NULL;
}

/* Says why c changed when its value's text is the same on both sides (or
 * a segment's base is left out on both): "because bank 'near' shrank". */
static void because(Dx *x, Change *c, const Segment *og, const Segment *ng, const Value *ov, const Value *nv)
{
    const char *ot, *nt;
    size_t on, nn;
    if (!ov->set && !nv->set && ng && nv == &ng->base) {
        c->cause = prev_cause(x, og, ng);
    } else if (value_text(ov, &ot, &on) && value_text(nv, &nt, &nn) && on == nn && !memcmp(ot, nt, on)) {
        Diags quiet;
        diags_init(&quiet, x->a);
        Expr *e = expr_parse(x->a, nt, nn, nv->pos, &quiet);
        c->cause = e ? expr_cause(x, og, ng, e) : NULL;
    }
}

/* Field f of the old and new owner (the spec, a BAR or a segment): one
 * change "SUBJECT NAME OLD -> NEW" when its value differs, of kind `up`
 * when it grew and `down` when it shrank.  A byte count says by how much;
 * the name of a segment's field in a nested map carries the map's key. */
static void field_changed(Dx *x, ChangeKind up, ChangeKind down, FieldId f, const char *subject, const void *oo,
                          const void *no)
{
    const FieldInfo *fi = &field_table[f];
    const Value *ov = field_value(f, oo), *nv = field_value(f, no);
    if (ov->v == nv->v)
        return;
    bool bytes = fi->flags & FF_BYTES;
    const Segment *og = SEG_SCOPES & SCOPE(fi->scope) ? oo : NULL, *ng = og ? no : NULL;
    ChangeSide a = side_num(x, bytes, ov->v, value_pos(x->o, og, ov));
    ChangeSide b = side_num(x, bytes, nv->v, value_pos(x->n, ng, nv));
    Change *c = add(x, nv->v > ov->v ? up : down, ng ? ng->name : NULL, a, b, "%s %s%s %s -> %s%s", subject,
                    og ? scope_map[fi->scope] : "", fi->key, a.text, b.text,
                    bytes ? delta_text(x->a, ov->v, nv->v) : "");
    because(x, c, og, ng, ov, nv);
}

/* ---- the board ------------------------------------------------------------------------ */

static void diff_board(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    text_changed(x, CH_board_renamed, NULL, "board name", o->name, spec_pos(o), n->name, spec_pos(n));
    text_changed(x, CH_wddm_changed, NULL, "board wddm", wddm_text(x->a, o->wddm), or_pos(o->wddm_pos, spec_pos(o)),
                 wddm_text(x->a, n->wddm), or_pos(n->wddm_pos, spec_pos(n)));
    text_changed(x, CH_arch_changed, NULL, "board arch", arch_name(o->arch), or_pos(o->arch_pos, spec_pos(o)),
                 arch_name(n->arch), or_pos(n->arch_pos, spec_pos(n)));
    field_changed(x, CH_page_size_changed, CH_page_size_changed, F_page_size, "board", o, n);
}

/* ---- BARs ------------------------------------------------------------------------------ */

static const char *bar_text(Arena *a, const Bar *b)
{
    return arena_printf(a, "BAR%" PRIu64 ", %s", b->index.v, qty(a, b->size.v));
}

static void diff_bars(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    for (unsigned i = 0; i < o->nbars; i++) {
        const Bar *ob = &o->bars[i];
        if (BY_NAME(n->bars, n->nbars, ob->name))
            continue;
        ChangeSide f = side_text(bar_text(x->a, ob), ob->pos);
        Change *c = add(x, CH_bar_removed, NULL, f, absent, "BAR '%s' removed (was slot %u: %s)", ob->name, i, f.text);
        c->bar = ob->name;
    }
    for (unsigned i = 0; i < n->nbars; i++) {
        const Bar *nb = &n->bars[i];
        const Bar *ob = BY_NAME(o->bars, o->nbars, nb->name);
        const char *subject = arena_printf(x->a, "BAR '%s'", nb->name);
        Change **mark = x->out->tail;
        if (!ob) {
            ChangeSide t = side_text(bar_text(x->a, nb), nb->pos);
            add(x, CH_bar_added, NULL, absent, t, "BAR '%s' added (slot %u: %s)", nb->name, i, t.text);
        } else {
            unsigned slot = (unsigned)(ob - o->bars);
            if (slot != i)
                add(x, CH_bar_renumbered, NULL, side_num(x, false, slot, ob->pos), side_num(x, false, i, nb->pos),
                    "%s slot %u -> %u", subject, slot, i);
            field_changed(x, CH_bar_index_changed, CH_bar_index_changed, F_bar_index, subject, ob, nb);
            field_changed(x, CH_bar_size_grown, CH_bar_size_shrunk, F_bar_size, subject, ob, nb);
        }
        for (Change *c = *mark; c; c = c->next)
            c->bar = nb->name;
    }
}

/* ---- segments ----------------------------------------------------------------------------- */

/* A CPU window moved (cpu-window-moved, its caret on what moved), gained
 * (cpu-window-added) or lost (cpu-window-removed): CpuVisible, which
 * follows cpu_visible:, is reported so and not as a flag. */
static void diff_window(Dx *x, const Segment *og, const Segment *ng, const char *subject)
{
    const Spec *o = x->o, *n = x->n;
    bool moved = window_bar_moved(og, ng);
    if (og->cpu != CPU_NONE && ng->cpu != CPU_NONE) {
        text_changed(x, CH_cpu_window_moved, ng->name, arena_printf(x->a, "%s cpu_visible", subject),
                     window_text(x->a, og), window_pos(o, og, moved), window_text(x->a, ng), window_pos(n, ng, moved));
        return;
    }
    if (og->cpu == ng->cpu)
        return;
    bool gained = ng->cpu != CPU_NONE;
    const Segment *g = gained ? ng : og;
    ChangeSide none = side_text("none", seg_pos(gained ? o : n, gained ? og : ng));
    ChangeSide win = side_text(window_text(x->a, g), or_pos(g->cpu_pos, window_pos(gained ? n : o, g, true)));
    Change *c = add(x, gained ? CH_cpu_window_added : CH_cpu_window_removed, ng->name, gained ? none : win,
                    gained ? win : none, gained ? "%s gains a CPU window at %s: CpuVisible off -> on"
                                                : "%s loses its CPU window at %s: CpuVisible on -> off",
                    subject, win.text);
    c->flag = flag_table[FB_cpu_visible].dxgk;
}

static void diff_flags(Dx *x, const Segment *og, const Segment *ng)
{
    /* A flag no spec writes in `flags:` makes no change of its own:
     * Aperture and Agp follow `kind` (kind-changed), UseBanking `banks`
     * (bank-added/removed), CpuVisible `cpu_visible` (cpu-window-added/removed). */
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        uint32_t m = 1u << fi->bit;
        if (fi->derived || !((og->flags ^ ng->flags) & m))
            continue;
        bool was = og->flags & m;
        ChangeSide f = side_num(x, false, was, flag_pos(x->o, og, fi->bit));
        ChangeSide t = side_num(x, false, !was, flag_pos(x->n, ng, fi->bit));
        f.text = was ? "on" : "off";
        t.text = was ? "off" : "on";
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
        on_bank(text_changed(x, CH_bank_renamed, ng->name, arena_printf(x->a, "segment '%s' bank %u name", ng->name, k + 1),
                             ob->name, ob->pos, nb->name, nb->pos),
                nb->name, k);
        /* The end of the last bank is the segment's end: size-grown or
         * size-shrunk speaks for it. */
        if (k + 1 < og->nbanks && k + 1 < ng->nbanks && ob->end != nb->end) {
            ChangeSide f = side_num(x, true, ob->end, or_pos(ob->size.set ? ob->size.pos : (Pos){0}, ob->pos));
            ChangeSide t = side_num(x, true, nb->end, or_pos(nb->size.set ? nb->size.pos : (Pos){0}, nb->pos));
            Change *c = add(x, CH_bank_boundary_moved, ng->name, f, t, "segment '%s' bank %u '%s' end %s -> %s%s",
                            ng->name, k + 1, nb->name, f.text, t.text, delta_text(x->a, ob->end, nb->end));
            on_bank(c, nb->name, k);
            because(x, c, og, ng, &ob->size, &nb->size);
            /* An end that moves with the banks before it. */
            for (unsigned j = 0; ob->size.v == nb->size.v && j < k && !c->cause; j++)
                if (og->banks[j].size.v != ng->banks[j].size.v)
                    c->cause = arena_printf(x->a, "bank '%s' %s", ng->banks[j].name,
                                            ng->banks[j].size.v > og->banks[j].size.v ? "grew" : "shrank");
        }
    }
    /* The banks past `common`: NEW's were added or OLD's removed. */
    bool added = ng->nbanks > common;
    const Segment *g = added ? ng : og;
    for (unsigned k = common; k < g->nbanks; k++) {
        const Bank *b = &g->banks[k];
        ChangeSide sd = side_text(range_text(x->a, b), or_pos(b->pos, seg_pos(added ? n : o, g)));
        Change *c = added ? add(x, CH_bank_added, ng->name, absent, sd, "segment '%s' bank %u '%s' added: %s", ng->name,
                                k + 1, b->name, sd.text)
                          : add(x, CH_bank_removed, ng->name, sd, absent, "segment '%s' bank %u '%s' removed (was %s)",
                                ng->name, k + 1, b->name, sd.text);
        on_bank(c, b->name, k);
    }
}

/* DESCRIPTOR4's fields, one change per field that differs. */
static void diff_qs4(Dx *x, const Segment *og, const Segment *ng, const char *subject)
{
    for (unsigned f = 0; f < FIELD_COUNT; f++)
        if (field_table[f].scope >= SC_VPR)
            field_changed(x, CH_qs4_field_changed, CH_qs4_field_changed, (FieldId)f, subject, og, ng);
    text_changed(x, CH_qs4_field_changed, ng->name, arena_printf(x->a, "%s cpu_host_aperture", subject),
                 og->host.mode == CPU_NONE ? "none" : og->host.mode == CPU_BAR ? og->host.bar->name : "address",
                 og->host.pos,
                 ng->host.mode == CPU_NONE ? "none" : ng->host.mode == CPU_BAR ? ng->host.bar->name : "address",
                 ng->host.pos);
}

/* Why an entry of a list by name (segments, classes: items of `size`
 * bytes that start with their name) moved from place `oi` of OLD's list
 * `ol` (`on` items) to place `ni` of NEW's: the first entry added before
 * it, else the first removed before it, else a reordering. */
static const char *renumber_cause(Dx *x, const char *noun, const char *nouns, size_t size, const void *ol,
                                  unsigned on, unsigned oi, const void *nl, unsigned nn, unsigned ni)
{
    const void *in[2] = {nl, ol}, *of[2] = {ol, nl};
    unsigned upto[2] = {ni, oi}, n[2] = {on, nn};
    for (unsigned side = 0; side < 2; side++)
        for (unsigned i = 0; i < upto[side]; i++) {
            const char *name = *(const char *const *)(const void *)((const char *)in[side] + i * size);
            if (!named(of[side], n[side], size, name, strlen(name)))
                return arena_printf(x->a, "%s '%s' was %s before it", noun, name, side ? "removed" : "added");
        }
    return arena_printf(x->a, "the %s were reordered", nouns);
}

static void diff_segment(Dx *x, const Segment *og, const Segment *ng)
{
    const Spec *o = x->o, *n = x->n;
    const char *name = ng->name;
    const char *subject = arena_printf(x->a, "segment '%s'", name);
    if (og->id != ng->id) {
        ChangeSide f = side_num(x, false, og->id, seg_pos(o, og)), t = side_num(x, false, ng->id, seg_pos(n, ng));
        Change *c = add(x, CH_segment_renumbered, name, f, t, "segment '%s' id %u -> %u", name, og->id, ng->id);
        c->cause = renumber_cause(x, "segment", "segments", sizeof *og, o->segs, o->nsegs, og->id - 1, n->segs,
                                  n->nsegs, ng->id - 1);
    }
    text_changed(x, CH_kind_changed, name, arena_printf(x->a, "%s kind", subject), seg_kind_name(og->kind),
                 or_pos(og->kind_pos, seg_pos(o, og)), seg_kind_name(ng->kind), or_pos(ng->kind_pos, seg_pos(n, ng)));
    /* VidMm ignores the base, size and commit limit of an AGP segment: it
     * uses the aperture the OS found. */
    if (og->kind != SEG_AGP && ng->kind != SEG_AGP) {
        field_changed(x, CH_base_moved, CH_base_moved, F_base, subject, og, ng);
        field_changed(x, CH_size_grown, CH_size_shrunk, F_size, subject, og, ng);
        /* A commit limit that follows the size changes with it. */
        if (og->commit_limit.v != og->size.v || ng->commit_limit.v != ng->size.v)
            field_changed(x, CH_commit_limit_changed, CH_commit_limit_changed, F_commit_limit, subject, og, ng);
    }
    diff_window(x, og, ng, subject);
    diff_flags(x, og, ng);
    diff_banks(x, og, ng);
    field_changed(x, CH_system_memory_end_changed, CH_system_memory_end_changed, F_system_memory_end, subject, og, ng);
    diff_qs4(x, og, ng, subject);
}

static void diff_segments(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    for (unsigned i = 0; i < o->nsegs; i++) {
        const Segment *og = &o->segs[i];
        if (BY_NAME(n->segs, n->nsegs, og->name))
            continue;
        ChangeSide f = side_num(x, false, og->id, seg_pos(o, og));
        add(x, CH_segment_removed, og->name, f, absent, "segment '%s' removed (was id %u)", og->name, og->id);
    }
    for (unsigned i = 0; i < n->nsegs; i++) {
        const Segment *ng = &n->segs[i];
        const Segment *og = BY_NAME(o->segs, o->nsegs, ng->name);
        if (og) {
            diff_segment(x, og, ng);
            continue;
        }
        ChangeSide t = side_num(x, false, ng->id, seg_pos(n, ng));
        add(x, CH_segment_added, ng->name, absent, t, "segment '%s' added as id %u", ng->name, ng->id);
    }
}

/* ---- paging ---------------------------------------------------------------------------------- */

static void diff_paging(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    const char *os = o->paging.seg ? o->paging.seg->name : "none";
    const char *ns = n->paging.seg ? n->paging.seg->name : "none";
    text_changed(x, CH_paging_segment_changed, NULL, "paging segment", os, or_pos(o->paging.seg_pos, spec_pos(o)), ns,
                 or_pos(n->paging.seg_pos, spec_pos(n)));
    field_changed(x, CH_paging_size_grown, CH_paging_size_shrunk, F_paging_buffer_size, "paging", o, n);
    field_changed(x, CH_paging_private_data_changed, CH_paging_private_data_changed, F_paging_private_data_size,
                  "paging", o, n);
}

/* ---- allocation classes ------------------------------------------------------------------------ */

/* Why list `ol` of OLD (a class's, or the DMA list) names other things
 * in NEW: the first segment it names that NEW numbers otherwise or lacks,
 * or (bank hints: `banked`, OLD's first preferred segment) the first bank
 * that NEW's segment of that name numbers otherwise; NULL when every id
 * it names still names the same segment (bank). */
static const char *moved_cause(Dx *x, const PlaceList *ol, const Segment *banked)
{
    const Segment *nb = banked ? BY_NAME(x->n->segs, x->n->nsegs, banked->name) : NULL;
    for (unsigned i = 0; i < ol->n; i++) {
        const Place *p = &ol->p[i];
        if (banked) {
            unsigned id = 0;
            for (unsigned k = 0; nb && k < nb->nbanks && !id; k++)
                id = strcmp(nb->banks[k].name, p->name) ? 0 : k + 1;
            if (id != p->bank)
                return id ? arena_printf(x->a, "bank '%s' of segment '%s' id %u -> %u", p->name, banked->name, p->bank, id)
                          : arena_printf(x->a, "bank '%s' of segment '%s' is gone", p->name, banked->name);
            continue;
        }
        const Segment *ng = BY_NAME(x->n->segs, x->n->nsegs, p->name);
        if (!ng)
            return arena_printf(x->a, "segment '%s' was removed", p->name);
        if (ng->id != p->seg->id)
            return arena_printf(x->a, "segment '%s' id %u -> %u", p->name, p->seg->id, ng->id);
    }
    return NULL;
}

/* Where list `l` of class `c` (NULL: the DMA list) is written. */
static Pos list_pos(const Spec *s, const AllocClass *c, const PlaceList *l)
{
    return or_pos(l->set || !c ? l->pos : c->pos, spec_pos(s));
}

/* The DXGK_ALLOCATIONINFO member that list `l` of class `c` (NULL: the DMA
 * set) is written to. */
static uint32_t member_value(const AllocClass *c, const PlaceList *l)
{
    return c && l == &c->prefer ? class_preferred(c) : c && l == &c->banks ? class_hinted_bank(c) : places_mask(l);
}

/* One member of a class's DXGK_ALLOCATIONINFO (or the DMA set: oc and nc
 * NULL): a change when its value differs; moved (breaking for a driver
 * already built) when an id OLD's value names now names another segment
 * or bank, else changed. */
static void diff_member(Dx *x, const AllocClass *oc, const AllocClass *nc, const char *what, const PlaceList *ol,
                        const PlaceList *nl)
{
    uint32_t ov = member_value(oc, ol), nv = member_value(nc, nl);
    if (ov == nv)
        return;
    const char *cause = moved_cause(x, ol, oc && ol == &oc->banks && oc->prefer.n ? oc->prefer.p[0].seg : NULL);
    bool moved = cause != NULL;
    ChangeKind k = nc ? (moved ? CH_class_placement_moved : CH_class_placement_changed)
                      : (moved ? CH_dma_buffer_set_moved : CH_dma_buffer_set_changed);
    const char *ot = arena_printf(x->a, "0x%X (%s)", ov, places_text(x->a, ol, true));
    const char *nt = arena_printf(x->a, "0x%X (%s)", nv, places_text(x->a, nl, true));
    ChangeSide f = side_text(ot, list_pos(x->o, oc, ol)), t = side_text(nt, list_pos(x->n, nc, nl));
    f.v = ov, f.numeric = true, t.v = nv, t.numeric = true;
    Change *c = add(x, k, NULL, f, t, "%s%s%s%s %s -> %s", nc ? "class '" : "", nc ? nc->name : "", nc ? "' " : "",
                    what, ot, nt);
    c->alloc = nc ? nc->name : NULL;
    c->cause = cause;
}

static void diff_classes(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    for (unsigned i = 0; i < o->nclasses; i++) {
        const AllocClass *oc = &o->classes[i];
        if (BY_NAME(n->classes, n->nclasses, oc->name))
            continue;
        Change *c = add(x, CH_class_removed, NULL, side_num(x, false, i, or_pos(oc->pos, spec_pos(o))), absent,
                        "class '%s' removed (was %u)", oc->name, i);
        c->alloc = oc->name;
    }
    for (unsigned i = 0; i < n->nclasses; i++) {
        const AllocClass *nc = &n->classes[i], *oc = BY_NAME(o->classes, o->nclasses, nc->name);
        Pos np = or_pos(nc->pos, spec_pos(n));
        if (!oc) {
            Change *c = add(x, CH_class_added, NULL, absent, side_num(x, false, i, np), "class '%s' added as %u",
                            nc->name, i);
            c->alloc = nc->name;
            continue;
        }
        unsigned oi = (unsigned)(oc - o->classes);
        if (oi != i) {
            Change *c = add(x, CH_class_renumbered, NULL, side_num(x, false, oi, or_pos(oc->pos, spec_pos(o))),
                            side_num(x, false, i, np), "class '%s' %u -> %u", nc->name, oi, i);
            c->alloc = nc->name;
            c->cause = renumber_cause(x, "class", "classes", sizeof *oc, o->classes, o->nclasses, oi, n->classes,
                                      n->nclasses, i);
        }
        diff_member(x, oc, nc, "write set", &oc->write, &nc->write);
        /* A read set that follows the write set on both sides changes with it. */
        if (oc->read.set || nc->read.set)
            diff_member(x, oc, nc, "read set", class_read(oc), class_read(nc));
        diff_member(x, oc, nc, "eviction set", &oc->evict, &nc->evict);
        diff_member(x, oc, nc, "preference", &oc->prefer, &nc->prefer);
        diff_member(x, oc, nc, "bank hint", &oc->banks, &nc->banks);
    }
    diff_member(x, NULL, NULL, "DMA buffer segment set", &o->dma, &n->dma);
}

/* ---- constants ---------------------------------------------------------------------------------- */

/* A constant whose value changed, at NEW's definition; the changes it
 * caused become its notes. */
static void diff_constants(Dx *x)
{
    const Spec *o = x->o, *n = x->n;
    for (unsigned i = 0; i < n->nconsts; i++) {
        const Constant *nc = &n->consts[i], *oc = BY_NAME(o->consts, o->nconsts, nc->name);
        if (!oc || oc->val.v == nc->val.v)
            continue;
        ChangeSide f = side_num(x, true, oc->val.v, value_pos(o, NULL, &oc->val));
        ChangeSide t = side_num(x, true, nc->val.v, value_pos(n, NULL, &nc->val));
        Change *c = add(x, CH_constant_changed, NULL, f, t, "constant '%s' %s -> %s", nc->name, f.text, t.text);
        c->constant = nc->name;
        because(x, c, NULL, NULL, &oc->val, &nc->val);
    }
}

static void note_uses(Dx *x)
{
    for (Change *c = x->out->head; c; c = c->next) {
        if (!c->constant)
            continue;
        const char *cause = arena_printf(x->a, "constant '%s' changed", c->constant);
        Note **tail = &c->notes;
        for (const Change *u = x->out->head; u; u = u->next)
            if (u->cause && !strcmp(u->cause, cause)) {
                Note *nt = arena_alloc(x->a, sizeof *nt);
                *nt = (Note){.pos = u->pos, .msg = arena_printf(x->a, "uses it: %s", u->msg)};
                *tail = nt;
                tail = &nt->next;
            }
    }
}

void spec_diff(Arena *a, const Spec *old_spec, const Spec *new_spec, Diff *out)
{
    memset(out, 0, sizeof *out);
    out->tail = &out->head;
    Dx x = {a, old_spec, new_spec, out};
    diff_board(&x);
    diff_constants(&x);
    diff_bars(&x);
    diff_segments(&x);
    diff_paging(&x);
    diff_classes(&x);
    note_uses(&x);
}

/* ---- output ------------------------------------------------------------------------------------ */

void diff_print_text(Buf *b, const Diff *d)
{
    for (const Change *c = d->head; c; c = c->next) {
        SrcLoc l = src_loc(c->pos);
        const ChangeInfo *ci = &change_table[c->kind];
        buf_printf(b, "%s: %s:%u:%u: [%s] %s%s%s\n", change_class_name(ci->cls), c->pos.file ? c->pos.file->name : "?",
                   (unsigned)l.line, (unsigned)l.col, ci->name, c->msg, c->cause ? ", because " : "",
                   c->cause ? c->cause : "");
        for (const Note *n = c->notes; n; n = n->next) {
            l = src_loc(n->pos);
            buf_printf(b, "note: %s:%u:%u: %s\n", n->pos.file ? n->pos.file->name : "?", (unsigned)l.line,
                       (unsigned)l.col, n->msg);
        }
    }
    if (d->count)
        buf_printf(b, "%u change%s: %u breaking, %u compatible\n", d->count, d->count == 1 ? "" : "s", d->nbreaking,
                   d->count - d->nbreaking);
    else
        buf_puts(b, "no change\n");
}

static void json_pos(JsonW *w, Pos p)
{
    SrcLoc l = src_loc(p);
    json_place(w, p.file ? p.file->name : NULL, l.line, l.col);
}

static void json_side(JsonW *w, const char *key, const ChangeSide *s)
{
    if (!json_kobj_if(w, key, s->present))
        return;
    json_kstr(w, "text", s->text);
    if (s->numeric)
        json_khex(w, "value", s->v);
    json_pos(w, s->pos);
    json_obj_end(w);
}

static void json_change(JsonW *w, const Change *c)
{
    json_obj_begin(w);
    json_kstr(w, "class", change_class_name(change_table[c->kind].cls));
    json_kstr(w, "kind", change_table[c->kind].name);
    json_pos(w, c->pos);
    json_kstr(w, "segment", c->segment);
    json_kstr(w, "bank", c->bank);
    json_kline(w, "bank_id", c->bank_id);
    json_kstr(w, "bar", c->bar);
    json_kstr(w, "flag", c->flag);
    json_kstr(w, "constant", c->constant);
    json_kstr(w, "allocation_class", c->alloc);
    json_kstr(w, "message", c->msg);
    json_kstr(w, "cause", c->cause);
    json_side(w, "old", &c->from);
    json_side(w, "new", &c->to);
    json_karr(w, "notes");
    for (const Note *n = c->notes; n; n = n->next) {
        json_obj_begin(w);
        json_pos(w, n->pos);
        json_kstr(w, "message", n->msg);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

void diff_print_json(Buf *b, const Diff *d, const char *old_name, const char *new_name)
{
    JsonW w;
    json_doc_begin(&w, b, "segc_diff", DIFF_FORMAT_VERSION);
    json_kstr(&w, "old", old_name);
    json_kstr(&w, "new", new_name);
    json_karr(&w, "changes");
    for (const Change *c = d->head; c; c = c->next)
        json_change(&w, c);
    json_arr_end(&w);
    json_kuint(&w, "breaking", d->nbreaking);
    json_kuint(&w, "compatible", d->count - d->nbreaking);
    json_obj_end(&w);
}
