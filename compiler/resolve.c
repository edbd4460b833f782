/* SPDX-License-Identifier: MIT */
/* resolve.c - from the Node tree load.c read to a resolved Spec.
 *
 *   spec_resolve
 *     build           check keys and types section by section, fill the
 *                     model, register every expression as a Slot
 *     apply -D        command-line overrides replace constants' slots
 *     evaluate        every slot, lazily: a reference evaluates its target
 *                     first; a slot met again while busy is a cycle
 *
 * Nothing here reads a file: load.c reads the spec and its extends chain. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

/* ---- slots: one per expression-valued field ----------------------------- */

typedef enum { SLOT_PENDING, SLOT_BUSY, SLOT_DONE, SLOT_FAILED } SlotState;

/* What a message calls a map or a value ("segment 'local'", "bank 2 of
 * segment 'local'"), put into words (said) only for a message: `fmt` with
 * `name`, else with the number `n` (0: none), then with what `of` is. */
typedef struct Where {
    const char *fmt;
    const char *name;
    unsigned n;
    const struct Where *of;
} Where;
/* A Where that is its text, for a call (a slot keeps only a where_of). */
#define WORDS(text) (&(const Where){(text), NULL, 0, NULL})

typedef struct Slot {
    const Node *node;       /* the scalar, or NULL when defaulted */
    const SrcFile *const *files; /* of node's tree (node_pos): the spec's, or a -D's own */
    Value *out;             /* NULL: never bound, nothing to evaluate */
    Segment *seg;           /* context for `size` / `base` */
    const FieldInfo *field; /* NULL: a constant */
    const Where *what;      /* its owner ("segment 'local'"; a constant: "constant 'x'"), for notes */
    SlotState state;
} Slot;

typedef struct R {
    Arena *a;
    Diags *d;
    const ResolveOpts *o;
    const Source *src;
    const SrcFile *const *files; /* src's: of its nodes (node_pos) */
    Spec *s;
    Slot *const_slot;        /* [constant] */
    Slot *slot[FIELD_COUNT]; /* [owner]: the board or paging (0), a BAR, a segment */
    Slot **bank_slot;        /* [segment][bank] */
    /* Keys reported as unknown, so a missing key they misspell is not
     * reported a second time. */
    const Node *unknown[64];
    unsigned nunknown;
    bool broken; /* a board, BAR or paging value failed */
    /* The spec_keys of map m: key[first[m]] to key[first[m + 1]]. */
    unsigned char *key, first[MAP_COUNT + 2];
} R;

typedef struct EvalCtx {
    R *r;
    Slot *slot;
} EvalCtx;

static bool eval_slot(R *r, Slot *sl);
static int pick(R *r, const char *s, Pos pos, const char *const *names, size_t n, const char *what);

/* spec_key(m, key), from the keys of map m only. */
static const KeyInfo *key_of(const R *r, SpecMap m, const char *key)
{
    for (unsigned i = r->first[m]; i < r->first[m + 1]; i++)
        if (spec_keys[r->key[i]].key[0] == key[0] && !strcmp(spec_keys[r->key[i]].key, key))
            return &spec_keys[r->key[i]];
    return NULL;
}

static const char *said(R *r, const Where *w)
{
    const char *of = w->of ? said(r, w->of) : NULL;
    return w->name ? arena_printf(r->a, w->fmt, w->name, of) : w->n ? arena_printf(r->a, w->fmt, w->n, of)
           : of    ? arena_printf(r->a, w->fmt, of) : w->fmt;
}

/* A Where in the arena, for a slot to keep. */
static const Where *where_of(R *r, const char *fmt, const char *name, unsigned n, const Where *of)
{
    Where *w = arena_alloc(r->a, sizeof *w);
    *w = (Where){fmt, name, n, of};
    return w;
}

/* node_expect, with `w` put into words only when n is not of kind k. */
static bool expect(R *r, const Node *n, NodeKind k, const Where *w)
{
    return n->kind == k || node_expect(r->d, r->files, n, k, said(r, w));
}

/* ---- small helpers ------------------------------------------------------ */

static Pos key_pos(const R *r, const Node *key)
{
    Pos p = node_pos(r->files, key);
    p.len = (uint32_t)key->len;
    return p;
}

const char *words_text(Arena *a, const char *const *w, size_t n, const char *last)
{
    Buf b = {0};
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == n ? last : ", ", w[i]);
    const char *r = arena_strdup(a, b.p ? b.p : "");
    buf_free(&b);
    return r;
}

/* Reports every key of `map` that map `m` does not take (spec.def), with a
 * did-you-mean, and a `delete: true` that no variant merge removed. */
static void check_keys(R *r, const Node *map, SpecMap m, const Where *wh)
{
    const char *where = NULL;
    const char **keys = NULL; /* those of m, for a did-you-mean */
    const char *takes = NULL; /* and as the fix says them, once */
    size_t n = 0;
    for (size_t i = 0; i < map->npairs; i++) {
        const Node *k = &map->pairs[i].key, *v = &map->pairs[i].value;
        const KeyInfo *ki = key_of(r, m, k->str);
        if (ki && ki->kind == VK_BOOL && v->kind == NODE_SCALAR &&
            pick(r, v->str, node_span(r->files, v), ki->values, ki->nvalues, arena_printf(r->a, "'%s' value", k->str)) == 1 &&
            ki->merge == MERGE_DELETE)
            error_at(r->d, C_variant_delete, key_pos(r, k),
                     "'delete: true' removes an entry of a base, and this spec extends none");
        if (ki)
            continue;
        if (!keys) {
            keys = arena_alloc(r->a, spec_key_count * sizeof *keys);
            for (unsigned j = r->first[m]; j < r->first[m + 1]; j++)
                keys[n++] = spec_keys[r->key[j]].key;
        }
        where = where ? where : said(r, wh);
        Diag *g = error_at(r->d, C_unknown_key, key_pos(r, k), "unknown key '%s' in %s", k->str, where);
        if (r->nunknown < countof(r->unknown))
            r->unknown[r->nunknown++] = k;
        if (!diag_suggest(r->d, g, k->str, keys, n, sizeof *keys))
            diag_fixit(r->d, g, "%s takes: %s", where, takes ? takes : (takes = words_text(r->a, keys, n, ", ")));
    }
}

/* Whether `map` has a key reported unknown that misspells `key`. */
static bool misspelt(const R *r, const Node *map, const char *key)
{
    const char *cand[] = {key};
    for (size_t i = 0; i < map->npairs; i++)
        for (unsigned u = 0; u < r->nunknown; u++)
            if (r->unknown[u] == &map->pairs[i].key && closest_name(map->pairs[i].key.str, cand, 1))
                return true;
    return false;
}

static void require(R *r, const Node *map, const char *key, const Where *where)
{
    /* A misspelt key already got "did you mean '<key>'?": say it once. */
    if (!node_get(map, key) && !misspelt(r, map, key))
        error_at(r->d, C_missing_key, node_pos(r->files, map), "%s needs a '%s' key", said(r, where), key);
}

/* Reports each key map `m` requires (FF_REQUIRED) that `map` lacks; not
 * the keys each file of an extends chain has (load.c reads those). */
static void require_keys(R *r, const Node *map, SpecMap m, const Where *where)
{
    for (size_t i = 0; i < spec_key_count; i++)
        if (spec_keys[i].map == m && spec_keys[i].flags & FF_REQUIRED && spec_keys[i].merge != MERGE_FILE)
            require(r, map, spec_keys[i].key, where);
}

/* ---- building the model -------------------------------------------------- */

/* Slots for every field of `scopes`, one per owner. */
static void alloc_slots(R *r, unsigned scopes, size_t n)
{
    for (unsigned f = 0; f < FIELD_COUNT; f++)
        if (scopes & SCOPE(field_table[f].scope))
            r->slot[f] = arena_alloc(r->a, n * sizeof(Slot));
}

/* Field f's slot for owner `i` (for a bank: segment i, bank k); NULL when
 * its owners were never built. */
static Slot *slot_at(R *r, FieldId f, unsigned i, unsigned k)
{
    if (field_table[f].scope == SC_BANK)
        return r->bank_slot && r->bank_slot[i] ? &r->bank_slot[i][k] : NULL;
    return r->slot[f] ? &r->slot[f][i] : NULL;
}

/* What a slot is, as messages say it ("segment 'local' size"): made only
 * for a message. */
static const char *slot_what(R *r, const Slot *sl)
{
    return sl->field ? arena_printf(r->a, "%s %s", said(r, sl->what), sl->field->key) : said(r, sl->what);
}

static void set_slot(Slot *sl, const SrcFile *const *files, const Node *n, Value *out, Segment *seg,
                     const FieldInfo *fi, const Where *what)
{
    *sl = (Slot){.node = n, .files = files, .out = out, .seg = seg, .field = fi, .what = what}; /* before any evaluation */
    if (n) {
        out->set = true;
        out->pos = node_span(files, n);
    }
}

