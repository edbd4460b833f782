/* SPDX-License-Identifier: MIT */
/* main.c - segc's command line.  Reads like the pipeline it drives:
 *
 *   check   load -> resolve -> check                 (many files, one process)
 *   build   load -> resolve -> check -> layout -> emit -> output
 *   diff    load -> resolve -> check, twice -> compare   (diff.c)
 *   dump    load -> resolve -> check -> the model as JSON
 *   map     load -> resolve -> check -> draw          (SVG or HTML)
 *   rules / explain   the rule table
 *
 * Exit status: see usage_tail. */
#include "segc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_BREAKING = 3 };


static const char usage_head[] =
    "usage: segc COMMAND [OPTIONS] ...\n"
    "\n"
    "segc compiles a YAML description of a GPU's memory segments into the C a\n"
    "WDDM display miniport needs to answer DXGKQAITYPE_QUERYSEGMENT3, after\n"
    "checking it against every rule the WDDM documentation states.\n"
    "\n"
    "commands:\n";
static const char usage_tail[] =
    "\n"
    "options:\n"
    "  -h, --help             this text (segc COMMAND --help for a command's)\n"
    "  --version              print the version\n"
    "\n"
    "exit status: 0 valid (warnings allowed), 1 invalid spec, 2 usage or I/O error\n"
    "(segc diff: also 3, a breaking change)\n";

static const char usage_check[] =
    "usage: segc check [OPTIONS] FILE...\n"
    "\n"
    "Validates each spec (load, expressions, extends, every rule) and prints\n"
    "every diagnostic of every file, sorted by position.\n"
    "\n"
    "options:\n"
    "  -D NAME=EXPR           override a constant of the spec\n"
    "  -I DIR                 also look for 'extends' files in DIR\n"
    "  -W RULE, -Wno-RULE     turn an advisory rule on or off (invariants stay on)\n"
    "  --ddi qs,qs3,qs4       the DDI forms to answer (default: the one board.wddm is\n"
    "                         asked: qs before 1.2, qs3 for 1.2/1.3, qs4 from 2.0)\n"
    "  -Werror, -Werror=RULE  make warnings (or one rule) errors\n"
    "  -Wno-error=RULE        make a rule a warning\n"
    "  --color=auto|always|never\n"
    "  -j [N]                 check N files at a time (-j alone: one per core);\n"
    "                         the output keeps the order of the files\n"
    "  --files-from FILE      also check the files FILE lists, one per line (- = stdin)\n"
    "  -v, --verbose          one summary line per file, and the waivers used\n"
    "  -q, --quiet            print nothing; only the exit status\n"
    "  --diagnostics=FORMAT   text (default, on standard error); msvc: MSBuild's\n"
    "                         'file(line,col): error SEGC1009: ...' lines, on standard\n"
    "                         error; json or sarif: one document for the whole run\n"
    "                         on standard output\n"
    "                         (doc/diagnostics.md); -v lines then go to standard error\n";

static const char usage_build[] =
    "usage: segc build [OPTIONS] SPEC -o DIR\n"
    "\n"
    "Validates SPEC and, only if it is valid, writes DIR/<name>_segments.h,\n"
    "DIR/<name>_segments.c and DIR/segc_dxgk.h.  Files are replaced atomically\n"
    "and left untouched when their bytes do not change.\n"
    "\n"
    "options (besides those of 'segc check'):\n"
    "  -o DIR                 output directory (created if missing)\n"
    "  --templates DIR        fill the hook points from DIR's hook-*.txt files\n"
    "  -MD -MF FILE           write a make/ninja depfile naming the spec, its\n"
    "                         extends chain and any hook files\n"
    "  -MT TARGET             the depfile's targets instead of the outputs (as gcc)\n"
    "  -MP                    an empty rule per input in the depfile (as gcc)\n"
    "  --deps-list FILE       write those inputs one per line (for MSBuild)\n"
    "  --annotate             mark each field with the YAML line it came from\n"
    "  --emit-selftest        also write DIR/<name>_selftest.c, a program that runs the\n"
    "                         handlers as dxgkrnl does and checks every answer (for CI)\n"
    "  --lookup-budget SIZE   bytes the GPU-address lookup table may take\n"
    "                         (default 4KiB; a smaller budget picks a slower form)\n"
    "  -v                     report the files written and the lookup table chosen\n";

