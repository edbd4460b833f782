/* SPDX-License-Identifier: MIT */
/*
 * segc.h - the one model header of segc.
 *
 * segc is a linear pipeline over one model:
 *
 *   load     (load.c)     the spec and its extends chain -> one Node tree,
 *                         a position (file, byte offset) on every node
 *   expr     (expr_lex.re, expr_gram.y, expr.c)  expression scalars -> Expr
 *   resolve  (resolve.c)  Node tree + -D -> Spec (every value a u64);
 *                         the numbers of the model are rows of fields.def
 *   check    (check.c, rules.def)  the table of named WDDM rules
 *   layout   (layout.c)   the GPU-address lookup table (ids and bank ranges
 *                         are resolve's: model values)
 *   emit     (emit.c, selftest.c, templates/)  model + lookup -> C, in memory
 *   output   (output.c)   the files and the depfile, none touched unless all
 *                         were written in full
 *
 * main.c's command table runs these in order; dump.c, diff.c and map.c read
 * the checked model instead of emitting it.
 *
 * The sections below follow the pipeline, each headed by the file whose
 * API it declares, and hold the types the stages share (`model`, the
 * field table); a declaration that serves another section's types sits
 * there, its comment naming its file: code_name (check.c) beside Diag,
 * bytes_text (diff.c) beside the lookup table, diag_suggest (diag.c)
 * beside did-you-mean.  What emit.c and selftest.c share with each other
 * only (the writer) is in emit_int.h.  Memory
 * policy: every compilation owns one Arena; everything a stage allocates lives there and
 * is freed at once when the unit of work ends (see README "Memory").
 */
#ifndef SEGC_H
#define SEGC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SEGC_VERSION "0.1.0"
#define SEGC_FORMAT_VERSION 1

#if defined(__MINGW32__) /* mingw's own C99 printf (__USE_MINGW_ANSI_STDIO) */
#define PRINTF_LIKE(f, a) __attribute__((format(gnu_printf, f, a)))
#define NORETURN __attribute__((noreturn))
#elif defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* ---- util.c: arena, growable buffers, fatal errors -------------------- */

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
/* Spare chunks shared by arenas (a libsegc context's calls), so memory a
 * call freed serves the next one; freed with its last arena and pool_drop. */
typedef struct ChunkPool ChunkPool;
ChunkPool *pool_new(void);
void pool_drop(ChunkPool *p);
Arena *arena_new_in(ChunkPool *p); /* p NULL: arena_new */
void *arena_alloc(Arena *a, size_t n); /* zeroed, max-aligned; never NULL */
void *arena_alloc_aligned(Arena *a, size_t n, size_t align); /* zeroed; align: a power of two */
/* Makes heap block p (xmalloc'd, n bytes or more) the arena's, shrunk to
 * n bytes: a big array built on the heap is not copied when complete. */
void *arena_keep(Arena *a, void *p, size_t n);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);

/* A heap buffer that grows; used for output text.  Not arena-backed so a
 * large emitted file does not pin arena chunks. */
typedef struct Buf {
    char *p;
    size_t len, cap;
} Buf;

