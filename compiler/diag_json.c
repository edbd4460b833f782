/* SPDX-License-Identifier: MIT */
/* diag_json.c - diagnostics for programs: segc's JSON document and SARIF.
 *
 * One document for the whole run (DiagReport in segc.h).  What a writer
 * needs is copied while the file's source text is still there: positions
 * already turned into line and columns (bytes for JSON, code points for
 * SARIF), messages, notes, waived findings and the spec's waivers.
 * schema/diagnostics.schema.json is the schema of the JSON document. */
#include "segc.h"

#include <stdlib.h>
#include <string.h>

enum { DIAGNOSTICS_FORMAT_VERSION = 1 };

#define SARIF_SCHEMA_URI "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

void rule_explain(Buf *b, const RuleInfo *r)
{
    if (!r->source) { /* a CODE entry */
        buf_printf(b, "%s (%s, not a rule)\n\n  %s\n\nmsvc:   SEGC%04u\n\nIt is reported by segc itself, not by a WDDM rule: no -W option or waiver\n"
                      "applies to it.\n",
                   r->name, severity_name(r->sev), r->text, r->msvc);
        return;
    }
    bool inv = r->cls == CLASS_INVARIANT;
    buf_printf(b, "%s (%s, %s)\n\n  %s\n\nsource: %s\nfix:    %s\nclass:  %s: %s\n", r->name,
               rule_class_name(r->cls), inv ? "always an error" : r->sev == SEV_ERROR ? "an error by default" : "a warning by default",
               r->text, r->source, r->fix, rule_class_name(r->cls), r->why);
    for (unsigned i = 0; i < r->npre; i++)
        buf_printf(b, "%s%s%s", i ? ", " : "after:  ", rule_table[r->pre[i]].name,
                   i + 1 < r->npre ? "" : r->npre > 1 ? " (where one of them fails, this rule says nothing)\n"
                                                       : " (where it fails, this rule says nothing)\n");
    buf_printf(b, "msvc:   SEGC%04u\n\n", r->msvc);
    if (inv) {
        buf_printf(b, "No -W option and no waiver can switch it off or make it a warning: the\n"
                      "generated code or the OS depends on it.  Fix the spec.\n");
        return;
    }
    buf_printf(b, "Turn it off with -Wno-%s, make it %s with %s%s", r->name, r->sev == SEV_ERROR ? "a warning" : "an error",
               r->sev == SEV_ERROR ? "-Wno-error=" : "-Werror=", r->name);
    if (r->cls == CLASS_ADVISORY_BOARD)
        buf_printf(b, ";\nit concerns the whole board, so no waive: entry can name it.\n");
    else
        buf_printf(b, ",\nor waive it for one segment with a reason:\n    waive: { %s: \"why this segment needs it\" }\n", r->name);
}

/* ---- the report: what a run found, copied out of each file's arena ------ */

/* A place in a file.  line 0: the whole file (no line); file NULL: none. */
typedef struct Loc {
    const char *file;
    DiagPlace place; /* bytes, as in the text output, and code points (SARIF) */
} Loc;

/* A Subject as SARIF logical locations: the most specific thing it names,
 * "segments.vram.banks.main.size", and beside a segment the BAR it names. */
typedef struct Logical {
    const char *path, *name, *kind; /* path NULL: no subject */
    const char *bar;                /* "bars.fb", or NULL */
} Logical;

/* A diagnostic's or a note's message, place and subject. */
typedef struct Said {
    const char *msg;
    Loc at;
    Logical on;
} Said;

typedef struct RDiag {
    Severity sev;
    Code code;
    const char *fix;
    Said said;
    Said *notes;
    unsigned nnotes;
    const char *waiver; /* waived findings only */
    Loc waiver_at;
} RDiag;

typedef struct RWaiver {
    const char *segment, *rule, *reason;
    Loc at;
    bool used;
} RWaiver;

typedef struct RFile {
    struct RFile *next;
    const char *path;
    unsigned nerrors, nfatal;
    RDiag *diags; /* the diagnostics, then the waived findings */
    unsigned ndiags, nwaived;
    RWaiver *waivers;
    unsigned nwaivers;
} RFile;

struct DiagReport {
    Arena *a;
    RFile *head, **tail;
    unsigned nfiles, errors, warnings, nfatal; /* errors count the fatal ones */
};

