/* SPDX-License-Identifier: MIT */
/* check_resolve.c - resolve.c: YAML text -> Spec.
 *
 * Values are read back through query(), a small path language over the
 * model ("seg.local.base", "bank.local.far.end", "const.vram", ...), so each
 * table row is one spec, one path and the number it must hold.  Structural
 * errors are rows of spec, code, line:col and fix text.  `extends` is tested
 * with files written to a temporary directory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "segc.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)

/* ---- reading the model back ------------------------------------------------ */

static const Segment *seg_named(const Spec *s, const char *name, size_t len)
{
    for (unsigned i = 0; i < s->nsegs; i++)
        if (s->segs[i].name && strlen(s->segs[i].name) == len && !strncmp(s->segs[i].name, name, len))
            return &s->segs[i];
    return NULL;
}

/* A Value field: "x" is the value, "x_set" whether it was written. */
static bool value_field(const Value *v, const char *f, const char *name, uint64_t *out)
{
    size_t n = strlen(name);
    if (!strcmp(f, name)) {
        *out = v->v;
        return true;
    }
    if (!strncmp(f, name, n) && !strcmp(f + n, "_set")) {
        *out = v->set;
        return true;
    }
    return false;
}

/* Paths:
 *   wddm ptr_bytes arch page_size nsegs nbars nconsts
 *   paging.seg (the segment's id, 0 for none) paging.buffer_size paging.private_data_size
 *   const.NAME   bar.NAME.index|size
 *   seg.NAME.id|kind|cpu|flags|flags_written|nbanks|nwaivers
 *   seg.NAME.base|size|commit_limit|system_memory_end|cpu_offset|cpu_address[_set]
 *   bank.SEG.BANK.size[_set]|start|end */
static bool query(const Spec *s, const char *q, uint64_t *out)
{
    if (!strcmp(q, "wddm"))
        return *out = s->wddm, true;
    if (!strcmp(q, "ptr_bytes"))
        return *out = s->ptr_bytes, true;
    if (!strcmp(q, "arch"))
        return *out = s->arch, true;
    if (!strcmp(q, "page_size"))
        return *out = s->page_size.v, true;
    if (!strcmp(q, "nsegs"))
        return *out = s->nsegs, true;
    if (!strcmp(q, "nbars"))
        return *out = s->nbars, true;
    if (!strcmp(q, "nconsts"))
        return *out = s->nconsts, true;
    if (!strcmp(q, "paging.seg"))
        return *out = s->paging.seg ? s->paging.seg->id : 0, true;
    if (!strcmp(q, "paging.buffer_size"))
        return *out = s->paging.buffer_size.v, true;
    if (!strcmp(q, "paging.private_data_size"))
        return *out = s->paging.private_data_size.v, true;
    if (!strncmp(q, "const.", 6)) {
        for (unsigned i = 0; i < s->nconsts; i++)
            if (!strcmp(s->consts[i].name, q + 6))
                return *out = s->consts[i].val.v, true;
        return false;
    }
    if (!strncmp(q, "bar.", 4)) {
        const char *f = strchr(q + 4, '.');
        for (unsigned i = 0; f && i < s->nbars; i++)
            if (strlen(s->bars[i].name) == (size_t)(f - q - 4) && !strncmp(s->bars[i].name, q + 4, (size_t)(f - q - 4)))
                return value_field(&s->bars[i].index, f + 1, "index", out) ||
                       value_field(&s->bars[i].size, f + 1, "size", out);
        return false;
    }
    if (!strncmp(q, "seg.", 4)) {
        const char *f = strchr(q + 4, '.');
        const Segment *g = f ? seg_named(s, q + 4, (size_t)(f - q - 4)) : NULL;
        if (!g)
            return false;
        f++;
        if (!strcmp(f, "id"))
            return *out = g->id, true;
        if (!strcmp(f, "kind"))
            return *out = g->kind, true;
        if (!strcmp(f, "cpu"))
            return *out = g->cpu, true;
        if (!strcmp(f, "flags"))
            return *out = g->flags, true;
        if (!strcmp(f, "flags_written"))
            return *out = g->flags_written, true;
        if (!strcmp(f, "nbanks"))
            return *out = g->nbanks, true;
        if (!strcmp(f, "nwaivers"))
            return *out = g->nwaivers, true;
        return value_field(&g->base, f, "base", out) || value_field(&g->size, f, "size", out) ||
               value_field(&g->commit_limit, f, "commit_limit", out) ||
               value_field(&g->system_memory_end, f, "system_memory_end", out) ||
               value_field(&g->cpu_offset, f, "cpu_offset", out) ||
               value_field(&g->cpu_address, f, "cpu_address", out);
    }
    if (!strncmp(q, "bank.", 5)) {
        const char *b = strchr(q + 5, '.'), *f = b ? strchr(b + 1, '.') : NULL;
        const Segment *g = f ? seg_named(s, q + 5, (size_t)(b - q - 5)) : NULL;
        for (unsigned i = 0; g && i < g->nbanks; i++) {
            const Bank *k = &g->banks[i];
            if (!k->name || strlen(k->name) != (size_t)(f - b - 1) || strncmp(k->name, b + 1, (size_t)(f - b - 1)))
                continue;
            if (!strcmp(f + 1, "start"))
                return *out = k->start, true;
            if (!strcmp(f + 1, "end"))
                return *out = k->end, true;
            return value_field(&k->size, f + 1, "size", out);
        }
        return false;
    }
    return false;
}

/* ---- running the resolver -------------------------------------------------- */

typedef struct Run {
    Arena *a;
    Diags d;
    Spec *s;
} Run;

/* `define` is NULL or "name=expr" for ResolveOpts.defines. */
static void run(Run *r, const char *yaml, const char *define)
{
    Define df[1];
    ResolveOpts opts = {0};
    r->a = arena_new();
    diags_init(&r->d, r->a);
    if (define) {
        const char *eq = strchr(define, '=');
        ck_assert_ptr_nonnull(eq);
        df[0].name = arena_strndup(r->a, define, (size_t)(eq - define));
        df[0].expr = eq + 1;
        opts.defines = df;
        opts.ndefines = 1;
    }
    r->s = spec_from_string(r->a, "t.yaml", yaml, &opts, &r->d);
    diags_sort(&r->d);
}

static const char *all(const Run *r)
{
    Buf b = {0};
    buf_puts(&b, "");
    for (const Diag *g = r->d.head; g; g = g->next)
        buf_printf(&b, "%s%s@%s:%u:%u (%s)", g == r->d.head ? "" : "; ", code_name(g->code),
                   g->pos.file ? g->pos.file->name : "?", src_loc(g->pos).line, src_loc(g->pos).col, g->msg);
    const char *s = arena_strdup(r->a, b.p);
    buf_free(&b);
    return s;
}

/* ---- values ------------------------------------------------------------------ */

/* A board that exercises most of the model. */
static const char model[] =
    "segc: 1\n"
    "board: { name: contoso_x1, wddm: \"1.2\" }\n"
    "constants:\n"
    "  total: local_total + 0\n" /* a forward reference */
    "  local_total: 2GiB\n"
    "  window: 256MiB\n"
    "bars:\n"
    "  fb: { index: 0, size: window }\n"
    "  regs: { index: 2, size: 16MiB }\n"
    "segments:\n"
    "  - name: visible\n"
    "    kind: memory\n"
    "    size: bar.fb.size\n"
    "    cpu_visible: { bar: fb, offset: 0 }\n"
    "    flags: [direct_flip, preserved_during_standby]\n"
    "  - name: local\n"
    "    kind: memory\n"
    "    size: total - visible.size\n"
    "    banks:\n"
    "      - { name: near, size: 512MiB }\n"
    "      - { name: mid, size: 16 pages }\n"
    "      - { name: far }\n"
    "  - name: gart\n"
    "    kind: aperture\n"
    "    base: 4GiB\n"
    "    size: 1GiB\n"
    "    commit_limit: min(size, 512MiB)\n"
    "    flags: [cache_coherent]\n"
    "  - name: after\n"
    "    kind: memory\n"
    "    size: 64MiB\n"
    "    cpu_visible: { address: base + 0x1000_0000 }\n"
    "    system_memory_end: size / 2 - 1\n"
    "  - name: agp\n"
    "    kind: agp\n"
    "paging: { segment: gart, buffer_size: 64KiB, private_data_size: visible.end / 1MiB }\n";