/* The kind of Node a value of each kind is. */
static const NodeKind value_node[] = {
#define X(vk, node) [vk] = node,
    VALUE_KINDS(X)
#undef X
};

/* The value of key `key` of map `m` in `map`; NULL if absent or (reported)
 * not the kind of node the key takes.  Type errors name the key `key` of
 * `where` (of the spec: only the key). */
static const Node *typed(R *r, const Node *map, SpecMap m, const char *key, const Where *where)
{
    const Node *n = node_get(map, key);
    if (!n)
        return NULL;
    NodeKind k = value_node[key_of(r, m, key)->kind];
    if (n->kind == k)
        return n;
    node_expect(r->d, r->files, n, k, m == MAP_SPEC ? arena_printf(r->a, "'%s'", key)
                                                    : arena_printf(r->a, "'%s' of %s", key, said(r, where)));
    return NULL;
}

/* The same as a string, and where it is written in *pos. */
static const char *scalar_str(R *r, const Node *map, SpecMap m, const char *key, const Where *where, Pos *pos)
{
    const Node *n = typed(r, map, m, key, where);
    if (n)
        *pos = node_span(r->files, n);
    return n ? n->str : NULL;
}

/* Registers every field of scope `sc` that applies in form `mode`: its
 * expression in `map` (NULL: none), else its default.  `idx` is the
 * owner's index (a bank's in its segment); `where` names the map in type
 * errors, `what` the owner in cycle notes. */
static void bind_fields(R *r, FieldScope sc, CpuMode mode, const Node *map, const void *owner, unsigned idx,
                        Segment *seg, const Where *where, const Where *what)
{
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        const FieldInfo *fi = &field_table[f];
        if (fi->scope != sc || !field_in_mode((FieldId)f, mode))
            continue;
        Slot *sl = slot_at(r, (FieldId)f, sc == SC_BANK ? seg->id - 1 : idx, idx);
        const Node *n = map ? typed(r, map, spec_keys[spec_key_count - FIELD_COUNT + f].map, fi->key, where) : NULL;
        set_slot(sl, r->files, n, field_value((FieldId)f, owner), seg, fi, what);
    }
}

/* The words keys take (spec.def's VALUES). */
static const char *const bool_names[] = {"false", "true"};
static const char *const arch_names[] = {"x64", "arm64", "x86"};
static const char *const kind_names[] = {"memory", "aperture", "agp"};
static const char *const wddm_names[] = {"1.0", "1.1", "1.2", "1.3", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5",
                                         "2.6", "2.7", "2.8", "2.9", "3.0", "3.1"};

/* Picks `s` out of `names`; reports an error with a did-you-mean if absent. */
static int pick(R *r, const char *s, Pos pos, const char *const *names, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return (int)i;
    Diag *g = error_at(r->d, C_bad_value, pos, "unknown %s '%s' (one of: %s)", what, s,
                       words_text(r->a, names, n, ", "));
    diag_suggest(r->d, g, s, names, n, sizeof *names);
    return -1;
}

/* board.wddm: "2.0", or "2" (what an unquoted YAML 2.0 may become).  An
 * unknown version is answered with the version it spells once blanks and
 * a "WDDM" in front are dropped ("WDDM2.6", "2.6 ": 2.6), or its digits
 * spell ("13": 1.3), else the nearest one by value ("1.4": 1.3), not by
 * spelling; the answer is also an edit of the value. */
static int wddm_index(const char *w)
{
    for (size_t i = 0; i < countof(wddm_names); i++)
        if (!strcmp(w, wddm_names[i]) || (w[0] == wddm_names[i][0] && !w[1] && wddm_names[i][2] == '0'))
            return (int)i;
    return -1;
}

static int pick_wddm(R *r, const char *w, Pos pos)
{
    size_t n = countof(wddm_names), best = 0;
    int i = wddm_index(w);
    if (i >= 0)
        return i;
    Diag *g = error_at(r->d, C_bad_value, pos, "unknown WDDM version '%s' (one of: %s)", w,
                       words_text(r->a, wddm_names, n, ", "));
    /* "WDDM 2.6 ": what is left of the word. */
    const char *t = w + strspn(w, " \t");
    if (t[0] && t[1] && t[2] && t[3] && ((t[0] | 32) == 'w' && (t[1] | 32) == 'd' && (t[2] | 32) == 'd' && (t[3] | 32) == 'm'))
        t += 4 + strspn(t + 4, " \t-_v");
    size_t len = strlen(t);
    while (len && strchr(" \t", t[len - 1]))
        len--;
    char v[8] = "";
    if (len < sizeof v)
        memcpy(v, t, len), v[len] = 0;
    /* "13": the dot left out. */
    char dotted[4] = {v[0], '.', v[0] ? v[1] : 0, 0};
    const char *const *dot = v[0] && v[1] && !v[2] ? NAMED(wddm_names, n, dotted, 3) : NULL;
    const char *near = (i = wddm_index(v)) >= 0 ? wddm_names[i] : dot ? *dot : NULL;
    char *end;
    double x = strtod(v, &end), d, bd = 1e9;
    if (!near && v[0] && !*end && end != v) {
        for (size_t j = 0; j < n; j++) {
            d = strtod(wddm_names[j], NULL) - x;
            if ((d < 0 ? -d : d) < bd)
                bd = d < 0 ? -d : d, best = j;
        }
        diag_fixit(r->d, g, "did you mean '%s' (the nearest version)?", wddm_names[best]);
        near = wddm_names[best];
    } else if (near) {
        diag_fixit(r->d, g, "did you mean '%s'?", near);
    }
    if (near)
        diag_edit(r->d, g, pos, arena_printf(r->a, "\"%s\"", near));
    return -1;
}

static void build_board(R *r, const Node *root)
{
    Spec *s = r->s;
    s->arch = ARCH_X64;
    s->wddm = 0x13;
    const Node *b = typed(r, root, MAP_SPEC, "board", NULL);
    if (!b)
        return;
    check_keys(r, b, MAP_BOARD, WORDS("'board'"));
    require_keys(r, b, MAP_BOARD, WORDS("'board'"));
    s->name = scalar_str(r, b, MAP_BOARD, "name", WORDS("'board'"), &s->name_pos);
    const char *w = scalar_str(r, b, MAP_BOARD, "wddm", WORDS("'board'"), &s->wddm_pos);
    int i = w ? pick_wddm(r, w, s->wddm_pos) : -1;
    if (i >= 0)
        s->wddm = (unsigned)((wddm_names[i][0] - '0') << 4 | (wddm_names[i][2] - '0'));
    const char *a = scalar_str(r, b, MAP_BOARD, "arch", WORDS("'board'"), &s->arch_pos);
    if (a && (i = pick(r, a, s->arch_pos, arch_names, countof(arch_names), "arch")) >= 0)
        s->arch = (Arch)i;
    s->ptr_bytes = s->arch == ARCH_X86 ? 4 : 8;
    alloc_slots(r, SCOPE(SC_BOARD), 1);
    bind_fields(r, SC_BOARD, CPU_NONE, b, s, 0, NULL, WORDS("'board'"), where_of(r, "board", NULL, 0, NULL));
}

static void build_constants(R *r, const Node *root)
{
    const Node *c = typed(r, root, MAP_SPEC, "constants", NULL);
    Spec *s = r->s;
    if (!c)
        return;
    size_t n = c->npairs;
    if (n > MAX_CONSTANTS) {
        error_at(r->d, C_limit_constants, key_pos(r, &c->pairs[MAX_CONSTANTS].key), "more than %u constants",
                 (unsigned)MAX_CONSTANTS);
        n = MAX_CONSTANTS;
    }
    s->consts = arena_alloc(r->a, (n + 1) * sizeof *s->consts);
    r->const_slot = arena_alloc(r->a, n * sizeof(Slot));
    for (size_t i = 0; i < n; i++) {
        const Node *k = &c->pairs[i].key, *v = &c->pairs[i].value;
        Constant *k2 = &s->consts[s->nconsts];
        *k2 = (Constant){.name = k->str, .pos = key_pos(r, k)};
        if (!is_c_ident(k->str))
            error_at(r->d, C_bad_name, key_pos(r, k), "constant name '%s' is not an identifier", k->str);
        else if (!strcmp(k->str, "bar") || ref_parse(k->str).kind == REF_FIELD) /* size, base, page_size */
            error_at(r->d, C_bad_name, key_pos(r, k), "'%s' is a reserved name in expressions", k->str);
        const Where *what = where_of(r, "constant '%s'", k->str, 0, NULL);
        if (!expect(r, v, NODE_SCALAR, what))
            v = NULL;
        set_slot(&r->const_slot[s->nconsts], r->files, v, &k2->val, NULL, NULL, what);
        s->nconsts++;
    }
}

