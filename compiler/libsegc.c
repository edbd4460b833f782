/* SPDX-License-Identifier: MIT */
/* libsegc.c - the pipeline every command runs, and libsegc.h's API on it.
 *
 * front_end (load, resolve, check) and build_outputs (the emitters'
 * preconditions, the lookup table, the outputs in memory) are what `segc
 * check`, `segc build`, `segc lsp` and the library all run: one pipeline.
 * The API wraps them: a context is an Options (options.c's table, the
 * rows OPT_LIB takes), a result is a Checked that keeps its arena, so its
 * diagnostics' lines and columns are counted only when asked for.
 *
 * Out of memory and internal errors: the library never exits.  While a
 * call runs, the calling thread's `failure` (util.c) points at the call's
 * jump buffer; xmalloc and BUG jump back to it with what happened, and the
 * call frees the result's arena and returns NULL.  That pointer is the one
 * piece of state outside a context, and it is the thread's own. */
#include "libsegc.h"

#include "segc.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---- the pipeline ------------------------------------------------------ */

Spec *front_end(Checked *c, Arena *a, const char *path, const char *text, size_t len, const ResolveOpts *ro,
                const RuleConfig *rc, Outputs *out)
{
    *c = (Checked){.a = a};
    diags_init(&c->d, a);
    SrcFile *f = text ? src_from_string(a, path, text, len) : NULL;
    c->file = f;
    if ((!f || src_check_text(f, &c->d)) && spec_read(a, path, f, ro, &c->d, &c->src)) {
        c->file = c->src.files[0];
        if ((c->s = spec_resolve(a, &c->src, ro, &c->d)))
            spec_check(c->s, rc, &c->d, out);
    }
    diags_sort(&c->d);
    return c->s;
}

bool build_outputs(Checked *c, const BuildOpts *o, Lookup *lk, Outputs *out)
{
    bool ok = c->s && !diags_failed(&c->d) && emit_render(c->a, c->s, o, lk, out, &c->d);
    diags_sort(&c->d);
    return ok;
}

/* ---- contexts ------------------------------------------------------------ */

struct segc_context {
    Options o; /* in o.arena */
    ChunkPool *pool; /* the chunks its calls' arenas freed, for the next ones */
    segc_read_fn *read;
    void *user;
    char err[2048];
};

const char *segc_version(void)
{
    return SEGC_VERSION;
}

int segc_format_version(void)
{
    return SEGC_FORMAT_VERSION;
}

enum { DO_NEW, DO_OPTIONS, DO_CHECK, DO_BUILD, DO_MODEL };

/* One call of the API, run by guarded(): a context's options made
 * (DO_NEW) or parsed (DO_OPTIONS, argc and argv), or a spec run through
 * the pipeline (name, text, len; the result r, in arena a once made). */
typedef struct Call {
    segc_context *ctx;
    int what;
    int argc;
    const char *const *argv;
    const char *name, *text;
    size_t len;
    bool ok;
    Arena *a;
    segc_result *r;
} Call;

static void call(Call *c);

/* Runs call(c) with failures caught (out of memory, BUG): true, or false
 * with the reason in ctx->err. */
static bool guarded(segc_context *ctx, Call *c)
{
    Failure f, *volatile outer = failure;
    if (setjmp(f.jump)) {
        failure = outer;
        snprintf(ctx->err, sizeof ctx->err, "%s", f.why);
        return false;
    }
    failure = &f;
    call(c);
    failure = outer;
    return true;
}

/* The options' arena and what they hold outside it. */
static void options_drop(segc_context *ctx)
{
    arena_free(ctx->o.arena);
    options_free(&ctx->o);
    ctx->o = (Options){0};
}

segc_context *segc_context_new(void)
{
    segc_context *ctx = calloc(1, sizeof *ctx);
    if (ctx && !guarded(ctx, &(Call){.ctx = ctx, .what = DO_NEW})) {
        options_drop(ctx); /* out of memory in options_init */
        pool_drop(ctx->pool);
        free(ctx);
        return NULL;
    }
    return ctx;
}

void segc_context_free(segc_context *ctx)
{
    if (!ctx)
        return;
    options_drop(ctx);
    pool_drop(ctx->pool);
    free(ctx);
}

int segc_context_reset(segc_context *ctx)
{
    if (!ctx)
        return -1;
    options_drop(ctx);
    ctx->read = NULL, ctx->user = NULL, ctx->err[0] = 0;
    return guarded(ctx, &(Call){.ctx = ctx, .what = DO_NEW}) ? 0 : -1;
}

const char *segc_context_error(const segc_context *ctx)
{
    return ctx ? ctx->err : "no context";
}