/* An AGP segment in the middle: the next default base skips it. */
static const char agp_mid[] =
    "segc: 1\nboard: { name: t }\nsegments:\n"
    "  - { name: a, kind: memory, base: 1GiB, size: 256MiB }\n"
    "  - { name: agp, kind: agp }\n"
    "  - { name: b, kind: memory, size: 64MiB }\n"
    "  - { name: c, kind: aperture, size: b.base - a.base }\n";

static const char pages64[] =
    "segc: 1\nboard: { name: t, page_size: 64KiB }\nsegments:\n"
    "  - { name: a, kind: memory, size: 4 pages }\n"
    "  - { name: b, kind: memory, size: 2 * page_size, banks: [{ name: x, size: 1 pages }, { name: y }] }\n";

static const char refs[] =
    "segc: 1\nboard: { name: t }\nconstants:\n  vram: 1GiB\n  twice: vram * 2\nsegments:\n"
    "  - { name: first, kind: memory, base: second.end, size: 1GiB - base }\n"
    "  - { name: second, kind: memory, base: 256MiB, size: vram / 4 }\n"
    "  - { name: third, kind: aperture, size: first.end - second.base, commit_limit: size - 4KiB }\n";

#define BOARD(extra) "segc: 1\nboard: { name: t" extra " }\nsegments:\n  - { name: v, kind: memory, size: 4KiB }\n"

static const struct {
    const char *yaml, *define, *query;
    uint64_t want;
} value_cases[] = {
    /* constants, bars, references */
    {model, NULL, "nconsts", 3},
    {model, NULL, "const.total", 2 * GiB},
    {model, NULL, "const.local_total", 2 * GiB},
    {model, NULL, "const.window", 256 * MiB},
    {model, NULL, "nbars", 2},
    {model, NULL, "bar.fb.size", 256 * MiB},
    {model, NULL, "bar.fb.index", 0},
    {model, NULL, "bar.regs.index", 2},
    {model, NULL, "bar.regs.size", 16 * MiB},
    {model, NULL, "nsegs", 5},
    {model, NULL, "seg.visible.id", 1},
    {model, NULL, "seg.agp.id", 5},
    {model, NULL, "seg.visible.size", 256 * MiB},
    {model, NULL, "seg.local.size", 2 * GiB - 256 * MiB},
    /* default base: the previous segment's end (0 for the first) */
    {model, NULL, "seg.visible.base", 0},
    {model, NULL, "seg.visible.base_set", 0},
    {model, NULL, "seg.local.base", 256 * MiB},
    {model, NULL, "seg.local.base_set", 0},
    {model, NULL, "seg.gart.base", 4 * GiB},
    {model, NULL, "seg.gart.base_set", 1},
    {model, NULL, "seg.after.base", 5 * GiB},
    {model, NULL, "seg.agp.base", 0},
    {model, NULL, "seg.agp.size", 0},
    /* default commit_limit: the size */
    {model, NULL, "seg.visible.commit_limit", 256 * MiB},
    {model, NULL, "seg.visible.commit_limit_set", 0},
    {model, NULL, "seg.gart.commit_limit", 512 * MiB},
    {model, NULL, "seg.gart.commit_limit_set", 1},
    {model, NULL, "seg.after.commit_limit", 64 * MiB},
    /* `base` and `size` of the current segment */
    {model, NULL, "seg.after.cpu_address", 5 * GiB + 0x10000000},
    {model, NULL, "seg.after.system_memory_end", 32 * MiB - 1},
    {model, NULL, "seg.visible.system_memory_end", 0},
    {model, NULL, "seg.visible.system_memory_end_set", 0},
    {model, NULL, "seg.visible.cpu_offset", 0},
    {model, NULL, "seg.visible.cpu_offset_set", 1},
    {model, NULL, "seg.visible.cpu", CPU_BAR},
    {model, NULL, "seg.after.cpu", CPU_ADDRESS},
    {model, NULL, "seg.local.cpu", CPU_NONE},
    {model, NULL, "seg.visible.kind", SEG_MEMORY},
    {model, NULL, "seg.gart.kind", SEG_APERTURE},
    {model, NULL, "seg.agp.kind", SEG_AGP},
    /* banks: `pages` with the default page, the last takes the rest */
    {model, NULL, "seg.local.nbanks", 3},
    {model, NULL, "bank.local.near.start", 0},
    {model, NULL, "bank.local.near.end", 512 * MiB},
    {model, NULL, "bank.local.mid.size", 64 * KiB},
    {model, NULL, "bank.local.mid.start", 512 * MiB},
    {model, NULL, "bank.local.mid.end", 512 * MiB + 64 * KiB},
    {model, NULL, "bank.local.far.size", 2 * GiB - 256 * MiB - 512 * MiB - 64 * KiB},
    {model, NULL, "bank.local.far.size_set", 0},
    {model, NULL, "bank.local.far.start", 512 * MiB + 64 * KiB},
    {model, NULL, "bank.local.far.end", 2 * GiB - 256 * MiB},
    {model, NULL, "bank.local.near.size_set", 1},
    /* flags: written names to bits, plus the derived ones */
    {model, NULL, "seg.visible.flags_written", FLAG_direct_flip | FLAG_preserved_during_standby},
    {model, NULL, "seg.visible.flags", FLAG_cpu_visible | FLAG_direct_flip | FLAG_preserved_during_standby},
    {model, NULL, "seg.visible.flags", (1u << 2) | (1u << 10) | (1u << 7)},
    {model, NULL, "seg.local.flags", FLAG_use_banking},
    {model, NULL, "seg.local.flags", 1u << 3},
    {model, NULL, "seg.gart.flags", FLAG_aperture | FLAG_cache_coherent},
    {model, NULL, "seg.gart.flags", (1u << 0) | (1u << 4)},
    {model, NULL, "seg.gart.flags_written", FLAG_cache_coherent},
    {model, NULL, "seg.after.flags", FLAG_cpu_visible},
    {model, NULL, "seg.agp.flags", FLAG_agp},
    {model, NULL, "seg.agp.flags", 1u << 1},
    /* board and paging */
    {model, NULL, "wddm", 0x12},
    {model, NULL, "arch", ARCH_X64},
    {model, NULL, "ptr_bytes", 8},
    {model, NULL, "page_size", 4096},
    {model, NULL, "paging.seg", 3},
    {model, NULL, "paging.buffer_size", 64 * KiB},
    {model, NULL, "paging.private_data_size", 256},
    /* default base skips an AGP segment */
    {agp_mid, NULL, "seg.b.base", GiB + 256 * MiB},
    {agp_mid, NULL, "seg.agp.base", 0},
    {agp_mid, NULL, "seg.c.base", GiB + 256 * MiB + 64 * MiB},
    {agp_mid, NULL, "seg.c.size", 256 * MiB},
    /* `pages` and page_size follow board.page_size */
    {pages64, NULL, "page_size", 64 * KiB},
    {pages64, NULL, "seg.a.size", 256 * KiB},
    {pages64, NULL, "seg.b.size", 128 * KiB},
    {pages64, NULL, "bank.b.x.size", 64 * KiB},
    {pages64, NULL, "bank.b.y.size", 64 * KiB},
    {pages64, NULL, "bank.b.y.end", 128 * KiB},
    /* references forward and backward, `base` of the segment */
    {refs, NULL, "const.twice", 2 * GiB},
    {refs, NULL, "seg.second.size", 256 * MiB},
    {refs, NULL, "seg.first.base", 512 * MiB},
    {refs, NULL, "seg.first.size", 512 * MiB},
    {refs, NULL, "seg.third.base", 512 * MiB}, /* second.end */
    {refs, NULL, "seg.third.size", 768 * MiB},
    {refs, NULL, "seg.third.commit_limit", 768 * MiB - 4 * KiB},
    /* -D replaces a constant's expression; what uses it follows */
    {refs, "vram=2GiB", "const.vram", 2 * GiB},
    {refs, "vram=2GiB", "const.twice", 4 * GiB},
    {refs, "vram=2GiB", "seg.second.size", 512 * MiB},
    {refs, "vram=3 * 4KiB", "const.twice", 24 * KiB},
    {refs, "twice=vram + 4KiB", "const.twice", GiB + 4 * KiB},
    {refs, "twice=0x10", "seg.second.size", 256 * MiB},
    /* wddm versions, arch */
    {BOARD(""), NULL, "wddm", 0x13},
    {BOARD(", wddm: \"1.2\""), NULL, "wddm", 0x12},
    {BOARD(", wddm: \"1.3\""), NULL, "wddm", 0x13},
    {BOARD(", wddm: \"2.0\""), NULL, "wddm", 0x20},
    {BOARD(", wddm: \"2.9\""), NULL, "wddm", 0x29},
    {BOARD(", wddm: \"3.1\""), NULL, "wddm", 0x31},
    {BOARD(""), NULL, "arch", ARCH_X64},
    {BOARD(""), NULL, "ptr_bytes", 8},
    {BOARD(", arch: x86"), NULL, "arch", ARCH_X86},
    {BOARD(", arch: x86"), NULL, "ptr_bytes", 4},
    {BOARD(", arch: arm64"), NULL, "arch", ARCH_ARM64},
    {BOARD(", arch: arm64"), NULL, "ptr_bytes", 8},
    {BOARD(", page_size: 16KiB"), NULL, "page_size", 16 * KiB},
    {BOARD(""), NULL, "paging.seg", 0},
    {BOARD(""), NULL, "paging.buffer_size", 0},
};