DiagReport *diag_report_new(void)
{
    Arena *a = arena_new();
    DiagReport *r = arena_alloc(a, sizeof *r);
    r->a = a;
    r->tail = &r->head;
    return r;
}

void diag_report_free(DiagReport *r)
{
    if (r)
        arena_free(r->a);
}

DiagPlace diag_place(Pos p)
{
    DiagPlace l = {0};
    SrcLoc c = src_loc(p);
    if (!c.line)
        return l;
    l.line = c.line;
    l.col = c.col;
    l.end_col = l.col + (p.len ? p.len : 1);
    /* Columns count bytes; SARIF gets code points, counted in the line. */
    const char *s = c.bol;
    size_t line_len = (size_t)(c.eol - s);
    size_t before = l.col - 1, span = l.end_col - l.col;
    size_t in_before = before < line_len ? before : line_len;
    size_t in_span = before + span <= line_len ? span : line_len > before ? line_len - before : 0;
    /* Bytes past the line's end (a position at its end) count one each. */
    l.cp_col = (uint32_t)(1 + utf8_count(s, in_before) + (before - in_before));
    l.cp_end_col = (uint32_t)(l.cp_col + utf8_count(s + in_before, in_span) + (span - in_span));
    return l;
}

static Loc make_loc(Arena *a, Pos p)
{
    return (Loc){p.file ? arena_strdup(a, p.file->name) : NULL, diag_place(p)};
}

static Logical make_logical(Arena *a, const Subject *s)
{
    Logical l = {.kind = "object"};
    const char *seg = s->seg_name ? s->seg_name : "?", *bar = s->bar_name ? s->bar_name : "?";
    const char *path = !s->seg ? (s->bar ? arena_printf(a, "bars.%s", bar) : NULL)
                       : s->bank ? arena_printf(a, "segments.%s.banks.%s", seg, s->bank_name ? s->bank_name : "?")
                                 : arena_printf(a, "segments.%s", seg);
    l.name = !s->seg ? bar : s->bank ? (s->bank_name ? s->bank_name : "?") : seg;
    if (s->field) {
        const char *dot = strrchr(s->field, '.');
        path = path ? arena_printf(a, "%s.%s", path, s->field) : s->field;
        l.name = dot ? dot + 1 : s->field;
        l.kind = "property";
    }
    l.path = path ? arena_strdup(a, path) : NULL;
    l.name = arena_strdup(a, l.name);
    if (s->seg && s->bar)
        l.bar = arena_printf(a, "bars.%s", bar);
    return l;
}

static Said make_said(Arena *a, const char *msg, Pos p, const Subject *on)
{
    return (Said){arena_strdup(a, msg), make_loc(a, p), make_logical(a, on)};
}

static void copy_diag(Arena *a, RDiag *out, const Diag *g)
{
    out->sev = g->sev;
    out->code = g->code;
    out->fix = g->fix ? arena_strdup(a, g->fix) : NULL;
    out->said = make_said(a, g->msg, g->pos, &g->about);
    for (const Note *n = g->notes; n; n = n->next)
        out->nnotes++;
    Said *v = out->notes = arena_alloc(a, (out->nnotes + 1) * sizeof *v);
    for (const Note *n = g->notes; n; n = n->next)
        *v++ = make_said(a, n->msg, n->pos, &n->about);
    if (g->waiver) {
        out->waiver = arena_strdup(a, g->waiver);
        out->waiver_at = make_loc(a, g->waiver_pos);
    }
}

static void copy_diags(Arena *a, RFile *f, const Diags *d)
{
    for (const Diag *g = d->head; g; g = g->next)
        f->ndiags++;
    for (const Diag *g = d->waived; g; g = g->next)
        f->nwaived++;
    RDiag *v = f->diags = arena_alloc(a, (f->ndiags + f->nwaived + 1) * sizeof *v);
    for (const Diag *g = d->head; g; g = g->next)
        copy_diag(a, v++, g);
    for (const Diag *g = d->waived; g; g = g->next)
        copy_diag(a, v++, g);
}

