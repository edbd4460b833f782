/* resolve.c - from YAML nodes to a resolved Spec.
 *
 *   spec_load
 *     load_chain      read the file, follow `extends` (cycle- and depth-
 *                     checked), merge child over base at the node level
 *     build           check keys and types section by section, fill the
 *                     model, register every expression as a Slot
 *     apply -D        command-line overrides replace constants' slots
 *     evaluate        every slot, lazily: a reference evaluates its target
 *                     first; a slot met again while busy is a cycle
 *
 * Positions survive merging because nodes are shared, never copied: a value
 * that came from a base file still points into that file. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

/* ---- slots: one per expression-valued field ----------------------------- */

typedef enum { DEF_NONE, DEF_ZERO, DEF_PREV_END, DEF_SIZE, DEF_PAGE, DEF_BANK_REST } DefaultKind;
typedef enum { SLOT_PENDING, SLOT_BUSY, SLOT_DONE, SLOT_FAILED } SlotState;

typedef struct Slot {
    const Node *node;     /* the scalar, or NULL when defaulted */
    Value *out;
    Segment *seg;         /* context for `size` / `base` */
    DefaultKind def;
    const char *what;     /* "segment 'local' size", for cycle notes */
    SlotState state;
} Slot;

typedef struct R {
    Arena *a;
    Diags *d;
    const ResolveOpts *o;
    Spec *s;
    const SrcFile **files;
    unsigned nfiles, capfiles;
    /* Slots by role, parallel to the model arrays. */
    Slot *const_slot, *bar_size, *bar_index, *seg_base, *seg_size, *seg_commit, *seg_sysend,
        *seg_cpu_off, *seg_cpu_addr, *page_slot, *paging_size, *paging_priv;
    Slot **bank_slot;
    /* Fields nothing can refer to (QUERYSEGMENT4's): evaluated last. */
    Slot *extra;
    unsigned nextra, capextra;
    /* Keys reported as unknown, so a missing key they misspell is not
     * reported a second time. */
    const Node *unknown[64];
    unsigned nunknown;
} R;

typedef struct EvalCtx {
    R *r;
    Slot *slot;
} EvalCtx;

static bool eval_slot(R *r, Slot *sl);

/* ---- small helpers ------------------------------------------------------ */

static Pos key_pos(const Node *key)
{
    Pos p = key->pos;
    p.len = (uint32_t)key->len;
    return p;
}

static Pos val_pos(const Node *n)
{
    Pos p = n->pos;
    if (n->kind == NODE_SCALAR && n->style != SCALAR_BLOCK)
        p.len = (uint32_t)n->len + (n->style == SCALAR_PLAIN ? 0 : 2);
    return p;
}

static const char *article_kind(NodeKind k)
{
    switch (k) {
    case NODE_SCALAR: return "a scalar";
    case NODE_MAP: return "a mapping";
    case NODE_SEQ: return "a sequence";
    }
    return "?";
}

static bool expect_kind(R *r, const Node *n, NodeKind k, const char *what)
{
    if (n->kind == k)
        return true;
    error_at(r->d, "wrong-type", val_pos(n), "%s must be %s, not %s", what, article_kind(k),
             article_kind(n->kind));
    return false;
}

/* Reports every key of `map` not in `allowed`, with a did-you-mean. */
static void check_keys(R *r, const Node *map, const char *const *allowed, size_t n, const char *where)
{
    for (size_t i = 0; i < map->npairs; i++) {
        const Node *k = map->pairs[i].key;
        bool ok = false;
        for (size_t j = 0; j < n && !ok; j++)
            ok = strcmp(k->str, allowed[j]) == 0;
        if (ok)
            continue;
        Diag *g = error_at(r->d, "unknown-key", key_pos(k), "unknown key '%s' in %s", k->str, where);
        if (r->nunknown < countof(r->unknown))
            r->unknown[r->nunknown++] = k;
        const char *near = closest_name(k->str, allowed, n);
        if (near)
            diag_fixit(r->d, g, "did you mean '%s'?", near);
        else {
            Buf b = {0};
            for (size_t j = 0; j < n; j++)
                buf_printf(&b, "%s%s", j ? ", " : "", allowed[j]);
            diag_fixit(r->d, g, "%s takes: %s", where, b.p);
            buf_free(&b);
        }
    }
}

/* Whether `map` has a key reported unknown that misspells `key`. */
static bool misspelt(const R *r, const Node *map, const char *key)
{
    const char *cand[] = {key};
    for (size_t i = 0; i < map->npairs; i++)
        for (unsigned u = 0; u < r->nunknown; u++)
            if (r->unknown[u] == map->pairs[i].key && closest_name(map->pairs[i].key->str, cand, 1))
                return true;
    return false;
}

static const Node *require(R *r, const Node *map, const char *key, const char *where)
{
    const Node *v = node_get(map, key);
    if (v)
        return v;
    /* A misspelt key already got "did you mean '<key>'?": say it once. */
    if (misspelt(r, map, key))
        return NULL;
    error_at(r->d, "missing-key", map->pos, "%s needs a '%s' key", where, key);
    return NULL;
}

static const NodePair *pair_of(const Node *map, const char *key)
{
    if (!map || map->kind != NODE_MAP)
        return NULL;
    for (size_t i = 0; i < map->npairs; i++)
        if (strcmp(map->pairs[i].key->str, key) == 0)
            return &map->pairs[i];
    return NULL;
}

/* ---- loading and merging the extends chain ------------------------------ */

static Node *map_new(Arena *a, const Node *like, size_t cap)
{
    Node *m = arena_alloc(a, sizeof *m);
    m->kind = NODE_MAP;
    m->pos = like->pos;
    m->pairs = arena_alloc(a, (cap ? cap : 1) * sizeof *m->pairs);
    return m;
}

static void map_set(Node *m, Node *key, Node *value)
{
    for (size_t i = 0; i < m->npairs; i++)
        if (strcmp(m->pairs[i].key->str, key->str) == 0) {
            m->pairs[i].key = key;
            m->pairs[i].value = value;
            return;
        }
    m->pairs[m->npairs].key = key;
    m->pairs[m->npairs].value = value;
    m->npairs++;
}

/* Child keys override base keys one by one. */
static Node *merge_maps(Arena *a, const Node *base, const Node *child)
{
    Node *m = map_new(a, child, base->npairs + child->npairs);
    for (size_t i = 0; i < base->npairs; i++)
        map_set(m, base->pairs[i].key, base->pairs[i].value);
    for (size_t i = 0; i < child->npairs; i++)
        map_set(m, child->pairs[i].key, child->pairs[i].value);
    return m;
}

static const char *seg_item_name(const Node *item)
{
    const Node *n = node_get(item, "name");
    return n && n->kind == NODE_SCALAR ? n->str : NULL;
}

