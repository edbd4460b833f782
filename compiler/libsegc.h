/* SPDX-License-Identifier: MIT */
/*
 * libsegc.h - segc as a library: check a spec, resolve it to its model, or
 * build its C files, all in memory.
 *
 *   segc_context *ctx = segc_context_new();
 *   segc_context_options(ctx, 2, (const char *[]){"-D", "vram=8GiB"});
 *   segc_result *r = segc_check(ctx, "board.yaml", text, len);
 *   for (size_t i = 0; i < segc_result_diagnostics(r); i++) {
 *       const segc_diagnostic *g = segc_result_diagnostic(r, i);
 *       printf("%s:%u:%u: %s\n", segc_diagnostic_file(g), segc_diagnostic_line(g),
 *              segc_diagnostic_column(g), segc_diagnostic_message(g));
 *   }
 *   segc_result_free(r);
 *   segc_context_free(ctx);
 *
 * A context holds options, and memory its calls freed for its next ones;
 * each call makes a result that owns everything it returns (free it with
 * segc_result_free, in any order, on any thread).  Contexts share
 * nothing: use one per thread, or one at a time.
 * The library keeps no global state, prints nothing and never exits.
 *
 * Out of memory, and an internal error (a bug in segc that the command line
 * reports with file and line and aborts on), make the call return NULL
 * with the reason in segc_context_error; memory the failed call had taken
 * outside its result may be lost.  The context stays usable.
 *
 * What a diagnostic, the model and the files are is what the command line
 * prints and writes: doc/diagnostics.md (the JSON document's diagnostics),
 * doc/model.md (`segc dump --json`), `segc build`'s files.
 */
#ifndef LIBSEGC_H
#define LIBSEGC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct segc_context segc_context;
typedef struct segc_result segc_result;
typedef struct segc_diagnostic segc_diagnostic;

/* A result's status: what `segc check` would exit with for the spec. */
typedef enum segc_status {
    SEGC_VALID = 0,      /* no error (warnings allowed); a build's files are there */
    SEGC_INVALID = 1,    /* an error: the spec breaks a rule or is no spec */
    SEGC_UNREADABLE = 2, /* a fatal diagnostic: a file that cannot be read (a base
                          * that cannot be read is an error at its extends: line) */
} segc_status;

typedef enum segc_severity {
    SEGC_NOTE = 0,
    SEGC_WARNING = 1,
    SEGC_ERROR = 2,
    SEGC_FATAL = 3, /* a file that cannot be read */
} segc_severity;

/* "note", "warning", "error", "fatal": as segc's JSON says a severity. */
const char *segc_severity_name(segc_severity s);

/* segc's version ("0.1.0") and the spec format it reads (1). */
const char *segc_version(void);
int segc_format_version(void);

/* A new context with the command line's defaults; NULL: out of memory. */
segc_context *segc_context_new(void);
void segc_context_free(segc_context *ctx);

/* Options as `segc check` and `segc build` take them on the command line:
 * -D NAME=EXPR, -I DIR, -W..., --ddi LIST, --templates DIR, --annotate,
 * --emit-selftest, --lookup-budget SIZE (separate or attached values, as
 * there).  Each call adds to the options set so far.  Options about the
 * terminal or about files to write (-o, -MD, --color, -j...) are refused.
 * 0, or -1 with the reason in segc_context_error (nothing is changed). */
int segc_context_options(segc_context *ctx, int argc, const char *const *argv);

/* Forgets the options and the extends reader set so far: the context is
 * as segc_context_new made it, except that it keeps memory its calls
 * freed for its next ones.  A flow that checks many specs,
 * each with options of its own, runs faster on one context reset between
 * them than on a new context each.  0, or -1 (out of memory: only
 * segc_context_free may follow). */
int segc_context_reset(segc_context *ctx);

/* Where the files a spec extends come from: `read` is asked for each path
 * segc would read (relative to the including file, then each -I
 * directory, as the command line looks) and returns its text, `*len`
 * bytes, which segc copies; NULL: read the file from the disk.  NULL
 * `read`: the disk only (the default).  It is called on the thread that
 * checks, while it checks. */
typedef const char *segc_read_fn(void *user, const char *path, size_t *len);
void segc_context_extends(segc_context *ctx, segc_read_fn *read, void *user);

/* Why the last call on `ctx` failed ("" if it did not). */
const char *segc_context_error(const segc_context *ctx);

/* The spec `len` bytes of `text` hold, named `name` (the file name its
 * diagnostics carry and its `extends` are relative to), through segc
 * check, segc build or segc dump --json.  A build or a model of a spec
 * that is not valid has its diagnostics and no files or model.  NULL: out
 * of memory or an internal error (segc_context_error). */
segc_result *segc_check(segc_context *ctx, const char *name, const char *text, size_t len);
segc_result *segc_build(segc_context *ctx, const char *name, const char *text, size_t len);
segc_result *segc_model(segc_context *ctx, const char *name, const char *text, size_t len);
void segc_result_free(segc_result *r);

segc_status segc_result_status(const segc_result *r);

/* The diagnostics, sorted by file, line and column, as segc check prints
 * them; each owned by its result. */
size_t segc_result_diagnostics(const segc_result *r);
const segc_diagnostic *segc_result_diagnostic(const segc_result *r, size_t i);

/* The code ("agp-exclusive", "yaml-syntax"; NULL for a note), severity,
 * file (NULL: none), 1-based line and column (column counted in bytes; 0
 * when about a whole file or none), the line and column after its span
 * (end_line is line), message, and fix (NULL: none) of a diagnostic. */
const char *segc_diagnostic_code(const segc_diagnostic *g);
segc_severity segc_diagnostic_severity(const segc_diagnostic *g);
const char *segc_diagnostic_file(const segc_diagnostic *g);
unsigned segc_diagnostic_line(const segc_diagnostic *g);
unsigned segc_diagnostic_column(const segc_diagnostic *g);
unsigned segc_diagnostic_end_column(const segc_diagnostic *g);
const char *segc_diagnostic_message(const segc_diagnostic *g);
const char *segc_diagnostic_fix(const segc_diagnostic *g);
/* Its notes: diagnostics of severity SEGC_NOTE with no code, fix or notes. */
size_t segc_diagnostic_notes(const segc_diagnostic *g);
const segc_diagnostic *segc_diagnostic_note(const segc_diagnostic *g, size_t i);

/* segc_build's files, in the order segc build writes them: name (inside
 * the output directory) and bytes. */
size_t segc_result_files(const segc_result *r);
const char *segc_result_file_name(const segc_result *r, size_t i);
const char *segc_result_file_data(const segc_result *r, size_t i, size_t *len);

/* segc_model's model: the JSON document segc dump --json prints
 * (NUL-terminated), or NULL. */
const char *segc_result_model(const segc_result *r, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