static const char usage_diff[] =
    "usage: segc diff [OPTIONS] OLD NEW\n"
    "       segc diff [OPTIONS] REV:OLD NEW\n"
    "       segc diff [OPTIONS] --rev REV SPEC\n"
    "\n"
    "Validates both specs, then compares their resolved values (segments and\n"
    "BARs by name, banks by id) and classifies each change by what it does to\n"
    "a driver that shipped with the code generated from OLD: 'breaking' (ids\n"
    "renumbered, segments removed, banks, bases, kinds, behaviour flags, the\n"
    "paging segment...) or 'compatible' (a segment added at the end, a size\n"
    "grown, a commit limit...).  Comments, key order and how a value is\n"
    "written are no change.  One of OLD and NEW may be '-' (standard input).\n"
    "REV:OLD reads OLD and every file of its extends chain from git revision\n"
    "REV (paths relative to the current directory), not from the work tree.\n"
    "\n"
    "Output, on standard output: one line per change,\n"
    "  breaking: NEW.yaml:12:11: [base-moved] segment 'gart' base 0x1000000000 (64 GiB) -> 0x10000000000 (1 TiB), +960 GiB\n"
    "(the position is in NEW, or in OLD for what NEW no longer has), then a\n"
    "summary line.  Invalid specs print their diagnostics on standard error.\n"
    "\n"
    "options:\n"
    "  --json                 one JSON object instead: {\"segc_diff\": 2, \"tool\", \"old\", \"new\",\n"
    "                         \"changes\": [...], \"breaking\": N, \"compatible\": M}\n"
    "  --kinds                list every kind of change with its class and why\n"
    "  --rev REV              compare SPEC as git revision REV has it (OLD, with\n"
    "                         its extends chain) with SPEC in the work tree (NEW)\n"
    "  -D NAME=EXPR           override a constant, in both specs\n"
    "  -I DIR                 also look for 'extends' files in DIR (both specs)\n"
    "  -W..., --color, -q     as for 'segc check'\n"
    "  --diagnostics=FORMAT   text or msvc, as for 'segc check'\n"
    "\n"
    "exit status: 0 no change, or only compatible ones; 3 at least one breaking\n"
    "change; 1 OLD or NEW is invalid; 2 usage or I/O error\n";

static const char usage_dump[] =
    "usage: segc dump --json [OPTIONS] SPEC\n"
    "       segc dump --yaml [OPTIONS] SPEC\n"
    "\n"
    "Loads, resolves and checks SPEC and, if it is valid, prints the resolved model\n"
    "on standard output as one JSON document ({\"segc_model\": 1, ...}; see\n"
    "doc/model.md): board, constants, BARs, segments in id order with flags, CPU\n"
    "window, banks and waivers, and paging.  Every value carries the file, line and\n"
    "column that wrote it; 64-bit values are hex strings.  Diagnostics go to\n"
    "standard error as with 'segc check'.\n"
    "\n"
    "With --yaml it prints SPEC itself as one self-contained spec instead: the\n"
    "files its extends chain names merged in as segc merges them, constants and\n"
    "expressions as written (a constant a -D overrides gets the -D text), comments\n"
    "left out.  'segc build' makes the same code from it as from SPEC.\n"
    "\n"
    "options:\n"
    "  --json                 the resolved model as JSON (the default)\n"
    "  --yaml                 the spec, its extends chain merged, as YAML\n"
    "  -D NAME=EXPR, -I DIR, -W..., --color=...   as for 'segc check'\n";

static const char usage_map[] =
    "usage: segc map [OPTIONS] SPEC -o FILE.svg|FILE.html|FILE.md\n"
    "\n"
    "Draws SPEC's memory map: the GPU address space with every segment (gaps\n"
    "between segments collapsed, tiny segments drawn taller and marked), its\n"
    "banks, the driver/BIOS-reserved split, and one lane per BAR showing the\n"
    "bytes each CPU-visible segment occupies.  Segments that break a rule are\n"
    "outlined in red with the rule's name, so the map is drawn even for an\n"
    "invalid spec (exit status 1 still says it is invalid); a segment whose\n"
    "value fails is drawn empty, and a spec that cannot be read into a model\n"
    "(YAML, keys, a board or BAR value) draws nothing.  .html adds a table of\n"
    "the segments and the diagnostics; the file is self-contained and fetches\n"
    "nothing.  .md writes, instead of the picture, a Markdown page for design\n"
    "reviews and wikis: tables of the segments, banks, BARs and CPU windows, and\n"
    "the diagnostics.\n"
    "\n"
    "options (besides -D, -I, -W, --color, -v, -q and --diagnostics=text|msvc of\n"
    "'segc check'):\n"
    "  -o FILE                the file to write; .svg, .html or .md decides the format\n";

