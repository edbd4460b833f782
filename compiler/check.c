/* SPDX-License-Identifier: MIT */
/* check.c - the rules of rules.def over a resolved Spec.
 *
 * Each RULE row has its checker here, check_<id>: it looks at one object of
 * the row's scope (the board, a BAR, a segment) and reports every fault of
 * its rule there through report(), which applies -W settings and the
 * segment's waivers to advisories, so no checker needs to know about
 * either; rules_option() and resolve.c never let either touch an invariant.
 * run() is the one place a checker is called: it runs the row's
 * prerequisites on the object first (dtc's run_check), skips the checker
 * when one failed, and records whether the checker found a fault.
 * spec_check walks the table for `segc check`; check_invariants walks its
 * invariants for the emitters, with the same checkers, so that what the
 * emitted code relies on is written once.  A checker also says which
 * values of the spec a finding reads beyond the one it points at (reads):
 * a variant's value behind a finding in its base, or a -D constant, then
 * gets a note, and the fix of a finding a variant caused is the variant's
 * ("what a finding reads" below). */
#include "segc.h"

#include <string.h>

typedef struct Ck Ck;
typedef struct Read Read;
/* The checker of a row, by its scope (rules.def). */
typedef void BOARD_fn(Ck *k);
typedef void BAR_fn(Ck *k, const Bar *b);
typedef void CLASS_fn(Ck *k, const AllocClass *c);
typedef void SEGMENT_fn(Ck *k, const Segment *g);
typedef SEGMENT_fn ANY_SEGMENT_fn;

/* Rows one checker serves, each run reporting its own row's findings
 * (k->cur): the widths of the members, and what the DDI forms carry. */
#define check_size_fits_size_t check_widths
#define check_field_width check_widths
#define check_key_not_emitted check_forms
#define check_ddi_qs4_banks check_forms
#define check_ddi_qs_system_memory_end check_forms
#define check_ddi_field_needs_qs4 check_forms
#define check_ddi_qs3_flag check_forms
#define RULE(id, name, msvc, cls, sev, scope, ...) static scope##_fn check_##id;
#define CODE(id, ...)
#include "rules.def"
#undef RULE
#undef CODE

