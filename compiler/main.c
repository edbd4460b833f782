/* main.c - segc's command line.  Reads like the pipeline it drives:
 *
 *   check   load -> resolve -> check                 (many files, one process)
 *   build   load -> resolve -> check -> layout -> emit
 *   map     load -> resolve -> check -> draw          (SVG or HTML)
 *   rules / explain   the rule table
 *
 * Exit status: 0 valid (warnings allowed), 1 a spec is invalid, 2 usage,
 * I/O or internal error. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

typedef struct Options {
    RuleConfig rules;
    ResolveOpts resolve;
    Define *defines;
    unsigned ndefines;
    const char **includes;
    unsigned nincludes;
    const char **files;
    unsigned nfiles;
    const char *outdir;
    const char *templates;
    const char *depfile;
    bool md;
    bool annotate;
    bool verbose;
    bool quiet;
    DiagStyle style;
} Options;

static const char *prog = "segc";

static const char usage_main[] =
    "usage: segc COMMAND [OPTIONS] ...\n"
    "\n"
    "segc compiles a YAML description of a GPU's memory segments into the C a\n"
    "WDDM display miniport needs to answer DXGKQAITYPE_QUERYSEGMENT3, after\n"
    "checking it against every rule the WDDM documentation states.\n"
    "\n"
    "commands:\n"
    "  check FILE...          validate specs (many files in one process)\n"
    "  build SPEC -o DIR      validate, then write <name>_segments.[ch] and segc_dxgk.h\n"
    "  map SPEC -o FILE       draw the memory map as FILE.svg or FILE.html\n"
    "  rules                  list every rule with its severity\n"
    "  explain RULE           print a rule, the WDDM source it enforces, and a fix\n"
    "\n"
    "options:\n"
    "  -h, --help             this text (segc COMMAND --help for a command's)\n"
    "  --version              print the version\n"
    "\n"
    "exit status: 0 valid (warnings allowed), 1 invalid spec, 2 usage or I/O error\n";

static const char usage_check[] =
    "usage: segc check [OPTIONS] FILE...\n"
    "\n"
    "Validates each spec (load, expressions, extends, every rule) and prints\n"
    "every diagnostic of every file, sorted by position.\n"
    "\n"
    "options:\n"
    "  -D NAME=EXPR           override a constant of the spec\n"
    "  -I DIR                 also look for 'extends' files in DIR\n"
    "  -W RULE, -Wno-RULE     turn a rule on or off\n"
    "  -Werror, -Werror=RULE  make warnings (or one rule) errors\n"
    "  -Wno-error=RULE        make a rule a warning\n"
    "  --color=auto|always|never\n"
    "  -v, --verbose          one summary line per file, and the waivers used\n"
    "  -q, --quiet            print nothing; only the exit status\n";

static const char usage_build[] =
    "usage: segc build [OPTIONS] SPEC -o DIR\n"
    "\n"
    "Validates SPEC and, only if it is valid, writes DIR/<name>_segments.h,\n"
    "DIR/<name>_segments.c and DIR/segc_dxgk.h.  Files are replaced atomically\n"
    "and left untouched when their bytes do not change.\n"
    "\n"
    "options (besides those of 'segc check'):\n"
    "  -o DIR                 output directory (created if missing)\n"
    "  --templates DIR        use templates from DIR instead of the built-in ones\n"
    "  -MD -MF FILE           write a make/ninja depfile naming the spec, its\n"
    "                         extends chain and any template overrides\n"
    "  --annotate             comment each descriptor with the YAML line it came from\n";

static const char usage_map[] =
    "usage: segc map [OPTIONS] SPEC -o FILE.svg|FILE.html\n"
    "\n"
    "Draws SPEC's memory map: the GPU address space with every segment (gaps\n"
    "between segments collapsed, tiny segments drawn taller and marked), its\n"
    "banks, the driver/BIOS-reserved split, and one lane per BAR showing the\n"
    "bytes each CPU-visible segment occupies.  Segments that break a rule are\n"
    "outlined in red with the rule's name, so the map is drawn even for an\n"
    "invalid spec (exit status 1 still says it is invalid); a spec that cannot\n"
    "be resolved draws nothing.  .html adds a table of the segments and the\n"
    "diagnostics; the file is self-contained and fetches nothing.\n"
    "\n"
    "options (besides -D, -I, -W, --color, -v, -q of 'segc check'):\n"
    "  -o FILE                the picture to write; .svg or .html decides the format\n";

NORETURN static void die_usage(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void die_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n(segc --help for usage)\n", stderr);
    exit(EXIT_USAGE);
}

static bool want_color(const char *mode)
{
    if (!strcmp(mode, "always"))
        return true;
    if (!strcmp(mode, "never"))
        return false;
    if (strcmp(mode, "auto"))
        die_usage("--color takes auto, always or never, not '%s'", mode);
    const char *term = getenv("TERM");
    return isatty(STDERR_FILENO) && !getenv("NO_COLOR") && term && strcmp(term, "dumb");
}

/* Parses the options shared by check and build.  `argv` starts after the
 * command word. */
