/* SPDX-License-Identifier: MIT */
/* query.c - hover and completion.
 *
 * Hover reads the tree and the model of the document's analysis: the value
 * of an expression with the values of the names it reads (ref_target, the
 * resolver's own name lookup; a constant a -D overrides has the -D value,
 * and the one written is shown as overridden), a flag's meaning
 * (SEGC_FLAGS), a waived rule's `segc explain` text, a segment as the
 * generated handler reports it, a bank's id and GPU range, a BAR with the
 * CPU windows in it.
 * Completion reads where the cursor is from the text (context.c), since
 * the YAML being typed is seldom valid, and the names from the last
 * analysis that built a spec; the flags it offers a segment are those the
 * checker itself takes there (flags_addable).  Hover and completion
 * documentation are Markdown, or plain text for a client that asks. */
#include "lsp.h"
#include "context.h"

#include <inttypes.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------ */

/* A value as an operand of a chain: "8 GiB", "4096"; hex when no IEC
 * unit is exact. */
static const char *operand(Arena *a, uint64_t v)
{
    const char *s = iec(a, v);
    if (v < 1024)
        return arena_printf(a, "%" PRIu64, v);
    return s[0] == '\xE2' ? arena_printf(a, "0x%" PRIX64, v) : s;
}

/* A MarkupContent of `md` (Markdown) in `kind`: as plain text, its code
 * fences, code spans and bold marks taken out. */
static json_t *lsp_markup(Markup kind, const char *md, size_t len)
{
    if (kind == MARKUP_MARKDOWN)
        return json_pack("{s:s,s:s%}", "kind", "markdown", "value", md, len);
    Buf b = {0};
    bool fenced = false;
    for (size_t i = 0; i < len;) {
        /* A fence: "```" (and its info string) at a line start, or the
         * closing one at the end. */
        if ((i == 0 || md[i - 1] == '\n' || (fenced && i + 3 == len)) && len - i >= 3 && !memcmp(md + i, "```", 3)) {
            fenced = !fenced;
            while (i < len && md[i++] != '\n')
                ;
        } else if (!fenced && md[i] == '`') {
            i++;
        } else if (!fenced && len - i >= 2 && !memcmp(md + i, "**", 2)) {
            i += 2;
        } else {
            buf_putc(&b, md[i++]);
        }
    }
    while (b.len && b.p[b.len - 1] == '\n')
        b.len--;
    json_t *r = json_pack("{s:s,s:s%}", "kind", "plaintext", "value", b.p ? b.p : "", b.len);
    buf_free(&b);
    return r;
}

/* ---- hover: expressions ---------------------------------------------------------- */

typedef struct HoverEval {
    const Spec *s;
    const Segment *seg;
    const SrcFile *const *files; /* of the hovered scalar's tree */
} HoverEval;

/* EvalEnv.lookup over the resolved model, through the resolver's names. */
static bool model_lookup(void *ctx, const Expr *ref, uint64_t *out)
{
    const HoverEval *h = ctx;
    return ref_resolved(h->s, ref_target(h->s, h->seg, ref->name), out);
}

/* The references of `e`, in the order they are written. */
static void refs_of(const Expr *e, const Expr **refs, unsigned *n, unsigned max)
{
    if (e->kind == EX_REF && *n < max)
        refs[(*n)++] = e;
    for (unsigned i = 0; i < e->nargs; i++)
        refs_of(e->args[i], refs, n, max);
}

/* The scalar's text with each reference replaced by its value ("8 GiB -
 * 2 GiB"); false when a reference has none or is not on the scalar's line. */
static bool chain(Arena *a, const HoverEval *h, const Node *n, const Expr *e, Buf *b)
{
    const Expr *refs[64];
    unsigned nrefs = 0;
    refs_of(e, refs, &nrefs, countof(refs));
    Pos sp = node_span(h->files, n);
    size_t at = pos_offset(sp), end = at + sp.len;
    const char *t = sp.file->text;
    if (n->style == SCALAR_SINGLE || n->style == SCALAR_DOUBLE)
        at++, end--;
    for (unsigned i = 0; i < nrefs; i++) {
        size_t r = pos_offset(refs[i]->pos);
        uint64_t v;
        if (refs[i]->pos.file != sp.file || r < at || r + refs[i]->pos.len > end ||
            !model_lookup((void *)(uintptr_t)h, refs[i], &v))
            return false;
        buf_putn(b, t + at, r - at);
        buf_puts(b, operand(a, v));
        at = r + refs[i]->pos.len;
    }
    buf_putn(b, t + at, end - at);
    return nrefs > 0;
}

