/* SPDX-License-Identifier: MIT */
/* emit_int.h - the writer that emit.c and selftest.c write C through.
 *
 * The text is in templates/ (the .frag files), cut into fragments that
 * compiler/tools/frag.c compiles into $(B)/gen/frags.[ch] when segc is
 * built: for each fragment a function `NAME(Emit *w, ARGS...)` that writes
 * it (emit.c's emitf says how arguments are written), and the identifiers
 * it defines.  The C code decides which fragments to write, how often, and
 * with what. */
#ifndef SEGC_EMIT_INT_H
#define SEGC_EMIT_INT_H

#include "segc.h"

/* A name of the spec as the generated code spells it (ContosoD8,
 * CONTOSO_D8, LOCAL_VRAM), and what it comes from: an identifier built
 * from it is the board's, a BAR's, a segment's or an allocation class's
 * (`index` into s->bars, s->segs or s->classes). */
typedef enum { NAME_BOARD = 1, NAME_BAR, NAME_SEGMENT, NAME_CLASS } NameKind;
typedef struct Name {
    const char *text;
    NameKind kind;
    unsigned index;
    size_t len; /* of text */
} Name;

typedef union FragArg {
    const char *s;
    const Name *n;
    uint64_t u;
    Pos p;
} FragArg;

/* Literal bytes (frag_text + off), then argument `arg` (-1: none)
 * written by `conv`. */
typedef struct FragPiece {
    unsigned off, len;
    signed char arg;
    char conv;
    unsigned char width;
} FragPiece;
/* [first, first + n) of frag_pieces, or of frag_defs; for an identifier
 * all of text, its hash. */
typedef struct FragSpan {
    unsigned first, n;
    uint32_t hash;
} FragSpan;
/* A fragment: its text, and the identifiers it defines, each a span of
 * pieces built like text. */
typedef struct Frag {
    FragSpan text, defs;
} Frag;

/* An identifier the outputs define, the output it is in, and the most
 * particular name it is built from (NULL: none; segc's own). */
typedef struct GenDef {
    const char *ident; /* not NUL-terminated */
    unsigned len, hash;
    const char *file;
    const Name *on;
} GenDef;

typedef struct Emit {
    Arena *a;
    Buf *out;         /* the output's text; NULL: record the definitions only */
    const char *file; /* the output's name */
    bool annotate;    /* --annotate: ${x:@} writes " [file.yaml:LINE]" */
    GenDef *defs;     /* every identifier written at file scope, in order */
    unsigned ndefs, capdefs;
    unsigned fixed_at;      /* and segc_dxgk.h's (frag_fixed) before defs[fixed_at] */
    const char *fixed_file; /* where they are written; NULL: not written */
    Buf *saved, str;  /* emit_str */
    Buf scratch;      /* an identifier being built */
} Emit;

void emitf(Emit *w, const Frag *f, const FragArg *a);
/* The identifiers that emit_name_clashes compares, *n of them (for tests). */
const GenDef *emit_defs(Arena *a, const Spec *s, unsigned *n);
/* A fragment's text as a string (in w->a): "" when w writes no text. */
#define emit_str(w, call) (emit_str_begin(w), call, emit_str_end(w))
void emit_str_begin(Emit *w);
const char *emit_str_end(Emit *w);

/* selftest.c: <board>_selftest.c, with the names the other outputs give
 * (the board's, each segment's and each BAR's; the hook banner or ""). */
typedef struct SelftestNames {
    const Name *up, *camel, *seg, *bar, *cls;
    const char *header, *source, *file, *spec, *banner;
} SelftestNames;
void selftest_write(Emit *w, const Spec *s, const Lookup *lk, const SelftestNames *n);

#endif