void segc_context_extends(segc_context *ctx, segc_read_fn *read, void *user)
{
    if (ctx)
        ctx->read = read, ctx->user = user;
}

/* Parses argv into a copy of the options, which replaces them when every
 * option was taken. */
static bool parse_lib_options(segc_context *ctx, int argc, const char *const *argv)
{
    Options o = ctx->o;
    Arena *a = o.arena;
    /* Room for as many more -D and -I as there are arguments. */
    Define *d = arena_alloc(a, (o.resolve.ndefines + (size_t)argc + 1) * sizeof *d);
    const char **inc = arena_alloc(a, (o.resolve.ninclude + (size_t)argc + 1) * sizeof *inc);
    memcpy(d, o.defines, o.resolve.ndefines * sizeof *d); /* options_init allocated both */
    memcpy(inc, o.includes, o.resolve.ninclude * sizeof *inc);
    o.resolve.defines = o.defines = d;
    o.resolve.include_dirs = o.includes = inc;
    char **args = arena_alloc(a, ((size_t)argc + 1) * sizeof *args);
    for (int i = 0; i < argc; i++)
        args[i] = arena_strdup(a, argv[i] ? argv[i] : "");
    for (int i = 0; i < argc; i++) {
        int r = args[i][0] == '-' && args[i][1] ? option_parse(&o, argc, args, &i) : 0;
        if (r > 0)
            continue;
        Buf b = {0};
        if (r < 0)
            buf_printf(&b, "%s%s", o.err_detail.p ? o.err_detail.p : "", o.err);
        else
            buf_printf(&b, "'%s' is no option libsegc takes; it takes", args[i]);
        for (size_t k = 0, n = 0; r == 0 && k < option_count; k++) /* the flags of the options it takes */
            if (!option_table[k].opts || option_table[k].opts & OPT_LIB)
                buf_printf(&b, "%s %s", n++ ? "," : "", option_table[k].flag);
        snprintf(ctx->err, sizeof ctx->err, "%s", b.p);
        buf_free(&b);
        buf_free(&o.err_detail);
        return false;
    }
    buf_free(&o.err_detail);
    ctx->o = o;
    return true;
}

int segc_context_options(segc_context *ctx, int argc, const char *const *argv)
{
    if (!ctx || argc < 0 || (argc && !argv))
        return -1;
    ctx->err[0] = 0;
    Call c = {.ctx = ctx, .what = DO_OPTIONS, .argc = argc, .argv = argv};
    return guarded(ctx, &c) && c.ok ? 0 : -1;
}

/* ---- results --------------------------------------------------------------- */

struct segc_diagnostic {
    const char *code, *file, *msg, *fix;
    segc_severity sev;
    DiagPlace at;
    segc_diagnostic *notes;
    size_t nnotes;
};

struct segc_result {
    Checked c; /* its arena holds the result */
    segc_status status;
    segc_diagnostic *diags;
    size_t ndiags;
    Outputs out;
    Buf model;
};

static segc_diagnostic said(Pos p, Severity sev, Code code, const char *msg, const char *fix)
{
    return (segc_diagnostic){code_name(code), p.file ? p.file->name : NULL, msg, fix, (segc_severity)sev,
                             diag_place(p), NULL, 0};
}

/* The diagnostics as the API gives them. */
static void collect(segc_result *r)
{
    const Diags *d = &r->c.d;
    for (const Diag *g = d->head; g; g = g->next)
        r->ndiags++;
    segc_diagnostic *v = r->diags = arena_alloc(r->c.a, (r->ndiags + 1) * sizeof *v);
    for (const Diag *g = d->head; g; g = g->next, v++) {
        *v = said(g->pos, g->sev, g->code, g->msg, g->fix);
        for (const Note *n = g->notes; n; n = n->next)
            v->nnotes++;
        segc_diagnostic *w = v->notes = arena_alloc(r->c.a, (v->nnotes + 1) * sizeof *w);
        for (const Note *n = g->notes; n; n = n->next)
            *w++ = said(n->pos, SEV_NOTE, CODE_NONE, n->msg, NULL);
    }
    r->status = d->nfatal ? SEGC_UNREADABLE : diags_failed(d) ? SEGC_INVALID : SEGC_VALID;
}

/* ResolveOpts.open_file: an extended file's text from the context's reader. */
static const SrcFile *read_extends(void *p, Arena *a, const char *path)
{
    const segc_context *ctx = p;
    size_t n = 0;
    const char *t = ctx->read(ctx->user, path, &n);
    return t ? src_from_string(a, path, t, n) : NULL;
}