#define PRE0() {CODE_NONE}, 0
#define PRE1(a) {R_##a}, 1
#define PRE2(a, b) {R_##a, R_##b}, 2
const RuleInfo rule_table[CODE_COUNT] = {
#define RULE(id, name, msvc, cls, sev, scope, pre, src, text, fix, why) \
    [R_##id] = {name, msvc, CLASS_##cls, sev, ON_##scope, pre, src, text, fix, why},
#define CODE(id, name, msvc, sev, text) [C_##id] = {name, msvc, CLASS_INVARIANT, sev, ON_BOARD, PRE0(), NULL, text, NULL, NULL},
#include "rules.def"
#undef RULE
#undef CODE
};

/* The checker of each rule, in the member its scope names. */
static const struct {
    BOARD_fn *BOARD;
    BAR_fn *BAR;
    CLASS_fn *CLASS;
    SEGMENT_fn *SEGMENT, *ANY_SEGMENT;
} checkers[RULE_COUNT] = {
#define RULE(id, name, msvc, cls, sev, scope, ...) [R_##id] = {.scope = check_##id},
#define CODE(id, ...)
#include "rules.def"
#undef RULE
#undef CODE
};

const char *code_name(Code c)
{
    return c == CODE_NONE ? NULL : rule_table[c].name;
}

int code_by_name(const char *name)
{
    const RuleInfo *ri = BY_NAME(rule_table, CODE_COUNT, name);
    return ri ? (int)(ri - rule_table) : -1;
}

int rule_by_name(const char *name)
{
    int id = code_by_name(name);
    return id < RULE_COUNT ? id : -1;
}

const char *rule_closest(const char *name)
{
    return closest_of(name, rule_table, RULE_COUNT, sizeof *rule_table);
}

const char *rule_class_name(RuleClass c)
{
    return c == CLASS_INVARIANT ? "invariant" : "advisory";
}

void rules_default(RuleConfig *c)
{
    memset(c, 0, sizeof *c);
}

WoptResult rules_option(RuleConfig *c, const char *arg)
{
    if (!strcmp(arg, "error") || !strcmp(arg, "no-error")) {
        c->werror_all = arg[0] == 'e';
        return WOPT_OK;
    }
    RuleSetting set = RS_DEFAULT;
    const char *name = arg;
    if (!strncmp(arg, "error=", 6))
        set = RS_ERROR, name = arg + 6;
    else if (!strncmp(arg, "no-error=", 9))
        set = RS_WARNING, name = arg + 9;
    else if (!strncmp(arg, "no-", 3))
        set = RS_OFF, name = arg + 3;
    int id = rule_by_name(name);
    if (id < 0)
        return WOPT_UNKNOWN;
    /* An invariant is always an error: it can be named, never lowered. */
    if (!rule_switchable(id) && (set == RS_OFF || set == RS_WARNING))
        return WOPT_INVARIANT;
    c->setting[id] = set;
    return WOPT_OK;
}

/* ---- running the table ------------------------------------------------------- */

/* A key written for a segment, as the DDI forms carry it (form_keys). */
typedef struct FormKey {
    const char *key;
    Pos at;
    unsigned lacking, carrying;
    Code code;
    uint64_t lacked; /* the fields of it a form lacks: bit FieldId */
} FormKey;
_Static_assert(FIELD_COUNT <= 64, "FormKey.lacked holds a bit per field");

/* Where a rule stands on one object. */
enum { UNRUN, RUNNING, PASSED, FAILED, SKIPPED };

struct Ck {
    const Spec *s;
    Spec *mut;           /* spec_check: where waivers are marked used */
    const RuleConfig *c; /* spec_check: -W; the emitters: the defaults */
    Outputs *out;        /* spec_check: the build's outputs, or NULL */
    Diags *d;
    uint64_t page;       /* the page size, else the default (page-size-valid) */
    /* Objects: 0 the board, then each BAR, then each segment, then each
     * allocation class; state[rule * nobj + object]. */
    unsigned nobj;
    unsigned char *state;
    Code cur;            /* the rule whose checker runs */
    bool fired;          /* and whether it found a fault */
    /* spec_check: what each finding reads, in the order it was read */
    Read *reads, **reads_tail;
    /* form_keys: each segment's keys, worked out when first asked for */
    struct FormKeys {
        FormKey *k; /* NULL: not yet */
        unsigned n;
    } *fk;
};

static bool run(Ck *k, Code r, unsigned obj);

/* Whether every prerequisite of rule `r` passed on object `obj` (of r's
 * scope), running those that have not run there. */
static bool prerequisites(Ck *k, Code r, unsigned obj)
{
    const RuleInfo *ri = &rule_table[r];
    for (unsigned i = 0; i < ri->npre; i++) {
        RuleScope ps = rule_table[ri->pre[i]].scope;
        ASSERT(ps == ON_BOARD || ps == ri->scope || (ON_SEGMENTS(ps) && ON_SEGMENTS(ri->scope)));
        if (!run(k, ri->pre[i], ps == ON_BOARD ? 0 : obj))
            return false;
    }
    return true;
}

/* Whether segment `g` is an object of rule `r`'s scope. */
static bool in_scope(Code r, const Segment *g)
{
    return rule_table[r].scope == ON_ANY_SEGMENT || g->kind != SEG_AGP;
}

/* Runs rule `r` on object `obj` unless it ran there; true when it passed. */
static bool run(Ck *k, Code r, unsigned obj)
{
    unsigned char *st = &k->state[(size_t)r * k->nobj + obj];
    if (*st == RUNNING)
        BUG("rules.def: a rule is its own prerequisite");
    if (*st != UNRUN)
        return *st == PASSED;
    *st = RUNNING;
    const Spec *s = k->s;
    unsigned first_class = 1 + s->nbars + s->nsegs;
    const Segment *g = obj > s->nbars && obj < first_class ? &s->segs[obj - 1 - s->nbars] : NULL;
    /* A rule has nothing to say of a segment outside its scope; a segment
     * with a value that failed (reported) is not checked. */
    if (g && !in_scope(r, g)) {
        *st = PASSED;
        return true;
    }
    if (!prerequisites(k, r, obj) || (g && g->unresolved)) {
        *st = SKIPPED;
        return false;
    }
    Code outer = k->cur;
    bool outer_fired = k->fired;
    k->cur = r;
    k->fired = false;
    if (rule_table[r].scope == ON_BOARD)
        checkers[r].BOARD(k);
    else if (rule_table[r].scope == ON_BAR)
        checkers[r].BAR(k, &s->bars[obj - 1]);
    else if (rule_table[r].scope == ON_CLASS)
        checkers[r].CLASS(k, &s->classes[obj - first_class]);
    else
        (rule_table[r].scope == ON_SEGMENT ? checkers[r].SEGMENT : checkers[r].ANY_SEGMENT)(k, g);
    *st = k->fired ? FAILED : PASSED;
    k->cur = outer;
    k->fired = outer_fired;
    return *st == PASSED;
}

/* Whether rule `r` may look at segment `g` as the other side of a pair:
 * g is of its scope, resolved, and r's prerequisites passed on it. */
static bool ready(Ck *k, Code r, const Segment *g)
{
    return in_scope(r, g) && !g->unresolved && prerequisites(k, r, 1 + k->s->nbars + (unsigned)(g - k->s->segs));
}

static void ck_init(Ck *k, const Spec *s, Spec *mut, const RuleConfig *c, Diags *d)
{
    *k = (Ck){.s = s, .mut = mut, .c = c, .d = d, .page = s->page_size.v ? s->page_size.v : DEFAULT_PAGE_SIZE};
    k->nobj = 1 + s->nbars + s->nsegs + s->nclasses;
    k->state = arena_alloc(d->arena, (size_t)RULE_COUNT * k->nobj);
    k->cur = CODE_NONE;
    k->reads_tail = &k->reads;
}

/* Every rule, or every invariant, on every object: the board's first (they
 * count the segments the others index), then the BARs', then the
 * segments'; in each, rows in table order.  waiver-unused reads what the
 * others did, so spec_check runs it last; names-generated-unique renders
 * the outputs, so spec_check runs it after all the others pass, and the
 * emitter compares what it renders instead (emit_render). */
static void run_all(Ck *k, bool invariants)
{
    static const RuleScope order[] = {ON_BOARD, ON_BAR, ON_SEGMENT, ON_CLASS};
    const Spec *s = k->s;
    /* The objects of each scope of `order`: [start[o], start[o + 1]). */
    const unsigned start[] = {0, 1, 1 + s->nbars, 1 + s->nbars + s->nsegs, k->nobj};
    for (size_t o = 0; o < countof(order); o++) {
        for (int r = 0; r < RULE_COUNT; r++) {
            RuleScope sc = ON_SEGMENTS(rule_table[r].scope) ? ON_SEGMENT : rule_table[r].scope;
            if (sc != order[o] || r == R_waiver_unused || r == R_names_generated_unique ||
                (invariants && rule_table[r].cls != CLASS_INVARIANT))
                continue;
            for (unsigned i = start[o]; i < start[o + 1]; i++)
                run(k, (Code)r, i);
        }
    }
}

/* ---- reporting -------------------------------------------------------------- */

/* What a finding or note is about, as model pointers (Subject, segc.h). */
typedef struct On {
    const Segment *g;
    const Bank *bank;
    const Bar *bar;
    const char *field;
    const Segment *pair; /* a pairwise finding's other segment, whose waivers apply too */
} On;
#define SEG(g, field) ((On){(g), NULL, NULL, (field), NULL})
#define BANK(g, bank, field) ((On){(g), (bank), NULL, (field), NULL})
#define BAR(bar, field) ((On){NULL, NULL, (bar), (field), NULL})
/* A finding about segment g and the earlier segment `other` (segments-overlap,
 * cpu-windows-overlap): a waiver of the rule on either waives it. */
#define PAIR(g, field, other) ((On){(g), NULL, NULL, (field), (other)})

static Subject subject(const Ck *k, On on)
{
    Subject s = {.field = on.field};
    if (on.g)
        s.seg = (unsigned)(on.g - k->s->segs) + 1, s.seg_name = on.g->name;
    if (on.g && on.bank)
        s.bank = (unsigned)(on.bank - on.g->banks) + 1, s.bank_name = on.bank->name;
    if (on.bar)
        s.bar = (unsigned)(on.bar - k->s->bars) + 1, s.bar_name = on.bar->name;
    return s;
}

/* ---- what a finding reads ---------------------------------------------------- */

/* A finding's message (or its fix) reads values of the spec.  Where a
 * variant of the finding's file wrote one (a variant's board.wddm behind a
 * flag of its base), or one reads a constant that a variant or -D on the
 * command line set (Value.via), a note there says so (trace); and the fix
 * of a finding a variant caused in a file it extends is the variant's to
 * make (variant_of).  -D notes and variant notes are one mechanism.  A
 * Read is one such value: a Value, or (v NULL) a word of the spec that is
 * no Value (board.wddm, a segment's kind) at `at`, said `said`.  `id` is
 * what is read (the Value, the model's Pos of the word), so that each is
 * said once; `shown` when the finding or a note already points at it,
 * `always` when it gets a note even in the finding's file. */
struct Read {
    Read *next;
    const Diag *e;
    const void *id;
    const Value *v;
    On on; /* what v is about */
    Pos at;
    const char *said;
    bool shown, always;
};

/* The Value a finding or note about `on` points at: field on.field of its
 * bank, segment, BAR or the board ("size", "vpr.range_start",
 * "paging.buffer_size", "board.page_size"), and its field in *field (when
 * not NULL); NULL when the field is not a Value (flags, kind, a map). */
static const Value *on_value(const Ck *k, On on, FieldId *field)
{
    if (!on.field)
        return NULL;
    const char *key = on.field;
    unsigned scopes = on.bank ? SCOPE(SC_BANK) : on.g ? SCOPE(SC_SEG) | SCOPE(SC_QS4) : on.bar ? SCOPE(SC_BAR) : 0;
    for (unsigned sc = 0; sc <= SC_QS4; sc++)
        if (*scope_map[sc] && !strncmp(key, scope_map[sc], strlen(scope_map[sc]))) {
            key += strlen(scope_map[sc]);
            scopes = SCOPE(sc);
        }
    const void *owner = on.bank ? (const void *)on.bank : on.g ? (const void *)on.g : on.bar ? (const void *)on.bar
                                                                                         : (const void *)k->s;
    for (unsigned f = 0; f < FIELD_COUNT; f++)
        if ((scopes & SCOPE(field_table[f].scope)) && !strcmp(field_table[f].key, key)) {
            if (field)
                *field = (FieldId)f;
            return field_value((FieldId)f, owner);
        }
    return NULL;
}

/* Finding `e` reads the value about `on`, or (none) the word of the spec
 * written at *at (a Pos of the model, so its identity; nothing when it is
 * not written), said `said` ("board.wddm is 1.3"). */
static void read_add(Ck *k, const Diag *e, On on, const Pos *at, const char *said, bool shown, bool always)
{
    /* Reads are a checker's (k->cur): trace's notes, written after, add none. */
    if (!e || !k->mut || k->cur == CODE_NONE)
        return;
    const Value *v = on_value(k, on, NULL);
    if (!v && !(at && at->file))
        return;
    Read *r = arena_alloc(k->d->arena, sizeof *r);
    *r = (Read){NULL, e, v ? (const void *)v : at, v, on, v ? (v->set ? v->pos : (Pos){0}) : *at, said, shown, always};
    *k->reads_tail = r;
    k->reads_tail = &r->next;
}

/* Finding `e` reads the value about `on`; with `always` a note at it
 * shows it (with its file when that is another), else only when a variant
 * of the finding's file wrote it (trace), or a constant it reads. */
static void reads(Ck *k, Diag *e, On on, bool always)
{
    read_add(k, e, on, NULL, NULL, false, always);
}

/* What findings read of the board and of segments besides Values. */
static void reads_wddm(Ck *k, Diag *e)
{
    read_add(k, e, (On){0}, &k->s->wddm_pos,
             arena_printf(k->d->arena, "board.wddm is %u.%u", k->s->wddm >> 4, k->s->wddm & 15), false, false);
}

/* The DDI forms the build answers: --ddi's, else board.wddm's. */
static void reads_forms(Ck *k, Diag *e)
{
    if (!k->s->forms_from_option)
        reads_wddm(k, e);
}

static void reads_kind(Ck *k, Diag *e, const Segment *g)
{
    read_add(k, e, (On){0}, &g->kind_pos,
             arena_printf(k->d->arena, "segment '%s' is kind: %s", g->name, seg_kind_name(g->kind)), false, false);
}

/* The index of file `f` in the extends chain (0: the spec), or -1 (the
 * command line). */
static int chain_index(const Spec *s, const SrcFile *f)
{
    for (unsigned i = 0; f && i < s->nfiles; i++)
        if (s->files[i] == f)
            return (int)i;
    return -1;
}

/* Whether file `f` of the extends chain is nearer the spec than finding
 * `e`'s: a variant of its file, whose values can cause it. */
static bool nearer(const Ck *k, const SrcFile *f, const Diag *e)
{
    int i = chain_index(k->s, f);
    return e && i >= 0 && i < chain_index(k->s, e->pos.file);
}

/* The variant that caused finding `e` in a file it extends: of the files
 * nearer the spec than the finding's that wrote a value `e` reads (or a
 * constant such a value reads), the nearest; NULL when none did. */
static const SrcFile *variant_of(const Ck *k, const Diag *e)
{
    const Spec *s = k->s;
    int here = e ? chain_index(s, e->pos.file) : -1, best = here;
    for (const Read *r = k->reads; here > 0 && r; r = r->next) {
        if (r->e != e)
            continue;
        const SrcFile *f[2] = {r->at.file, r->v && r->v->via ? r->v->via->val.pos.file : NULL};
        for (int i = 0; i < 2; i++) {
            int j = chain_index(s, f[i]);
            if (j >= 0 && j < best)
                best = j;
        }
    }
    return best < here ? s->files[best] : NULL;
}

/* A note of finding `e` (NULL: not shown) about `on`, at `pos`; the value
 * it points at is one the finding reads (read_add: not for trace's notes). */
static void note(Ck *k, Diag *e, On on, Pos pos, const char *fmt, ...) PRINTF_LIKE(5, 6);

static void note(Ck *k, Diag *e, On on, Pos pos, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_note(k->d, e, pos, "%s", arena_vprintf(k->d->arena, fmt, ap));
    va_end(ap);
    Note *n = e->notes;
    while (n->next)
        n = n->next;
    n->about = subject(k, on);
    read_add(k, e, on, NULL, NULL, true, false);
}

/* Reports a fault of the rule being checked (k->cur, so a checker reports
 * its own rule only): its finding, or NULL when the finding is not shown
 * (the rule is off). */
static Diag *report(Ck *k, On on, Pos pos, const char *fmt, ...) PRINTF_LIKE(4, 5);

static Diag *report(Ck *k, On on, Pos pos, const char *fmt, ...)
{
    Code id = k->cur;
    k->fired = true;
    const Segment *g = on.g;
    Severity sev = rule_table[id].sev;
    /* A value segc derived (a flag implied by another key, a default) has
     * no position of its own: point at its segment, else the board. */
    if (!pos.file)
        pos = g ? g->pos : k->s->name_pos;
    /* Waivers first: a rule switched off for this run (-Wno-) still fires
     * on the segment, so its waiver is not "unused".  The waived finding is
     * kept (not printed, not counted) so SARIF can show it as suppressed.
     * A pairwise finding is waived by a waiver on either segment (the
     * finding's own shown first), and each one there is used. */
    Waiver *w = NULL;
    const Segment *on_segs[2] = {g, on.pair};
    for (unsigned j = 0; j < 2; j++) {
        Segment *mg = on_segs[j] && rule_waivable(id) ? &k->mut->segs[on_segs[j] - k->s->segs] : NULL;
        for (unsigned i = 0; mg && i < mg->nwaivers; i++)
            if (!strcmp(mg->waivers[i].rule, rule_table[id].name)) {
                if (!w)
                    w = &mg->waivers[i];
                mg->waivers[i].used = true;
            }
    }
    RuleSetting set = rule_switchable(id) && !w ? k->c->setting[id] : RS_DEFAULT;
    if (set == RS_OFF)
        return NULL;
    if (set != RS_DEFAULT)
        sev = set == RS_ERROR ? SEV_ERROR : SEV_WARNING;
    /* -Werror promotes warnings, except a rule kept a warning by name
     * (-Wno-error=RULE), as in gcc. */
    else if (sev == SEV_WARNING && k->c->werror_all && !w)
        sev = SEV_ERROR;
    va_list ap;
    va_start(ap, fmt);
    Diag *e = w ? diag_vwaived(k->d, sev, id, pos, w->reason, w->pos, fmt, ap) : diag_vadd(k->d, sev, id, pos, fmt, ap);
    va_end(ap);
    e->about = subject(k, on);
    read_add(k, e, on, NULL, NULL, true, false);
    return e;
}

/* A quantity as every message writes it: "0x3B0000000 (14.75 GiB)". */
#define Q(v) qty(k->d->arena, (v))

/* The remedy of finding `e` (NULL when it is not shown), worked out from
 * the spec: "= fix: base: vram.end".  A finding a variant caused in a file
 * it extends is the variant's to fix, not the base's that other boards
 * share: its fix says "in VARIANT:" first (a variant can write any key of
 * its base: sections key by key, segments by name), and spec_check drops
 * an edit of any other file. */
static void fix(Ck *k, Diag *e, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void fix(Ck *k, Diag *e, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    const char *text = arena_vprintf(k->d->arena, fmt, ap);
    va_end(ap);
    const SrcFile *v = variant_of(k, e);
    diag_fixit(k->d, e, "%s%s%s%s", v ? "in " : "", v ? os_basename(v->name) : "", v ? ": " : "", text);
}

static uint64_t round_down(uint64_t v, uint64_t unit) { return v - v % unit; }
static uint64_t round_up(uint64_t v, uint64_t unit)
{
    return v % unit && v <= UINT64_MAX - unit ? round_down(v, unit) + unit : v;
}

/* Where to point for a value: where it was written, else the segment. */
static Pos at(const Value *v, const Segment *g)
{
    return v->set ? v->pos : g->pos;
}

static bool pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static bool add_overflows(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b;
}

/* The end of [start, start + size), or UINT64_MAX when it wraps. */
static uint64_t end_of(uint64_t start, uint64_t size)
{
    return add_overflows(start, size) ? UINT64_MAX : start + size;
}

/* Where flag `bit` of segment `g` comes from: the flag written in `flags:`,
 * else the key that implies it (flag_key); and that key's name. */
static Pos flag_pos(const Segment *g, unsigned bit, const char **key)
{
    Pos at;
    if (g->flag_pos[bit].file || !flag_key(g, bit, key, &at))
        *key = "flags", at = g->flag_pos[bit];
    return at;
}

/* ---- AGP segments ------------------------------------------------------------- */

static void check_agp_exclusive(Ck *k, const Segment *g)
{
    if (g->kind != SEG_AGP)
        return;
    if (g->flags_written)
        reads_kind(k, report(k, SEG(g, "flags"), g->flags_pos, "segment '%s' is AGP: it may set no flag besides Agp",
                             g->name), g);
    /* Each key that sets a flag (the model's, not its flags: emit_preconditions). */
    for (size_t i = 0; i < flag_count; i++) {
        const char *key;
        Pos at;
        if (flag_key(g, flag_table[i].bit, &key, &at) && strcmp(key, "kind"))
            reads_kind(k, report(k, SEG(g, key), at, "segment '%s' is AGP: %s would set %s beside Agp", g->name, key,
                                 flag_table[i].dxgk), g);
    }
    if (!k->fired && g->flags != FLAG_agp) /* a flag no key of the spec says */
        report(k, SEG(g, "flags"), g->pos,
               "segment '%s' is AGP: its flags 0x%X are not Agp alone", g->name, (unsigned)g->flags);
}

static void check_agp_at_most_one(Ck *k, const Segment *g)
{
    const Segment *agp = k->s->segs; /* the first AGP segment */
    while (g->kind == SEG_AGP && agp->kind != SEG_AGP)
        agp++;
    if (g->kind == SEG_AGP && g != agp) {
        Diag *e = report(k, SEG(g, "kind"), g->kind_pos, "a second AGP segment '%s'", g->name);
        note(k, e, SEG(agp, "kind"), agp->kind_pos, "the first AGP segment is here");
    }
}

static void check_agp_last(Ck *k, const Segment *g)
{
    if (g->kind == SEG_AGP && g != &k->s->segs[k->s->nsegs - 1])
        report(k, SEG(g, "kind"), g->kind_pos,
               "AGP segment '%s' is not last: when no AGP aperture exists the ids of the segments after it "
               "would shift", g->name);
}

static void check_agp_base_size_ignored(Ck *k, const Segment *g)
{
    const Value *v[] = {&g->base, &g->size};
    for (unsigned i = 0; g->kind == SEG_AGP && i < 2; i++)
        if (v[i]->set)
            reads_kind(k, report(k, SEG(g, i ? "size" : "base"), v[i]->pos, "%s of AGP segment '%s' is ignored: VidMm %s",
                                 i ? "size" : "base", g->name,
                                 i ? "takes as much of the aperture as it can" : "uses the AGP aperture's address"), g);
}

/* ---- sizes and ranges ------------------------------------------------------------ */

static void check_size_nonzero(Ck *k, const Segment *g)
{
    if (g->size.v == 0)
        report(k, SEG(g, "size"), at(&g->size, g), "segment '%s' has size 0", g->name);
}

static void check_size_page_multiple(Ck *k, const Segment *g)
{
    uint64_t page = k->page;
    if (g->size.v % page == 0)
        return;
    Diag *e = report(k, SEG(g, "size"), at(&g->size, g),
                     "size of segment '%s' (%s) is not a multiple of the %llu-byte page", g->name, Q(g->size.v),
                     (unsigned long long)page);
    reads(k, e, SEG(NULL, "board.page_size"), false);
    fix(k, e, "size: %s0x%llX (a whole number of pages)",
        round_down(g->size.v, page) ? arena_printf(k->d->arena, "0x%llX or ", (unsigned long long)round_down(g->size.v, page)) : "",
        (unsigned long long)round_up(g->size.v, page));
}

/* The findings of the DXGK fields of segment `g` (with g NULL, the
 * board's) that the rule being checked covers, whose value does not fit
 * the member it is written to. */
static Code width_rule(const FieldInfo *fi)
{
    return fi->width == W_SIZE_T      ? R_size_fits_size_t
           : fi->scope == SC_VPR    ? R_vpr_range_inside
           : fi->scope == SC_PAGING ? R_paging_size_uint
                                    : R_field_width;
}

static void check_widths(Ck *k, const Segment *g)
{
    const Spec *s = k->s;
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        const FieldInfo *fi = &field_table[f];
        /* Bank ends are at most Size (banks-cover); SizeInPages counts
         * pages (cpu-host-aperture-size); 64-bit members hold any value. */
        bool seg = fi->scope == SC_SEG || fi->scope == SC_VPR || fi->scope == SC_QS4;
        if ((fi->width != W_32 && fi->width != W_SIZE_T) || f == F_host_size || seg != (g != NULL) ||
            width_rule(fi) != k->cur)
            continue;
        const Value *v = field_value((FieldId)f, g ? (const void *)g : (const void *)s);
        uint64_t max = field_max((FieldId)f, s);
        /* A default that copies the size is reported where the size is. */
        if (v->v <= max || (g && !v->set && fi->def == DEF_SIZE && v->v == g->size.v))
            continue;
        const char *key = arena_printf(k->d->arena, "%s%s", scope_map[fi->scope], fi->key);
        Diag *e = report(k, SEG(g, key), v->pos, "%s%s (%s) does not fit %s, a %u-bit %s%s%s", key,
                         g ? arena_printf(k->d->arena, " of segment '%s'", g->name) : "", Q(v->v), fi->dxgk,
                         max == UINT32_MAX ? 32u : 64u, fi->width == W_32 ? "UINT" : "SIZE_T",
                         fi->width == W_SIZE_T ? " on " : "", fi->width == W_SIZE_T ? arch_name(s->arch) : "");
        if (fi->width == W_SIZE_T)
            read_add(k, e, (On){0}, &s->arch_pos, arena_printf(k->d->arena, "board.arch is %s", arch_name(s->arch)), false,
                     false);
    }
}

static void check_paging_size_uint(Ck *k)
{
    check_widths(k, NULL);
}

/* What the CPU reaches a segment through: its cpu_visible window or its
 * host aperture, at an offset in a BAR or at a fixed physical address. */
typedef struct Window {
    CpuMode mode;
    const Bar *bar;
    uint64_t start, size;
    const char *start_key, *size_key; /* the keys start and size are read from */
    Pos pos;
    const char *what, *key;
} Window;

/* The windows of segment `g` (0 to 2) into w. */
static unsigned windows(const Segment *g, Window *w)
{
    unsigned n = 0;
    const HostAperture *h = &g->host;
    if (g->cpu != CPU_NONE && (g->cpu != CPU_BAR || g->cpu_bar))
        w[n++] = (Window){g->cpu, g->cpu_bar, g->cpu == CPU_BAR ? g->cpu_offset.v : g->cpu_address.v, g->size.v,
                          g->cpu == CPU_BAR ? "cpu_visible.offset" : "cpu_visible.address", "size", g->cpu_pos, "CPU window",
                          "cpu_visible"};
    if (h->mode != CPU_NONE)
        w[n++] = (Window){h->mode, h->bar, h->mode == CPU_BAR ? h->offset.v : h->address.v, h->size.v,
                          h->mode == CPU_BAR ? "cpu_host_aperture.offset" : "cpu_host_aperture.address",
                          "cpu_host_aperture.size", h->pos, "host aperture",
                          "cpu_host_aperture"};
    return n;
}

/* Where [start, start + size) ends against the top of the 64-bit address
 * space: below 2^64 (its end a 64-bit value), exactly at 2^64, or past it
 * (it wraps). */
typedef enum { ENDS_BELOW, ENDS_AT_TOP, ENDS_PAST } RangeEnd;

static RangeEnd range_end(uint64_t start, uint64_t size)
{
    return !add_overflows(start, size) ? ENDS_BELOW : start + size == 0 ? ENDS_AT_TOP : ENDS_PAST;
}

/* How a range that does not end below 2^64 ends, as a message says it:
 * "[0xFFFFFFFFFFFFF000, 2^64) ends exactly at 2^64" or "(0x... + 0x...)
 * ends 0x1000 bytes past 2^64". */
static const char *top_said(Ck *k, uint64_t start, uint64_t size)
{
    if (range_end(start, size) == ENDS_AT_TOP)
        return arena_printf(k->d->arena, "[0x%llX, 2^64) ends exactly at 2^64", (unsigned long long)start);
    return arena_printf(k->d->arena, "(0x%llX + 0x%llX) ends 0x%llX bytes past 2^64", (unsigned long long)start,
                        (unsigned long long)size, (unsigned long long)(start + size));
}

/* The GPU range, and the windows at fixed CPU addresses, end below 2^64:
 * each end (base + size) is a 64-bit value, which SEG.end, the next
 * segment's default base, the lookup table and the self-test compute, so
 * the last byte of a range is at 2^64 - 2 at most. */
static void check_range_overflow(Ck *k, const Segment *g)
{
    if (range_end(g->base.v, g->size.v) != ENDS_BELOW)
        reads(k, report(k, SEG(g, "base"), at(&g->base, g),
                        "segment '%s' %s, the top of the 64-bit GPU address space: a range must end below it", g->name,
                        top_said(k, g->base.v, g->size.v)), SEG(g, "size"), false);
    Window w[2];
    for (unsigned i = 0, n = windows(g, w); i < n; i++)
        if (w[i].mode == CPU_ADDRESS && range_end(w[i].start, w[i].size) != ENDS_BELOW) {
            Diag *e = report(k, SEG(g, w[i].key), w[i].pos,
                             "%s of segment '%s' %s, the top of the 64-bit CPU address space: a range must end below it",
                             w[i].what, g->name, top_said(k, w[i].start, w[i].size));
            reads(k, e, SEG(g, w[i].start_key), false);
            reads(k, e, SEG(g, w[i].size_key), false);
        }
}

/* Where segment `a` could start instead: the lowest base from its own up
 * at which it overlaps none of the segments before it (each move goes to
 * the end of one, so there are at most as many as segments), and the
 * segment that ends there; NULL when there is none below 2^64. */
static const Segment *free_base(Ck *k, const Segment *a, uint64_t *base)
{
    const Spec *s = k->s;
    const Segment *after = NULL;
    uint64_t at = a->base.v;
    for (bool moved = true; moved;) {
        moved = false;
        for (unsigned j = 0; j < (unsigned)(a - s->segs); j++) {
            const Segment *b = &s->segs[j];
            uint64_t be = end_of(b->base.v, b->size.v);
            if (!ready(k, R_segments_overlap, b) || !(at < be && b->base.v < end_of(at, a->size.v)))
                continue;
            if (be == UINT64_MAX || add_overflows(be, a->size.v))
                return NULL;
            at = be, after = b, moved = true;
        }
    }
    *base = at;
    return after;
}

/* GPU ranges, pairwise (n <= 31): every segment before `a` it overlaps,
 * each a finding naming both; the fix is the base that clears them all. */
static void check_segments_overlap(Ck *k, const Segment *a)
{
    const Spec *s = k->s;
    for (unsigned j = 0; j < (unsigned)(a - s->segs); j++) {
        const Segment *b = &s->segs[j];
        if (!ready(k, R_segments_overlap, b))
            continue;
        uint64_t ae = end_of(a->base.v, a->size.v), be = end_of(b->base.v, b->size.v);
        if (a->base.v < be && b->base.v < ae) {
            Diag *e = report(k, PAIR(a, "base", b), at(&a->base, a),
                             "segment '%s' [0x%llX, 0x%llX) overlaps segment '%s' [0x%llX, 0x%llX)", a->name,
                             (unsigned long long)a->base.v, (unsigned long long)ae, b->name,
                             (unsigned long long)b->base.v, (unsigned long long)be);
            note(k, e, SEG(b, "base"), at(&b->base, b), "segment '%s' is placed here", b->name);
            reads(k, e, SEG(a, "size"), false);
            reads(k, e, SEG(b, "size"), false);
            uint64_t to;
            const Segment *after = free_base(k, a, &to);
            if (after)
                fix(k, e, "base: %s.end (0x%llX), after segment '%s'", after->name, (unsigned long long)to,
                    after->name);
        }
    }
}

static void check_segments_max(Ck *k)
{
    const Spec *s = k->s;
    unsigned max = s->wddm >= 0x20 ? MAX_SEGMENTS - 1 : MAX_SEGMENTS;
    if (s->nsegs > max)
        reads_wddm(k, report(k, SEG(&s->segs[max], NULL), s->segs[max].pos,
                             "segment %u: at most %u segments can be described (WDDM %u.%u)", max + 1, max,
                             s->wddm >> 4, s->wddm & 15));
}

static void check_segments_none(Ck *k)
{
    const Spec *s = k->s;
    unsigned agps = 0;
    for (unsigned i = 0; i < s->nsegs; i++)
        agps += s->segs[i].kind == SEG_AGP;
    if (s->nsegs == 0)
        report(k, SEG(NULL, "segments"), s->segs_pos, "the board describes no segment");
    else if (agps == s->nsegs)
        report(k, SEG(&s->segs[0], "kind"), s->segs[0].kind_pos,
               "AGP segment '%s' is the board's only segment: without an AGP aperture the driver would report none",
               s->segs[0].name);
}

/* ---- CPU visibility and BARs ------------------------------------------------------- */

static void check_cpu_visible_aperture(Ck *k, const Segment *g)
{
    if (g->cpu != CPU_NONE && g->kind == SEG_APERTURE)
        reads_kind(k, report(k, SEG(g, "cpu_visible"), g->cpu_pos,
                             "cpu_visible on aperture '%s' has no meaning: VidMm ignores its CpuTranslatedAddress",
                             g->name), g);
}

/* The smallest power of two at least v (v at most 2^63), as a spec writes it. */
static const char *pow2_text(Ck *k, uint64_t v)
{
    unsigned lg = 0;
    while (lg < 63 && (1ull << lg) < v)
        lg++;
    return bytes_text(k->d->arena, 1ull << lg);
}

/* The window is too large for its BAR: the fix says whose size changes,
 * the segment's (what the BAR holds past the offset) or the BAR's (the
 * power of two that holds offset + size), and notes show both sizes. */
static void check_cpu_window_in_bar(Ck *k, const Segment *g)
{
    if (g->cpu != CPU_BAR || !g->cpu_bar)
        return;
    const Bar *b = g->cpu_bar;
    uint64_t off = g->cpu_offset.v, end = end_of(off, g->size.v);
    if (off <= b->size.v && g->size.v <= b->size.v - off)
        return;
    Diag *e = report(k, ((On){g, NULL, b, "cpu_visible", NULL}), g->cpu_pos,
                     "segment '%s' (%s at offset 0x%llX) does not fit in BAR '%s' (%s)", g->name, Q(g->size.v),
                     (unsigned long long)off, b->name, Q(b->size.v));
    reads(k, e, SEG(g, "size"), true);
    reads(k, e, BAR(b, "size"), true);
    reads(k, e, SEG(g, "cpu_visible.offset"), false);
    /* A BAR of a base the finding's file extends is changed by writing it
     * there, over the base's. */
    int mine = chain_index(k->s, e ? e->pos.file : NULL), its = chain_index(k->s, b->size.pos.file);
    const char *bar = end <= 1ull << 63
                          ? arena_printf(k->d->arena, "BAR '%s' size: %s%s%s%s", b->name, pow2_text(k, end),
                                         end > BAR32_MAX && bar_regs(b) == 1 ? " and bits: 64" : "",
                                         mine >= 0 && its > mine ? " in " : "",
                                         mine >= 0 && its > mine ? os_basename(e->pos.file->name) : "")
                          : NULL;
    const char *or = bar ? ", or " : "", *bar_fix = bar ? bar : "";
    if (off < b->size.v)
        fix(k, e, "segment '%s' size: 0x%llX (%s)%s%s", g->name, (unsigned long long)(b->size.v - off),
            off ? arena_printf(k->d->arena, "what the BAR holds past offset 0x%llX", (unsigned long long)off)
                : "the BAR's size",
            or, bar_fix);
    else if (g->size.v <= b->size.v)
        fix(k, e, "offset: 0x%llX (the segment then ends at the BAR's end)%s%s",
            (unsigned long long)(b->size.v - g->size.v), or, bar_fix);
    else if (bar)
        fix(k, e, "%s", bar);
}

/* Windows in one BAR, or at fixed addresses, do not overlap (BAR-relative
 * and fixed ones cannot be compared before the BARs are assigned); each
 * window of `a` against those of the segments before it, every pair that
 * overlaps a finding. */
static void check_cpu_windows_overlap(Ck *k, const Segment *a)
{
    const Spec *s = k->s;
    Window wa[2], wb[2];
    for (unsigned i = 0, na = windows(a, wa); i < na; i++) {
        const Window *x = &wa[i];
        uint64_t xe = end_of(x->start, x->size);
        /* A window past 2^64 (range-overflow) has no end to compare. */
        if ((x->mode == CPU_ADDRESS && add_overflows(x->start, x->size)) || !x->size)
            continue;
        for (unsigned j = 0; j < (unsigned)(a - s->segs); j++) {
            const Segment *b = &s->segs[j];
            if (!ready(k, R_cpu_windows_overlap, b))
                continue;
            for (unsigned m = 0, nb = windows(b, wb); m < nb; m++) {
                const Window *y = &wb[m];
                if (y->mode != x->mode || y->bar != x->bar || !y->size ||
                    (y->mode == CPU_ADDRESS && add_overflows(y->start, y->size)))
                    continue;
                if (x->start < end_of(y->start, y->size) && y->start < xe) {
                    Diag *e = report(k, PAIR(a, x->key, b), x->pos,
                                     "%s of segment '%s' overlaps the %s of segment '%s'", x->what, a->name, y->what,
                                     b->name);
                    note(k, e, SEG(b, y->key), y->pos, "the %s of segment '%s' is here", y->what, b->name);
                    const On v[] = {SEG(a, x->start_key), SEG(a, x->size_key), SEG(b, y->start_key), SEG(b, y->size_key)};
                    for (size_t r = 0; r < countof(v); r++)
                        reads(k, e, v[r], false);
                }
            }
        }
    }
}

/* Whether BARs a and b take a register in common (no sum: an index may
 * be any 64-bit value). */
static bool bars_share(const Bar *a, const Bar *b)
{
    uint64_t x = a->index.v, y = b->index.v;
    return x >= y ? x - y < bar_regs(b) : y - x < bar_regs(a);
}

/* The fix of a bar-index finding: the lowest index where BAR `b` takes
 * registers of its own, and that index as an edit. */
static void fix_bar_index(Ck *k, Diag *e, const Bar *b)
{
    const Spec *s = k->s;
    for (unsigned i = 0; i + bar_regs(b) <= 6; i++) {
        Bar at = *b;
        at.index.v = i;
        bool taken = false;
        for (unsigned j = 0; j < s->nbars && !taken; j++)
            taken = &s->bars[j] != b && bars_share(&at, &s->bars[j]);
        if (!taken) {
            fix(k, e, "index: %u (a register no other BAR takes)", i);
            diag_edit(k->d, e, b->index.pos, arena_printf(k->d->arena, "%u", i));
            return;
        }
    }
}

static void check_bar_index(Ck *k, const Bar *b)
{
    const Spec *s = k->s;
    unsigned n = bar_regs(b);
    if (b->index.v > 6 - n) { /* 6 - n: index + n could wrap */
        Diag *e = report(k, BAR(b, "index"), b->index.pos,
                         n == 1 ? "BAR '%s' has index %llu; PCI BARs are 0 to 5"
                                : "BAR '%s' is 64-bit: at index %llu its upper half would be past BAR5",
                         b->name, (unsigned long long)b->index.v);
        if (n == 2)
            reads(k, e, BAR(b, "bits"), false);
        fix_bar_index(k, e, b);
    }
    for (unsigned j = 0; j < (unsigned)(b - s->bars); j++) {
        const Bar *o = &s->bars[j];
        if (bars_share(b, o)) {
            /* Above b, o's register is 64-bit b's upper half; else b's is o's. */
            bool upper = o->index.v > b->index.v;
            Diag *e = report(k, BAR(b, "index"), b->index.pos,
                             o->index.v == b->index.v ? "BAR '%s' has the same index (%llu) as BAR '%s'"
                             : upper ? "BAR '%s' is 64-bit: at index %llu its upper half is the register of BAR '%s'"
                                     : "BAR '%s' at index %llu shares a register with 64-bit BAR '%s'",
                             b->name, (unsigned long long)b->index.v, o->name);
            note(k, e, BAR(o, "index"), o->index.pos, "BAR '%s' is here", o->name);
            reads(k, e, BAR(upper ? b : o, "bits"), false);
            fix_bar_index(k, e, b);
            return;
        }
    }
}

static void check_bar_size(Ck *k, const Bar *b)
{
    if (b->bits.set && b->bits.v != 32 && b->bits.v != 64)
        report(k, BAR(b, "bits"), b->bits.pos, "BAR '%s' is %llu bits wide; a BAR is 32 or 64", b->name,
               (unsigned long long)b->bits.v);
    else if (bar_regs(b) == 1 && b->size.v > BAR32_MAX) {
        Diag *e = report(k, BAR(b, "bits"), b->bits.pos, "32-bit BAR '%s' cannot decode %s (at most 4 GiB)",
                         b->name, Q(b->size.v));
        reads(k, e, BAR(b, "size"), false);
        fix(k, e, "bits: 64");
        diag_edit(k->d, e, b->bits.pos, "64");
    }
    if (!pow2(b->size.v)) {
        Diag *e = report(k, BAR(b, "size"), b->size.pos, "BAR '%s' size %s is not a power of two", b->name,
                         Q(b->size.v));
        fix(k, e, "size: %s (the power of two that holds it)", pow2_text(k, b->size.v));
        diag_edit(k->d, e, b->size.pos, pow2_text(k, b->size.v));
    }
}

/* ---- banks ----------------------------------------------------------------------- */

static void check_banks_memory_only(Ck *k, const Segment *g)
{
    if (g->nbanks && g->kind == SEG_APERTURE)
        reads_kind(k, report(k, SEG(g, "banks"), g->banks_pos, "banks on %s segment '%s': banking is for memory segments",
                             seg_kind_name(g->kind), g->name), g);
}

/* A variant's segment size that its base's banks do not cover: the fix is
 * the variant's size (the banks are the base's layout). */
static bool fix_banks_variant(Ck *k, Diag *e, const Segment *g)
{
    if (!variant_of(k, e))
        return false;
    const Bank *last = &g->banks[g->nbanks - 1];
    if (last->size.set)
        fix(k, e, "segment '%s' size: 0x%llX (what its banks cover)", g->name, (unsigned long long)last->end);
    else
        fix(k, e, "segment '%s' size: more than 0x%llX (what the banks before the last take)", g->name,
            (unsigned long long)last->start);
    return true;
}

/* The banks, as the emitted tables read them (start, end), run from 0 to
 * the segment's end with no gap and no empty bank. */
static void check_banks_cover(Ck *k, const Segment *g)
{
    if (!g->nbanks || g->kind != SEG_MEMORY)
        return;
    for (unsigned i = 0; i < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        uint64_t start = i ? g->banks[i - 1].end : 0;
        if (b->start != start) {
            report(k, BANK(g, b, NULL), b->pos, "bank '%s' of segment '%s' starts at 0x%llX, not at 0x%llX",
                   b->name, g->name, (unsigned long long)b->start, (unsigned long long)start);
            return;
        }
        if (b->end <= b->start) {
            report(k, BANK(g, b, b->size.set ? "size" : NULL), b->size.set ? b->size.pos : b->pos,
                   b->size.set ? "bank '%s' of segment '%s' is empty"
                               : "bank '%s' of segment '%s' has nothing left: the banks before it fill the segment",
                   b->name, g->name);
            return;
        }
        if (b->end > g->size.v) { /* this bank, not the next, passes the end */
            bool far = b->end == UINT64_MAX;
            Diag *e = report(k, BANK(g, b, "size"), at(&b->size, g),
                             "bank '%s' of segment '%s' ends at offset 0x%llX, %s past the segment's %s", b->name,
                             g->name, (unsigned long long)b->end, far ? "far" : Q(b->end - g->size.v), Q(g->size.v));
            reads(k, e, SEG(g, "size"), true);
            if (fix_banks_variant(k, e, g))
                ;
            else if (i + 1 == g->nbanks) {
                fix(k, e, "leave the last bank's size out: it then ends at the segment's end (%s)",
                    Q(g->size.v - start));
                if (b->size.set)
                    diag_edit_remove_pair(k->d, e, b->size.pos);
            } else
                fix(k, e, "bank '%s' size: at most %s, what is left of the segment", b->name, Q(g->size.v - start));
            return;
        }
    }
    const Bank *last = &g->banks[g->nbanks - 1];
    if (last->end != g->size.v) {
        Diag *e = report(k, BANK(g, last->size.set ? last : NULL, last->size.set ? "size" : "banks"),
                         last->size.set ? last->size.pos : g->banks_pos,
                         "banks of segment '%s' cover %s, %s short of the segment's %s", g->name, Q(last->end),
                         Q(g->size.v - last->end), Q(g->size.v));
        reads(k, e, SEG(g, "size"), true);
        if (!fix_banks_variant(k, e, g) && last->size.set) {
            fix(k, e, "leave the last bank's size out: it then ends at the segment's end");
            diag_edit_remove_pair(k->d, e, last->size.pos);
        }
    }
}

/* The banks start at 0 and follow one another (banks-cover), so every
 * boundary is on a page exactly when every bank but the last (which ends
 * with the segment) is a whole number of pages: each bank that is not is
 * a finding, and rounding each one's size is the fix of all. */
static void check_banks_page_aligned(Ck *k, const Segment *g)
{
    uint64_t page = k->page;
    for (unsigned i = 0; g->kind == SEG_MEMORY && i + 1 < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        uint64_t size = b->end - b->start;
        if (size % page == 0)
            continue;
        Diag *e = report(k, BANK(g, b, "size"), at(&b->size, g),
                         "bank '%s' of segment '%s' is 0x%llX bytes, not a whole number of %llu-byte pages, so a "
                         "bank boundary falls inside a page", b->name, g->name, (unsigned long long)size,
                         (unsigned long long)page);
        reads(k, e, SEG(NULL, "board.page_size"), false);
        if (round_down(size, page))
            fix(k, e, "size: 0x%llX or 0x%llX (whole pages)", (unsigned long long)round_down(size, page),
                (unsigned long long)round_up(size, page));
        else
            fix(k, e, "size: 0x%llX (a whole page)", (unsigned long long)round_up(size, page));
    }
}

static void check_banks_max(Ck *k, const Segment *g)
{
    if (g->nbanks > MAX_BANKS)
        report(k, BANK(g, &g->banks[MAX_BANKS], NULL), g->banks[MAX_BANKS].pos,
               "segment '%s' has %u banks; at most %u can be named", g->name, g->nbanks, (unsigned)MAX_BANKS);
}

/* ---- commit limits ------------------------------------------------------------------ */

static void check_commit_limit_memory(Ck *k, const Segment *g)
{
    if (g->kind == SEG_MEMORY && g->commit_limit.set && g->commit_limit.v != g->size.v) {
        Diag *e = report(k, SEG(g, "commit_limit"), g->commit_limit.pos,
                         "commit limit of memory segment '%s' (%s) differs from its size (%s)", g->name,
                         Q(g->commit_limit.v), Q(g->size.v));
        reads(k, e, SEG(g, "size"), false);
        reads_kind(k, e, g);
        fix(k, e, "%s", variant_of(k, e) ? "commit_limit: size" : "leave commit_limit out: it defaults to the size");
    }
}

static void check_commit_limit_aperture(Ck *k, const Segment *g)
{
    if (g->kind == SEG_APERTURE && g->commit_limit.v > g->size.v) {
        Diag *e = report(k, SEG(g, "commit_limit"), at(&g->commit_limit, g),
                         "commit limit of aperture '%s' (%s) exceeds its size (%s) by %s", g->name,
                         Q(g->commit_limit.v), Q(g->size.v), Q(g->commit_limit.v - g->size.v));
        reads(k, e, SEG(g, "size"), false);
        fix(k, e, "commit_limit: size (or leave it out: it defaults to the size)");
    }
}

/* ---- standby and hibernate -------------------------------------------------------- */

static void check_preserve_combination(Ck *k, const Segment *g)
{
    uint32_t f = g->flags;
    bool sb = f & FLAG_preserved_during_standby, hb = f & FLAG_preserved_during_hibernate,
         ph = f & FLAG_partially_preserved_during_hibernate;
    if (hb && ph)
        report(k, SEG(g, "flags"), g->flag_pos[FB_partially_preserved_during_hibernate],
               "segment '%s' is preserved during hibernate both fully and partially; pick one", g->name);
    else if ((hb || ph) && !sb)
        fix(k, report(k, SEG(g, "flags"),
                      g->flag_pos[hb ? FB_preserved_during_hibernate : FB_partially_preserved_during_hibernate],
                      "segment '%s' is preserved during hibernate but not during standby", g->name),
            "add preserved_during_standby to the flags");
}

static void check_system_memory_end_memory_only(Ck *k, const Segment *g)
{
    const Value *e = &g->system_memory_end;
    if (e->set && g->kind == SEG_APERTURE)
        reads_kind(k, report(k, SEG(g, "system_memory_end"), e->pos, "system_memory_end on %s segment '%s'",
                             seg_kind_name(g->kind), g->name), g);
}

static void check_system_memory_end_iff_partial(Ck *k, const Segment *g)
{
    const Value *e = &g->system_memory_end;
    bool ph = g->flags & FLAG_partially_preserved_during_hibernate;
    if (ph && (!e->set || e->v == 0))
        report(k, SEG(g, e->set ? "system_memory_end" : "flags"),
               e->set ? e->pos : g->flag_pos[FB_partially_preserved_during_hibernate],
               "segment '%s' is partially preserved during hibernate but has no (non-zero) system_memory_end",
               g->name);
    else if (e->set && e->v && !ph) /* 0 is what an unpreserved segment writes */
        report(k, SEG(g, "system_memory_end"), e->pos,
               "system_memory_end is set on segment '%s' without partially_preserved_during_hibernate", g->name);
}

/* The size itself (an end taken as exclusive): '- 1' makes it the last byte. */
static void edit_minus_one(Ck *k, Diag *w, const Segment *g)
{
    const Value *e = &g->system_memory_end;
    if (e->v == g->size.v || (e->v < g->size.v && e->v % k->page == 0))
        diag_edit_append(k->d, w, e->pos, "- 1");
}

static void check_system_memory_end_inside(Ck *k, const Segment *g)
{
    const Value *e = &g->system_memory_end;
    if (e->v < g->size.v)
        return;
    Diag *w = report(k, SEG(g, "system_memory_end"), at(e, g),
                     "system_memory_end 0x%llX of segment '%s' is not inside it (size %s; the offset is inclusive)",
                     (unsigned long long)e->v, g->name, Q(g->size.v));
    reads(k, w, SEG(g, "size"), false);
    fix(k, w, "system_memory_end: size - 1 (0x%llX) at most", (unsigned long long)(g->size.v - 1));
    edit_minus_one(k, w, g);
}

static void check_system_memory_end_page(Ck *k, const Segment *g)
{
    uint64_t page = k->page;
    const Value *e = &g->system_memory_end;
    if (!e->set || !e->v || (e->v + 1) % page == 0)
        return;
    Diag *w = report(k, SEG(g, "system_memory_end"), e->pos,
                     "system_memory_end 0x%llX of segment '%s' is inclusive, so the driver-reserved part is %s: "
                     "not a whole number of %llu-byte pages",
                     (unsigned long long)e->v, g->name, Q(e->v + 1), (unsigned long long)page);
    reads(k, w, SEG(NULL, "board.page_size"), false);
    fix(k, w, e->v % page ? "end the driver-reserved part on a page: 0x%llX" : "write the last byte's offset: '- 1' (0x%llX)",
        (unsigned long long)(e->v % page ? round_up(e->v + 1, page) - 1 : e->v - 1));
    edit_minus_one(k, w, g);
}

/* ---- flags ------------------------------------------------------------------------- */

/* Every flag the descriptor sets (written or implied by a key) exists in
 * the DDI of board.wddm; and so does NumUEFIFrameBufferRanges. */
/* `what` (`key` of segment `g`, at `at`) needs WDDM `min`: board.wddm
 * raised (an edit where it is written), or `remove` removed; when a
 * variant's board.wddm caused it, only the variant's version. */
static void needs_wddm(Ck *k, const Segment *g, const char *key, Pos at, const char *what, unsigned min,
                       const char *remove)
{
    const char *ver = arena_printf(k->d->arena, "\"%u.%u\"", min >> 4, min & 15);
    Diag *e = report(k, SEG(g, key), at, "%s needs WDDM %u.%u or later; board.wddm is %u.%u", what, min >> 4,
                     min & 15, k->s->wddm >> 4, k->s->wddm & 15);
    reads_wddm(k, e);
    if (variant_of(k, e))
        fix(k, e, "wddm: %s in board", ver);
    else
        fix(k, e, "wddm: %s in board, or remove '%s'", ver, remove);
    diag_edit(k->d, e, k->s->wddm_pos, ver);
}

static void check_flag_wddm_version(Ck *k, const Segment *g)
{
    const Spec *s = k->s;
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        const char *key;
        if (!(g->flags & (1u << fi->bit)) || fi->min_wddm <= s->wddm)
            continue;
        Pos p = flag_pos(g, fi->bit, &key);
        /* The flag, or the key that implies it. */
        const char *what = !strcmp(key, "flags") || !strcmp(key, "kind")
                               ? arena_printf(k->d->arena, "flag '%s'", fi->name)
                               : arena_printf(k->d->arena, "%s (which sets %s)", key, fi->dxgk);
        needs_wddm(k, g, key, p, what, fi->min_wddm, g->flag_pos[fi->bit].file ? fi->name : key);
    }
    if (g->uefi_ranges.set && s->wddm < 0x22)
        needs_wddm(k, g, "uefi_frame_buffer_ranges", g->uefi_ranges.pos,
                   "uefi_frame_buffer_ranges (NumUEFIFrameBufferRanges)", 0x22, "uefi_frame_buffer_ranges");
}

