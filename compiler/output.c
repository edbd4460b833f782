/* SPDX-License-Identifier: MIT */
/* output.c - writing generated files without ever losing the old ones.
 *
 * A build writes every file to a temporary name beside its target first.
 * Only when all of them were written and flushed are they renamed over the
 * targets, so a failure while writing (disk full, read-only directory, a
 * signal) leaves the previous outputs as they were.  The renames follow one
 * by one; each is atomic, so a rename that fails (rare: the temporary sits
 * beside its target) leaves the files before it new and the rest old, and
 * never a file half written.  Files whose bytes did not change are not
 * touched at all, so their mtimes do not wake up make. */
#include "segc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FILES = MAX_OUTPUTS + 2, PATH_CAP = 4096 }; /* + depfile, deps list */

/* Temporaries alive right now, for the signal (or Ctrl-C) handler. */
static char temp_path[MAX_FILES][PATH_CAP];
static volatile sig_atomic_t temp_count;

static void remove_temps(void)
{
    for (sig_atomic_t i = 0; i < temp_count; i++)
        if (temp_path[i][0])
            os_remove(temp_path[i]);
    temp_count = 0;
}

/* A fatal I/O error; false, for the caller to return. */
static bool io_fail(Diags *d, const char *fmt, ...) PRINTF_LIKE(2, 3);
static bool io_fail(Diags *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, SEV_FATAL, C_io, (Pos){0}, fmt, ap);
    va_end(ap);
    return false;
}

/* mkdir -p */
static bool make_dirs(const char *dir, Diags *d)
{
    char buf[PATH_CAP];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof buf)
        return io_fail(d, "bad output directory '%s'", dir);
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (!os_is_sep(buf[i]) && buf[i] != 0)
            continue;
        char c = buf[i];
        buf[i] = 0;
        int e = os_mkdir(buf);
        /* "C:" and an existing directory are fine; anything else is not. */
        if (e && e != EEXIST && os_kind(buf) != OS_DIR)
            return io_fail(d, "cannot create directory '%s': %s", buf, strerror(e));
        buf[i] = c;
    }
    return os_kind(dir) == OS_DIR || io_fail(d, "output directory '%s' is not a directory", dir);
}

/* Does `path` already hold exactly these bytes? */
static bool same_contents(const char *path, const char *data, size_t len)
{
    FILE *f = os_fopen(path, "rb");
    if (!f)
        return false;
    char chunk[16384];
    size_t off = 0, n;
    bool same = true;
    while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        same = off + n <= len && memcmp(chunk, data + off, n) == 0;
        off += n;
    }
    same = same && !ferror(f) && off == len;
    fclose(f);
    return same;
}

typedef struct Pending {
    const char *path;
    const char *data;
    size_t len;
    bool skip;
} Pending;

static bool write_temp(Pending *p, Diags *d)
{
    OsKind k = os_kind(p->path);
    if (k != OS_MISSING && k != OS_FILE)
        return io_fail(d, "cannot write '%s': it exists and is not a regular file", p->path);
    if (same_contents(p->path, p->data, p->len)) {
        p->skip = true;
        return true;
    }
    const char *base = os_basename(p->path);
    char *slot = temp_path[temp_count];
    int n = snprintf(slot, PATH_CAP, "%.*s.%s.segc-XXXXXX", (int)(base - p->path), p->path, base);
    if (n < 0 || n >= PATH_CAP)
        return io_fail(d, "path too long: '%s'", p->path);
    /* Counted before it exists, so a signal between mkstemp and the count
     * cannot leave it behind (removing the template name is harmless). */
    temp_count++;
    int fd = os_mkstemp(slot);
    if (fd < 0) {
        temp_count--;
        return io_fail(d, "cannot create a temporary file beside '%s': %s", p->path, strerror(errno));
    }
    return os_write_durable(fd, p->data, p->len) || io_fail(d, "cannot write '%s': %s", p->path, strerror(errno));
}

