/* SPDX-License-Identifier: MIT */
/* load.c - a spec's files -> one Node tree, over libyaml's event API.
 *
 * The loader turns the one document of a spec into Nodes (scalars, mappings,
 * sequences) that each carry the file and byte offset where they were
 * written; spec_read (at the end) does so for every file of the extends
 * chain and merges them by the merge rule each key has in the structure
 * table (spec.def).  Of what the keys mean it reads only `segc:`,
 * `extends:`, a segment's `new:` and `delete:`; resolve.c reads the rest.
 *
 * Positions.  A Pos is a byte offset into the file's text; lines and
 * columns are counted only when one is shown (src_loc).  libyaml counts a
 * mark's index in characters, so a cursor walks characters to turn it into
 * a byte offset (in a file of ASCII only the index is the offset); it
 * moves either way from where it last stopped, and events arrive in
 * document order, so the walk adds up to about one pass over the text.
 *
 * A UTF-8 byte order mark is handed to libyaml as no part of the text
 * (with the encoding fixed to UTF-8); src_loc shows the key after it at 1:1.
 *
 * A node's Pos is its first character after any anchor and tag (for a
 * quoted scalar: the opening quote; for a block scalar: the `|` or `>`), and
 * its len is the span of the node when it has no line feed, else 1.
 *
 * Aliases share the anchored Node; nothing is copied.  What an alias costs
 * is counted instead: every use adds the number of nodes the anchored node
 * would expand to, and the running total is held to a budget (the "billion
 * laughs" defence).  An alias also may not nest the tree deeper than the
 * depth limit, and may not refer to the node it is inside of.
 *
 * Keys are compared by value: `a`, 'a' and "a" are one key twice.  Tags
 * may only be the core schema's (!!str !!int !!float !!bool !!null on
 * scalars, !!map, !!seq) and the non-specific `!`; they are checked, not
 * kept.  The merge key `<<` (plain) is refused: `extends:` does that job.
 *
 * node_char_pos is exact for plain and quoted scalars, escapes and line
 * folding included, and for literal block scalars; for folded block
 * scalars it is exact on the first content line only (see block_char_pos).
 *
 * Errors are collected: a file with three duplicate keys gets three
 * diagnostics.  Loading stops only where going on cannot help: at a libyaml
 * syntax error (libyaml cannot resume), at a second document, and at the
 * depth limit (so a 1 000 000-deep `[[[[` costs no more than 64 levels).
 */
#include "segc.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

const LoadLimits load_default_limits = {
    .max_depth = 64,
    .max_scalar = 64 * 1024,
    .max_alias_nodes = 10000,
};

/* ---- anchors: one hash table ------------------------------------------- */

typedef struct Anchor {
    Node node;       /* what an alias adds: a copy (a collection's shares its kids) */
    size_t count;    /* nodes in its expansion (saturating) */
    unsigned height; /* levels of mappings/sequences in its expansion */
    bool open;       /* still being read: an alias to it would be a cycle */
} Anchor;

/* A slot holds an anchor name. */
typedef struct Slot {
    const char *s; /* NULL: empty slot */
    uint64_t hash;
    Anchor *anchor;
} Slot;

/* ---- the loader -------------------------------------------------------- */

/* An open mapping or sequence.  Its children sit on Loader.kids from
 * `base` on (a mapping's as key, value, key, value...) until it closes. */
typedef struct Frame {
    Node node;
    size_t base;
    size_t count;    /* nodes in its expansion so far, itself included */
    unsigned height; /* highest child height */
    Anchor *anchor;  /* the anchor this node defines, or NULL */
} Frame;

typedef struct Loader {
    Arena *a;
    const SrcFile *src;
    const SrcFile *const *files; /* of the tree: src is files[file] (Node.file) */
    unsigned file;
    const LoadLimits *lim;
    Diags *d;

    size_t bom;             /* 3 if the file starts with a UTF-8 BOM */
    bool ascii;             /* no byte past the BOM above 0x7F */
    size_t mark_idx, mark_off; /* the character cursor: index and offset */

    Frame *frames; /* max_depth of them: on_start opens no more */
    size_t nframes;
    Node *kids; /* by value: a closed collection's become its array */
    size_t nkids, cap_kids;
    /* Where each kid written as an alias was written, by kid index (the
     * others were written at their node's pos) */
    struct AliasKid {
        uint64_t kid; /* first: kid_at finds it with u64_cmp */
        Pos at;
    } *alias_kids;
    size_t nalias_kids, cap_alias_kids;

    Slot *slots; /* the anchors */
    size_t cap_slots, used_slots;

    size_t alias_total;
    bool alias_reported;

    unsigned ndocs;
    Node root;
    bool have_root;
    bool root_empty; /* the document is an untagged, unanchored empty scalar */
    bool stop;
} Loader;