static void build_bars(R *r, const Node *root)
{
    const Node *b = typed(r, root, MAP_SPEC, "bars", NULL);
    Spec *s = r->s;
    if (!b)
        return;
    size_t n = b->npairs;
    s->bars = arena_alloc(r->a, (n + 1) * sizeof *s->bars);
    alloc_slots(r, SCOPE(SC_BAR), n);
    for (size_t i = 0; i < n; i++) {
        const Node *k = &b->pairs[i].key, *v = &b->pairs[i].value;
        Bar *bar = &s->bars[s->nbars];
        *bar = (Bar){.name = k->str, .pos = key_pos(r, k)};
        const Where *where = where_of(r, "BAR '%s'", k->str, 0, NULL);
        if (!expect(r, v, NODE_MAP, where))
            v = NULL;
        if (v) {
            check_keys(r, v, MAP_BAR, where);
            require_keys(r, v, MAP_BAR, where);
        }
        bind_fields(r, SC_BAR, CPU_NONE, v, bar, s->nbars, NULL, where, where);
        s->nbars++;
    }
}

static void build_flags(R *r, Segment *g, const Node *fl)
{
    g->flags_pos = node_pos(r->files, fl);
    for (size_t i = 0; i < fl->nitems; i++) {
        const Node *f = &fl->items[i];
        if (!node_expect(r->d, r->files, f, NODE_SCALAR, "a flag"))
            continue;
        Pos p = node_span(r->files, f);
        const FlagInfo *fi = NAMED(flag_table, flag_count, f->str, f->len);
        if (!fi) {
            Diag *e = error_at(r->d, C_unknown_flag, p, "unknown segment flag '%s'", f->str);
            diag_suggest(r->d, e, f->str, flag_table, flag_count, sizeof *flag_table);
            continue;
        }
        if (fi->derived) {
            const char *key;
            Pos at;
            bool written = flag_key(g, fi->bit, &key, &at);
            const char *why = strcmp(key, "kind") ? arena_printf(r->a, "%s:", key) : arena_printf(r->a, "kind: %s", fi->name);
            Diag *e = error_at(r->d, C_derived_flag, p, "'%s' is not written in flags: segc derives it from '%s'",
                               f->str, why);
            diag_fixit(r->d, e, written ? "remove '%s' (segc sets it from the '%s' already written)"
                                        : "remove '%s' and write '%s' instead", f->str, why);
            continue;
        }
        uint32_t m = 1u << fi->bit;
        if (g->flags_written & m) {
            Diag *e = error_at(r->d, C_duplicate_flag, p, "flag '%s' is written twice", f->str);
            diag_note(r->d, e, g->flag_pos[fi->bit], "first written here");
            continue;
        }
        g->flags_written |= m;
        g->flag_pos[fi->bit] = p;
    }
}

static void build_waivers(R *r, Segment *g, const Node *w)
{
    g->waivers = arena_alloc(r->a, (w->npairs + 1) * sizeof *g->waivers);
    for (size_t i = 0; i < w->npairs; i++) {
        const Node *k = &w->pairs[i].key, *v = &w->pairs[i].value;
        int id = rule_by_name(k->str);
        if (id < 0) {
            Diag *e = error_at(r->d, C_unknown_rule, key_pos(r, k), "cannot waive unknown rule '%s'", k->str);
            diag_suggest(r->d, e, k->str, rule_table, RULE_COUNT, sizeof *rule_table);
            continue;
        }
        if (!rule_waivable(id)) {
            if (rule_table[id].cls == CLASS_INVARIANT)
                error_at(r->d, C_waiver_refused, key_pos(r, k), "'%s' is an invariant, which no waiver can switch off: %s",
                         k->str, rule_table[id].why);
            else
                error_at(r->d, C_waiver_refused, key_pos(r, k),
                         "'%s' is about the whole board, not one segment: switch it with -Wno-%s", k->str, k->str);
            continue;
        }
        if (!node_expect(r->d, r->files, v, NODE_SCALAR, "a waiver reason"))
            continue;
        if (v->len == 0) {
            error_at(r->d, C_waiver_reason, key_pos(r, k),
                     "waiving '%s' needs a reason, so the waiver stays reviewable", k->str);
            continue;
        }
        g->waivers[g->nwaivers++] = (Waiver){.rule = k->str, .reason = v->str, .pos = key_pos(r, k)};
    }
}

/* vpr: { range_start, range_size, alignment, count, reserve_size } */
static void build_vpr(R *r, Segment *g, const Node *v, const Where *where)
{
    check_keys(r, v, MAP_VPR, WORDS("'vpr'"));
    require_keys(r, v, MAP_VPR, WORDS("'vpr'"));
    g->vpr.set = true;
    g->vpr.pos = node_pos(r->files, v);
    const Where *w = where_of(r, "'vpr' of %s", NULL, 0, where);
    bind_fields(r, SC_VPR, CPU_NONE, v, g, g->id - 1, g, w, w);
}

/* The form of a cpu_visible or cpu_host_aperture map: `bar` (+ `offset`)
 * or `address`; CPU_NONE (reported) when it has both or neither. */
static CpuMode map_form(R *r, const Node *m, const char *what)
{
    const NodePair *bar = node_pair(m, "bar"), *addr = node_pair(m, "address");
    if (bar && addr) {
        Diag *e = error_at(r->d, C_cpu_visible_form, key_pos(r, &addr->key),
                           "%s takes either 'bar' (+ 'offset') or 'address', not both", what);
        diag_note(r->d, e, key_pos(r, &bar->key), "'bar' written here");
        return CPU_NONE;
    }
    if (!bar && !addr) {
        if (!misspelt(r, m, "bar") && !misspelt(r, m, "address"))
            error_at(r->d, C_cpu_visible_form, node_pos(r->files, m), "%s needs 'bar' (+ 'offset') or 'address'", what);
        return CPU_NONE;
    }
    return bar ? CPU_BAR : CPU_ADDRESS;
}

/* A note at the variant's entry when name[0..len) names an entry of map
 * `m` that a variant deleted from its base; whether it does (a
 * did-you-mean would then point elsewhere). */
static bool deleted_note(R *r, Diag *e, SpecMap m, const char *name, size_t len)
{
    for (const Deleted *dl = r->src->deleted; dl; dl = dl->next)
        if (dl->map == (int)m && strlen(dl->name) == len && !strncmp(dl->name, name, len)) {
            diag_note(r->d, e, dl->pos, "%s '%s' is deleted here", spec_maps[m].noun, dl->name);
            return true;
        }
    return false;
}

/* The BAR a form map names; reports an unknown one. */
static const Bar *form_bar(R *r, const Node *m, SpecMap map, const Where *where, Pos *pos)
{
    const char *bn = scalar_str(r, m, map, "bar", where, pos);
    if (!bn)
        return NULL;
    const Bar *b = NAMED(r->s->bars, r->s->nbars, bn, strlen(bn));
    if (!b) {
        Diag *e = error_at(r->d, C_unknown_bar, *pos, "no BAR named '%s' in 'bars:'", bn);
        if (!deleted_note(r, e, MAP_BAR, bn, strlen(bn)))
            diag_suggest(r->d, e, bn, r->s->bars, r->s->nbars, sizeof *r->s->bars);
    }
    return b;
}

/* cpu_host_aperture: { bar, offset, size } or { address, size } */
static void build_host(R *r, Segment *g, const Node *h, const Where *where)
{
    check_keys(r, h, MAP_HOST, WORDS("'cpu_host_aperture'"));
    require_keys(r, h, MAP_HOST, WORDS("'cpu_host_aperture'"));
    g->host.pos = node_pos(r->files, h);
    CpuMode mode = map_form(r, h, "cpu_host_aperture");
    Pos bp;
    if (mode == CPU_NONE || (mode == CPU_BAR && !(g->host.bar = form_bar(r, h, MAP_HOST, WORDS("'cpu_host_aperture'"), &bp))))
        return;
    g->host.mode = mode;
    const Where *w = where_of(r, "'cpu_host_aperture' of %s", NULL, 0, where);
    bind_fields(r, SC_HOST, mode, h, g, g->id - 1, g, w, w);
}

/* cpu_visible: { bar, offset } or { address } */
static void build_cpu(R *r, Segment *g, const Node *cv, const Where *where)
{
    check_keys(r, cv, MAP_CPU_VISIBLE, WORDS("'cpu_visible'"));
    g->cpu_pos = node_pos(r->files, cv);
    g->cpu = map_form(r, cv, "cpu_visible");
    if (g->cpu == CPU_BAR)
        g->cpu_bar = form_bar(r, cv, MAP_CPU_VISIBLE, WORDS("'cpu_visible'"), &g->cpu_bar_pos);
    if (g->cpu != CPU_NONE)
        bind_fields(r, SC_CPU, g->cpu, cv, g, g->id - 1, g, WORDS("'cpu_visible'"),
                    where_of(r, "%s cpu_visible", NULL, 0, where));
}

