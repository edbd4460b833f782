/* SPDX-License-Identifier: MIT */
/* util.c - arena, buffers, source files, identifiers, did-you-mean. */
#include "segc.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- fatal paths ------------------------------------------------------- */

_Thread_local Failure *failure;

/* Jumps to the thread's handler: libsegc's call (libsegc.c), or the
 * program's own (fail_exit).  A thread without one traps. */
static NORETURN void fail(bool bug)
{
    if (!failure)
        __builtin_trap();
    failure->bug = bug;
    longjmp(failure->jump, 1);
}

void segc_bug(const char *file, int line, const char *msg)
{
    if (failure)
        snprintf(failure->why, sizeof failure->why, "internal error at %s:%d: %s", file, line, msg);
    fail(true);
}

void segc_oom(void)
{
    if (failure)
        snprintf(failure->why, sizeof failure->why, "out of memory");
    fail(false);
}

void fail_exit(const Failure *f)
{
    fprintf(stderr, "segc: %s\n", f->why);
    if (f->bug)
        abort(); /* an abort cannot give exit status 2 */
    exit(2);
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        segc_oom();
    return p;
}

void *xmalloc(size_t n)
{
    return xrealloc(NULL, n);
}

/* ---- arena ------------------------------------------------------------- */

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
} Chunk;

/* A heap block the arena frees (arena_keep). */
typedef struct Kept {
    struct Kept *next;
    void *p;
} Kept;

struct Arena {
    Chunk *head;
    Kept *kept;
    ChunkPool *pool; /* where its chunks come from and go back to; NULL: the heap */
};

enum { CHUNK_SIZE = 64 * 1024 };

/* Under AddressSanitizer the arena keeps the bytes no allocation holds
 * poisoned, with a guard after each allocation, so that a read or write
 * past the end of one is reported as it is past a malloc'd block. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
enum { GUARD = 16 };
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
enum { GUARD = 0 };
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* The chunks a libsegc context, or a `segc check` batch, keeps between
 * specs.  A flow that checks spec after spec would otherwise hand its
 * chunks back to the C library at the end of each one, which gives them
 * back to the system; the next check faults them in again, and that was
 * a third of a small spec's time in process.  The context and each arena
 * drawn from the pool hold a reference.  An arena may be freed on another
 * thread than the one that runs the context's calls, so a spin lock
 * guards the list. */
struct ChunkPool {
    atomic_bool busy;
    atomic_uint refs;
    Chunk *spare;
    unsigned nspare;
};
enum { POOL_MAX = 16 }; /* chunks a pool keeps: 1 MiB */

ChunkPool *pool_new(void)
{
    ChunkPool *p = xmalloc(sizeof *p);
    atomic_init(&p->busy, false);
    atomic_init(&p->refs, 1);
    p->spare = NULL;
    p->nspare = 0;
    return p;
}

void pool_drop(ChunkPool *p)
{
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
        return;
    for (Chunk *c = p->spare, *n; c; c = n) {
        n = c->next;
        UNPOISON(c->data, c->cap);
        free(c);
    }
    free(p);
}

/* Takes a spare chunk (c NULL) or gives chunk c back; NULL: none spare,
 * or c was kept. */
static Chunk *pool_swap(ChunkPool *p, Chunk *c)
{
    while (atomic_exchange_explicit(&p->busy, true, memory_order_acquire))
        ;
    if (!c && (c = p->spare))
        p->spare = c->next, p->nspare--;
    else if (c && p->nspare < POOL_MAX)
        c->next = p->spare, p->spare = c, p->nspare++, c = NULL;
    atomic_store_explicit(&p->busy, false, memory_order_release);
    return c;
}

Arena *arena_new(void)
{
    return arena_new_in(NULL);
}

Arena *arena_new_in(ChunkPool *p)
{
    Arena *a = xmalloc(sizeof *a);
    *a = (Arena){NULL, NULL, p};
    if (p)
        atomic_fetch_add(&p->refs, 1);
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Kept *k = a->kept; k; k = k->next) /* the records are in the chunks */
        free(k->p);
    for (Chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        if (c->cap == CHUNK_SIZE && a->pool) {
            POISON(c->data, c->cap); /* a spare chunk holds no allocation */
            if (!pool_swap(a->pool, c))
                continue;
        }
        UNPOISON(c->data, c->cap);
        free(c);
    }
    pool_drop(a->pool);
    free(a);
}

/* n bytes at a multiple of `align` (a power of two) from the start of a
 * chunk, whose data is max-aligned; not zeroed. */
