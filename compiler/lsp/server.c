/* SPDX-License-Identifier: MIT */
/* server.c - the language server: its lifecycle, the open documents and
 * their diagnostics.
 *
 * Every open document is run through the stages `segc check` runs
 * (spec_read -> spec_resolve -> spec_check) each time its text or the text
 * of a file it extends changes.  `extends` files are read from the open
 * documents first, then from the disk (ResolveOpts.open_file).  A finding
 * in a file the document extends is shown at the document's `extends:`,
 * with the place itself as related information. */
#include "lsp.h"
#include "context.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- URIs ------------------------------------------------------------------- */

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The path a file: URI names (percent-decoded; file:///c:/x -> c:/x), or
 * the URI itself for any other scheme (an unsaved buffer). */
static char *path_from_uri(const char *uri)
{
    if (strncmp(uri, "file://", 7) != 0)
        return strcpy(xmalloc(strlen(uri) + 1), uri);
    const char *s = uri + 7;
    if (strncmp(s, "localhost/", 10) == 0)
        s += 9;
    char *out = xmalloc(strlen(s) + 1), *o = out;
    for (; *s; s++) {
        int h, l;
        if (*s == '%' && (h = hexval(s[1])) >= 0 && (l = hexval(s[2])) >= 0 && (h || l)) {
            *o++ = (char)(h * 16 + l);
            s += 2;
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
    /* "/c:/dir" is the Windows path "c:/dir". */
    if (out[0] == '/' && out[1] && out[2] == ':' && ((out[1] | 32) >= 'a' && (out[1] | 32) <= 'z'))
        memmove(out, out + 1, strlen(out));
    return out;
}

/* The URI for a file path, malloc'd. */
static char *uri_from_path(const char *path)
{
    Buf b = {0};
    buf_puts(&b, "file://");
    if (path[0] != '/')
        buf_putc(&b, '/'); /* c:/dir -> file:///c%3A/dir */
    for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
        if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr("-._~/", *s))
            buf_putc(&b, (char)*s);
        else if (os_is_sep((char)*s))
            buf_putc(&b, '/'); /* Windows' '\\'; a POSIX name's '\\' is %5C */
        else
            buf_printf(&b, "%%%02X", *s);
    }
    buf_putc(&b, 0);
    return b.p;
}

/* ---- positions ---------------------------------------------------------------- */

/* Code units of the encoding for the UTF-8 bytes [s, e). */
static size_t units(PosEncoding enc, const char *s, const char *e)
{
    if (enc == ENC_UTF8)
        return (size_t)(e - s);
    size_t n = 0;
    for (; s < e; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c & 0xC0) != 0x80)
            n += c >= 0xF0 ? 2 : 1; /* a character past U+FFFF is a surrogate pair */
    }
    return n;
}

/* LSP positions are derived from src_loc's lines and columns (a BOM is
 * no character of line 1 there either): a line is src_loc's less one, a
 * character the code units from the start of its text. */

bool lsp_offset(const Server *S, const Doc *doc, const json_t *pos, size_t *off)
{
    json_t *l = json_object_get(pos, "line"), *c = json_object_get(pos, "character");
    if (!json_is_integer(l) || !json_is_integer(c) || json_integer_value(l) < 0 || json_integer_value(c) < 0)
        return false;
    const char *text = doc->file->text, *end = text + doc->file->len;
    json_int_t line = json_integer_value(l);
    const char *s = text + src_line_off(doc->file, line >= UINT32_MAX ? UINT32_MAX : (uint32_t)line + 1);
    /* Past the end of the line: its end, as LSP asks. */
    for (size_t want = (size_t)json_integer_value(c), n = 0; s < end && *s != '\n' && *s != '\r';) {
        const char *next = s + 1;
        while (next < end && ((unsigned char)*next & 0xC0) == 0x80)
            next++;
        n += units(S->enc, s, next);
        if (n > want)
            break;
        s = next;
    }
    *off = (size_t)(s - text);
    return true;
}

/* The LSP position of offset `off` of file `f`. */
static json_t *position(const Server *S, const SrcFile *f, size_t off)
{
    SrcLoc l = src_loc(pos_at(f, off < f->len ? off : f->len, 0));
    const char *at = f->text + (off < f->len ? off : f->len);
    return json_pack("{s:I,s:I}", "line", (json_int_t)(l.line ? l.line - 1 : 0), "character",
                     (json_int_t)(l.line && at > l.bol ? units(S->enc, l.bol, at) : 0));
}

