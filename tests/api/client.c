/* SPDX-License-Identifier: MIT */
/* client.c - a program of libsegc's, built against an installed copy with
 * `pkg-config --cflags --libs libsegc` (tests/api/run.sh), that uses only
 * libsegc.h.  Every spec is read into memory first: the library is given
 * text, never a path to open.
 *
 *   client check SPEC [OPTION...]   the diagnostics, one line each (below),
 *                                   exit status the result's status
 *   client build SPEC DIR [OPTION...]
 *                                   the same, and the files in DIR
 *   client model SPEC               the model (segc dump --json)
 *   client extends BASE VARIANT     VARIANT checked with its `extends:`
 *                                   answered from memory (BASE's text),
 *                                   and then with a reader that knows no
 *                                   file: the files are read from disk
 *   client threads SPEC...          each SPEC checked on its own, then
 *                                   all at once, one thread and context
 *                                   each, many times (a result freed after
 *                                   the next call, the context reset now
 *                                   and then): "same" or what differs
 *   client refuse OPTION...         the options refused, the reason, and
 *                                   the context still checks
 *
 * A diagnostic line: FILE:LINE:COL-END: SEVERITY: [CODE] MESSAGE, then
 * "  fix: FIX" and "  note: FILE:LINE:COL: MESSAGE" lines. */
#include <libsegc.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Text {
    char *p;
    size_t len, cap;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        if (!t->p)
            abort();
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    Text t = {0};
    char buf[65536];
    size_t n;
    put(&t, "%s", "");
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (t.len + n + 1 > t.cap && !(t.p = realloc(t.p, t.cap = (t.len + n + 1) * 2)))
            abort();
        memcpy(t.p + t.len, buf, n);
        t.len += n;
    }
    fclose(f);
    *len = t.len;
    return t.p;
}

static void show(Text *t, const segc_diagnostic *g, const char *indent)
{
    const char *file = segc_diagnostic_file(g);
    if (*indent)
        put(t, "%snote: ", indent);
    put(t, "%s:%u:%u-%u: ", file ? file : "-", segc_diagnostic_line(g), segc_diagnostic_column(g),
        segc_diagnostic_end_column(g));
    if (!*indent)
        put(t, "%s: [%s] ", segc_severity_name(segc_diagnostic_severity(g)), segc_diagnostic_code(g));
    put(t, "%s\n", segc_diagnostic_message(g));
}

/* A result's status and diagnostics as text. */
static void render(Text *t, const segc_result *r)
{
    put(t, "status %d\n", (int)segc_result_status(r));
    for (size_t i = 0; i < segc_result_diagnostics(r); i++) {
        const segc_diagnostic *g = segc_result_diagnostic(r, i);
        show(t, g, "");
        if (segc_diagnostic_fix(g))
            put(t, "  fix: %s\n", segc_diagnostic_fix(g));
        for (size_t j = 0; j < segc_diagnostic_notes(g); j++)
            show(t, segc_diagnostic_note(g, j), "  ");
    }
}

static segc_context *context(int argc, char **argv)
{
    segc_context *ctx = segc_context_new();
    if (!ctx || segc_context_options(ctx, argc, (const char *const *)argv)) {
        fprintf(stderr, "client: %s\n", ctx ? segc_context_error(ctx) : "out of memory");
        exit(2);
    }
    return ctx;
}

static segc_result *must(segc_context *ctx, segc_result *r)
{
    if (!r) {
        fprintf(stderr, "client: %s\n", segc_context_error(ctx));
        exit(2);
    }
    return r;
}

static int finish(segc_context *ctx, segc_result *r, Text *t)
{
    fwrite(t->p, 1, t->len, stdout);
    free(t->p);
    int st = (int)segc_result_status(r);
    segc_result_free(r);
    segc_context_free(ctx);
    return st;
}

static int do_check(int argc, char **argv)
{
    size_t len;
    char *text = slurp(argv[0], &len);
    segc_context *ctx = context(argc - 1, argv + 1);
    segc_result *r = must(ctx, segc_check(ctx, argv[0], text, len));
    free(text);
    Text t = {0};
    render(&t, r);
    return finish(ctx, r, &t);
}

static int do_build(int argc, char **argv)
{
    size_t len;
    char *text = slurp(argv[0], &len);
    segc_context *ctx = context(argc - 2, argv + 2);
    segc_result *r = must(ctx, segc_build(ctx, argv[0], text, len));
    free(text);
    Text t = {0};
    render(&t, r);
    for (size_t i = 0; i < segc_result_files(r); i++) {
        size_t n;
        const char *data = segc_result_file_data(r, i, &n);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], segc_result_file_name(r, i));
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
            perror(path);
            return 2;
        }
        put(&t, "wrote %s\n", segc_result_file_name(r, i));
    }
    return finish(ctx, r, &t);
}