static void check_reserved_sys_mem(Ck *k, const Segment *g)
{
    if (!(g->flags & FLAG_reserved_sys_mem))
        return;
    Diag *e = report(k, SEG(g, "flags"), g->flag_pos[FB_reserved_sys_mem],
                     "reserved_sys_mem is set by the system, never by a driver");
    fix(k, e, "remove reserved_sys_mem from the flags");
    diag_edit_remove_item(k->d, e, g->flag_pos[FB_reserved_sys_mem]);
}

static void check_host_aperture_cpu_visible(Ck *k, const Segment *g)
{
    if (!(g->flags & FLAG_supports_cpu_host_aperture) || !(g->flags & FLAG_cpu_visible))
        return;
    const char *key;
    Pos p = flag_pos(g, FB_supports_cpu_host_aperture, &key);
    Diag *e = report(k, SEG(g, key), p, "segment '%s' supports a CPU host aperture and is also cpu_visible", g->name);
    note(k, e, SEG(g, "cpu_visible"), g->cpu_pos, "cpu_visible written here");
}

static void check_cached_host_aperture(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_supports_cached_cpu_host_aperture) && !(g->flags & FLAG_supports_cpu_host_aperture))
        report(k, SEG(g, "flags"), g->flag_pos[FB_supports_cached_cpu_host_aperture],
               "supports_cached_cpu_host_aperture without supports_cpu_host_aperture on segment '%s'", g->name);
}