static size_t sat_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static uint32_t clamp32(size_t n)
{
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Bytes in the UTF-8 character that starts with `c` (1 for a stray byte). */
static size_t u8len(unsigned char c)
{
    if (c < 0xC0)
        return 1;
    if (c < 0xE0)
        return 2;
    if (c < 0xF0)
        return 3;
    return c < 0xF8 ? 4 : 1;
}

/* Writes a printable excerpt of s[0..n) into out (for messages): control
 * characters become '?', long text is cut on a character boundary. */
static const char *show(char out[static 64], const char *s, size_t n)
{
    size_t m = n < 48 ? n : 48;
    if (m < n)
        while (m > 0 && ((unsigned char)s[m] & 0xC0) == 0x80)
            m--;
    for (size_t i = 0; i < m; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = c < 0x20 || c == 0x7F ? '?' : (char)c;
    }
    if (m < n)
        memcpy(out + m, "...", 4);
    else
        out[m] = 0;
    return out;
}

/* Byte offset of a libyaml mark: its index counts characters from the
 * first byte after the BOM. */
static size_t mark_off(Loader *L, yaml_mark_t m)
{
    const unsigned char *t = (const unsigned char *)L->src->text;
    size_t n = L->src->len;
    if (L->ascii) /* a character is a byte */
        return L->mark_off = m.index < n - L->bom ? L->bom + m.index : n;
    for (; L->mark_idx < m.index && L->mark_off < n; L->mark_idx++)
        L->mark_off += u8len(t[L->mark_off]);
    if (L->mark_off > n)
        L->mark_off = n; /* a truncated last character */
    for (; L->mark_idx > m.index && L->mark_off > L->bom; L->mark_idx--)
        while (--L->mark_off > L->bom && (t[L->mark_off] & 0xC0) == 0x80)
            continue;
    return L->mark_off;
}

/* The span of bytes [from, to) of f: its len is 1 when it runs over a
 * line feed (Pos). */
static Pos span(const SrcFile *f, size_t from, size_t to)
{
    if (to <= from)
        return pos_at(f, from, 0);
    return pos_at(f, from, memchr(f->text + from, '\n', to - from) ? 1 : to - from);
}

static bool is_blank_or_break(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* From the first of a node's `nprops` properties (anchor, tag) at `off`,
 * finds where its content starts, no further than `end`.  *tag_off and
 * *tag_end are set to the tag's span if there is one. */
static size_t skip_props(const Loader *L, size_t off, size_t end, int nprops, size_t *tag_off,
                         size_t *tag_end)
{
    const char *t = L->src->text;
    for (;;) {
        while (off < end && is_blank_or_break(t[off]))
            off++;
        if (off < end && t[off] == '#') {
            while (off < end && t[off] != '\n' && t[off] != '\r')
                off++;
            continue;
        }
        if (nprops == 0 || off >= end || (t[off] != '&' && t[off] != '!'))
            return off;
        nprops--;
        bool is_tag = t[off] == '!';
        if (is_tag)
            *tag_off = off;
        if (is_tag && off + 1 < end && t[off + 1] == '<') {
            while (off < end && t[off] != '>')
                off++;
            if (off < end)
                off++;
        } else {
            while (off < end && !is_blank_or_break(t[off]) && t[off] != ',')
                off++;
        }
        if (is_tag)
            *tag_end = off;
    }
}

/* ---- the anchor table -------------------------------------------------- */

static void slots_grow(Loader *L)
{
    size_t cap = L->cap_slots ? L->cap_slots * 2 : 64;
    Slot *ns = xmalloc(cap * sizeof *ns);
    memset(ns, 0, cap * sizeof *ns);
    for (size_t i = 0; i < L->cap_slots; i++) {
        Slot *o = &L->slots[i];
        if (!o->s)
            continue;
        size_t j = o->hash & (cap - 1);
        while (ns[j].s)
            j = (j + 1) & (cap - 1);
        ns[j] = *o;
    }
    free(L->slots);
    L->slots = ns;
    L->cap_slots = cap;
}

/* The slot of anchor `name`; its anchor is NULL until one is defined. */
static Slot *anchor_slot(Loader *L, const char *name)
{
    if ((L->used_slots + 1) * 2 > L->cap_slots)
        slots_grow(L);
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    size_t mask = L->cap_slots - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        Slot *sl = &L->slots[i];
        if (!sl->s) {
            *sl = (Slot){arena_strdup(L->a, name), h, NULL};
            L->used_slots++;
            return sl;
        }
        if (sl->hash == h && !strcmp(sl->s, name))
            return sl;
    }
}

/* Anchor `name` on `n`; a mapping or sequence stays open until its end. */
static Anchor *anchor_define(Loader *L, const char *name, const Node *n)
{
    Slot *sl = anchor_slot(L, name);
    /* A later anchor of the same name replaces the earlier one for the
     * aliases that follow (YAML allows redefinition). */
    sl->anchor = arena_alloc(L->a, sizeof *sl->anchor);
    *sl->anchor = (Anchor){.node = *n, .count = 1, .open = n->kind != NODE_SCALAR};
    return sl->anchor;
}

/* ---- building ---------------------------------------------------------- */

/* Where an event's node stands: its content Pos (len set), and the Pos
 * of its tag. */
typedef struct Where {
    Pos pos, tag;
} Where;

static Where where(Loader *L, const yaml_event_t *ev, const char *anchor, const char *tag)
{
    Where w;
    size_t start = mark_off(L, ev->start_mark);
    size_t end = mark_off(L, ev->end_mark);
    if (end < start)
        end = start;
    size_t tag_off = start, tag_end = start;
    int nprops = (anchor != NULL) + (tag != NULL);
    size_t off = nprops ? skip_props(L, start, end, nprops, &tag_off, &tag_end) : start;
    w.pos = span(L->src, off, end);
    w.tag = tag ? pos_at(L->src, tag_off, tag_end > tag_off ? tag_end - tag_off : 1) : w.pos;
    return w;
}

static Node new_node(Loader *L, NodeKind kind, Pos pos)
{
    Node n = {.kind = kind};
    node_place(&n, L->file, pos);
    if (kind == NODE_SCALAR)
        n.str = "";
    return n;
}

/* Only the tags of YAML's core schema, each on its own kind of node.  The
 * non-specific tag `!` (quoted-like plain scalar) is accepted too. */
static void check_tag(Loader *L, const char *tag, NodeKind kind, Pos at)
{
    static const char core[] = "tag:yaml.org,2002:";
    static const struct Known {
        const char *name;
        NodeKind kind;
    } known[] = {
        {"str", NODE_SCALAR}, {"int", NODE_SCALAR}, {"float", NODE_SCALAR},
        {"bool", NODE_SCALAR}, {"null", NODE_SCALAR}, {"map", NODE_MAP},
        {"seq", NODE_SEQ},
    };
    char buf[64];
    if (strcmp(tag, "!") == 0)
        return;
    /* a core tag is shown as written: !!NAME */
    const char *t = strncmp(tag, core, sizeof core - 1) ? tag : tag + sizeof core - 1;
    const struct Known *k = t != tag ? BY_NAME(known, countof(known), t) : NULL;
    if (k && k->kind != kind)
        error_at(L->d, C_yaml_tag, at, "tag !!%s cannot be used on a %s", t, node_kind_name(kind));
    if (k)
        return;
    error_at(L->d, C_yaml_tag, at, "custom tags are not supported (found `%s%s`)", t != tag ? "!!" : "",
             show(buf, t, strlen(t)));
}

static bool is_merge_key(const Node *k)
{
    return k->style == SCALAR_PLAIN && k->len == 2 && memcmp(k->str, "<<", 2) == 0;
}

/* A key duplicate_keys compares: a scalar, not a merge key (reported). */
static bool dup_candidate(const Node *k)
{
    return k->kind == NODE_SCALAR && !is_merge_key(k);
}

static bool same_key(const Node *a, const Node *b)
{
    return a->len == b->len && !memcmp(a->str, b->str, a->len);
}

static int u64_cmp(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* Where kid `i` (an index into L->kids) was written. */
static Pos kid_at(const Loader *L, size_t i)
{
    uint64_t kid = i;
    const struct AliasKid *a = L->nalias_kids ? bsearch(&kid, L->alias_kids, L->nalias_kids, sizeof *a, u64_cmp) : NULL;
    return a ? a->at : node_pos(L->files, &L->kids[i]);
}

/* Key i of the mapping whose kids start at L->kids[base] repeats key j. */
static void duplicate_key(Loader *L, size_t base, size_t i, size_t j)
{
    char buf[64];
    const Node *k = &L->kids[base + 2 * i];
    Diag *g = error_at(L->d, C_duplicate_key, kid_at(L, base + 2 * i), "duplicate key `%s` in this mapping",
                       show(buf, k->str, k->len));
    diag_note(L->d, g, kid_at(L, base + 2 * j), "first written here");
}

/* Whether key i of k[] sorts before key j: by length, bytes, then index. */
static bool key_before(const Node *k, uint32_t i, uint32_t j)
{
    const Node *a = &k[2 * i], *b = &k[2 * j];
    if (a->len != b->len)
        return a->len < b->len;
    int c = memcmp(a->str, b->str, a->len);
    return c ? c < 0 : i < j;
}

/* Sorts key indices x[0..n) in place (heapsort: no second buffer). */
static void sort_keys(const Node *k, uint32_t *x, size_t n)
{
    for (size_t end = n, start = n / 2;;) {
        if (start > 0)
            start--;
        else if (--end > 0) {
            uint32_t t = x[0];
            x[0] = x[end], x[end] = t;
        } else
            return;
        for (size_t r = start, c; (c = 2 * r + 1) < end; r = c) {
            if (c + 1 < end && key_before(k, x[c], x[c + 1]))
                c++;
            if (!key_before(k, x[r], x[c]))
                break;
            uint32_t t = x[r];
            x[r] = x[c], x[c] = t;
        }
    }
}

/* The duplicate keys of the mapping whose kids (key, value, ...) are
 * L->kids[base..base + 2n): each reported in document order with a note
 * at its first writing.  A few keys are compared pairwise, more through a
 * sorted list of their indices; nothing is kept after. */
static void duplicate_keys(Loader *L, size_t base, size_t n)
{
    const Node *k = L->kids + base;
    enum { FEW = 16 }; /* up to this many keys, compared pairwise */
    if (n <= FEW) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i && dup_candidate(&k[2 * i]); j++)
                if (dup_candidate(&k[2 * j]) && same_key(&k[2 * i], &k[2 * j])) {
                    duplicate_key(L, base, i, j);
                    break;
                }
        return;
    }
    uint32_t *x = xmalloc((n + 1) * sizeof *x);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (dup_candidate(&k[2 * i]))
            x[m++] = (uint32_t)i;
    sort_keys(k, x, m);
    /* Each repeated key with the first of its equals, in document order. */
    uint64_t *dup = NULL;
    size_t ndup = 0, cap = 0;
    for (size_t j = 1, g = 0; j < m; j++) {
        if (!same_key(&k[2 * x[j]], &k[2 * x[g]])) {
            g = j;
            continue;
        }
        GROW(dup, ndup, cap, 16);
        dup[ndup++] = (uint64_t)x[j] << 32 | x[g];
    }
    free(x);
    if (ndup)
        qsort(dup, ndup, sizeof *dup, u64_cmp);
    for (size_t i = 0; i < ndup; i++)
        duplicate_key(L, base, (size_t)(dup[i] >> 32), (size_t)(dup[i] & UINT32_MAX));
    free(dup);
}