static const char usage_lsp[] =
    "usage: segc lsp [OPTIONS]\n"
    "\n"
    "Runs a Language Server Protocol (3.17) server on standard input and\n"
    "output, for editors: every open spec is checked as it is typed (unsaved\n"
    "text; its extends chain read from open documents first, then the disk),\n"
    "with hover, completion, go to definition, references, the outline and\n"
    "quick fixes.  Exits when the editor sends 'exit' or closes the stream.\n"
    "\n"
    "options:\n"
    "  --stdio                talk on standard input and output (the default, and\n"
    "                         the only way)\n"
    "  --log FILE             append every message received and sent to FILE\n"
    "  -D NAME=EXPR, -I DIR, -W..., --ddi   as for 'segc check', on every spec\n";

static const char usage_rules[] =
    "usage: segc rules [--all | --markdown]\n\nLists every rule: name, class (invariant or advisory), default severity,\n"
    "and the WDDM source it enforces.  --all also lists the codes of the front end,\n"
    "of hook files and of internal errors (never switchable).  --markdown prints\n"
    "every code as `segc explain` does, one section each (doc/rules.md).\n";

static const char usage_explain[] =
    "usage: segc explain CODE\n\nPrints a rule (its class, the WDDM source it enforces, how to fix a spec,\n"
    "and the options or waivers that apply to it), or what any other code segc prints means.\n";

NORETURN static void die_usage(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void die_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("segc: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n(segc --help for usage)\n", stderr);
    exit(EXIT_USAGE);
}

/* Adds a copy of `name` to the files. */
static void add_file(Options *o, const char *name)
{
    o->files = xrealloc(o->files, (o->nfiles + 1) * sizeof *o->files);
    o->files[o->nfiles++] = arena_strdup(o->arena, name);
}

/* A FILE argument of check may be a glob pattern (for shells and build
 * tools that pass one quoted); a name that exists is taken as it is. */
static void add_pattern(Options *o, const char *a, bool may_glob)
{
    if (!may_glob || !strpbrk(a, "*?[") || os_kind(a) != OS_MISSING) {
        add_file(o, a);
        return;
    }
    size_t n;
    char **names = os_glob(a, &n);
    if (!names)
        die_usage("no file matches '%s'", a);
    for (size_t i = 0; i < n; i++) {
        add_file(o, names[i]);
        free(names[i]);
    }
    free(names);
}

typedef struct Command {
    const char *name, *synopsis, *summary; /* for segc --help */
    const char *usage;      /* segc NAME --help */
    unsigned opts;          /* OPT_* */
    int (*run)(Options *o); /* on its parsed options (run_command) */
    int (*run_args)(int argc, char **argv); /* rules, explain: on their own arguments */
} Command;

static bool is_help(const char *a)
{
    return !strcmp(a, "-h") || !strcmp(a, "--help");
}

/* Parses the options (options.c's table; one command `c` does not take is
 * a usage error) and files of command `c`.  `argv` starts after the
 * command word. */
static void parse_options(Options *o, int argc, char **argv, const Command *c)
{
    options_init(o, arena_new(), argc, c->opts | OPT_HELP, c->name);
    want_color("auto", &o->style.color);
    bool only_files = false;
    for (int i = 0, r; i < argc; i++) {
        char *a = argv[i];
        if (only_files || a[0] != '-' || !strcmp(a, "-")) {
            add_pattern(o, a, c->opts & OPT_BATCH);
        } else if (!strcmp(a, "--")) {
            only_files = true;
        } else if ((r = option_parse(o, argc, argv, &i)) < 0) {
            fputs(o->err_detail.p ? o->err_detail.p : "", stderr);
            die_usage("%s", o->err);
        } else if (r == 0) {
            die_usage("unknown option '%s'", argv[i]);
        } else if (o->help) {
            fputs(c->usage, stdout);
            exit(EXIT_OK);
        }
    }
    if (c->opts & OPT_DOC && o->diags != DIAG_TEXT && !o->quiet)
        o->report = diag_report_new();
}

/* The run's JSON/SARIF document, if it has one, on standard output. */
static void write_report(Options *o)
{
    if (o->report)
        diag_report_write(stdout, o->report, o->diags);
    diag_report_free(o->report);
    o->report = NULL;
}

/* Runs command `c` on the arguments after its word: rules and explain
 * read their own (but --help); the others get their options parsed (one SPEC checked
 * for OPT_SPEC), and at the end their JSON/SARIF document written and the
 * options freed. */