json_t *lsp_range_in(const Server *S, const SrcFile *f, size_t from, size_t to)
{
    return json_pack("{s:o,s:o}", "start", position(S, f, from), "end", position(S, f, to));
}

size_t pos_offset(Pos p)
{
    return !pos_placed(p) ? 0 : p.off < p.file->len ? p.off : p.file->len;
}

json_t *lsp_range(const Server *S, Pos p)
{
    if (!pos_placed(p) || !p.file->text)
        return json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line", 0, "character", 0, "end", "line", 0,
                         "character", 0);
    size_t from = pos_offset(p), to = from + (p.len ? p.len : 1);
    const char *t = p.file->text;
    /* A span stays on its line; a zero-length one covers one character. */
    for (size_t i = from; i < to; i++)
        if (i >= p.file->len || t[i] == '\n' || t[i] == '\r') {
            to = i;
            break;
        }
    while (to < p.file->len && ((unsigned char)t[to] & 0xC0) == 0x80)
        to++;
    return lsp_range_in(S, p.file, from, to);
}

/* Whether `path` names the document's file. */
static bool same_file(const char *path, const Doc *doc)
{
    if (!strcmp(path, doc->path))
        return true;
    char *real = doc->real ? os_realpath(path) : NULL;
    bool same = real && !strcmp(real, doc->real);
    free(real);
    return same;
}

/* The open document whose file `path` names, or NULL. */
static Doc *doc_by_path(const Server *S, const char *path)
{
    for (size_t i = 0; i < S->ndocs; i++)
        if (same_file(path, S->docs[i]))
            return S->docs[i];
    return NULL;
}

json_t *lsp_location(const Server *S, Pos p)
{
    /* A pseudo-file ("<command line>", a -D value) is no place to go to. */
    if (!p.file || p.file->name[0] == '<')
        return NULL;
    Doc *d = doc_by_path(S, p.file->name);
    /* A file that is not open: its canonical path, so that a name such as
     * dir/../base.yaml gives the URI an editor has for the file. */
    char *real = d ? NULL : os_realpath(p.file->name);
    char *uri = d ? NULL : uri_from_path(real ? real : p.file->name);
    json_t *loc = json_pack("{s:s,s:o}", "uri", d ? d->uri : uri, "range", lsp_range(S, p));
    free(real);
    free(uri);
    return loc;
}

/* ---- documents and their analysis ---------------------------------------------- */

static void analysis_free(Analysis *an)
{
    if (an) {
        arena_free(an->a);
        free(an);
    }
}

/* The document's text changed: its analysis goes, kept as the last good
 * one (Doc.good) when it built a spec. */
static void forget(Doc *d)
{
    if (d->an && d->an->s) {
        analysis_free(d->good);
        d->good = d->an;
    } else {
        analysis_free(d->an);
    }
    d->an = NULL;
}

/* ResolveOpts.open_file: an `extends` file's text from an open document. */
static const SrcFile *open_file(void *ctx, Arena *a, const char *path)
{
    const Doc *d = doc_by_path(ctx, path);
    return d ? src_from_string(a, path, d->file->text, d->file->len) : NULL;
}

Analysis *lsp_analysis(Server *S, Doc *doc)
{
    if (doc->an)
        return doc->an;
    Analysis *an = xmalloc(sizeof *an);
    ResolveOpts ro = S->ro;
    ro.open_file = open_file;
    ro.open_ctx = S;
    front_end(an, arena_new(), doc->path, doc->file->text, doc->file->len, &ro, &S->rules, NULL);
    return doc->an = an;
}

/* Where findings in the files a document extends are shown: the value of
 * its `extends:` line, or its first character. */
static json_t *extends_range(const Server *S, const Doc *doc)
{
    const char *v = text_top_key(doc->file, "extends"), *e = v;
    if (!v)
        return lsp_range_in(S, doc->file, 0, 0);
    v += strspn(v, " \t");
    for (e = v; *e && *e != '\n' && *e != '\r' && *e != '#'; e++)
        ;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    return lsp_range_in(S, doc->file, (size_t)(v - doc->file->text), (size_t)(e - doc->file->text));
}