/* Make-style escaping of a path in a depfile. */
static void dep_path(Buf *b, const char *p)
{
    for (; *p; p++) {
        bool sep = os_is_sep(*p) && *p != '/'; /* C:\\dir -> C:/dir, as make and ninja read it */
        if (!sep && (*p == ' ' || *p == '#' || *p == '\\'))
            buf_putc(b, '\\');
        if (*p == '$')
            buf_putc(b, '$');
        buf_putc(b, sep ? '/' : *p);
    }
}

/* Input `i` of a build: the spec, its extends chain, the hook files read. */
static const char *input_name(const Spec *s, const Outputs *out, unsigned i)
{
    return i < s->nfiles ? s->files[i]->name : out->hooks[i - s->nfiles]->name;
}

/* "TARGETS: SPEC BASE... TEMPLATE..." as gcc -MD writes it: the targets
 * are the outputs, or -MT's text as it is; -MP adds an empty rule for each
 * input, so a base that is renamed or deleted does not stop make. */
static void write_depfile(Buf *dep, const Spec *s, const BuildOpts *o, const Outputs *out, const Pending *pend)
{
    for (unsigned i = 0; !o->dep_target && i < out->n; i++) {
        if (i)
            buf_putc(dep, ' ');
        dep_path(dep, pend[i].path);
    }
    buf_printf(dep, "%s:", o->dep_target ? o->dep_target : "");
    unsigned nin = s->nfiles + out->nhooks;
    for (unsigned i = 0; i < nin; i++) {
        buf_puts(dep, " \\\n  ");
        dep_path(dep, input_name(s, out, i));
    }
    buf_putc(dep, '\n');
    for (unsigned i = 0; o->dep_phony && i < nin; i++) {
        buf_putc(dep, '\n');
        dep_path(dep, input_name(s, out, i));
        buf_puts(dep, ":\n");
    }
}

/* Writes every temporary, then, only when all are complete, renames each
 * over its target; what is left of the temporaries is removed. */
static bool commit(Pending *pend, unsigned n, Diags *d, FILE *verbose)
{
    os_guard(remove_temps);
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++)
        ok = write_temp(&pend[i], d);
    unsigned t = 0;
    for (unsigned i = 0; i < n && ok; i++) {
        if (!pend[i].skip) {
            if (!(ok = os_replace(temp_path[t], pend[i].path))) {
                io_fail(d, "cannot replace '%s': %s", pend[i].path, strerror(errno));
                break;
            }
            temp_path[t++][0] = 0; /* renamed: nothing to remove */
        }
        if (verbose)
            fprintf(verbose, "%-9s %s\n", pend[i].skip ? "unchanged" : "wrote", pend[i].path);
    }
    remove_temps();
    os_guard(NULL);
    return ok;
}

bool outputs_write(const Spec *s, const BuildOpts *o, const Outputs *out, Diags *d, FILE *verbose)
{
    if (!make_dirs(o->outdir, d))
        return false;
    Arena *a = arena_new();
    Pending pend[MAX_FILES];
    unsigned n = 0;
    const char *sep = os_is_sep(o->outdir[strlen(o->outdir) - 1]) ? "" : "/"; /* make_dirs refuses "" */
    for (unsigned i = 0; i < out->n; i++)
        pend[n++] = (Pending){arena_printf(a, "%s%s%s", o->outdir, sep, out->files[i].name), out->files[i].text.p,
                              out->files[i].text.len, false};
    Buf dep = {0}, list = {0};
    if (o->depfile) {
        write_depfile(&dep, s, o, out, pend);
        pend[n++] = (Pending){o->depfile, dep.p, dep.len, false};
    }
    if (o->deps_list) {
        for (unsigned i = 0; i < s->nfiles + out->nhooks; i++)
            buf_printf(&list, "%s\n", input_name(s, out, i));
        pend[n++] = (Pending){o->deps_list, list.p ? list.p : "", list.len, false};
    }
    bool ok = commit(pend, n, d, verbose);
    buf_free(&dep);
    buf_free(&list);
    arena_free(a);
    return ok;
}

bool write_file_atomic(const char *path, const char *data, size_t len, Diags *d)
{
    Pending p = {path, data, len, false};
    return commit(&p, 1, d, NULL);
}