/* Adds a finished node to the open collection (or makes it the document). */
static void add_child(Loader *L, const Node *n, Pos where, size_t count, unsigned height)
{
    if (L->nframes == 0) {
        L->root = *n, L->have_root = true; /* one document: a second one stops the loader */
        return;
    }
    Frame *f = &L->frames[L->nframes - 1];
    size_t idx = L->nkids - f->base;
    GROW(L->kids, L->nkids, L->cap_kids, 256);
    if (where.off != n->off || where.len != n->span) { /* an alias */
        GROW(L->alias_kids, L->nalias_kids, L->cap_alias_kids, 16);
        L->alias_kids[L->nalias_kids++] = (struct AliasKid){L->nkids, where};
    }
    L->kids[L->nkids++] = *n;
    f->count = sat_add(f->count, count);
    if (height > f->height)
        f->height = height;
    /* A key, checked where it was written (for an alias: the alias);
     * duplicates are looked for when the mapping ends (duplicate_keys). */
    bool key = f->node.kind == NODE_MAP && idx % 2 == 0;
    if (key && n->kind != NODE_SCALAR)
        error_at(L->d, C_yaml_key, where, "a mapping key must be a scalar, not a %s", node_kind_name(n->kind));
    else if (key && is_merge_key(n))
        error_at(L->d, C_yaml_merge, where, "merge keys (<<) are not supported; use extends: or repeat the keys");
}

static ScalarStyle scalar_style(yaml_scalar_style_t s)
{
    switch (s) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return SCALAR_SINGLE;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return SCALAR_DOUBLE;
    case YAML_LITERAL_SCALAR_STYLE:
    case YAML_FOLDED_SCALAR_STYLE: return SCALAR_BLOCK;
    default: return SCALAR_PLAIN;
    }
}

static void on_scalar(Loader *L, const yaml_event_t *ev)
{
    const char *anchor = (const char *)ev->data.scalar.anchor;
    const char *tag = (const char *)ev->data.scalar.tag;
    Where w = where(L, ev, anchor, tag);
    Node node = new_node(L, NODE_SCALAR, w.pos), *n = &node;
    size_t len = ev->data.scalar.length; /* one of 1 << 28 or more is over max_scalar: reported */
    n->len = len & ((1u << 28) - 1);
    /* A value of one character is not copied (many specs are mostly `key: 1`). */
    static const char one[256][2] = {
#define C4(c) {c}, {c + 1}, {c + 2}, {c + 3}
#define C16(c) C4(c), C4(c + 4), C4(c + 8), C4(c + 12)
#define C64(c) C16(c), C16(c + 16), C16(c + 32), C16(c + 48)
        C64(0), C64(64), C64(128), C64(192)
#undef C64
#undef C16
#undef C4
    };
    const unsigned char *v = ev->data.scalar.value;
    n->str = len == 1 ? one[v[0]] : arena_strndup(L->a, (const char *)v, n->len);
    n->style = scalar_style(ev->data.scalar.style);
    if (len > L->lim->max_scalar)
        error_at(L->d, C_limit_scalar, w.pos, "scalar is %zu bytes long; the limit is %zu bytes",
                 len, L->lim->max_scalar);
    /* An escaped NUL ("a\0b") would silently cut every later use of the
     * value at the NUL. */
    const char *nul = memchr(n->str, 0, n->len);
    if (nul)
        error_at(L->d, C_encoding, node_char_pos(L->files, n, (size_t)(nul - n->str), 1),
                 "a scalar may not contain a NUL character (an escape such as \\0 or \\x00)");
    if (tag)
        check_tag(L, tag, NODE_SCALAR, w.tag);
    if (anchor)
        anchor_define(L, anchor, n);
    if (L->nframes == 0)
        L->root_empty = n->len == 0 && n->style == SCALAR_PLAIN && !anchor && !tag;
    add_child(L, n, w.pos, 1, 0);
}

static void on_alias(Loader *L, const yaml_event_t *ev)
{
    char buf[64];
    const char *name = (const char *)ev->data.alias.anchor;
    Where w = where(L, ev, NULL, NULL);
    Anchor *an = anchor_slot(L, name)->anchor;
    if (!an || an->open) {
        show(buf, name, strlen(name));
        if (!an)
            error_at(L->d, C_yaml_alias, w.pos,
                     "undefined alias `*%s`; an anchor `&%s` must come before its aliases", buf,
                     buf);
        else
            error_at(L->d, C_yaml_alias, w.pos,
                     "alias `*%s` is inside the node it refers to (a cycle)", buf);
        Node none = new_node(L, NODE_SCALAR, w.pos);
        add_child(L, &none, w.pos, 1, 0);
        return;
    }
    L->alias_total = sat_add(L->alias_total, an->count);
    if (L->alias_total > L->lim->max_alias_nodes && !L->alias_reported) {
        L->alias_reported = true;
        error_at(L->d, C_limit_alias, w.pos, "alias expansion exceeds %zu nodes (billion laughs?)",
                 L->lim->max_alias_nodes);
    }
    if (L->nframes + an->height > L->lim->max_depth)
        error_at(L->d, C_limit_depth, w.pos,
                 "alias `*%s` nests mappings and sequences deeper than %u levels",
                 show(buf, name, strlen(name)), L->lim->max_depth);
    add_child(L, &an->node, w.pos, an->count, an->height);
}