static void check_use_64kb_pages_alignment(Ck *k, const Segment *g)
{
    const uint64_t k64 = 64 * 1024;
    if (!(g->flags & FLAG_use_64kb_pages))
        return;
    const Value *v[] = {&g->base, &g->size};
    for (unsigned i = 0; i < 2; i++)
        if (v[i]->v % k64)
            read_add(k, report(k, SEG(g, i ? "size" : "base"), at(v[i], g),
                               "segment '%s' uses 64 KB pages but its %s 0x%llX is not %s", g->name, i ? "size" : "base",
                               (unsigned long long)v[i]->v, i ? "a 64 KiB multiple" : "64 KiB-aligned"),
                     (On){0}, &g->flag_pos[FB_use_64kb_pages],
                     arena_printf(k->d->arena, "segment '%s' sets use_64kb_pages", g->name), false, false);
}

static void check_cache_coherent_memory(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_cache_coherent) && g->kind == SEG_MEMORY)
        reads_kind(k, report(k, SEG(g, "flags"), g->flag_pos[FB_cache_coherent],
                             "cache_coherent on memory segment '%s' has no meaning (aperture segments only)", g->name),
                   g);
}

static void check_populated_from_system_memory_aperture(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_populated_from_system_memory) && g->kind == SEG_APERTURE)
        reads_kind(k, report(k, SEG(g, "flags"), g->flag_pos[FB_populated_from_system_memory],
                             "populated_from_system_memory is ignored on %s segment '%s'", seg_kind_name(g->kind),
                             g->name), g);
}