/* Segments merge by name key by key; new ones append. */
static Node *merge_segments(R *r, const Node *base, const Node *child)
{
    Node *s = arena_alloc(r->a, sizeof *s);
    s->kind = NODE_SEQ;
    s->pos = child->pos;
    s->items = arena_alloc(r->a, (base->nitems + child->nitems + 1) * sizeof *s->items);
    for (size_t i = 0; i < base->nitems; i++)
        s->items[s->nitems++] = base->items[i];
    for (size_t i = 0; i < child->nitems; i++) {
        Node *c = child->items[i];
        const char *name = c->kind == NODE_MAP ? seg_item_name(c) : NULL;
        size_t j = 0;
        if (name)
            for (; j < s->nitems; j++) {
                const char *bn = s->items[j]->kind == NODE_MAP ? seg_item_name(s->items[j]) : NULL;
                if (bn && strcmp(bn, name) == 0)
                    break;
            }
        if (name && j < s->nitems)
            s->items[j] = merge_maps(r->a, s->items[j], c);
        else
            s->items[s->nitems++] = c;
    }
    return s;
}

static Node *merge_specs(R *r, const Node *base, const Node *child)
{
    Node *m = map_new(r->a, child, base->npairs + child->npairs);
    for (size_t i = 0; i < base->npairs; i++)
        if (strcmp(base->pairs[i].key->str, "extends") != 0)
            map_set(m, base->pairs[i].key, base->pairs[i].value);
    for (size_t i = 0; i < child->npairs; i++) {
        Node *k = child->pairs[i].key, *v = child->pairs[i].value;
        const NodePair *bp = pair_of(m, k->str);
        Node *bv = bp ? bp->value : NULL;
        if (strcmp(k->str, "extends") == 0)
            continue;
        if (bv && bv->kind == NODE_MAP && v->kind == NODE_MAP &&
            (!strcmp(k->str, "board") || !strcmp(k->str, "constants") || !strcmp(k->str, "bars") ||
             !strcmp(k->str, "paging")))
            v = merge_maps(r->a, bv, v);
        else if (bv && bv->kind == NODE_SEQ && v->kind == NODE_SEQ && !strcmp(k->str, "segments"))
            v = merge_segments(r, bv, v);
        map_set(m, k, v);
    }
    return m;
}

static char *dir_of(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(a, path, (size_t)(slash - path + 1)) : arena_strdup(a, "");
}

static bool file_exists(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* Where `extends: target` written in `from` points: relative to the
 * including file, then each -I directory. */
static char *find_extends(R *r, const char *from, const char *target)
{
    if (target[0] == '/')
        return arena_strdup(r->a, target);
    /* A file named "-" beside a spec in the current directory is "./-":
     * src_read would take a bare "-" for standard input. */
    const char *dir = dir_of(r->a, from);
    char *p = arena_printf(r->a, "%s%s", !strcmp(target, "-") && !*dir ? "./" : dir, target);
    if (file_exists(p))
        return p;
    for (unsigned i = 0; r->o && i < r->o->ninclude; i++) {
        char *q = arena_printf(r->a, "%s/%s", r->o->include_dirs[i], target);
        if (file_exists(q))
            return q;
    }
    return p;
}

typedef struct Chain {
    const struct Chain *up;
    const char *real;
} Chain;

static void add_file(R *r, const SrcFile *f)
{
    if (r->nfiles == r->capfiles) {
        unsigned cap = r->capfiles ? r->capfiles * 2 : 4;
        const SrcFile **nf = arena_alloc(r->a, cap * sizeof *nf);
        if (r->nfiles)
            memcpy(nf, r->files, r->nfiles * sizeof *nf);
        r->files = nf;
        r->capfiles = cap;
    }
    r->files[r->nfiles++] = f;
}

static void check_version(R *r, const Node *root)
{
    const NodePair *p = pair_of(root, "segc");
    if (!p) {
        Diag *g = error_at(r->d, "missing-version", root->pos,
                           "a spec must start with the format version 'segc: %d'", SEGC_FORMAT_VERSION);
        diag_fixit(r->d, g, "add 'segc: %d' as the first line", SEGC_FORMAT_VERSION);
        return;
    }
    const Node *v = p->value;
    if (v->kind != NODE_SCALAR || strcmp(v->str, "1") != 0)
        error_at(r->d, "unsupported-version", val_pos(v),
                 "unsupported format version '%s'; this segc reads version %d",
                 v->kind == NODE_SCALAR ? v->str : article_kind(v->kind), SEGC_FORMAT_VERSION);
}

static Node *load_chain(R *r, const char *path, const SrcFile *src, const Chain *up, unsigned depth,
                        Pos from)
{
    if (!src) {
        Diags local;
        diags_init(&local, r->a);
        src = src_read(r->a, path, &local);
        if (!src) {
            /* Re-report a missing base at the `extends:` that named it. */
            for (Diag *g = local.head; g; g = g->next) {
                Diag *n = from.file ? error_at(r->d, "extends", from, "cannot read '%s': %s", path, g->msg)
                                    : diag_add(r->d, g->sev, g->code, g->pos, "%s", g->msg);
                (void)n;
            }
            return NULL;
        }
    }
    char *real = realpath(path, NULL);
    const char *key = real ? arena_strdup(r->a, real) : src->name;
    free(real);
    for (const Chain *c = up; c; c = c->up)
        if (strcmp(c->real, key) == 0) {
            error_at(r->d, "extends-cycle", from, "'%s' extends itself through this chain", src->name);
            return NULL;
        }
    unsigned maxd = r->o && r->o->max_extends_depth ? r->o->max_extends_depth : 16;
    if (depth > maxd) {
        error_at(r->d, "limit-extends", from, "extends chain deeper than %u files", maxd);
        return NULL;
    }
    add_file(r, src);
    Node *root = yaml_load(r->a, src, &load_default_limits, r->d);
    if (!root)
        return NULL;
    if (!expect_kind(r, root, NODE_MAP, "a spec"))
        return NULL;
    check_version(r, root);
    const Node *ext = node_get(root, "extends");
    if (!ext)
        return root;
    if (!expect_kind(r, ext, NODE_SCALAR, "'extends'"))
        return NULL;
    Chain me = {up, key};
    char *bpath = find_extends(r, src->name, ext->str);
    Node *base = load_chain(r, bpath, NULL, &me, depth + 1, val_pos(ext));
    if (!base)
        return NULL;
    return merge_specs(r, base, root);
}

/* ---- building the model -------------------------------------------------- */

static Slot *slots(R *r, size_t n)
{
    return arena_alloc(r->a, (n ? n : 1) * sizeof(Slot));
}

static void set_slot(Slot *sl, const Node *n, Value *out, Segment *seg, DefaultKind def, const char *what)
{
    sl->node = n;
    sl->out = out;
    sl->seg = seg;
    sl->def = def;
    sl->what = what;
    if (n) {
        out->set = true;
        out->pos = val_pos(n);
    }
}

/* An expression field: must be a scalar. */
static const Node *expr_node(R *r, const Node *map, const char *key, const char *where)
{
    const Node *n = node_get(map, key);
    if (!n)
        return NULL;
    if (!expect_kind(r, n, NODE_SCALAR, arena_printf(r->a, "'%s' of %s", key, where)))
        return NULL;
    return n;
}

static const char *scalar_str(R *r, const Node *map, const char *key, const char *where, Pos *pos)
{
    const Node *n = node_get(map, key);
    if (!n)
        return NULL;
    if (!expect_kind(r, n, NODE_SCALAR, arena_printf(r->a, "'%s' of %s", key, where)))
        return NULL;
    if (pos)
        *pos = val_pos(n);
    return n->str;
}

static const char *const top_keys[] = {"segc", "extends", "board", "constants", "bars", "segments", "paging"};
static const char *const board_keys[] = {"name", "wddm", "arch", "page_size"};
static const char *const bar_keys[] = {"index", "size"};
static const char *const seg_keys[] = {"name", "kind", "base", "size", "commit_limit", "cpu_visible",
                                       "flags", "banks", "system_memory_end", "waive", "vpr", "cpu_host_aperture",
                                       "invalid_memory_ranges", "uefi_frame_buffer_ranges"};
static const char *const vpr_keys[] = {"range_start", "range_size", "alignment", "count", "reserve_size"};
static const char *const host_keys[] = {"bar", "offset", "address", "size"};
static const char *const cpu_keys[] = {"bar", "offset", "address"};
static const char *const bank_keys[] = {"name", "size"};
static const char *const paging_keys[] = {"segment", "buffer_size", "private_data_size"};
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
    Buf b = {0};
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    Diag *g = error_at(r->d, "bad-value", pos, "unknown %s '%s' (one of: %s)", what, s, b.p);
    buf_free(&b);
    const char *near = closest_name(s, names, n);
    if (near)
        diag_fixit(r->d, g, "did you mean '%s'?", near);
    return -1;
}