static void on_start(Loader *L, const yaml_event_t *ev, NodeKind kind)
{
    bool map = kind == NODE_MAP;
    const char *anchor = (const char *)(map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor);
    const char *tag = (const char *)(map ? ev->data.mapping_start.tag : ev->data.sequence_start.tag);
    Where w = where(L, ev, anchor, tag);
    if (L->nframes >= L->lim->max_depth) {
        error_at(L->d, C_limit_depth, w.pos, "mappings and sequences nest deeper than %u levels",
                 L->lim->max_depth);
        L->stop = true;
        return;
    }
    if (tag)
        check_tag(L, tag, kind, w.tag);
    Frame *f = &L->frames[L->nframes++];
    *f = (Frame){.node = new_node(L, kind, w.pos), .base = L->nkids, .count = 1};
    if (anchor)
        f->anchor = anchor_define(L, anchor, &f->node);
}

/* Opening minus closing parentheses of a plain scalar. */
static int parens(const Node *n)
{
    int d = 0;
    for (size_t i = 0; n->kind == NODE_SCALAR && n->style == SCALAR_PLAIN && i < n->len; i++)
        d += (n->str[i] == '(') - (n->str[i] == ')');
    return d;
}

/* In a flow mapping a comma ends a plain scalar: `{ base: min(a, b) }`
 * reads as `base: min(a` and a key `b)` without a value.  One error says
 * so (the rest of the file is not resolved, so nothing follows from it). */
static void flow_comma(Loader *L, const Node *m)
{
    for (size_t i = 0; i + 1 < m->npairs; i++) {
        const Node *v = &m->pairs[i].value, *k = NULL;
        int depth = parens(v);
        for (size_t j = i + 1; depth > 0 && j < m->npairs && !m->pairs[j].value.len && parens(&m->pairs[j].value) == 0; j++)
            depth += parens(k = &m->pairs[j].key);
        if (depth > 0 || !k || k->file != v->file || k->off < v->off ||
            memchr(L->src->text + v->off, '\n', k->off - v->off))
            continue;
        int n = (int)(k->off + k->len - v->off);
        Diag *g = error_at(L->d, C_yaml_flow_comma, pos_shift(node_pos(L->files, v), 0, (uint32_t)n),
                           "the comma inside { } ended the value of '%s': YAML reads '%s' and a key '%s'",
                           m->pairs[i].key.str, v->str, m->pairs[i + 1].key.str);
        diag_fixit(L->d, g, "quote it: %s: \"%.*s\"", m->pairs[i].key.str, n, L->src->text + v->off);
    }
}

static void on_end(Loader *L, const yaml_event_t *ev)
{
    if (L->nframes == 0)
        BUG("collection end without a start");
    Frame f = L->frames[--L->nframes];
    Node *n = &f.node;
    size_t nk = L->nkids - f.base;
    Node *k = nk ? L->kids + f.base : NULL; /* an empty first collection: kids is NULL */
    /* The kids, by value, become the collection's array: a copy, or for a
     * big collection near the bottom of the stack (the document, or a
     * section of it) the stack itself, so that its kids are never in
     * memory twice; the few kids below them, of the collections it is in,
     * go on in a new stack.  The kids of a mapping, key and value in turn,
     * are its pairs as they are. */
    bool take = nk > 4096 && f.base <= nk / 4;
    Node *below = NULL;
    if (take) {
        below = f.base ? memcpy(xmalloc(f.base * sizeof *k), L->kids, f.base * sizeof *k) : NULL;
        L->kids = arena_keep(L->a, L->kids, (f.base + nk) * sizeof *k);
        k = L->kids + f.base;
    } else if (nk)
        k = memcpy(arena_alloc_aligned(L->a, nk * sizeof *k, _Alignof(Node)), k, nk * sizeof *k);
    if (n->kind == NODE_MAP) {
        n->npairs = nk / 2;
        n->pairs = (NodePair *)(void *)k;
        if (n->npairs > 1)
            duplicate_keys(L, f.base, n->npairs);
        if (L->src->text[n->off] == '{')
            flow_comma(L, n);
    } else {
        n->nitems = nk;
        n->items = k;
    }
    if (take) /* the arena's now */
        L->kids = below, L->cap_kids = f.base;
    L->nkids = f.base;
    while (L->nalias_kids && L->alias_kids[L->nalias_kids - 1].kid >= f.base)
        L->nalias_kids--;
    n->span = span(L->src, n->off, mark_off(L, ev->end_mark)).len;
    unsigned height = f.height + 1;
    if (f.anchor) /* closed: its aliases may follow */
        *f.anchor = (Anchor){.node = *n, .count = f.count, .height = height};
    add_child(L, n, node_pos(L->files, n), f.count, height);
}

static void on_event(Loader *L, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++L->ndocs > 1) {
            error_at(L->d, C_yaml_multi_doc, where(L, ev, NULL, NULL).pos,
                     "a second YAML document; a spec file holds exactly one");
            L->stop = true;
        }
        break;
    case YAML_DOCUMENT_END_EVENT:
    case YAML_STREAM_END_EVENT:
        if (ev->type == YAML_DOCUMENT_END_EVENT ? L->root_empty : L->ndocs == 0)
            error_at(L->d, C_yaml_empty, pos_at(L->src, L->bom, 0),
                     "the file is empty; a spec starts with `segc: 1`");
        break;
    case YAML_SCALAR_EVENT: on_scalar(L, ev); break;
    case YAML_ALIAS_EVENT: on_alias(L, ev); break;
    case YAML_MAPPING_START_EVENT: on_start(L, ev, NODE_MAP); break;
    case YAML_SEQUENCE_START_EVENT: on_start(L, ev, NODE_SEQ); break;
    case YAML_MAPPING_END_EVENT:
    case YAML_SEQUENCE_END_EVENT: on_end(L, ev); break;
    default: break;
    }
}

/* ---- libyaml errors ---------------------------------------------------- */

/* The fix of a tab where YAML wants spaces, from byte `b`: in the
 * indentation, each tab of it becomes the file's indentation step (the
 * least indentation a line has with spaces alone; 2 without one);
 * elsewhere, a tab becomes one space. */
static void tab_fix(Loader *L, Diag *g, size_t b)
{
    const char *t = L->src->text;
    size_t n = L->src->len, e = b, tabs = 0, spaces = 0, step = 0;
    bool leading = b == 0 || t[b - 1] == '\n' || t[b - 1] == '\r';
    for (; e < n && (t[e] == ' ' || t[e] == '\t') && (leading || t[e] == '\t'); e++)
        t[e] == '\t' ? tabs++ : spaces++;
    for (size_t i = 0; leading && i < n; i = i + 1) {
        size_t j = i;
        while (j < n && t[j] == ' ')
            j++;
        if (j > i && j < n && t[j] != '\t' && t[j] != '\n' && t[j] != '\r' && t[j] != '#' && (!step || j - i < step))
            step = j - i;
        while (j < n && t[j] != '\n')
            j++;
        i = j;
    }
    size_t want = leading ? spaces + tabs * (step ? step : 2) : tabs;
    char *sp = arena_alloc(L->a, want + 1);
    memset(sp, ' ', want);
    diag_fixit(L->d, g, leading ? "indent with %zu spaces" : "replace the tab with %zu space%s", want,
               want == 1 ? "" : "s");
    diag_edit(L->d, g, pos_at(L->src, b, e - b), sp);
}