/* What the scalar is the value of: "segment `local` `size` (Size)". */
static void field_title(Buf *b, const Cursor *c, const Segment *g, int f)
{
    const char *key = c->path[c->depth - 1].key;
    if (f < 0) {
        buf_printf(b, "constant `%s`", key);
        return;
    }
    buf_printf(b, "`%s`", key);
    if (path_is(c, "segments # banks # *") && c->path[3].index >= 0) { /* an item, not a key "#" */
        const Node *bank = &c->path[3].node->items[c->path[3].index], *name = node_get(bank, "name");
        if (name && name->kind == NODE_SCALAR)
            buf_printf(b, " of bank `%s`", name->str);
    }
    if (g)
        buf_printf(b, " of segment `%s`", g->name);
    else if (path_is(c, "bars * *"))
        buf_printf(b, " of BAR `%s`", c->path[1].key);
    if (field_table[f].dxgk)
        buf_printf(b, " (%s)", field_table[f].dxgk);
}

static bool hover_expression(Arena *a, const Analysis *an, const Cursor *c, Buf *b)
{
    int f;
    if (!cursor_expression(c, &f))
        return false;
    const Segment *g = cursor_segment(an, c);
    field_title(b, c, g, f);
    const Spec *s = an->s;
    Diags d;
    diags_init(&d, a);
    Expr *e = s ? expr_parse_scalar(a, c->files, c->scalar, &d) : NULL;
    HoverEval h = {s, g, c->files};
    EvalEnv env = {&h, model_lookup, f == F_page_size || !s ? 0 : s->page_size.v};
    uint64_t v;
    /* A constant a -D overrides (the model's value is the command line's:
     * written in another file than its name, its Value's text "NAME=EXPR"):
     * that value, then the value written here, when it evaluates, as the
     * overridden one. */
    const Constant *k = s && path_is(c, "constants *") ? BY_NAME(s->consts, s->nconsts, c->path[1].key) : NULL;
    bool over = k && k->val.set && k->val.pos.file != k->pos.file;
    if (over) {
        buf_printf(b, ", overridden by `-D %s`\n\n", k->val.pos.file->text);
        if (k->val.failed)
            buf_puts(b, "the value from `-D` failed to resolve (see the diagnostics)");
        else
            buf_printf(b, "`%s`", qty(a, k->val.v));
    }
    if (!s) {
        buf_puts(b, "\n\nnot evaluated: the spec has errors that stop segc from building its model");
    } else if (e && expr_eval(e, &env, &d, &v)) { /* "`0xC0000000 (3 GiB) = 4 GiB - 1GiB`" */
        Buf ch = {0};
        buf_printf(b, "%s`%s", over ? "\n\nthe value written here, overridden: " : "\n\n", qty(a, v));
        if (chain(a, &h, c->scalar, e, &ch))
            buf_printf(b, " = %.*s", (int)ch.len, ch.p);
        buf_putc(b, '`');
        buf_free(&ch);
    } else if (!over) {
        buf_puts(b, "\n\nits value failed to resolve (see the diagnostics)");
    }
    return true;
}

/* ---- hover: flags, waivers, segments, banks, BARs -------------------------------- */

static bool hover_flag(const Cursor *c, Buf *b)
{
    const FlagInfo *fi = path_is(c, "segments # flags #") ? BY_NAME(flag_table, flag_count, c->scalar->str) : NULL;
    if (!fi)
        return false;
    buf_printf(b, "**%s**: DXGK_SEGMENTFLAGS bit %u (value 0x%X), member `%s`; WDDM %u.%u or later", fi->name,
               fi->bit, 1u << fi->bit, fi->dxgk, fi->min_wddm >> 4, fi->min_wddm & 15);
    if (fi->derived)
        buf_puts(b, "; derived: segc sets it, `flags:` may not name it");
    buf_printf(b, "\n\n%s", fi->doc);
    return true;
}