static void call(Call *c)
{
    segc_context *ctx = c->ctx;
    if (c->what == DO_NEW) {
        if (!ctx->pool)
            ctx->pool = pool_new();
        options_init(&ctx->o, arena_new_in(ctx->pool), 0, OPT_LIB, "libsegc");
    }
    if (c->what == DO_OPTIONS)
        c->ok = parse_lib_options(ctx, c->argc, c->argv);
    if (c->what <= DO_OPTIONS)
        return;
    c->a = arena_new_in(ctx->pool);
    segc_result *r = arena_alloc(c->a, sizeof *r);
    ResolveOpts ro = ctx->o.resolve;
    if (ctx->read)
        ro.open_file = read_extends, ro.open_ctx = ctx;
    r->out.build = c->what == DO_BUILD ? &ctx->o.build : NULL;
    front_end(&r->c, c->a, c->name, c->text ? c->text : "", c->len, &ro, &ctx->o.rules, &r->out);
    Lookup lk;
    if (c->what == DO_BUILD)
        build_outputs(&r->c, &ctx->o.build, &lk, &r->out);
    collect(r);
    if (c->what == DO_MODEL && r->status == SEGC_VALID)
        dump_json(&r->model, r->c.s);
    c->r = r;
}

static segc_result *run(segc_context *ctx, int what, const char *name, const char *text, size_t len)
{
    if (!ctx)
        return NULL;
    if (!name || (!text && len)) {
        snprintf(ctx->err, sizeof ctx->err, "a spec needs a name and its text");
        return NULL;
    }
    ctx->err[0] = 0;
    Call c = {.ctx = ctx, .what = what, .name = name, .text = text, .len = len};
    if (!guarded(ctx, &c)) {
        arena_free(c.a);
        return NULL;
    }
    return c.r;
}

segc_result *segc_check(segc_context *ctx, const char *name, const char *text, size_t len)
{
    return run(ctx, DO_CHECK, name, text, len);
}

segc_result *segc_build(segc_context *ctx, const char *name, const char *text, size_t len)
{
    return run(ctx, DO_BUILD, name, text, len);
}

segc_result *segc_model(segc_context *ctx, const char *name, const char *text, size_t len)
{
    return run(ctx, DO_MODEL, name, text, len);
}

void segc_result_free(segc_result *r)
{
    if (!r)
        return;
    outputs_free(&r->out);
    buf_free(&r->model);
    arena_free(r->c.a); /* r itself is in it */
}

/* The accessors that return a field of a result or a diagnostic as it is
 * (libsegc.h says what each one is). */
#define ACCESSOR(T, name, Obj, field) \
    T name(const Obj *x)              \
    {                                 \
        return x->field;              \
    }
ACCESSOR(segc_status, segc_result_status, segc_result, status)
ACCESSOR(size_t, segc_result_diagnostics, segc_result, ndiags)
ACCESSOR(const char *, segc_diagnostic_code, segc_diagnostic, code)
ACCESSOR(segc_severity, segc_diagnostic_severity, segc_diagnostic, sev)
ACCESSOR(const char *, segc_diagnostic_file, segc_diagnostic, file)
ACCESSOR(unsigned, segc_diagnostic_line, segc_diagnostic, at.line)
ACCESSOR(unsigned, segc_diagnostic_column, segc_diagnostic, at.col)
ACCESSOR(unsigned, segc_diagnostic_end_column, segc_diagnostic, at.end_col)
ACCESSOR(const char *, segc_diagnostic_message, segc_diagnostic, msg)
ACCESSOR(const char *, segc_diagnostic_fix, segc_diagnostic, fix)
ACCESSOR(size_t, segc_diagnostic_notes, segc_diagnostic, nnotes)
#undef ACCESSOR

const segc_diagnostic *segc_result_diagnostic(const segc_result *r, size_t i)
{
    return i < r->ndiags ? &r->diags[i] : NULL;
}

const char *segc_severity_name(segc_severity s)
{
    return severity_name((Severity)s);
}

const segc_diagnostic *segc_diagnostic_note(const segc_diagnostic *g, size_t i)
{
    return i < g->nnotes ? &g->notes[i] : NULL;
}

size_t segc_result_files(const segc_result *r)
{
    return r->status == SEGC_VALID ? r->out.n : 0;
}

const char *segc_result_file_name(const segc_result *r, size_t i)
{
    return i < segc_result_files(r) ? r->out.files[i].name : NULL;
}

const char *segc_result_file_data(const segc_result *r, size_t i, size_t *len)
{
    if (i >= segc_result_files(r))
        return NULL;
    const Buf *b = &r->out.files[i].text;
    if (len)
        *len = b->len;
    return b->p ? b->p : "";
}

const char *segc_result_model(const segc_result *r, size_t *len)
{
    if (!r->model.p)
        return NULL;
    if (len)
        *len = r->model.len;
    return r->model.p;
}