static void build_board(R *r, const Node *root)
{
    Spec *s = r->s;
    s->arch = ARCH_X64;
    s->wddm = 0x13;
    s->forms = ddi_forms_for(s->wddm);
    const Node *b = require(r, root, "board", "a spec");
    if (!b || !expect_kind(r, b, NODE_MAP, "'board'"))
        return;
    check_keys(r, b, board_keys, countof(board_keys), "'board'");
    if (require(r, b, "name", "'board'"))
        s->name = scalar_str(r, b, "name", "'board'", &s->name_pos);
    Pos p;
    const char *w = scalar_str(r, b, "wddm", "'board'", &p);
    if (w) {
        s->wddm_pos = p;
        int i = pick(r, w, p, wddm_names, countof(wddm_names), "WDDM version");
        if (i >= 0)
            s->wddm = (unsigned)((w[0] - '0') << 4 | (w[2] - '0'));
    }
    s->forms = ddi_forms_for(s->wddm);
    const char *a = scalar_str(r, b, "arch", "'board'", &p);
    if (a) {
        s->arch_pos = p;
        int i = pick(r, a, p, arch_names, countof(arch_names), "arch");
        if (i >= 0)
            s->arch = (Arch)i;
    }
    s->ptr_bytes = s->arch == ARCH_X86 ? 4 : 8;
    r->page_slot = slots(r, 1);
    set_slot(r->page_slot, expr_node(r, b, "page_size", "'board'"), &s->page_size, NULL, DEF_PAGE,
             "board page_size");
}

static void build_constants(R *r, const Node *root)
{
    const Node *c = node_get(root, "constants");
    Spec *s = r->s;
    if (!c || !expect_kind(r, c, NODE_MAP, "'constants'"))
        return;
    size_t n = c->npairs;
    if (n > MAX_CONSTANTS) {
        error_at(r->d, "limit-constants", key_pos(c->pairs[MAX_CONSTANTS].key), "more than %u constants",
                 (unsigned)MAX_CONSTANTS);
        n = MAX_CONSTANTS;
    }
    s->consts = arena_alloc(r->a, (n + (r->o ? r->o->ndefines : 0) + 1) * sizeof *s->consts);
    r->const_slot = slots(r, n + (r->o ? r->o->ndefines : 0));
    for (size_t i = 0; i < n; i++) {
        const Node *k = c->pairs[i].key, *v = c->pairs[i].value;
        Constant *k2 = &s->consts[s->nconsts];
        k2->name = k->str;
        k2->pos = key_pos(k);
        if (!is_c_ident(k->str))
            error_at(r->d, "bad-name", key_pos(k), "constant name '%s' is not an identifier", k->str);
        static const char *const reserved[] = {"size", "base", "page_size", "bar"};
        for (size_t j = 0; j < countof(reserved); j++)
            if (!strcmp(k->str, reserved[j]))
                error_at(r->d, "bad-name", key_pos(k), "'%s' is a reserved name in expressions", k->str);
        if (!expect_kind(r, v, NODE_SCALAR, arena_printf(r->a, "constant '%s'", k->str)))
            v = NULL;
        set_slot(&r->const_slot[s->nconsts], v, &k2->val, NULL, v ? DEF_NONE : DEF_ZERO,
                 arena_printf(r->a, "constant '%s'", k->str));
        s->nconsts++;
    }
}

static void build_bars(R *r, const Node *root)
{
    const Node *b = node_get(root, "bars");
    Spec *s = r->s;
    if (!b || !expect_kind(r, b, NODE_MAP, "'bars'"))
        return;
    size_t n = b->npairs;
    s->bars = arena_alloc(r->a, (n + 1) * sizeof *s->bars);
    r->bar_size = slots(r, n);
    r->bar_index = slots(r, n);
    for (size_t i = 0; i < n; i++) {
        const Node *k = b->pairs[i].key, *v = b->pairs[i].value;
        Bar *bar = &s->bars[s->nbars];
        bar->name = k->str;
        bar->pos = key_pos(k);
        const char *where = arena_printf(r->a, "BAR '%s'", k->str);
        if (!expect_kind(r, v, NODE_MAP, where))
            v = NULL;
        if (v) {
            check_keys(r, v, bar_keys, countof(bar_keys), where);
            require(r, v, "index", where);
            require(r, v, "size", where);
        }
        set_slot(&r->bar_index[s->nbars], v ? expr_node(r, v, "index", where) : NULL, &bar->index, NULL,
                 DEF_ZERO, arena_printf(r->a, "%s index", where));
        set_slot(&r->bar_size[s->nbars], v ? expr_node(r, v, "size", where) : NULL, &bar->size, NULL,
                 DEF_ZERO, arena_printf(r->a, "%s size", where));
        s->nbars++;
    }
}