static void build_banks(R *r, Segment *g, const Node *key, const Node *bk, const Where *where)
{
    g->banks_pos = key_pos(r, key); /* `banks:`, what findings about a segment's banks point at */
    size_t n = bk->nitems;
    /* More than MAX_BANKS is a rule (banks-max); keep a sane cap
     * against hostile input (the bank checks are quadratic). */
    if (n > 4 * MAX_BANKS) {
        error_at(r->d, C_limit_banks, node_pos(r->files, &bk->items[4 * MAX_BANKS]), "more than %u banks in %s", 4 * MAX_BANKS,
                 said(r, where));
        n = 4 * MAX_BANKS;
    }
    g->banks = arena_alloc(r->a, (n + 1) * sizeof *g->banks);
    r->bank_slot[g->id - 1] = arena_alloc(r->a, n * sizeof(Slot));
    for (size_t i = 0; i < n; i++) {
        const Node *b = &bk->items[i];
        Bank *bank = &g->banks[g->nbanks];
        const Where *bw = where_of(r, "bank %u of %s", NULL, (unsigned)i + 1, where);
        bank->pos = node_pos(r->files, b);
        if (!expect(r, b, NODE_MAP, bw))
            continue;
        check_keys(r, b, MAP_BANK, WORDS("a bank"));
        require_keys(r, b, MAP_BANK, bw);
        bank->name = scalar_str(r, b, MAP_BANK, "name", bw, &bank->pos);
        if (!node_get(b, "size") && i + 1 < n)
            error_at(r->d, C_missing_key, node_pos(r->files, b), "%s needs a 'size' (only the last bank may omit it)", said(r, bw));
        bind_fields(r, SC_BANK, CPU_NONE, b, bank, g->nbanks, g, bw, bw);
        g->nbanks++;
    }
}

static void build_segment(R *r, unsigned idx, const Node *item)
{
    Segment *g = &r->s->segs[idx];
    g->id = idx + 1;
    const Where *where = where_of(r, "segment %u", NULL, idx + 1, NULL);
    g->pos = node_pos(r->files, item);
    if (!expect(r, item, NODE_MAP, where)) {
        /* Its values are unknown: a later segment whose base defaults to
         * this one's end fails quietly instead of reading an unbound slot. */
        for (unsigned f = 0; f < FIELD_COUNT; f++)
            if (SEG_SCOPES & SCOPE(field_table[f].scope)) {
                set_slot(&r->slot[f][idx], r->files, NULL, field_value((FieldId)f, g), g, &field_table[f], where);
                r->slot[f][idx].state = SLOT_FAILED;
            }
        return;
    }
    check_keys(r, item, MAP_SEGMENT, WORDS("a segment"));
    if ((g->name = scalar_str(r, item, MAP_SEGMENT, "name", where, &g->pos)))
        where = where_of(r, "segment '%s'", g->name, 0, NULL);
    /* A variant's new segment named like a base one (load.c), unless it
     * says `new: true`; meaningless, and so quiet, elsewhere. */
    const Node *near = NULL;
    for (const NearName *n = r->src->near; n; n = n->next)
        near = n->item == item ? n->base_name : near;
    Pos kp;
    const char *nw = scalar_str(r, item, MAP_SEGMENT, "new", where, &kp);
    if (nw && !strcmp(nw, "true")) /* any other word than false is reported (check_keys) */
        near = NULL;
    if (near)
        g->near = near->str, g->near_pos = node_span(r->files, near);
    Diag **mark = r->d->tail;
    require_keys(r, item, MAP_SEGMENT, where);
    const char *kind = scalar_str(r, item, MAP_SEGMENT, "kind", where, &g->kind_pos);
    int k = kind ? pick(r, kind, g->kind_pos, kind_names, countof(kind_names), "segment kind") : -1;
    g->kind = k < 0 ? SEG_MEMORY : (SegKind)k;
    if (g->kind != SEG_AGP)
        require(r, item, "size", where);
    /* Each key a misspelt change of a base segment lacks. */
    for (Diag *e = *mark; g->near && !node_get(item, "kind") && e; e = e->next)
        if (e->code == C_missing_key) {
            diag_fixit(r->d, e, "did you mean '%s' (from %s)? An entry that changes a base segment needs only its name",
                       g->near, os_basename(g->near_pos.file->name));
            diag_edit(r->d, e, node_span(r->files, node_get(item, "name")), g->near);
        }
    bind_fields(r, SC_SEG, CPU_NONE, item, g, idx, g, where, where);
    const Node *n;
    if ((n = typed(r, item, MAP_SEGMENT, "cpu_visible", where)))
        build_cpu(r, g, n, where);
    if ((n = typed(r, item, MAP_SEGMENT, "banks", where)))
        build_banks(r, g, &node_pair(item, "banks")->key, n, where);
    if ((n = typed(r, item, MAP_SEGMENT, "flags", where))) /* after the keys derived flags come from */
        build_flags(r, g, n);
    if ((n = typed(r, item, MAP_SEGMENT, "waive", where)))
        build_waivers(r, g, n);
    if ((n = typed(r, item, MAP_SEGMENT, "vpr", where)))
        build_vpr(r, g, n, where);
    if ((n = typed(r, item, MAP_SEGMENT, "cpu_host_aperture", where)))
        build_host(r, g, n, where);
    bind_fields(r, SC_QS4, CPU_NONE, item, g, idx, g, where, where);
    g->flags = g->flags_written;
    for (size_t i = 0; i < flag_count; i++) {
        const char *key;
        Pos at;
        g->flags |= flag_key(g, flag_table[i].bit, &key, &at) ? 1u << flag_table[i].bit : 0;
    }
}

static void build_segments(R *r, const Node *root)
{
    Spec *s = r->s;
    const Node *sq = typed(r, root, MAP_SPEC, "segments", NULL);
    if (!sq)
        return;
    s->segs_pos = node_span(r->files, sq);
    size_t n = sq->nitems;
    /* More than MAX_SEGMENTS is a rule (segments-max); keep a sane cap
     * against hostile input. */
    if (n > 4 * MAX_SEGMENTS) {
        error_at(r->d, C_limit_segments, node_pos(r->files, &sq->items[4 * MAX_SEGMENTS]), "more than %u segments",
                 4 * MAX_SEGMENTS);
        n = 4 * MAX_SEGMENTS;
    }
    s->segs = arena_alloc(r->a, (n + 1) * sizeof *s->segs);
    alloc_slots(r, SEG_SCOPES, n);
    r->bank_slot = arena_alloc(r->a, (n + 1) * sizeof *r->bank_slot);
    s->nsegs = (unsigned)n;
    for (size_t i = 0; i < n; i++)
        build_segment(r, (unsigned)i, &sq->items[i]);
}

/* A segment name that is missing may be a copied segment left unrenamed:
 * a note at the second of two segments of one name. */
static void dup_note(R *r, Diag *e, const char *want, size_t len)
{
    const Segment *g = r->s->segs;
    for (unsigned i = 0; i < r->s->nsegs; i++)
        if (g[i].name && BY_NAME(g, i, g[i].name)) {
            diag_note(r->d, e, g[i].pos, "segment %u is named '%s' too: was it meant to be '%.*s'?", i + 1, g[i].name,
                      (int)len, want);
            return;
        }
}

static void build_paging(R *r, const Node *root)
{
    Spec *s = r->s;
    alloc_slots(r, SCOPE(SC_PAGING), 1);
    const Node *p = typed(r, root, MAP_SPEC, "paging", NULL);
    if (p) {
        check_keys(r, p, MAP_PAGING, WORDS("'paging'"));
        const char *sn = scalar_str(r, p, MAP_PAGING, "segment", WORDS("'paging'"), &s->paging.seg_pos);
        if (sn) {
            s->paging.seg_set = true;
            s->paging.seg = strcmp(sn, "none") ? BY_NAME(s->segs, s->nsegs, sn) : NULL;
            if (strcmp(sn, "none") != 0 && !s->paging.seg) {
                Diag *e = error_at(r->d, C_unknown_segment, s->paging.seg_pos, "no segment named '%s' (or 'none')", sn);
                if (!deleted_note(r, e, MAP_SEGMENT, sn, strlen(sn)) &&
                    !diag_suggest(r->d, e, sn, s->segs, s->nsegs, sizeof *s->segs))
                    dup_note(r, e, sn, strlen(sn));
            }
        }
    }
    bind_fields(r, SC_PAGING, CPU_NONE, p, s, 0, NULL, WORDS("'paging'"), where_of(r, "paging", NULL, 0, NULL));
}

/* ---- allocation classes --------------------------------------------------- */

/* More names in one list than any class can mean (a set has one bit per
 * segment); a cap against hostile input, the rules being quadratic. */
enum { MAX_PLACES = 4 * MAX_SEGMENTS };