static void parse_options(Options *o, int argc, char **argv, const char *usage)
{
    rules_default(&o->rules);
    o->defines = xmalloc((size_t)argc * sizeof *o->defines);
    o->includes = xmalloc((size_t)argc * sizeof *o->includes);
    o->files = xmalloc((size_t)argc * sizeof *o->files);
    o->style.color = want_color("auto");
    bool only_files = false;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
#define VALUE(flag) (a[strlen(flag)] ? a + strlen(flag) : (i + 1 < argc ? argv[++i] : (die_usage("%s needs a value", flag), "")))
        if (only_files || a[0] != '-' || !strcmp(a, "-")) {
            o->files[o->nfiles++] = a;
        } else if (!strcmp(a, "--")) {
            only_files = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(EXIT_OK);
        } else if (!strncmp(a, "-D", 2)) {
            char *v = VALUE("-D");
            char *eq = strchr(v, '=');
            if (!eq || eq == v)
                die_usage("-D takes NAME=EXPR, not '%s'", v);
            *eq = 0;
            o->defines[o->ndefines++] = (Define){v, eq + 1};
        } else if (!strncmp(a, "-I", 2)) {
            o->includes[o->nincludes++] = VALUE("-I");
        } else if (!strncmp(a, "-W", 2)) {
            const char *w = VALUE("-W");
            if (!rules_option(&o->rules, w)) {
                const char *names[RULE_COUNT];
                for (int k = 0; k < RULE_COUNT; k++)
                    names[k] = rule_table[k].name;
                const char *base = strchr(w, '=') ? strchr(w, '=') + 1 : !strncmp(w, "no-", 3) ? w + 3 : w;
                const char *near = closest_name(base, names, RULE_COUNT);
                die_usage("-W%s: no rule named '%s'%s%s%s (segc rules lists them)", w, base,
                          near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
            }
        } else if (!strncmp(a, "--color", 7)) {
            o->style.color = want_color(a[7] == '=' ? a + 8 : "always");
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (!strncmp(a, "-o", 2) && (usage == usage_build || usage == usage_map)) {
            o->outdir = VALUE("-o"); /* a directory for build, a file for map */
        } else if (!strncmp(a, "--templates", 11) && usage == usage_build) {
            o->templates = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : (die_usage("--templates needs a directory"), ""));
        } else if (!strcmp(a, "-MD") && usage == usage_build) {
            o->md = true;
        } else if (!strncmp(a, "-MF", 3) && usage == usage_build) {
            o->depfile = VALUE("-MF");
        } else if (!strcmp(a, "--annotate") && usage == usage_build) {
            o->annotate = true;
        } else {
            die_usage("unknown option '%s'", a);
        }
#undef VALUE
    }
    o->resolve.defines = o->defines;
    o->resolve.ndefines = o->ndefines;
    o->resolve.include_dirs = o->includes;
    o->resolve.ninclude = o->nincludes;
}

static void free_options(Options *o)
{
    free(o->defines);
    free(o->includes);
    free(o->files);
}

/* One spec through load, resolve and check.  Prints its diagnostics and
 * returns its exit status. */