static const Bar *find_bar(const Spec *s, const char *name)
{
    for (unsigned i = 0; i < s->nbars; i++)
        if (!strcmp(s->bars[i].name, name))
            return &s->bars[i];
    return NULL;
}

static void build_flags(R *r, Segment *g, const Node *fl, const char *where)
{
    if (!expect_kind(r, fl, NODE_SEQ, arena_printf(r->a, "'flags' of %s", where)))
        return;
    g->flags_pos = fl->pos;
    for (size_t i = 0; i < fl->nitems; i++) {
        const Node *f = fl->items[i];
        if (!expect_kind(r, f, NODE_SCALAR, "a flag"))
            continue;
        Pos p = val_pos(f);
        const FlagInfo *fi = flag_by_name(f->str);
        if (!fi) {
            const char *names[64];
            for (size_t j = 0; j < flag_count; j++)
                names[j] = flag_table[j].name;
            Diag *e = error_at(r->d, "unknown-flag", p, "unknown segment flag '%s'", f->str);
            const char *near = closest_name(f->str, names, flag_count);
            if (near)
                diag_fixit(r->d, e, "did you mean '%s'?", near);
            continue;
        }
        if (fi->derived) {
            static const char *const why[] = {"kind: aperture", "kind: agp", "cpu_visible:", "banks:"};
            Diag *e = error_at(r->d, "derived-flag", p, "'%s' is not written in flags: segc derives it from '%s'",
                               f->str, why[fi->bit]);
            diag_fixit(r->d, e, "remove '%s' and write '%s' instead", f->str, why[fi->bit]);
            continue;
        }
        uint32_t m = 1u << fi->bit;
        if (g->flags_written & m) {
            Diag *e = error_at(r->d, "duplicate-flag", p, "flag '%s' is written twice", f->str);
            diag_note(r->d, e, g->flag_pos[fi->bit], "first written here");
            continue;
        }
        g->flags_written |= m;
        g->flag_pos[fi->bit] = p;
    }
}

static void build_waivers(R *r, Segment *g, const Node *w, const char *where)
{
    if (!expect_kind(r, w, NODE_MAP, arena_printf(r->a, "'waive' of %s", where)))
        return;
    g->waivers = arena_alloc(r->a, (w->npairs + 1) * sizeof *g->waivers);
    for (size_t i = 0; i < w->npairs; i++) {
        const Node *k = w->pairs[i].key, *v = w->pairs[i].value;
        int id = rule_by_name(k->str);
        if (id < 0) {
            Diag *e = error_at(r->d, "unknown-rule", key_pos(k), "cannot waive unknown rule '%s'", k->str);
            const char *near = rule_closest(k->str);
            if (near)
                diag_fixit(r->d, e, "did you mean '%s'?", near);
            continue;
        }
        if (!rule_waivable(id)) {
            if (rule_table[id].cls == CLASS_INVARIANT)
                error_at(r->d, "waiver-refused", key_pos(k), "'%s' is an invariant, which no waiver can switch off: %s",
                         k->str, rule_table[id].why);
            else
                error_at(r->d, "waiver-refused", key_pos(k),
                         "'%s' is about the whole board, not one segment: switch it with -Wno-%s", k->str, k->str);
            continue;
        }
        if (!expect_kind(r, v, NODE_SCALAR, "a waiver reason"))
            continue;
        if (v->len == 0) {
            error_at(r->d, "waiver-reason", key_pos(k),
                     "waiving '%s' needs a reason, so the waiver stays reviewable", k->str);
            continue;
        }
        Waiver *wv = &g->waivers[g->nwaivers++];
        wv->rule = k->str;
        wv->reason = v->str;
        wv->pos = key_pos(k);
    }
}

static Slot *extra_slot(R *r)
{
    if (r->nextra == r->capextra) {
        unsigned cap = r->capextra ? r->capextra * 2 : 16;
        Slot *n = slots(r, cap);
        if (r->nextra)
            memcpy(n, r->extra, r->nextra * sizeof *n);
        r->extra = n;
        r->capextra = cap;
    }
    return &r->extra[r->nextra++];
}

static void extra_expr(R *r, const Node *map, const char *key, Value *out, Segment *g, const char *where)
{
    set_slot(extra_slot(r), expr_node(r, map, key, where), out, g, DEF_ZERO, arena_printf(r->a, "%s %s", where, key));
}

/* vpr: { range_start, range_size, alignment, count, reserve_size } */
static void build_vpr(R *r, Segment *g, const Node *v, const char *where)
{
    if (!expect_kind(r, v, NODE_MAP, arena_printf(r->a, "'vpr' of %s", where)))
        return;
    check_keys(r, v, vpr_keys, countof(vpr_keys), "'vpr'");
    require(r, v, "range_size", "'vpr'");
    g->vpr.set = true;
    g->vpr.pos = v->pos;
    const char *w = arena_printf(r->a, "'vpr' of %s", where);
    extra_expr(r, v, "range_start", &g->vpr.range_start, g, w);
    extra_expr(r, v, "range_size", &g->vpr.range_size, g, w);
    extra_expr(r, v, "alignment", &g->vpr.alignment, g, w);
    extra_expr(r, v, "count", &g->vpr.count, g, w);
    extra_expr(r, v, "reserve_size", &g->vpr.reserve_size, g, w);
}

/* cpu_host_aperture: { bar, offset, size } or { address, size } */
static void build_host(R *r, Segment *g, const Node *h, const char *where)
{
    if (!expect_kind(r, h, NODE_MAP, arena_printf(r->a, "'cpu_host_aperture' of %s", where)))
        return;
    check_keys(r, h, host_keys, countof(host_keys), "'cpu_host_aperture'");
    require(r, h, "size", "'cpu_host_aperture'");
    g->host.pos = h->pos;
    const NodePair *bar = pair_of(h, "bar"), *addr = pair_of(h, "address");
    const char *w = arena_printf(r->a, "'cpu_host_aperture' of %s", where);
    if (bar && addr) {
        Diag *e = error_at(r->d, "cpu-visible-form", key_pos(addr->key),
                           "cpu_host_aperture takes either 'bar' (+ 'offset') or 'address', not both");
        diag_note(r->d, e, key_pos(bar->key), "'bar' written here");
        return;
    }
    if (!bar && !addr) {
        error_at(r->d, "cpu-visible-form", h->pos, "cpu_host_aperture needs 'bar' (+ 'offset') or 'address'");
        return;
    }
    if (bar) {
        Pos bp;
        const char *bn = scalar_str(r, h, "bar", "'cpu_host_aperture'", &bp);
        if (bn && !(g->host.bar = find_bar(r->s, bn))) {
            error_at(r->d, "unknown-bar", bp, "no BAR named '%s' in 'bars:'", bn);
            return;
        }
        g->host.mode = CPU_BAR;
        extra_expr(r, h, "offset", &g->host.offset, g, w);
    } else {
        g->host.mode = CPU_ADDRESS;
        extra_expr(r, h, "address", &g->host.address, g, w);
    }
    extra_expr(r, h, "size", &g->host.size, g, w);
}