static void syntax_error(Loader *L, const yaml_parser_t *p)
{
    const char *t = L->src->text;
    const char *problem = p->problem ? p->problem : "invalid YAML";
    if (p->error == YAML_MEMORY_ERROR)
        segc_oom(); /* it exits: what the loader holds needs no freeing */
    /* The reader counts bytes of its input, which starts after the BOM. */
    bool reader = p->error == YAML_READER_ERROR;
    size_t off = reader ? L->bom + p->problem_offset : mark_off(L, p->problem_mark);
    Pos at = pos_at(L->src, off, 1);
    if (reader && p->problem_value >= 0) {
        error_at(L->d, C_yaml_syntax, at, "%s (0x%X)", problem, (unsigned)p->problem_value);
        return;
    }
    /* libyaml's two ways of saying a tab stands where YAML wants a space
     * (the reader's errors, about bytes, are never about a tab) */
    if (off < L->src->len && t[off] == '\t' &&
        (strstr(problem, "tab character") || !strcmp(problem, "found character that cannot start any token"))) {
        size_t b = off; /* leading: only blanks stand before it on its line */
        while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
            b--;
        bool leading = b == 0 || t[b - 1] == '\n' || t[b - 1] == '\r';
        Diag *g = error_at(L->d, C_yaml_syntax, at, "%s",
                           leading ? "tab character used for indentation; YAML needs spaces"
                                   : "tab character where YAML expects a space; use spaces");
        tab_fix(L, g, leading ? b : off);
        return;
    }
    if (reader || !p->context) {
        error_at(L->d, C_yaml_syntax, at, "%s", problem);
        return;
    }
    Diag *g = error_at(L->d, C_yaml_syntax, at, "%s %s", problem, p->context);
    size_t coff = mark_off(L, p->context_mark);
    if (coff == off)
        return;
    /* "while parsing a flow sequence" -> "the flow sequence starts here" */
    Pos cat = pos_at(L->src, coff, 1);
    const char *c = p->context;
    if (!strncmp(c, "while parsing ", 14) || !strncmp(c, "while scanning ", 15)) {
        c = strchr(c + 6, ' ') + 1;
        c += !strncmp(c, "a ", 2) ? 2 : !strncmp(c, "an ", 3) ? 3 : 0;
        diag_note(L->d, g, cat, "the %s starts here", c);
    } else {
        diag_note(L->d, g, cat, "%s", p->context);
    }
}

/* ---- the API ----------------------------------------------------------- */

/* yaml_load, of file `file` of `files` (Node.file). */
static Node *load_file(Arena *a, const SrcFile *const *files, unsigned file, const LoadLimits *lim, Diags *d)
{
    const SrcFile *src = files[file];
    unsigned before = d->nerrors + d->nfatal;
    size_t bom = src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 BOM */
    Loader L = {
        .a = a,
        .src = src,
        .files = files,
        .file = file,
        .lim = lim ? lim : &load_default_limits,
        .d = d,
        .bom = bom,
        .mark_off = bom,
    };
    uint64_t high = 0; /* the top bits of every byte, eight at a time */
    size_t i = L.bom;
    for (uint64_t w; i + 8 <= src->len; i += 8)
        memcpy(&w, src->text + i, 8), high |= w;
    for (; i < src->len; i++)
        high |= (unsigned char)src->text[i];
    L.ascii = !(high & 0x8080808080808080ull);
    L.frames = arena_alloc(a, L.lim->max_depth * sizeof *L.frames);

    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        segc_oom();
    /* A spec is UTF-8 (src_read checked it), so the encoding is fixed
     * rather than guessed: bytes that look like a UTF-16 BOM are then an
     * error, not a reason to decode the file differently from our offsets.
     * A fixed encoding also makes libyaml count a UTF-8 BOM as a character
     * of line 1, which shifts the indentation, so the BOM is skipped here. */
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&p, (const unsigned char *)src->text + L.bom, src->len - L.bom);
    while (!L.stop) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            syntax_error(&L, &p);
            break;
        }
        bool last = ev.type == YAML_STREAM_END_EVENT;
        on_event(&L, &ev);
        yaml_event_delete(&ev);
        if (last)
            break;
    }
    yaml_parser_delete(&p);
    /* Mappings an error left open: their keys so far. */
    for (size_t o = 0; o < L.nframes; o++) {
        size_t from = L.frames[o].base, to = o + 1 < L.nframes ? L.frames[o + 1].base : L.nkids;
        if (L.frames[o].node.kind == NODE_MAP && to - from > 3)
            duplicate_keys(&L, from, (to - from) / 2);
    }
    free(L.kids);
    free(L.alias_kids);
    free(L.slots);
    if (d->nerrors + d->nfatal > before || !L.have_root)
        return NULL;
    Node *root = arena_alloc_aligned(a, sizeof *root, _Alignof(Node));
    *root = L.root;
    return root;
}

Node *yaml_load(Arena *a, const SrcFile *src, const LoadLimits *lim, Diags *d)
{
    return load_file(a, &src, 0, lim, d);
}

const char *node_kind_name(NodeKind k)
{
    static const char *const names[] = {"scalar", "mapping", "sequence"}; /* NodeKind order */
    return k < countof(names) ? names[k] : "node";
}

/* ---- positions inside a scalar ----------------------------------------- */

static size_t skip_break(const char *t, size_t n, size_t p)
{
    if (p < n && t[p] == '\r')
        p++;
    if (p < n && t[p] == '\n')
        p++;
    return p;
}

