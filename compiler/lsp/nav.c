/* SPDX-License-Identifier: MIT */
/* nav.c - definition, references, document symbols and code actions.
 *
 * A request reads the trees of the files themselves: each file of the
 * extends chain is parsed again on its own (the merged tree the pipeline
 * built keeps one node per key, so a base's overridden keys and the
 * child's `extends:` are gone from it), into an arena of the request.
 * Definitions are looked up in the merged tree, which holds what wins:
 * a constant a variant overrides is defined by the variant's key.
 *
 * Names: a constant (a key of `constants:`), a BAR (a key of `bars:`) and
 * a segment (the `name:` of an entry of `segments:`).  They are used in
 * expressions (`vram`, `bar.fb.size`, `visible.end`), by `paging: segment:`
 * and by the `bar:` of `cpu_visible:` and `cpu_host_aperture:`. */
#include "lsp.h"

#include <string.h>

/* ---- a request's view of the files -------------------------------------- */

typedef struct Nav {
    Server *S;
    Doc *doc;
    Analysis *an;
    Arena *a;        /* the request's: trees and expressions parsed again */
    Diags scratch;   /* what parsing them again reports, not shown */
    const Node *own; /* the document's own tree, NULL when it has none */
} Nav;

/* The tree of file `f` alone, or NULL when it is no YAML map. */
static const Node *file_tree(Nav *nv, const SrcFile *f)
{
    const Node *n = yaml_load(nv->a, f, &load_default_limits, &nv->scratch);
    return n && n->kind == NODE_MAP ? n : NULL;
}

/* The request's document, and with `off` the offset of its position. */
static bool nav_open(Nav *nv, Server *S, const json_t *params, RpcError *err, size_t *off)
{
    *nv = (Nav){.S = S};
    if (!(nv->doc = lsp_doc(S, params, err, off)))
        return false;
    nv->an = lsp_analysis(S, nv->doc);
    nv->a = arena_new();
    diags_init(&nv->scratch, nv->a);
    nv->own = nv->an->file ? file_tree(nv, nv->an->file) : NULL;
    return true;
}

/* ---- names -------------------------------------------------------------- */

typedef enum { SYM_NONE, SYM_CONST, SYM_BAR, SYM_SEG, SYM_FIELD, SYM_FILE } SymKind;

/* What a word stands for.  SYM_FIELD: a field of the current segment
 * (`size`, `base`) or of the board (`page_size`, seg NULL). */
typedef struct Sym {
    SymKind kind;
    const char *name;  /* the constant, BAR or segment; SYM_FIELD: the field's key */
    const char *field; /* SEG.base and SEG.size: the field's key; else NULL */
    const char *seg;   /* SYM_FIELD: the current segment's name */
} Sym;

/* What the name of EX_REF `ref` stands for (ref_parse, as resolve.c
 * reads it), and in *word the span of the constant's, BAR's or segment's
 * name in it (`fb` of `bar.fb.size`, `visible` of `visible.end`).  `seg`:
 * the segment the expression is written in, or NULL. */
static Sym ref_sym(Arena *a, const Expr *ref, const char *seg, Pos *word)
{
    RefName n = ref_parse(ref->name);
    *word = ref->pos;
    if (n.kind == REF_UNKNOWN || (n.kind == REF_FIELD && !n.owner_len && n.scope == SC_SEG && !seg))
        return (Sym){0};
    if (n.kind == REF_FIELD && !n.owner_len)
        return (Sym){SYM_FIELD, field_table[n.field].key, NULL, n.scope == SC_SEG ? seg : NULL};
    if (n.kind == REF_CONSTANT)
        return (Sym){SYM_CONST, ref->name, NULL, NULL};
    *word = pos_shift(ref->pos, (uint32_t)(n.owner - ref->name), (uint32_t)n.owner_len);
    const char *owner = arena_strndup(a, n.owner, n.owner_len);
    if (n.scope == SC_BAR)
        return (Sym){SYM_BAR, owner, NULL, NULL};
    return (Sym){SYM_SEG, owner, n.kind == REF_END ? NULL : field_table[n.field].key, NULL};
}