static bool hover_waiver(const Cursor *c, Buf *b)
{
    int id = c->on_key && path_is(c, "segments # waive *") ? rule_by_name(c->scalar->str) : -1;
    if (id < 0)
        return false;
    buf_puts(b, "```text\n");
    rule_explain(b, &rule_table[id]);
    buf_puts(b, "```");
    return true;
}

/* Whether the cursor is on a segment's name in an allocation class or
 * the DMA buffer list. */
static bool class_segment_at(const Cursor *c)
{
    static const char *const at[] = {"allocations # prefer #", "allocations # prefer # segment", "allocations # write #",
                                     "allocations # read #", "allocations # evict #", "dma_buffer_segments #"};
    for (size_t i = 0; !c->on_key && i < countof(at); i++)
        if (path_is(c, at[i]))
            return true;
    return false;
}

static bool hover_segment(Arena *a, const Analysis *an, const Cursor *c, Buf *b)
{
    const Segment *g = NULL;
    if (path_is(c, "segments # name"))
        g = cursor_segment(an, c);
    else if ((!c->on_key && path_is(c, "paging segment")) || class_segment_at(c))
        g = spec_segment(an->s, c->scalar->str);
    if (!g)
        return false;
    buf_printf(b, "**segment `%s`**: id %u, %s", g->name, g->id, seg_kind_name(g->kind));
    if (g->unresolved) {
        buf_puts(b, "\n\nsome of its values failed to resolve (see the diagnostics)");
        return true;
    }
    if (g->kind == SEG_AGP)
        buf_puts(b, "\n\n- GPU range: the AGP aperture, at run time");
    else
        buf_printf(b, "\n\n- GPU range: [0x%" PRIX64 ", 0x%" PRIX64 ")\n- size: %s", g->base.v, g->base.v + g->size.v,
                   qty(a, g->size.v));
    const char *flags = flags_text(a, g->flags, " | ", false);
    buf_printf(b, "\n- flags: 0x%X = %s", g->flags, flags ? flags : "none");
    buf_puts(b, "\n- CPU window: ");
    if (g->cpu == CPU_BAR && g->cpu_bar)
        buf_printf(b, "BAR `%s` at offset %s", g->cpu_bar->name, qty(a, g->cpu_offset.v));
    else if (g->cpu == CPU_ADDRESS)
        buf_printf(b, "address %s", qty(a, g->cpu_address.v));
    else
        buf_puts(b, "none");
    return true;
}

/* A bank's `name:`: its id (1-based, the HintedBank the driver gives),
 * its GPU range and its segment. */
static bool hover_bank(Arena *a, const Analysis *an, const Cursor *c, Buf *b)
{
    const Segment *g = !c->on_key && path_is(c, "segments # banks # name") ? cursor_segment(an, c) : NULL;
    unsigned i = g ? (unsigned)c->path[3].index : 0;
    if (!g || i >= g->nbanks)
        return false;
    const Bank *k = &g->banks[i];
    buf_printf(b, "**bank `%s`**: id %u of segment `%s`", k->name, i + 1, g->name);
    if (g->unresolved)
        buf_puts(b, "\n\nsome of the segment's values failed to resolve (see the diagnostics)");
    else
        buf_printf(b, "\n\n- GPU range: [0x%" PRIX64 ", 0x%" PRIX64 ")\n- size: %s", g->base.v + k->start,
                   g->base.v + k->end, qty(a, k->end - k->start));
    return true;
}

/* "- write set: 0x7 = local (2), visible (1), gart (3)" */
static void class_value(Arena *a, Buf *b, const char *what, uint32_t v, const PlaceList *l)
{
    buf_printf(b, "\n- %s: 0x%X = %s", what, v, places_text(a, l, true));
}

/* An allocation class's `name:`: its enumerator and the five values
 * <Prefix>FillAllocationInfo writes, in hex and by name. */
