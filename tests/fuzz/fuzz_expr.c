/* SPDX-License-Identifier: MIT */
/* fuzz_expr.c - libFuzzer target: expr_parse and expr_eval.
 *
 * The first byte picks the page size (0 = none, else 2^(byte & 31)); the
 * rest is the expression text.  Names known to the lookup callback:
 * vram, size, visible.end, bar.fb.size, zero, big (UINT64_MAX); any other
 * name is an error, as resolve.c reports it. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
    const char *name;
    uint64_t v;
} names[] = {
    {"vram", 8ull << 30}, {"size", 1ull << 30},  {"visible.end", 256ull << 20},
    {"bar.fb.size", 256ull << 20}, {"zero", 0}, {"big", UINT64_MAX},
};

static bool lookup(void *ctx, const Expr *ref, uint64_t *out)
{
    Diags *d = ctx;
    for (size_t i = 0; i < countof(names); i++)
        if (!strcmp(names[i].name, ref->name)) {
            *out = names[i].v;
            return true;
        }
    error_at(d, C_unknown_name, ref->pos, "unknown name '%s'", ref->name);
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint64_t page = data[0] ? (uint64_t)1 << (data[0] & 31) : 0;
    data++, size--;
    /* Not NUL-terminated on purpose: expr_parse takes a length. */
    char *text = malloc(size ? size : 1);
    memcpy(text, data, size);

    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    SrcFile *src = src_from_string(a, "fuzz", "", 0);
    Expr *e = expr_parse(a, text, size, (Pos){src, 3, 7, 0}, &d);
    if (e) {
        if (diags_failed(&d))
            abort(); /* a tree and an error */
        EvalEnv env = {&d, lookup, page};
        uint64_t v = 0;
        bool ok = expr_eval(e, &env, &d, &v);
        if (ok == diags_failed(&d))
            abort(); /* result and diagnostics disagree */
        Buf b = {0};
        expr_print(&b, e);
        buf_free(&b);
    } else if (!diags_failed(&d)) {
        abort(); /* no tree and no error */
    }
    /* Every error lies inside the text: the lexer starts a new line at
     * column 1 after each newline. */
    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    for (const Diag *g = d.head; g; g = g->next) {
        bool first = g->pos.line == 3;
        if (g->pos.line < 3 || g->pos.line > 3 + lines || g->pos.col < (first ? 7 : 1) ||
            g->pos.col > (first ? 7 : 1) + size)
            abort();
    }
    arena_free(a);
    free(text);
    return 0;
}