static int run_command(const Command *c, int argc, char **argv)
{
    if (c->run_args && argc == 1 && is_help(argv[0])) {
        fputs(c->usage, stdout);
        return EXIT_OK;
    }
    if (c->run_args)
        return c->run_args(argc, argv);
    Options o;
    parse_options(&o, argc, argv, c);
    if (c->opts & OPT_SPEC && o.nfiles != 1)
        die_usage("%s takes exactly one SPEC (got %u)", c->name, o.nfiles);
    int rc = c->run(&o);
    write_report(&o);
    free(o.files);
    arena_free(o.arena);
    options_free(&o);
    return rc;
}

/* The front end (libsegc.c) for the spec at `path`, in a new arena (its
 * chunks from `pool`, or NULL: the heap); `out` for a build. */
static Spec *check_spec(const Options *o, const char *path, ChunkPool *pool, Checked *c, Outputs *out)
{
    return front_end(c, arena_new_in(pool), path, NULL, 0, &o->resolve, &o->rules, out);
}

/* The end of a command on one spec: its diagnostics, sorted, into the
 * run's JSON/SARIF document or else on standard error; then the exit
 * status they make. */
static int report_spec(const Options *o, const char *path, Checked *c)
{
    diags_sort(&c->d);
    if (o->report)
        diag_report_add(o->report, path, &c->d, c->s);
    else if (!o->quiet)
        diags_print_text(stderr, &c->d, o->style);
    return c->d.nfatal ? EXIT_USAGE : diags_failed(&c->d) ? EXIT_INVALID : EXIT_OK;
}

/* ---- segc check: many files, in parallel, reported in order ------------- */

typedef struct Totals {
    unsigned files[3]; /* by exit status: ok, invalid, unreadable */
    unsigned errors, warnings, waivers;
} Totals;

/* Reports one file (in command-line order) and frees it; returns its
 * exit status. */
static int check_report(const Options *o, const char *path, Checked *c, Totals *t)
{
    const Diags *d = &c->d;
    const Spec *s = c->s;
    int rc = report_spec(o, path, c);
    t->errors += d->nerrors + d->nfatal;
    t->warnings += d->nwarnings;
    t->files[rc]++;
    unsigned banks = 0;
    for (unsigned i = 0; s && i < s->nsegs; i++) {
        banks += s->segs[i].nbanks;
        for (unsigned w = 0; w < s->segs[i].nwaivers; w++)
            t->waivers += s->segs[i].waivers[w].used;
    }
    /* Standard output is the document's when there is one. */
    FILE *vout = o->report ? stderr : stdout;
    if (o->verbose && !o->quiet) {
        if (rc == EXIT_OK && s) {
            fprintf(vout, "%s: ok: board %s, WDDM %u.%u, %u segment%s, %u bank%s, %u warning%s\n", path, s->name,
                    s->wddm >> 4, s->wddm & 15, s->nsegs, s->nsegs == 1 ? "" : "s", banks, banks == 1 ? "" : "s",
                    d->nwarnings, d->nwarnings == 1 ? "" : "s");
            for (unsigned i = 0; i < s->nsegs; i++)
                for (unsigned w = 0; w < s->segs[i].nwaivers; w++)
                    if (s->segs[i].waivers[w].used)
                        fprintf(vout, "%s:   waived [%s] on segment '%s': %s\n", path, s->segs[i].waivers[w].rule,
                                s->segs[i].name, s->segs[i].waivers[w].reason);
        } else {
            fprintf(vout, "%s: %s: %u error%s, %u warning%s\n", path, rc == EXIT_USAGE ? "unreadable" : "invalid",
                    d->nerrors + d->nfatal, d->nerrors + d->nfatal == 1 ? "" : "s", d->nwarnings,
                    d->nwarnings == 1 ? "" : "s");
        }
    }
    arena_free(c->a);
    return rc;
}

/* Workers (one even for -j1) take the next file; the main thread reports
 * them in order. */
typedef struct Pool {
    const Options *o;
    Checked *res;
    unsigned next; /* the next file a worker takes; past the last: none */
    pthread_mutex_t mu;
    pthread_cond_t ready;
    ChunkPool *chunks; /* what the reported specs' arenas freed, for the next ones */
} Pool;