static bool hover_class(Arena *a, const Analysis *an, const Cursor *c, Buf *b)
{
    const Spec *s = an->s;
    const AllocClass *k =
        s && !c->on_key && path_is(c, "allocations # name") ? BY_NAME(s->classes, s->nclasses, c->scalar->str) : NULL;
    if (!k)
        return false;
    buf_printf(b, "**allocation class `%s`**: `%s_ALLOCATION_%s` = %u", k->name, s->upper ? s->upper : "?",
               to_upper(a, k->name), (unsigned)(k - s->classes));
    buf_putc(b, '\n');
    class_value(a, b, "write set", places_mask(&k->write), &k->write);
    class_value(a, b, k->read.set ? "read set" : "read set (the write set)", places_mask(class_read(k)),
                class_read(k));
    class_value(a, b, "eviction set", places_mask(&k->evict), &k->evict);
    class_value(a, b, "preference", class_preferred(k), &k->prefer);
    class_value(a, b, "bank hint", class_hinted_bank(k), &k->banks);
    return true;
}

/* "- segment `visible`: CPU window at offset 0" */
static void bar_window(Arena *a, const Segment *g, const char *what, const Value *offset, Buf *b)
{
    buf_printf(b, "\n- segment `%s`: %s ", g->name, what);
    if (offset->failed)
        buf_puts(b, "at an offset that failed to resolve");
    else
        buf_printf(b, "at offset %s", qty(a, offset->v));
}

/* A BAR's key in `bars:` or the `bar:` of a segment's CPU window: its
 * index, size and width, and the windows of the segments in it. */
static bool hover_bar(Arena *a, const Analysis *an, const Cursor *c, Buf *b)
{
    const Spec *s = an->s;
    bool by_name = c->on_key ? path_is(c, "bars *")
                             : path_is(c, "segments # cpu_visible bar") || path_is(c, "segments # cpu_host_aperture bar");
    const Bar *bar = by_name && s ? BY_NAME(s->bars, s->nbars, c->scalar->str) : NULL;
    if (!bar)
        return false;
    /* A BAR's values do not fail in a spec that was built. */
    buf_printf(b, "**BAR `%s`**: index %" PRIu64 ", %" PRIu64 "-bit\n\n- size: %s", bar->name, bar->index.v,
               bar->bits.v, qty(a, bar->size.v));
    size_t n = b->len;
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (g->cpu == CPU_BAR && g->cpu_bar == bar)
            bar_window(a, g, "CPU window", &g->cpu_offset, b);
        if (g->host.mode == CPU_BAR && g->host.bar == bar)
            bar_window(a, g, "CPU host aperture", &g->host.offset, b);
    }
    if (b->len == n)
        buf_puts(b, "\n- no segment's CPU window is in it");
    return true;
}

/* What the scalar at params.position is, in the client's hover format;
 * null when it is nothing segc explains (or no scalar); NULL (and *err
 * set) when params name no open document or no position. */
json_t *lsp_hover(Server *S, const json_t *params, RpcError *err)
{
    size_t off;
    Doc *doc = lsp_doc(S, params, err, &off);
    if (!doc)
        return NULL;
    Analysis *an = lsp_analysis(S, doc);
    Cursor c;
    if (!lsp_locate(an, an->src.root, an->src.files, off, &c))
        return json_null();
    Arena *a = arena_new();
    Buf b = {0};
    bool any = hover_flag(&c, &b) || hover_waiver(&c, &b) || hover_segment(a, an, &c, &b) ||
               hover_class(a, an, &c, &b) || hover_bank(a, an, &c, &b) || hover_bar(a, an, &c, &b) || hover_expression(a, an, &c, &b);
    json_t *r = any ? json_pack("{s:o,s:o}", "contents", lsp_markup(S->hover_markup, b.p, b.len), "range",
                                lsp_range(S, node_span(c.files, c.scalar)))
                    : json_null();
    buf_free(&b);
    arena_free(a);
    return r;
}

/* ---- completion ------------------------------------------------------------------- */

/* LSP CompletionItemKind. */
enum { CK_FIELD = 5, CK_VARIABLE = 6, CK_PROPERTY = 10, CK_VALUE = 12, CK_KEYWORD = 14, CK_ENUM_MEMBER = 20,
       CK_CONSTANT = 21 };