void buf_reserve(Buf *b, size_t extra); /* room for `extra` more bytes and a NUL */
void buf_putn(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
void buf_free(Buf *b);

/* Internal "cannot happen" (BUG, ASSERT), and out of memory, the one
 * environment failure not reported through Diags.  Neither prints or ends
 * the process itself: both jump to the calling thread's `failure` with
 * what happened in `why`.  A libsegc call sets it for its own run
 * (libsegc.c: the call returns NULL); a program sets its own around all
 * else, which ends it with fail_exit. */
typedef struct Failure {
    jmp_buf jump;
    char why[512];
    bool bug; /* an internal error, not out of memory */
} Failure;
extern _Thread_local Failure *failure;
NORETURN void segc_bug(const char *file, int line, const char *msg);
#define BUG(msg) segc_bug(__FILE__, __LINE__, (msg))
#define ASSERT(c) ((c) ? (void)0 : BUG("assertion failed: " #c))
NORETURN void segc_oom(void);
/* What segc does on a failure: "segc: WHY" on standard error, then abort
 * after an internal error (an abort cannot give exit status 2), exit
 * status 2 when out of memory. */
NORETURN void fail_exit(const Failure *f);
/* Sets the thread's `failure` to *f, which ends the program with
 * fail_exit: in the function that stays active while the thread runs. */
#define CATCH_FAILURES(f)        \
    do {                         \
        if (setjmp((f)->jump))   \
            fail_exit(f);        \
        failure = (f);           \
    } while (0)
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
/* Room in heap array p (cap items) for item n: doubled when full, from
 * `first` items. */
#define GROW(p, n, cap, first) \
    ((n) < (cap) ? (void)0 : (void)((p) = xrealloc((p), ((cap) = (cap) ? 2 * (cap) : (first)) * sizeof *(p))))

/* ---- source files and positions --------------------------------------- */

/* A loaded source (spec, template, or the command line).  `text` is
 * NUL-terminated and kept for caret lines in diagnostics. */
typedef struct SrcFile {
    const char *name; /* as the user wrote it; never made absolute */
    const char *text;
    size_t len;
    /* Where every 32nd line starts, and how many lines there are, built
     * by src_loc the first time a position of the file is shown (in
     * `arena`, the file's own; util.c). */
    Arena *arena;
    uint32_t *lines;
    uint32_t nlines;
} SrcFile;

/* A position: `len` bytes at byte offset `off` of its file's text, the
 * way chibicc's tokens point into their source.  Nothing counts lines or
 * columns while a spec is read: src_loc does, when a position is shown.
 * A span shown on a line stops at the line's end (a node that runs over
 * several lines has len 1); 0 is shown as one character.  `off` POS_FILE:
 * the file as a whole (no line).  A position is never compared to find
 * what it belongs to: findings and notes link to the model by pointer. */
typedef struct Pos {
    const SrcFile *file;
    uint32_t off, len;
} Pos;
#define POS_FILE UINT32_MAX

static inline Pos pos_at(const SrcFile *f, size_t off, size_t len)
{
    return (Pos){f, off > POS_FILE - 1 ? POS_FILE - 1 : (uint32_t)off, len > UINT32_MAX ? UINT32_MAX : (uint32_t)len};
}
static inline Pos pos_file(const SrcFile *f)
{
    return (Pos){f, POS_FILE, 0};
}
static inline bool pos_placed(Pos p) /* in a file, at a place of it */
{
    return p.file && p.off != POS_FILE;
}
/* `p` moved `bytes` on, spanning `len`. */
static inline Pos pos_shift(Pos p, uint32_t bytes, uint32_t len)
{
    p.off += bytes;
    p.len = len;
    return p;
}

/* Where a position is shown: its 1-based line (lines end at LF) and
 * column (counting bytes), and the text of that line.  A UTF-8 byte order
 * mark is not part of line 1: the byte after it is column 1.  This is the
 * one place that turns offsets into lines and columns: the caret lines,
 * JSON, SARIF, MSBuild and LSP positions are all derived from it. */
typedef struct SrcLoc {
    uint32_t line, col;    /* 0, 0: no place (no file, or POS_FILE) */
    const char *bol, *eol; /* the line's text: after a BOM, before its LF */
} SrcLoc;
SrcLoc src_loc(Pos p);
/* The offset of the first byte of 1-based line `line` of `f` as src_loc
 * counts it (line 1: after a BOM), or f->len past the last line. */
size_t src_line_off(const SrcFile *f, uint32_t line);
/* The offset of 1-based `line` and `col` (the reverse of src_loc). */
static inline Pos src_pos(const SrcFile *f, uint32_t line, uint32_t col, uint32_t len)
{
    return pos_at(f, src_line_off(f, line) + (col ? col - 1 : 0), len);
}

enum { SRC_MAX_BYTES = 16u << 20 }; /* input files larger than this are refused */

/* Reads `path` ("-" is standard input), or with `rev` the file (relative
 * to the current directory) as git revision REV has it, named "REV:PATH".
 * On failure reports a diagnostic and returns NULL: fatal (exit status 2)
 * when the bytes cannot be read (missing, directory, unreadable); an error
 * (exit status 1) when they are no spec text (too big, NUL, bad UTF-8). */
struct Diags;
SrcFile *src_read_at(Arena *a, const char *rev, const char *path, struct Diags *d);
static inline SrcFile *src_read(Arena *a, const char *path, struct Diags *d) { return src_read_at(a, NULL, path, d); }
SrcFile *src_from_string(Arena *a, const char *name, const char *text, size_t len);
/* Whether text from elsewhere (an editor) is spec text as src_read checks
 * it: within SRC_MAX_BYTES, no NUL, UTF-8; if not, reports why. */
bool src_check_text(const SrcFile *f, struct Diags *d);
/* The offset of the first byte of s that does not start a well-formed
 * UTF-8 sequence ending within len bytes, or len. */
size_t utf8_check(const unsigned char *s, size_t len);

/* ---- diag.c: diagnostics ---------------------------------------------- */

typedef enum { SEV_NOTE, SEV_WARNING, SEV_ERROR, SEV_FATAL } Severity;

/* Every code segc prints, from rules.def: R_<id> for a rule (RULE_COUNT
 * of them), then C_<id> for a code of the front end, templates, files and
 * internal errors.  Reporting code names the enumerator, so a misspelt
 * code does not compile; the name comes from rule_table when printed. */
typedef enum {
    CODE_NONE = -1, /* a note's: no code */
#define RULE(id, ...) R_##id,
#define CODE(id, ...)
#include "rules.def"
#undef RULE
#undef CODE
    RULE_COUNT,
    CODE_BEFORE_FIRST_ = RULE_COUNT - 1,
#define RULE(id, ...)
#define CODE(id, ...) C_##id,
#include "rules.def"
#undef RULE
#undef CODE
    CODE_COUNT
} Code;
const char *code_name(Code c); /* check.c: "agp-exclusive"; NULL for CODE_NONE */

/* What a diagnostic or note is about, set where it is reported: a segment,
 * a bank of it and a BAR (1-based places in `segments:`, its `banks:` and
 * `bars:`; 0: none), and the field: a key path under the bank, else the
 * segment, else the BAR, else the spec ("size", "vpr.range_size",
 * "paging.segment"; NULL: the whole thing).  Names live in the spec's arena. */
typedef struct Subject {
    unsigned seg, bank, bar;
    const char *seg_name, *bank_name, *bar_name, *field;
} Subject;

typedef struct Note {
    struct Note *next;
    Pos pos;
    const char *msg;
    Subject about;
} Note;

/* A fix a program can apply (segc lsp's code actions): replace the bytes
 * `at` spans with `text` (at.len 0: insert at at.off).  Unlike a
 * diagnostic's span it may run past the end of its line, taking the line
 * break along: a line is removed by its whole span and "". */
typedef struct DiagEdit {
    Pos at;
    const char *text; /* NULL: no edit */
} DiagEdit;

typedef struct Diag {
    struct Diag *next;
    Severity sev;
    Code code;        /* the rule or front-end code (R_agp_exclusive, C_yaml_syntax) */
    Pos pos;
    const char *msg;
    const char *fix; /* optional one-line suggestion (fix-it) */
    DiagEdit edit;   /* optional: the fix as an edit of the spec */
    Note *notes, **notes_tail;
    unsigned seq; /* emission order, for stable sorting */
    const char *waiver; /* waived findings: the waiver's reason */
    Pos waiver_pos;     /* and where the waiver is written */
    Subject about;
} Diag;

typedef struct Diags {
    Arena *arena;
    Diag *head, **tail;
    unsigned count;   /* diagnostics on the main list (not the waived) */
    unsigned nseq;    /* every Diag made, for a stable sort */
    unsigned nerrors, nwarnings, nfatal;
    /* Findings a `waive:` entry suppressed: counted nowhere and never
     * printed as text, kept for SARIF (suppressed results). */
    Diag *waived, **waived_tail;
    Diag *spill; /* what the reports past the listed ones return (diag.c) */
} Diags;

void diags_init(Diags *d, Arena *a);
Diag *diag_add(Diags *d, Severity sev, Code code, Pos pos, const char *fmt, ...) PRINTF_LIKE(5, 6);
Diag *diag_vadd(Diags *d, Severity sev, Code code, Pos pos, const char *fmt, va_list ap);
void diag_note(Diags *d, Diag *on, Pos pos, const char *fmt, ...) PRINTF_LIKE(4, 5);
void diag_fixit(Diags *d, Diag *on, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Sets the fix of `on` (if any) as an edit: `at` replaced with `text`.
 * Text output never shows it; write the fix-it too. */
void diag_edit(Diags *d, Diag *on, Pos at, const char *text);
/* Edits of a value of a spec, given its span (a Value's pos, node_span):
 * diag_edit_append appends " TAIL" ("- 1") to an expression, in
 * parentheses when it has an operator binding looser than + and -;
 * diag_edit_remove_pair removes its `key: value` pair, the whole line when
 * the pair stands alone on it.  Nothing when the span is not of a one-line
 * value in its file's text. */
void diag_edit_append(Diags *d, Diag *on, Pos value, const char *tail);
void diag_edit_remove_pair(Diags *d, Diag *on, Pos value);
/* diag_edit_remove_item removes an item (its span) from a sequence: with
 * its comma from a flow one, its line from a block one (not the only item
 * of a block sequence, which would leave its key holding nothing).
 * diag_edit_remove_block removes a key (its span, first on its line) with
 * its block value: the lines after it indented deeper, or at its column
 * starting with "- ". */
void diag_edit_remove_item(Diags *d, Diag *on, Pos item);
void diag_edit_remove_block(Diags *d, Diag *on, Pos key);
/* Records a finding that a waiver suppressed (see Diags.waived). */
Diag *diag_vwaived(Diags *d, Severity sev, Code code, Pos pos, const char *reason, Pos waiver_pos,
                   const char *fmt, va_list ap);
/* Shorthands for front-end errors (never toggled by -W). */
#define error_at(d, code, ...) diag_add((d), SEV_ERROR, (code), __VA_ARGS__) /* pos, fmt, ... */
#define fatal_at(d, code, ...) diag_add((d), SEV_FATAL, (code), __VA_ARGS__)
/* Sorts by file, line, column, then emission order (both lists). */
void diags_sort(Diags *d);
bool diags_failed(const Diags *d); /* any error or fatal */

typedef struct DiagStyle {
    bool color;
    bool msvc; /* --diagnostics=msvc: MSBuild's canonical lines, no excerpts */
} DiagStyle;
/* The text form of every diagnostic: a head line, the source line and a
 * caret line under the span (or MSBuild's lines), into `b`. */
void diags_text(Buf *b, const Diags *d, DiagStyle style);
void diags_print_text(FILE *f, const Diags *d, DiagStyle style);

const char *severity_name(Severity s); /* "note", "warning", "error", "fatal" */
const char *severity_level(Severity s); /* the same, a fatal one an "error" (SARIF) */

/* ---- json.c: the one JSON writer (diag_json.c, dump.c, diff.c) ---------- */

/* Pretty-printed, keys in the order written, strings always valid UTF-8
 * (control characters escaped, invalid bytes as U+FFFD). */
enum { JSON_MAX_DEPTH = 64 };
typedef struct JsonW {
    Buf *out;
    unsigned depth;
    uint64_t nonempty; /* bit i: level i+1 has an item */
    bool after_key;
} JsonW;

void json_init(JsonW *w, Buf *out);
void json_obj_begin(JsonW *w);
void json_obj_end(JsonW *w); /* a newline follows the outermost value */
void json_arr_begin(JsonW *w);
void json_arr_end(JsonW *w);
void json_key(JsonW *w, const char *key);
void json_str(JsonW *w, const char *s); /* NULL: null */
void json_uint(JsonW *w, uint64_t v);   /* at most 2^53: a count, an id, a line */
void json_hex(JsonW *w, uint64_t v);    /* the string "0x1F": any 64-bit quantity */
void json_bool(JsonW *w, bool v);
void json_nul(JsonW *w); /* null (jansson, in segc lsp, has json_null) */
void json_raw(JsonW *w, const char *text); /* a value written as it is (a number such as 1.3) */
/* A key and its value in one call. */
void json_kstr(JsonW *w, const char *key, const char *s);
void json_kuint(JsonW *w, const char *key, uint64_t v);
void json_kobj(JsonW *w, const char *key); /* "key": { */
void json_karr(JsonW *w, const char *key); /* "key": [ */
bool json_kobj_if(JsonW *w, const char *key, bool present); /* "key": {, or "key": null and false */
void json_khex(JsonW *w, const char *key, uint64_t v);
void json_kbool(JsonW *w, const char *key, bool v);
void json_kline(JsonW *w, const char *key, uint32_t v); /* 0: null */
/* A place: "file", "line", "column" (line or column 0: null). */
void json_place(JsonW *w, const char *file, uint32_t line, uint32_t column);
/* "key": {"name": "segc", "version": ...  (left open) */
void json_tool_begin(JsonW *w, const char *key);
/* Every document's head: {"FORMAT_KEY": VERSION, "tool": {...}, */
void json_doc_begin(JsonW *w, Buf *out, const char *format_key, unsigned version);
/* The body of a JSON string for n bytes of s, without the quotes. */
void json_escape(Buf *b, const char *s, size_t n);
/* Characters (code points) in n bytes of UTF-8; a stray byte counts one. */
size_t utf8_count(const char *s, size_t n);

/* ---- load.c: a spec and its extends chain -> one Node tree ------------- */

typedef enum { NODE_SCALAR, NODE_MAP, NODE_SEQ } NodeKind;

typedef struct Node Node;
typedef struct NodePair NodePair;

typedef enum { SCALAR_PLAIN, SCALAR_SINGLE, SCALAR_DOUBLE, SCALAR_BLOCK } ScalarStyle;

/* 24 bytes on 64-bit hosts: a spec of many short keys is mostly Nodes.
 * A collection holds its kids by value, in one array (no node is
 * allocated on its own but the document's).  Only the members of a node's
 * kind may be read (its count is 0 when it is a scalar, its len 0 when it
 * is a collection).  A node's position is
 * node_pos's: the node keeps its offset and span, and which file of its
 * tree it was read from as an index into the tree's files (a Source's
 * `files`; a file loaded alone is file 0 of itself), not a pointer. */
enum {
    NODE_OFF_BITS = 25, /* Node.off */
    NODE_FILE_BITS = 7, /* Node.file */
    NODE_MAX_FILES = 1 << NODE_FILE_BITS
};
struct Node {
    union {
        const char *str; /* NODE_SCALAR: NUL-terminated value, escapes processed */
        NodePair *pairs; /* NODE_MAP: in document order; keys are scalars (checked) */
        Node *items;     /* NODE_SEQ */
    };
    /* The node's first character (for a quoted scalar: the quote): the
     * byte offset in its file, and file `file` of its tree.  Read through
     * node_pos, written through node_place. */
    unsigned off : NODE_OFF_BITS;
    unsigned file : NODE_FILE_BITS;
    uint32_t span;      /* Pos.len of node_pos */
    unsigned len : 28;  /* NODE_SCALAR: bytes of str (a source file is at most 16 MiB) */
    unsigned kind : 2;  /* NodeKind */
    unsigned style : 2; /* ScalarStyle */
    union {
        uint32_t npairs; /* NODE_MAP */
        uint32_t nitems; /* NODE_SEQ */
    };
};
_Static_assert(SRC_MAX_BYTES < (1u << 28), "Node.len holds the length of any scalar of a source file");
_Static_assert(SRC_MAX_BYTES < (1u << NODE_OFF_BITS), "Node.off holds any offset of a source file, its end included");
_Static_assert(NODE_OFF_BITS + NODE_FILE_BITS == 32, "Node.off and Node.file share one 32-bit word");
_Static_assert(sizeof(void *) != 8 || sizeof(Node) == 24, "a Node is 24 bytes on 64-bit hosts");
struct NodePair {
    Node key, value;
};
_Static_assert(sizeof(NodePair) == 2 * sizeof(Node) && offsetof(NodePair, value) == sizeof(Node),
               "a mapping's kids, key and value in turn, are its pairs");

/* Where node `n` was written (no file if `n` is NULL): `files` are the
 * files of its tree, a Source's `files` or &f for a tree yaml_load read
 * from f. */
static inline Pos node_pos(const SrcFile *const *files, const Node *n)
{
    return n ? (Pos){files[n->file], n->off, n->span} : (Pos){0};
}
/* Sets where `n` was written: at `p`, in file `file` of its tree (p's
 * file); a position in no file or past the widths of Node is a bug. */
void node_place(Node *n, unsigned file, Pos p);

typedef struct LoadLimits {
    unsigned max_depth;        /* nesting of maps/sequences */
    size_t max_scalar;         /* bytes in one scalar */
    size_t max_alias_nodes;    /* nodes reachable through all alias uses */
} LoadLimits;
extern const LoadLimits load_default_limits;

/* Parses one YAML document.  Reports every error it can with a position
 * (syntax, duplicate keys, non-scalar keys, tabs, limits) and returns NULL
 * if any was reported.  An empty document is an error.  The tree's nodes
 * are file 0 of their tree: node_pos(&src, n). */
Node *yaml_load(Arena *a, const SrcFile *src, const LoadLimits *lim, Diags *d);

/* Lookup helpers over a NODE_MAP (NULL if absent or not a map). */
Node *node_get(const Node *map, const char *key);
const NodePair *node_pair(const Node *map, const char *key);
const char *node_kind_name(NodeKind k); /* "scalar", "mapping", "sequence" */
/* A node's span; a quoted scalar's includes its quotes (`files`: as
 * node_pos's). */
Pos node_span(const SrcFile *const *files, const Node *n);
/* Whether `n` is of kind `k`; if not, reports "WHAT must be a K". */
bool node_expect(Diags *d, const SrcFile *const *files, const Node *n, NodeKind k, const char *what);
/* Position of character `i` of a scalar's value (for expression columns):
 * exact for plain and single-line quoted scalars. */
Pos node_char_pos(const SrcFile *const *files, const Node *scalar, size_t i, uint32_t len);

/* The options of the front end: load reads the -I directories and the
 * depth limit, resolve the -D overrides and --ddi. */
typedef struct Define {
    const char *name;
    const char *expr;
} Define;

typedef struct ResolveOpts {
    const Define *defines; /* -D name=EXPR */
    unsigned ndefines;
    const char *const *include_dirs; /* -I, searched for `extends` */
    unsigned ninclude;
    unsigned max_extends_depth; /* 0: 16; at most NODE_MAX_FILES - 1 */
    unsigned ddi_forms; /* --ddi; 0: the forms board.wddm is asked */
    const char *rev;    /* read the spec and its extends chain from git (diff) */
    /* An `extends` file's text held elsewhere (an editor's unsaved buffer,
     * segc lsp), or NULL to read it from the disk. */
    const SrcFile *(*open_file)(void *ctx, Arena *a, const char *path);
    void *open_ctx;
} ResolveOpts;

/* A segment a variant adds whose name is close to a base segment's. */
typedef struct NearName {
    struct NearName *next;
    const Node *item, *base_name; /* the variant's entry; the base's `name:` */
} NearName;

/* A base's entry a variant deletes (`delete: true`). */
typedef struct Deleted {
    struct Deleted *next;
    int map; /* the SpecMap of the entry: MAP_BAR, MAP_SEGMENT */
    const char *name;
    Pos pos; /* the variant's entry */
} Deleted;

/* A spec as read: its extends chain merged into one tree. */
typedef struct Source {
    Node *root;            /* child over base: by the merge rules of spec.def */
    const SrcFile **files; /* the spec, then each file it extends (Node.file) */
    unsigned nfiles;
    bool clean;            /* nothing was reported while reading */
    NearName *near;
    Deleted *deleted;      /* for a note where something still names one */
} Source;

/* Reads `path` (or takes `src`, its text already in memory), follows its
 * extends chain (cycle- and depth-checked; relative to the including file,
 * then each -I directory) and merges it.  False if there is no tree to
 * resolve (errors in `d`). */
bool spec_read(Arena *a, const char *path, const SrcFile *src, const ResolveOpts *o, Diags *d, Source *out);

/* ---- expr: expr_lex.re, expr_gram.y, expr.c --------------------------- */

typedef enum {
    EX_NUM,  /* num */
    EX_REF,  /* name: "vram", "size", "visible.end", "bar.fb.size" */
    EX_UNIT, /* a[0] scaled by unit */
    EX_NEG,  /* -a[0]: allowed only when a[0] is 0 (else underflow) */
    EX_NOT,  /* ~a[0] */
    EX_BIN,  /* a[0] op a[1] */
    EX_CALL, /* name(args...) : min max align_up align_down */
} ExprKind;

typedef enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_SHL, OP_SHR, OP_AND, OP_OR, OP_XOR
} BinOp;

/* X(enum, spelling, shift): the unit words (`pages` scales by the page
 * size); the lexer looks every word up here. */
#define EXPR_UNITS(X)        \
    X(UNIT_B, "B", 0)        \
    X(UNIT_KIB, "KiB", 10)   \
    X(UNIT_MIB, "MiB", 20)   \
    X(UNIT_GIB, "GiB", 30)   \
    X(UNIT_TIB, "TiB", 40)   \
    X(UNIT_PAGES, "pages", 0)

typedef enum {
#define X(e, s, sh) e,
    EXPR_UNITS(X)
#undef X
} Unit;

typedef struct Expr Expr;
struct Expr {
    ExprKind kind;
    Pos pos;    /* the whole span (expr.c: "Positions") */
    Pos op_pos; /* the token an evaluation error points at */
    uint64_t num;
    const char *name; /* EX_REF, EX_CALL */
    BinOp op;
    Unit unit;
    Expr **args; /* EX_UNIT/NEG/NOT: 1, EX_BIN: 2, EX_CALL: nargs */
    unsigned nargs;
};

enum { EXPR_MAX_DEPTH = 64, EXPR_MAX_LEN = 4096 };

/* Parses `len` bytes of `text`, the first at `start`; NULL after a syntax
 * error, reported at its exact column. */
Expr *expr_parse(Arena *a, const char *text, size_t len, Pos start, Diags *d);
/* The same for a YAML scalar: every position is computed once, from the
 * byte offset in its value, as the source character (node_char_pos;
 * `files`: of the scalar's tree). */
Expr *expr_parse_scalar(Arena *a, const SrcFile *const *files, const Node *scalar, Diags *d);

/* Name lookup for evaluation: return true and set *out, or report an error
 * (unknown name, cycle, ...) and return false. */
typedef struct EvalEnv {
    void *ctx;
    bool (*lookup)(void *ctx, const Expr *ref, uint64_t *out);
    uint64_t page_size; /* for the `pages` unit */
} EvalEnv;

/* Unsigned 64-bit, every overflow/underflow/division by zero an error at
 * the operator's column.  Returns false if an error was reported. */
bool expr_eval(const Expr *e, const EvalEnv *env, Diags *d, uint64_t *out);

/* Debug/test dump: fully parenthesised form, e.g. "(1 + (2 * 3))". */
void expr_print(Buf *b, const Expr *e);

/* ---- model ------------------------------------------------------------- */

/* DXGK_SEGMENTFLAGS: X(snake_name, DxgkName, bit, min_wddm, derived, doc)
 * min_wddm: the WDDM version (as 0xMm) from which the bit exists in the
 * headers the driver is built with.  `derived` flags are set by segc from
 * kind/cpu_visible/banks and may not be written in `flags:`.  doc: what the
 * flag means, the one text of it: schema/segc.schema.json's description of
 * each flag a spec may write is this text, then " WDDM M.m or later." when
 * min_wddm is above 1.0 (tests/doc/flags.py checks it). */
#define SEGC_FLAGS(X) \
    X(aperture, Aperture, 0, 0x10, 1, \
      "A linear aperture-space segment: VidMm maps system pages into it through the GPU's page tables. segc sets it for `kind: aperture`.") \
    X(agp, Agp, 1, 0x10, 1, \
      "The AGP aperture, mapped by the GART driver. segc sets it for `kind: agp`.") \
    X(cpu_visible, CpuVisible, 2, 0x10, 1, \
      "The CPU can reach the segment's memory directly. segc sets it for `cpu_visible:`.") \
    X(use_banking, UseBanking, 3, 0x10, 1, \
      "The segment is divided into banks (pBankRangeTable). segc sets it for `banks:`.") \
    X(cache_coherent, CacheCoherent, 4, 0x10, 0, \
      "The GPU snoops CPU caches when it goes through this aperture. Apertures only.") \
    X(pitch_alignment, PitchAlignment, 5, 0x10, 0, \
      "VidMm places allocations by their pitch-aligned size and the driver copes with the size difference when paging; such a segment is never an eviction target.") \
    X(populated_from_system_memory, PopulatedFromSystemMemory, 6, 0x10, 0, \
      "A memory segment made of system memory the driver allocated at initialisation (not firmware-stolen memory).") \
    X(preserved_during_standby, PreservedDuringStandby, 7, 0x12, 0, \
      "The contents survive standby. Valid sets of the preserved flags: none, standby, standby + hibernate, standby + partially.") \
    X(preserved_during_hibernate, PreservedDuringHibernate, 8, 0x12, 0, \
      "The contents survive hibernate; needs preserved_during_standby.") \
    X(partially_preserved_during_hibernate, PartiallyPreservedDuringHibernate, 9, 0x12, 0, \
      "Offsets 0 to system_memory_end survive hibernate, the firmware-reserved rest is purged; needs preserved_during_standby and system_memory_end.") \
    X(direct_flip, DirectFlip, 10, 0x12, 0, \
      "Direct Flip allocations can be pinned and scanned out from this segment.") \
    X(use_64kb_pages, Use64KBPages, 11, 0x20, 0, \
      "The segment uses 64 KiB pages: base and size 64 KiB aligned (no banks: QUERYSEGMENT4 has none).") \
    X(reserved_sys_mem, ReservedSysMem, 12, 0x20, 0, \
      "Reserved for the OS: a driver never sets it.") \
    X(supports_cpu_host_aperture, SupportsCpuHostAperture, 13, 0x20, 0, \
      "The CPU reaches the segment through the host aperture, not with cpu_visible.") \
    X(supports_cached_cpu_host_aperture, SupportsCachedCpuHostAperture, 14, 0x20, 0, \
      "Cached CPU access through the host aperture; needs supports_cpu_host_aperture.") \
    X(application_target, ApplicationTarget, 15, 0x20, 0, \
      "The segment counts against application budgets; deprecated by the budget groups.") \
    X(vpr_supported, VprSupported, 16, 0x20, 0, \
      "The segment supports video protected regions.") \
    X(vpr_preserved_during_standby, VprPreservedDuringStandby, 17, 0x20, 0, \
      "Video protected regions keep their contents across standby.") \
    X(encrypted_paging_supported, EncryptedPagingSupported, 18, 0x20, 0, \
      "Protected content is encrypted when it is paged.") \
    X(local_budget_group, LocalBudgetGroup, 19, 0x20, 0, \
      "The segment counts against the local memory budget.") \
    X(non_local_budget_group, NonLocalBudgetGroup, 20, 0x20, 0, \
      "The segment counts against the non-local memory budget.") \
    X(populated_by_reserved_ddr_by_firmware, PopulatedByReservedDDRByFirmware, 21, 0x29, 0, \
      "Memory the firmware reserved (from DDR) populates the segment.")

enum {
#define X(s, c, bit, v, d, doc) FB_##s = (bit), FLAG_##s = 1u << (bit),
    SEGC_FLAGS(X)
#undef X
};

typedef struct FlagInfo {
    const char *name, *dxgk;
    const char *doc; /* its meaning (SEGC_FLAGS) */
    unsigned bit, min_wddm;
    bool derived;
} FlagInfo;
extern const FlagInfo flag_table[];
extern const size_t flag_count;

enum { MAX_SEGMENTS = 31, MAX_BANKS = 127, MAX_BARS = 6, MAX_CONSTANTS = 1024 };

typedef enum { ARCH_X64, ARCH_ARM64, ARCH_X86 } Arch;
typedef enum { SEG_MEMORY, SEG_APERTURE, SEG_AGP } SegKind;

/* A resolved number and where its value was written. */
typedef struct Value {
    uint64_t v;
    Pos pos;
    bool set;  /* written in the spec (else defaulted) */
    /* The first constant it reads, directly or through other values, whose
     * value is written elsewhere than this value: on the command line (-D)
     * or in another file of the extends chain (a variant's override); NULL
     * if none.  check.c notes it on the findings that read the value. */
    const struct Constant *via;
    bool failed; /* its evaluation failed (reported): v means nothing */
} Value;

typedef struct Constant {
    const char *name;
    Pos pos;
    Value val;
} Constant;

typedef struct Bar {
    const char *name;
    Pos pos;
    Value index, size;
    Value bits; /* 32 or 64; unset: 64 above BAR32_MAX, else 32 */
} Bar;

/* The most a 32-bit BAR decodes: 4 GiB. */
#define BAR32_MAX (1ull << 32)
/* The PCI configuration registers a BAR takes: two for a 64-bit BAR.  The
 * one count, for check.c (bar-index) and the generated header. */
static inline unsigned bar_regs(const Bar *b)
{
    return b->bits.v == 64 ? 2 : 1;
}

typedef struct Bank {
    const char *name;
    Pos pos;
    Value size;       /* for the last bank: the rest, set=false */
    uint64_t start, end; /* offsets in the segment, end exclusive */
} Bank;

typedef struct Waiver {
    const char *rule;
    const char *reason;
    Pos pos;
    bool used; /* the rule fired on this segment and was waived */
} Waiver;

typedef enum { CPU_NONE, CPU_BAR, CPU_ADDRESS } CpuMode;

/* The DDI forms a build answers (DXGKQAITYPE_QUERYSEGMENT, ...3, ...4). */
enum { DDI_QS = 1, DDI_QS3 = 2, DDI_QS4 = 4 };

/* DESCRIPTOR4's Video Protected Region fields (`vpr:`). */
typedef struct Vpr {
    bool set;
    Pos pos;
    Value range_start, range_size, alignment, count, reserve_size;
} Vpr;

/* DESCRIPTOR4's CpuHostAperture (`cpu_host_aperture:`): a window the CPU
 * reaches the segment through, in whole pages. */
typedef struct HostAperture {
    CpuMode mode;             /* CPU_BAR or CPU_ADDRESS; CPU_NONE: absent */
    Pos pos;
    const Bar *bar;
    Value offset, address, size;
} HostAperture;

typedef struct Segment {
    const char *name;
    Pos pos;          /* the `name:` value */
    unsigned id;      /* 1-based position */
    SegKind kind;
    Pos kind_pos;
    Value base, size, commit_limit, system_memory_end;
    uint32_t flags;     /* complete DXGK_SEGMENTFLAGS value */
    uint32_t flags_written; /* the subset written in `flags:` */
    Pos flag_pos[32];   /* where each written flag stands */
    Pos flags_pos;      /* the `flags:` sequence */
    CpuMode cpu;
    Pos cpu_pos;
    const Bar *cpu_bar;
    Pos cpu_bar_pos;
    Value cpu_offset, cpu_address;
    Bank *banks;
    unsigned nbanks;
    Pos banks_pos;
    Waiver *waivers;
    unsigned nwaivers;
    /* QUERYSEGMENT4 only */
    Vpr vpr;
    HostAperture host;
    Value invalid_ranges;     /* NumInvalidMemoryRanges */
    Value uefi_ranges;        /* NumUEFIFrameBufferRanges (WDDM 2.2+) */
#ifdef SEGC_TEST_FIELDS
    Value test_field;         /* a test build's row of fields.def (tests/gen/fields) */
#endif
    const char *near;         /* added without `new: true`: the close base segment's name (NearName) */
    Pos near_pos;             /* ... and where its `name:` is written */
    bool unresolved;          /* a value failed (reported): rules skip it */
} Segment;

/* A segment an allocation class names (`allocations:`, and the
 * `dma_buffer_segments:` list), or a bank of the class's first preferred
 * segment (`banks:`): the name as written and what it names, resolved by
 * name only; whether each name exists is a rule (alloc-names-known). */
typedef struct Place {
    const char *name;   /* as written */
    Pos pos;            /* the name */
    const Segment *seg; /* the segment named; NULL: none of that name (or a bank hint) */
    unsigned bank;      /* a bank hint: its 1-based id in the first preferred segment; 0: none of that name */
    bool from_end;      /* `from_end: true`: the slot's direction bit */
} Place;

typedef struct PlaceList {
    Place *p;
    unsigned n;
    Pos pos;  /* the key */
    bool set; /* written */
} PlaceList;

/* The slots of DXGK_SEGMENTPREFERENCE and DXGK_SEGMENTBANKPREFERENCE. */
enum { PREF_SLOTS = 5, BANK_SLOTS = 4 };

/* One placement class (`allocations:`): what DxgkDdiCreateAllocation
 * writes into DXGK_ALLOCATIONINFO for an allocation of the class. */
typedef struct AllocClass {
    const char *name;
    Pos pos; /* the `name:` value */
    PlaceList prefer;     /* PreferredSegment, highest first */
    PlaceList write;      /* SupportedWriteSegmentSet */
    PlaceList read;       /* SupportedReadSegmentSet; unset: the write set */
    PlaceList evict;      /* EvictionSegmentSet */
    PlaceList banks;      /* HintedBank: banks of prefer.p[0] */
} AllocClass;
/* A class's lists, by member and key: its segment lists, then its bank hints. */
#define CLASS_LISTS(X) X(prefer) X(write) X(read) X(evict) X(banks)

/* The longest board name: the outputs are named <name>_segments.h and
 * the like (11 bytes more), written first as .<file>.segc-XXXXXX (13
 * more), and a file name has at most 255 bytes (names-c-ident). */
enum { BOARD_NAME_MAX = 255 - 11 - 13 };

typedef struct Spec {
    const SrcFile *file;       /* the spec named on the command line */
    const SrcFile **files;     /* it and its extends chain, for depfiles */
    unsigned nfiles;
    const char *name;          /* board.name */
    Pos name_pos;
    const char *camel, *upper; /* ContosoX1, CONTOSO_X1 */
    unsigned wddm;             /* 0x10, 0x11, 0x12, 0x13, 0x20 ... 0x31 */
    Pos wddm_pos;
    unsigned forms;            /* DDI_* answered: from wddm, or --ddi */
    bool forms_from_option;
    Arch arch;
    Pos arch_pos;
    unsigned ptr_bytes;        /* SIZE_T width for the arch */
    Value page_size;
    Constant *consts;
    unsigned nconsts;
    Bar *bars;
    unsigned nbars;
    Segment *segs;
    unsigned nsegs;
    Pos segs_pos;              /* the `segments:` sequence */
    AllocClass *classes;       /* `allocations:`, in order */
    unsigned nclasses;
    PlaceList dma;             /* `dma_buffer_segments:` (DmaBufferSegmentSet) */
    struct {
        const Segment *seg;    /* NULL: `none` (id 0) */
        Pos seg_pos;
        bool seg_set;
        Value buffer_size, private_data_size;
    } paging;
} Spec;

const char *arch_name(Arch a);
const char *seg_kind_name(SegKind k);

/* The DXGK values of allocation classes (resolve.c), for every place that
 * shows them (emit.c, dump.c, diff.c, map.c, segc lsp); the self-test
 * works them out on its own.  A set: bit id-1 of each segment named; a
 * preference: slot k (at most PREF_SLOTS) id at bit 6k, direction at
 * 6k+5; a bank hint: slot k (at most BANK_SLOTS) bank at bit 8k,
 * direction at 8k+7.  Names that name nothing count nothing. */
uint32_t places_mask(const PlaceList *l);
static inline const PlaceList *class_read(const AllocClass *c)
{
    return c->read.set ? &c->read : &c->write;
}
uint32_t class_preferred(const AllocClass *c);
uint32_t class_hinted_bank(const AllocClass *c);
/* Words `w` (n of them) as a message lists them (resolve.c): "A", "A and
 * B", "A, B or C" (`last` the separator before the last). */
const char *words_text(Arena *a, const char *const *w, size_t n, const char *last);
/* "local, visible, gart" (or "none"): the names of a set, in the order
 * written; with ids, "local (2), visible (1)". */
const char *places_text(Arena *a, const PlaceList *l, bool ids);

/* ---- the field table (fields.def): every number of the model --------- */

/* Where a field is written; scopes from SC_VPR on are read by no
 * expression.  Owners: Spec (board, paging), Bar, Segment, Bank. */
typedef enum { SC_BOARD, SC_BAR, SC_SEG, SC_CPU, SC_BANK, SC_PAGING, SC_VPR, SC_HOST, SC_QS4 } FieldScope;
#define SCOPE(sc) (1u << (sc)) /* a set of scopes */
/* The scopes whose owner is a segment (a bank's owner is its bank). */
#define SEG_SCOPES (SCOPE(SC_SEG) | SCOPE(SC_CPU) | SCOPE(SC_VPR) | SCOPE(SC_HOST) | SCOPE(SC_QS4))
/* The map a field of each scope is written in, as a key names it
 * ("vpr.range_start"); "" for a key of its own owner's. */
extern const char *const scope_map[];
/* A field's value when its key is absent: 0; DEFAULT_PAGE_SIZE; the end
 * of the previous non-AGP segment (0 for an AGP one); the segment's size;
 * for the last bank the rest of the segment (0 for the others); a BAR's
 * width: 64 bits above 4 GiB, else 32. */
typedef enum { DEF_ZERO, DEF_PAGE, DEF_PREV_END, DEF_SIZE, DEF_BANK_REST, DEF_BAR_BITS } FieldDefault;
/* The width of the DXGK member a field is written to. */
typedef enum { W_NONE, W_32, W_64, W_SIZE_T } FieldWidth;
/* A key's flags (fields.def, spec.def). */
enum { FF_BYTES = 1, FF_BAR = 2, FF_ADDRESS = 4, FF_FORM = 8, FF_REQUIRED = 16, FF_VARIANT = 32, FF_WDDM2_2 = 64 };
/* How emit.c writes a descriptor member (fields.def's `write`). */
typedef enum { WR_NONE, WR_INT, WR_QUAD, WR_CPU, WR_HOST, WR_BANKS } FieldWrite;
/* The DDI forms by index (DDI_QS is 1 << 0 ...), and the places of a
 * descriptor's members (fields.def's `at`; 1 is Flags). */
enum { DDI_FORMS = 3, DDI_MEMBERS = 13 };
enum { DEFAULT_PAGE_SIZE = 4096 };

typedef enum {
#define FIELD(id, sc, owner, member, key, def, ref, dxgk, width, flags, at, write, doc) F_##id,
#include "fields.def"
#undef FIELD
    FIELD_COUNT
} FieldId;

typedef struct FieldInfo {
    const char *id;
    FieldScope scope;
    size_t offset; /* of the Value in its owner */
    const char *key, *ref, *dxgk;
    FieldDefault def;
    FieldWidth width;
    unsigned flags;
    unsigned char at[DDI_FORMS];
    FieldWrite write;
} FieldInfo;
extern const FieldInfo field_table[FIELD_COUNT];

/* The Value of field `f` in `owner` (a Spec, Bar, Segment or Bank as its
 * scope says). */
static inline Value *field_value(FieldId f, const void *owner)
{
    return (Value *)(void *)((char *)(uintptr_t)owner + field_table[f].offset);
}
/* Whether field `f` applies to a map written in form `mode` (cpu_visible,
 * cpu_host_aperture: CPU_BAR or CPU_ADDRESS). */
bool field_in_mode(FieldId f, CpuMode mode);
/* Whether DDI form `form` (an index: 0 QUERYSEGMENT, 1 ...3, 2 ...4)
 * carries field `f` in its segment descriptor. */
static inline bool field_in_form(FieldId f, unsigned form)
{
    return field_table[f].at[form] != 0;
}
/* Whether the key that carries field `f` is written for segment `g`: the
 * field's own key (of the segment's map), or the map the field is a key
 * of (cpu_visible, banks, vpr, cpu_host_aperture, in the form that has
 * the field), which carries each of its fields, written or defaulted.
 * That key, its position in *at; NULL when it is not written (or `f` is
 * no descriptor member of a segment).  What every DDI form that is asked must carry
 * (check.c's key-not-emitted and the codes of its rows, emit.c). */
const char *field_written(FieldId f, const Segment *g, Pos *at);
/* Whether field `f`'s key may be written for an AGP segment: only base and
 * size, which VidMm ignores for it (agp-base-size-ignored).  Its
 * descriptor reports the aperture the OS describes in every form, so any
 * other key written would not be emitted (key-not-emitted; a map sets a
 * flag beside Agp: agp-exclusive). */
static inline bool field_agp_ignored(FieldId f)
{
    return f == F_base || f == F_size;
}
/* Whether a key of segment `g` besides `flags:` sets flag `bit` (the one
 * place that says which: resolve.c's flags, field_written and check.c read
 * it): *key the key that can ("kind", "cpu_visible", "banks", "vpr",
 * "cpu_host_aperture"; NULL: none) and *at where g writes it. */
bool flag_key(const Segment *g, unsigned bit, const char **key, Pos *at);
/* Whether DDI form `form` (an index, as field_in_form's) carries flag
 * `bit` of DXGK_SEGMENTFLAGS: QUERYSEGMENT4 every flag, the WDDM 1.x
 * forms (QUERYSEGMENT, QUERYSEGMENT3) those from before WDDM 2.0, whose
 * later bits are Reserved in their contract. */
static inline bool flag_in_form(unsigned bit, unsigned form)
{
    return form == 2 || flag_table[bit].min_wddm < 0x20; /* flag_table[bit] is bit's row */
}
/* The largest value field `f`'s DXGK member holds for the spec's arch. */
uint64_t field_max(FieldId f, const Spec *s);

/* ---- resolve.c: Node tree -> Spec -------------------------------------- */

/* The forms a driver of WDDM version `wddm` is asked for: QUERYSEGMENT
 * before 1.2, QUERYSEGMENT3 for 1.2 and 1.3, QUERYSEGMENT4 from 2.0. */
unsigned ddi_forms_for(unsigned wddm);
/* The forms by index as --ddi names them ("qs", "qs3", "qs4"), and a
 * list of them parsed ("qs,qs4"; 0 for a bad list).  A name after its
 * "qs" is the form's suffix in the DDI's names (QUERYSEGMENT3). */
extern const char *const ddi_form_names[DDI_FORMS];
#define DDI_SUFFIX(form) (ddi_form_names[form] + 2)
unsigned ddi_forms_parse(const char *list);

/* Checks the keys and types of a read spec, fills the model, applies -D
 * and evaluates every expression.  Returns NULL if the spec could not be
 * built (errors in `d`).  A returned Spec may still break rules (check.c
 * decides), and may keep what resolved around reported errors that left
 * the model whole: an unknown flag, waiver, BAR, paging segment or -D
 * constant is left out, a constant or a segment value that failed makes
 * its segments `unresolved`; not a failed board, BAR or paging value. */
Spec *spec_resolve(Arena *a, const Source *src, const ResolveOpts *o, Diags *d);
/* The structure of a spec (spec.def): its maps and, for every key a map
 * takes (spec.def's, then its fields'), what the value is and how a
 * variant merges it.  resolve.c checks keys and types by it, load.c
 * merges the extends chain by it, segc lsp offers keys and values by it,
 * and the JSON Schema is generated from it. */
typedef enum {
#define MAP(id, noun, title, max, doc) MAP_##id,
#define KEY(map, key, kind, target, values, merge, flags, doc)
#include "spec.def"
#undef MAP
#undef KEY
    MAP_COUNT,
    MAP_NONE = MAP_COUNT /* a KeyInfo's target when its value is no map */
} SpecMap;
/* What a key's value is, and the kind of node that holds it. */
#define VALUE_KINDS(X) \
    X(VK_EXPR, NODE_SCALAR)    /* an expression (a field; a constant's value) */ \
    X(VK_FORMAT, NODE_SCALAR)  /* the format version, SEGC_FORMAT_VERSION */ \
    X(VK_PATH, NODE_SCALAR)    /* a file's path */ \
    X(VK_IDENT, NODE_SCALAR)   /* a C identifier naming its map */ \
    X(VK_ENUM, NODE_SCALAR)    /* one of `values` */ \
    X(VK_VERSION, NODE_SCALAR) /* one of `values` (a WDDM version), quoted or not; "2" is 2.0 */ \
    X(VK_BOOL, NODE_SCALAR)    /* true or false (`values`) */ \
    X(VK_SEGMENT, NODE_SCALAR) /* the name of a segment, or none */ \
    X(VK_BAR, NODE_SCALAR)     /* the name of a BAR */ \
    X(VK_FLAGS, NODE_SEQ)      /* a sequence of flag_table's names */ \
    X(VK_WAIVERS, NODE_MAP)    /* a map of rule names to reasons */ \
    X(VK_CONSTANTS, NODE_MAP)  /* a map of names to expressions */ \
    X(VK_MAP, NODE_MAP)        /* a map `target` */ \
    X(VK_MAPS, NODE_MAP)       /* a map of names to maps `target` */ \
    X(VK_SEQ, NODE_SEQ)        /* a sequence of maps `target` */ \
    X(VK_SEGMENTS, NODE_SEQ)   /* a sequence of segment names */ \
    X(VK_HINTS, NODE_SEQ)      /* a sequence of names, each also writable as a map \
                                * `target` whose first key takes the name */ \
    X(VK_BANK, NODE_SCALAR)    /* the name of a bank (of the class's first preferred segment) */
typedef enum {
#define X(vk, node) vk,
    VALUE_KINDS(X)
#undef X
} ValueKind;
/* How a variant's value of a key meets its base's. */
typedef enum {
    MERGE_REPLACE, /* the variant's value replaces the base's whole */
    MERGE_KEYS,    /* key by key: each key of the variant's map (an entry of
                    * a VK_MAPS or VK_CONSTANTS) by its own rule, else replaced */
    MERGE_BY_NAME, /* a VK_SEQ, items matched by their MERGE_MATCH key: a
                    * match merges key by key, a new name is appended */
    MERGE_MATCH,   /* what MERGE_BY_NAME matches items by */
    MERGE_DELETE,  /* `true` removes the base's entry (a BAR, a segment, a class) */
    MERGE_FILE,    /* each file's own (load.c reads it), not merged */
} MergeRule;
typedef struct KeyInfo {
    SpecMap map;
    const char *key;
    ValueKind kind;
    SpecMap target; /* VK_MAP, VK_MAPS, VK_SEQ: the map of the value (its entries) */
    const char *const *values;
    size_t nvalues;
    MergeRule merge;
    unsigned flags; /* FF_REQUIRED, FF_VARIANT, FF_FORM, FF_BAR, FF_ADDRESS */
    int field;      /* its fields.def row, or -1 */
    const char *doc; /* NULL: its target map's */
} KeyInfo;
typedef struct MapInfo {
    const char *id, *noun, *title, *doc;
    unsigned max; /* entries of a sequence of it; 0: no limit */
} MapInfo;
extern const MapInfo spec_maps[MAP_COUNT];
extern const KeyInfo spec_keys[];
extern const size_t spec_key_count;
/* Key `key` of map `m` (any m, MAP_NONE included), or NULL. */
const KeyInfo *spec_key(int m, const char *key);
/* The map the keys of `path` lead to ("#" an item of a sequence, any
 * other word the key of a map or the name of an entry): MAP_SPEC for
 * none, MAP_SEGMENT for {"segments", "#"}; -1 if none of a spec. */
int spec_map_at(const char *const *path, unsigned depth);

/* What a name in an expression refers to: `vram` (a constant), `size` and
 * `base` (the current segment's), `page_size`, `bar.NAME.size`,
 * `SEG.base|size|end`.  The one name resolver: resolve.c evaluates
 * references through it, segc lsp reads values and offers names by it. */
typedef enum {
    REF_UNKNOWN,  /* no such name */
    REF_OUTSIDE,  /* `size`/`base` where there is no current segment */
    REF_CONSTANT, /* s->consts[index] */
    REF_FIELD,    /* field `field` of its owner (its scope says which): the
                   * board (index 0), s->bars[index] or s->segs[index] */
    REF_END,      /* SEG.end of s->segs[index]: base + size, not a field */
} RefKind;
typedef struct RefTarget {
    RefKind kind;
    FieldId field; /* REF_FIELD */
    unsigned index;
} RefTarget;
/* A name taken apart by its shape alone, before anything is looked up
 * (segc lsp also reads names in files that do not resolve): REF_CONSTANT,
 * REF_FIELD, REF_END, or REF_UNKNOWN when no name has that shape.  `owner`
 * (owner_len bytes of the name) is the constant, BAR or segment named;
 * none (0 bytes) for a field of the board or of the current segment. */
typedef struct RefName {
    RefKind kind;
    FieldId field;    /* REF_FIELD */
    FieldScope scope; /* REF_FIELD: the field's; REF_END: SC_SEG */
    const char *owner;
    size_t owner_len;
} RefName;
RefName ref_parse(const char *name);
/* The target of `name` in spec `s` (its names built: spec_resolve has
 * built the model), for an expression of segment `seg` (NULL: none). */
RefTarget ref_target(const Spec *s, const Segment *seg, const char *name);
/* Every name an expression of segment `seg` (NULL: none) may read in
 * spec `s`, *n of them (in `a`): constants, SEG.base|size|end,
 * bar.NAME.size, page_size, then `size` and `base` with a segment. */
const char **ref_names(Arena *a, const Spec *s, const Segment *seg, size_t *n);
/* The value a resolved spec holds for target `t`; false when `t` names
 * nothing or its evaluation failed. */
bool ref_resolved(const Spec *s, RefTarget t, uint64_t *out);
/* spec_read then spec_resolve, for tests and fuzzers. */
Spec *spec_load(Arena *a, const char *path, const ResolveOpts *o, Diags *d);
Spec *spec_from_string(Arena *a, const char *name, const char *text, const ResolveOpts *o, Diags *d);

/* ---- check.c: rules ---------------------------------------------------- */

/* A row of rules.def (see there).  The CODE rows have class
 * CLASS_INVARIANT (never switchable), scope ON_BOARD, no prerequisites
 * and a text only. */
typedef enum { CLASS_INVARIANT, CLASS_ADVISORY, CLASS_ADVISORY_BOARD } RuleClass;
/* What a rule's checker looks at: the board, a BAR, an allocation class,
 * a memory or aperture segment (the AGP segment's descriptor is the
 * aperture's: agp-exclusive), any segment. */
typedef enum { ON_BOARD, ON_BAR, ON_CLASS, ON_SEGMENT, ON_ANY_SEGMENT } RuleScope;
#define ON_SEGMENTS(sc) ((sc) >= ON_SEGMENT) /* a segment is the object */
enum { RULE_MAX_PRE = 3 };

typedef struct RuleInfo {
    const char *name;
    unsigned msvc;  /* --diagnostics=msvc: SEGC<msvc> */
    RuleClass cls;
    Severity sev;
    RuleScope scope;
    Code pre[RULE_MAX_PRE]; /* prerequisites (rules), npre of them */
    unsigned npre;
    const char *source, *text, *fix, *why;
} RuleInfo;
extern const RuleInfo rule_table[CODE_COUNT];
int rule_by_name(const char *name); /* a RULE, -1 if unknown */
int code_by_name(const char *name); /* any entry, -1 if unknown */
const char *rule_closest(const char *name); /* did-you-mean, or NULL */
const char *rule_class_name(RuleClass c);   /* "invariant", "advisory" */
/* Invariants cannot be switched off; only per-segment advisories waived. */
static inline bool rule_switchable(int id) { return id >= 0 && id < RULE_COUNT && rule_table[id].cls != CLASS_INVARIANT; }
static inline bool rule_waivable(int id) { return id >= 0 && id < RULE_COUNT && rule_table[id].cls == CLASS_ADVISORY; }

typedef enum { RS_DEFAULT, RS_OFF, RS_WARNING, RS_ERROR } RuleSetting;

typedef struct RuleConfig {
    RuleSetting setting[RULE_COUNT];
    bool werror_all;
} RuleConfig;

void rules_default(RuleConfig *c);
/* Applies one -W argument (the text after -W): "name", "no-name",
 * "error", "error=name", "no-error=name".  Returns WOPT_OK, or (changing
 * nothing) WOPT_UNKNOWN for an unknown rule and WOPT_INVARIANT for an
 * attempt to switch off or downgrade an invariant. */
typedef enum { WOPT_UNKNOWN, WOPT_OK, WOPT_INVARIANT } WoptResult;
WoptResult rules_option(RuleConfig *c, const char *arg);

/* Runs every rule.  Returns the number of errors it reported.  `out`:
 * NULL, or a build's outputs, zeroed (emit_name_clashes). */
typedef struct Outputs Outputs;
unsigned spec_check(Spec *s, const RuleConfig *c, Diags *d, Outputs *out);
/* Runs the checker of every invariant over `s`, reporting nothing: the
 * first invariant broken (CODE_NONE: none), the segment it is about (or
 * NULL) in *where and what its finding would say in *what.  The emitters'
 * precondition (emit_preconditions). */
Code check_invariants(Arena *a, const Spec *s, const Segment **where, const char **what);

/* ---- layout.c: the runtime GPU-address lookup table ----------------------- */

/* A region: a run of GPU addresses that answers one (segment, bank).
 * Region 0 stands for "no segment". */
typedef struct LookupRegion {
    uint64_t start, end; /* absolute GPU addresses, end exclusive */
    unsigned seg;        /* segment id, 0: none */
    unsigned bank;       /* 1-based bank id, 0: segment without banks */
    uint64_t seg_base;
} LookupRegion;

typedef enum { LOOKUP_DIRECT, LOOKUP_RADIX, LOOKUP_SEARCH } LookupForm;
/* Table entries: segment id << LOOKUP_BANK_BITS | bank id; 0: none. */
enum { LOOKUP_MAX_LEVELS = 4, LOOKUP_BANK_BITS = 7, LOOKUP_DEFAULT_BUDGET = 4 * 1024 };

typedef struct LookupLevel {
    unsigned shift;     /* index = (offset >> shift) & mask (level 0: no mask) */
    unsigned bits;      /* entries per node = 1 << bits (level 0: count) */
    uint32_t *entries;  /* all nodes of this level, concatenated */
    size_t n;
} LookupLevel;

typedef struct Lookup {
    LookupForm form;
    uint64_t lo, span;       /* lookups cover [lo, lo + span) */
    unsigned granule_log2;   /* every boundary is a multiple of 2^this from lo */
    LookupRegion *regions;   /* regions[0] is "none" */
    unsigned nregions;
    LookupLevel levels[LOOKUP_MAX_LEVELS];
    unsigned nlevels;
    uint32_t tag;            /* entries with this bit name a child node */
    unsigned entry_bytes;    /* 1, 2 or 4 */
    uint64_t *starts;        /* LOOKUP_SEARCH: sorted offsets, padded */
    uint32_t *start_region;  /* LOOKUP_SEARCH: the answer from each start */
    unsigned nstarts;        /* a power of two */
    size_t seg_bytes;        /* the per-segment base table */
    size_t bytes;            /* every table a lookup reads */
    unsigned loads;          /* worst-case memory loads per lookup */
    bool over_budget;        /* nothing fit; this is the smallest form */
    size_t work;             /* entries computed while choosing (for tests) */
    /* Two segments whose GPU ranges overlap (segments-overlap is off):
     * no table and no LookupGpuAddress; BankOfOffset walks bank tables. */
    const Segment *overlap[2];
} Lookup;

/* Picks the form (direct, radix, search) that fits `budget` bytes (0:
 * LOOKUP_DEFAULT_BUDGET) with the fewest loads, or none (Lookup.overlap). */
void layout_lookup(Arena *a, const Spec *s, uint64_t budget, Lookup *out);
const char *lookup_form_name(LookupForm f);

/* A byte count as a spec writes it: "256MiB" when a whole number of an IEC
 * unit, else decimal below 1 KiB and hex above (diff.c; emit.c's comments). */
const char *bytes_text(Arena *a, uint64_t v);

/* ---- diag_json.c: diagnostics for programs (JSON, SARIF 2.1.0) -------- */

/* `--diagnostics=text|json|sarif`; doc/diagnostics.md describes both
 * documents.  A DiagReport collects every file of a run (copying what it
 * keeps, so each file's arena can go) and is written once at the end. */
typedef enum { DIAG_TEXT, DIAG_JSON, DIAG_SARIF } DiagFormat;

/* A position as the documents for programs give it (and libsegc): its
 * 1-based line and column, the column after its span (a span of 0 bytes
 * covers one), in bytes and in code points (SARIF's); all 0 for no place. */
typedef struct DiagPlace {
    uint32_t line, col, end_col;
    uint32_t cp_col, cp_end_col;
} DiagPlace;
DiagPlace diag_place(Pos p);

typedef struct DiagReport DiagReport;
DiagReport *diag_report_new(void);
/* One file: its sorted diagnostics, its waived findings and, when the spec
 * was built (s non-NULL), its waivers. */
void diag_report_add(DiagReport *r, const char *path, const Diags *d, const Spec *s);
void diag_report_write(FILE *f, const DiagReport *r, DiagFormat fmt);
void diag_report_free(DiagReport *r);

/* What `segc explain RULE` prints (also SARIF's rule help). */
void rule_explain(Buf *b, const RuleInfo *r);

/* ---- dump.c: the resolved model as JSON (`segc dump --json`) ----------- */

/* {"segc_model": 1, ...}, documented in doc/model.md. */
void dump_json(Buf *out, const Spec *s);
/* `segc dump --yaml`: the spec as read, its extends chain merged, as one
 * self-contained spec (-D overrides written into its constants). */
void dump_yaml(Buf *out, const Source *src, const ResolveOpts *ro);

/* ---- emit.c, selftest.c: the C code, written in memory ------------------- */

typedef struct BuildOpts {
    const char *outdir;
    const char *templates_dir; /* --templates: the hook files */
    const char *depfile;       /* -MF; NULL: none */
    bool annotate;             /* --annotate: YAML file:line on descriptors */
    uint64_t lookup_budget;    /* --lookup-budget; 0: LOOKUP_DEFAULT_BUDGET */
    bool emit_selftest;        /* --emit-selftest: also <name>_selftest.c */
    const char *dep_target;    /* -MT: the depfile's targets, as written; NULL: the outputs */
    bool dep_phony;            /* -MP: an empty rule per input */
    const char *deps_list;     /* --deps-list: the inputs, one path per line; NULL: none */
} BuildOpts;

enum { MAX_OUTPUTS = 8 };

typedef struct Output {
    const char *name; /* file name inside the output directory */
    Buf text;
} Output;

typedef struct Outputs {
    Output files[MAX_OUTPUTS];
    unsigned n;
    const BuildOpts *build; /* the build they are for (spec_check renders them), or NULL */
    const SrcFile *hooks[MAX_OUTPUTS]; /* the hook files read */
    unsigned nhooks;
} Outputs;

/* Re-checks, cheaply, the invariants the emitted code relies on (check.c
 * reports them as rules); a broken one is an internal error (exit status 2)
 * naming it, so segc refuses rather than write wrong code.  Run by
 * emit_render before anything is laid out or rendered. */
bool emit_preconditions(Arena *a, const Spec *s, Diags *d);
/* Lays out the lookup table (*lk) and renders every output of `segc
 * build` into `out` (writes nothing), unless the names check rendered them
 * there already (spec_check's `out`; else `out` is zeroed); false with
 * errors in `d` (a broken invariant, a hook file) and nothing in `out`. */
bool emit_render(Arena *a, const Spec *s, const BuildOpts *o, Lookup *lk, Outputs *out, Diags *d);
void outputs_free(Outputs *out);

/* One identifier defined twice in the generated code where at least one
 * definition is built from a name of the spec.  Each definition is the
 * output it is in and what it is built from: kind 0 nothing (segc's own
 * text), 1 the board's name, 2 BAR `index`'s, 3 segment `index`'s, 4
 * allocation class `index`'s (the most particular when several). */
typedef struct NameClash {
    const char *ident;
    struct {
        unsigned kind, index;
        const char *file;
    } def[2];
} NameClash;
/* Renders every output of `segc build --emit-selftest` in memory (no hook
 * files, the default lookup budget), and returns the identifiers defined
 * twice, *n of them, one per pair of what they are built from
 * (names-generated-unique; check.c reports them).  The text of the files
 * that build out->build writes goes into `out` when it renders alike (no
 * hook files, no --annotate, the default budget); else none is written.
 * The spec must pass every check that runs before. */
NameClash *emit_name_clashes(Arena *a, const Spec *s, Outputs *out, unsigned *n);

/* ---- output.c: writing files safely ---------------------------------------- */

/* Writes every output into o->outdir (created if missing), then the
 * depfile: each file goes to a temporary first; only when every one was
 * written in full are they renamed over the old ones, one by one, or left
 * alone (mtime kept) when their bytes did not change.  A failed write
 * leaves every old file as it was; a failed rename (each is atomic) can
 * leave the files renamed before it new and the rest old, never a file
 * half written.  SIGINT/SIGTERM remove the temporaries.  I/O
 * errors are fatal, naming path and reason.  `verbose` (or NULL) gets a
 * line per file written or left unchanged. */
bool outputs_write(const Spec *s, const BuildOpts *o, const Outputs *out, Diags *d, FILE *verbose);
/* One file the same way: temporary beside it, then rename; left alone
 * when its bytes do not change.  The directory must exist. */
bool write_file_atomic(const char *path, const char *data, size_t len, Diags *d);

/* ---- options.c: the command line's options ------------------------------ */

/* The commands that take an option (a row of options.c's table). */
enum {
    OPT_BATCH = 1,      /* check: globs, -j, --files-from */
    OPT_OUT = 2,        /* -o */
    OPT_BUILD = 4,      /* --templates, --annotate, --emit-selftest, --lookup-budget: what build writes */
    OPT_DDI = 8,        /* --ddi */
    OPT_DIFF = 16,      /* --json, --kinds */
    OPT_DIAGNOSTICS = 32,
    OPT_JSON = 64,      /* dump --json (the default) or --yaml */
    OPT_DOC = 128,      /* --diagnostics=json|sarif: one document, not text */
    OPT_LSP = 256,      /* --stdio, --log */
    OPT_SPEC = 512,     /* exactly one SPEC */
    OPT_TEXT = 1024,    /* -q, --color: diagnostics reported on the terminal */
    OPT_VERBOSE = 2048, /* -v: what was checked or written */
    OPT_DEPS = 4096,    /* -MD, -MF, -MT, -MP, --deps-list: the files beside build's outputs */
    OPT_HELP = 8192,    /* -h, --help: every command of the command line */
    /* libsegc's (segc_context_options): -D, -I, -W, and those that shape
     * what is checked and built, none that names a file to write */
    OPT_LIB = OPT_BUILD | OPT_DDI,
};

typedef struct Options {
    Arena *arena;           /* the defines, includes and -D names */
    unsigned cmd_opts;      /* the OPT_* of the command parsed for */
    const char *cmd_name;
    RuleConfig rules;
    ResolveOpts resolve;
    Define *defines;       /* resolve's, to fill */
    const char **includes; /* resolve's, to fill */
    char **files;          /* copies in `arena` (main.c) */
    unsigned nfiles;
    const char *files_from; /* check --files-from */
    unsigned jobs;          /* check -j */
    BuildOpts build;        /* build.outdir is also map's -o FILE */
    Buf dep_targets;        /* every -MT, space-separated (as gcc) */
    bool help;
    bool md;
    bool verbose;
    bool quiet;
    bool json;       /* diff --json, dump --json */
    bool yaml;       /* dump --yaml */
    bool kinds;      /* diff --kinds */
    const char *rev; /* diff --rev: OLD is NEW as git has it there */
    bool stdio;      /* lsp --stdio: the only transport, accepted as editors pass it */
    const char *log; /* lsp --log FILE */
    DiagStyle style;
    DiagFormat diags;   /* --diagnostics */
    DiagReport *report; /* json/sarif: the run's one document (main.c) */
    char err[1024];     /* why option_parse refused an option */
    Buf err_detail;     /* and the diagnostics of a value it refused, as text */
} Options;

/* A row of the option table: one that sets a field (to true, or to its
 * value), or has a parser of its own. */
typedef struct Opt {
    const char *flag;
    unsigned opts;    /* the OPT_* that takes it; 0: every command and libsegc */
    const char *what; /* its value, as a usage error names it: NULL for none (the flag
                       * alone), "[...]" for one that may be left out */
    bool path;        /* the value is a path (an empty one is refused) */
    size_t field;     /* without `take`: offsetof(Options, ...), a bool or a const char * */
    /* its own parser, given its value (NULL: none written); false with
     * o->err set when the value is wrong */
    bool (*take)(Options *o, const char *v);
} Opt;
extern const Opt option_table[];
extern const size_t option_count;

/* Options for a command taking `cmd_opts` with up to `argc` arguments. */
void options_init(Options *o, Arena *a, int argc, unsigned cmd_opts, const char *cmd_name);
/* The option at argv[*i] (which it may advance past the option's value):
 * 1 taken, 0 no option the command takes, -1 a wrong value (o->err). */
int option_parse(Options *o, int argc, char **argv, int *i);
void options_free(Options *o);
/* --color's mode: auto (a terminal that shows colour, NO_COLOR unset),
 * always or never; false for another word. */
bool want_color(const char *mode, bool *color);

/* ---- libsegc.c: the pipeline every command runs ------------------------ */

/* A spec through the front end, in its own arena. */
typedef struct Checked {
    Arena *a;            /* NULL until it is there (check's workers) */
    Diags d;             /* sorted */
    const SrcFile *file; /* the spec's text; NULL when it could not be read */
    Source src;          /* the spec as read, its extends chain merged (root NULL: none) */
    Spec *s;             /* NULL if it could not be built */
} Checked;

/* The front end every command shares: load (load.c), resolve
 * (resolve.c), check (check.c), for the spec at `path`, or (text not
 * NULL) for `len` bytes of `text` named `path`, in arena `a`; `out` is
 * spec_check's.  Returns c->s.  Touches nothing shared, so check's
 * workers run it. */
Spec *front_end(Checked *c, Arena *a, const char *path, const char *text, size_t len, const ResolveOpts *ro,
                const RuleConfig *rc, Outputs *out);
/* After front_end (given `out` for build `o`), `segc build`'s outputs in
 * memory if the spec has no error (emit_render).  False with errors in
 * c->d (sorted). */
bool build_outputs(Checked *c, const BuildOpts *o, Lookup *lk, Outputs *out);

/* ---- lsp/: segc lsp ------------------------------------------------------ */

/* Serves the Language Server Protocol on `in`/`out` until `exit` or the
 * end of `in`, with the front-end options and rules of the command line;
 * `log` (or NULL) gets every message.  Returns 0 after a shutdown request,
 * else 1. */
int lsp_serve(FILE *in, FILE *out, FILE *log, const ResolveOpts *ro, const RuleConfig *rules);

/* ---- os.c: the operating system, POSIX or Windows ---------------------- */

#ifdef _WIN32
#define OS_WINDOWS 1
#else
#define OS_WINDOWS 0
#endif
/* Windows: the arguments as UTF-8, binary standard streams, a UTF-8
 * console.  Nothing elsewhere. */
void os_init(int *argc, char ***argv);
FILE *os_fopen(const char *path, const char *mode); /* UTF-8 path */
/* `git cat-file blob REV:./PATH` as a pipe (PATH relative to the current
 * directory); os_git_close is 0 when git found the file. */
FILE *os_git_open(const char *rev, const char *path);
int os_git_close(FILE *f);
typedef enum { OS_MISSING, OS_FILE, OS_DIR, OS_OTHER } OsKind;
OsKind os_kind(const char *path); /* a symlink counts as what it is, except to a directory */
int os_mkdir(const char *path);   /* 0 or an errno value */
char *os_realpath(const char *path); /* malloc'd; NULL if unknown */
bool os_is_sep(char c);              /* '/', and '\\' on Windows */
bool os_is_absolute(const char *path);
const char *os_basename(const char *path); /* after the last separator (or drive) */
unsigned os_ncpu(void);
bool os_stderr_tty(void);
bool os_color_auto(void); /* a terminal or console that shows colour */
/* The names matching a pattern, sorted (malloc'd, each malloc'd); NULL if none. */
char **os_glob(const char *pattern, size_t *count);
int os_mkstemp(char *tmpl);             /* "...XXXXXX": a new file, opened binary */
bool os_write_durable(int fd, const char *p, size_t n); /* written, on disk, closed; errno: the first failure */
bool os_replace(const char *from, const char *to); /* atomic rename over; errno */
void os_remove(const char *path);      /* safe in a signal handler */
/* Until called with NULL: on SIGINT/SIGTERM/SIGHUP/SIGPIPE or Ctrl-C,
 * run `cleanup` and die of it. */
void os_guard(void (*cleanup)(void));

/* ---- util.c: did-you-mean, quantities, identifiers --------------------- */
/* The closest candidate by edit distance, or NULL if none is close.
 * closest_of reads the names of n items of `size` bytes that each start
 * with their name (a string array, a table of Bar, FlagInfo, RuleInfo...);
 * NULL names are skipped. */
#define closest_name(word, cands, n) closest_of((word), (cands), (n), sizeof *(cands))
const char *closest_of(const char *word, const void *items, size_t n, size_t size);
/* The item named name[0..len) of such items, or NULL; BY_NAME for a string. */
void *named(const void *items, size_t n, size_t size, const char *name, size_t len);
#define NAMED(items, n, name, len) named((items), (n), sizeof *(items), (name), (len))
#define BY_NAME(items, n, name) NAMED((items), (n), (name), strlen(name))
/* diag.c: adds "did you mean 'X'?" to `on` when one of those names is
 * close; says whether. */
bool diag_suggest(Diags *d, Diag *on, const char *word, const void *items, size_t n, size_t size);
const char *iec(Arena *a, uint64_t v); /* 14.75 GiB */
const char *qty(Arena *a, uint64_t v); /* 0x3B0000000 (14.75 GiB) */
/* The names (or DxgkNames) of the flags set in `flags`, `sep` between
 * them ("direct_flip | cpu_visible"), or NULL for none. */
const char *flags_text(Arena *a, uint32_t flags, const char *sep, bool dxgk);

bool is_c_ident(const char *s);
char *to_camel(Arena *a, const char *snake); /* contoso_x1 -> ContosoX1 */
char *to_upper(Arena *a, const char *snake); /* contoso_x1 -> CONTOSO_X1 */
/* ---- diff.c: comparing two specs ----------------------------------------- */

/* What a change does to a driver that shipped with the OLD spec's code. */
typedef enum { CHANGE_COMPATIBLE, CHANGE_BREAKING } ChangeClass;

typedef enum {
#define CHANGE(id, name, cls, why) CH_##id,
#include "changes.def"
#undef CHANGE
    CHANGE_KIND_COUNT
} ChangeKind;

typedef struct ChangeInfo {
    const char *name; /* stable kebab-case, e.g. "segment-renumbered" */
    ChangeClass cls;
    const char *why;
} ChangeInfo;
extern const ChangeInfo change_table[CHANGE_KIND_COUNT];
const char *change_class_name(ChangeClass c); /* "breaking", "compatible" */

/* One side of a change.  `text` is the value as segc prints it ("64GiB",
 * "aperture", "on", "BAR0+256MiB"); `numeric` says whether `v` carries it
 * as a number too. */
typedef struct ChangeSide {
    bool present; /* false: the thing does not exist on this side */
    const char *text;
    uint64_t v;
    bool numeric;
    Pos pos; /* where the side's spec says it (or the nearest place that does) */
} ChangeSide;

typedef struct Change {
    struct Change *next;
    ChangeKind kind;
    const char *segment; /* the segment it is about, or NULL */
    const char *bank;  /* the bank's name (NEW side, else OLD), or NULL */
    unsigned bank_id;  /* its 1-based id, 0 if not about a bank */
    const char *bar;   /* the BAR's name, or NULL */
    const char *flag;  /* the DXGK_SEGMENTFLAGS member, or NULL */
    const char *constant; /* constant-changed: the constant's name */
    const char *alloc;    /* an allocation class's changes: the class's name */
    ChangeSide from, to; /* OLD and NEW */
    Pos pos;           /* where to point: NEW, or OLD when NEW lacks the thing */
    const char *msg;   /* one line, e.g. "segment 'gart' size 0x40000000 (1 GiB) -> 0x80000000 (2 GiB), +1 GiB" */
    const char *cause; /* a knock-on change: what made it ("bank 'near' shrank") */
    Note *notes;       /* constant-changed: the changes it caused */
} Change;

typedef struct Diff {
    Change *head, **tail; /* board, BARs, segments (removed first), paging */
    unsigned count, nbreaking; /* the others are compatible */
} Diff;

/* Compares the resolved values of two valid specs: segments and BARs are
 * matched by name, banks by id, and nothing is compared as text. */
void spec_diff(Arena *a, const Spec *old_spec, const Spec *new_spec, Diff *out);
/* One line per change ("breaking: file:line:col: [kind] message[, because
 * cause]", then its "note: file:line:col: ..." lines), then a summary line. */
void diff_print_text(Buf *b, const Diff *d);
/* The versioned JSON object documented in doc/diff.md. */
void diff_print_json(Buf *b, const Diff *d, const char *old_name, const char *new_name);
/* ---- map.c: the memory map as a picture ---------------------------------- */

/* Draws the spec as SVG (MAP_HTML: a page holding the same SVG, a table of
 * the segments, the BARs and the diagnostics; MAP_MARKDOWN: those tables,
 * the banks and the CPU windows, and the diagnostics as Markdown, without
 * the picture) into `out`.  The spec may break rules: segments, windows and
 * BARs that the diagnostics in `d` point at are outlined in red with the
 * rule's name.  Deterministic bytes. */
typedef enum { MAP_SVG, MAP_HTML, MAP_MARKDOWN } MapFormat;
bool map_render(Arena *a, const Spec *s, const Diags *d, MapFormat format, Buf *out);

#endif