static int check_one(const Options *o, const char *path)
{
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    Spec *s = spec_load(a, path, &o->resolve, &d);
    if (s)
        spec_check(s, &o->rules, &d);
    diags_sort(&d);
    if (!o->quiet)
        diags_print_text(stderr, &d, o->style);
    int rc = d.nfatal ? EXIT_USAGE : diags_failed(&d) ? EXIT_INVALID : EXIT_OK;
    if (o->verbose && !o->quiet) {
        if (rc == EXIT_OK && s) {
            unsigned banks = 0;
            for (unsigned i = 0; i < s->nsegs; i++)
                banks += s->segs[i].nbanks;
            printf("%s: ok: board %s, WDDM %u.%u, %u segment%s, %u bank%s, %u warning%s\n", path, s->name,
                   s->wddm >> 4, s->wddm & 15, s->nsegs, s->nsegs == 1 ? "" : "s", banks, banks == 1 ? "" : "s",
                   d.nwarnings, d.nwarnings == 1 ? "" : "s");
            for (unsigned i = 0; i < s->nsegs; i++)
                for (unsigned w = 0; w < s->segs[i].nwaivers; w++)
                    if (s->segs[i].waivers[w].used)
                        printf("%s:   waived [%s] on segment '%s': %s\n", path, s->segs[i].waivers[w].rule,
                               s->segs[i].name, s->segs[i].waivers[w].reason);
        } else {
            printf("%s: %s: %u error%s, %u warning%s\n", path, rc == EXIT_USAGE ? "unreadable" : "invalid",
                   d.nerrors + d.nfatal, d.nerrors + d.nfatal == 1 ? "" : "s", d.nwarnings,
                   d.nwarnings == 1 ? "" : "s");
        }
    }
    arena_free(a);
    return rc;
}

static int cmd_check(int argc, char **argv)
{
    Options o = {0};
    parse_options(&o, argc, argv, usage_check);
    if (!o.nfiles)
        die_usage("check needs at least one FILE");
    int rc = EXIT_OK;
    for (unsigned i = 0; i < o.nfiles; i++) {
        int r = check_one(&o, o.files[i]);
        if (r > rc)
            rc = r;
    }
    free_options(&o);
    return rc;
}

static int cmd_build(int argc, char **argv)
{
    Options o = {0};
    parse_options(&o, argc, argv, usage_build);
    if (o.nfiles != 1)
        die_usage("build takes exactly one SPEC (got %u)", o.nfiles);
    if (!o.outdir)
        die_usage("build needs -o DIR");
    if (o.md && !o.depfile)
        die_usage("-MD needs -MF FILE");
    if (o.depfile && !o.md)
        die_usage("-MF FILE goes with -MD");
    const char *path = o.files[0];
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    Spec *s = spec_load(a, path, &o.resolve, &d);
    if (s)
        spec_check(s, &o.rules, &d);
    Outputs out = {0};
    BuildOpts bo = {o.outdir, o.templates, o.depfile, o.annotate};
    /* Nothing is rendered, let alone written, unless every check passed. */
    bool ok = s && !diags_failed(&d) && emit_render(a, s, &bo, &out, &d);
    if (ok)
        outputs_write(s, &bo, &out, &d, o.verbose && !o.quiet);
    diags_sort(&d);
    if (!o.quiet)
        diags_print_text(stderr, &d, o.style);
    int rc = d.nfatal ? EXIT_USAGE : diags_failed(&d) ? EXIT_INVALID : EXIT_OK;
    if (o.verbose && !o.quiet && rc == EXIT_OK)
        printf("%s: built board %s: %u segments into %s\n", path, s->name, s->nsegs, o.outdir);
    outputs_free(&out);
    arena_free(a);
    free_options(&o);
    return rc;
}