Pos lsp_shown(const Analysis *an, const Diag *g)
{
    if (g->pos.file == an->file)
        return g->pos;
    for (const Note *n = g->pos.file ? g->notes : NULL; n; n = n->next)
        if (n->pos.file == an->file)
            return n->pos;
    return (Pos){0};
}

json_t *lsp_diagnostic(const Server *S, const Doc *doc, const Analysis *an, const Diag *g)
{
    static const int severity[] = {[SEV_NOTE] = 3, [SEV_WARNING] = 2, [SEV_ERROR] = 1, [SEV_FATAL] = 1};
    bool here = g->pos.file == an->file;
    Pos shown = lsp_shown(an, g);
    Buf msg = {0};
    SrcLoc l = src_loc(g->pos);
    if (!here && g->pos.file)
        buf_printf(&msg, "%s:%u:%u: ", g->pos.file->name, l.line, l.col);
    buf_puts(&msg, g->msg);
    if (g->fix)
        buf_printf(&msg, "\nfix: %s", g->fix);
    json_t *o = json_pack("{s:o,s:i,s:s,s:s,s:s%}", "range", shown.file ? lsp_range(S, shown) : extends_range(S, doc),
                          "severity", severity[g->sev], "code", code_name(g->code), "source", "segc", "message", msg.p, msg.len);
    buf_free(&msg);
    json_t *rel = json_array(), *at = here ? NULL : lsp_location(S, g->pos);
    if (at)
        json_array_append_new(rel, json_pack("{s:o,s:s}", "location", at, "message", "the finding is here"));
    for (const Note *n = g->notes; n; n = n->next) {
        json_t *loc = lsp_location(S, n->pos);
        if (loc)
            json_array_append_new(rel, json_pack("{s:o,s:s}", "location", loc, "message", n->msg));
    }
    if (json_array_size(rel))
        json_object_set_new(o, "relatedInformation", rel);
    else
        json_decref(rel);
    return o;
}

static void send(Server *S, json_t *msg)
{
    /* json_pack gives NULL for text that is not UTF-8: a message is lost,
     * the server goes on (rpc_write would take it for no memory). */
    if (!msg) {
        if (S->log)
            fprintf(S->log, "segc: a message could not be encoded as JSON\n"), fflush(S->log);
        return;
    }
    if (S->log) {
        char *s = json_dumps(msg, JSON_COMPACT);
        fprintf(S->log, "-> %s\n", s ? s : "?");
        fflush(S->log);
        free(s);
    }
    if (!S->done && !rpc_write(S->out, msg))
        S->done = true; /* the client is gone */
    json_decref(msg);
}

static void notify(Server *S, const char *method, json_t *params)
{
    send(S, json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params));
}

static void publish(Server *S, Doc *doc)
{
    json_t *list = json_array();
    /* A document is a spec when a line starts with the `segc:` key; other
     * YAML files an editor opens get no diagnostics. */
    if (text_top_key(doc->file, "segc")) {
        Analysis *an = lsp_analysis(S, doc);
        for (const Diag *g = an->d.head; g; g = g->next)
            json_array_append_new(list, lsp_diagnostic(S, doc, an, g));
    }
    notify(S, "textDocument/publishDiagnostics",
           json_pack("{s:s,s:I,s:o}", "uri", doc->uri, "version", (json_int_t)doc->version, "diagnostics", list));
}

/* Whether `an` read document `base` as a file its spec extends. */
static bool reads(const Analysis *an, const Doc *base)
{
    for (unsigned i = 1; an && i < an->src.nfiles; i++)
        if (same_file(an->src.files[i]->name, base))
            return true;
    return false;
}

/* Every other open document that read `doc` as a file its spec extends
 * is run again and its diagnostics sent. */
static void recheck_readers(Server *S, const Doc *doc)
{
    for (size_t i = 0; i < S->ndocs; i++)
        if (S->docs[i] != doc && reads(S->docs[i]->an, doc)) {
            forget(S->docs[i]);
            publish(S, S->docs[i]);
        }
}

/* A document's text changed: it and every open document that extends it
 * are run again and their diagnostics sent. */