START_TEST(test_values)
{
    Run r;
    run(&r, value_cases[_i].yaml, value_cases[_i].define);
    ck_assert_msg(r.s != NULL && r.d.count == 0, "case %d: did not resolve cleanly: %s", _i, all(&r));
    uint64_t v = 0xBAD;
    ck_assert_msg(query(r.s, value_cases[_i].query, &v), "case %d: no '%s' in the model", _i,
                  value_cases[_i].query);
    ck_assert_msg(v == value_cases[_i].want, "case %d: %s = 0x%llX, want 0x%llX", _i, value_cases[_i].query,
                  (unsigned long long)v, (unsigned long long)value_cases[_i].want);
    arena_free(r.a);
}
END_TEST

/* Names, positions and the rest of the model that is not a number. */
START_TEST(test_model_positions)
{
    Run r;
    run(&r, model, NULL);
    ck_assert_msg(r.s != NULL, "%s", all(&r));
    const Spec *s = r.s;
    ck_assert_str_eq(s->name, "contoso_x1");
    ck_assert_str_eq(s->camel, "ContosoX1");
    ck_assert_str_eq(s->upper, "CONTOSO_X1");
    ck_assert_ptr_eq(s->file, s->files[0]);
    ck_assert_uint_eq(s->nfiles, 1);
    ck_assert_str_eq(s->file->name, "t.yaml");
    ck_assert(src_loc(s->name_pos).line == 2 && src_loc(s->name_pos).col == 16 && s->name_pos.len == 10);
    ck_assert(src_loc(s->wddm_pos).line == 2 && src_loc(s->wddm_pos).col == 34 && s->wddm_pos.len == 5);
    ck_assert(src_loc(s->segs_pos).line == 11 && src_loc(s->segs_pos).col == 3);
    /* constants: the key's position; values: the scalar's */
    ck_assert_str_eq(s->consts[0].name, "total");
    ck_assert(src_loc(s->consts[0].pos).line == 4 && src_loc(s->consts[0].pos).col == 3 && s->consts[0].pos.len == 5);
    ck_assert(src_loc(s->consts[0].val.pos).line == 4 && src_loc(s->consts[0].val.pos).col == 10);
    ck_assert_str_eq(s->bars[1].name, "regs");
    ck_assert(src_loc(s->bars[1].pos).line == 9 && src_loc(s->bars[1].pos).col == 3);
    ck_assert(src_loc(s->bars[1].size.pos).line == 9 && src_loc(s->bars[1].size.pos).col == 27);
    const Segment *g = &s->segs[0];
    ck_assert_str_eq(g->name, "visible");
    ck_assert(src_loc(g->pos).line == 11 && src_loc(g->pos).col == 11 && g->pos.len == 7);
    ck_assert(src_loc(g->kind_pos).line == 12 && src_loc(g->kind_pos).col == 11);
    ck_assert(src_loc(g->size.pos).line == 13 && src_loc(g->size.pos).col == 11 && g->size.pos.len == 11);
    ck_assert(src_loc(g->cpu_pos).line == 14 && src_loc(g->cpu_pos).col == 18);
    ck_assert_ptr_eq(g->cpu_bar, &s->bars[0]);
    ck_assert(src_loc(g->cpu_bar_pos).line == 14 && src_loc(g->cpu_bar_pos).col == 25);
    ck_assert(src_loc(g->flags_pos).line == 15 && src_loc(g->flags_pos).col == 12);
    ck_assert(src_loc(g->flag_pos[10]).line == 15 && src_loc(g->flag_pos[10]).col == 13);
    ck_assert(src_loc(g->flag_pos[7]).line == 15 && src_loc(g->flag_pos[7]).col == 26);
    g = &s->segs[1];
    ck_assert(src_loc(g->banks_pos).line == 19 && src_loc(g->banks_pos).col == 5 && g->banks_pos.len == 5); /* `banks:` */
    ck_assert_str_eq(g->banks[2].name, "far");
    ck_assert(src_loc(g->banks[2].pos).line == 22 && src_loc(g->banks[2].pos).col == 17);
    ck_assert(src_loc(g->banks[1].size.pos).line == 21 && src_loc(g->banks[1].size.pos).col == 28);
    ck_assert_ptr_eq(s->paging.seg, &s->segs[2]);
    ck_assert(s->paging.seg_set);
    ck_assert(src_loc(s->paging.seg_pos).line == 36 && src_loc(s->paging.seg_pos).col == 20);
    for (unsigned i = 0; i < s->nsegs; i++)
        ck_assert_uint_eq(s->segs[i].id, i + 1);
    arena_free(r.a);
}
END_TEST

/* -D: the new expression is positioned in "<command line>", so an error in
 * it points there; the constant's old value is not evaluated. */
START_TEST(test_define_position)
{
    Run r;
    run(&r, refs, "vram=1/0 + nope");
    ck_assert_msg(r.s && r.d.nerrors == 1, "%s", all(&r));
    /* Every segment depends on vram; none is checked. */
    ck_assert(r.s->segs[0].unresolved && r.s->segs[1].unresolved && r.s->segs[2].unresolved);
    ck_assert_str_eq(code_name(r.d.head->code), "expr-div-zero");
    ck_assert_str_eq(r.d.head->pos.file->name, "<command line>");
    ck_assert_uint_eq(src_loc(r.d.head->pos).col, 7);
    arena_free(r.a);
    run(&r, refs, "twice=vram * 3");
    ck_assert_msg(r.s != NULL, "%s", all(&r));
    const Constant *c = &r.s->consts[1];
    ck_assert_str_eq(c->name, "twice");
    ck_assert_uint_eq(c->val.v, 3 * GiB);
    ck_assert(c->val.set);
    ck_assert_str_eq(c->val.pos.file->name, "<command line>");
    ck_assert(src_loc(c->val.pos).line == 1 && src_loc(c->val.pos).col == 7 && c->val.pos.len == 8);
    /* the spec's own value of vram, untouched */
    ck_assert_str_eq(r.s->consts[0].val.pos.file->name, "t.yaml");
    ck_assert_uint_eq(src_loc(r.s->consts[0].val.pos).line, 4);
    arena_free(r.a);
}
END_TEST