static void check_application_target_deprecated(Ck *k, const Segment *g)
{
    if (g->flags & FLAG_application_target)
        report(k, SEG(g, "flags"), g->flag_pos[FB_application_target],
               "application_target is deprecated; use local_budget_group or non_local_budget_group");
}

/* ---- paging buffer ------------------------------------------------------------------ */

static void check_paging_segment_aperture(Ck *k)
{
    const Spec *s = k->s;
    const Segment *g = s->paging.seg && !s->paging.seg->unresolved ? s->paging.seg : NULL;
    if (!g || g->kind == SEG_APERTURE)
        return;
    Diag *e = report(k, SEG(NULL, "paging.segment"), s->paging.seg_pos,
                     g->kind == SEG_AGP ? "paging segment '%s' is the AGP segment, which is absent without an AGP aperture"
                                        : "paging segment '%s' is a memory segment; it must be an aperture (or none)",
                     g->name);
    reads_kind(k, e, g);
    /* The segments that would do: the apertures, and none. */
    const char **names = arena_alloc(k->d->arena, (s->nsegs + 1) * sizeof *names);
    unsigned n = 0;
    for (unsigned i = 0; i < s->nsegs; i++)
        if (s->segs[i].kind == SEG_APERTURE)
            names[n++] = s->segs[i].name;
    if (n == 0)
        fix(k, e, "segment: none (the board has no aperture segment)");
    else
        fix(k, e, "segment: %s%s (the board's aperture%s), or none", n > 1 ? "one of " : "",
            words_text(k->d->arena, names, n, ", "), n > 1 ? "s" : "");
    if (n <= 1)
        diag_edit(k->d, e, s->paging.seg_pos, n ? names[0] : "none");
}

/* VidMm allocates the paging buffer in that segment, within its commit limit. */
static void check_paging_buffer_fits(Ck *k)
{
    const Spec *s = k->s;
    const Segment *g = s->paging.seg && !s->paging.seg->unresolved ? s->paging.seg : NULL;
    /* The commit limit emitted, 0 too: VidMm commits nothing past it. */
    uint64_t room = g ? (g->commit_limit.v < g->size.v ? g->commit_limit.v : g->size.v) : 0;
    if (g && s->paging.buffer_size.v > room) {
        Diag *e = report(k, SEG(NULL, "paging.buffer_size"), at(&s->paging.buffer_size, g),
                         "paging buffer_size %s does not fit in paging segment '%s' (commit limit %s)",
                         Q(s->paging.buffer_size.v), g->name, Q(room));
        note(k, e, SEG(NULL, "paging.segment"), s->paging.seg_pos, "the paging segment is named here");
        reads(k, e, SEG(g, room == g->size.v ? "size" : "commit_limit"), false);
        if (room)
            fix(k, e, "buffer_size: at most 0x%llX", (unsigned long long)room);
        else
            fix(k, e, "leave commit_limit out of segment '%s' (a commit limit of 0 lets nothing be committed)",
                g->name);
    }
}

/* ---- names and versions ------------------------------------------------------------ */

/* Whether `name` (a `what` name) is a C identifier; a finding when not. */
static bool c_ident(Ck *k, On on, Pos at, const char *what, const char *name)
{
    if (!is_c_ident(name))
        report(k, on, at, "%s name '%s' is not a C identifier", what, name);
    return is_c_ident(name);
}