/* The EX_REF of `e` whose span holds byte `off`, or NULL. */
static const Expr *ref_at(const Expr *e, size_t off)
{
    if (!e)
        return NULL;
    if (e->kind == EX_REF) {
        size_t from = pos_offset(e->pos);
        return off >= from && off <= from + e->pos.len ? e : NULL;
    }
    const Expr *r = NULL;
    for (unsigned i = 0; !r && i < e->nargs; i++)
        r = ref_at(e->args[i], off);
    return r;
}

/* The name a key or a plain value names (a declaration, `paging:
 * segment:`, a form's `bar:`, `extends:`), else SYM_NONE. */
static Sym word_sym(const Cursor *c)
{
    const char *s = c->scalar->str;
    if (c->on_key && path_is(c, "constants *"))
        return (Sym){SYM_CONST, s, NULL, NULL};
    if (c->on_key && path_is(c, "bars *"))
        return (Sym){SYM_BAR, s, NULL, NULL};
    if (c->on_key)
        return (Sym){0};
    if (path_is(c, "extends"))
        return (Sym){SYM_FILE, s, NULL, NULL};
    if (path_is(c, "segments # name") || (path_is(c, "paging segment") && strcmp(s, "none")))
        return (Sym){SYM_SEG, s, NULL, NULL};
    if ((path_is(c, "segments # cpu_visible bar") || path_is(c, "segments # cpu_host_aperture bar")) &&
        cursor_segment_name(c))
        return (Sym){SYM_BAR, s, NULL, NULL};
    return (Sym){0};
}

/* What the word under byte `off` of the document stands for. */
static Sym sym_at(Nav *nv, size_t off)
{
    Cursor c;
    if (!lsp_locate(nv->an, nv->own, &nv->an->file, off, &c) || c.scalar->kind != NODE_SCALAR)
        return (Sym){0};
    Sym s = word_sym(&c);
    int field;
    if (s.kind != SYM_NONE || !cursor_expression(&c, &field))
        return s;
    const Expr *ref = ref_at(expr_parse_scalar(nv->a, c.files, c.scalar, &nv->scratch), off);
    Pos word;
    return ref ? ref_sym(nv->a, ref, cursor_segment_name(&c), &word) : (Sym){0};
}

/* ---- definition ----------------------------------------------------------- */

/* The span of a scalar's text (inside its quotes). */
static Pos text_span(const SrcFile *const *files, const Node *n)
{
    return n->style == SCALAR_BLOCK ? node_pos(files, n) : node_char_pos(files, n, 0, (uint32_t)n->len);
}

/* The entry of `segments:` in tree `root` named `name`, or NULL. */
static const Node *seg_entry(const Node *root, const char *name)
{
    const Node *segs = node_get(root, "segments");
    for (size_t i = 0; segs && segs->kind == NODE_SEQ && i < segs->nitems; i++) {
        const Node *n = node_get(&segs->items[i], "name");
        if (n && n->kind == NODE_SCALAR && !strcmp(n->str, name))
            return &segs->items[i];
    }
    return NULL;
}

/* Where `s` is defined, in the merged tree (what wins in the extends
 * chain): a constant's or a BAR's key; a segment's `name:`, or for
 * SEG.base and SEG.size the value when it is written; `extends:` the top
 * of the base file. */
static bool def_pos(const Nav *nv, const Sym *s, Pos *out)
{
    const Node *root = nv->an->src.root ? nv->an->src.root : nv->own, *m, *v = NULL;
    const SrcFile *const *files = nv->an->src.root ? nv->an->src.files : &nv->an->file;
    const NodePair *p;
    switch (s->kind) {
    case SYM_CONST:
    case SYM_BAR:
        if (!(p = node_pair(node_get(root, s->kind == SYM_CONST ? "constants" : "bars"), s->name)))
            return false;
        *out = text_span(files, &p->key);
        return true;
    case SYM_SEG:
    case SYM_FIELD:
        m = s->kind == SYM_SEG ? seg_entry(root, s->name) : s->seg ? seg_entry(root, s->seg) : node_get(root, "board");
        if (s->kind == SYM_SEG && s->field)
            v = node_get(m, s->field);
        else if (s->kind == SYM_FIELD)
            v = node_get(m, s->name);
        if (!v || v->kind != NODE_SCALAR)
            v = m && (s->kind == SYM_SEG || s->seg) ? node_get(m, "name") : NULL;
        if (!v || v->kind != NODE_SCALAR)
            return false;
        *out = text_span(files, v);
        return true;
    case SYM_FILE:
        if (nv->an->src.nfiles < 2)
            return false;
        *out = pos_file(nv->an->src.files[1]);
        return true;
    case SYM_NONE:
        break;
    }
    return false;
}