static void *check_worker(void *arg)
{
    Pool *p = arg;
    Failure mine, *outer = failure; /* the main thread's, when it runs the loop itself */
    CATCH_FAILURES(&mine);
    for (;;) {
        pthread_mutex_lock(&p->mu);
        unsigned i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->o->nfiles)
            break;
        Checked c;
        check_spec(p->o, p->o->files[i], p->chunks, &c, NULL);
        pthread_mutex_lock(&p->mu);
        p->res[i] = c;
        pthread_cond_broadcast(&p->ready);
        pthread_mutex_unlock(&p->mu);
    }
    failure = outer;
    return NULL;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Checks every file, reporting each in order as soon as it and those
 * before it are done, then the totals; on a terminal, a progress line once
 * the work has taken a while.  Returns the worst exit status. */
static int check_all(const Options *o)
{
    /* SEGC_PROGRESS_AFTER (seconds, default 0.5) is for scripts and tests. */
    const char *after = getenv("SEGC_PROGRESS_AFTER");
    double show_at = o->nfiles > 1 && !o->quiet && os_stderr_tty()
                         ? now_seconds() + (after ? strtod(after, NULL) : 0.5)
                         : HUGE_VAL;
    bool shown = false;
    int rc = EXIT_OK;
    Totals t = {0};
    Checked *res = memset(xmalloc(o->nfiles * sizeof *res), 0, o->nfiles * sizeof *res);
    Pool p = {o, res, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, pool_new()};
    pthread_t th[64];
    unsigned nth = 0;
    for (; nth < o->jobs && nth < countof(th) && nth < o->nfiles; nth++)
        if (pthread_create(&th[nth], NULL, check_worker, &p) != 0)
            break;
    if (nth == 0)
        check_worker(&p); /* no thread to be had: every file first, then the reports */
    for (unsigned i = 0; i < o->nfiles; i++) {
        pthread_mutex_lock(&p.mu);
        while (!res[i].a)
            pthread_cond_wait(&p.ready, &p.mu);
        pthread_mutex_unlock(&p.mu);
        if (shown)
            fputs("\r\033[K", stderr);
        int r = check_report(o, o->files[i], &res[i], &t);
        if (r > rc)
            rc = r;
        if ((shown = now_seconds() >= show_at)) {
            fprintf(stderr, "\rsegc: checked %u of %u files", i + 1, o->nfiles);
            fflush(stderr);
        }
    }
    if (shown)
        fputs("\r\033[K", stderr);
    for (unsigned k = 0; k < nth; k++)
        pthread_join(th[k], NULL);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.ready);
    pool_drop(p.chunks);
    free(res);
    /* The summary table, for a batch (a JSON/SARIF document has its own). */
    if (o->nfiles > 1 && !o->quiet && o->diags == DIAG_TEXT) {
        printf("%8s %8s %8s %10s %8s %8s %8s\n", "files", "ok", "invalid", "unreadable", "errors", "warnings",
               "waivers");
        printf("%8u %8u %8u %10u %8u %8u %8u\n", o->nfiles, t.files[EXIT_OK], t.files[EXIT_INVALID],
               t.files[EXIT_USAGE], t.errors, t.warnings, t.waivers);
    }
    return rc;
}

/* Adds FILE's lines (blank lines and # comments skipped) to the file list. */
static void read_files_from(Options *o, const char *list)
{
    FILE *f = strcmp(list, "-") ? os_fopen(list, "rb") : stdin;
    if (!f) {
        fprintf(stderr, "segc: --files-from %s: %s\n", list, strerror(errno));
        exit(EXIT_USAGE);
    }
    Buf line = {0};
    for (int c = 0; c != EOF;) { /* a line of any length */
        line.len = 0;
        while ((c = getc(f)) != EOF && c != '\n')
            buf_putc(&line, (char)c);
        if (line.len && line.p[line.len - 1] == '\r')
            line.len--;
        buf_putc(&line, 0);
        if (line.p[0] && line.p[0] != '#')
            add_file(o, line.p);
    }
    buf_free(&line);
    if (f != stdin)
        fclose(f);
}

static int cmd_check(Options *o)
{
    if (o->files_from)
        read_files_from(o, o->files_from);
    if (!o->nfiles)
        die_usage("check needs at least one FILE");
    return check_all(o);
}

