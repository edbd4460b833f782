/* SPDX-License-Identifier: MIT */
/* options.c - the command line's options, one table.
 *
 * Every option a command of segc takes is a row here: its flag, the
 * commands that take it (OPT_*), what its value is, and the field it sets
 * or its own parser.  main.c parses a command's arguments with it, and
 * libsegc (segc_context_options) the options of a context with the rows
 * it takes (OPT_LIB), so an option means the same in both.  Nothing here
 * prints or exits: a wrong option is a message in Options.err (and, for a
 * size that is no expression, its diagnostics in Options.err_detail). */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

static bool fail(Options *o, const char *fmt, ...) PRINTF_LIKE(2, 3);
static bool fail(Options *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->err, sizeof o->err, fmt, ap);
    va_end(ap);
    return false;
}

/* The values of --color and --diagnostics, for the parser and for the
 * message that lists them.  msvc is text in MSBuild's canonical form; the
 * others are DiagFormat's, in its order. */
static const char *const color_values[] = {"auto", "always", "never"};
static const char *const format_values[] = {"text", "msvc", "json", "sarif"};

bool want_color(const char *mode, bool *color)
{
    const char *const *w = BY_NAME(color_values, countof(color_values), mode);
    *color = w == &color_values[1] || (w == &color_values[0] && !getenv("NO_COLOR") && os_color_auto());
    return w != NULL;
}

/* --lookup-budget: a size on the command line is an expression too:
 * 64KiB, 1 << 20. */
static bool take_budget(Options *o, const char *text)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    SrcFile *f = src_from_string(a, "<command line>", text, strlen(text));
    Expr *e = expr_parse(a, f->text, f->len, pos_at(f, 0, 1), &d);
    EvalEnv env = {NULL, NULL, DEFAULT_PAGE_SIZE};
    uint64_t v = 0;
    bool ok = e && expr_eval(e, &env, &d, &v) && v != 0;
    if (!ok) {
        if (!diags_failed(&d))
            error_at(&d, C_usage, pos_at(f, 0, strlen(text)), "--lookup-budget must be a positive size");
        o->err_detail.len = 0;
        diags_text(&o->err_detail, &d, (DiagStyle){false});
        fail(o, "bad value for --lookup-budget");
    }
    arena_free(a);
    o->build.lookup_budget = v;
    return ok;
}

/* Whether argument `a` is option `flag`: a short flag ("-D", "-MF") with
 * its value attached or not, a long one ("--ddi") alone or with "=VALUE". */
static bool is_opt(const char *a, const char *flag)
{
    size_t n = strlen(flag);
    return !strncmp(a, flag, n) && (flag[1] != '-' || !a[n] || a[n] == '=');
}

static bool take_define(Options *o, const char *v)
{
    const char *eq = strchr(v, '=');
    if (!eq || eq == v)
        return fail(o, "-D takes NAME=EXPR, not '%s'", v);
    o->defines[o->resolve.ndefines++] = (Define){arena_strndup(o->arena, v, (size_t)(eq - v)), eq + 1};
    return true;
}

static bool take_include(Options *o, const char *v)
{
    o->includes[o->resolve.ninclude++] = v;
    return true;
}

static bool take_warning(Options *o, const char *w)
{
    WoptResult wr = rules_option(&o->rules, w);
    const char *base = strchr(w, '=') ? strchr(w, '=') + 1 : !strncmp(w, "no-", 3) ? w + 3 : w;
    if (wr == WOPT_INVARIANT)
        return fail(o, "-W%s: '%s' is an invariant, which no option can switch off or make a warning: %s", w, base,
                    rule_table[rule_by_name(base)].why);
    if (wr == WOPT_UNKNOWN) {
        const char *near = rule_closest(base);
        return fail(o, "-W%s: no rule named '%s'%s%s%s (segc rules lists them)", w, base, near ? "; did you mean '" : "",
                    near ? near : "", near ? "'?" : "");
    }
    return true;
}

static bool take_color(Options *o, const char *v)
{
    return want_color(v ? v : "always", &o->style.color) ||
           fail(o, "--color takes %s, not '%s'", words_text(o->arena, color_values, countof(color_values), " or "), v);
}

static bool take_templates(Options *o, const char *dir)
{
    o->build.templates_dir = dir;
    return os_kind(dir) == OS_DIR || fail(o, "--templates '%s' is not a directory", dir);
}

static bool take_target(Options *o, const char *t)
{
    buf_printf(&o->dep_targets, "%s%s", o->dep_targets.len ? " " : "", t);
    return true;
}

/* -jN, -j N, or -j alone: one job per core. */
static bool take_jobs(Options *o, const char *v)
{
    char *end = NULL;
    long n = v ? strtol(v, &end, 10) : (long)os_ncpu();
    if (n < 1 || n > 64 || (v && *end))
        return fail(o, "-j takes 1 to 64 jobs, not '%s'", v ? v : "?");
    o->jobs = (unsigned)n;
    return true;
}

static bool take_ddi(Options *o, const char *v)
{
    return (o->resolve.ddi_forms = ddi_forms_parse(v)) ||
           fail(o, "--ddi takes a list of %s (e.g. qs3,qs4), not '%s'",
                words_text(o->arena, ddi_form_names, DDI_FORMS, " and "), v);
}

static bool take_diagnostics(Options *o, const char *f)
{
    const char *const *v = BY_NAME(format_values, countof(format_values), f);
    if (!v)
        return fail(o, "--diagnostics takes %s, not '%s'",
                    words_text(o->arena, format_values, countof(format_values), " or "), f);
    o->style.msvc = v == &format_values[1];
    o->diags = v < &format_values[2] ? DIAG_TEXT : (DiagFormat)(v - format_values - 1);
    if (o->diags != DIAG_TEXT && !(o->cmd_opts & OPT_DOC))
        return fail(o, "'segc %s' writes its diagnostics as text: --diagnostics=text or msvc", o->cmd_name);
    return true;
}

