/* SPDX-License-Identifier: MIT */
/* context.h - where the cursor is in a spec's text, read from the text
 * alone (indentation, `key:`, `- ` and `{ [`), for completion while the
 * YAML is incomplete and has no tree.  Pure: no JSON, no server (the unit
 * tests link it). */
#ifndef SEGC_LSP_CONTEXT_H
#define SEGC_LSP_CONTEXT_H

#include "segc.h"

enum { CTX_MAX_DEPTH = 8, CTX_MAX_NAME = 64, CTX_MAX_PRESENT = 48 };

typedef enum {
    CTX_NONE,  /* a comment, or nothing the text says */
    CTX_KEY,   /* a key of map `path` */
    CTX_VALUE, /* the value of `key` in map `path` */
    CTX_ITEM,  /* an item of the sequence `key` of map `path` */
} CtxKind;

/* A word of the text: [s, s + n). */
typedef struct Word {
    const char *s;
    size_t n;
} Word;

typedef struct TextCtx {
    CtxKind kind;
    /* The keys from the root to the map, "#" for a sequence's item:
     * {"segments", "#", "banks", "#"}. */
    char path[CTX_MAX_DEPTH][CTX_MAX_NAME];
    unsigned depth;
    char key[CTX_MAX_NAME];
    size_t word; /* where the word being typed starts (the offset itself if none) */
    /* CTX_KEY: the keys the map already has; CTX_ITEM: the items the
     * sequence already has (the word being typed left out). */
    Word present[CTX_MAX_PRESENT];
    unsigned npresent;
} TextCtx;

/* The context of byte `off` of `text`. */
void text_context(const char *text, size_t len, size_t off, TextCtx *out);
/* Whether word `w` is one of the present ones. */
bool ctx_present(const TextCtx *c, const char *w);

/* Whether a path of keys is `pattern`: keys separated by spaces, "#" a
 * sequence's item, "*" any key ("segments # flags #", "bars *"). */
bool path_match(const char *const *path, unsigned depth, const char *pattern);
/* What follows the colon of top-level key `key` in the text of `f` (a
 * line that starts with the key, blanks and ':'), or NULL: `segc:` makes
 * a document a spec, `extends:` a variant. */
const char *text_top_key(const SrcFile *f, const char *key);

#endif