static void build_segment(R *r, unsigned idx, const Node *item)
{
    Spec *s = r->s;
    Segment *g = &s->segs[idx];
    g->id = idx + 1;
    const char *where = arena_printf(r->a, "segment %u", idx + 1);
    g->pos = item->pos;
    if (!expect_kind(r, item, NODE_MAP, where)) {
        /* Its values are unknown: a later segment whose base defaults to
         * this one's end fails quietly instead of reading a NULL slot. */
        Slot *own[] = {&r->seg_base[idx], &r->seg_size[idx], &r->seg_commit[idx], &r->seg_sysend[idx],
                       &r->seg_cpu_off[idx], &r->seg_cpu_addr[idx]};
        Value *vals[] = {&g->base, &g->size, &g->commit_limit, &g->system_memory_end, &g->cpu_offset,
                         &g->cpu_address};
        for (size_t i = 0; i < countof(own); i++) {
            set_slot(own[i], NULL, vals[i], g, DEF_NONE, where);
            own[i]->state = SLOT_FAILED;
        }
        return;
    }
    check_keys(r, item, seg_keys, countof(seg_keys), "a segment");
    if (require(r, item, "name", where)) {
        g->name = scalar_str(r, item, "name", where, &g->pos);
        if (g->name)
            where = arena_printf(r->a, "segment '%s'", g->name);
    }
    Pos kp;
    const char *kind = require(r, item, "kind", where) ? scalar_str(r, item, "kind", where, &kp) : NULL;
    if (kind) {
        g->kind_pos = kp;
        int k = pick(r, kind, kp, kind_names, countof(kind_names), "segment kind");
        g->kind = k < 0 ? SEG_MEMORY : (SegKind)k;
    }
    set_slot(&r->seg_base[idx], expr_node(r, item, "base", where), &g->base, g,
             g->kind == SEG_AGP ? DEF_ZERO : DEF_PREV_END, arena_printf(r->a, "%s base", where));
    const Node *size = expr_node(r, item, "size", where);
    if (!size && g->kind != SEG_AGP && node_get(item, "size") == NULL)
        require(r, item, "size", where);
    set_slot(&r->seg_size[idx], size, &g->size, g, DEF_ZERO, arena_printf(r->a, "%s size", where));
    set_slot(&r->seg_commit[idx], expr_node(r, item, "commit_limit", where), &g->commit_limit, g, DEF_SIZE,
             arena_printf(r->a, "%s commit_limit", where));
    set_slot(&r->seg_sysend[idx], expr_node(r, item, "system_memory_end", where), &g->system_memory_end, g,
             DEF_ZERO, arena_printf(r->a, "%s system_memory_end", where));

    const Node *cv = node_get(item, "cpu_visible");
    if (cv && expect_kind(r, cv, NODE_MAP, arena_printf(r->a, "'cpu_visible' of %s", where))) {
        check_keys(r, cv, cpu_keys, countof(cpu_keys), "'cpu_visible'");
        g->cpu_pos = cv->pos;
        const NodePair *bar = pair_of(cv, "bar"), *addr = pair_of(cv, "address");
        if (bar && addr) {
            Diag *e = error_at(r->d, "cpu-visible-form", key_pos(addr->key),
                               "cpu_visible takes either 'bar' (+ 'offset') or 'address', not both");
            diag_note(r->d, e, key_pos(bar->key), "'bar' written here");
        } else if (!bar && !addr) {
            if (!misspelt(r, cv, "bar") && !misspelt(r, cv, "address"))
                error_at(r->d, "cpu-visible-form", cv->pos, "cpu_visible needs 'bar' (+ 'offset') or 'address'");
        } else if (bar) {
            g->cpu = CPU_BAR;
            Pos bp;
            const char *bn = scalar_str(r, cv, "bar", "'cpu_visible'", &bp);
            g->cpu_bar_pos = bp;
            if (bn) {
                g->cpu_bar = find_bar(s, bn);
                if (!g->cpu_bar) {
                    const char *names[MAX_BARS + 64];
                    size_t nn = 0;
                    for (unsigned i = 0; i < s->nbars && nn < countof(names); i++)
                        names[nn++] = s->bars[i].name;
                    Diag *e = error_at(r->d, "unknown-bar", bp, "no BAR named '%s' in 'bars:'", bn);
                    const char *near = closest_name(bn, names, nn);
                    if (near)
                        diag_fixit(r->d, e, "did you mean '%s'?", near);
                }
            }
            set_slot(&r->seg_cpu_off[idx], expr_node(r, cv, "offset", "'cpu_visible'"), &g->cpu_offset, g,
                     DEF_ZERO, arena_printf(r->a, "%s cpu_visible offset", where));
        } else {
            g->cpu = CPU_ADDRESS;
            set_slot(&r->seg_cpu_addr[idx], expr_node(r, cv, "address", "'cpu_visible'"), &g->cpu_address, g,
                     DEF_ZERO, arena_printf(r->a, "%s cpu_visible address", where));
        }
    }

    const Node *fl = node_get(item, "flags");
    if (fl)
        build_flags(r, g, fl, where);

    const Node *bk = node_get(item, "banks");
    if (bk && expect_kind(r, bk, NODE_SEQ, arena_printf(r->a, "'banks' of %s", where))) {
        g->banks_pos = bk->pos;
        size_t n = bk->nitems;
        /* More than MAX_BANKS is a rule (banks-max); keep a sane cap
         * against hostile input (the bank checks are quadratic). */
        if (n > 4 * MAX_BANKS) {
            error_at(r->d, "limit-banks", bk->items[4 * MAX_BANKS]->pos, "more than %u banks in %s",
                     4 * MAX_BANKS, where);
            n = 4 * MAX_BANKS;
        }
        g->banks = arena_alloc(r->a, (n + 1) * sizeof *g->banks);
        r->bank_slot[idx] = slots(r, n);
        for (size_t i = 0; i < n; i++) {
            const Node *b = bk->items[i];
            Bank *bank = &g->banks[g->nbanks];
            const char *bw = arena_printf(r->a, "bank %zu of %s", i + 1, where);
            bank->pos = b->pos;
            if (!expect_kind(r, b, NODE_MAP, bw))
                continue;
            check_keys(r, b, bank_keys, countof(bank_keys), "a bank");
            if (require(r, b, "name", bw))
                bank->name = scalar_str(r, b, "name", bw, &bank->pos);
            const Node *sz = expr_node(r, b, "size", bw);
            if (!sz && !node_get(b, "size") && i + 1 < n)
                error_at(r->d, "missing-key", b->pos, "%s needs a 'size' (only the last bank may omit it)", bw);
            set_slot(&r->bank_slot[idx][g->nbanks], sz, &bank->size, g, i + 1 == n ? DEF_BANK_REST : DEF_ZERO,
                     arena_printf(r->a, "%s size", bw));
            g->nbanks++;
        }
    }

    const Node *w = node_get(item, "waive");
    if (w)
        build_waivers(r, g, w, where);
    const Node *vpr = node_get(item, "vpr");
    if (vpr)
        build_vpr(r, g, vpr, where);
    const Node *host = node_get(item, "cpu_host_aperture");
    if (host)
        build_host(r, g, host, where);
    extra_expr(r, item, "invalid_memory_ranges", &g->invalid_ranges, g, where);
    extra_expr(r, item, "uefi_frame_buffer_ranges", &g->uefi_ranges, g, where);

    /* Derived flags. */
    g->flags = g->flags_written;
    if (g->kind == SEG_APERTURE)
        g->flags |= FLAG_aperture;
    if (g->kind == SEG_AGP)
        g->flags |= FLAG_agp;
    if (g->cpu != CPU_NONE)
        g->flags |= FLAG_cpu_visible;
    if (g->nbanks)
        g->flags |= FLAG_use_banking;
    if (g->vpr.set)
        g->flags |= FLAG_vpr_supported;
    if (g->host.mode != CPU_NONE)
        g->flags |= FLAG_supports_cpu_host_aperture;
}