/* List `key` of map `m` in `map` (NULL: none), into *out: each item a
 * name, or for a VK_HINTS key a map of its target whose first key holds
 * the name, with `from_end`.  What the names name is looked up later
 * (resolve_places); whether they exist is a rule. */
static void build_places(R *r, const Node *map, SpecMap m, const char *key, const Where *where, PlaceList *out)
{
    const Node *l = map ? typed(r, map, m, key, where) : NULL;
    if (!l)
        return;
    const KeyInfo *ki = key_of(r, m, key);
    out->set = true;
    out->pos = key_pos(r, &node_pair(map, key)->key);
    size_t n = l->nitems;
    if (n > MAX_PLACES) {
        error_at(r->d, C_limit_segments, node_pos(r->files, &l->items[MAX_PLACES]), "more than %u names in '%s' of %s", MAX_PLACES,
                 key, said(r, where));
        n = MAX_PLACES;
    }
    out->p = arena_alloc(r->a, (n + 1) * sizeof *out->p);
    const Where what = {"an item of '%s' of %s", key, 0, where};
    for (size_t i = 0; i < n; i++) {
        const Node *it = &l->items[i], *name = it;
        bool from_end = false;
        if (ki->kind == VK_HINTS && it->kind == NODE_MAP) {
            const Where *noun = &(const Where){"a %s", spec_maps[ki->target].noun, 0, NULL};
            check_keys(r, it, ki->target, noun);
            require_keys(r, it, ki->target, noun);
            name = typed(r, it, ki->target, spec_keys[r->key[r->first[ki->target]]].key, noun); /* its first key */
            const Node *fe = typed(r, it, ki->target, "from_end", noun);
            from_end = fe && !strcmp(fe->str, "true"); /* another word is reported (check_keys) */
            if (!name)
                continue;
        } else if (it->kind != NODE_SCALAR &&
                   !node_expect(r->d, r->files, it, NODE_SCALAR,
                                ki->kind == VK_HINTS ? arena_printf(r->a, "%s (a name, or a %s)", said(r, &what),
                                                                    spec_maps[ki->target].noun) : said(r, &what))) {
            continue;
        }
        out->p[out->n++] = (Place){.name = name->str, .pos = node_span(r->files, name), .from_end = from_end};
    }
}

static void build_class(R *r, AllocClass *c, unsigned idx, const Node *item)
{
    const Where *where = where_of(r, "allocation class %u", NULL, idx + 1, NULL);
    c->pos = node_pos(r->files, item);
    if (!expect(r, item, NODE_MAP, where))
        return;
    check_keys(r, item, MAP_CLASS, WORDS("an allocation class"));
    if ((c->name = scalar_str(r, item, MAP_CLASS, "name", where, &c->pos)))
        where = where_of(r, "class '%s'", c->name, 0, NULL);
    Diag **mark = r->d->tail;
    require_keys(r, item, MAP_CLASS, where);
    /* A variant's new class named like a base class (load.c): a misspelt
     * change lacks the keys a class needs. */
    const Node *near = NULL;
    for (const NearName *n = r->src->near; n; n = n->next)
        near = n->item == item ? n->base_name : near;
    for (Diag *e = *mark; near && e; e = e->next)
        if (e->code == C_missing_key) {
            diag_fixit(r->d, e, "did you mean '%s' (from %s)? An entry that changes a base class needs only its name",
                       near->str, os_basename(node_pos(r->files, near).file->name));
            diag_edit(r->d, e, node_span(r->files, node_get(item, "name")), near->str);
        }
#define BUILD(l) build_places(r, item, MAP_CLASS, #l, where, &c->l);
    CLASS_LISTS(BUILD)
#undef BUILD
    if (c->write.set && !c->write.n)
        error_at(r->d, C_bad_value, c->write.pos,
                 "'write' of %s names no segment: a SupportedWriteSegmentSet of 0 lets VidMm place the allocation "
                 "nowhere", said(r, where));
}

/* The segments (and bank hints, the banks of the first preferred
 * segment) the names of list `l` name. */
static void resolve_places(const Spec *s, PlaceList *l, const Segment *banked)
{
    for (unsigned i = 0; i < l->n; i++) {
        Place *p = &l->p[i];
        if (!banked) {
            p->seg = NAMED(s->segs, s->nsegs, p->name, strlen(p->name));
            continue;
        }
        const Bank *b = NAMED(banked->banks, banked->nbanks, p->name, strlen(p->name));
        p->bank = b ? (unsigned)(b - banked->banks) + 1 : 0;
    }
}

static void build_allocations(R *r, const Node *root)
{
    Spec *s = r->s;
    const Node *sq = typed(r, root, MAP_SPEC, "allocations", NULL);
    if (sq) {
        s->classes = arena_alloc(r->a, (sq->nitems + 1) * sizeof *s->classes);
        s->nclasses = (unsigned)sq->nitems;
        for (unsigned i = 0; i < s->nclasses; i++)
            build_class(r, &s->classes[i], i, &sq->items[i]);
    }
    build_places(r, root, MAP_SPEC, "dma_buffer_segments", WORDS("the spec"), &s->dma);
    for (unsigned i = 0; i < s->nclasses; i++) {
        AllocClass *c = &s->classes[i];
        resolve_places(s, &c->prefer, NULL);
        resolve_places(s, &c->write, NULL);
        resolve_places(s, &c->read, NULL);
        resolve_places(s, &c->evict, NULL);
        const Segment *first = c->prefer.n ? c->prefer.p[0].seg : NULL;
        if (first && first->nbanks)
            resolve_places(s, &c->banks, first);
    }
    resolve_places(s, &s->dma, NULL);
}

uint32_t places_mask(const PlaceList *l)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < l->n; i++)
        if (l->p[i].seg && l->p[i].seg->id >= 1 && l->p[i].seg->id <= 32)
            m |= UINT32_C(1) << (l->p[i].seg->id - 1);
    return m;
}

/* The first `slots` places of `l` as slots of `bits` bits each: a
 * segment id (banks: a bank id) below the top bit, from_end in it. */
static uint32_t pack_places(const PlaceList *l, unsigned slots, unsigned bits, bool banks)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < l->n && k < slots; k++) {
        const Place *p = &l->p[k];
        unsigned id = banks ? p->bank : p->seg ? p->seg->id : 0;
        if (id)
            v |= (uint32_t)(id & ((1u << (bits - 1)) - 1)) << (bits * k) | (uint32_t)p->from_end << (bits * k + bits - 1);
    }
    return v;
}

uint32_t class_preferred(const AllocClass *c)
{
    return pack_places(&c->prefer, PREF_SLOTS, 6, false);
}

uint32_t class_hinted_bank(const AllocClass *c)
{
    return pack_places(&c->banks, BANK_SLOTS, 8, true);
}

const char *places_text(Arena *a, const PlaceList *l, bool ids)
{
    if (!l->n)
        return "none";
    Buf b = {0};
    for (unsigned i = 0; i < l->n; i++) {
        const Place *p = &l->p[i];
        buf_puts(&b, i ? ", " : "");
        buf_puts(&b, p->name);
        if (ids && (p->seg || p->bank))
            buf_printf(&b, " (%u)", p->seg ? p->seg->id : p->bank);
        if (p->from_end)
            buf_puts(&b, " from end");
    }
    const char *t = arena_strdup(a, b.p);
    buf_free(&b);
    return t;
}

/* -D name=EXPR: replaces a constant's expression with the command line's. */
static void apply_defines(R *r)
{
    Spec *s = r->s;
    for (unsigned i = 0; r->o && i < r->o->ndefines; i++) {
        const Define *df = &r->o->defines[i];
        char *text = arena_printf(r->a, "%s=%s", df->name, df->expr);
        SrcFile *cl = src_from_string(r->a, "<command line>", text, strlen(text));
        uint32_t nl = (uint32_t)strlen(df->name), el = (uint32_t)strlen(df->expr);
        Pos at = {cl, 0, nl};
        const SrcFile **files = arena_alloc(r->a, sizeof *files); /* the node's tree: its own file */
        *files = cl;
        Node *n = arena_alloc(r->a, sizeof *n);
        *n = (Node){.kind = NODE_SCALAR, .str = cl->text + nl + 1, .len = el, .style = SCALAR_PLAIN};
        node_place(n, 0, (Pos){cl, nl + 1, el});
        Constant *c = NAMED(s->consts, s->nconsts, df->name, strlen(df->name));
        if (!c) {
            Diag *e = error_at(r->d, C_unknown_constant, at, "-D %s: the spec has no constant of that name",
                               df->name);
            diag_suggest(r->d, e, df->name, s->consts, s->nconsts, sizeof *s->consts);
            continue;
        }
        c->val = (Value){0};
        set_slot(&r->const_slot[c - s->consts], files, n, &c->val, NULL, NULL, where_of(r, "constant '%s' (-D)", c->name, 0, NULL));
    }
}