/* Bytes that the escape \u / \U with `digits` hex digits at t[p] decodes to. */
static size_t escape_bytes(const char *t, size_t n, size_t p, size_t digits)
{
    char hex[9] = {0};
    if (p + digits > n)
        return 1;
    memcpy(hex, t + p, digits);
    if (strspn(hex, "0123456789abcdefABCDEF") != digits)
        return 1;
    unsigned long cp = strtoul(hex, NULL, 16);
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* The source offset of value byte `i` of a plain or quoted scalar whose
 * content (after the opening quote) starts at t[p].  Follows YAML's flow
 * folding: blanks before a line break are dropped, a break becomes a space
 * (or one newline per empty line after it), the next line's leading blanks
 * are dropped; `''` and backslash escapes stand for what they decode to.
 * A value byte made by a fold or an escape maps to where that starts.
 * t[n] is the file's terminating NUL. */
static size_t flow_off(const char *t, size_t n, size_t p, ScalarStyle st, size_t i)
{
    char q = st == SCALAR_SINGLE ? '\'' : st == SCALAR_DOUBLE ? '"' : 0;
    size_t v = 0;
    while (p < n) {
        char c = t[p];
        /* What stands for no value bytes is stepped over first, so that a
         * byte maps to where it is written, not to what precedes it. */
        if (q == '"' && c == '\\' && p + 1 < n && (t[p + 1] == '\r' || t[p + 1] == '\n')) {
            p = skip_break(t, n, p + 1); /* escaped line break */
            p += strspn(t + p, " \t");
            continue;
        }
        if (c == ' ' || c == '\t') {
            size_t b = p + strspn(t + p, " \t");
            if (b < n && (t[b] == '\r' || t[b] == '\n')) {
                p = b; /* blanks before a line break are not in the value */
                continue;
            }
        }
        if (v >= i)
            return p;
        if (q && c == q) {
            if (q == '\'' && p + 1 < n && t[p + 1] == '\'') {
                v++, p += 2;
                continue;
            }
            return p; /* the closing quote */
        }
        if (q == '"' && c == '\\' && p + 1 < n) {
            char e = t[p + 1];
            size_t src = 2, val = 1;
            switch (e) {
            case 'x': src = 4; break;
            case 'u': src = 6, val = escape_bytes(t, n, p + 2, 4); break;
            case 'U': src = 10, val = escape_bytes(t, n, p + 2, 8); break;
            case 'N':
            case '_': val = 2; break;
            case 'L':
            case 'P': val = 3; break;
            default: break;
            }
            if (i < v + val)
                return p;
            v += val, p += src;
            continue;
        }
        if (c == '\r' || c == '\n') {
            size_t brk = p, empty = 0;
            p = skip_break(t, n, p);
            for (;;) {
                p += strspn(t + p, " \t");
                if (p >= n || (t[p] != '\r' && t[p] != '\n'))
                    break;
                empty++;
                p = skip_break(t, n, p);
            }
            size_t val = empty ? empty : 1;
            if (i < v + val)
                return brk;
            v += val;
            continue;
        }
        v++, p++;
    }
    return p;
}

/* Block scalars.  Literal (`|`): value line k is source line k after the
 * header, less its indentation, so the mapping is exact.  Folded (`>`):
 * best effort, exact on the first content line, else that line's start.
 * `base` is the offset of the header. */
static Pos block_char_pos(Pos sp, const Node *s, size_t base, size_t i, uint32_t len)
{
    const SrcFile *f = sp.file;
    const char *t = f->text;
    size_t n = f->len;
    bool literal = base < n && t[base] == '|';
    const char *nl = memchr(t + base, '\n', n - base);
    if (!nl)
        return pos_shift(sp, 0, len);
    size_t ls = (size_t)(nl - t) + 1; /* the first line after the header */

    if (!literal || s->len == 0) {
        size_t ind;
        for (;;) { /* the first line with more than blanks */
            ind = strspn(t + ls, " ");
            if (ls + ind < n && t[ls + ind] != '\n' && t[ls + ind] != '\r')
                break;
            const char *q = memchr(t + ls, '\n', n - ls);
            if (!q)
                break;
            ls = (size_t)(q - t) + 1;
        }
        size_t m = strcspn(t + ls + ind, "\r\n");
        return pos_at(f, ls + ind + (i < m ? i : 0), len);
    }

    /* Literal.  Past the end: the position after the last byte. */
    size_t extra = 0;
    if (i >= s->len) {
        i = s->len - 1;
        extra = s->str[i] == '\n' ? 0 : 1;
    }
    size_t k = 0, j0 = 0; /* value line of byte i, and where it starts */
    for (size_t x = 0; x < i; x++)
        if (s->str[x] == '\n')
            k++, j0 = x + 1;
    size_t m = strcspn(s->str + j0, "\n"); /* its length in the value */
    for (size_t l = 0; l < k; l++) {
        const char *q = memchr(t + ls, '\n', n - ls);
        if (!q)
            return pos_shift(sp, 0, len);
        ls = (size_t)(q - t) + 1;
    }
    size_t e = strcspn(t + ls, "\r\n"); /* its length in the source */
    size_t ind = e >= m ? e - m : 0;
    return pos_at(f, ls + ind + (i - j0) + extra, len);
}

Pos node_char_pos(const SrcFile *const *files, const Node *s, size_t i, uint32_t len)
{
    if (!s)
        return (Pos){0};
    Pos p = node_pos(files, s);
    if (s->kind != NODE_SCALAR)
        return pos_shift(p, 0, len);
    if (i > s->len)
        i = s->len;
    size_t q = s->style == SCALAR_SINGLE || s->style == SCALAR_DOUBLE ? 1 : 0;
    /* One line, no escapes: the source is the value (inside the quotes);
     * a node spanning lines has pos.len 1, which never matches.  Without
     * the source text that is the best guess too. */
    const SrcFile *f = p.file;
    bool fast = (s->style != SCALAR_BLOCK && p.len == s->len + 2 * q) || !pos_placed(p) || !f->text;
    if (fast || p.off >= f->len)
        return pos_shift(p, clamp32(q + i), len);
    if (s->style == SCALAR_BLOCK)
        return block_char_pos(p, s, p.off, i, len);
    size_t a = flow_off(f->text, f->len, p.off + q, s->style, i);
    Pos r = pos_at(f, a, len);
    if (len) {
        size_t end = i + len < s->len ? i + len : s->len;
        size_t b = flow_off(f->text, f->len, p.off + q, s->style, end);
        if (b > a && !memchr(f->text + a, '\n', b - a))
            r.len = clamp32(b - a);
    }
    return r;
}

/* ---- the spec and its extends chain -------------------------------------- */

/* Every file of the chain is read and parsed here; the trees are merged
 * child over base at the node level, each key by its merge rule.  A merged
 * collection's array holds copies of the nodes it keeps, which share their
 * own kids and keep their file (Node.file), so a value that came from a
 * base file still points into that file. */

void node_place(Node *n, unsigned file, Pos p)
{
    ASSERT(p.file && p.off < 1u << NODE_OFF_BITS && file < NODE_MAX_FILES);
    n->off = p.off & ((1u << NODE_OFF_BITS) - 1);
    n->file = file & (NODE_MAX_FILES - 1);
    n->span = p.len;
}

Pos node_span(const SrcFile *const *files, const Node *n)
{
    Pos p = node_pos(files, n);
    if (n->kind == NODE_SCALAR && n->style != SCALAR_BLOCK)
        p.len = (uint32_t)n->len + (n->style == SCALAR_PLAIN ? 0 : 2);
    return p;
}

bool node_expect(Diags *d, const SrcFile *const *files, const Node *n, NodeKind k, const char *what)
{
    if (n->kind == k)
        return true;
    error_at(d, C_wrong_type, node_span(files, n), "%s must be a %s, not a %s", what, node_kind_name(k),
             node_kind_name(n->kind));
    return false;
}

const NodePair *node_pair(const Node *map, const char *key)
{
    if (!map || map->kind != NODE_MAP || !key)
        return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < map->npairs; i++) {
        const Node *k = &map->pairs[i].key;
        if (k && k->kind == NODE_SCALAR && k->len == n && memcmp(k->str, key, n) == 0)
            return &map->pairs[i];
    }
    return NULL;
}

Node *node_get(const Node *map, const char *key)
{
    const NodePair *p = node_pair(map, key);
    return p ? (Node *)(uintptr_t)&p->value : NULL; /* the tree's: the caller's to change */
}

typedef struct Reader {
    Arena *a;
    Diags *d;
    const ResolveOpts *o;
    Source *out;
    unsigned maxd; /* files the chain may have past the spec */
} Reader;

/* A file of the chain, and the files that extend it (for cycles). */
typedef struct Chain {
    const struct Chain *up;
    const char *real;
} Chain;

