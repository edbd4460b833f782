/* SPDX-License-Identifier: MIT */
/* lsp.h - `segc lsp`: the checker as a Language Server (LSP 3.17, stdio).
 *
 * The server is a loop over JSON-RPC messages (rpc.c) that keeps the open
 * documents and runs segc's own pipeline on them (server.c: spec_read ->
 * spec_resolve -> spec_check, the stages `segc check` runs); query.c
 * answers hover and completion, nav.c definition, references, symbols and
 * code actions from what the last run of the pipeline left.  JSON is read
 * and written with jansson. */
#ifndef SEGC_LSP_H
#define SEGC_LSP_H

#include "segc.h"

#include <jansson.h>

/* ---- rpc.c: messages ------------------------------------------------------ */

/* JSON-RPC and LSP error codes. */
enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_INTERNAL_ERROR = -32603,
    RPC_SERVER_NOT_INITIALIZED = -32002,
    RPC_REQUEST_FAILED = -32803,
};

/* The largest message body read; a larger one is skipped and answered with
 * an error.  Room for a spec of SRC_MAX_BYTES escaped as JSON. */
enum { RPC_MAX_BODY = 4 * SRC_MAX_BYTES + (1u << 20), RPC_MAX_HEADER_LINE = 1024 };

typedef enum {
    READ_OK,       /* *body holds one message body */
    READ_EOF,      /* the stream ended between messages */
    READ_BAD,      /* a malformed header or a truncated body: *why says what */
    READ_TOO_BIG,  /* the body was skipped: Content-Length over RPC_MAX_BODY */
} ReadStatus;

/* Reads one message (headers, blank line, Content-Length bytes) from `in`
 * into `body` (reset first, NUL-terminated).  After READ_BAD the stream is
 * at the next line; the caller may go on reading. */
ReadStatus rpc_read(FILE *in, Buf *body, const char **why);
/* Writes `msg` with its header and flushes; false if the stream failed. */
bool rpc_write(FILE *out, const json_t *msg);

/* ---- server.c: the server, its documents ---------------------------------- */

/* A run of the pipeline over a document's text: what every query reads. */
/* (`file`: the document's text as the pipeline read it; `s`: the spec,
 * NULL when it could not be built.) */
typedef Checked Analysis;

typedef struct Doc {
    char *uri;
    char *path;   /* the file the URI names (decoded), or the URI itself */
    char *real;   /* its canonical path when the file exists, else NULL */
    const SrcFile *file; /* its text (NUL-terminated), in an arena of its own */
    long long version;
    Analysis *an; /* the last analysis, NULL once the text changed */
    Analysis *good; /* the last analysis that built a spec (completion's names), or NULL */
} Doc;

typedef enum { ENC_UTF16, ENC_UTF8 } PosEncoding;
/* The MarkupKind a client reads: LSP's "markdown" or "plaintext". */
typedef enum { MARKUP_MARKDOWN, MARKUP_PLAIN } Markup;

typedef struct Server {
    FILE *out, *log;
    Doc **docs;
    size_t ndocs;
    ResolveOpts ro;
    RuleConfig rules;
    PosEncoding enc;
    Markup hover_markup, doc_markup; /* hover's, completion items' documentation's */
    bool initialized, shutdown;
    bool done; /* `exit` came, or the client is gone */
} Server;

/* An error a request is answered with. */
typedef struct RpcError {
    int code;
    char msg[256];
} RpcError;

/* Sets *err and returns NULL, for request handlers. */
json_t *rpc_fail(RpcError *err, int code, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* The open document params.textDocument.uri names, and with `off` in *off
 * the byte offset of params.position; NULL (and *err set) when the params
 * name none, it is not open or (with `off`) they have no position. */
Doc *lsp_doc(Server *S, const json_t *params, RpcError *err, size_t *off);
/* The document's analysis, run now if its text changed since the last. */
Analysis *lsp_analysis(Server *S, Doc *doc);

/* Positions.  An LSP position (0-based line, character in the negotiated
 * encoding) <-> a byte offset of a text; a segc Pos -> an LSP range.  The
 * lines and the start of each line's text are src_loc's (a BOM is not
 * part of line 1). */
bool lsp_offset(const Server *S, const Doc *doc, const json_t *pos, size_t *off);
json_t *lsp_range(const Server *S, Pos p);
json_t *lsp_range_in(const Server *S, const SrcFile *f, size_t from, size_t to);
/* The byte offset of a Pos in its file (0: none; at most the file's length). */
size_t pos_offset(Pos p);
/* A Location for a Pos: the URI of its file (an open document's own URI
 * when the file is one), NULL for a Pos with no file. */
json_t *lsp_location(const Server *S, Pos p);
/* Where finding `g` is shown in the document `an` analysed: at its own
 * position there; for a finding in a file the document extends, at its
 * first note in the document (the variant's value that caused it), else
 * nowhere (no file), which is shown at the `extends:` line. */
Pos lsp_shown(const Analysis *an, const Diag *g);
/* A finding as textDocument/publishDiagnostics sends it for `doc`. */
json_t *lsp_diagnostic(const Server *S, const Doc *doc, const Analysis *an, const Diag *g);

/* ---- locate.c: what the cursor is on ------------------------------------ */

enum { LOC_MAX_DEPTH = 16 };

/* One step from the root: the key (a map's) or the index (a sequence's,
 * key NULL) taken in `node`. */
typedef struct PathStep {
    const char *key;
    int index;
    const Node *node;
} PathStep;

typedef struct Cursor {
    size_t off;           /* the byte offset in the document */
    const Node *scalar;   /* the scalar under it: a key or a value */
    const SrcFile *const *files; /* of the tree it is in (node_pos) */
    bool on_key;          /* the scalar is a key (the last step's) */
    PathStep path[LOC_MAX_DEPTH];
    unsigned depth;
} Cursor;

/* Finds the scalar of the document under byte `off` in tree `root` of
 * the analysis (its merged tree, or the document's own), whose nodes are
 * of `files` (a base file's nodes are not the document's).  False when
 * there is none, or no tree (c->depth is then 0). */
bool lsp_locate(const Analysis *an, const Node *root, const SrcFile *const *files, size_t off, Cursor *c);
/* The segment of spec `s` (or NULL) named `name`, or NULL. */
const Segment *spec_segment(const Spec *s, const char *name);
/* The `name:` of the entry of `segments:` the cursor is inside, or NULL;
 * the segment of the spec of that name, or NULL. */
const char *cursor_segment_name(const Cursor *c);
const Segment *cursor_segment(const Analysis *an, const Cursor *c);
/* Whether the cursor's path (its keys, "#" for an index: the path context.c
 * and spec_map_at speak) is `pattern` (path_match). */
bool path_is(const Cursor *c, const char *pattern);
/* Whether the cursor's scalar is the value of an expression: a constant's
 * (*field -1) or a field's (spec.def's key, fields.def's field). */
bool cursor_expression(const Cursor *c, int *field);

/* ---- query.c: hover and completion; nav.c: navigation and code actions -- */

typedef json_t *Handler(Server *S, const json_t *params, RpcError *err);
Handler lsp_hover, lsp_completion, lsp_definition, lsp_references, lsp_symbols, lsp_code_action;


#endif