/* ---- evaluation ----------------------------------------------------------- */

/* The field of scope `sc` that expressions call name[0..len), or -1. */
static int field_by_ref(FieldScope sc, const char *name, size_t len)
{
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        const char *ref = field_table[f].ref;
        if (field_table[f].scope == sc && ref && strlen(ref) == len && !strncmp(ref, name, len))
            return (int)f;
    }
    return -1;
}

RefName ref_parse(const char *name)
{
    const char *dot = strchr(name, '.');
    int f;
    if (!dot && (f = field_by_ref(SC_SEG, name, strlen(name))) >= 0)
        return (RefName){REF_FIELD, (FieldId)f, SC_SEG, name, 0};
    if (!dot && (f = field_by_ref(SC_BOARD, name, strlen(name))) >= 0)
        return (RefName){REF_FIELD, (FieldId)f, SC_BOARD, name, 0};
    if (!dot)
        return (RefName){REF_CONSTANT, 0, SC_BOARD, name, strlen(name)};
    if (!strncmp(name, "bar.", 4)) {
        const char *bn = name + 4, *d2 = strrchr(bn, '.');
        if (d2 && d2 > bn && (f = field_by_ref(SC_BAR, d2 + 1, strlen(d2 + 1))) >= 0)
            return (RefName){REF_FIELD, (FieldId)f, SC_BAR, bn, (size_t)(d2 - bn)};
    } else if (!strcmp(dot + 1, "end")) {
        return (RefName){REF_END, 0, SC_SEG, name, (size_t)(dot - name)};
    } else if ((f = field_by_ref(SC_SEG, dot + 1, strlen(dot + 1))) >= 0) {
        return (RefName){REF_FIELD, (FieldId)f, SC_SEG, name, (size_t)(dot - name)};
    }
    return (RefName){.kind = REF_UNKNOWN};
}

RefTarget ref_target(const Spec *s, const Segment *seg, const char *name)
{
    RefName n = ref_parse(name);
    const void *owner = NULL;
    if (n.kind == REF_CONSTANT)
        owner = NAMED(s->consts, s->nconsts, n.owner, n.owner_len);
    else if (n.kind == REF_FIELD && n.scope == SC_BAR)
        owner = NAMED(s->bars, s->nbars, n.owner, n.owner_len);
    else if (n.kind != REF_UNKNOWN && n.scope == SC_SEG)
        owner = n.owner_len ? NAMED(s->segs, s->nsegs, n.owner, n.owner_len) : seg;
    if (n.kind == REF_FIELD && n.scope == SC_BOARD)
        return (RefTarget){REF_FIELD, n.field, 0};
    if (!owner)
        return (RefTarget){.kind = n.kind == REF_FIELD && !n.owner_len ? REF_OUTSIDE : REF_UNKNOWN};
    if (n.kind == REF_CONSTANT)
        return (RefTarget){REF_CONSTANT, 0, (unsigned)((const Constant *)owner - s->consts)};
    if (n.scope == SC_BAR)
        return (RefTarget){REF_FIELD, n.field, (unsigned)((const Bar *)owner - s->bars)};
    return (RefTarget){n.kind, n.field, ((const Segment *)owner)->id - 1};
}

bool ref_resolved(const Spec *s, RefTarget t, uint64_t *out)
{
    const Value *v = NULL, *z = NULL;
    switch (t.kind) {
    case REF_CONSTANT: v = &s->consts[t.index].val; break;
    case REF_FIELD: {
        FieldScope sc = field_table[t.field].scope;
        v = field_value(t.field, sc == SC_BAR ? (const void *)&s->bars[t.index]
                                 : sc == SC_SEG ? (const void *)&s->segs[t.index] : (const void *)s);
        break;
    }
    case REF_END: v = &s->segs[t.index].base, z = &s->segs[t.index].size; break;
    case REF_OUTSIDE:
    case REF_UNKNOWN: return false;
    }
    if (v->failed || (z && (z->failed || v->v > UINT64_MAX - z->v)))
        return false;
    *out = v->v + (z ? z->v : 0);
    return true;
}

/* Value `out` reads `from`, the value of constant `k` (NULL: of a field):
 * out->via is the first constant written elsewhere than `out` that it
 * reads, directly or through `from`. */
static void reads_from(Value *out, const Constant *k, const Value *from)
{
    if (!out->via && k && k->val.pos.file != out->pos.file)
        out->via = k;
    else if (!out->via && from->via && from->via->val.pos.file != out->pos.file)
        out->via = from->via;
}

/* SEG.end = base + size, both evaluated first. */
static bool eval_end(EvalCtx *c, const Expr *ref, const Segment *g, uint64_t *out)
{
    R *r = c->r;
    Slot *bs = slot_at(r, F_base, g->id - 1, 0), *ss = slot_at(r, F_size, g->id - 1, 0);
    for (Slot *t = bs; t; t = t == bs ? ss : NULL) {
        if (t->state == SLOT_BUSY) {
            Diag *e = error_at(r->d, C_cycle, ref->pos, "'%s' depends on itself", ref->name);
            diag_note(r->d, e, c->slot->out->pos, "while evaluating %s", slot_what(r, c->slot));
            return false;
        }
        if (!eval_slot(r, t))
            return false;
        reads_from(c->slot->out, NULL, t->out);
    }
    uint64_t b = bs->out->v, z = ss->out->v;
    if (b > UINT64_MAX - z) {
        error_at(r->d, C_expr_overflow, ref->pos, "'%s' (base + size) %s", ref->name,
                 b + z == 0 ? "is 2^64, which no 64-bit value holds: the segment ends at the top of the address space"
                            : "overflows 64 bits");
        return false;
    }
    *out = b + z;
    return true;
}

const char **ref_names(Arena *a, const Spec *s, const Segment *seg, size_t *count)
{
    const char **cands = arena_alloc(a, (s->nconsts + (FIELD_COUNT + 1) * (s->nsegs + s->nbars + 2)) * sizeof *cands);
    size_t n = 0;
    for (unsigned i = 0; i < s->nconsts; i++)
        cands[n++] = s->consts[i].name;
    for (unsigned i = 0; i < s->nsegs; i++)
        if (s->segs[i].name) {
            for (unsigned f = 0; f < FIELD_COUNT; f++)
                if (field_table[f].scope == SC_SEG && field_table[f].ref)
                    cands[n++] = arena_printf(a, "%s.%s", s->segs[i].name, field_table[f].ref);
            cands[n++] = arena_printf(a, "%s.end", s->segs[i].name);
        }
    static const FieldScope order[] = {SC_BAR, SC_BOARD, SC_SEG};
    for (size_t o = 0; o < countof(order); o++)
        for (unsigned f = 0; f < FIELD_COUNT; f++) {
            const FieldInfo *fi = &field_table[f];
            if (fi->scope != order[o] || !fi->ref)
                continue;
            for (unsigned i = 0; fi->scope == SC_BAR && i < s->nbars; i++)
                cands[n++] = arena_printf(a, "bar.%s.%s", s->bars[i].name, fi->ref);
            if (fi->scope == SC_BOARD || (fi->scope == SC_SEG && seg))
                cands[n++] = fi->ref;
        }
    *count = n;
    return cands;
}

/* Everything a name could mean, for the did-you-mean. */
static void unknown_name(EvalCtx *c, const Expr *ref)
{
    R *r = c->r;
    size_t n;
    const char **cands = ref_names(r->a, r->s, c->slot->seg, &n);
    Diag *e = error_at(r->d, C_unknown_name, ref->pos, "unknown name '%s'", ref->name);
    RefName rn = ref_parse(ref->name);
    if (rn.kind != REF_CONSTANT && rn.owner_len &&
        deleted_note(r, e, rn.scope == SC_BAR ? MAP_BAR : MAP_SEGMENT, rn.owner, rn.owner_len))
        return;
    const char *dot = strchr(ref->name, '.');
    if (!diag_suggest(r->d, e, ref->name, cands, n, sizeof *cands) && dot && strncmp(ref->name, "bar.", 4))
        dup_note(r, e, ref->name, (size_t)(dot - ref->name));
}

/* The value of a name, through ref_target; SEG.end has no slot of its
 * own (eval_end). */
