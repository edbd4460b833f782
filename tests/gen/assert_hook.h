/* SPDX-License-Identifier: MIT */
/* Forced into the generated .c by tests/gen/code.sh (-include): SEGC_ASSERT
 * mapped to a counter, as a driver maps it to its own assertion. */
#ifndef SEGC_ASSERT_HOOK_H
#define SEGC_ASSERT_HOOK_H
void segc_assert_failed(const char *what);
#define SEGC_ASSERT(e) ((e) ? (void)0 : segc_assert_failed(#e))
#endif