/* `segc build -v`: the lookup table layout.c chose. */
static void print_lookup(FILE *vout, const char *path, const Lookup *lk)
{
    if (lk->overlap[0]) {
        fprintf(vout,
                "%s: lookup table: none: segments '%s' and '%s' overlap (segments-overlap is off or waived), so "
                "LookupGpuAddress is not emitted; BankOfOffset walks the bank tables\n",
                path, lk->overlap[0]->name, lk->overlap[1]->name);
        return;
    }
    fprintf(vout, "%s: lookup table: %s", path, lookup_form_name(lk->form));
    if (lk->form != LOOKUP_SEARCH && lk->nregions > 1)
        fprintf(vout, " (%u level%s over 2^%u-byte granules)", lk->nlevels, lk->nlevels == 1 ? "" : "s",
                lk->granule_log2);
    fprintf(vout, ", %zu bytes, %u region%s, worst case %u memory loads per lookup%s\n", lk->bytes,
            lk->nregions - 1, lk->nregions == 2 ? "" : "s", lk->loads,
            lk->over_budget ? " (no form fits --lookup-budget: this is the smallest)" : "");
}

/* Nothing is rendered, let alone written, unless every check passed. */
static int cmd_build(Options *o)
{
    const char *path = o->files[0];
    if (!o->build.outdir)
        die_usage("build needs -o DIR");
    if (o->md && !o->build.depfile)
        die_usage("-MD needs -MF FILE");
    if (o->build.depfile && !o->md)
        die_usage("-MF FILE goes with -MD");
    if ((o->dep_targets.len || o->build.dep_phony) && !o->md)
        die_usage("-MF, -MT and -MP go with -MD");
    Checked ck;
    Outputs out = {.build = &o->build};
    Spec *s = check_spec(o, path, NULL, &ck, &out);
    o->build.dep_target = o->dep_targets.p;
    Lookup lk;
    bool ok = build_outputs(&ck, &o->build, &lk, &out);
    /* -v lines go to stdout, unless a JSON/SARIF document owns it. */
    FILE *vout = o->verbose && !o->quiet ? (o->diags == DIAG_TEXT ? stdout : stderr) : NULL;
    if (ok && vout)
        print_lookup(vout, path, &lk);
    if (ok)
        outputs_write(s, &o->build, &out, &ck.d, vout);
    int rc = report_spec(o, path, &ck);
    write_report(o);
    if (vout && rc == EXIT_OK)
        fprintf(vout, "%s: built board %s: %u segment%s into %s\n", path, s->name, s->nsegs, s->nsegs == 1 ? "" : "s",
                o->build.outdir);
    outputs_free(&out);
    arena_free(ck.a);
    return rc;
}

/* Both specs through load, resolve and check; if both are valid, the
 * changes from OLD to NEW.  Diagnostics are printed only for a spec that
 * is invalid (segc check shows the warnings of valid ones). */
static int cmd_diff(Options *o)
{
    if (o->kinds) {
        if (o->nfiles)
            die_usage("diff --kinds takes no files");
        for (int i = 0; i < CHANGE_KIND_COUNT; i++)
            printf("%-28s %-10s %s\n", change_table[i].name, change_class_name(change_table[i].cls),
                   change_table[i].why);
        return EXIT_OK;
    }
    if (o->rev && o->nfiles != 1)
        die_usage("diff --rev takes one SPEC (got %u)", o->nfiles);
    if (!o->rev && o->nfiles != 2)
        die_usage("diff takes OLD and NEW (got %u file%s)", o->nfiles, o->nfiles == 1 ? "" : "s");
    Arena *a = arena_new();
    const char *path[2] = {o->files[0], o->files[o->nfiles - 1]}, *rev = o->rev;
    /* REV:PATH, git's notation, when no file has that name (a drive letter
     * is one character). */
    const char *colon = rev ? NULL : strchr(path[0], ':');
    if (colon && colon - path[0] > 1 && os_kind(path[0]) == OS_MISSING) {
        rev = arena_strndup(a, path[0], (size_t)(colon - path[0]));
        path[0] = colon + 1;
    }
    if (!strcmp(path[0], "-") && (rev || !strcmp(path[1], "-")))
        die_usage("only one of OLD and NEW can be '-' (standard input), and not one read from git");
    Checked ck[2];
    int rc = EXIT_OK;
    for (int i = 0; i < 2; i++) {
        o->resolve.rev = i ? NULL : rev;
        if (check_spec(o, path[i], NULL, &ck[i], NULL) && !diags_failed(&ck[i].d))
            continue;
        int r = report_spec(o, path[i], &ck[i]);
        if (r > rc)
            rc = r;
    }
    if (rc == EXIT_OK) {
        Diff df;
        spec_diff(a, ck[0].s, ck[1].s, &df);
        Buf b = {0};
        if (o->json)
            diff_print_json(&b, &df, rev ? arena_printf(a, "%s:%s", rev, path[0]) : path[0], path[1]);
        else
            diff_print_text(&b, &df);
        if (!o->quiet && (fwrite(b.p, 1, b.len, stdout) != b.len || fflush(stdout) != 0)) {
            fputs("segc: cannot write the diff to standard output\n", stderr);
            rc = EXIT_USAGE;
        } else {
            rc = df.nbreaking ? EXIT_BREAKING : EXIT_OK;
        }
        buf_free(&b);
    }
    for (int i = 0; i < 2; i++)
        arena_free(ck[i].a);
    arena_free(a);
    return rc;
}