static bool lookup(void *vctx, const Expr *ref, uint64_t *out)
{
    EvalCtx *c = vctx;
    R *r = c->r;
    RefTarget t = ref_target(r->s, c->slot->seg, ref->name);
    Slot *target = NULL;
    switch (t.kind) {
    case REF_OUTSIDE:
        error_at(r->d, C_unknown_name, ref->pos, "'%s' means the current segment's %s; %s is not in a segment",
                 ref->name, ref->name, slot_what(r, c->slot));
        return false;
    case REF_END: return eval_end(c, ref, &r->s->segs[t.index], out);
    case REF_CONSTANT: target = &r->const_slot[t.index]; break;
    case REF_FIELD: target = slot_at(r, t.field, t.index, 0); break;
    case REF_UNKNOWN: break;
    }
    if (!target) {
        unknown_name(c, ref);
        return false;
    }
    if (target->state == SLOT_BUSY) {
        Diag *e = error_at(r->d, C_cycle, ref->pos, "'%s' depends on itself", ref->name);
        diag_note(r->d, e, target->out->pos, "%s is defined here", slot_what(r, target));
        return false;
    }
    if (!eval_slot(r, target))
        return false;
    *out = target->out->v;
    reads_from(c->slot->out, t.kind == REF_CONSTANT ? &r->s->consts[t.index] : NULL, target->out);
    return true;
}

/* Evaluates slot `sl` into *out, false if it failed. */
static bool value_of(R *r, Slot *sl, uint64_t *out)
{
    if (!sl || !eval_slot(r, sl))
        return false;
    *out = sl->out->v;
    return true;
}

/* Without `base:` a segment starts where the previous non-AGP segment ends
 * (0 for the first); an AGP segment at 0. */
static bool default_base(R *r, Slot *sl, uint64_t *out)
{
    const Segment *g = sl->seg;
    unsigned i = g->id - 1;
    *out = 0;
    while (i > 0 && r->s->segs[i - 1].kind == SEG_AGP)
        i--;
    uint64_t b, z;
    if (g->kind == SEG_AGP || i == 0)
        return true;
    if (!value_of(r, slot_at(r, F_base, i - 1, 0), &b) || !value_of(r, slot_at(r, F_size, i - 1, 0), &z))
        return false;
    if (b > UINT64_MAX - z) {
        error_at(r->d, C_expr_overflow, g->pos, "the default base of %s (the previous segment's end) %s", slot_what(r, sl),
                 b + z == 0 ? "is 2^64, which no 64-bit value holds" : "overflows 64 bits");
        return false;
    }
    *out = b + z;
    return true;
}

/* The last bank without a size takes the rest of the segment. */
static bool default_bank(R *r, Slot *sl, uint64_t *out)
{
    const Segment *g = sl->seg;
    Slot *bs = r->bank_slot[g->id - 1];
    uint64_t size, used = 0;
    *out = 0;
    if (sl != &bs[g->nbanks - 1])
        return true;
    if (!value_of(r, slot_at(r, F_size, g->id - 1, 0), &size))
        return false;
    for (unsigned i = 0; i + 1 < g->nbanks; i++) {
        if (!eval_slot(r, &bs[i]))
            return false;
        if (used > UINT64_MAX - bs[i].out->v) {
            error_at(r->d, C_expr_overflow, bs[i].out->pos, "bank sizes overflow 64 bits");
            return false;
        }
        used += bs[i].out->v;
    }
    *out = used <= size ? size - used : 0;
    return true;
}

static bool eval_default(R *r, Slot *sl)
{
    uint64_t *v = &sl->out->v;
    switch (sl->field ? sl->field->def : DEF_ZERO) {
    case DEF_ZERO: *v = 0; return true;
    case DEF_PAGE: *v = DEFAULT_PAGE_SIZE; return true;
    case DEF_SIZE: return value_of(r, slot_at(r, F_size, sl->seg->id - 1, 0), v);
    case DEF_PREV_END: return default_base(r, sl, v);
    case DEF_BANK_REST: return default_bank(r, sl, v);
    case DEF_BAR_BITS: { /* bar_size is evaluated before (fields.def order) */
        const Bar *bar = (const Bar *)(const void *)((const char *)sl->out - offsetof(Bar, bits));
        *v = bar->size.v > BAR32_MAX ? 64 : 32;
        return true;
    }
    }
    return false;
}

static bool eval_expr(R *r, Slot *sl)
{
    Expr *e = expr_parse_scalar(r->a, sl->files, sl->node, r->d);
    if (!e)
        return false;
    /* `pages` needs the page size; page_size itself may not use it. */
    Slot *page = slot_at(r, F_page_size, 0, 0);
    uint64_t ps = 0;
    if (sl != page && page) {
        ps = DEFAULT_PAGE_SIZE;
        if (eval_slot(r, page) && page->out->v)
            ps = page->out->v;
    }
    EvalCtx c = {r, sl};
    EvalEnv env = {&c, lookup, ps};
    return expr_eval(e, &env, r->d, &sl->out->v);
}

/* What a slot's evaluation reported is about its segment (Subject). */
static void about_slot(R *r, Diag *const *mark, const Slot *sl)
{
    for (Diag *g = *mark; sl->seg && g; g = g->next)
        if (!g->about.seg)
            g->about = (Subject){.seg = (unsigned)(sl->seg - r->s->segs) + 1, .seg_name = sl->seg->name};
}

static bool eval_slot(R *r, Slot *sl)
{
    Diag **mark = r->d->tail;
    switch (sl->state) {
    case SLOT_DONE: return true;
    case SLOT_FAILED: return false;
    case SLOT_BUSY:
        /* Reached through a default (a segment's base defaults to the
         * previous one's end); references report their own cycles. */
        error_at(r->d, C_cycle, sl->seg ? sl->seg->pos : sl->out->pos, "%s depends on itself", slot_what(r, sl));
        about_slot(r, mark, sl);
        sl->state = SLOT_FAILED;
        sl->out->failed = true;
        return false;
    case SLOT_PENDING: break;
    }
    sl->state = SLOT_BUSY;
    bool ok = sl->node ? eval_expr(r, sl) : eval_default(r, sl);
    sl->state = ok ? SLOT_DONE : SLOT_FAILED;
    sl->out->failed = !ok;
    about_slot(r, mark, sl);
    return ok;
}

/* A failed value leaves its segment unresolved, and a board, BAR or
 * paging one the whole spec; a constant only the values that use it. */
static void eval_bound(R *r, Slot *sl)
{
    if (!sl || !sl->out || eval_slot(r, sl))
        return;
    if (sl->seg)
        sl->seg->unresolved = true;
    else
        r->broken = r->broken || sl->field;
}

/* Every field of scopes [lo, hi) in table order, each for every owner. */
static void eval_fields(R *r, FieldScope lo, FieldScope hi)
{
    const Spec *s = r->s;
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        FieldScope sc = field_table[f].scope;
        if (sc < lo || sc >= hi)
            continue;
        unsigned n = sc == SC_BOARD || sc == SC_PAGING ? 1 : sc == SC_BAR ? s->nbars : s->nsegs;
        for (unsigned i = 0; i < n; i++)
            for (unsigned k = 0; k < (sc == SC_BANK ? s->segs[i].nbanks : 1); k++)
                eval_bound(r, slot_at(r, (FieldId)f, i, k));
    }
}

static void evaluate(R *r)
{
    Spec *s = r->s;
    eval_fields(r, SC_BOARD, SC_BAR);
    for (unsigned i = 0; i < s->nconsts; i++)
        eval_bound(r, &r->const_slot[i]);
    eval_fields(r, SC_BAR, SC_QS4 + 1);
    for (unsigned i = 0; i < s->nsegs; i++) {
        Segment *g = &s->segs[i];
        uint64_t at = 0;
        for (unsigned k = 0; k < g->nbanks; k++) {
            g->banks[k].start = at;
            uint64_t z = g->banks[k].size.v;
            g->banks[k].end = at > UINT64_MAX - z ? UINT64_MAX : at + z;
            at = g->banks[k].end;
        }
    }
}

/* ---- entry points ---------------------------------------------------------- */

Spec *spec_resolve(Arena *a, const Source *src, const ResolveOpts *o, Diags *d)
{
    R r = {.a = a, .d = d, .o = o, .src = src, .files = src->files, .s = arena_alloc(a, sizeof(Spec)),
           .key = arena_alloc(a, spec_key_count)};
    for (size_t i = 0; i < spec_key_count; i++) /* counted by map, then placed */
        r.first[spec_keys[i].map + 2]++;
    for (unsigned m = 2; m < MAP_COUNT + 2; m++)
        r.first[m] += r.first[m - 1];
    for (size_t i = 0; i < spec_key_count; i++)
        r.key[r.first[spec_keys[i].map + 1]++] = (unsigned char)i;
    Spec *s = r.s;
    *s = (Spec){.file = src->files[0], .files = src->files, .nfiles = src->nfiles};
    const Node *root = src->root;
    Diag **mark = d->tail;
    check_keys(&r, root, MAP_SPEC, WORDS("the spec"));
    require_keys(&r, root, MAP_SPEC, WORDS("a spec"));
    build_board(&r, root);
    build_constants(&r, root);
    build_bars(&r, root);
    build_segments(&r, root);
    build_paging(&r, root);
    build_allocations(&r, root);
    apply_defines(&r);
    /* What these errors are about is left out of a whole model. */
    static const Code dropped[] = {C_unknown_flag, C_duplicate_flag, C_derived_flag, C_unknown_rule, C_waiver_refused,
                                   C_waiver_reason, C_unknown_bar, C_unknown_segment, C_unknown_constant};
    for (const Diag *g = *mark; g; g = g->next) {
        bool left_out = false;
        for (size_t i = 0; i < countof(dropped); i++)
            left_out = left_out || g->code == dropped[i];
        r.broken = r.broken || !left_out;
    }
    evaluate(&r);
    s->forms_from_option = o && o->ddi_forms;
    s->forms = s->forms_from_option ? o->ddi_forms : ddi_forms_for(s->wddm);
    /* Also for a name that is not an identifier (names-c-ident), so that
     * messages can say what it would make. */
    if (s->name) {
        s->camel = to_camel(a, s->name);
        s->upper = to_upper(a, s->name);
    }
    /* Other errors (reading included) make the model unreliable for the
     * rules. */
    return src->clean && !r.broken ? s : NULL;
}