static void build_segments(R *r, const Node *root)
{
    Spec *s = r->s;
    const Node *sq = require(r, root, "segments", "a spec");
    if (!sq || !expect_kind(r, sq, NODE_SEQ, "'segments'"))
        return;
    s->segs_pos = val_pos(sq);
    size_t n = sq->nitems;
    /* More than MAX_SEGMENTS is a rule (segments-max); keep a sane cap
     * against hostile input. */
    if (n > 4 * MAX_SEGMENTS) {
        error_at(r->d, "limit-segments", sq->items[4 * MAX_SEGMENTS]->pos, "more than %u segments",
                 4 * MAX_SEGMENTS);
        n = 4 * MAX_SEGMENTS;
    }
    s->segs = arena_alloc(r->a, (n + 1) * sizeof *s->segs);
    r->seg_base = slots(r, n);
    r->seg_size = slots(r, n);
    r->seg_commit = slots(r, n);
    r->seg_sysend = slots(r, n);
    r->seg_cpu_off = slots(r, n);
    r->seg_cpu_addr = slots(r, n);
    r->bank_slot = arena_alloc(r->a, (n + 1) * sizeof *r->bank_slot);
    s->nsegs = (unsigned)n;
    for (size_t i = 0; i < n; i++)
        build_segment(r, (unsigned)i, sq->items[i]);
}

static void build_paging(R *r, const Node *root)
{
    Spec *s = r->s;
    r->paging_size = slots(r, 1);
    r->paging_priv = slots(r, 1);
    const Node *p = node_get(root, "paging");
    if (p && !expect_kind(r, p, NODE_MAP, "'paging'"))
        p = NULL;
    if (p) {
        check_keys(r, p, paging_keys, countof(paging_keys), "'paging'");
        Pos sp;
        const char *sn = scalar_str(r, p, "segment", "'paging'", &sp);
        if (sn) {
            s->paging.seg_set = true;
            s->paging.seg_pos = sp;
            if (strcmp(sn, "none") != 0) {
                const char *names[4 * MAX_SEGMENTS + 1];
                size_t nn = 0;
                for (unsigned i = 0; i < s->nsegs; i++) {
                    if (s->segs[i].name && !strcmp(s->segs[i].name, sn))
                        s->paging.seg = &s->segs[i];
                    if (s->segs[i].name)
                        names[nn++] = s->segs[i].name;
                }
                if (!s->paging.seg) {
                    Diag *e = error_at(r->d, "unknown-segment", sp, "no segment named '%s' (or 'none')", sn);
                    const char *near = closest_name(sn, names, nn);
                    if (near)
                        diag_fixit(r->d, e, "did you mean '%s'?", near);
                }
            }
        }
    }
    set_slot(r->paging_size, p ? expr_node(r, p, "buffer_size", "'paging'") : NULL, &s->paging.buffer_size, NULL,
             DEF_ZERO, "paging buffer_size");
    set_slot(r->paging_priv, p ? expr_node(r, p, "private_data_size", "'paging'") : NULL,
             &s->paging.private_data_size, NULL, DEF_ZERO, "paging private_data_size");
}

/* -D name=EXPR: replaces a constant's expression with the command line's. */
static void apply_defines(R *r)
{
    Spec *s = r->s;
    for (unsigned i = 0; r->o && i < r->o->ndefines; i++) {
        const Define *df = &r->o->defines[i];
        char *text = arena_printf(r->a, "%s=%s", df->name, df->expr);
        SrcFile *cl = src_from_string(r->a, "<command line>", text, strlen(text));
        Pos at = {cl, 1, 1, (uint32_t)strlen(df->name)};
        Node *n = arena_alloc(r->a, sizeof *n);
        n->kind = NODE_SCALAR;
        n->style = SCALAR_PLAIN;
        n->str = cl->text + strlen(df->name) + 1;
        n->len = strlen(n->str);
        n->pos = (Pos){cl, 1, (uint32_t)strlen(df->name) + 2, (uint32_t)n->len};
        unsigned k = 0;
        while (k < s->nconsts && strcmp(s->consts[k].name, df->name) != 0)
            k++;
        if (k == s->nconsts) {
            const char *names[MAX_CONSTANTS];
            for (unsigned j = 0; j < s->nconsts; j++)
                names[j] = s->consts[j].name;
            Diag *e = error_at(r->d, "unknown-constant", at, "-D %s: the spec has no constant of that name",
                               df->name);
            const char *near = closest_name(df->name, names, s->nconsts);
            if (near)
                diag_fixit(r->d, e, "did you mean '%s'?", near);
            continue;
        }
        Constant *c = &s->consts[k];
        c->val = (Value){0};
        set_slot(&r->const_slot[k], n, &c->val, NULL, DEF_NONE, arena_printf(r->a, "constant '%s' (-D)", c->name));
    }
}

/* ---- evaluation ----------------------------------------------------------- */

static Slot *find_seg_slot(R *r, const char *seg, const char *field, Segment **out)
{
    for (unsigned i = 0; i < r->s->nsegs; i++) {
        Segment *g = &r->s->segs[i];
        if (!g->name || strcmp(g->name, seg) != 0)
            continue;
        *out = g;
        if (!strcmp(field, "size"))
            return &r->seg_size[i];
        if (!strcmp(field, "base") || !strcmp(field, "end"))
            return &r->seg_base[i];
        return NULL;
    }
    *out = NULL;
    return NULL;
}