typedef struct Completion {
    Server *S;
    const Doc *doc;
    size_t word, off; /* the word the items replace */
    json_t *items;
    const Spec *s;    /* the names: the current analysis', else the last good one's */
    const SrcFile *file; /* the text s was read from */
} Completion;

/* One item; `insert` (or NULL: the label) replaces the word being typed. */
static void item(Completion *k, const char *label, int kind, const char *detail, const char *doc, const char *insert)
{
    json_t *it = json_pack("{s:s,s:i,s:{s:o,s:s}}", "label", label, "kind", kind, "textEdit", "range",
                           lsp_range_in(k->S, k->doc->file, k->word, k->off), "newText",
                           insert ? insert : label);
    if (detail)
        json_object_set_new(it, "detail", json_string(detail));
    if (doc)
        json_object_set_new(it, "documentation", lsp_markup(k->S->doc_markup, doc, strlen(doc)));
    json_array_append_new(k->items, it);
}

/* The keys map `m` takes that it does not have yet; those meaningful in a
 * variant only (FF_VARIANT) in a spec with `extends:`. */
static void complete_keys(Arena *a, Completion *k, SpecMap m, const TextCtx *c)
{
    bool variant = text_top_key(k->doc->file, "extends") != NULL;
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *ki = &spec_keys[i];
        if (ki->map != m || ctx_present(c, ki->key) || (ki->flags & FF_VARIANT && !variant))
            continue;
        const char *dxgk = ki->field >= 0 ? field_table[ki->field].dxgk : NULL;
        item(k, ki->key, ki->field >= 0 ? CK_FIELD : CK_PROPERTY,
             ki->field < 0 ? "key" : dxgk ? arena_printf(a, "expression: %s", dxgk) : "expression",
             ki->doc ? ki->doc : ki->target != MAP_NONE ? spec_maps[ki->target].doc : NULL,
             arena_printf(a, "%s: ", ki->key));
    }
}

/* The segment (`classes`: the allocation class) of the spec whose entry
 * the cursor is in: the last whose `name:` stands before it (in the text
 * the names were read from), or NULL. */
static const void *entry_before(const Completion *k, bool classes)
{
    const void *last = NULL;
    for (unsigned i = 0; k->s && i < (classes ? k->s->nclasses : k->s->nsegs); i++) {
        Pos p = classes ? k->s->classes[i].pos : k->s->segs[i].pos;
        if (p.file == k->file && pos_offset(p) <= k->off)
            last = classes ? (const void *)&k->s->classes[i] : (const void *)&k->s->segs[i];
    }
    return last;
}

/* Segment names (a class's lists, the DMA list), or the banks of the
 * class's first preferred segment. */
static void complete_places(Arena *a, Completion *k, bool banks)
{
    if (!banks) {
        for (unsigned i = 0; i < k->s->nsegs; i++)
            if (k->s->segs[i].name)
                item(k, k->s->segs[i].name, CK_VALUE,
                     arena_printf(a, "id %u, %s", k->s->segs[i].id, seg_kind_name(k->s->segs[i].kind)), NULL, NULL);
        return;
    }
    const AllocClass *c = entry_before(k, true);
    const Segment *g = c && c->prefer.n ? c->prefer.p[0].seg : NULL;
    for (unsigned i = 0; g && i < g->nbanks; i++)
        item(k, g->banks[i].name, CK_VALUE, arena_printf(a, "bank %u of segment %s", i + 1, g->name), NULL, NULL);
}

/* The names an expression reads, each with its value. */
static void complete_names(Arena *a, Completion *k, bool in_segment)
{
    const Segment *g = in_segment ? entry_before(k, false) : NULL;
    size_t n;
    const char **names = ref_names(a, k->s, g, &n);
    for (size_t i = 0; i < n; i++) {
        RefTarget t = ref_target(k->s, g, names[i]);
        uint64_t v;
        const char *detail = ref_resolved(k->s, t, &v) ? qty(a, v) : "its value failed";
        item(k, names[i], t.kind == REF_CONSTANT ? CK_CONSTANT : CK_VARIABLE, detail, NULL, NULL);
    }
    if (in_segment && !g) /* the segment is not in the model yet */
        for (unsigned f = 0; f < FIELD_COUNT; f++)
            if (field_table[f].scope == SC_SEG && field_table[f].ref)
                item(k, field_table[f].ref, CK_VARIABLE, "the current segment's", NULL, NULL);
}