static void check_names_c_ident(Ck *k)
{
    const Spec *s = k->s;
    if (c_ident(k, SEG(NULL, "board.name"), s->name_pos, "board", s->name) && strlen(s->name) > BOARD_NAME_MAX)
        report(k, SEG(NULL, "board.name"), s->name_pos,
               "board name '%.16s...' is %zu bytes long: the files named after it (%.16s..._segments.h) would pass "
               "the 255 bytes of a file name (%d bytes at most)", s->name, strlen(s->name), s->name, BOARD_NAME_MAX);
    for (unsigned i = 0; i < s->nbars; i++)
        c_ident(k, BAR(&s->bars[i], "name"), s->bars[i].pos, "BAR", s->bars[i].name);
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (c_ident(k, SEG(g, "name"), g->pos, "segment", g->name) && !strcmp(g->name, "none"))
            report(k, SEG(g, "name"), g->pos,
                   "segment name 'none' is reserved: 'paging: { segment: none }' means no segment");
        for (unsigned b = 0; b < g->nbanks; b++)
            c_ident(k, BANK(g, &g->banks[b], "name"), g->banks[b].pos, "bank", g->banks[b].name);
    }
    for (unsigned i = 0; i < s->nclasses; i++)
        c_ident(k, SEG(NULL, "allocations"), s->classes[i].pos, "allocation class", s->classes[i].name);
}

/* Each name written again after the first (BY_NAME finds the first). */
static void check_names_unique(Ck *k)
{
    const Spec *s = k->s;
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i], *first = BY_NAME(s->segs, i, g->name);
        if (first)
            note(k, report(k, SEG(g, "name"), g->pos, "a second segment named '%s'", g->name), SEG(first, "name"),
                 first->pos, "the first is here");
        for (unsigned b = 0; b < g->nbanks; b++) {
            const Bank *fb = BY_NAME(g->banks, b, g->banks[b].name);
            if (fb)
                note(k, report(k, BANK(g, &g->banks[b], "name"), g->banks[b].pos, "a second bank named '%s' in '%s'",
                               g->banks[b].name, g->name), BANK(g, fb, "name"), fb->pos, "the first is here");
        }
    }
    for (unsigned i = 0; i < s->nclasses; i++) {
        const AllocClass *fc = BY_NAME(s->classes, i, s->classes[i].name);
        if (fc)
            note(k, report(k, SEG(NULL, "allocations"), s->classes[i].pos, "a second allocation class named '%s'",
                           s->classes[i].name), SEG(NULL, "allocations"), fc->pos, "the first is here");
    }
}

static void check_variant_new_segment(Ck *k, const Segment *g)
{
    if (!g->near)
        return;
    const char *bn = g->near;
    Diag *e = report(k, SEG(g, "name"), g->pos,
                     "the base has no segment '%s', so this variant adds one: did you mean '%s' (from %s)?", g->name,
                     bn, os_basename(g->near_pos.file->name));
    note(k, e, SEG(NULL, NULL), g->near_pos, "the base's segment '%s' is described here", bn);
    fix(k, e, "name: %s to change that segment, or new: true to add this one", bn);
}

/* What a generated identifier is built from (NameClash: 1 the board's
 * name, 2 a BAR's, 3 a segment's, 4 an allocation class's), as a message
 * names it, and where. */
static const char *clash_what(const Ck *k, unsigned kind, unsigned index, On *on, Pos *at)
{
    const Spec *s = k->s;
    const Bar *b = kind == 2 ? &s->bars[index] : NULL;
    const Segment *g = kind == 3 ? &s->segs[index] : NULL;
    const AllocClass *c = kind == 4 ? &s->classes[index] : NULL;
    *on = g ? SEG(g, "name") : b ? BAR(b, "name") : SEG(NULL, c ? "allocations" : "board.name");
    *at = g ? g->pos : b ? b->pos : c ? c->pos : s->name_pos;
    return arena_printf(k->d->arena, "%s '%s'", g ? "segment" : b ? "BAR" : c ? "allocation class" : "board name",
                        g ? g->name : b ? b->name : c ? c->name : s->name);
}

/* An identifier the generated code would define twice: emit.c renders
 * every output (the self-test too) in memory and compares what they
 * define.  Reported at the more particular name of the two, else at the
 * later; a name written twice is names-unique's.  It renders, so
 * spec_check runs it last, on a spec nothing else was reported for; a
 * build takes what it rendered when it renders alike, else renders and
 * compares again itself (emit_render). */
static void check_names_generated_unique(Ck *k)
{
    unsigned n;
    const NameClash *c = emit_name_clashes(k->d->arena, k->s, k->out, &n);
    for (unsigned i = 0; i < n; i++, c++) {
        unsigned r = c->def[0].kind > c->def[1].kind ? 0 : 1, o = 1 - r;
        On on, on_o;
        Pos at, at_o;
        const char *what = clash_what(k, c->def[r].kind, c->def[r].index, &on, &at);
        if (c->def[o].kind >= 2 && (c->def[o].kind != c->def[r].kind || c->def[o].index != c->def[r].index)) {
            const char *other = clash_what(k, c->def[o].kind, c->def[o].index, &on_o, &at_o);
            Diag *e = report(k, on, at, "%s and %s would both define %s in the generated code", other, what,
                             c->ident);
            note(k, e, on_o, at_o, "%s is here", other);
        } else if (!strcmp(c->def[0].file, c->def[1].file)) {
            report(k, on, at, "%s would make %s define %s twice", what, c->def[0].file, c->ident);
        } else {
            report(k, on, at, "%s would make %s define %s, which %s defines too", what, c->def[r].file, c->ident,
                   c->def[o].file);
        }
    }
}

static void check_page_size_valid(Ck *k)
{
    const Spec *s = k->s;
    if (s->page_size.v < DEFAULT_PAGE_SIZE || !pow2(s->page_size.v))
        report(k, SEG(NULL, "board.page_size"), s->page_size.pos,
               "page size %llu is not a power of two of at least %d", (unsigned long long)s->page_size.v,
               DEFAULT_PAGE_SIZE);
}

static void check_wddm2_one_aperture(Ck *k)
{
    const Spec *s = k->s;
    unsigned apertures = 0;
    for (unsigned i = 0; i < s->nsegs; i++)
        apertures += s->segs[i].kind == SEG_APERTURE;
    if (s->wddm >= 0x20 && apertures != 1)
        report(k, SEG(NULL, "board.wddm"), s->wddm_pos,
               "WDDM %u.%u needs exactly one aperture segment; found %u", s->wddm >> 4, s->wddm & 15, apertures);
}

/* ---- DDI forms: what the emitted handlers can say --------------------------------- */

/* A version that asks for each form (by index, field_in_form's). */
static const char *const form_wddm[DDI_FORMS] = {"1.1", "1.3", "2.0"};

/* Forms `forms` (a set of indices) listed, each as `name` followed by
 * what follows "qs" in its --ddi name: "QUERYSEGMENT and QUERYSEGMENT3",
 * "DXGK_SEGMENTDESCRIPTOR4". */
static const char *forms_said(Ck *k, unsigned forms, const char *name)
{
    const char *w[DDI_FORMS];
    unsigned n = 0;
    for (unsigned f = 0; f < DDI_FORMS; f++)
        if (forms & (1u << f))
            w[n++] = arena_printf(k->d->arena, "%s%s", name, DDI_SUFFIX(f));
    return words_text(k->d->arena, w, n, " and ");
}

static void check_ddi_form_version(Ck *k)
{
    const Spec *s = k->s;
    unsigned wants = ddi_forms_for(s->wddm), extra = s->forms & ~wants;
    if (s->forms_from_option && extra)
        reads_wddm(k, report(k, SEG(NULL, s->wddm_pos.file ? "board.wddm" : "board.name"), s->wddm_pos,
               "a WDDM %u.%u driver is never asked for %s (it is asked for %s)", s->wddm >> 4, s->wddm & 15,
               forms_said(k, extra & DDI_QS4 ? DDI_QS4 : extra & DDI_QS3 ? DDI_QS3 : DDI_QS, "QUERYSEGMENT"),
               forms_said(k, wants, "QUERYSEGMENT")));
}

/* What else makes a finding of key-not-emitted's rows go: asking for forms
 * that carry the key.  With --ddi, the list without the forms that lack
 * it (or the nearest that carries it); from board.wddm (one form), the
 * version of the nearest form that carries it, above the board's first. */
static const char *other_forms(Ck *k, unsigned lacking, unsigned carrying)
{
    const Spec *s = k->s;
    unsigned keep = s->forms & ~lacking, cur = 0;
    while (cur + 1 < DDI_FORMS && !(s->forms & (1u << cur)))
        cur++;
    int near = -1;
    for (unsigned f = cur + 1; near < 0 && f < DDI_FORMS; f++)
        if (carrying & (1u << f))
            near = (int)f;
    for (int f = (int)cur - 1; near < 0 && f >= 0; f--)
        if (carrying & (1u << f))
            near = f;
    if (s->forms_from_option) {
        if (!keep && near >= 0)
            keep = 1u << near;
        const char *r = "--ddi ", *sep = "";
        for (unsigned f = 0; f < DDI_FORMS; f++)
            if (keep & (1u << f))
                r = arena_printf(k->d->arena, "%s%s%s", r, sep, ddi_form_names[f]), sep = ",";
        return r;
    }
    return near < 0 ? NULL
                    : arena_printf(k->d->arena, "wddm: \"%s\" in board (%s)", form_wddm[near],
                                         forms_said(k, 1u << near, "QUERYSEGMENT"));
}

/* The code of a finding that a requested form cannot carry written field
 * `f`.  One check finds them all, for every field, from fields.def's `at`
 * column; the code is the one users have filtered and searched on since
 * before the check covered every field (rules.def): a field only
 * DESCRIPTOR4 has is ddi-field-needs-qs4's, the banks ddi-qs4-banks',
 * SystemMemoryEndAddress ddi-qs-system-memory-end's, and any other field
 * (every field added since) key-not-emitted's, so a new field needs no
 * rule. */
static Code form_code(FieldId f)
{
    const FieldInfo *fi = &field_table[f];
    if (!fi->at[0] && !fi->at[1])
        return R_ddi_field_needs_qs4;
    if (fi->write == WR_BANKS)
        return R_ddi_qs4_banks;
    if (f == F_system_memory_end)
        return R_ddi_qs_system_memory_end;
    return R_key_not_emitted;
}

/* An AGP segment's descriptor is the aperture's in every form: the
 * handler reports what DXGK_QUERYSEGMENTIN gives, so no key written for
 * the segment is emitted.  Its base and size are VidMm's to ignore
 * (agp-base-size-ignored, an advisory), and a map key (cpu_visible,
 * banks, vpr, cpu_host_aperture) sets a flag beside Agp (agp-exclusive);
 * every other key of the segment is a finding here. */
static void agp_keys(Ck *k, const Segment *g)
{
    for (unsigned f = 0; k->cur == R_key_not_emitted && f < FIELD_COUNT; f++) {
        const FieldInfo *fi = &field_table[f];
        Pos at;
        if ((fi->scope != SC_SEG && fi->scope != SC_QS4) || field_agp_ignored((FieldId)f) ||
            !field_written((FieldId)f, g, &at))
            continue;
        Diag *e = report(k, SEG(g, fi->key), at,
                         "'%s' of AGP segment '%s' would not be emitted: its descriptor reports the AGP aperture "
                         "the OS describes, not the spec's values", fi->key, g->name);
        reads_kind(k, e, g);
        fix(k, e, "remove %s: from segment '%s'", fi->key, g->name);
        diag_edit_remove_pair(k->d, e, at);
    }
}

/* What the forms the build answers make of each key written for segment
 * `g` (a map's fields share their map's key), in the order of its first
 * field: where it is written, the forms that lack a field of it (and
 * those fields), those that carry every field of it, and the code of the finding (form_code of
 * its first field lacked).  Worked out once per segment for all the rows
 * check_forms serves. */
static const FormKey *form_keys(Ck *k, const Segment *g, unsigned *n)
{
    if (!k->fk)
        k->fk = arena_alloc(k->d->arena, k->s->nsegs * sizeof *k->fk);
    struct FormKeys *fk = &k->fk[g - k->s->segs];
    FormKey keys[FIELD_COUNT];
    for (unsigned f = 0; f < FIELD_COUNT && !fk->k; f++) {
        const FieldInfo *fi = &field_table[f];
        Pos at;
        const char *kf = field_written((FieldId)f, g, &at);
        if (!kf)
            continue;
        FormKey *c = (FormKey *)BY_NAME(keys, fk->n, kf);
        if (!c)
            keys[fk->n++] = (FormKey){kf, at, 0, (1u << DDI_FORMS) - 1, CODE_NONE, 0}, c = &keys[fk->n - 1];
        for (unsigned form = 0; form < DDI_FORMS; form++)
            if (!fi->at[form]) {
                c->carrying &= ~(1u << form);
                if ((k->s->forms & (1u << form)) && c->code == CODE_NONE)
                    c->code = form_code((FieldId)f);
                if (k->s->forms & (1u << form))
                    c->lacking |= 1u << form, c->lacked |= UINT64_C(1) << f;
            }
    }
    if (!fk->k)
        fk->k = memcpy(arena_alloc(k->d->arena, (fk->n + 1) * sizeof *keys), keys, fk->n * sizeof *keys);
    *n = fk->n;
    return fk->k;
}