/* ---- structural errors -------------------------------------------------------- */

#define HEAD "segc: 1\nboard: { name: t }\n"
#define SEGS "segments:\n  - { name: vram, kind: memory, size: 256MiB }\n"
#define CMDLINE "<command line>"

static const struct {
    const char *yaml, *define;
    const char *code;
    unsigned line, col;
    const char *fix;      /* NULL: no fix-it; else its exact text */
    const char *msg;      /* a substring of the message */
    unsigned nline, ncol; /* the first note, or 0 for none */
    const char *file;     /* NULL: t.yaml */
} error_cases[] = {
    /* unknown keys, with a did-you-mean or the list of keys */
    {HEAD "segments:\n  - { name: vram, kind: memory, sise: 256MiB }\n", NULL, "unknown-key", 4, 33,
     "did you mean 'size'?", "unknown key 'sise' in a segment", 0, 0, NULL},
    {"segc: 1\nboard: { name: t, colour: red }\n" SEGS, NULL, "unknown-key", 2, 19,
     "'board' takes: name, wddm, arch, page_size", "unknown key 'colour' in 'board'", 0, 0, NULL},
    {HEAD "segmnets:\n  - { name: vram, kind: memory, size: 256MiB }\n", NULL, "unknown-key", 3, 1,
     "did you mean 'segments'?", "unknown key 'segmnets' in the spec", 0, 0, NULL},
    {HEAD SEGS "paging: { segment: none, bufer_size: 4KiB }\n", NULL, "unknown-key", 5, 26,
     "did you mean 'buffer_size'?", "in 'paging'", 0, 0, NULL},
    {HEAD "bars:\n  fb: { index: 0, szie: 1GiB }\n" SEGS, NULL, "unknown-key", 4, 19, "did you mean 'size'?",
     "in BAR 'fb'", 0, 0, NULL},
    {HEAD "bars:\n  fb: { index: 0, size: 256MiB }\n"
          "segments:\n  - { name: vram, kind: memory, size: 4KiB, cpu_visible: { bar: fb, ofset: 0 } }\n",
     NULL, "unknown-key", 6, 69, "did you mean 'offset'?", "in 'cpu_visible'", 0, 0, NULL},
    /* one report per misspelling: not also "cpu_visible needs 'bar' or 'address'" */
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, cpu_visible: { adress: 0 } }\n", NULL,
     "unknown-key", 4, 60, "did you mean 'address'?", "in 'cpu_visible'", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, cpu_visible: { offset: 0 } }\n", NULL,
     "cpu-visible-form", 4, 58, NULL, "cpu_visible needs 'bar' (+ 'offset') or 'address'", 0, 0, NULL},
    /* wrong types */
    {"segc: 1\nboard: [t]\n" SEGS, NULL, "wrong-type", 2, 8, NULL, "'board' must be a mapping, not a sequence", 0, 0,
     NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: { a: 1 } }\n", NULL, "wrong-type", 4, 39, NULL,
     "'size' of segment 'vram' must be a scalar, not a mapping", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, flags: direct_flip }\n", NULL, "wrong-type", 4,
     52, NULL, "'flags' of segment 'vram' must be a sequence, not a scalar", 0, 0, NULL},
    {HEAD "segments: { vram: 1 }\n", NULL, "wrong-type", 3, 11, NULL, "'segments' must be a sequence", 0, 0, NULL},
    {HEAD "constants:\n  vram: [1]\n" SEGS, NULL, "wrong-type", 4, 9, NULL, "constant 'vram' must be a scalar", 0, 0,
     NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, waive: [size-nonzero] }\n", NULL, "wrong-type", 4,
     52, NULL, "'waive' of segment 'vram' must be a mapping", 0, 0, NULL},
    {"- 1\n- 2\n", NULL, "wrong-type", 1, 1, NULL, "a spec must be a mapping, not a sequence", 0, 0, NULL},
    /* missing keys */
    {"segc: 1\nboard: { wddm: \"1.3\" }\n" SEGS, NULL, "missing-key", 2, 8, NULL, "'board' needs a 'name' key", 0, 0,
     NULL},
    {HEAD "segments:\n  - { name: vram, size: 256MiB }\n", NULL, "missing-key", 4, 5, NULL,
     "segment 'vram' needs a 'kind' key", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory }\n", NULL, "missing-key", 4, 5, NULL,
     "segment 'vram' needs a 'size' key", 0, 0, NULL},
    {HEAD "segments:\n  - { kind: memory, size: 4KiB }\n", NULL, "missing-key", 4, 5, NULL,
     "segment 1 needs a 'name' key", 0, 0, NULL},
    {"segc: 1\n" SEGS, NULL, "missing-key", 1, 1, NULL, "a spec needs a 'board' key", 0, 0, NULL},
    {HEAD, NULL, "missing-key", 1, 1, NULL, "a spec needs a 'segments' key", 0, 0, NULL},
    {HEAD "bars:\n  fb: { index: 0 }\n" SEGS, NULL, "missing-key", 4, 7, NULL, "BAR 'fb' needs a 'size' key", 0, 0,
     NULL},
    {HEAD "segments:\n  - name: vram\n    kind: memory\n    size: 8KiB\n    banks:\n      - { name: a }\n"
          "      - { name: b }\n",
     NULL, "missing-key", 8, 9, NULL, "bank 1 of segment 'vram' needs a 'size' (only the last bank may omit it)", 0,
     0, NULL},
    {"board: { name: t }\n" SEGS, NULL, "missing-version", 1, 1, "add 'segc: 1' as the first line",
     "format version 'segc: 1'", 0, 0, NULL},
    {"segc: 2\nboard: { name: t }\n" SEGS, NULL, "unsupported-version", 1, 7, NULL,
     "unsupported format version '2'", 0, 0, NULL},
    /* flags */
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, flags: [cache_coherant] }\n", NULL, "unknown-flag",
     4, 53, "did you mean 'cache_coherent'?", "unknown segment flag 'cache_coherant'", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, flags: [use_banking] }\n", NULL, "derived-flag", 4,
     53, "remove 'use_banking' and write 'banks:' instead", "segc derives it from 'banks:'", 0, 0, NULL},
    {HEAD "segments:\n  - { name: gart, kind: aperture, size: 4KiB, flags: [aperture] }\n", NULL, "derived-flag", 4,
     55, "remove 'aperture' (segc sets it from the 'kind: aperture' already written)",
     "'aperture' is not written in flags", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, flags: [cpu_visible] }\n", NULL, "derived-flag", 4,
     53, "remove 'cpu_visible' and write 'cpu_visible:' instead", "derives it", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, flags: [agp] }\n", NULL, "derived-flag", 4, 53,
     "remove 'agp' and write 'kind: agp' instead", "derives it", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, flags: [direct_flip, pitch_alignment, direct_flip] }\n",
     NULL, "duplicate-flag", 4, 83, NULL, "flag 'direct_flip' is written twice", 4, 53, NULL},
    /* names that must exist */
    {HEAD "bars:\n  fb: { index: 0, size: 256MiB }\n"
          "segments:\n  - { name: vram, kind: memory, size: 256MiB, cpu_visible: { bar: fbb } }\n",
     NULL, "unknown-bar", 6, 67, "did you mean 'fb'?", "no BAR named 'fbb'", 0, 0, NULL},
    {HEAD SEGS "  - { name: gart, kind: aperture, size: 256MiB }\npaging: { segment: gartt }\n", NULL, "unknown-segment",
     6, 20, "did you mean 'gart'?", "no segment named 'gartt' (or 'none')", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: vrma }\nconstants: { vram: 4KiB }\n", NULL, "unknown-name", 4,
     39, "did you mean 'vram'?", "unknown name 'vrma'", 0, 0, NULL},
    {HEAD SEGS "  - { name: more, kind: memory, base: vram.ned, size: 4KiB }\n", NULL, "unknown-name", 5, 39,
     "did you mean 'vram.end'?", "unknown name 'vram.ned'", 0, 0, NULL},
    {HEAD "bars:\n  fb: { index: 0, size: 256MiB }\n"
          "segments:\n  - { name: vram, kind: memory, size: bar.fb.sise }\n",
     NULL, "unknown-name", 6, 39, "did you mean 'bar.fb.size'?", "unknown name 'bar.fb.sise'", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memroy, size: 4KiB }\n", NULL, "bad-value", 4, 25,
     "did you mean 'memory'?", "unknown segment kind 'memroy' (one of: memory, aperture, agp)", 0, 0, NULL},
    {"segc: 1\nboard: { name: t, wddm: \"1.14\" }\n" SEGS, NULL, "bad-value", 2, 25, "did you mean '1.1' (the nearest version)?",
     "unknown WDDM version '1.14'", 0, 0, NULL},
    {"segc: 1\nboard: { name: t, arch: arm }\n" SEGS, NULL, "bad-value", 2, 25, NULL,
     "unknown arch 'arm' (one of: x64, arm64, x86)", 0, 0, NULL},
    {HEAD "bars:\n  fb: { index: 0, size: 256MiB }\n"
          "segments:\n  - { name: vram, kind: memory, size: 4KiB, cpu_visible: { bar: fb, address: 0 } }\n",
     NULL, "cpu-visible-form", 6, 69, NULL, "either 'bar' (+ 'offset') or 'address', not both", 6, 60, NULL},
    /* waivers */
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, waive: { cache-coherent-memory: \"\" } }\n", NULL,
     "waiver-reason", 4, 54, NULL, "waiving 'cache-coherent-memory' needs a reason", 0, 0, NULL},
    /* invariants and whole-board advisories cannot be waived */
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, waive: { banks-max: x } }\n", NULL,
     "waiver-refused", 4, 54, NULL, "'banks-max' is an invariant, which no waiver can switch off: Bank ids", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, waive: { ddi-form-version: x } }\n", NULL,
     "waiver-refused", 4, 54, NULL, "whole board, not one segment: switch it with -Wno-ddi-form-version", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 4KiB, waive: { cache-coherent-memroy: x } }\n", NULL,
     "unknown-rule", 4, 54, "did you mean 'cache-coherent-memory'?", "cannot waive unknown rule", 0, 0, NULL},
    /* constants */
    {HEAD "constants:\n  a: b + 4KiB\n  b: a * 2\n" SEGS, NULL, "cycle", 5, 6, NULL, "'a' depends on itself", 4, 6,
     NULL},
    {HEAD "constants:\n  a: 1 + a\n" SEGS, NULL, "cycle", 4, 10, NULL, "'a' depends on itself", 4, 6, NULL},
    {HEAD "segments:\n  - { name: a, kind: memory, base: b.end, size: 4KiB }\n"
          "  - { name: b, kind: memory, base: a.end, size: 4KiB }\n",
     NULL, "cycle", 5, 36, NULL, "'a.end' depends on itself", 5, 36, NULL},
    {HEAD "constants:\n  a: size\n" SEGS, NULL, "unknown-name", 4, 6, NULL,
     "'size' means the current segment's size; constant 'a' is not in a segment", 0, 0, NULL},
    {HEAD "constants:\n  a: 4KiB + base\n" SEGS, NULL, "unknown-name", 4, 13, NULL,
     "'base' means the current segment's base", 0, 0, NULL},
    {HEAD SEGS "paging: { segment: none, buffer_size: size }\n", NULL, "unknown-name", 5, 39, NULL,
     "paging buffer_size is not in a segment", 0, 0, NULL},
    {HEAD "constants:\n  2x: 1\n" SEGS, NULL, "bad-name", 4, 3, NULL, "constant name '2x' is not an identifier", 0, 0,
     NULL},
    {HEAD "constants:\n  size: 1\n" SEGS, NULL, "bad-name", 4, 3, NULL, "'size' is a reserved name", 0, 0, NULL},
    {HEAD "segments:\n  - { name: vram, kind: memory, size: 1 + 1/0 }\n", NULL, "expr-div-zero", 4, 44, NULL,
     "division by zero", 0, 0, NULL},
    /* -D */
    {HEAD "constants:\n  vram: 256MiB\n" SEGS, "vrma=1GiB", "unknown-constant", 1, 1, "did you mean 'vram'?",
     "-D vrma: the spec has no constant of that name", 0, 0, CMDLINE},
    {HEAD SEGS, "vram=1GiB", "unknown-constant", 1, 1, NULL, "-D vram:", 0, 0, CMDLINE},
    {HEAD "constants:\n  vram: 256MiB\n" SEGS, "vram=1 - 2", "expr-underflow", 1, 8, NULL, "1 - 2 is below zero", 0,
     0, CMDLINE},
    {HEAD "constants:\n  vram: 256MiB\n" SEGS, "vram=vrma", "unknown-name", 1, 6, "did you mean 'vram'?",
     "unknown name 'vrma'", 0, 0, CMDLINE},
    {HEAD "constants:\n  vram: 256MiB\n" SEGS, "vram=vram + 1", "cycle", 1, 6, NULL, "'vram' depends on itself", 1,
     6, CMDLINE},
    /* extends written wrongly */
    {"segc: 1\nextends: [a.yaml]\nboard: { name: t }\n" SEGS, NULL, "wrong-type", 2, 10, NULL, "'extends' must be a scalar", 0, 0,
     NULL},
};

