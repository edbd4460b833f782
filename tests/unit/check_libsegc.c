/* SPDX-License-Identifier: MIT */
/* check_libsegc.c - libsegc's options and results (compiler/libsegc.h), in
 * the process: an option refused leaves the context as it was and says
 * why, one accepted changes what a check finds, a reset forgets them, a
 * context's calls reuse the memory the last ones freed, and running out
 * of memory is a failed call, not a failed program.  (tests/api runs the
 * installed library from C and Python against the command line.) */
#include "libsegc.h"
#include "segc.h"

#include <check.h>
#include <string.h>

/* A memory segment marked cache-coherent: valid, with one advisory
 * (cache-coherent-memory, a warning), which -Werror makes an error. */
static const char SPEC[] = "segc: 1\n"
                           "board: { name: t, wddm: \"1.3\" }\n"
                           "segments:\n"
                           "  - name: local\n"
                           "    kind: memory\n"
                           "    size: 8KiB\n"
                           "    flags: [cache_coherent]\n";

static segc_status status_with(const char *const *argv, int argc, int *opt_rc, size_t *ndiag)
{
    segc_context *ctx = segc_context_new();
    ck_assert_ptr_nonnull(ctx);
    *opt_rc = segc_context_options(ctx, argc, argv);
    segc_result *r = segc_check(ctx, "t.yaml", SPEC, strlen(SPEC));
    ck_assert_ptr_nonnull(r);
    segc_status s = segc_result_status(r);
    *ndiag = segc_result_diagnostics(r);
    segc_result_free(r);
    segc_context_free(ctx);
    return s;
}