/* The value of key `ki` (NULL: none of a spec), in a segment's maps or
 * not: its words, the names an expression reads, a segment or a BAR. */
static void complete_value(Arena *a, Completion *k, const KeyInfo *ki, bool in_segment)
{
    for (size_t i = 0; ki && i < ki->nvalues; i++)
        item(k, ki->values[i], CK_ENUM_MEMBER, NULL, NULL, NULL);
    if (!k->s || !ki)
        return;
    if (ki->kind == VK_EXPR || ki->kind == VK_CONSTANTS)
        complete_names(a, k, in_segment);
    if (ki->kind == VK_BANK)
        complete_places(a, k, true);
    if (ki->kind == VK_SEGMENT) {
        if (ki->map == MAP_PAGING)
            item(k, "none", CK_KEYWORD, "no segment: system memory (id 0)", NULL, NULL);
        for (unsigned i = 0; i < k->s->nsegs; i++)
            if (k->s->segs[i].name)
                item(k, k->s->segs[i].name, CK_VALUE, seg_kind_name(k->s->segs[i].kind), NULL, NULL);
    }
    if (ki->kind == VK_BAR)
        for (unsigned i = 0; i < k->s->nbars; i++)
            item(k, k->s->bars[i].name, CK_VALUE, arena_printf(a, "BAR%" PRIu64 ", %s", k->s->bars[i].index.v,
                                                               qty(a, k->s->bars[i].size.v)), NULL, NULL);
}

/* spec_check over spec `s` again, into `d` (arena `a`); the waivers'
 * `used` marks it sets are put back as they were. */
static void check_again(Spec *s, const RuleConfig *rc, Arena *a, Diags *d)
{
    Buf used = {0};
    for (unsigned i = 0; i < s->nsegs; i++)
        for (unsigned w = 0; w < s->segs[i].nwaivers; w++)
            buf_putc(&used, (char)s->segs[i].waivers[w].used);
    diags_init(d, a);
    spec_check(s, rc, d, NULL);
    for (unsigned i = 0, n = 0; i < s->nsegs; i++)
        for (unsigned w = 0; w < s->segs[i].nwaivers; w++)
            s->segs[i].waivers[w].used = used.p[n++];
    buf_free(&used);
}

/* Whether finding `e` of code and place is among `d`'s. */
static bool found(const Diags *d, const Diag *e)
{
    for (const Diag *g = d->head; g; g = g->next)
        if (g->code == e->code && g->pos.file == e->pos.file && g->pos.off == e->pos.off)
            return true;
    return false;
}

/* Whether writing the flags `add` into segment `g`'s `flags:` makes
 * spec_check report something it does not report now (`now`). */
static bool adds_finding(Spec *s, Segment *g, uint32_t add, const RuleConfig *rc, Arena *a, const Diags *now)
{
    const Segment kept = *g;
    g->flags |= add;
    g->flags_written |= add;
    for (unsigned b = 0; b < 32; b++)
        if (add & (1u << b))
            g->flag_pos[b] = g->flags_pos.file ? g->flags_pos : g->pos;
    Diags with;
    check_again(s, rc, a, &with);
    *g = kept;
    for (const Diag *e = with.head; e; e = e->next)
        if (!found(now, e))
            return true;
    return false;
}

/* The flags segment `g` of spec `s` may add to its `flags:`: those that,
 * written there alone or with one more flag that fits alone
 * (preserved_during_hibernate with preserved_during_standby), make spec_check (under the server's -W
 * options and the segment's waivers) report nothing it does not report
 * now.  So the rules decide - a flag its kind never takes, one its board's
 * WDDM version or DDI forms cannot carry, one that needs a key the segment
 * does not have - and no list of them is kept here.  The spec is put back
 * as it was. */