static void changed(Server *S, Doc *doc)
{
    forget(doc);
    publish(S, doc);
    recheck_readers(S, doc);
}

static const char *param_uri(const json_t *params)
{
    return json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
}

static Doc *doc_by_uri(const Server *S, const char *uri, size_t *index)
{
    for (size_t i = 0; uri && i < S->ndocs; i++)
        if (!strcmp(S->docs[i]->uri, uri)) {
            if (index)
                *index = i;
            return S->docs[i];
        }
    return NULL;
}

Doc *lsp_doc(Server *S, const json_t *params, RpcError *err, size_t *off)
{
    const char *uri = param_uri(params);
    Doc *d = doc_by_uri(S, uri, NULL);
    if (!d)
        rpc_fail(err, RPC_INVALID_PARAMS, "%s%s", uri ? uri : "no textDocument.uri", uri ? " is not open" : "");
    else if (off && !lsp_offset(S, d, json_object_get(params, "position"), off))
        rpc_fail(err, RPC_INVALID_PARAMS, "no valid position");
    else
        return d;
    return NULL;
}

static void doc_free(Doc *d)
{
    analysis_free(d->an);
    analysis_free(d->good);
    free(d->uri);
    free(d->path);
    free(d->real);
    arena_free(d->file ? d->file->arena : NULL);
    free(d);
}

static void set_text(Doc *d, const char *text, size_t len)
{
    const SrcFile *old = d->file;
    d->file = src_from_string(arena_new(), d->path, text, len);
    arena_free(old ? old->arena : NULL);
}

static void did_open(Server *S, const json_t *params)
{
    const json_t *td = json_object_get(params, "textDocument");
    const char *uri = json_string_value(json_object_get(td, "uri"));
    const json_t *text = json_object_get(td, "text");
    if (!uri || !json_is_string(text))
        return;
    Doc *d = doc_by_uri(S, uri, NULL);
    if (!d) {
        d = xmalloc(sizeof *d);
        *d = (Doc){.uri = strcpy(xmalloc(strlen(uri) + 1), uri), .path = path_from_uri(uri)};
        d->real = os_realpath(d->path);
        S->docs = xrealloc(S->docs, (S->ndocs + 1) * sizeof *S->docs);
        S->docs[S->ndocs++] = d;
    }
    set_text(d, json_string_value(text), json_string_length(text));
    d->version = json_integer_value(json_object_get(td, "version"));
    changed(S, d);
}

/* One entry of contentChanges: a range and its new text, or the whole
 * text.  False if it cannot be applied. */
static bool apply_change(Server *S, Doc *d, const json_t *ch)
{
    const json_t *text = json_object_get(ch, "text"), *range = json_object_get(ch, "range");
    if (!json_is_string(text))
        return false;
    const char *t = json_string_value(text);
    size_t n = json_string_length(text), from = 0, to = d->file->len; /* no range: the whole text */
    if (range && (!lsp_offset(S, d, json_object_get(range, "start"), &from) ||
                  !lsp_offset(S, d, json_object_get(range, "end"), &to) || to < from))
        return false;
    Buf b = {0};
    buf_putn(&b, d->file->text, from);
    buf_putn(&b, t, n);
    buf_putn(&b, d->file->text + to, d->file->len - to);
    set_text(d, b.p ? b.p : "", b.len);
    buf_free(&b);
    return true;
}

static void did_change(Server *S, const json_t *params)
{
    Doc *d = doc_by_uri(S, param_uri(params), NULL);
    const json_t *changes = json_object_get(params, "contentChanges");
    if (!d || !json_is_array(changes))
        return;
    size_t i;
    const json_t *ch;
    json_array_foreach (changes, i, ch)
        if (!apply_change(S, d, ch) && S->log)
            fprintf(S->log, "segc: a change to %s could not be applied\n", d->uri);
    d->version = json_integer_value(json_object_get(json_object_get(params, "textDocument"), "version"));
    changed(S, d);
}

static void did_close(Server *S, const json_t *params)
{
    size_t i;
    Doc *d = doc_by_uri(S, param_uri(params), &i);
    if (!d)
        return;
    S->docs[i] = S->docs[--S->ndocs];
    recheck_readers(S, d); /* they read it from the disk now */
    notify(S, "textDocument/publishDiagnostics", json_pack("{s:s,s:[]}", "uri", d->uri, "diagnostics"));
    doc_free(d);
}