/* A row with a value matches its flag with the value attached or not
 * (is_opt: "-DX=1", "--ddi=qs4", "-j4"); one without, the flag alone. */
const Opt option_table[] = {
    {"-h", OPT_HELP, NULL, false, offsetof(Options, help), NULL},
    {"--help", OPT_HELP, NULL, false, offsetof(Options, help), NULL},
    {"-v", OPT_VERBOSE, NULL, false, offsetof(Options, verbose), NULL},
    {"--verbose", OPT_VERBOSE, NULL, false, offsetof(Options, verbose), NULL},
    {"-q", OPT_TEXT, NULL, false, offsetof(Options, quiet), NULL},
    {"--quiet", OPT_TEXT, NULL, false, offsetof(Options, quiet), NULL},
    {"-D", 0, "NAME=EXPR", false, 0, take_define},
    {"-I", 0, "a DIR", false, 0, take_include},
    {"-W", 0, "a RULE", false, 0, take_warning}, /* -Wno-RULE, -Werror, -Werror=RULE, -Wno-error=RULE */
    {"--color", OPT_TEXT, "[auto, always or never]", false, 0, take_color},
    {"--files-from", OPT_BATCH, "a FILE", true, offsetof(Options, files_from), NULL},
    {"-j", OPT_BATCH, "[N]", false, 0, take_jobs},
    {"-o", OPT_OUT, "a path", true, offsetof(Options, build.outdir), NULL}, /* a directory for build, a file for map */
    {"--templates", OPT_BUILD, "a directory", true, 0, take_templates},
    {"-MD", OPT_DEPS, NULL, false, offsetof(Options, md), NULL},
    {"-MF", OPT_DEPS, "a FILE", true, offsetof(Options, build.depfile), NULL},
    {"-MT", OPT_DEPS, "a TARGET", false, 0, take_target},
    {"-MP", OPT_DEPS, NULL, false, offsetof(Options, build.dep_phony), NULL},
    {"--deps-list", OPT_DEPS, "a FILE", true, offsetof(Options, build.deps_list), NULL},
    {"--annotate", OPT_BUILD, NULL, false, offsetof(Options, build.annotate), NULL},
    {"--emit-selftest", OPT_BUILD, NULL, false, offsetof(Options, build.emit_selftest), NULL},
    {"--lookup-budget", OPT_BUILD, "a SIZE", false, 0, take_budget},
    {"--ddi", OPT_DDI, "a list of qs, qs3 and qs4", false, 0, take_ddi},
    {"--diagnostics", OPT_DIAGNOSTICS, "a FORMAT (text, msvc, json or sarif)", false, 0, take_diagnostics},
    {"--json", OPT_DIFF | OPT_JSON, NULL, false, offsetof(Options, json), NULL},
    {"--yaml", OPT_JSON, NULL, false, offsetof(Options, yaml), NULL},
    {"--kinds", OPT_DIFF, NULL, false, offsetof(Options, kinds), NULL},
    {"--rev", OPT_DIFF, "a value", false, offsetof(Options, rev), NULL},
    {"--stdio", OPT_LSP, NULL, false, offsetof(Options, stdio), NULL},
    {"--log", OPT_LSP, "a FILE", true, offsetof(Options, log), NULL},
};
const size_t option_count = countof(option_table);

void options_init(Options *o, Arena *a, int argc, unsigned cmd_opts, const char *cmd_name)
{
    *o = (Options){.arena = a, .cmd_opts = cmd_opts, .cmd_name = cmd_name, .jobs = 1};
    rules_default(&o->rules);
    size_t n = argc > 0 ? (size_t)argc : 1;
    o->resolve.defines = o->defines = arena_alloc(a, n * sizeof *o->defines);
    o->resolve.include_dirs = o->includes = arena_alloc(a, n * sizeof *o->includes);
}

int option_parse(Options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    for (const Opt *op = option_table; op < option_table + option_count; op++) {
        if ((op->opts && !(o->cmd_opts & op->opts)) || (op->what ? !is_opt(a, op->flag) : strcmp(a, op->flag)))
            continue;
        const char *v = NULL, *at = a + strlen(op->flag);
        if (op->what && op->what[0] != '[') { /* attached ("-DX=1", "--ddi=qs4") or the next argument */
            v = *at ? at + (op->flag[1] == '-') : *i + 1 < argc ? argv[++*i] : NULL;
            if (!v || (!*v && op->path)) { /* segc never reads or writes a file named "" */
                fail(o, "%s needs %s", op->flag, op->what);
                return -1;
            }
        } else if (op->what && *at) {
            v = at + (*at == '=');
        } else if (op->what && op->flag[1] != '-' && *i + 1 < argc && *argv[*i + 1] &&
                   !argv[*i + 1][strspn(argv[*i + 1], "0123456789")]) {
            /* a value that may be left out, after a short flag: the next
             * argument when it is all digits (-j 4; `-j 2024-board.yaml`
             * is -j alone and a file) */
            v = argv[++*i];
        }
        if (op->take)
            return op->take(o, v) ? 1 : -1;
        if (op->what)
            *(const char **)((char *)o + op->field) = v;
        else
            *(bool *)((char *)o + op->field) = true;
        return 1;
    }
    return 0;
}

void options_free(Options *o)
{
    buf_free(&o->dep_targets);
    buf_free(&o->err_detail);
}