static Node *merge_map(Reader *r, const Node *base, const Node *child, SpecMap m, SpecMap entries);

/* The index of the first of names[0..n) that is `name`, else n. */
static size_t name_index(const char *const *names, size_t n, const char *name)
{
    const char *const *k = name ? BY_NAME(names, n, name) : NULL;
    return k ? (size_t)(k - names) : n;
}

/* The `delete: true` of `entry`, an entry of map `m` (a BAR, a segment),
 * or NULL. */
static const NodePair *deleting(const Node *entry, SpecMap m)
{
    for (size_t i = 0; entry->kind == NODE_MAP && i < entry->npairs; i++) {
        const NodePair *p = &entry->pairs[i];
        const KeyInfo *k = spec_key(m, p->key.str);
        if (k && k->merge == MERGE_DELETE && p->value.kind == NODE_SCALAR && !strcmp(p->value.str, "true"))
            return p;
    }
    return NULL;
}

/* A variant's entry that deletes the base's `what` `name`: an error at
 * `at` when the base has none (names[0..n): the base's), and at each key
 * of the entry that would change what is deleted. */
static void delete_entry(Reader *r, const Node *entry, SpecMap m, const char *what, const char *name, Pos at,
                         const char *const *names, size_t n)
{
    const NodePair *del = deleting(entry, m);
    for (size_t i = 0; i < entry->npairs; i++) {
        const NodePair *p = &entry->pairs[i];
        const KeyInfo *k = spec_key(m, p->key.str);
        if (p != del && !(k && k->merge == MERGE_MATCH))
            error_at(r->d, C_variant_delete, node_span(r->out->files, &p->key), "%s '%s' is deleted: its '%s' changes nothing", what,
                     name ? name : "?", p->key.str);
    }
    if (!name) {
        error_at(r->d, C_variant_delete, node_span(r->out->files, &del->key), "'delete: true' needs the name of the base's %s it removes",
                 what);
    } else if (name_index(names, n, name) == n) {
        Diag *g = error_at(r->d, C_variant_delete, at, "the base has no %s '%s' to delete", what, name);
        diag_suggest(r->d, g, name, names, n, sizeof *names);
    } else {
        Deleted *dl = arena_alloc(r->a, sizeof *dl);
        *dl = (Deleted){r->out->deleted, m, name, at};
        r->out->deleted = dl;
    }
}

/* The items of two sequences of maps `m` matched by the key of `m` that
 * MERGE_BY_NAME matches by: a match merges key by key, `delete: true`
 * removes the base's item, a new name is appended; one close to a base
 * item's name is recorded (r->out->near).  A second entry of one name in
 * the child is reported, as in a plain spec. */
static Node *merge_items(Reader *r, const Node *base, const Node *child, SpecMap m)
{
    Arena *a = r->a;
    const char *key = NULL;
    for (size_t i = 0; i < spec_key_count; i++)
        key = spec_keys[i].map == m && spec_keys[i].merge == MERGE_MATCH ? spec_keys[i].key : key;
    size_t nb = base->nitems, n = nb + child->nitems;
    const char **names = arena_alloc(a, (n + 1) * sizeof *names);
    const Node **kept = arena_alloc(a, (nb + 1) * sizeof *kept);
    NearName **nears = arena_alloc(a, (n - nb + 1) * sizeof *nears); /* by item appended */
    Node *s = arena_alloc(a, sizeof *s);
    *s = *child; /* a merged node stands where the child's node it replaces was written */
    s->items = arena_alloc_aligned(a, n * sizeof *s->items, _Alignof(Node));
    s->nitems = 0;
    for (size_t i = 0; i < n; i++) {
        const Node *nm = node_get(i < nb ? &base->items[i] : &child->items[i - nb], key);
        names[i] = nm && nm->kind == NODE_SCALAR ? nm->str : NULL;
        if (i < nb)
            kept[i] = &base->items[i];
    }
    for (size_t i = nb; i < n; i++) {
        const Node *c = &child->items[i - nb];
        const char *name = names[i];
        size_t j = nb + name_index(names + nb, i - nb, name);
        if (j < i) {
            Diag *g = error_at(r->d, R_names_unique, node_span(r->out->files, node_get(c, key)), "a second %s named '%s'",
                               spec_maps[m].noun, name);
            diag_note(r->d, g, node_span(r->out->files, node_get(&child->items[j - nb], key)), "the first is here");
            continue;
        }
        j = name_index(names, nb, name);
        if (deleting(c, m)) {
            delete_entry(r, c, m, spec_maps[m].noun, name, name ? node_span(r->out->files, node_get(c, key)) : node_pos(r->out->files, c), names, nb);
            if (j < nb)
                kept[j] = NULL;
            continue;
        }
        if (j < nb) {
            /* The entry says it adds a segment, but the name is the base's. */
            const Node *nw = node_get(c, "new");
            if (nw && nw->kind == NODE_SCALAR && !strcmp(nw->str, "true")) {
                Diag *g = error_at(r->d, R_names_unique, node_span(r->out->files, node_get(c, key)),
                                   "segment '%s' says new: true, but the base already has a segment of that name", name);
                diag_note(r->d, g, node_span(r->out->files, node_get(&base->items[j], key)),
                          "the base's segment '%s' is described here", name);
                diag_fixit(r->d, g, "rename it, or drop new: to change the base's segment");
            }
            if (kept[j])
                kept[j] = merge_map(r, kept[j], c, m, MAP_NONE);
            continue;
        }
        /* Appended below, in the child's order; its NearName then points
         * at it where it ends up. */
        const char *near = name ? closest_name(name, names, nb) : NULL;
        nears[s->nitems] = NULL;
        if (near) {
            NearName *nn = arena_alloc(a, sizeof *nn);
            *nn = (NearName){r->out->near, NULL, node_get(&base->items[name_index(names, nb, near)], key)};
            r->out->near = nears[s->nitems] = nn;
        }
        s->items[nb + s->nitems++] = *c;
    }
    size_t added = s->nitems;
    s->nitems = 0;
    for (size_t i = 0; i < nb; i++) {
        if (!kept[i])
            continue;
        /* A NearName of the base's own merge follows its item, when this
         * one leaves it as it is. */
        for (NearName *nn = r->out->near; kept[i] == &base->items[i] && nn; nn = nn->next)
            if (nn->item == kept[i])
                nn->item = &s->items[s->nitems];
        s->items[s->nitems++] = *kept[i];
    }
    for (size_t i = 0; i < added; i++) {
        if (nears[i])
            nears[i]->item = &s->items[s->nitems];
        s->items[s->nitems++] = s->items[nb + i];
    }
    return s;
}

/* Child keys over base keys, each by its rule in map `m` (spec.def; a key
 * it does not know is replaced); for a map of named entries (`bars`,
 * `constants`: m is MAP_NONE) each entry is replaced whole, or deleted when
 * it is a map `entries` that says `delete: true`.  The keys each file has
 * of its own (segc, extends) are the base's. */