/* didSave and didChangeWatchedFiles: a file on the disk may have changed
 * under any document's extends chain, so every document is run again. */
static void on_disk_change(Server *S, const json_t *params)
{
    (void)params;
    for (size_t i = 0; i < S->ndocs; i++)
        forget(S->docs[i]);
    for (size_t i = 0; i < S->ndocs; i++)
        publish(S, S->docs[i]);
}

/* ---- lifecycle ----------------------------------------------------------------- */

/* The first kind of a client's list of MarkupKinds (its preference
 * first) that segc writes; Markdown when it lists none. */
static Markup markup_of(const json_t *kinds)
{
    size_t i;
    const json_t *k;
    json_array_foreach (kinds, i, k) {
        const char *s = json_string_value(k);
        if (s && !strcmp(s, "markdown"))
            return MARKUP_MARKDOWN;
        if (s && !strcmp(s, "plaintext"))
            return MARKUP_PLAIN;
    }
    return MARKUP_MARKDOWN;
}

static json_t *initialize(Server *S, const json_t *params, RpcError *err)
{
    if (S->initialized)
        return rpc_fail(err, RPC_INVALID_REQUEST, "initialize was already sent");
    const json_t *caps = json_object_get(params, "capabilities"), *td = json_object_get(caps, "textDocument");
    S->hover_markup = markup_of(json_object_get(json_object_get(td, "hover"), "contentFormat"));
    S->doc_markup = markup_of(json_object_get(
        json_object_get(json_object_get(td, "completion"), "completionItem"), "documentationFormat"));
    /* UTF-8 positions when the client takes them; else LSP's UTF-16. */
    const json_t *encs = json_object_get(json_object_get(caps, "general"), "positionEncodings");
    size_t i;
    const json_t *e;
    S->enc = ENC_UTF16;
    json_array_foreach (encs, i, e)
        if (json_is_string(e) && !strcmp(json_string_value(e), "utf-8"))
            S->enc = ENC_UTF8;
    S->initialized = true;
    return json_pack("{s:{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:b,s:b,s:{s:[s]},s:b,s:{s:[s,s,s,s,s,s]}},s:{s:s,s:s}}",
                     "capabilities", "positionEncoding", S->enc == ENC_UTF8 ? "utf-8" : "utf-16",
                     "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
                     "definitionProvider", 1, "referencesProvider", 1, "documentSymbolProvider", 1,
                     "codeActionProvider", "codeActionKinds", "quickfix",
                     "hoverProvider", 1, "completionProvider", "triggerCharacters", ".", "[", " ", ":", ",", "-",
                     "serverInfo", "name", "segc", "version", SEGC_VERSION);
}

static json_t *shutdown_(Server *S, const json_t *params, RpcError *err)
{
    (void)params, (void)err;
    S->shutdown = true;
    return json_null();
}

/* ---- dispatch ------------------------------------------------------------------ */

typedef void Notification(Server *S, const json_t *params);

/* void_params: LSP gives the method no params ("params: void"), so
 * "params": null is taken as their absence; any other method's params
 * are an object or an array, or absent. */
typedef struct Method {
    const char *name;
    Handler *request;
    Notification *notification;
    bool void_params;
} Method;

static const Method methods[] = {
    {"initialize", initialize, NULL, false},
    {"shutdown", shutdown_, NULL, true},
    {"exit", NULL, NULL, true},
    {"textDocument/didOpen", NULL, did_open, false},
    {"textDocument/didChange", NULL, did_change, false},
    {"textDocument/didClose", NULL, did_close, false},
    {"textDocument/didSave", NULL, on_disk_change, false},
    {"workspace/didChangeWatchedFiles", NULL, on_disk_change, false},
    {"textDocument/hover", lsp_hover, NULL, false},
    {"textDocument/completion", lsp_completion, NULL, false},
    {"textDocument/definition", lsp_definition, NULL, false},
    {"textDocument/references", lsp_references, NULL, false},
    {"textDocument/documentSymbol", lsp_symbols, NULL, false},
    {"textDocument/codeAction", lsp_code_action, NULL, false},
};