START_TEST(options_accepted)
{
    int rc;
    size_t n;
    ck_assert_int_eq(status_with(NULL, 0, &rc, &n), 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(n, 1); /* the advisory */
    const char *werror[] = {"-Werror"};
    ck_assert_int_eq(status_with(werror, 1, &rc, &n), 1);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(n, 1);
}
END_TEST

/* A refused option: -1, a reason, and the options set before it stay. */
START_TEST(options_refused)
{
    static const char *const bad[][2] = {{"--no-such-option", NULL}, {"-o", "out"}, {"--ddi", "qs9"},
                                         {"-Wno-size-nonzero", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        segc_context *ctx = segc_context_new();
        const char *werror[] = {"-Werror"};
        ck_assert_int_eq(segc_context_options(ctx, 1, werror), 0);
        ck_assert_str_eq(segc_context_error(ctx), "");
        ck_assert_msg(segc_context_options(ctx, bad[i][1] ? 2 : 1, bad[i]) == -1, "%s accepted", bad[i][0]);
        ck_assert_msg(*segc_context_error(ctx), "%s refused without a reason", bad[i][0]);
        segc_result *r = segc_check(ctx, "t.yaml", SPEC, strlen(SPEC));
        ck_assert_int_eq(segc_result_status(r), 1); /* -Werror still set */
        segc_result_free(r);
        segc_context_free(ctx);
    }
}
END_TEST

/* A base spec only in directory "inc-a", found by the path segc asks for. */
static const char *read_base(void *user, const char *path, size_t *len)
{
    static const char base[] = "segc: 1\n"
                               "board: { name: t, wddm: \"1.3\" }\n"
                               "segments:\n"
                               "  - { name: local, kind: memory, size: 8KiB }\n";
    (void)user;
    if (strcmp(path, "inc-a/base.yaml"))
        return NULL;
    *len = strlen(base);
    return base;
}

/* Each call adds to the options: an -I of the first call is searched
 * after a second call added another. */
START_TEST(options_add_up)
{
    static const char variant[] = "segc: 1\nextends: base.yaml\n";
    segc_context *ctx = segc_context_new();
    segc_context_extends(ctx, read_base, NULL);
    const char *a[] = {"-I", "inc-a"}, *b[] = {"-Iinc-b"};
    ck_assert_int_eq(segc_context_options(ctx, 2, a), 0);
    ck_assert_int_eq(segc_context_options(ctx, 1, b), 0);
    segc_result *r = segc_check(ctx, "t.yaml", variant, strlen(variant));
    ck_assert_ptr_nonnull(r);
    ck_assert_msg(segc_result_status(r) == 0, "%s",
                  segc_result_diagnostics(r) ? segc_diagnostic_message(segc_result_diagnostic(r, 0)) : "?");
    segc_result_free(r);
    segc_context_free(ctx);
}
END_TEST

static segc_status check_status(segc_context *ctx, const char *text, size_t *ndiag)
{
    segc_result *r = segc_check(ctx, "t.yaml", text, strlen(text));
    ck_assert_ptr_nonnull(r);
    segc_status s = segc_result_status(r);
    *ndiag = segc_result_diagnostics(r);
    segc_result_free(r);
    return s;
}

/* A reset context is a new one: the options and the extends reader set
 * before are gone, and a result made before it outlives it and the
 * context. */
START_TEST(reset_forgets)
{
    static const char variant[] = "segc: 1\nextends: base.yaml\n";
    const char *werror[] = {"-Werror", "-I", "inc-a"};
    segc_context *ctx = segc_context_new();
    segc_context_extends(ctx, read_base, NULL);
    ck_assert_int_eq(segc_context_options(ctx, 3, werror), 0);
    size_t n;
    ck_assert_int_eq(check_status(ctx, SPEC, &n), 1);
    ck_assert_int_eq(check_status(ctx, variant, &n), 0);
    segc_result *before = segc_check(ctx, "t.yaml", SPEC, strlen(SPEC));
    const char *bad[] = {"--no-such-option"};
    ck_assert_int_eq(segc_context_options(ctx, 1, bad), -1);
    ck_assert_int_eq(segc_context_reset(ctx), 0);
    ck_assert_str_eq(segc_context_error(ctx), ""); /* the last call, the reset, did not fail */
    ck_assert_int_eq(check_status(ctx, SPEC, &n), 0); /* no -Werror */
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(check_status(ctx, variant, &n), 1); /* no reader, no -I: the base is not found */
    ck_assert_int_eq(segc_context_reset(NULL), -1);
    segc_context_free(ctx);
    ck_assert_str_eq(segc_diagnostic_code(segc_result_diagnostic(before, 0)), "cache-coherent-memory");
    segc_result_free(before);
}
END_TEST

/* A chunk one arena of a pool freed is the next one's, and a pool lives
 * while an arena drawn from it does. */
START_TEST(pool_reuses)
{
    ChunkPool *p = pool_new();
    Arena *a = arena_new_in(p);
    char *first = arena_strdup(a, "first");
    arena_free(a);
    a = arena_new_in(p);
    ck_assert_ptr_eq(arena_alloc(a, 8), first);
    pool_drop(p); /* a still holds it */
    ck_assert_str_eq(arena_strdup(a, "after"), "after");
    arena_free(a);
}
END_TEST

/* realloc as this program's libsegc calls it (the unit tests are linked
 * with -Wl,--wrap=realloc, and every allocation of segc's goes through
 * xrealloc): it fails when `fail_in` counts down to 0, so that a test can
 * run out of memory at each allocation in turn. */
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
static long fail_in = -1;
static unsigned long reallocs; /* calls so far */

void *__wrap_realloc(void *p, size_t n)
{
    reallocs++;
    if (fail_in >= 0 && fail_in-- == 0)
        return NULL;
    return __real_realloc(p, n);
}

/* The allocations a check of SPEC on ctx makes. */
static unsigned long check_allocs(segc_context *ctx)
{
    size_t n;
    unsigned long before = reallocs;
    ck_assert_int_eq(check_status(ctx, SPEC, &n), 0);
    return reallocs - before;
}

/* A context's next check takes the chunks its last one freed, after a
 * reset too; a new context starts with none. */
START_TEST(context_reuses)
{
    segc_context *ctx = segc_context_new();
    unsigned long first = check_allocs(ctx);
    ck_assert_uint_lt(check_allocs(ctx), first);
    ck_assert_int_eq(segc_context_reset(ctx), 0);
    ck_assert_uint_lt(check_allocs(ctx), first);
    segc_context_free(ctx);
    ctx = segc_context_new();
    ck_assert_uint_eq(check_allocs(ctx), first);
    segc_context_free(ctx);
}
END_TEST

/* A call that runs out of memory may lose what it had taken outside its
 * result (libsegc.h): the leak check looks away while it runs. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define MAY_LOSE(stmt) (__lsan_disable(), (stmt), __lsan_enable())
#else
#define MAY_LOSE(stmt) (stmt)
#endif

/* Whether the allocations since fail_in was set to k reached the k-th. */
static int ran_out(void)
{
    int hit = fail_in < 0;
    fail_in = -1;
    return hit;
}

/* Out of memory at each allocation of segc_context_new, then of
 * segc_context_reset, then of segc_check: NULL or -1, with the reason.
 * The first two keep nothing (the sanitizers' leak check); a context made
 * or reset once memory is back checks as a new one does, and one whose
 * check ran out checks again. */
START_TEST(out_of_memory)
{
    size_t n;
    segc_context *ctx;
    long k = 0;
    for (;; k++) {
        fail_in = k;
        ctx = segc_context_new();
        if (!ran_out())
            break;
        ck_assert_ptr_null(ctx);
    }
    ck_assert_int_gt(k, 0);
    ck_assert_int_eq(check_status(ctx, SPEC, &n), 0);
    const char *werror[] = {"-Werror"};
    for (k = 0;; k++) {
        ck_assert_int_eq(segc_context_options(ctx, 1, werror), 0);
        fail_in = k;
        int rc = segc_context_reset(ctx);
        if (!ran_out()) {
            ck_assert_int_eq(rc, 0);
            break;
        }
        ck_assert_int_eq(rc, -1);
        ck_assert_str_eq(segc_context_error(ctx), "out of memory");
        segc_context_free(ctx); /* all that may follow */
        ctx = segc_context_new();
    }
    ck_assert_int_gt(k, 0);
    ck_assert_int_eq(check_status(ctx, SPEC, &n), 0); /* -Werror forgotten */
    for (k = 0;; k++) {
        fail_in = k;
        segc_result *r;
        MAY_LOSE(r = segc_check(ctx, "t.yaml", SPEC, strlen(SPEC)));
        if (!ran_out()) {
            segc_result_free(r);
            break;
        }
        ck_assert_ptr_null(r);
        ck_assert_str_eq(segc_context_error(ctx), "out of memory");
        ck_assert_int_eq(check_status(ctx, SPEC, &n), 0); /* the context stays usable */
    }
    ck_assert_int_gt(k, 0);
    segc_context_free(ctx);
}
END_TEST

Suite *libsegc_suite(void)
{
    Suite *s = suite_create("libsegc");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, options_accepted);
    tcase_add_test(tc, options_refused);
    tcase_add_test(tc, options_add_up);
    tcase_add_test(tc, reset_forgets);
    tcase_add_test(tc, pool_reuses);
    tcase_add_test(tc, out_of_memory);
    tcase_add_test(tc, context_reuses);
    suite_add_tcase(s, tc);
    return s;
}