static void *arena_take(Arena *a, size_t n, size_t align)
{
    Chunk *c = a->head;
    size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
    if (!c || at > c->cap || c->cap - at < n + GUARD) {
        size_t cap = n + GUARD > CHUNK_SIZE / 2 ? n + GUARD : CHUNK_SIZE;
        c = cap == CHUNK_SIZE && a->pool ? pool_swap(a->pool, NULL) : NULL;
        if (!c)
            c = xmalloc(sizeof *c + cap);
        c->used = 0;
        c->cap = cap;
        POISON(c->data, cap);
        /* A big allocation gets its own chunk behind the current one so
         * the current chunk's free space is not wasted. */
        if (a->head && cap != CHUNK_SIZE) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
        at = 0;
    }
    c->used = at + n + GUARD;
    UNPOISON(c->data + at, n);
    return c->data + at;
}

void *arena_alloc_aligned(Arena *a, size_t n, size_t align)
{
    void *p = arena_take(a, n ? n : 1, align);
    memset(p, 0, n);
    return p;
}

void *arena_alloc(Arena *a, size_t n)
{
    return arena_alloc_aligned(a, n, _Alignof(max_align_t));
}

void *arena_keep(Arena *a, void *p, size_t n)
{
    Kept *k = arena_take(a, sizeof *k, _Alignof(Kept));
    *k = (Kept){a->kept, p};
    a->kept = k; /* before shrinking: a failed realloc leaves p, the arena's */
    return k->p = xrealloc(p, n ? n : 1);
}

