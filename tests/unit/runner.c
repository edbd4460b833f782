/* SPDX-License-Identifier: MIT */
/* runner.c - runs every Check suite in tests/unit (collected into
 * suites.h by the Makefile from each file's `Suite *x_suite(void)`), and
 * the fixture they share (fixture.h). */
#include <check.h>
#include <stdlib.h>

#include "fixture.h"

Arena *A;
Diags D;

static void arena_setup(void)
{
    A = arena_new();
    diags_init(&D, A);
}

static void arena_teardown(void)
{
    arena_free(A);
    A = NULL;
}

TCase *fixture_tcase(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, arena_setup, arena_teardown);
    return tc;
}

#define SUITE(f) Suite *f(void);
#include "suites.h"
#undef SUITE

int main(void)
{
    SRunner *sr = srunner_create(NULL);
#define SUITE(f) srunner_add_suite(sr, f());
#include "suites.h"
#undef SUITE
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