static bool lookup(void *vctx, const Expr *ref, uint64_t *out)
{
    EvalCtx *c = vctx;
    R *r = c->r;
    const char *name = ref->name;
    Spec *s = r->s;
    const char *dot = strchr(name, '.');
    Slot *target = NULL;
    if (!dot) {
        if (!strcmp(name, "size") || !strcmp(name, "base")) {
            Segment *g = c->slot->seg;
            if (!g) {
                error_at(r->d, "unknown-name", ref->pos, "'%s' means the current segment's %s; %s is not in a segment",
                         name, name, c->slot->what);
                return false;
            }
            target = !strcmp(name, "size") ? &r->seg_size[g->id - 1] : &r->seg_base[g->id - 1];
        } else if (!strcmp(name, "page_size")) {
            target = r->page_slot;
        } else {
            for (unsigned i = 0; i < s->nconsts && !target; i++)
                if (!strcmp(s->consts[i].name, name))
                    target = &r->const_slot[i];
        }
    } else if (!strncmp(name, "bar.", 4)) {
        const char *bn = name + 4, *d2 = strrchr(bn, '.');
        if (d2 && !strcmp(d2, ".size")) {
            for (unsigned i = 0; i < s->nbars && !target; i++)
                if (strlen(s->bars[i].name) == (size_t)(d2 - bn) && !strncmp(s->bars[i].name, bn, (size_t)(d2 - bn)))
                    target = &r->bar_size[i];
        }
    } else {
        char *seg = arena_strndup(r->a, name, (size_t)(dot - name));
        const char *field = dot + 1;
        Segment *g;
        target = find_seg_slot(r, seg, field, &g);
        if (target && !strcmp(field, "end")) {
            /* end = base + size, both evaluated first. */
            Slot *bs = &r->seg_base[g->id - 1], *ss = &r->seg_size[g->id - 1];
            for (Slot *t = bs; t; t = t == bs ? ss : NULL) {
                if (t->state == SLOT_BUSY) {
                    Diag *e = error_at(r->d, "cycle", ref->pos, "'%s' depends on itself", name);
                    diag_note(r->d, e, c->slot->out->pos, "while evaluating %s", c->slot->what);
                    return false;
                }
                if (!eval_slot(r, t))
                    return false;
            }
            uint64_t b = bs->out->v, z = ss->out->v;
            if (b > UINT64_MAX - z) {
                error_at(r->d, "expr-overflow", ref->pos, "'%s' (base + size) overflows 64 bits", name);
                return false;
            }
            *out = b + z;
            return true;
        }
    }
    if (!target) {
        /* Everything a name could mean, for the did-you-mean. */
        size_t cap = s->nconsts + 3 * s->nsegs + s->nbars + 3;
        const char **cands = arena_alloc(r->a, cap * sizeof *cands);
        size_t n = 0;
        for (unsigned i = 0; i < s->nconsts; i++)
            cands[n++] = s->consts[i].name;
        for (unsigned i = 0; i < s->nsegs; i++)
            if (s->segs[i].name) {
                cands[n++] = arena_printf(r->a, "%s.size", s->segs[i].name);
                cands[n++] = arena_printf(r->a, "%s.base", s->segs[i].name);
                cands[n++] = arena_printf(r->a, "%s.end", s->segs[i].name);
            }
        for (unsigned i = 0; i < s->nbars; i++)
            cands[n++] = arena_printf(r->a, "bar.%s.size", s->bars[i].name);
        cands[n++] = "page_size";
        if (c->slot->seg) {
            cands[n++] = "size";
            cands[n++] = "base";
        }
        Diag *e = error_at(r->d, "unknown-name", ref->pos, "unknown name '%s'", name);
        const char *near = closest_name(name, cands, n);
        if (near)
            diag_fixit(r->d, e, "did you mean '%s'?", near);
        return false;
    }
    if (target->state == SLOT_BUSY) {
        Diag *e = error_at(r->d, "cycle", ref->pos, "'%s' depends on itself", name);
        diag_note(r->d, e, target->out->pos, "%s is defined here", target->what);
        return false;
    }
    if (!eval_slot(r, target))
        return false;
    *out = target->out->v;
    return true;
}

static bool eval_default(R *r, Slot *sl)
{
    Segment *g = sl->seg;
    switch (sl->def) {
    case DEF_NONE:
    case DEF_ZERO:
        sl->out->v = 0;
        return true;
    case DEF_PAGE:
        sl->out->v = 4096;
        return true;
    case DEF_SIZE: {
        Slot *ss = &r->seg_size[g->id - 1];
        if (!eval_slot(r, ss))
            return false;
        sl->out->v = ss->out->v;
        return true;
    }
    case DEF_PREV_END: {
        /* Without `base:` a segment starts where the previous non-AGP
         * segment ends (0 for the first). */
        unsigned i = g->id - 1;
        while (i > 0 && r->s->segs[i - 1].kind == SEG_AGP)
            i--;
        if (i == 0) {
            sl->out->v = 0;
            return true;
        }
        Slot *bs = &r->seg_base[i - 1], *ss = &r->seg_size[i - 1];
        if (!eval_slot(r, bs) || !eval_slot(r, ss))
            return false;
        if (bs->out->v > UINT64_MAX - ss->out->v) {
            error_at(r->d, "expr-overflow", g->pos, "the default base of %s (the previous segment's end) overflows",
                     sl->what);
            return false;
        }
        sl->out->v = bs->out->v + ss->out->v;
        return true;
    }
    case DEF_BANK_REST: {
        /* The last bank without a size takes the rest of the segment. */
        Slot *ss = &r->seg_size[g->id - 1];
        if (!eval_slot(r, ss))
            return false;
        uint64_t used = 0;
        Slot *bs = r->bank_slot[g->id - 1];
        for (unsigned i = 0; i + 1 < g->nbanks; i++) {
            if (!eval_slot(r, &bs[i]))
                return false;
            if (used > UINT64_MAX - bs[i].out->v) {
                error_at(r->d, "expr-overflow", bs[i].out->pos, "bank sizes overflow 64 bits");
                return false;
            }
            used += bs[i].out->v;
        }
        sl->out->v = used <= ss->out->v ? ss->out->v - used : 0;
        return true;
    }
    }
    return false;
}

/* Expression positions count from the scalar's first character as if the
 * value stood on one line (a newline in it starts column 1 of the next).
 * That is the source only for a one-line scalar without escapes: for a
 * folded, escaped or block scalar each position is mapped back to the
 * character it came from. */
static bool scalar_verbatim(const Node *n)
{
    uint32_t q = n->style == SCALAR_SINGLE || n->style == SCALAR_DOUBLE ? 1 : 0;
    return n->style != SCALAR_BLOCK && n->pos.len == n->len + 2 * q && !memchr(n->str, '\n', n->len);
}