/* Strings are packed: a spec of many short keys is mostly their text. */
char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_take(a, n + 1, 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
    /* Formatted once into the free end of the current chunk when it fits
     * there (the usual case), which then takes what it used. */
    va_list ap2;
    va_copy(ap2, ap);
    Chunk *c = a->head;
    size_t room = c && c->cap - c->used > GUARD ? c->cap - c->used - GUARD : 0;
    char *p = room ? (char *)c->data + c->used : NULL;
    UNPOISON(p, room);
    int n = vsnprintf(p, room, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        BUG("vsnprintf failed");
    if ((size_t)n < room) {
        c->used += (size_t)n + 1 + GUARD; /* packed, as arena_strndup's */
        POISON(p + n + 1, room - (size_t)n - 1);
        return p;
    }
    POISON(p, room);
    p = arena_take(a, (size_t)n + 1, 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

/* A quantity in its largest IEC unit, for messages and the map: "2 GiB",
 * "448 MiB", "14.75 GiB"; a value that needs more than two decimals in its
 * unit gets U+2248 (almost equal), and qty() prints the exact hex beside
 * it.  (bytes_text, diff.c, writes a size as a spec would: "256MiB".) */
const char *iec(Arena *a, uint64_t v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned k = 0;
    while (k < 6 && (v >> (10 * (k + 1))) != 0)
        k++;
    uint64_t unit = (uint64_t)1 << (10 * k);
    uint64_t q = v >> (10 * k), r = v & (unit - 1);
    if (r == 0)
        return arena_printf(a, "%llu %s", (unsigned long long)q, units[k]);
    /* Quarters are exact in two decimals (100 = 4 * 25 and the unit is a
     * power of two); anything else is rounded from the top 10 bits. */
    bool exact = r % (unit / 4) == 0;
    uint64_t h = exact ? r / (unit / 4) * 25 : ((r >> (10 * (k - 1))) * 100 + 512) >> 10;
    if (h == 100)
        q++, h = 0;
    return arena_printf(a, "%s%llu.%02llu %s", exact ? "" : "\xE2\x89\x88", (unsigned long long)q,
                        (unsigned long long)h, units[k]);
}

/* "0x3B0000000 (14.75 GiB)"; below 1 KiB the number in decimal alone. */
const char *qty(Arena *a, uint64_t v)
{
    if (v < 1024)
        return arena_printf(a, "%llu", (unsigned long long)v);
    return arena_printf(a, "0x%llX (%s)", (unsigned long long)v, iec(a, v));
}

const char *flags_text(Arena *a, uint32_t flags, const char *sep, bool dxgk)
{
    const char *t = NULL;
    for (size_t i = 0; i < flag_count; i++)
        if (flags & (1u << flag_table[i].bit)) {
            const char *name = dxgk ? flag_table[i].dxgk : flag_table[i].name;
            t = t ? arena_printf(a, "%s%s%s", t, sep, name) : name;
        }
    return t;
}

/* ---- Buf --------------------------------------------------------------- */

void buf_reserve(Buf *b, size_t extra)
{
    if (b->cap - b->len > extra)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len <= extra) {
        if (cap > SIZE_MAX / 2)
            segc_oom();
        cap *= 2;
    }
    b->p = xrealloc(b->p, cap);
    b->cap = cap;
}

void buf_putn(Buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void buf_puts(Buf *b, const char *s)
{
    buf_putn(b, s, strlen(s));
}

void buf_putc(Buf *b, char c)
{
    buf_putn(b, &c, 1);
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        BUG("vsnprintf failed");
    buf_reserve(b, (size_t)n);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)n;
}

void buf_free(Buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* ---- source files ------------------------------------------------------ */

SrcFile *src_from_string(Arena *a, const char *name, const char *text, size_t len)
{
    SrcFile *f = arena_alloc(a, sizeof *f);
    f->name = arena_strdup(a, name);
    f->text = arena_strndup(a, text, len);
    f->len = len;
    f->arena = a;
    return f;
}

size_t utf8_check(const unsigned char *s, size_t len)
{
    static const unsigned min[] = {0, 0x80, 0x800, 0x10000}; /* the shortest form's least value */
    for (size_t i = 0; i < len;) {
        uint64_t w[4]; /* ASCII, 32 bytes at a time */
        if (len - i >= 32 && (memcpy(w, s + i, 32), !((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull))) {
            i += 32;
            continue;
        }
        unsigned c = s[i];
        /* Continuation bytes after the lead byte (4: not a lead byte). */
        size_t n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 4;
        if (n == 4 || len - i <= n)
            return i;
        c &= 0x7Fu >> n; /* the lead byte's payload */
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            c = (c << 6) | (s[i + k] & 0x3F);
        }
        if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return i;
        i += n + 1;
    }
    return len;
}

/* ---- lines and columns ------------------------------------------------- */

/* f->lines: where every LINE_STEP-th line starts (lines[k]: line
 * k * LINE_STEP + 1; line 1: after a BOM), and f->nlines the lines of the
 * file, built once per file.  A position's line is found from the nearest
 * one before it, past at most LINE_STEP - 1 line feeds: a table of every
 * line would take 4 bytes a line, as much as a file of short keys' text. */
enum { LINE_STEP = 32 };

static void src_lines(const SrcFile *cf)
{
    if (cf->lines)
        return;
    SrcFile *f = (SrcFile *)(uintptr_t)cf; /* a cache: every SrcFile is made in its arena */
    size_t n = 1;
    for (const char *s = f->text, *e = s + f->len; (s = memchr(s, '\n', (size_t)(e - s))); s++)
        n++;
    f->lines = arena_alloc(f->arena, ((n - 1) / LINE_STEP + 1) * sizeof *f->lines);
    f->lines[0] = f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a BOM is no part of line 1 */
    n = 1;
    for (const char *s = f->text, *e = s + f->len; (s = memchr(s, '\n', (size_t)(e - s))); s++, n++)
        if (n % LINE_STEP == 0)
            f->lines[n / LINE_STEP] = (uint32_t)(s + 1 - f->text);
    f->nlines = (uint32_t)n;
}

/* The start of the line after the one starting at `bol`, or f->len + 1
 * past the last. */
static size_t next_line(const SrcFile *f, size_t bol)
{
    const char *nl = bol < f->len ? memchr(f->text + bol, '\n', f->len - bol) : NULL;
    return nl ? (size_t)(nl + 1 - f->text) : f->len + 1;
}

SrcLoc src_loc(Pos p)
{
    const SrcFile *f = p.file;
    if (!pos_placed(p) || !f->text)
        return (SrcLoc){0};
    size_t off = p.off < f->len ? p.off : f->len, lo = 0, hi;
    src_lines(f);
    for (hi = (f->nlines - 1) / LINE_STEP + 1; hi - lo > 1;) { /* the last table line starting at or before off */
        size_t mid = lo + (hi - lo) / 2;
        if (f->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    size_t line = lo * LINE_STEP + 1, bol = f->lines[lo];
    for (size_t next; line < f->nlines && (next = next_line(f, bol)) <= off; bol = next)
        line++;
    const char *b = f->text + bol, *e = memchr(b, '\n', f->len - (bol < f->len ? bol : f->len));
    return (SrcLoc){(uint32_t)line, (uint32_t)(off > bol ? off - bol + 1 : 1), b, e ? e : f->text + f->len};
}

size_t src_line_off(const SrcFile *f, uint32_t line)
{
    if (!f || !f->text)
        return 0;
    src_lines(f);
    if (line <= 1)
        return f->lines[0];
    if (line > f->nlines)
        return f->len;
    size_t bol = f->lines[(line - 1) / LINE_STEP];
    for (uint32_t k = (line - 1) % LINE_STEP; k; k--)
        bol = next_line(f, bol);
    return bol;
}

SrcFile *src_read_at(Arena *a, const char *rev, const char *path, Diags *d)
{
    bool is_stdin = strcmp(path, "-") == 0 && !rev;
    SrcFile *whole = arena_alloc(a, sizeof *whole);
    whole->name = is_stdin ? "<stdin>" : rev ? arena_printf(a, "%s:%s", rev, path) : arena_strdup(a, path);
    whole->text = "";
    whole->arena = a;
    Pos at = pos_file(whole);
    FILE *fp = is_stdin ? stdin : rev ? os_git_open(rev, path) : os_fopen(path, "rb");
    int e = errno;
    if (!fp && (rev || os_kind(path) != OS_DIR)) {
        fatal_at(d, C_io, at, "cannot %s: %s", rev ? "run git" : "open", strerror(e));
        return NULL;
    }
    struct stat st;
    if (!fp || (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))) {
        fatal_at(d, C_io, at, "is a directory, not a spec file");
        if (fp && !is_stdin)
            fclose(fp);
        return NULL;
    }
    /* Read straight into the text the arena then keeps, up to one byte
     * past the limit (src_check_text reports it). */
    Buf b = {0};
    for (size_t n = 1; n && b.len <= SRC_MAX_BYTES; b.len += n) {
        buf_reserve(&b, 16384);
        size_t room = b.cap - b.len - 1, left = SRC_MAX_BYTES + 1 - b.len;
        n = fread(b.p + b.len, 1, room < left ? room : left, fp);
    }
    bool err = ferror(fp);
    int saved = errno;
    bool git_failed = rev && os_git_close(fp) != 0;
    if (!is_stdin && !rev)
        fclose(fp);
    if (git_failed)
        fatal_at(d, C_io, at, "not found in git revision '%s' (git cat-file failed)", rev);
    else if (err)
        fatal_at(d, C_io, at, "cannot read: %s", strerror(saved));
    if (git_failed || err) {
        buf_free(&b);
        return NULL;
    }
    /* From here on the bytes were read: what is wrong is the content
     * (exit status 1), not the environment (2). */
    b.p[b.len] = 0;
    whole->text = arena_keep(a, b.p, b.len + 1);
    whole->len = b.len;
    return src_check_text(whole, d) ? whole : NULL;
}

bool src_check_text(const SrcFile *f, Diags *d)
{
    if (f->len > SRC_MAX_BYTES) {
        error_at(d, C_limit_file_size, pos_at(f, SRC_MAX_BYTES, 1), "file is larger than the %u MiB limit",
                 (unsigned)(SRC_MAX_BYTES >> 20));
        return false;
    }
    const char *nul = memchr(f->text, 0, f->len);
    if (nul) {
        error_at(d, C_encoding, pos_at(f, (size_t)(nul - f->text), 1),
                 "file contains a NUL byte; a spec is UTF-8 text");
        return false;
    }
    size_t bad = utf8_check((const unsigned char *)f->text, f->len);
    if (bad != f->len) {
        error_at(d, C_encoding, pos_at(f, bad, 1), "invalid UTF-8 byte 0x%02X",
                 (unsigned char)f->text[bad]);
        return false;
    }
    return true;
}

/* ---- identifiers ------------------------------------------------------- */

bool is_c_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

static char upcase(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

char *to_camel(Arena *a, const char *snake)
{
    char *out = arena_alloc(a, strlen(snake) + 1), *o = out;
    bool up = true;
    for (const char *s = snake; *s; s++) {
        if (*s == '_') {
            up = true;
            continue;
        }
        *o++ = up ? upcase(*s) : *s;
        up = false;
    }
    *o = 0;
    return out;
}

char *to_upper(Arena *a, const char *snake)
{
    char *out = arena_strdup(a, snake);
    for (char *o = out; *o; o++)
        *o = upcase(*o);
    return out;
}

/* ---- did-you-mean ------------------------------------------------------ */

/* Edit distance where swapping two neighbouring letters counts as one
 * edit, like inserting, deleting or changing one ("grat" -> "gart"). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return SIZE_MAX;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

void *named(const void *items, size_t n, size_t size, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        const char *item = (const char *)items + i * size, *s = *(const char *const *)(const void *)item;
        if (s && strlen(s) == len && !strncmp(s, name, len))
            return (void *)(uintptr_t)item;
    }
    return NULL;
}

const char *closest_of(const char *word, const void *items, size_t n, size_t size)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const char *c = *(const char *const *)(const void *)((const char *)items + i * size);
        size_t d = c ? edit_distance(word, c) : SIZE_MAX;
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    size_t len = strlen(word);
    size_t limit = len < 4 ? 1 : len / 3 + 1;
    return best_d <= limit ? best : NULL;
}