static void copy_waivers(Arena *a, RFile *f, const Spec *s)
{
    for (unsigned i = 0; i < s->nsegs; i++)
        f->nwaivers += s->segs[i].nwaivers;
    RWaiver *o = f->waivers = arena_alloc(a, (f->nwaivers + 1) * sizeof *o);
    for (const Segment *g = s->segs; g < s->segs + s->nsegs; g++)
        for (const Waiver *v = g->waivers; v < g->waivers + g->nwaivers; v++)
            *o++ = (RWaiver){g->name ? arena_strdup(a, g->name) : NULL, arena_strdup(a, v->rule),
                             arena_strdup(a, v->reason ? v->reason : ""), make_loc(a, v->pos), v->used};
}

void diag_report_add(DiagReport *r, const char *path, const Diags *d, const Spec *s)
{
    Arena *a = r->a;
    RFile *f = arena_alloc(a, sizeof *f);
    f->path = arena_strdup(a, path);
    f->nerrors = d->nerrors;
    f->nfatal = d->nfatal;
    copy_diags(a, f, d);
    if (s)
        copy_waivers(a, f, s);
    *r->tail = f;
    r->tail = &f->next;
    r->nfiles++;
    r->errors += d->nerrors + d->nfatal;
    r->warnings += d->nwarnings;
    r->nfatal += d->nfatal;
}

/* ---- segc's JSON document --------------------------------------------- */

static void loc_fields(JsonW *w, const Loc *l, bool end_line)
{
    json_place(w, l->file, l->place.line, l->place.col);
    if (end_line)
        json_kline(w, "end_line", l->place.line);
    json_kline(w, "end_column", l->place.end_col);
}