/* The members of fields `lacked` (a FormKey's), each once, as a message
 * lists them ("SystemMemoryEndAddress", "CpuHostAperture"). */
static const char *lacked_members(Ck *k, uint64_t lacked)
{
    const char *said[FIELD_COUNT];
    unsigned n = 0;
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        const char *dx = field_table[f].dxgk;
        const char *m = lacked >> f & 1 ? arena_printf(k->d->arena, "%.*s", (int)strcspn(dx, "."), dx) : NULL;
        if (m && !BY_NAME(said, n, m))
            said[n++] = m;
    }
    return words_text(k->d->arena, said, n, " or ");
}

/* Every key written for segment `g` that a form the build answers cannot
 * carry: a field whose member the form's descriptor lacks (fields.def's
 * `at`: 0), each key once, and a flag written in `flags:` that the form's
 * DXGK_SEGMENTFLAGS lacks (flag_in_form).  The checker of every row of the
 * mechanism, each reporting the findings of its own code (form_code;
 * flags ddi-qs3-flag's).  A flag a key implies (VprSupported from vpr:)
 * is that key's finding. */
static void check_forms(Ck *k, const Segment *g)
{
    if (g->kind == SEG_AGP) {
        agp_keys(k, g);
        return;
    }
    const Spec *s = k->s;
    unsigned nkeys;
    const FormKey *keys = form_keys(k, g, &nkeys);
    for (unsigned i = 0; i < nkeys; i++) {
        const FormKey *c = &keys[i];
        if (!c->lacking || c->code != k->cur)
            continue;
        bool one = !(c->lacking & (c->lacking - 1));
        Diag *e = report(k, SEG(g, c->key), c->at, "'%s' of segment '%s' cannot be carried by the %s answer%s: %s%s %s no %s",
                         c->key, g->name, forms_said(k, c->lacking, "QUERYSEGMENT"), one ? "" : "s",
                         one ? "" : "their descriptors ", forms_said(k, c->lacking, "DXGK_SEGMENTDESCRIPTOR"), one ? "has" : "have",
                         lacked_members(k, c->lacked));
        reads_forms(k, e);
        const char *alt = other_forms(k, c->lacking, c->carrying);
        bool seq = spec_key(MAP_SEGMENT, c->key)->kind == VK_SEQ; /* a variant empties a list; it cannot remove a base's key */
        if (variant_of(k, e) && !seq)
            fix(k, e, "%s", alt ? alt : "ask for another DDI form");
        else
            fix(k, e, variant_of(k, e) ? "%s: [] for segment '%s'%s%s" : "remove %s: from segment '%s'%s%s", c->key,
                g->name, alt ? ", or " : "", alt ? alt : "");
        (seq ? diag_edit_remove_block : diag_edit_remove_pair)(k->d, e, c->at); /* a list at its key */
    }
    /* Flags written in `flags:`: each once, with every form that lacks it. */
    for (size_t i = 0; k->cur == R_ddi_qs3_flag && i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        unsigned lacking = 0;
        for (unsigned form = 0; form < DDI_FORMS; form++)
            if ((s->forms & (1u << form)) && !flag_in_form(fi->bit, form))
                lacking |= 1u << form;
        if (!lacking || !(g->flags_written & (1u << fi->bit)))
            continue;
        Diag *e = report(k, SEG(g, "flags"), g->flag_pos[fi->bit],
                         "flag '%s' exists from WDDM %u.%u on; the WDDM 1.x %s handler%s cannot carry it", fi->name,
                         fi->min_wddm >> 4, fi->min_wddm & 15, forms_said(k, lacking, "QUERYSEGMENT"),
                         lacking & (lacking - 1) ? "s" : "");
        reads_forms(k, e);
        const char *alt = other_forms(k, lacking, 1u << 2);
        fix(k, e, "remove %s from the flags%s%s", fi->name, alt ? ", or " : "", alt ? alt : "");
        diag_edit_remove_item(k->d, e, g->flag_pos[fi->bit]);
    }
}

static void check_ddi_qs4_agp(Ck *k, const Segment *g)
{
    if ((k->s->forms & DDI_QS4) && g->kind == SEG_AGP)
        reads_forms(k, report(k, SEG(g, "kind"), g->kind_pos, "AGP segment '%s' cannot be reported by QUERYSEGMENT4",
                              g->name));
}

/* The VPR lies inside the segment (and its counts fit their UINTs:
 * check_widths); values the spec does not write are 0, inside any. */
static void check_vpr_range_inside(Ck *k, const Segment *g)
{
    const Vpr *v = &g->vpr;
    if (v->range_start.v > g->size.v || v->range_size.v > g->size.v - v->range_start.v) {
        Diag *e = report(k, SEG(g, v->range_start.v > g->size.v ? "vpr.range_start" : "vpr.range_size"),
                         at(v->range_start.v > g->size.v ? &v->range_start : &v->range_size, g),
                         "VPR [0x%llX, +0x%llX) is not inside segment '%s' (0x%llX bytes)",
                         (unsigned long long)v->range_start.v, (unsigned long long)v->range_size.v, g->name,
                         (unsigned long long)g->size.v);
        reads(k, e, SEG(g, "size"), false);
        reads(k, e, SEG(g, "vpr.range_start"), false);
    }
    if (v->alignment.v && !pow2(v->alignment.v))
        report(k, SEG(g, "vpr.alignment"), at(&v->alignment, g),
               "VPR alignment 0x%llX is not a power of two", (unsigned long long)v->alignment.v);
    check_widths(k, g);
}

static void check_vpr_needs_range(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_vpr_supported) && !g->vpr.set)
        report(k, SEG(g, "flags"), g->flag_pos[FB_vpr_supported],
               "segment '%s' supports VPR but has no 'vpr:' range", g->name);
}

static void check_cpu_host_aperture_needs_window(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_supports_cpu_host_aperture) && g->host.mode == CPU_NONE)
        report(k, SEG(g, "flags"), g->flag_pos[FB_supports_cpu_host_aperture],
               "segment '%s' supports a CPU host aperture but has no 'cpu_host_aperture:' window", g->name);
}

/* SizeInPages is "the size in CPU host pages" (DXGK_CPUHOSTAPERTURE), but
 * the aperture is mapped in the segment's pages: "The page size is equal
 * to the segment page size, reported in DXGK_SEGMENTFLAGS"
 * (DXGKARG_MAPCPUHOSTAPERTURE).  So host pages are counted, and a
 * Use64KBPages segment's aperture is a whole number of 64 KiB pages. */
static void check_cpu_host_aperture_size(Ck *k, const Segment *g)
{
    const HostAperture *h = &g->host;
    uint64_t page = k->page, unit = g->flags & FLAG_use_64kb_pages ? 64 * 1024 : page;
    /* A size with no aperture is never emitted, and never written. */
    if (h->mode == CPU_NONE && !h->size.v)
        return;
    if (!h->size.v || h->size.v % unit || h->size.v / page > UINT32_MAX) {
        Diag *e = report(k, SEG(g, "cpu_host_aperture.size"), at(&h->size, g),
                         "host aperture of segment '%s' is 0x%llX bytes: not a non-zero number of %llu-byte pages that "
                         "fits 32 bits", g->name, (unsigned long long)h->size.v, (unsigned long long)unit);
        reads(k, e, SEG(NULL, "board.page_size"), false);
    } else if (h->mode == CPU_BAR && (h->offset.v > h->bar->size.v || h->size.v > h->bar->size.v - h->offset.v)) {
        Diag *e = report(k, ((On){g, NULL, h->bar, "cpu_host_aperture", NULL}), h->pos,
                         "host aperture of segment '%s' does not fit in BAR '%s'", g->name, h->bar->name);
        reads(k, e, SEG(g, "cpu_host_aperture.size"), false);
        reads(k, e, SEG(g, "cpu_host_aperture.offset"), false);
        reads(k, e, BAR(h->bar, "size"), false);
    }
}

/* The aperture's first page starts on a host page (a BAR's own address is
 * aligned to its size, at least a page when the aperture fits in it). */
static void check_cpu_host_aperture_aligned(Ck *k, const Segment *g)
{
    const HostAperture *h = &g->host;
    uint64_t start = h->mode == CPU_BAR ? h->offset.v : h->address.v;
    if (h->mode == CPU_NONE || start % k->page == 0)
        return;
    Diag *e = report(k, SEG(g, h->mode == CPU_BAR ? "cpu_host_aperture.offset" : "cpu_host_aperture.address"),
                     at(h->mode == CPU_BAR ? &h->offset : &h->address, g),
                     "host aperture of segment '%s' starts at %s 0x%llX, not on a %llu-byte page", g->name,
                     h->mode == CPU_BAR ? "offset" : "address", (unsigned long long)start, (unsigned long long)k->page);
    reads(k, e, SEG(NULL, "board.page_size"), false);
    fix(k, e, "%s: 0x%llX or 0x%llX (on a page)", h->mode == CPU_BAR ? "offset" : "address",
        (unsigned long long)round_down(start, k->page), (unsigned long long)round_up(start, k->page));
}

static void check_cpu_host_aperture_memory(Ck *k, const Segment *g)
{
    if (g->kind == SEG_APERTURE && (g->flags & FLAG_supports_cpu_host_aperture))
        reads_kind(k, report(k, SEG(g, "cpu_host_aperture"),
               g->host.mode != CPU_NONE ? g->host.pos : g->flag_pos[FB_supports_cpu_host_aperture],
               "a CPU host aperture on %s segment '%s': it maps pages of a memory segment", seg_kind_name(g->kind),
               g->name), g);
}

/* ---- allocation classes ----------------------------------------------------------- */

/* The lists of class `c` a rule reads, by key (CLASS_LISTS: the segment
 * lists, then the bank hints): ClassList ls[] = {CLASS_LISTS(CLASS_LIST)}. */
typedef struct ClassList {
    const char *key;
    const PlaceList *l;
} ClassList;
#define CLASS_LIST(l) {#l, &c->l},

/* Gives `f` every list of every class, then the DMA list (class NULL). */
static void each_list(Ck *k, void (*f)(Ck *k, const AllocClass *c, const char *key, const PlaceList *l))
{
    for (unsigned i = 0; i < k->s->nclasses; i++) {
        const AllocClass *c = &k->s->classes[i];
        const ClassList ls[] = {CLASS_LISTS(CLASS_LIST)};
        for (unsigned j = 0; j < countof(ls); j++)
            f(k, c, ls[j].key, ls[j].l);
    }
    f(k, NULL, "dma_buffer_segments", &k->s->dma);
}

/* "evict of class 'x'", or the DMA list's key. */
static const char *list_said(Ck *k, const AllocClass *c, const char *key)
{
    return c ? arena_printf(k->d->arena, "%s of class '%s'", key, c->name) : "dma_buffer_segments";
}

/* Each name of list `key` of class `c` (NULL: the DMA list) that names
 * no segment; of the bank hints, each that names no bank of the first
 * preference (when it has banks; else alloc-bank-hints' finding). */
static void unknown_places(Ck *k, const AllocClass *c, const char *key, const PlaceList *l)
{
    const Spec *s = k->s;
    const Segment *banked = c && l == &c->banks && c->prefer.n ? c->prefer.p[0].seg : NULL;
    if (c && l == &c->banks && !(banked && banked->nbanks))
        return;
    for (unsigned i = 0; i < l->n; i++) {
        const Place *p = &l->p[i];
        if (banked ? p->bank != 0 : p->seg != NULL)
            continue;
        Diag *e = banked ? report(k, SEG(banked, "banks"), p->pos,
                                  "'%s' in banks of class '%s' is no bank of segment '%s', its first preference",
                                  p->name, c->name, banked->name)
                         : report(k, SEG(NULL, key), p->pos, "'%s' in %s names no segment", p->name, list_said(k, c, key));
        if (banked)
            note(k, e, SEG(banked, "banks"), banked->banks_pos, "the banks of segment '%s' are here", banked->name);
        if (e && !(banked ? diag_suggest(k->d, e, p->name, banked->banks, banked->nbanks, sizeof *banked->banks)
                          : diag_suggest(k->d, e, p->name, s->segs, s->nsegs, sizeof *s->segs)))
            fix(k, e, "name one of the %s of segment%s%s", banked ? "banks" : "segments", banked ? " " : "s",
                banked ? banked->name : "");
    }
}

