/* SPDX-License-Identifier: MIT */
/* fuzz_pipeline.c - libFuzzer target: the whole segc pipeline in memory.
 *
 * The input is a spec.  It goes through spec_from_string, spec_check and,
 * if it is valid, emit_render into memory buffers.  Nothing is written to
 * disk.  Every diagnostic is also printed (to a memory stream) so the
 * caret-line code sees hostile text as well.
 *
 * The spec is named tests/fuzz/in.yaml, so a relative `extends:` resolves
 * inside tests/fuzz/ (base.yaml is there) when the fuzzer runs from the
 * repository root, as `make fuzz` does. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* `extends: /dev/stdin` must not wait for a terminal. */
    if (!freopen("/dev/null", "r", stdin))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Failure top; /* an internal error aborts: a crash to report */
    CATCH_FAILURES(&top);
    if (size > 1 << 20)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;

    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    Spec *s = spec_from_string(a, "tests/fuzz/in.yaml", text, NULL, &d);
    if (s) {
        RuleConfig rc;
        rules_default(&rc);
        spec_check(s, &rc, &d, NULL);
        if (!diags_failed(&d)) {
            Outputs out = {0};
            Lookup lk;
            /* The input's own bits pick the options, so every path runs:
             * annotations, the self-test, and small lookup budgets. */
            BuildOpts bo = {.outdir = "fuzz-out",
                            .annotate = s->nsegs & 1,
                            .emit_selftest = (size & 2) != 0,
                            .lookup_budget = (size & 4) ? 64 : 0};
            /* What check accepts, build builds: a valid spec renders to
             * non-empty C, whatever rules were off. */
            if (!emit_preconditions(a, s, &d))
                abort();
            if (!emit_render(a, s, &bo, &lk, &out, &d))
                abort();
            if (out.n != 3u + bo.emit_selftest || out.files[0].text.len == 0 || out.files[1].text.len == 0)
                abort();
            outputs_free(&out);
        }
    } else if (!diags_failed(&d)) {
        abort(); /* no spec and no error */
    }
    diags_sort(&d);
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = open_memstream(&mem, &memlen);
    if (f) {
        diags_print_text(f, &d, (DiagStyle){.color = size & 1});
        fclose(f);
        free(mem);
    }
    arena_free(a);
    free(text);
    return 0;
}