static void json_diag(JsonW *w, const RDiag *g)
{
    json_obj_begin(w);
    loc_fields(w, &g->said.at, true);
    json_kstr(w, "severity", severity_name(g->sev));
    json_kstr(w, "rule", code_name(g->code));
    json_kstr(w, "message", g->said.msg);
    if (g->fix)
        json_kstr(w, "fix", g->fix);
    json_karr(w, "notes");
    for (unsigned n = 0; n < g->nnotes; n++) {
        json_obj_begin(w);
        loc_fields(w, &g->notes[n].at, false);
        json_kstr(w, "message", g->notes[n].msg);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void json_file(JsonW *w, const RFile *f)
{
    json_obj_begin(w);
    json_kstr(w, "file", f->path);
    json_kstr(w, "status", f->nfatal ? "unreadable" : f->nerrors ? "invalid" : "ok");
    json_karr(w, "diagnostics");
    for (unsigned i = 0; i < f->ndiags; i++)
        json_diag(w, &f->diags[i]);
    json_arr_end(w);
    json_karr(w, "waivers");
    for (const RWaiver *v = f->waivers; v < f->waivers + f->nwaivers; v++) {
        json_obj_begin(w);
        json_kstr(w, "segment", v->segment);
        json_kstr(w, "rule", v->rule);
        json_kstr(w, "reason", v->reason);
        json_place(w, v->at.file, v->at.place.line, v->at.place.col);
        json_kbool(w, "used", v->used);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
}

static void write_json(Buf *b, const DiagReport *r)
{
    JsonW w;
    json_doc_begin(&w, b, "segc_diagnostics", DIAGNOSTICS_FORMAT_VERSION);
    json_karr(&w, "files");
    for (const RFile *f = r->head; f; f = f->next)
        json_file(&w, f);
    json_arr_end(&w);
    json_kobj(&w, "summary");
    json_kuint(&w, "files", r->nfiles);
    json_kuint(&w, "errors", r->errors);
    json_kuint(&w, "warnings", r->warnings);
    json_obj_end(&w);
    json_obj_end(&w);
}

/* ---- SARIF 2.1.0 ------------------------------------------------------- */

/* "uri": a URI reference for a path as the user gave it: forward slashes,
 * every byte outside the unreserved set and '/' percent-encoded (so
 * "a b:c.yaml" cannot read as a scheme), and file:// before an absolute
 * path; a directory's ends in '/'. */
static void path_uri(JsonW *w, const char *path, bool dir)
{
    Buf u = {0}, *b = &u;
    bool drive = os_is_absolute(path) && !os_is_sep(path[0]); /* C:\\dir -> file:///C:/dir */
    if (os_is_absolute(path))
        buf_puts(b, drive ? "file:///" : "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        unsigned c = *p == '\\' ? '/' : *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~/", (int)c) ||
            (drive && p == (const unsigned char *)path + 1))
            buf_putc(b, (char)c);
        else
            buf_printf(b, "%%%02X", c);
    }
    if (dir && (!u.len || u.p[u.len - 1] != '/'))
        buf_putc(b, '/');
    json_kstr(w, "uri", u.p);
    buf_free(&u);
}

/* A physicalLocation, or nothing for a pseudo-file ("<command line>"). */
static bool has_location(const Loc *l)
{
    return l->file && l->file[0] != '<';
}

/* The run's base for relative paths (originalUriBaseIds): the directory
 * segc ran in, so that a code-scanning tool that reads the log elsewhere
 * (from another directory of the checkout) still finds the files. */
#define SARIF_BASE "SRCROOT"

/* `based`: the run has SARIF_BASE, and a relative path is taken from it. */
static void physical_location(JsonW *w, const Loc *l, bool based)
{
    json_kobj(w, "physicalLocation");
    json_kobj(w, "artifactLocation");
    path_uri(w, l->file, false);
    if (based && !os_is_absolute(l->file))
        json_kstr(w, "uriBaseId", SARIF_BASE);
    json_obj_end(w);
    if (l->place.line) {
        json_kobj(w, "region");
        json_kuint(w, "startLine", l->place.line);
        json_kuint(w, "startColumn", l->place.cp_col);
        json_kuint(w, "endColumn", l->place.cp_end_col);
        json_obj_end(w);
    }
    json_obj_end(w);
}

static void logical_location(JsonW *w, const char *path, const char *name, const char *kind)
{
    json_obj_begin(w);
    json_kstr(w, "name", name);
    json_kstr(w, "fullyQualifiedName", path);
    json_kstr(w, "kind", kind);
    json_obj_end(w);
}

static void text_object(JsonW *w, const char *key, const char *text)
{
    json_kobj(w, key);
    json_kstr(w, "text", text);
    json_obj_end(w);
}

/* The members of a location object: where in the file, what in the spec. */
static void location(JsonW *w, const Said *s, bool based)
{
    if (has_location(&s->at))
        physical_location(w, &s->at, based);
    if (s->on.path) {
        json_karr(w, "logicalLocations");
        logical_location(w, s->on.path, s->on.name, s->on.kind);
        if (s->on.bar)
            logical_location(w, s->on.bar, s->on.bar + 5, "object");
        json_arr_end(w);
    }
}

static void related_locations(JsonW *w, const RDiag *g, bool based)
{
    unsigned listed = 0;
    for (unsigned n = 0; n < g->nnotes; n++) {
        if (!has_location(&g->notes[n].at))
            continue;
        if (!listed++)
            json_karr(w, "relatedLocations");
        json_obj_begin(w);
        json_kuint(w, "id", n + 1);
        location(w, &g->notes[n], based);
        text_object(w, "message", g->notes[n].msg);
        json_obj_end(w);
    }
    if (listed)
        json_arr_end(w);
}

static void suppression(JsonW *w, const RDiag *g, bool based)
{
    json_karr(w, "suppressions");
    json_obj_begin(w);
    json_kstr(w, "kind", "inSource");
    json_kstr(w, "justification", g->waiver);
    if (has_location(&g->waiver_at)) {
        json_kobj(w, "location");
        physical_location(w, &g->waiver_at, based);
        json_obj_end(w);
    }
    json_obj_end(w);
    json_arr_end(w);
}

static void sarif_result(JsonW *w, const RDiag *g, const long *index, bool based)
{
    json_obj_begin(w);
    if (g->code != CODE_NONE) {
        json_kstr(w, "ruleId", code_name(g->code));
        json_kuint(w, "ruleIndex", (uint64_t)index[g->code]);
    }
    json_kstr(w, "level", severity_level(g->sev));
    text_object(w, "message", g->said.msg);
    json_karr(w, "locations");
    if (has_location(&g->said.at) || g->said.on.path) {
        json_obj_begin(w);
        location(w, &g->said, based);
        json_obj_end(w);
    }
    json_arr_end(w);
    related_locations(w, g, based);
    if (g->waiver)
        suppression(w, g, based);
    if (g->fix) {
        json_kobj(w, "properties");
        json_kstr(w, "fix", g->fix);
        json_obj_end(w);
    }
    json_obj_end(w);
}

/* A rule's descriptor: shortDescription, fullDescription and helpUri
 * from its row of rules.def (doc/rules.md has a section per row). */
static void sarif_rule(JsonW *w, Arena *a, const RuleInfo *r)
{
    Buf help = {0};
    rule_explain(&help, r);
    json_obj_begin(w);
    json_kstr(w, "id", r->name);
    text_object(w, "shortDescription", r->text);
    text_object(w, "fullDescription",
                r->source ? arena_printf(a, "%s WDDM source: %s. %s", r->text, r->source, r->why) : r->text);
    text_object(w, "help", help.p);
    json_kstr(w, "helpUri", arena_printf(a, "doc/rules.md#%s", r->name));
    json_kobj(w, "defaultConfiguration");
    json_kstr(w, "level", severity_level(r->sev));
    json_obj_end(w);
    json_kobj(w, "properties");
    json_kstr(w, "class", r->source ? rule_class_name(r->cls) : "front-end");
    json_obj_end(w);
    json_obj_end(w);
    buf_free(&help);
}

/* tool.driver: the rows of rules.def that the results name (used[] is
 * true), in table order, and no other: a log describes its own results,
 * and what every log would repeat is doc/rules.md's.  index[] gets each
 * row's place in that list. */
static void sarif_tool(JsonW *w, Arena *a, const bool *used, long *index)
{
    json_kobj(w, "tool");
    json_tool_begin(w, "driver");
    json_karr(w, "rules");
    long n = 0;
    for (int i = 0; i < CODE_COUNT; i++) {
        index[i] = used[i] ? n++ : -1;
        if (used[i])
            sarif_rule(w, a, &rule_table[i]);
    }
    json_arr_end(w);
    json_obj_end(w);
    json_obj_end(w);
}

static void sarif_invocation(JsonW *w, const DiagReport *r)
{
    json_karr(w, "invocations");
    json_obj_begin(w);
    json_kbool(w, "executionSuccessful", !r->nfatal);
    json_kuint(w, "exitCode", r->nfatal ? 2 : r->errors ? 1 : 0);
    json_obj_end(w);
    json_arr_end(w);
}

static void write_sarif(Buf *b, const DiagReport *r)
{
    long index[CODE_COUNT];
    bool used[CODE_COUNT] = {false};
    for (const RFile *f = r->head; f; f = f->next)
        for (unsigned i = 0; i < f->ndiags + f->nwaived; i++)
            if (f->diags[i].code != CODE_NONE)
                used[f->diags[i].code] = true;
    JsonW w;
    json_init(&w, b);
    json_obj_begin(&w);
    json_kstr(&w, "$schema", SARIF_SCHEMA_URI);
    json_kstr(&w, "version", "2.1.0");
    json_karr(&w, "runs");
    json_obj_begin(&w);
    sarif_tool(&w, r->a, used, index);
    sarif_invocation(&w, r);
    json_kstr(&w, "columnKind", "unicodeCodePoints");
    /* Relative paths are the user's, from the directory segc ran in: it is
     * the base they are taken from (a directory's URI ends in '/'). */
    char *cwd = os_realpath(".");
    if (cwd) {
        json_kobj(&w, "originalUriBaseIds");
        json_kobj(&w, SARIF_BASE);
        path_uri(&w, cwd, true);
        text_object(&w, "description", "the directory segc ran in, which relative paths are taken from");
        json_obj_end(&w);
        json_obj_end(&w);
    }
    json_karr(&w, "results");
    for (const RFile *f = r->head; f; f = f->next)
        for (unsigned i = 0; i < f->ndiags + f->nwaived; i++)
            sarif_result(&w, &f->diags[i], index, cwd != NULL);
    free(cwd);
    json_arr_end(&w);
    json_obj_end(&w);
    json_arr_end(&w);
    json_obj_end(&w);
}

void diag_report_write(FILE *f, const DiagReport *r, DiagFormat fmt)
{
    Buf b = {0};
    if (fmt == DIAG_SARIF)
        write_sarif(&b, r);
    else
        write_json(&b, r);
    fwrite(b.p, 1, b.len, f);
    buf_free(&b);
}