static int cmd_map(int argc, char **argv)
{
    Options o = {0};
    parse_options(&o, argc, argv, usage_map);
    if (o.nfiles != 1)
        die_usage("map takes exactly one SPEC (got %u)", o.nfiles);
    if (!o.outdir)
        die_usage("map needs -o FILE.svg or -o FILE.html");
    const char *ext = strrchr(o.outdir, '.');
    bool html = ext && !strcmp(ext, ".html");
    if (!html && !(ext && !strcmp(ext, ".svg")))
        die_usage("map writes FILE.svg or FILE.html, not '%s'", o.outdir);
    const char *path = o.files[0];
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    Spec *s = spec_load(a, path, &o.resolve, &d);
    if (s)
        spec_check(s, &o.rules, &d);
    diags_sort(&d);
    /* Drawn even when rules are broken: the picture shows where. */
    Buf out = {0};
    if (s && map_render(a, s, &d, html, &out) && write_file_atomic(o.outdir, out.p, out.len, &d) && o.verbose &&
        !o.quiet)
        printf("%s: drew board %s (%u segments) into %s\n", path, s->name, s->nsegs, o.outdir);
    diags_sort(&d);
    if (!o.quiet)
        diags_print_text(stderr, &d, o.style);
    int rc = d.nfatal ? EXIT_USAGE : diags_failed(&d) ? EXIT_INVALID : EXIT_OK;
    buf_free(&out);
    arena_free(a);
    free_options(&o);
    return rc;
}

static const char *sev_word(Severity s)
{
    return s == SEV_ERROR ? "error" : "warning";
}

static int cmd_rules(int argc, char **argv)
{
    if (argc > 0 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help"))) {
        puts("usage: segc rules\n\nLists every rule: name, default severity, and the WDDM source it enforces.");
        return EXIT_OK;
    }
    if (argc > 0)
        die_usage("rules takes no arguments");
    for (int i = 0; i < RULE_COUNT; i++)
        printf("%-40s %-8s %s\n", rule_table[i].name, sev_word(rule_table[i].sev), rule_table[i].source);
    return EXIT_OK;
}

static int cmd_explain(int argc, char **argv)
{
    if (argc != 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
        if (argc == 1) {
            puts("usage: segc explain RULE\n\nPrints the rule, the WDDM source it enforces, and how to fix a spec.");
            return EXIT_OK;
        }
        die_usage("explain takes one RULE name (segc rules lists them)");
    }
    int id = rule_by_name(argv[0]);
    if (id < 0) {
        const char *names[RULE_COUNT];
        for (int k = 0; k < RULE_COUNT; k++)
            names[k] = rule_table[k].name;
        const char *near = closest_name(argv[0], names, RULE_COUNT);
        die_usage("no rule named '%s'%s%s%s", argv[0], near ? "; did you mean '" : "", near ? near : "",
                  near ? "'?" : "");
    }
    const RuleInfo *r = &rule_table[id];
    printf("%s (%s by default)\n\n  %s\n\nsource: %s\nfix:    %s\n\n", r->name, sev_word(r->sev), r->text, r->source,
           r->fix);
    printf("Turn it off with -Wno-%s, make it an error with -Werror=%s,\n"
           "or waive it for one segment with a reason:\n"
           "    waive: { %s: \"why this segment needs it\" }\n",
           r->name, r->name, r->name);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_main, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        if (argc > 2 && !strcmp(cmd, "help")) {
            char *h[] = {"--help"};
            if (!strcmp(argv[2], "check"))
                return cmd_check(1, h);
            if (!strcmp(argv[2], "build"))
                return cmd_build(1, h);
            if (!strcmp(argv[2], "map"))
                return cmd_map(1, h);
            if (!strcmp(argv[2], "rules"))
                return cmd_rules(1, h);
            if (!strcmp(argv[2], "explain"))
                return cmd_explain(1, h);
        }
        fputs(usage_main, stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("segc %s (spec format %d)\n", SEGC_VERSION, SEGC_FORMAT_VERSION);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "build"))
        return cmd_build(argc - 2, argv + 2);
    if (!strcmp(cmd, "map"))
        return cmd_map(argc - 2, argv + 2);
    if (!strcmp(cmd, "rules"))
        return cmd_rules(argc - 2, argv + 2);
    if (!strcmp(cmd, "explain"))
        return cmd_explain(argc - 2, argv + 2);
    static const char *const cmds[] = {"check", "build", "map", "rules", "explain", "help"};
    const char *near = closest_name(cmd, cmds, countof(cmds));
    die_usage("unknown command '%s'%s%s%s", cmd, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}