static void check_alloc_names_known(Ck *k)
{
    each_list(k, unknown_places);
}

/* One preference list serves reading and writing: each preferred segment
 * is in the write set, and (before WDDM 2.0, which reads only the write
 * set) in the read set the spec writes. */
static void check_alloc_preference_supported(Ck *k, const AllocClass *c)
{
    uint32_t w = places_mask(&c->write), r = places_mask(&c->read);
    bool v1 = k->s->wddm < 0x20;
    for (unsigned i = 0; i < c->prefer.n; i++) {
        const Place *p = &c->prefer.p[i];
        uint32_t bit = UINT32_C(1) << (p->seg->id - 1);
        const PlaceList *l = !(w & bit) ? &c->write : v1 && c->read.set && !(r & bit) ? &c->read : NULL;
        if (!l)
            continue;
        Diag *e = report(k, SEG(NULL, "prefer"), p->pos,
                         "class '%s' prefers segment '%s', which is not in its %s set (%s): VidMm asserts on a "
                         "preference it may not page into", c->name, p->name, l == &c->write ? "write" : "read",
                         places_text(k->d->arena, l, false));
        note(k, e, SEG(NULL, l == &c->write ? "write" : "read"), l->pos, "the %s set is here",
             l == &c->write ? "write" : "read");
        if (l == &c->read)
            reads_wddm(k, e);
        fix(k, e, "add %s to %s:, or remove it from prefer:", p->name, l == &c->write ? "write" : "read");
    }
}

static void check_alloc_slots(Ck *k, const AllocClass *c)
{
    if (c->prefer.n > PREF_SLOTS)
        report(k, SEG(NULL, "prefer"), c->prefer.p[PREF_SLOTS].pos,
               "class '%s' prefers %u segments; DXGK_SEGMENTPREFERENCE has %d slots", c->name, c->prefer.n,
               PREF_SLOTS);
    if (c->banks.n > BANK_SLOTS)
        report(k, SEG(NULL, "banks"), c->banks.p[BANK_SLOTS].pos,
               "class '%s' hints %u banks; DXGK_SEGMENTBANKPREFERENCE has %d slots", c->name, c->banks.n, BANK_SLOTS);
}

static void check_alloc_repeated(Ck *k, const AllocClass *c)
{
    const ClassList ls[] = {CLASS_LISTS(CLASS_LIST)};
    for (unsigned j = 0; j < countof(ls); j++)
        for (unsigned i = 0; i < ls[j].l->n; i++) {
            const Place *p = &ls[j].l->p[i], *first = BY_NAME(ls[j].l->p, i, p->name);
            if (!first)
                continue;
            Diag *e = report(k, SEG(NULL, ls[j].key), p->pos, "'%s' is named twice in %s of class '%s'", p->name,
                             ls[j].key, c->name);
            note(k, e, SEG(NULL, ls[j].key), first->pos, "the first is here");
            diag_edit_remove_item(k->d, e, p->pos);
        }
}

static void check_alloc_bank_hints(Ck *k, const AllocClass *c)
{
    const Segment *first = c->prefer.n ? c->prefer.p[0].seg : NULL;
    if (!c->banks.n || (first && first->nbanks))
        return;
    Diag *e = first ? report(k, SEG(first, "banks"), c->banks.pos,
                             "class '%s' hints banks, but segment '%s', its first preference, has no banks", c->name,
                             first->name)
                    : report(k, SEG(NULL, "banks"), c->banks.pos,
                             "class '%s' hints banks, but prefers no segment: the hints are banks of the first "
                             "preference", c->name);
    if (first)
        note(k, e, SEG(first, "name"), c->prefer.p[0].pos, "the first preference is here");
}

/* Each segment of list `l` (class `c`, NULL: the DMA list) that is not
 * an aperture. */
static void not_apertures(Ck *k, const AllocClass *c, const PlaceList *l, const char *field)
{
    for (unsigned i = 0; i < l->n; i++) {
        const Segment *g = l->p[i].seg;
        if (g->kind == SEG_APERTURE)
            continue;
        Diag *e = report(k, SEG(g, "kind"), l->p[i].pos, "%s names segment '%s', %s: %s takes aperture segments only%s",
                         list_said(k, c, "evict"),
                         g->name, g->kind == SEG_AGP ? "the AGP segment" : "a memory segment", field,
                         g->kind == SEG_AGP ? " (the AGP segment is absent when the OS finds no aperture)" : "");
        reads_kind(k, e, g);
    }
}

static void check_alloc_eviction_aperture(Ck *k, const AllocClass *c)
{
    not_apertures(k, c, &c->evict, "EvictionSegmentSet");
}

static void check_alloc_eviction_pitch_aligned(Ck *k, const AllocClass *c)
{
    for (unsigned i = 0; i < c->evict.n; i++) {
        const Segment *g = c->evict.p[i].seg;
        if (!(g->flags & FLAG_pitch_alignment))
            continue;
        Diag *e = report(k, SEG(g, "flags"), c->evict.p[i].pos,
                         "class '%s' evicts through segment '%s', which is pitch-aligned: such a segment is never an "
                         "eviction target", c->name, g->name);
        note(k, e, SEG(g, "flags"), g->flag_pos[FB_pitch_alignment], "segment '%s' is pitch-aligned here", g->name);
    }
}

static void check_dma_buffer_aperture(Ck *k)
{
    not_apertures(k, NULL, &k->s->dma, "DmaBufferSegmentSet");
}

/* The first Use64KBPages segment of the class's supported sets. */
static void check_alloc_64kb_alignment(Ck *k, const AllocClass *c)
{
    const PlaceList *ls[] = {&c->write, class_read(c)};
    for (size_t j = 0; j < countof(ls); j++)
        for (unsigned i = 0; i < ls[j]->n; i++) {
            const Segment *g = ls[j]->p[i].seg;
            if (!(g->flags & FLAG_use_64kb_pages))
                continue;
            Diag *e = report(k, SEG(g, "flags"), c->pos,
                             "class '%s' can be paged into segment '%s', which uses 64 KiB pages: its allocations "
                             "need an Alignment that is a multiple of 0x10000 (64 KiB), which the driver writes",
                             c->name, g->name);
            note(k, e, SEG(g, "flags"), g->flag_pos[FB_use_64kb_pages], "segment '%s' uses 64 KiB pages here",
                 g->name);
            return;
        }
}

static void check_alloc_read_set_ignored(Ck *k, const AllocClass *c)
{
    if (k->s->wddm < 0x20 || !c->read.set || places_mask(&c->read) == places_mask(&c->write))
        return;
    Diag *e = report(k, SEG(NULL, "read"), c->read.pos,
                     "the read set of class '%s' (%s) differs from its write set (%s), but from WDDM 2.0 VidMm ignores "
                     "the read set", c->name, places_text(k->d->arena, &c->read, false),
                     places_text(k->d->arena, &c->write, false));
    reads_wddm(k, e);
    fix(k, e, "remove read: from class '%s', and list every segment it may live in under write:", c->name);
}

/* Each name of list `key` of class `c` (NULL: the DMA list) that names
 * the segment of id 31 (a bank hint names no segment). */
static void system_memory_ids(Ck *k, const AllocClass *c, const char *key, const PlaceList *l)
{
    for (unsigned h = 0; h < l->n; h++)
        if (l->p[h].seg && l->p[h].seg->id == 31)
            report(k, SEG(l->p[h].seg, "name"), l->p[h].pos,
                   "%s names segment '%s', id 31: its set bit 0x80000000 and id 31 are "
                   "DXGK_SEGMENT_SET_SYSTEMMEMORY and DXGK_SEGMENT_ID_SYSTEMMEMORY in the WDK headers",
                   list_said(k, c, key), l->p[h].name);
}

static void check_alloc_system_memory_id(Ck *k)
{
    each_list(k, system_memory_ids);
}

/* ---- waivers --------------------------------------------------------------------- */

/* Run last: only then is it known which waivers were used. */
static void check_waiver_unused(Ck *k)
{
    const Spec *s = k->s;
    for (unsigned i = 0; i < s->nsegs; i++)
        for (unsigned w = 0; w < s->segs[i].nwaivers; w++) {
            const Waiver *wv = &s->segs[i].waivers[w];
            if (!wv->used && !s->segs[i].unresolved)
                report(k, SEG(&s->segs[i], "waive"), wv->pos,
                       "waiver of '%s' on segment '%s' is unused: the rule does not fire there", wv->rule,
                       s->segs[i].name);
        }
}

/* ---- the passes --------------------------------------------------------------------- */

/* What the value about `on` is, as a note says it: "segment 'vram' size
 * is 0x20000000 (512 MiB)". */
static const char *value_said(Ck *k, On on)
{
    Arena *a = k->d->arena;
    FieldId f;
    const Value *v = on_value(k, on, &f);
    const char *owner = on.bank ? arena_printf(a, "bank '%s' of segment '%s' ", on.bank->name, on.g->name)
                        : on.g ? arena_printf(a, "segment '%s' ", on.g->name)
                        : on.bar ? arena_printf(a, "BAR '%s' ", on.bar->name) : "";
    return arena_printf(a, "%s%s is %s", owner, on.field,
                        field_table[f].flags & FF_BYTES ? Q(v->v) : arena_printf(a, "%llu", (unsigned long long)v->v));
}

/* The notes of what the findings read (Read), after their own notes: at
 * each value a finding reads that a variant of the finding's file wrote
 * (or that is to show always), and at each constant such a value reads
 * that a variant or -D set; each once per finding.  (What a variant's
 * finding reads from its base is the base it builds on: the finding's own
 * notes point there where it helps.) */
static void trace(Ck *k)
{
    for (const Read *first = k->reads, *end; first; first = end) {
        Diag *e = (Diag *)(uintptr_t)first->e;
        for (end = first; end && end->e == e; end = end->next)
            ;
        for (const Read *r = first; r != end; r = r->next) {
            /* A value read twice is said at its first read, as all its
             * reads say; a constant, at the first value that reads it. */
            bool reached = false, shown = false, always = false;
            const Constant *c = r->v ? r->v->via : NULL;
            for (const Read *q = first; q != end; q = q->next) {
                if (q->id == r->id)
                    shown |= q->shown, always |= q->always;
                if (q == r)
                    reached = true;
                else if (!reached && q->id == r->id)
                    break;
                else if (!reached && c && q->v && q->v->via == c)
                    c = NULL;
            }
            if (!reached)
                continue;
            const SrcFile *f = r->at.file;
            bool say = !shown && f && (always || nearer(k, f, e));
            const char *said = !say ? NULL : r->v ? value_said(k, r->on) : r->said;
            if (said)
                note(k, e, r->on, r->at, "%s%s%s", said, f == e->pos.file ? "" : ", set here by ",
                     f == e->pos.file ? "" : os_basename(f->name));
            bool cl = c && chain_index(k->s, c->val.pos.file) < 0; /* -D */
            if (cl || (c && nearer(k, c->val.pos.file, e)))
                note(k, e, SEG(NULL, NULL), c->val.pos, "'%s' is %s, set %s%s", c->name, Q(c->val.v),
                     cl ? "on the command line: -D " : "here by ",
                     cl ? c->val.pos.file->text : os_basename(c->val.pos.file->name));
        }
    }
}

unsigned spec_check(Spec *s, const RuleConfig *c, Diags *d, Outputs *out)
{
    Ck k;
    ck_init(&k, s, s, c, d);
    k.out = out;
    Diag **mark = d->tail;
    unsigned errors = d->nerrors; /* the waived are not counted */
    run_all(&k, false);
    if (!diags_failed(d))
        run(&k, R_names_generated_unique, 0);
    run(&k, R_waiver_unused, 0);
    trace(&k);
    /* A fix is made in one file: the variant that caused the finding, else
     * the finding's own; an edit of another is no edit of the fix. */
    for (Diag *e = *mark; e; e = e->next)
        if (e->edit.text && e->edit.at.file != (variant_of(&k, e) ? variant_of(&k, e) : e->pos.file))
            e->edit = (DiagEdit){0};
    return d->nerrors - errors;
}

Code check_invariants(Arena *a, const Spec *s, const Segment **where, const char **what)
{
    Diags quiet;
    diags_init(&quiet, a);
    const RuleConfig none = {0};
    Ck k;
    ck_init(&k, s, NULL, &none, &quiet);
    run_all(&k, true);
    /* The first fault is what the invariants' findings say. */
    const Diag *e = quiet.head;
    *where = e && e->about.seg ? &s->segs[e->about.seg - 1] : NULL;
    *what = e ? e->msg : NULL;
    return e ? e->code : CODE_NONE;
}