json_t *lsp_definition(Server *S, const json_t *params, RpcError *err)
{
    Nav nv;
    size_t off;
    if (!nav_open(&nv, S, params, err, &off))
        return NULL;
    Pos at;
    json_t *res = NULL;
    Sym s = sym_at(&nv, off);
    if (def_pos(&nv, &s, &at))
        res = lsp_location(S, at);
    arena_free(nv.a);
    return res ? res : json_null();
}

/* ---- references ------------------------------------------------------------- */

typedef struct Refs {
    Nav *nv;
    Sym want;
    bool decl; /* includeDeclaration */
    json_t *out;
} Refs;

static bool same_sym(const Sym *a, const Sym *b)
{
    return a->kind == b->kind && a->kind != SYM_NONE && a->kind != SYM_FIELD && a->kind != SYM_FILE && a->name &&
           b->name && !strcmp(a->name, b->name);
}

static void add_ref(Refs *r, Pos p)
{
    json_t *loc = lsp_location(r->nv->S, p);
    if (loc)
        json_array_append_new(r->out, loc);
}

static void refs_in_expr(Refs *r, const Expr *e, const char *seg)
{
    if (!e)
        return;
    Pos word;
    if (e->kind == EX_REF) {
        Sym s = ref_sym(r->nv->a, e, seg, &word);
        if (same_sym(&s, &r->want))
            add_ref(r, word);
    }
    for (unsigned i = 0; i < e->nargs; i++)
        refs_in_expr(r, e->args[i], seg);
}

/* The value or key c->scalar, at c->path: a declaration, a use by name or
 * an expression. */
static void refs_in_scalar(Refs *r, const Cursor *c)
{
    Sym s = word_sym(c);
    int field;
    if (same_sym(&s, &r->want)) {
        /* The declarations: a key of constants: or bars:, a segment's name:. */
        bool decl = c->on_key || path_is(c, "segments # name");
        if (r->decl || !decl)
            add_ref(r, text_span(c->files, c->scalar));
    } else if (s.kind == SYM_NONE && cursor_expression(c, &field)) {
        refs_in_expr(r, expr_parse_scalar(r->nv->a, c->files, c->scalar, &r->nv->scratch), cursor_segment_name(c));
    }
}

/* Every scalar under `n`, c->path leading to it. */
static void refs_walk(Refs *r, const Node *n, Cursor *c)
{
    if (c->depth >= LOC_MAX_DEPTH)
        return;
    for (size_t i = 0; n->kind == NODE_MAP && i < n->npairs; i++) {
        const NodePair *p = &n->pairs[i];
        c->path[c->depth++] = (PathStep){p->key.str, -1, n};
        c->scalar = &p->key, c->on_key = true;
        refs_in_scalar(r, c);
        c->scalar = &p->value, c->on_key = false;
        if (p->value.kind == NODE_SCALAR)
            refs_in_scalar(r, c);
        else
            refs_walk(r, &p->value, c);
        c->depth--;
    }
    for (size_t i = 0; n->kind == NODE_SEQ && i < n->nitems; i++) {
        c->path[c->depth++] = (PathStep){NULL, (int)i, n};
        if (n->items[i].kind != NODE_SCALAR)
            refs_walk(r, &n->items[i], c);
        c->depth--;
    }
}

