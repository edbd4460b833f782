/* SPDX-License-Identifier: MIT */
/* fuzz_lsp.c - libFuzzer target: `segc lsp`'s message reader and dispatcher.
 *
 * The input is the byte stream an editor would write to the server's
 * standard input: LSP messages (headers, a blank line, a JSON body), read
 * by lsp_serve through fmemopen (glibc; this target is Linux only).  The
 * server's output goes to /dev/null, opened once; its log too, so the
 * logging path sees hostile bodies as well.  Documents the stream opens
 * are run through the whole check pipeline, as the editor's would be.
 *
 * The seeds (tests/fuzz/lsp/) open documents under file:///segc-fuzz/, a
 * directory that does not exist, so an `extends:` between two of them is
 * read from the open documents, never from the disk. */
#include "segc.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;
static RuleConfig rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* `extends: /dev/stdin` must not wait for a terminal. */
    if (!freopen("/dev/null", "r", stdin) || !(devnull = fopen("/dev/null", "w")))
        abort();
    rules_default(&rules);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Failure top; /* an internal error aborts: a crash to report */
    CATCH_FAILURES(&top);
    if (size == 0 || size > 1 << 20)
        return 0;
    /* Mode "r": fmemopen only reads the buffer, the cast drops no write. */
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    ResolveOpts ro = {0};
    int rc = lsp_serve(in, devnull, devnull, &ro, &rules);
    /* 0 after a shutdown request, else 1: nothing else. */
    if (rc != 0 && rc != 1)
        abort();
    fclose(in);
    return 0;
}