START_TEST(test_errors)
{
    Run r;
    run(&r, error_cases[_i].yaml, error_cases[_i].define);
    /* A model kept around the error (spec_resolve in segc.h) is checked
     * like any other: nothing follows from the error. */
    if (r.s) {
        RuleConfig rc;
        rules_default(&rc);
        spec_check(r.s, &rc, &r.d, NULL);
    }
    static const char *const unkept[] = {"missing-key", "wrong-type", "bad-value", "unknown-key",
                                         "missing-version", "unsupported-version", "bad-name", "cpu-visible-form"};
    for (size_t i = 0; r.d.head && i < countof(unkept); i++)
        ck_assert_msg(!r.s || strcmp(code_name(r.d.head->code), unkept[i]), "case %d: a model kept after [%s]", _i, unkept[i]);
    ck_assert_msg(r.d.nerrors == 1 && r.d.count == 1, "case %d: want one error [%s], got %s", _i,
                  error_cases[_i].code, all(&r));
    const Diag *g = r.d.head;
    ck_assert_msg(!strcmp(code_name(g->code), error_cases[_i].code), "case %d: code %s, want %s", _i, code_name(g->code),
                  error_cases[_i].code);
    ck_assert_int_eq(g->sev, SEV_ERROR);
    ck_assert_msg(g->pos.file != NULL, "case %d: no file", _i);
    const char *want_file = error_cases[_i].file ? error_cases[_i].file : "t.yaml";
    ck_assert_msg(!strcmp(g->pos.file->name, want_file), "case %d: in %s, want %s", _i, g->pos.file->name, want_file);
    ck_assert_msg(src_loc(g->pos).line == error_cases[_i].line && src_loc(g->pos).col == error_cases[_i].col,
                  "case %d: [%s] at %u:%u, want %u:%u (%s)", _i, code_name(g->code), src_loc(g->pos).line, src_loc(g->pos).col,
                  error_cases[_i].line, error_cases[_i].col, g->msg);
    ck_assert_msg(strstr(g->msg, error_cases[_i].msg), "case %d: message \"%s\" lacks \"%s\"", _i, g->msg,
                  error_cases[_i].msg);
    if (error_cases[_i].fix)
        ck_assert_msg(g->fix && !strcmp(g->fix, error_cases[_i].fix), "case %d: fix \"%s\", want \"%s\"", _i,
                      g->fix ? g->fix : "(none)", error_cases[_i].fix);
    else
        ck_assert_msg(g->fix == NULL, "case %d: unexpected fix \"%s\"", _i, g->fix);
    if (error_cases[_i].nline) {
        ck_assert_msg(g->notes != NULL, "case %d: no note", _i);
        ck_assert_msg(src_loc(g->notes->pos).line == error_cases[_i].nline && src_loc(g->notes->pos).col == error_cases[_i].ncol,
                      "case %d: note at %u:%u, want %u:%u", _i, src_loc(g->notes->pos).line, src_loc(g->notes->pos).col,
                      error_cases[_i].nline, error_cases[_i].ncol);
    } else {
        ck_assert_msg(g->notes == NULL, "case %d: unexpected note", _i);
    }
    arena_free(r.a);
}
END_TEST