json_t *lsp_references(Server *S, const json_t *params, RpcError *err)
{
    Nav nv;
    size_t off;
    if (!nav_open(&nv, S, params, err, &off))
        return NULL;
    Refs r = {&nv, sym_at(&nv, off),
              json_is_true(json_object_get(json_object_get(params, "context"), "includeDeclaration")), json_array()};
    /* The document and every file of its extends chain (files[0] is the
     * document: its own tree is parsed already). */
    for (unsigned i = 0; same_sym(&r.want, &r.want) /* a name */ && i < (nv.an->src.nfiles ? nv.an->src.nfiles : 1); i++) {
        const Node *t = i ? file_tree(&nv, nv.an->src.files[i]) : nv.own;
        Cursor c = {.files = i ? &nv.an->src.files[i] : &nv.an->file}; /* t is file 0 of these */
        if (t)
            refs_walk(&r, t, &c);
    }
    arena_free(nv.a);
    return r.out;
}

/* ---- document symbols ------------------------------------------------------- */

/* LSP's SymbolKind numbers. */
enum { SK_MODULE = 2, SK_NAMESPACE = 3, SK_FIELD = 8, SK_INTERFACE = 11, SK_CONSTANT = 14, SK_OBJECT = 19,
       SK_STRUCT = 23 };

/* The byte just past the last character of `n` and what it holds. */
static size_t node_end(const SrcFile *const *files, const Node *n)
{
    size_t end = pos_offset(node_pos(files, n)) + 1;
    if (n->kind == NODE_SCALAR && n->style != SCALAR_BLOCK)
        end = pos_offset(node_pos(files, n)) + node_span(files, n).len;
    for (size_t i = 0; n->kind == NODE_MAP && i < n->npairs; i++) {
        size_t e = node_end(files, &n->pairs[i].value);
        end = e > end ? e : end;
    }
    for (size_t i = 0; n->kind == NODE_SEQ && i < n->nitems; i++) {
        size_t e = node_end(files, &n->items[i]);
        end = e > end ? e : end;
    }
    return end;
}

/* A DocumentSymbol spanning [from .. the end of `last`], its name at
 * `sel` (a scalar); children added later. */
static json_t *symbol(const Nav *nv, const char *name, const char *detail, int kind, const Node *first,
                      const Node *last, const Node *sel)
{
    const SrcFile *f = nv->an->file;
    const SrcFile *const *own = &nv->an->file; /* of the document's own tree */
    size_t from = pos_offset(node_pos(own, first)), to = node_end(own, last), s0 = pos_offset(text_span(own, sel));
    size_t s1 = s0 + (sel->style == SCALAR_BLOCK ? 0 : sel->len);
    if (s1 > to)
        to = s1;
    json_t *o = json_pack("{s:s,s:i,s:o,s:o,s:[]}", "name", *name ? name : "?", "kind", kind, "range",
                          lsp_range_in(nv->S, f, from, to), "selectionRange",
                          lsp_range_in(nv->S, f, s0, s1), "children");
    if (detail)
        json_object_set_new(o, "detail", json_string(detail));
    return o;
}

static void add_child(json_t *parent, json_t *child)
{
    json_array_append_new(json_object_get(parent, "children"), child);
}

/* "memory, id 2, 0x80000000..0x200000000" (the GPU range, end exclusive). */
static const char *seg_detail(const Nav *nv, const Segment *g, const Node *entry)
{
    const Node *kind = node_get(entry, "kind");
    if (!g)
        return kind && kind->kind == NODE_SCALAR ? kind->str : NULL;
    if (g->unresolved)
        return arena_printf(nv->a, "%s, id %u", seg_kind_name(g->kind), g->id);
    return arena_printf(nv->a, "%s, id %u, 0x%llX..0x%llX", seg_kind_name(g->kind), g->id,
                        (unsigned long long)g->base.v, (unsigned long long)(g->base.v + g->size.v));
}