static int cmd_map(Options *o)
{
    const char *path = o->files[0];
    const char *file = o->build.outdir;
    if (!file)
        die_usage("map needs -o FILE.svg, -o FILE.html or -o FILE.md");
    const char *ext = strrchr(file, '.');
    static const char *const exts[] = {[MAP_SVG] = ".svg", [MAP_HTML] = ".html", [MAP_MARKDOWN] = ".md"};
    const char *const *format = ext ? BY_NAME(exts, countof(exts), ext) : NULL;
    if (!format)
        die_usage("map writes FILE.svg, FILE.html or FILE.md, not '%s'", file);
    Checked ck;
    Spec *s = check_spec(o, path, NULL, &ck, NULL);
    /* Drawn even when rules are broken: the picture shows where. */
    Buf out = {0};
    if (s && map_render(ck.a, s, &ck.d, (MapFormat)(format - exts), &out) &&
        write_file_atomic(file, out.p, out.len, &ck.d) && o->verbose && !o->quiet)
        printf("%s: drew board %s (%u segment%s) into %s\n", path, s->name, s->nsegs, s->nsegs == 1 ? "" : "s",
               file);
    int rc = report_spec(o, path, &ck);
    buf_free(&out);
    arena_free(ck.a);
    return rc;
}

/* doc/rules.md: `segc explain` of every code, under a heading that is its
 * name (the anchor SARIF's helpUri names). */
static void rules_markdown(void)
{
    fputs("# Rules and codes\n\n"
          "Every code segc prints, in `segc rules --all` order, with what\n"
          "`segc explain CODE` says about it: the rule, its WDDM source, the fix, the\n"
          "rules it runs after, its `--diagnostics=msvc` number, and how (or whether)\n"
          "it can be switched off or waived.  Each section's anchor is the code's name,\n"
          "`doc/rules.md#segments-overlap`: that is the `helpUri` of the code in segc's\n"
          "SARIF output (see [diagnostics.md](diagnostics.md)).  `segc rules --markdown`\n"
          "writes this file from compiler/rules.def; tests/doc/pages.sh checks that it is\n"
          "what segc says.\n",
          stdout);
    for (int i = 0; i < CODE_COUNT; i++) {
        Buf b = {0};
        rule_explain(&b, &rule_table[i]);
        printf("\n## %s\n\n```text\n%s```\n", rule_table[i].name, b.p);
        buf_free(&b);
    }
}

static int cmd_rules(int argc, char **argv)
{
    bool all = argc == 1 && !strcmp(argv[0], "--all"), md = argc == 1 && !strcmp(argv[0], "--markdown");
    if (argc > 0 && !all && !md)
        die_usage("rules takes no arguments but --all or --markdown");
    if (md) {
        rules_markdown();
        return EXIT_OK;
    }
    for (int i = 0; i < (all ? CODE_COUNT : RULE_COUNT); i++) {
        const RuleInfo *r = &rule_table[i];
        printf("%-40s %-9s %-7s %s\n", r->name, rule_class_name(r->cls), severity_name(r->sev),
               r->source ? r->source : "segc");
    }
    return EXIT_OK;
}

static int cmd_explain(int argc, char **argv)
{
    if (argc != 1)
        die_usage("explain takes one rule or code name (segc rules --all lists them)");
    int id = code_by_name(argv[0]);
    if (id < 0) {
        const char *near = rule_closest(argv[0]);
        die_usage("no rule or code named '%s'%s%s%s", argv[0], near ? "; did you mean '" : "", near ? near : "",
                  near ? "'?" : "");
    }
    Buf b = {0};
    rule_explain(&b, &rule_table[id]);
    fwrite(b.p, 1, b.len, stdout);
    buf_free(&b);
    return EXIT_OK;
}

/* Load, resolve, check; only a valid spec is dumped: its model as JSON,
 * or (--yaml) the spec itself with its extends chain merged. */
