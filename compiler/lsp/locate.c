/* SPDX-License-Identifier: MIT */
/* locate.c - what the cursor is on: the scalar under it in the spec tree
 * the pipeline read, and the keys and indexes that lead to it. */
#include "lsp.h"
#include "context.h"

#include <string.h>

static bool walk(const Analysis *an, const Node *n, Cursor *c);

/* Whether byte `off` is on scalar `n` of the document (its end included,
 * so a cursor just after a word is on it). */
static bool on(const Analysis *an, const Cursor *c, const Node *n, size_t off)
{
    if (!n || n->kind != NODE_SCALAR || node_pos(c->files, n).file != an->file)
        return false;
    Pos p = node_span(c->files, n);
    size_t from = pos_offset(p);
    return off >= from && off <= from + p.len;
}

static bool step(const Analysis *an, Cursor *c, const Node *in, const char *key, int index, const Node *child)
{
    if (c->depth == LOC_MAX_DEPTH)
        return false;
    c->path[c->depth++] = (PathStep){key, index, in};
    if (walk(an, child, c))
        return true;
    c->depth--;
    return false;
}

static bool walk(const Analysis *an, const Node *n, Cursor *c)
{
    if (n->kind == NODE_SCALAR && on(an, c, n, c->off)) {
        c->scalar = n;
        return true;
    }
    for (size_t i = 0; n->kind == NODE_MAP && i < n->npairs; i++) {
        const NodePair *p = &n->pairs[i];
        if (on(an, c, &p->key, c->off)) {
            c->path[c->depth < LOC_MAX_DEPTH ? c->depth++ : c->depth - 1] = (PathStep){p->key.str, -1, n};
            c->scalar = &p->key;
            c->on_key = true;
            return true;
        }
        if (step(an, c, n, p->key.str, -1, &p->value))
            return true;
    }
    for (size_t i = 0; n->kind == NODE_SEQ && i < n->nitems; i++)
        if (step(an, c, n, NULL, (int)i, &n->items[i]))
            return true;
    return false;
}

bool lsp_locate(const Analysis *an, const Node *root, const SrcFile *const *files, size_t off, Cursor *c)
{
    *c = (Cursor){.off = off, .files = files};
    return root && walk(an, root, c);
}

const Segment *spec_segment(const Spec *s, const char *name)
{
    return s && name ? BY_NAME(s->segs, s->nsegs, name) : NULL;
}

const char *cursor_segment_name(const Cursor *c)
{
    /* The `name:` of the map of segments[i] the path goes through. */
    if (c->depth < 2 || !c->path[0].key || strcmp(c->path[0].key, "segments") || c->path[1].index < 0 ||
        c->path[1].node->kind != NODE_SEQ)
        return NULL;
    const Node *name = node_get(&c->path[1].node->items[c->path[1].index], "name");
    return name && name->kind == NODE_SCALAR ? name->str : NULL;
}

const Segment *cursor_segment(const Analysis *an, const Cursor *c)
{
    return spec_segment(an->s, cursor_segment_name(c));
}

static unsigned path_keys(const Cursor *c, const char **keys)
{
    for (unsigned i = 0; i < c->depth; i++)
        keys[i] = c->path[i].key ? c->path[i].key : "#";
    return c->depth;
}

bool cursor_expression(const Cursor *c, int *field)
{
    const char *keys[LOC_MAX_DEPTH];
    unsigned n = path_keys(c, keys);
    if (c->on_key || !n)
        return false;
    if (path_is(c, "constants *"))
        return *field = -1, true;
    const KeyInfo *k = spec_key(spec_map_at(keys, n - 1), keys[n - 1]);
    return k && k->field >= 0 ? *field = k->field, true : false;
}

bool path_is(const Cursor *c, const char *pattern)
{
    const char *keys[LOC_MAX_DEPTH];
    return path_match(keys, path_keys(c, keys), pattern);
}