/* Every error of a spec is reported in one run, not only the first. */
START_TEST(test_errors_collected)
{
    Run r;
    run(&r,
        "segc: 1\nboard: { name: t, wdm: \"1.3\" }\nconstants:\n  a: size\n"
        "segments:\n  - { name: vram, kind: memroy, size: 4KiB, flags: [cache_coherant, agp] }\n"
        "paging: { segment: vrma }\n",
        NULL);
    ck_assert(r.s == NULL);
    static const char *const want[] = {"unknown-key@2", "unknown-name@4", "bad-value@6", "unknown-flag@6",
                                       "derived-flag@6", "unknown-segment@7"};
    ck_assert_msg(r.d.count == countof(want), "%s", all(&r));
    const Diag *g = r.d.head;
    for (size_t i = 0; i < countof(want); i++, g = g->next) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s@%u", code_name(g->code), src_loc(g->pos).line);
        ck_assert_str_eq(buf, want[i]);
    }
    arena_free(r.a);
}
END_TEST

/* ---- extends -------------------------------------------------------------------- */

/* One directory per run of the suite (unchecked fixture: made and removed
 * by the parent process, so it goes even when a test fails), and a fresh
 * subdirectory per test (checked fixture). */
static char Root[64], Dir[128];

static void root_setup(void)
{
    strcpy(Root, "/tmp/segc-resolve-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(Root));
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(p);
    return 0;
}

static void root_teardown(void)
{
    nftw(Root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void tmp_setup(void)
{
    snprintf(Dir, sizeof Dir, "%s/t-XXXXXX", Root);
    ck_assert_ptr_nonnull(mkdtemp(Dir));
}

static char *path_of(const char *name)
{
    static char buf[4][256];
    static unsigned k;
    char *p = buf[k++ % 4];
    snprintf(p, 256, "%s/%s", Dir, name);
    return p;
}

/* Writes Dir/name (making one level of subdirectory if named). */
static void put(const char *name, const char *text)
{
    const char *slash = strchr(name, '/');
    if (slash) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s/%.*s", Dir, (int)(slash - name), name);
        mkdir(sub, 0700);
    }
    FILE *f = fopen(path_of(name), "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static void load(Run *r, const char *name, const ResolveOpts *o)
{
    ResolveOpts none = {0};
    r->a = arena_new();
    diags_init(&r->d, r->a);
    r->s = spec_load(r->a, path_of(name), o ? o : &none, &r->d);
    diags_sort(&r->d);
}

static bool in_file(Pos p, const char *name)
{
    return p.file && !strcmp(p.file->name, path_of(name));
}

static const char base_yaml[] =
    "segc: 1\n"                                         /* 1 */
    "board: { name: base_chip, wddm: \"1.3\" }\n"       /* 2 */
    "constants:\n"                                      /* 3 */
    "  vram: 1GiB\n"                                    /* 4 */
    "  window: 256MiB\n"                                /* 5 */
    "bars:\n"                                           /* 6 */
    "  fb: { index: 0, size: 4GiB }\n"                  /* 7 */
    "segments:\n"                                       /* 8 */
    "  - name: vram\n"                                  /* 9 */
    "    kind: memory\n"                                /* 10 */
    "    size: vram\n"                                  /* 11 */
    "    cpu_visible: { bar: fb, offset: window }\n"    /* 12 */
    "    flags: [direct_flip]\n"                        /* 13 */
    "  - name: gart\n"                                  /* 14 */
    "    kind: aperture\n"                              /* 15 */
    "    base: 4GiB\n"                                  /* 16 */
    "    size: 512MiB\n"                                /* 17 */
    "paging: { segment: gart, buffer_size: 64KiB }\n";  /* 18 */

static const char child_yaml[] =
    "segc: 1\n"                                                /* 1 */
    "extends: base.yaml\n"                                     /* 2 */
    "board: { name: variant }\n"                               /* 3 */
    "constants:\n"                                             /* 4 */
    "  window: 128MiB\n"                                       /* 5 */
    "  vram: 2GiB\n"                                           /* 6 */
    "  spare: 4KiB\n"                                          /* 7 */
    "segments:\n"                                              /* 8 */
    "  - name: gart\n"                                         /* 9 */
    "    commit_limit: 256MiB\n"                               /* 10 */
    "  - name: vram\n"                                         /* 11 */
    "    flags: [direct_flip, preserved_during_standby]\n"     /* 12 */
    "  - name: extra\n"                                        /* 13 */
    "    kind: memory\n"                                       /* 14 */
    "    size: 64MiB\n";                                       /* 15 */

START_TEST(test_extends_merge)
{
    put("base.yaml", base_yaml);
    put("child.yaml", child_yaml);
    Run r;
    load(&r, "child.yaml", NULL);
    ck_assert_msg(r.s != NULL && r.d.count == 0, "%s", all(&r));
    const Spec *s = r.s;
    ck_assert_uint_eq(s->nfiles, 2);
    ck_assert_str_eq(s->files[0]->name, path_of("child.yaml"));
    ck_assert_str_eq(s->files[1]->name, path_of("base.yaml"));
    ck_assert_ptr_eq(s->file, s->files[0]);
    /* board: the child's name, the base's wddm */
    ck_assert_str_eq(s->name, "variant");
    ck_assert(in_file(s->name_pos, "child.yaml") && src_loc(s->name_pos).line == 3);
    ck_assert_uint_eq(s->wddm, 0x13);
    ck_assert(in_file(s->wddm_pos, "base.yaml") && src_loc(s->wddm_pos).line == 2 && src_loc(s->wddm_pos).col == 33);
    /* constants: the child overrides in the base's order, whatever its own;
     * the base's expressions see the new values; a new one appends */
    ck_assert_uint_eq(s->nconsts, 3);
    ck_assert_str_eq(s->consts[0].name, "vram");
    ck_assert_uint_eq(s->consts[0].val.v, 2 * GiB);
    ck_assert(in_file(s->consts[0].val.pos, "child.yaml") && src_loc(s->consts[0].val.pos).line == 6);
    ck_assert_str_eq(s->consts[1].name, "window");
    ck_assert_uint_eq(s->consts[1].val.v, 128 * MiB);
    ck_assert(in_file(s->consts[1].pos, "child.yaml") && src_loc(s->consts[1].pos).line == 5);
    ck_assert_str_eq(s->consts[2].name, "spare");
    ck_assert_uint_eq(s->bars[0].size.v, 4 * GiB);
    ck_assert(in_file(s->bars[0].pos, "base.yaml") && src_loc(s->bars[0].pos).line == 7);
    ck_assert_uint_eq(s->segs[0].cpu_offset.v, 128 * MiB);
    ck_assert(in_file(s->segs[0].cpu_offset.pos, "base.yaml") && src_loc(s->segs[0].cpu_offset.pos).line == 12);
    /* segments: base order, merged key by key, the new one appended */
    ck_assert_uint_eq(s->nsegs, 3);
    const Segment *v = &s->segs[0], *g = &s->segs[1], *x = &s->segs[2];
    ck_assert_str_eq(v->name, "vram");
    ck_assert_str_eq(g->name, "gart");
    ck_assert_str_eq(x->name, "extra");
    ck_assert_uint_eq(v->id, 1);
    ck_assert_uint_eq(g->id, 2);
    ck_assert_uint_eq(x->id, 3);
    /* vram: size and cpu_visible from the base, flags from the child */
    ck_assert_uint_eq(v->size.v, 2 * GiB);
    ck_assert(in_file(v->size.pos, "base.yaml") && src_loc(v->size.pos).line == 11 && src_loc(v->size.pos).col == 11);
    ck_assert(in_file(v->kind_pos, "base.yaml") && src_loc(v->kind_pos).line == 10 && src_loc(v->kind_pos).col == 11);
    ck_assert(in_file(v->cpu_pos, "base.yaml") && src_loc(v->cpu_pos).line == 12);
    ck_assert_int_eq(v->cpu, CPU_BAR);
    ck_assert_uint_eq(v->flags_written, FLAG_direct_flip | FLAG_preserved_during_standby);
    ck_assert_uint_eq(v->flags, FLAG_direct_flip | FLAG_preserved_during_standby | FLAG_cpu_visible);
    ck_assert(in_file(v->flag_pos[7], "child.yaml") && src_loc(v->flag_pos[7]).line == 12 && src_loc(v->flag_pos[7]).col == 26);
    ck_assert(in_file(v->flag_pos[10], "child.yaml") && src_loc(v->flag_pos[10]).line == 12 && src_loc(v->flag_pos[10]).col == 13);
    ck_assert(in_file(v->pos, "child.yaml") && src_loc(v->pos).line == 11);
    /* gart: base and size from the base, commit_limit from the child */
    ck_assert_uint_eq(g->base.v, 4 * GiB);
    ck_assert(in_file(g->base.pos, "base.yaml") && src_loc(g->base.pos).line == 16 && src_loc(g->base.pos).col == 11);
    ck_assert_uint_eq(g->size.v, 512 * MiB);
    ck_assert(in_file(g->size.pos, "base.yaml") && src_loc(g->size.pos).line == 17);
    ck_assert_uint_eq(g->commit_limit.v, 256 * MiB);
    ck_assert(in_file(g->commit_limit.pos, "child.yaml") && src_loc(g->commit_limit.pos).line == 10 &&
              src_loc(g->commit_limit.pos).col == 19);
    ck_assert_int_eq(g->kind, SEG_APERTURE);
    /* extra: a default base after the base's last segment */
    ck_assert_uint_eq(x->base.v, 4 * GiB + 512 * MiB);
    ck_assert(in_file(x->size.pos, "child.yaml") && src_loc(x->size.pos).line == 15);
    /* paging from the base names the merged gart */
    ck_assert_ptr_eq(s->paging.seg, g);
    ck_assert(in_file(s->paging.seg_pos, "base.yaml"));
    arena_free(r.a);
}
END_TEST

/* A child that writes only what changes: no board, no segments. */
START_TEST(test_extends_minimal_child)
{
    put("base.yaml", base_yaml);
    put("child.yaml", "segc: 1\nextends: base.yaml\nconstants: { window: 512MiB }\n");
    Run r;
    load(&r, "child.yaml", NULL);
    ck_assert_msg(r.s != NULL && r.d.count == 0, "%s", all(&r));
    ck_assert_str_eq(r.s->name, "base_chip");
    ck_assert_uint_eq(r.s->nsegs, 2);
    ck_assert_uint_eq(r.s->segs[0].cpu_offset.v, 512 * MiB);
    ck_assert_uint_eq(r.s->segs[0].size.v, 1 * GiB);
    arena_free(r.a);
}
END_TEST

/* A diagnostic about a merged value points at the file that wrote it. */
START_TEST(test_extends_diag_file)
{
    put("base.yaml", base_yaml);
    /* the base's `size: vram` breaks a rule with the child's vram */
    put("child.yaml", "segc: 1\nextends: base.yaml\nconstants:\n  vram: 1GiB + 100\n"
                      "segments:\n  - { name: gart, size: 64KiB + 100 }\n");
    Run r;
    load(&r, "child.yaml", NULL);
    ck_assert_msg(r.s != NULL && r.d.count == 0, "%s", all(&r));
    RuleConfig cfg;
    rules_default(&cfg);
    ck_assert_uint_eq(spec_check(r.s, &cfg, &r.d, NULL), 2);
    diags_sort(&r.d);
    ck_assert_msg(r.d.count == 2, "%s", all(&r));
    /* sorted by file name: base.yaml before child.yaml */
    const Diag *g = r.d.head;
    ck_assert_str_eq(code_name(g->code), "size-page-multiple");
    ck_assert_msg(in_file(g->pos, "base.yaml") && src_loc(g->pos).line == 11 && src_loc(g->pos).col == 11, "%s", all(&r));
    g = g->next;
    ck_assert_str_eq(code_name(g->code), "size-page-multiple");
    ck_assert_msg(in_file(g->pos, "child.yaml") && src_loc(g->pos).line == 6 && src_loc(g->pos).col == 25, "%s", all(&r));
    arena_free(r.a);

    /* a resolve error inside a base's expression is in the base */
    put("bad.yaml", "segc: 1\nboard: { name: b }\nsegments:\n  - { name: vram, kind: memory, size: vram + 1 }\n");
    put("kid.yaml", "segc: 1\nextends: bad.yaml\nconstants: { vrma: 4KiB }\n");
    load(&r, "kid.yaml", NULL);
    ck_assert(r.s && r.s->segs[0].unresolved);
    ck_assert_msg(r.d.count == 1 && !strcmp(code_name(r.d.head->code), "unknown-name"), "%s", all(&r));
    ck_assert(in_file(r.d.head->pos, "bad.yaml") && src_loc(r.d.head->pos).line == 4 && src_loc(r.d.head->pos).col == 39);
    ck_assert_str_eq(r.d.head->fix, "did you mean 'vrma'?");
    arena_free(r.a);
}
END_TEST

START_TEST(test_extends_cycle)
{
    put("a.yaml", "segc: 1\nextends: b.yaml\nboard: { name: a }\n");
    put("b.yaml", "segc: 1\n# b\nextends: a.yaml\nsegments: []\n");
    Run r;
    load(&r, "a.yaml", NULL);
    ck_assert(r.s == NULL);
    ck_assert_msg(r.d.count == 1, "%s", all(&r));
    ck_assert_str_eq(code_name(r.d.head->code), "extends-cycle");
    ck_assert_msg(in_file(r.d.head->pos, "b.yaml") && src_loc(r.d.head->pos).line == 3 && src_loc(r.d.head->pos).col == 10, "%s",
                  all(&r));
    ck_assert_uint_eq(r.d.head->pos.len, 6);
    arena_free(r.a);

    put("self.yaml", "segc: 1\nextends: ./self.yaml\nboard: { name: s }\nsegments: []\n");
    load(&r, "self.yaml", NULL);
    ck_assert(r.s == NULL);
    ck_assert_msg(r.d.count == 1 && !strcmp(code_name(r.d.head->code), "extends-cycle"), "%s", all(&r));
    ck_assert(in_file(r.d.head->pos, "self.yaml") && src_loc(r.d.head->pos).line == 2 && src_loc(r.d.head->pos).col == 10);
    arena_free(r.a);
}
END_TEST

START_TEST(test_extends_missing)
{
    put("child.yaml", "segc: 1\nboard: { name: c }\nextends: chips/nowhere.yaml\nsegments: []\n");
    Run r;
    load(&r, "child.yaml", NULL);
    ck_assert(r.s == NULL);
    ck_assert_msg(r.d.count == 1, "%s", all(&r));
    const Diag *g = r.d.head;
    ck_assert_str_eq(code_name(g->code), "extends");
    ck_assert_int_eq(g->sev, SEV_ERROR);
    ck_assert(in_file(g->pos, "child.yaml") && src_loc(g->pos).line == 3 && src_loc(g->pos).col == 10 && g->pos.len == 18);
    ck_assert_ptr_nonnull(strstr(g->msg, "chips/nowhere.yaml"));
    arena_free(r.a);
}
END_TEST

/* A base is looked for next to the file that names it, then in -I dirs;
 * a chain of three files resolves through both. */
START_TEST(test_extends_search)
{
    put("fam/base.yaml", base_yaml);
    put("fam/mid.yaml", "segc: 1\nextends: base.yaml\nconstants: { vram: 512MiB }\n");
    put("top.yaml", "segc: 1\nextends: mid.yaml\nboard: { name: top }\n");
    Run r;
    load(&r, "top.yaml", NULL);
    ck_assert(r.s == NULL);
    ck_assert_msg(r.d.count == 1 && !strcmp(code_name(r.d.head->code), "extends"), "%s", all(&r));
    arena_free(r.a);

    const char *dirs[] = {"/nonexistent-segc-dir", path_of("fam")};
    ResolveOpts o = {0};
    o.include_dirs = dirs;
    o.ninclude = 2;
    load(&r, "top.yaml", &o);
    ck_assert_msg(r.s != NULL && r.d.count == 0, "%s", all(&r));
    ck_assert_uint_eq(r.s->nfiles, 3);
    ck_assert_str_eq(r.s->name, "top");
    ck_assert_uint_eq(r.s->segs[0].size.v, 512 * MiB);
    ck_assert_ptr_nonnull(strstr(r.s->files[2]->name, "base.yaml"));
    arena_free(r.a);

    /* the depth limit */
    o.max_extends_depth = 1;
    load(&r, "top.yaml", &o);
    ck_assert(r.s == NULL);
    ck_assert_msg(r.d.count == 1 && !strcmp(code_name(r.d.head->code), "limit-extends"), "%s", all(&r));
    ck_assert_uint_eq(src_loc(r.d.head->pos).line, 2);
    arena_free(r.a);
}
END_TEST

/* The stages are separate: spec_read reads every file of the chain and
 * merges it; spec_resolve reads none (the files may be gone by then); an
 * error while reading still makes resolve refuse the model. */
START_TEST(test_read_then_resolve)
{
    put("base.yaml", base_yaml);
    put("child.yaml", child_yaml);
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    Source src;
    ck_assert(spec_read(a, path_of("child.yaml"), NULL, NULL, &d, &src));
    ck_assert(src.clean && d.count == 0);
    ck_assert_uint_eq(src.nfiles, 2);
    ck_assert_str_eq(src.files[1]->name, path_of("base.yaml"));
    ck_assert_ptr_null(node_get(src.root, "extends"));
    ck_assert_int_eq(unlink(path_of("base.yaml")), 0);
    ck_assert_int_eq(unlink(path_of("child.yaml")), 0);
    Spec *s = spec_resolve(a, &src, NULL, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->nsegs, 3);
    ck_assert_uint_eq(s->nfiles, 2);
    ck_assert_ptr_eq(s->file, src.files[0]);

    /* a missing version: reported by the reader, the tree still resolved */
    put("nover.yaml", "board: { name: b }\nsegments: [{ name: v, kind: memory, size: 1MiB }]\n");
    diags_init(&d, a);
    ck_assert(spec_read(a, path_of("nover.yaml"), NULL, NULL, &d, &src));
    ck_assert(!src.clean);
    ck_assert_str_eq(code_name(d.head->code), "missing-version");
    ck_assert_ptr_null(spec_resolve(a, &src, NULL, &d));
    ck_assert_uint_eq(d.count, 1);
    arena_free(a);
}
END_TEST

/* ref_target maps each kind of name to its target, and ref_resolved reads
 * the value the model holds for it (none for a failed one). */
START_TEST(test_ref_target)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    const char *yaml = "segc: 1\nboard: { name: b, page_size: 8KiB }\n"
                       "constants: { vram: 4GiB, bad: 1 - 2 }\n"
                       "bars: { fb: { index: 0, size: 256MiB } }\n"
                       "segments:\n"
                       "  - { name: lo, kind: memory, base: 0x1000, size: bar.fb.size }\n"
                       "  - { name: hi, kind: memory, size: vram - lo.size }\n"
                       "  - { name: odd, kind: memory, size: bad }\n";
    Spec *s = spec_from_string(a, "t.yaml", yaml, NULL, &d);
    ck_assert_ptr_nonnull(s);
    const Segment *hi = &s->segs[1];
    static const struct {
        const char *name;
        bool in_seg;
        RefKind kind;
        bool resolved;
        uint64_t v;
    } cases[] = {
        {"vram", false, REF_CONSTANT, true, 4 * GiB},
        {"bad", false, REF_CONSTANT, false, 0},
        {"page_size", false, REF_FIELD, true, 8 * KiB},
        {"bar.fb.size", false, REF_FIELD, true, 256 * MiB},
        {"bar.fb.index", false, REF_UNKNOWN, false, 0}, /* not a name expressions read */
        {"lo.base", false, REF_FIELD, true, 0x1000},
        {"lo.end", false, REF_END, true, 0x1000 + 256 * MiB},
        {"hi.size", false, REF_FIELD, true, 4 * GiB - 256 * MiB},
        {"odd.size", false, REF_FIELD, false, 0},
        {"size", true, REF_FIELD, true, 4 * GiB - 256 * MiB},
        {"size", false, REF_OUTSIDE, false, 0},
        {"nope.size", false, REF_UNKNOWN, false, 0},
        {"vrm", false, REF_UNKNOWN, false, 0},
    };
    for (size_t i = 0; i < countof(cases); i++) {
        RefTarget t = ref_target(s, cases[i].in_seg ? hi : NULL, cases[i].name);
        uint64_t v = 0;
        ck_assert_msg(t.kind == cases[i].kind, "%s: kind %d", cases[i].name, (int)t.kind);
        ck_assert_msg(ref_resolved(s, t, &v) == cases[i].resolved, "%s resolved", cases[i].name);
        if (cases[i].resolved)
            ck_assert_msg(v == cases[i].v, "%s: 0x%llx", cases[i].name, (unsigned long long)v);
    }
    arena_free(a);
}
END_TEST

Suite *resolve_suite(void)
{
    Suite *s = suite_create("resolve");
    TCase *tc = tcase_create("values");
    tcase_add_loop_test(tc, test_values, 0, (int)countof(value_cases));
    tcase_add_test(tc, test_model_positions);
    tcase_add_test(tc, test_define_position);
    tcase_add_test(tc, test_ref_target);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_errors, 0, (int)countof(error_cases));
    tcase_add_test(tc, test_errors_collected);
    suite_add_tcase(s, tc);
    tc = tcase_create("extends");
    tcase_add_unchecked_fixture(tc, root_setup, root_teardown);
    tcase_add_checked_fixture(tc, tmp_setup, NULL);
    tcase_add_test(tc, test_extends_merge);
    tcase_add_test(tc, test_extends_minimal_child);
    tcase_add_test(tc, test_extends_diag_file);
    tcase_add_test(tc, test_extends_cycle);
    tcase_add_test(tc, test_extends_missing);
    tcase_add_test(tc, test_extends_search);
    tcase_add_test(tc, test_read_then_resolve);
    suite_add_tcase(s, tc);
    return s;
}