static Node *merge_map(Reader *r, const Node *base, const Node *child, SpecMap m, SpecMap entries)
{
    size_t nb = base->npairs, n = nb + child->npairs;
    const char **names = arena_alloc(r->a, (nb + 1) * sizeof *names);
    Node *out = arena_alloc(r->a, sizeof *out);
    *out = *child; /* where the child's map stands, as in merge_items */
    out->pairs = arena_alloc(r->a, n * sizeof *out->pairs);
    out->npairs = 0;
    for (size_t i = 0; i < nb; i++)
        names[i] = base->pairs[i].key.str, out->pairs[out->npairs++] = base->pairs[i];
    for (size_t i = 0; i < child->npairs; i++) {
        const Node *k = &child->pairs[i].key, *v = &child->pairs[i].value;
        const KeyInfo *ki = spec_key(m, k->str);
        NodePair *p = (NodePair *)node_pair(out, k->str);
        if (ki && ki->merge == MERGE_FILE)
            continue;
        if (deleting(v, entries)) {
            delete_entry(r, v, entries, spec_maps[entries].noun, k->str, node_span(r->out->files, k), names, nb);
            if (p)
                memmove(p, p + 1, (size_t)(out->pairs + --out->npairs - p) * sizeof *p);
            continue;
        }
        const Node *bv = p ? &p->value : NULL;
        if (bv && ki && ki->merge == MERGE_KEYS && bv->kind == NODE_MAP && v->kind == NODE_MAP)
            v = merge_map(r, bv, v, ki->kind == VK_MAP ? ki->target : MAP_NONE, ki->kind == VK_MAPS ? ki->target : MAP_NONE);
        else if (bv && ki && ki->merge == MERGE_BY_NAME && bv->kind == NODE_SEQ && v->kind == NODE_SEQ)
            v = merge_items(r, bv, v, ki->target);
        if (!p)
            p = &out->pairs[out->npairs++];
        *p = (NodePair){*k, *v};
    }
    return out;
}

/* An open editor buffer's text (segc lsp), or NULL: read the file. */
static const SrcFile *open_file(Reader *r, const char *p)
{
    return r->o && r->o->open_file ? r->o->open_file(r->o->open_ctx, r->a, p) : NULL;
}

/* With --rev (diff REV:PATH), files are read from git, not the disk. */
static bool file_exists(Reader *r, const char *p)
{
    if (open_file(r, p))
        return true;
    if (r->o && r->o->rev) {
        Diags quiet;
        diags_init(&quiet, r->a);
        return src_read_at(r->a, r->o->rev, p, &quiet) != NULL;
    }
    FILE *f = os_fopen(p, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* Where `extends: target` written in `from` points: relative to the
 * including file, then each -I directory. */
static char *find_extends(Reader *r, const char *from, const char *target)
{
    if (os_is_absolute(target))
        return arena_strdup(r->a, target);
    /* A file named "-" beside a spec in the current directory is "./-":
     * src_read would take a bare "-" for standard input. */
    const char *dir = arena_strndup(r->a, from, (size_t)(os_basename(from) - from));
    char *p = arena_printf(r->a, "%s%s", !strcmp(target, "-") && !*dir ? "./" : dir, target);
    if (file_exists(r, p))
        return p;
    for (unsigned i = 0; r->o && i < r->o->ninclude; i++) {
        char *q = arena_printf(r->a, "%s/%s", r->o->include_dirs[i], target);
        if (file_exists(r, q))
            return q;
    }
    return p;
}

static void check_version(Reader *r, const Node *root)
{
    const Node *v = node_get(root, "segc");
    if (!v) {
        Diag *g = error_at(r->d, C_missing_version, node_pos(r->out->files, root),
                           "a spec must start with the format version 'segc: %d'", SEGC_FORMAT_VERSION);
        diag_fixit(r->d, g, "add 'segc: %d' as the first line", SEGC_FORMAT_VERSION);
    } else if (v->kind != NODE_SCALAR || strcmp(v->str, "1") != 0) {
        bool scalar = v->kind == NODE_SCALAR;
        error_at(r->d, C_unsupported_version, node_span(r->out->files, v), "unsupported format version '%s%s'; this segc reads version %d",
                 scalar ? "" : "a ", scalar ? v->str : node_kind_name(v->kind), SEGC_FORMAT_VERSION);
    }
}

/* What tells one file of an extends chain from another: its real path. */
static const char *chain_key(Reader *r, const char *path, const SrcFile *src)
{
    char *real = os_realpath(path);
    const char *key = real ? arena_strdup(r->a, real) : src->name;
    free(real);
    return key;
}

/* Reads `path` (or takes `src`), then what it extends; `from` is the
 * `extends:` that named it (no file for the spec itself). */
static Node *read_chain(Reader *r, const char *path, const SrcFile *src, const Chain *up, unsigned depth, Pos from)
{
    Diags local;
    diags_init(&local, r->a);
    if (!src && (src = open_file(r, path)) && !src_check_text(src, &local))
        src = NULL; /* text from elsewhere (an editor, libsegc) is checked as a file's is */
    else if (!src)
        src = src_read_at(r->a, r->o ? r->o->rev : NULL, path, &local);
    if (!src) {
        /* Re-report a missing base at the `extends:` that named it. */
        for (Diag *g = local.head; g; g = g->next)
            if (from.file)
                error_at(r->d, C_extends, from, "cannot read '%s': %s", path, g->msg);
            else
                diag_add(r->d, g->sev, g->code, g->pos, "%s", g->msg);
        return NULL;
    }
    const char *key = up ? chain_key(r, path, src) : NULL; /* the spec itself needs one only to extend */
    for (const Chain *c = up; c; c = c->up)
        if (strcmp(c->real, key) == 0) {
            error_at(r->d, C_extends_cycle, from, "'%s' extends itself through this chain", src->name);
            return NULL;
        }
    if (depth > r->maxd) {
        error_at(r->d, C_limit_extends, from, "extends chain deeper than %u files", r->maxd);
        return NULL;
    }
    r->out->files[r->out->nfiles++] = src;
    Node *root = load_file(r->a, r->out->files, r->out->nfiles - 1, &load_default_limits, r->d);
    if (!root || !node_expect(r->d, r->out->files, root, NODE_MAP, "a spec"))
        return NULL;
    check_version(r, root);
    const Node *ext = node_get(root, "extends");
    if (!ext)
        return root;
    if (!node_expect(r->d, r->out->files, ext, NODE_SCALAR, "'extends'"))
        return NULL;
    Chain me = {up, key ? key : chain_key(r, path, src)};
    Node *base = read_chain(r, find_extends(r, path, ext->str), NULL, &me, depth + 1, node_span(r->out->files, ext));
    return base ? merge_map(r, base, root, MAP_SPEC, MAP_NONE) : NULL;
}

bool spec_read(Arena *a, const char *path, const SrcFile *src, const ResolveOpts *o, Diags *d, Source *out)
{
    unsigned before = d->nerrors + d->nfatal;
    unsigned maxd = o && o->max_extends_depth ? o->max_extends_depth : 16;
    Reader r = {a, d, o, out, maxd < NODE_MAX_FILES ? maxd : NODE_MAX_FILES - 1}; /* Node.file: the spec and maxd */
    *out = (Source){.files = arena_alloc(a, (r.maxd + 1) * sizeof *out->files)};
    out->root = read_chain(&r, path, src, NULL, 0, (Pos){0});
    out->clean = d->nerrors + d->nfatal == before;
    return out->root != NULL;
}
