/* SPDX-License-Identifier: MIT */
/* runner.c - runs every Check suite in tests/unit (collected into
 * suites.h by the Makefile from each file's `Suite *x_suite(void)`). */
#include "segc.h"

#include <check.h>
#include <stdlib.h>

#define SUITE(f) Suite *f(void);
#include "suites.h"
#undef SUITE

int main(void)
{
    /* An internal error in a test aborts it (in the process Check forks
     * for it, which goes back here first), as segc does. */
    Failure top;
    CATCH_FAILURES(&top);
    SRunner *sr = srunner_create(NULL);
#define SUITE(f) srunner_add_suite(sr, f());
#include "suites.h"
#undef SUITE
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