static uint32_t flags_addable(Spec *s, Segment *g, const RuleConfig *rc)
{
    Arena *a = arena_new();
    Diags now;
    check_again(s, rc, a, &now);
    uint32_t free = 0, ok = 0;
    for (size_t i = 0; i < flag_count; i++)
        if (!flag_table[i].derived && !(g->flags_written & (1u << flag_table[i].bit)))
            free |= 1u << flag_table[i].bit;
    for (unsigned f = 0; f < 32; f++)
        if ((free & (1u << f)) && !adds_finding(s, g, 1u << f, rc, a, &now))
            ok |= 1u << f;
    /* The rest with one flag that fits alone. */
    uint32_t alone = ok;
    for (unsigned f = 0; f < 32; f++)
        for (unsigned with = 0; (free & ~alone & (1u << f)) && !(ok & (1u << f)) && with < 32; with++)
            if ((alone & (1u << with)) && !adds_finding(s, g, 1u << f | 1u << with, rc, a, &now))
                ok |= 1u << f;
    arena_free(a);
    return ok;
}

/* The flags a segment may write, not written yet: when the segment is in
 * the model, those flags_addable finds; else every flag that is not
 * derived. */
static void complete_flags(Arena *a, Completion *k, const TextCtx *c)
{
    Segment *g = (Segment *)entry_before(k, false);
    uint32_t ok = g && !g->unresolved ? flags_addable((Spec *)k->s, g, &k->S->rules) : UINT32_MAX;
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        if (fi->derived || !(ok & (1u << fi->bit)) || ctx_present(c, fi->name))
            continue;
        item(k, fi->name, CK_ENUM_MEMBER,
             arena_printf(a, "%s, bit %u, WDDM %u.%u", fi->dxgk, fi->bit, fi->min_wddm >> 4, fi->min_wddm & 15),
             fi->doc, NULL);
    }
}

/* The advisory rules a segment may waive, not waived yet. */
static void complete_rules(Completion *k, const TextCtx *c)
{
    for (int id = 0; id < RULE_COUNT; id++)
        if (rule_waivable(id) && !ctx_present(c, rule_table[id].name))
            item(k, rule_table[id].name, CK_KEYWORD, rule_table[id].text, NULL, NULL);
}

json_t *lsp_completion(Server *S, const json_t *params, RpcError *err)
{
    size_t off;
    Doc *doc = lsp_doc(S, params, err, &off);
    if (!doc)
        return NULL;
    const Analysis *an = lsp_analysis(S, doc), *names = an->s ? an : doc->good;
    TextCtx c;
    text_context(doc->file->text, doc->file->len, off, &c);
    Completion k = {S, doc, c.word, off, json_array(), names ? names->s : NULL, names ? names->file : NULL};
    const char *path[CTX_MAX_DEPTH];
    for (unsigned i = 0; i < c.depth; i++)
        path[i] = c.path[i];
    /* The map the cursor is in, else the key whose value holds it
     * (`constants:`, `waive:`); for a value or an item, the key's. */
    int m = spec_map_at(path, c.depth);
    const KeyInfo *in = m < 0 && c.depth ? spec_key(spec_map_at(path, c.depth - 1), path[c.depth - 1]) : NULL;
    const KeyInfo *key = m >= 0 ? spec_key(m, c.key) : in && in->kind == VK_CONSTANTS ? in : NULL;
    Arena *a = arena_new();
    if (c.kind == CTX_KEY && in && in->kind == VK_WAIVERS)
        complete_rules(&k, &c);
    else if (c.kind == CTX_KEY && m >= 0)
        complete_keys(a, &k, (SpecMap)m, &c);
    else if (c.kind == CTX_VALUE)
        complete_value(a, &k, key, m >= 0 && c.depth && !strcmp(path[0], "segments"));
    else if (c.kind == CTX_ITEM && key && key->kind == VK_FLAGS)
        complete_flags(a, &k, &c);
    else if (c.kind == CTX_ITEM && key && k.s && (key->kind == VK_SEGMENTS || key->kind == VK_HINTS))
        complete_places(a, &k, key->kind == VK_HINTS && key->target == MAP_BANK_HINT);
    arena_free(a);
    return json_pack("{s:b,s:o}", "isIncomplete", 0, "items", k.items);
}