static Pos expr_source_pos(const Node *n, Pos start, Pos p)
{
    if (p.file != start.file || p.line < start.line || (p.line == start.line && p.col < start.col))
        return p;
    size_t off = 0;
    if (p.line == start.line) {
        off = p.col - start.col;
    } else {
        uint32_t l = start.line;
        while (l < p.line && off < n->len)
            if (n->str[off++] == '\n')
                l++;
        if (l < p.line)
            return p;
        off += p.col - 1;
    }
    return off > n->len ? p : node_char_pos(n, off, p.len);
}

static void remap_expr(const Node *n, Pos start, Expr *e)
{
    if (!e)
        return;
    e->pos = expr_source_pos(n, start, e->pos);
    e->op_pos = expr_source_pos(n, start, e->op_pos);
    for (unsigned i = 0; i < e->nargs; i++)
        remap_expr(n, start, e->args[i]);
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
    case SLOT_BUSY: {
        /* Reached through a default (a segment's base defaults to the
         * previous one's end); references report their own cycles. */
        Diag *e = error_at(r->d, "cycle", sl->seg ? sl->seg->pos : sl->out->pos, "%s depends on itself",
                           sl->what);
        (void)e;
        about_slot(r, mark, sl);
        sl->state = SLOT_FAILED;
        return false;
    }
    case SLOT_PENDING: break;
    }
    sl->state = SLOT_BUSY;
    bool ok;
    if (!sl->node) {
        ok = eval_default(r, sl);
    } else {
        const Node *n = sl->node;
        Pos start = node_char_pos(n, 0, 1);
        Expr *e = expr_parse(r->a, n->str, n->len, start, r->d);
        if (!scalar_verbatim(n)) {
            for (Diag *g = *mark; g; g = g->next)
                g->pos = expr_source_pos(n, start, g->pos);
            remap_expr(n, start, e);
        }
        ok = e != NULL;
        if (ok) {
            /* `pages` needs the page size; page_size itself may not use it. */
            uint64_t ps = 4096;
            if (sl != r->page_slot && r->page_slot) {
                if (eval_slot(r, r->page_slot) && r->page_slot->out->v)
                    ps = r->page_slot->out->v;
            } else {
                ps = 0;
            }
            EvalCtx c = {r, sl};
            EvalEnv env = {&c, lookup, ps};
            ok = expr_eval(e, &env, r->d, &sl->out->v);
        }
    }
    sl->out->ok = ok;
    sl->state = ok ? SLOT_DONE : SLOT_FAILED;
    about_slot(r, mark, sl);
    return ok;
}

static void eval_all(R *r, Slot *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        if (s[i].out)
            eval_slot(r, &s[i]);
}

static void evaluate(R *r)
{
    Spec *s = r->s;
    if (r->page_slot)
        eval_slot(r, r->page_slot);
    eval_all(r, r->const_slot, s->nconsts);
    eval_all(r, r->bar_index, s->nbars);
    eval_all(r, r->bar_size, s->nbars);
    eval_all(r, r->seg_base, s->nsegs);
    eval_all(r, r->seg_size, s->nsegs);
    eval_all(r, r->seg_commit, s->nsegs);
    eval_all(r, r->seg_sysend, s->nsegs);
    eval_all(r, r->seg_cpu_off, s->nsegs);
    eval_all(r, r->seg_cpu_addr, s->nsegs);
    for (unsigned i = 0; i < s->nsegs; i++) {
        Segment *g = &s->segs[i];
        eval_all(r, r->bank_slot[i], g->nbanks);
        uint64_t at = 0;
        for (unsigned k = 0; k < g->nbanks; k++) {
            g->banks[k].start = at;
            uint64_t z = g->banks[k].size.v;
            g->banks[k].end = at > UINT64_MAX - z ? UINT64_MAX : at + z;
            at = g->banks[k].end;
        }
    }
    eval_all(r, r->paging_size, 1);
    eval_all(r, r->paging_priv, 1);
    eval_all(r, r->extra, r->nextra);
}

/* ---- entry points ---------------------------------------------------------- */

static Spec *resolve(Arena *a, const char *path, const SrcFile *src, const ResolveOpts *o, Diags *d)
{
    R r = {0};
    r.a = a;
    r.d = d;
    r.o = o;
    r.s = arena_alloc(a, sizeof *r.s);
    unsigned before = d->nerrors + d->nfatal;
    Node *root = load_chain(&r, path, src, NULL, 0, (Pos){0});
    if (!root)
        return NULL;
    Spec *s = r.s;
    s->file = r.files[0];
    check_keys(&r, root, top_keys, countof(top_keys), "the spec");
    build_board(&r, root);
    build_constants(&r, root);
    build_bars(&r, root);
    build_segments(&r, root);
    build_paging(&r, root);
    apply_defines(&r);
    evaluate(&r);
    if (o && o->ddi_forms) {
        s->forms = o->ddi_forms;
        s->forms_from_option = true;
    }
    s->files = r.files;
    s->nfiles = r.nfiles;
    if (s->name && is_c_ident(s->name)) {
        s->camel = to_camel(a, s->name);
        s->upper = to_upper(a, s->name);
    }
    /* Structural errors make the model unreliable for the rules. */
    if (d->nerrors + d->nfatal > before)
        return NULL;
    return s;
}

Spec *spec_load(Arena *a, const char *path, const ResolveOpts *o, Diags *d)
{
    return resolve(a, path, NULL, o, d);
}

Spec *spec_from_string(Arena *a, const char *name, const char *text, const ResolveOpts *o, Diags *d)
{
    SrcFile *f = src_from_string(a, name, text, strlen(text));
    return resolve(a, name, f, o, d);
}

/* ---- model tables ------------------------------------------------------------ */

const FlagInfo flag_table[] = {
#define X(s, c, bit, v, d) {#s, #c, bit, v, d},
    SEGC_FLAGS(X)
#undef X
};
const size_t flag_count = countof(flag_table);

const FlagInfo *flag_by_name(const char *name)
{
    for (size_t i = 0; i < flag_count; i++)
        if (!strcmp(flag_table[i].name, name))
            return &flag_table[i];
    return NULL;
}

unsigned ddi_forms_for(unsigned wddm)
{
    return wddm < 0x12 ? DDI_QS : wddm < 0x20 ? DDI_QS3 : DDI_QS4;
}

unsigned ddi_forms_parse(const char *list)
{
    unsigned forms = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 2 && !strncmp(p, "qs", 2))
            forms |= DDI_QS;
        else if (n == 3 && !strncmp(p, "qs3", 3))
            forms |= DDI_QS3;
        else if (n == 3 && !strncmp(p, "qs4", 3))
            forms |= DDI_QS4;
        else
            return 0;
        p += n;
        if (*p == ',')
            p++;
    }
    return forms;
}

const char *arch_name(Arch a)
{
    return arch_names[a];
}

const char *seg_kind_name(SegKind k)
{
    return kind_names[k];
}