/* A segment entry and its banks. */
static json_t *seg_symbol(const Nav *nv, const Node *entry)
{
    const Node *name = node_get(entry, "name");
    if (entry->kind != NODE_MAP || !name || name->kind != NODE_SCALAR)
        return NULL;
    const Segment *g = spec_segment(nv->an->s, name->str);
    json_t *o = symbol(nv, name->str, seg_detail(nv, g, entry), SK_STRUCT, entry, entry, name);
    const Node *banks = node_get(entry, "banks");
    for (size_t i = 0; banks && banks->kind == NODE_SEQ && i < banks->nitems; i++) {
        const Node *b = &banks->items[i], *bn = node_get(b, "name");
        if (!bn || bn->kind != NODE_SCALAR)
            continue;
        const char *detail = NULL;
        if (g && !g->unresolved && i < g->nbanks && g->banks[i].name && !strcmp(g->banks[i].name, bn->str))
            detail = arena_printf(nv->a, "bank %zu, offset 0x%llX..0x%llX", i + 1,
                                  (unsigned long long)g->banks[i].start, (unsigned long long)g->banks[i].end);
        add_child(o, symbol(nv, bn->str, detail, SK_FIELD, b, b, bn));
    }
    return o;
}

/* The sections of the outline: the kind of a section's symbol and, for a
 * map of names (constants, BARs), of its keys' symbols. */
static const struct Section {
    const char *name;
    int kind, key_kind;
} sections[] = {{"board", SK_MODULE, 0}, {"constants", SK_NAMESPACE, SK_CONSTANT}, {"bars", SK_NAMESPACE, SK_INTERFACE},
                {"paging", SK_OBJECT, 0}, {"segments", SK_NAMESPACE, 0}};

/* The outline of what the document itself writes: board, constants, bars,
 * segments with their banks, paging.  A variant's outline lists the keys
 * it writes, not what it inherits: a base file's items have no range in
 * this document (go to the base through `extends:`). */
json_t *lsp_symbols(Server *S, const json_t *params, RpcError *err)
{
    Nav nv;
    if (!nav_open(&nv, S, params, err, NULL))
        return NULL;
    json_t *out = json_array();
    for (size_t i = 0; nv.own && i < nv.own->npairs; i++) {
        const NodePair *p = &nv.own->pairs[i];
        const Node *v = &p->value, *name = node_get(v, "name");
        const struct Section *sec = BY_NAME(sections, countof(sections), p->key.str);
        if (!sec)
            continue;
        const char *detail = sec->kind == SK_MODULE && name && name->kind == NODE_SCALAR ? name->str : NULL;
        json_t *o = symbol(&nv, p->key.str, detail, sec->kind, &p->key, v, &p->key);
        for (size_t j = 0; sec->key_kind && v->kind == NODE_MAP && j < v->npairs; j++) {
            const NodePair *k = &v->pairs[j];
            add_child(o, symbol(&nv, k->key.str, k->value.kind == NODE_SCALAR ? k->value.str : NULL, sec->key_kind,
                                &k->key, &k->value, &k->key));
        }
        for (size_t j = 0; !strcmp(sec->name, "segments") && v->kind == NODE_SEQ && j < v->nitems; j++) {
            json_t *seg = seg_symbol(&nv, &v->items[j]);
            if (seg)
                add_child(o, seg);
        }
        json_array_append_new(out, o);
    }
    arena_free(nv.a);
    return out;
}

/* ---- code actions ------------------------------------------------------------ */

/* The bytes of the document where finding `g` is shown (lsp_shown), or
 * for a finding in a file the document extends with no note in it, its
 * `extends:` value (as server.c shows it).  False when it is shown nowhere
 * in the document. */
static bool shown_at(const Nav *nv, const Diag *g, size_t *from, size_t *to)
{
    Pos p = lsp_shown(nv->an, g);
    if (!p.file) {
        const Node *ext = node_get(nv->own, "extends");
        if (!g->pos.file || !ext || ext->kind != NODE_SCALAR)
            return false;
        p = node_span(&nv->an->file, ext);
    }
    *from = pos_offset(p);
    *to = *from + (p.len ? p.len : 1);
    return true;
}