static void respond_error(Server *S, json_t *id, int code, const char *fmt, ...) PRINTF_LIKE(4, 5);
static void respond_error(Server *S, json_t *id, int code, const char *fmt, ...)
{
    /* The message may quote the client's text cut inside a character
     * ("no method '%.200s'", a URI in 256 bytes, jansson's "near '...'"):
     * json_pack takes only UTF-8, so a stray byte becomes '?'. */
    char clean[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(clean, sizeof clean, fmt, ap);
    va_end(ap);
    size_t n = strlen(clean);
    for (size_t i = 0; (i += utf8_check((const unsigned char *)clean + i, n - i)) < n; i++)
        clean[i] = '?';
    send(S, json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error", "code", code,
                      "message", clean));
}

/* One message body: a request gets exactly one response; a notification
 * none; anything else is answered with an error when it has an id. */
static void handle(Server *S, const char *body, size_t len)
{
    json_error_t jerr;
    json_t *msg = json_loadb(body, len, JSON_DECODE_ANY, &jerr);
    if (!msg) {
        respond_error(S, NULL, RPC_PARSE_ERROR, "not JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
        return;
    }
    json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
    const char *name = json_string_value(json_object_get(msg, "method"));
    const char *version = json_string_value(json_object_get(msg, "jsonrpc"));
    bool bad_id = id && !json_is_integer(id) && !json_is_string(id);
    const Method *m = NULL;
    for (size_t i = 0; name && i < countof(methods); i++)
        if (!strcmp(methods[i].name, name))
            m = &methods[i];
    if (m && m->void_params && json_is_null(params))
        params = NULL;
    if (!json_is_object(msg) || bad_id || !name || !version || strcmp(version, "2.0") ||
        (params && !json_is_object(params) && !json_is_array(params))) {
        /* A response to a request of ours (we send none) needs no answer. */
        if (!(json_is_object(msg) && !name && (json_object_get(msg, "result") || json_object_get(msg, "error"))))
            respond_error(S, bad_id ? NULL : id, RPC_INVALID_REQUEST, "not a JSON-RPC 2.0 request or notification");
        json_decref(msg);
        return;
    }
    if (!strcmp(name, "exit"))
        S->done = true;
    RpcError err = {0};
    if (!id) {
        /* Notifications before initialize, and unknown ones, are dropped. */
        if (m && m->notification && S->initialized && !S->shutdown && !S->done)
            m->notification(S, params);
    } else if (!S->initialized && strcmp(name, "initialize")) {
        respond_error(S, id, RPC_SERVER_NOT_INITIALIZED, "the server is not initialized");
    } else if (S->shutdown) {
        respond_error(S, id, RPC_INVALID_REQUEST, "the server is shutting down");
    } else if (!m || !m->request) {
        respond_error(S, id, RPC_METHOD_NOT_FOUND, "no method '%.200s'", name);
    } else {
        json_t *result = m->request(S, params && json_is_object(params) ? params : NULL, &err);
        if (result)
            send(S, json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", result));
        else
            respond_error(S, id, err.code ? err.code : RPC_INTERNAL_ERROR, "%s", err.msg);
    }
    json_decref(msg);
}

int lsp_serve(FILE *in, FILE *out, FILE *log, const ResolveOpts *ro, const RuleConfig *rules)
{
    Server S = {.out = out, .log = log, .ro = *ro, .rules = *rules};
    Buf body = {0};
    while (!S.done) {
        const char *why;
        ReadStatus st = rpc_read(in, &body, &why);
        if (st == READ_EOF)
            break;
        if (log && st == READ_OK)
            fprintf(log, "<- %s\n", body.p), fflush(log);
        if (st == READ_OK)
            handle(&S, body.p, body.len);
        else if (st == READ_TOO_BIG)
            respond_error(&S, NULL, RPC_INVALID_REQUEST, "message larger than the server takes");
        else
            respond_error(&S, NULL, RPC_PARSE_ERROR, "%s", why);
        if (st == READ_BAD && feof(in))
            break;
    }
    buf_free(&body);
    for (size_t i = 0; i < S.ndocs; i++)
        doc_free(S.docs[i]);
    free(S.docs);
    return S.shutdown ? 0 : 1;
}