Spec *spec_load(Arena *a, const char *path, const ResolveOpts *o, Diags *d)
{
    Source src;
    return spec_read(a, path, NULL, o, d, &src) ? spec_resolve(a, &src, o, d) : NULL;
}

Spec *spec_from_string(Arena *a, const char *name, const char *text, const ResolveOpts *o, Diags *d)
{
    Source src;
    SrcFile *f = src_from_string(a, name, text, strlen(text));
    return spec_read(a, name, f, o, d, &src) ? spec_resolve(a, &src, o, d) : NULL;
}

/* ---- model tables ------------------------------------------------------------ */

const FieldInfo field_table[FIELD_COUNT] = {
#define AT(qs, qs3, qs4) {qs, qs3, qs4}
#define FIELD(id, sc, owner, member, key, def, ref, dxgk, width, flags, at, write, doc) \
    {#id, sc, offsetof(owner, member), key, ref, dxgk, def, width, flags, at, write},
#include "fields.def"
#undef FIELD
#undef AT
};

const MapInfo spec_maps[MAP_COUNT] = {
#define MAP(id, noun, title, max, doc) {#id, noun, title, doc, max},
#define KEY(map, key, kind, target, values, merge, flags, doc)
#include "spec.def"
#undef MAP
#undef KEY
};

const char *const scope_map[] = {[SC_BOARD] = "board.", [SC_BAR] = "", [SC_SEG] = "", [SC_CPU] = "cpu_visible.",
                                 [SC_BANK] = "", [SC_PAGING] = "paging.", [SC_VPR] = "vpr.",
                                 [SC_HOST] = "cpu_host_aperture.", [SC_QS4] = ""};

/* The map each scope's fields are keys of. */
enum {
    MAP_OF_SC_BOARD = MAP_BOARD, MAP_OF_SC_BAR = MAP_BAR, MAP_OF_SC_SEG = MAP_SEGMENT, MAP_OF_SC_CPU = MAP_CPU_VISIBLE,
    MAP_OF_SC_BANK = MAP_BANK, MAP_OF_SC_PAGING = MAP_PAGING, MAP_OF_SC_VPR = MAP_VPR, MAP_OF_SC_HOST = MAP_HOST,
    MAP_OF_SC_QS4 = MAP_SEGMENT,
};

/* spec.def's keys, then one per field, in fields.def's order (so the key
 * of field f is spec_keys[spec_key_count - FIELD_COUNT + f]). */
#define VALUES(list) list, countof(list)
#define NO_VALUES NULL, 0
const KeyInfo spec_keys[] = {
#define MAP(id, noun, title, max, doc)
#define KEY(map, key, kind, target, values, merge, flags, doc) \
    {MAP_##map, key, kind, MAP_##target, values, merge, flags, -1, doc},
#include "spec.def"
#undef KEY
#undef MAP
#define FIELD(id, sc, owner, member, key, def, ref, dxgk, width, flags, at, write, doc) \
    {(SpecMap)MAP_OF_##sc, key, VK_EXPR, MAP_NONE, NO_VALUES, MERGE_REPLACE, flags, F_##id, doc},
#include "fields.def"
#undef FIELD
};
#undef VALUES
#undef NO_VALUES
const size_t spec_key_count = countof(spec_keys);
_Static_assert(countof(spec_keys) < 256, "R.key and R.first hold an index of spec_keys in a byte");

const KeyInfo *spec_key(int m, const char *key)
{
    for (size_t i = 0; key && i < spec_key_count; i++)
        if ((int)spec_keys[i].map == m && spec_keys[i].key[0] == key[0] && !strcmp(spec_keys[i].key, key))
            return &spec_keys[i];
    return NULL;
}

int spec_map_at(const char *const *path, unsigned depth)
{
    int m = MAP_SPEC;
    for (unsigned i = 0; i < depth && m >= 0; i++) {
        const KeyInfo *k = spec_key(m, path[i]);
        bool item = i + 1 < depth && !strcmp(path[i + 1], "#");
        bool seq = k && (k->kind == VK_SEQ || k->kind == VK_HINTS);
        if (!k || (k->kind != VK_MAP && k->kind != VK_MAPS && !seq))
            return -1;
        if (k->kind != VK_MAP && (i + 1 == depth || item != seq))
            return -1; /* a sequence's "#", a map of maps' entry name */
        i += k->kind != VK_MAP;
        m = (int)k->target;
    }
    return m;
}

bool field_in_mode(FieldId f, CpuMode mode)
{
    unsigned fl = field_table[f].flags;
    return fl & FF_BAR ? mode == CPU_BAR : fl & FF_ADDRESS ? mode == CPU_ADDRESS : true;
}

const char *field_written(FieldId f, const Segment *g, Pos *at)
{
    const FieldInfo *fi = &field_table[f];
    FieldScope sc = fi->scope;
    const char *key;
    *at = (Pos){0};
    if (fi->write == WR_NONE) /* the board's, a BAR's, the paging buffer's */
        return NULL;
    if (sc == SC_SEG || sc == SC_QS4) {
        *at = field_value(f, g)->pos;
        return field_value(f, g)->set ? fi->key : NULL;
    }
    /* The map the field is a key of, which sets its flag. */
    unsigned bit = sc == SC_CPU ? FB_cpu_visible : sc == SC_BANK ? FB_use_banking
                   : sc == SC_VPR ? FB_vpr_supported : FB_supports_cpu_host_aperture;
    return flag_key(g, bit, &key, at) && field_in_mode(f, sc == SC_HOST ? g->host.mode : g->cpu) ? key : NULL;
}

bool flag_key(const Segment *g, unsigned bit, const char **key, Pos *at)
{
    bool sets;
    switch (bit) {
    case FB_aperture: *key = "kind", *at = g->kind_pos, sets = g->kind == SEG_APERTURE; break;
    case FB_agp: *key = "kind", *at = g->kind_pos, sets = g->kind == SEG_AGP; break;
    case FB_cpu_visible: *key = "cpu_visible", *at = g->cpu_pos, sets = g->cpu != CPU_NONE; break;
    case FB_use_banking: *key = "banks", *at = g->banks_pos, sets = g->nbanks != 0; break;
    case FB_vpr_supported: *key = "vpr", *at = g->vpr.pos, sets = g->vpr.set; break;
    case FB_supports_cpu_host_aperture: *key = "cpu_host_aperture", *at = g->host.pos, sets = g->host.mode != CPU_NONE; break;
    default: *key = NULL, *at = (Pos){0}, sets = false;
    }
    return sets;
}

uint64_t field_max(FieldId f, const Spec *s)
{
    FieldWidth w = field_table[f].width;
    return w == W_32 || (w == W_SIZE_T && s->ptr_bytes == 4) ? UINT32_MAX : UINT64_MAX;
}

const FlagInfo flag_table[] = {
#define X(s, c, bit, v, d, doc) {#s, #c, doc, bit, v, d},
    SEGC_FLAGS(X)
#undef X
};
const size_t flag_count = countof(flag_table);

unsigned ddi_forms_for(unsigned wddm)
{
    return wddm < 0x12 ? DDI_QS : wddm < 0x20 ? DDI_QS3 : DDI_QS4;
}

const char *const ddi_form_names[DDI_FORMS] = {"qs", "qs3", "qs4"}; /* DDI_QS, DDI_QS3, DDI_QS4 */

unsigned ddi_forms_parse(const char *list)
{
    unsigned forms = 0;
    for (const char *p = list;; p++) { /* every item, the last too, is a form */
        size_t n = strcspn(p, ",");
        const char *const *form = NAMED(ddi_form_names, DDI_FORMS, p, n);
        if (!form)
            return 0;
        forms |= 1u << (form - ddi_form_names);
        p += n;
        if (!*p)
            return forms;
    }
}

const char *arch_name(Arch a)
{
    return arch_names[a];
}

const char *seg_kind_name(SegKind k)
{
    return kind_names[k];
}