static int do_model(char **argv)
{
    size_t len;
    char *text = slurp(argv[0], &len);
    segc_context *ctx = context(0, NULL);
    segc_result *r = must(ctx, segc_model(ctx, argv[0], text, len));
    free(text);
    Text t = {0};
    size_t n = 0;
    const char *m = segc_result_model(r, &n);
    if (m)
        put(&t, "%.*s", (int)n, m);
    else
        render(&t, r);
    return finish(ctx, r, &t);
}

typedef struct Base {
    const char *name, *text;
    size_t len;
    unsigned asked;
} Base;

static const char *read_base(void *user, const char *path, size_t *len)
{
    Base *b = user;
    const char *slash = strrchr(path, '/');
    if (strcmp(slash ? slash + 1 : path, b->name))
        return NULL;
    b->asked++;
    *len = b->len;
    return b->text;
}

/* BASE (argv[0]) from memory, under a name no file has. */
static int do_extends(char **argv)
{
    size_t blen, vlen;
    char *base = slurp(argv[0], &blen), *variant = slurp(argv[1], &vlen);
    const char *slash = strrchr(argv[0], '/');
    Base b = {slash ? slash + 1 : argv[0], base, blen, 0};
    segc_context *ctx = context(0, NULL);
    segc_context_extends(ctx, read_base, &b);
    /* The variant under a name in a directory that does not exist: the
     * base can come only from the reader. */
    segc_result *r = must(ctx, segc_check(ctx, "/nonexistent/variant.yaml", variant, vlen));
    Text t = {0};
    put(&t, "from memory (asked %u):\n", b.asked);
    render(&t, r);
    segc_result_free(r);
    /* No reader: the disk (the variant's own directory). */
    segc_context_extends(ctx, NULL, NULL);
    r = must(ctx, segc_check(ctx, argv[1], variant, vlen));
    put(&t, "from disk:\n");
    render(&t, r);
    free(base);
    free(variant);
    return finish(ctx, r, &t);
}

typedef struct Job {
    const char *name;
    char *text;
    size_t len;
    Text alone;
    unsigned differ;
} Job;

enum { ROUNDS = 40 };

static void *run_job(void *p)
{
    Job *j = p;
    segc_context *ctx = context(0, NULL);
    segc_result *last = NULL; /* freed after the next call, the last after the context */
    for (unsigned i = 0; i < ROUNDS; i++) {
        if (i % 10 == 9 && segc_context_reset(ctx))
            j->differ++;
        segc_result *r = must(ctx, (i & 1 ? segc_build : segc_check)(ctx, j->name, j->text, j->len));
        Text t = {0};
        render(&t, r);
        if (t.len != j->alone.len || memcmp(t.p, j->alone.p, t.len))
            j->differ++;
        free(t.p);
        segc_result_free(last);
        last = r;
    }
    segc_context_free(ctx);
    segc_result_free(last);
    return NULL;
}

static int do_threads(int argc, char **argv)
{
    Job *jobs = calloc((size_t)argc, sizeof *jobs);
    pthread_t *th = calloc((size_t)argc, sizeof *th);
    segc_context *ctx = context(0, NULL);
    for (int i = 0; i < argc; i++) {
        Job *j = &jobs[i];
        j->name = argv[i];
        j->text = slurp(argv[i], &j->len);
        segc_result *r = must(ctx, segc_check(ctx, j->name, j->text, j->len));
        render(&j->alone, r);
        segc_result_free(r);
    }
    segc_context_free(ctx);
    for (int i = 0; i < argc; i++)
        if (pthread_create(&th[i], NULL, run_job, &jobs[i]))
            return 2;
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        pthread_join(th[i], NULL);
        if (jobs[i].differ) {
            printf("%s: %u of %u runs differ from the run alone\n", jobs[i].name, jobs[i].differ, ROUNDS);
            rc = 1;
        }
        free(jobs[i].text);
        free(jobs[i].alone.p);
    }
    if (!rc)
        printf("same\n");
    free(jobs);
    free(th);
    return rc;
}

static int do_refuse(int argc, char **argv)
{
    segc_context *ctx = context(0, NULL);
    if (!segc_context_options(ctx, argc, (const char *const *)argv)) {
        printf("taken\n");
        return 1;
    }
    printf("refused: %s\n", segc_context_error(ctx));
    segc_result *r = must(ctx, segc_check(ctx, "t.yaml", "segc: 1\n", 8));
    Text t = {0};
    render(&t, r);
    return finish(ctx, r, &t);
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "check") && argc > 2)
        return do_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "build") && argc > 3)
        return do_build(argc - 2, argv + 2);
    if (!strcmp(cmd, "model") && argc == 3)
        return do_model(argv + 2);
    if (!strcmp(cmd, "extends") && argc == 4)
        return do_extends(argv + 2);
    if (!strcmp(cmd, "threads") && argc > 2)
        return do_threads(argc - 2, argv + 2);
    if (!strcmp(cmd, "refuse") && argc > 2)
        return do_refuse(argc - 2, argv + 2);
    fprintf(stderr, "usage: client check|build|model|extends|threads|refuse ...\n");
    return 2;
}