static int cmd_dump(Options *o)
{
    if (o->json && o->yaml)
        die_usage("dump takes --json or --yaml, not both");
    const char *path = o->files[0];
    Checked ck;
    Spec *s = check_spec(o, path, NULL, &ck, NULL);
    int rc = report_spec(o, path, &ck);
    if (rc == EXIT_OK) {
        Buf b = {0};
        if (o->yaml)
            dump_yaml(&b, &ck.src, &o->resolve);
        else
            dump_json(&b, s);
        fwrite(b.p, 1, b.len, stdout);
        buf_free(&b);
    }
    arena_free(ck.a);
    return rc;
}

/* The language server: the pipeline of `check`, run on an editor's text. */
static int cmd_lsp(Options *o)
{
    if (o->nfiles)
        die_usage("lsp takes no FILE: the editor sends the documents");
    FILE *log = o->log ? os_fopen(o->log, "ab") : NULL;
    if (o->log && !log) {
        fprintf(stderr, "segc: --log %s: %s\n", o->log, strerror(errno));
        return EXIT_USAGE;
    }
    int rc = lsp_serve(stdin, stdout, log, &o->resolve, &o->rules);
    if (log)
        fclose(log);
    return rc;
}

static const Command commands[] = {
    {"check", "FILE...", "validate specs (many files in one process)", usage_check,
     OPT_BATCH | OPT_DDI | OPT_DIAGNOSTICS | OPT_DOC | OPT_TEXT | OPT_VERBOSE, cmd_check, NULL},
    {"build", "SPEC -o DIR", "validate, then write <name>_segments.[ch] and segc_dxgk.h", usage_build,
     OPT_SPEC | OPT_OUT | OPT_BUILD | OPT_DEPS | OPT_DDI | OPT_DIAGNOSTICS | OPT_DOC | OPT_TEXT | OPT_VERBOSE, cmd_build, NULL},
    {"diff", "OLD NEW", "what changed, and whether it breaks a driver built from OLD", usage_diff,
     OPT_DIFF | OPT_DIAGNOSTICS | OPT_TEXT, cmd_diff, NULL},
    {"map", "SPEC -o FILE", "draw the memory map as FILE.svg or FILE.html, or tabulate it as FILE.md", usage_map,
     OPT_SPEC | OPT_OUT | OPT_DIAGNOSTICS | OPT_TEXT | OPT_VERBOSE, cmd_map, NULL},
    {"rules", "[--all | --markdown]", "list every rule with its class and severity", usage_rules, 0, NULL, cmd_rules},
    {"explain", "CODE", "print a rule (its class, WDDM source and fix) or a code", usage_explain, 0, NULL, cmd_explain},
    {"dump", "[--yaml] SPEC", "print the resolved model as JSON, or the spec, extends merged", usage_dump,
     OPT_SPEC | OPT_JSON | OPT_TEXT, cmd_dump, NULL},
    {"lsp", "", "a language server for editors (LSP over stdio)", usage_lsp, OPT_DDI | OPT_LSP, cmd_lsp, NULL},
};

static void main_usage(FILE *f)
{
    fputs(usage_head, f);
    int width = 0; /* of the longest command and synopsis */
    for (size_t i = 0; i < countof(commands); i++) {
        int n = (int)(strlen(commands[i].name) + 1 + strlen(commands[i].synopsis));
        width = n > width ? n : width;
    }
    for (size_t i = 0; i < countof(commands); i++) {
        char line[64];
        snprintf(line, sizeof line, "%s %s", commands[i].name, commands[i].synopsis);
        fprintf(f, "  %-*s  %s\n", width, line, commands[i].summary);
    }
    fputs(usage_tail, f);
}

int main(int argc, char **argv)
{
    Failure top;
    CATCH_FAILURES(&top);
    os_init(&argc, &argv);
    if (argc < 2) {
        main_usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    bool help = !strcmp(cmd, "help") && argc > 2; /* segc help COMMAND: COMMAND's --help */
    if (help)
        cmd = argv[2];
    if (is_help(cmd) || !strcmp(cmd, "help")) {
        main_usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("segc %s (spec format %d)\n", SEGC_VERSION, SEGC_FORMAT_VERSION);
        return EXIT_OK;
    }
    const Command *c = BY_NAME(commands, countof(commands), cmd);
    if (c)
        return help ? run_command(c, 1, (char *[]){"--help"}) : run_command(c, argc - 2, argv + 2);
    const char *cmds[countof(commands) + 1] = {[countof(commands)] = "help"}; /* for did-you-mean */
    for (size_t i = 0; i < countof(commands); i++)
        cmds[i] = commands[i].name;
    const char *near = closest_name(cmd, cmds, countof(cmds));
    die_usage("unknown command '%s'%s%s%s", cmd, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}
