/* SPDX-License-Identifier: MIT */
/* check_libsegc.c - libsegc's options and results (compiler/libsegc.h), in
 * the process: an option refused leaves the context as it was and says
 * why, one accepted changes what a check finds, a reset forgets them, and
 * a context's calls reuse the memory the last ones freed.  (tests/api runs the
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

Suite *libsegc_suite(void)
{
    Suite *s = suite_create("libsegc");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, options_accepted);
    tcase_add_test(tc, options_refused);
    tcase_add_test(tc, options_add_up);
    tcase_add_test(tc, reset_forgets);
    tcase_add_test(tc, pool_reuses);
    suite_add_tcase(s, tc);
    return s;
}