/* The WorkspaceEdit of finding `g`'s edit: its file's URI and range. */
static json_t *workspace_edit(const Nav *nv, const DiagEdit *ed)
{
    const SrcFile *f = ed->at.file;
    json_t *loc = lsp_location(nv->S, ed->at);
    size_t from = pos_offset(ed->at), to = from + ed->at.len;
    if (!loc)
        return NULL;
    json_t *edit = json_pack("{s:{s:[{s:o,s:s}]}}", "changes", json_string_value(json_object_get(loc, "uri")), "range",
                             lsp_range_in(nv->S, f, from, to < f->len ? to : f->len), "newText",
                             ed->text);
    json_decref(loc);
    return edit;
}

/* "Replace 'MB' with 'MiB'", "Remove 'size: 1GiB'", "Insert ' - 1'". */
static const char *edit_title(const Nav *nv, const DiagEdit *ed)
{
    const char *t = ed->at.file->text + pos_offset(ed->at);
    size_t n = ed->at.len;
    while (n && strchr(" \t\r\n,", t[0]))
        t++, n--;
    while (n && strchr(" \t\r\n,", t[n - 1]))
        n--;
    if (!n)
        return arena_printf(nv->a, "Insert '%s'", ed->text);
    if (!*ed->text)
        return arena_printf(nv->a, "Remove '%.*s'", (int)n, t);
    return arena_printf(nv->a, "Replace '%.*s' with '%s'", (int)n, t, ed->text);
}

/* Whether CodeActionContext.only, when given, asks for quick fixes.  Kinds
 * are hierarchical, "a.b" under "a", "" over every kind: the entries a
 * quick fix is of are "" and "quickfix". */
static bool wants_quickfix(const json_t *only)
{
    size_t i;
    const json_t *k;
    if (!json_is_array(only))
        return true;
    json_array_foreach(only, i, k) {
        const char *s = json_string_value(k);
        if (s && (!*s || !strcmp(s, "quickfix")))
            return true;
    }
    return false;
}

/* Whether `diag`, a finding as published, is one of CodeActionContext's
 * diagnostics: the same range and code. */
static bool listed(const json_t *diags, const json_t *diag)
{
    size_t i;
    const json_t *d;
    json_array_foreach(diags, i, d) {
        if (json_equal(json_object_get(d, "range"), json_object_get(diag, "range")) &&
            json_equal(json_object_get(d, "code"), json_object_get(diag, "code")))
            return true;
    }
    return false;
}

/* A quick fix for every finding with an edit (the findings of the current
 * text, so an action never applies to text that has changed since): of
 * those params.context.diagnostics names, or when it names none, of those
 * shown where params.range is.  None when params.context.only asks for
 * other kinds. */
json_t *lsp_code_action(Server *S, const json_t *params, RpcError *err)
{
    Nav nv;
    if (!nav_open(&nv, S, params, err, NULL))
        return NULL;
    const json_t *range = json_object_get(params, "range"), *ctx = json_object_get(params, "context");
    const json_t *want = json_object_get(ctx, "diagnostics");
    size_t rs, re, ds, de;
    if (!lsp_offset(S, nv.doc, json_object_get(range, "start"), &rs) ||
        !lsp_offset(S, nv.doc, json_object_get(range, "end"), &re)) {
        arena_free(nv.a);
        return rpc_fail(err, RPC_INVALID_PARAMS, "no range");
    }
    json_t *out = json_array();
    bool by_diag = json_array_size(want) > 0;
    for (const Diag *g = wants_quickfix(json_object_get(ctx, "only")) ? nv.an->d.head : NULL; g; g = g->next) {
        json_t *diag, *edit;
        if (!g->edit.text || !shown_at(&nv, g, &ds, &de) || (!by_diag && (ds > re || rs > de)))
            continue;
        diag = lsp_diagnostic(S, nv.doc, nv.an, g);
        if ((by_diag && !listed(want, diag)) || !(edit = workspace_edit(&nv, &g->edit))) {
            json_decref(diag);
            continue;
        }
        json_array_append_new(out, json_pack("{s:s,s:s,s:[o],s:o,s:b}", "title", edit_title(&nv, &g->edit),
                                             "kind", "quickfix", "diagnostics", diag, "edit", edit, "isPreferred", 1));
    }
    arena_free(nv.a);
    return out;
}
