/* SPDX-License-Identifier: MIT */
/* fuzz_tmpl.c - libFuzzer target: tmpl_parse and tmpl_render.
 *
 * The input is a template, rendered against a small fixed context with a
 * board, a list of segments with banks, strings that need escaping,
 * integers at the edges, booleans, an empty list and a null. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static TVal *segment(Arena *a, const char *name, uint64_t id, uint64_t size, unsigned nbanks)
{
    TVal *m = tv_map(a);
    tv_put(a, m, "name", tv_str(a, name));
    tv_put(a, m, "upper", tv_str(a, name));
    tv_put(a, m, "id", tv_int(a, id));
    tv_put(a, m, "size", tv_int(a, size));
    tv_put(a, m, "is_memory", tv_bool(a, id & 1));
    TVal *banks = tv_list(a);
    for (unsigned i = 0; i < nbanks; i++) {
        TVal *b = tv_map(a);
        tv_put(a, b, "index", tv_int(a, i));
        tv_put(a, b, "name", tv_str(a, i ? "high" : "low"));
        tv_put(a, b, "end", tv_int(a, (i + 1) * size / nbanks));
        tv_push(a, banks, b);
    }
    tv_put(a, m, "banks", banks);
    tv_put(a, m, "flag_names", tv_list(a));
    return m;
}

static TVal *context(Arena *a)
{
    TVal *root = tv_map(a);
    TVal *board = tv_map(a);
    tv_put(a, board, "name", tv_str(a, "contoso_x1"));
    tv_put(a, board, "upper", tv_str(a, "CONTOSO_X1"));
    tv_put(a, board, "wddm_major", tv_int(a, 1));
    tv_put(a, root, "board", board);
    TVal *segs = tv_list(a);
    tv_push(a, segs, segment(a, "vram", 1, 1ull << 33, 2));
    tv_push(a, segs, segment(a, "aperture", 2, 4096, 0));
    tv_push(a, segs, segment(a, "sys", 3, UINT64_MAX, 1));
    tv_put(a, root, "segments", segs);
    tv_put(a, root, "empty", tv_list(a));
    tv_put(a, root, "nothing", NULL);
    tv_put(a, root, "yes", tv_bool(a, true));
    tv_put(a, root, "no", tv_bool(a, false));
    tv_put(a, root, "zero", tv_int(a, 0));
    tv_put(a, root, "big", tv_int(a, UINT64_MAX));
    tv_put(a, root, "s", tv_str(a, "say \"hi\"\n\\ */ ?\?= \t\x7f"));
    tv_put(a, root, "es", tv_str(a, ""));
    tv_put(a, root, "utf", tv_str(a, "\xc3\xa9"));
    return root;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 18)
        return 0;
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const SrcFile *src = src_from_string(a, "fuzz.tmpl", (const char *)data, size);
    Template *t = tmpl_parse(a, src, &d);
    if (t) {
        if (diags_failed(&d))
            abort();
        Buf out = {0};
        bool ok = tmpl_render(a, t, context(a), &out, &d);
        if (ok == diags_failed(&d))
            abort(); /* result and diagnostics disagree */
        buf_free(&out);
    } else if (!diags_failed(&d)) {
        abort();
    }
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = open_memstream(&mem, &memlen);
    if (f) {
        diags_print_text(f, &d, (DiagStyle){false});
        fclose(f);
        free(mem);
    }
    arena_free(a);
    return 0;
}
