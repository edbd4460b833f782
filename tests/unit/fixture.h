/* SPDX-License-Identifier: MIT */
/* fixture.h - what the unit tests share (defined in runner.c).
 *
 * A test case made with fixture_tcase() gets, for each of its tests, a
 * fresh arena A and a diagnostics list D in it, made before the test and
 * freed after it, in the test's own process (a Check "checked" fixture).
 * A suite that needs more per test adds its own fixture after this one:
 * Check runs them in the order they were added. */
#ifndef SEGC_TEST_FIXTURE_H
#define SEGC_TEST_FIXTURE_H

#include <check.h>

#include "segc.h"

extern Arena *A;
extern Diags D;

/* tcase_create(name) with the arena fixture added. */
TCase *fixture_tcase(const char *name);

#endif
