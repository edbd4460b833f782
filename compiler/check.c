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
 * emitted code relies on is written once. */
#include "segc.h"

#include <string.h>

typedef struct Ck Ck;
/* The checker of a row, by its scope (rules.def). */
typedef void BOARD_fn(Ck *k);
typedef void BAR_fn(Ck *k, const Bar *b);
typedef void SEGMENT_fn(Ck *k, const Segment *g);
typedef SEGMENT_fn ANY_SEGMENT_fn;

#define RULE(id, name, msvc, cls, sev, scope, ...) static scope##_fn check_##id;
#define CODE(id, ...)
#include "rules.def"
#undef RULE
#undef CODE

#define PRE0() {CODE_NONE}, 0
#define PRE1(a) {R_##a}, 1
#define PRE2(a, b) {R_##a, R_##b}, 2
#define PRE3(a, b, c) {R_##a, R_##b, R_##c}, 3
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
    for (int i = 0; i < CODE_COUNT; i++)
        if (!strcmp(rule_table[i].name, name))
            return i;
    return -1;
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

/* Where a rule stands on one object. */
enum { UNRUN, RUNNING, PASSED, FAILED, SKIPPED };

struct Ck {
    const Spec *s;
    Spec *mut;           /* spec_check: where waivers are marked used */
    const RuleConfig *c; /* spec_check: -W; the emitters: none */
    Diags *d;
    uint64_t page;       /* the page size, else the default (page-size-valid) */
    /* Objects: 0 the board, then each BAR, then each segment; state[rule *
     * nobj + object]. */
    unsigned nobj;
    unsigned char *state;
    Code cur;            /* the rule whose checker runs */
    bool fired;          /* and whether it found a fault */
    /* check_invariants: the first fault, not reported */
    Code broken;
    const char *broken_msg;
    const Segment *broken_seg;
};

static unsigned seg_obj(const Ck *k, const Segment *g)
{
    return 1 + k->s->nbars + (unsigned)(g - k->s->segs);
}

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
    const Segment *g = obj > s->nbars ? &s->segs[obj - 1 - s->nbars] : NULL;
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
    return in_scope(r, g) && !g->unresolved && prerequisites(k, r, seg_obj(k, g));
}

static void ck_init(Ck *k, const Spec *s, Spec *mut, const RuleConfig *c, Diags *d)
{
    *k = (Ck){.s = s, .mut = mut, .c = c, .d = d, .page = s->page_size.v ? s->page_size.v : DEFAULT_PAGE_SIZE};
    k->nobj = 1 + s->nbars + s->nsegs;
    k->state = arena_alloc(d->arena, (size_t)RULE_COUNT * k->nobj);
    k->cur = k->broken = CODE_NONE;
}

/* Every rule, or every invariant, on every object: the board's first (they
 * count the segments the others index), then the BARs', then the
 * segments'; in each, rows in table order.  waiver-unused reads what the
 * others did, so spec_check runs it last. */
static void run_all(Ck *k, bool invariants)
{
    static const RuleScope order[] = {ON_BOARD, ON_BAR, ON_SEGMENT};
    for (size_t o = 0; o < countof(order); o++) {
        unsigned first = order[o] == ON_BOARD ? 0 : order[o] == ON_BAR ? 1 : 1 + k->s->nbars;
        unsigned n = order[o] == ON_BOARD ? 1 : order[o] == ON_BAR ? k->s->nbars : k->s->nsegs;
        for (int r = 0; r < RULE_COUNT; r++) {
            RuleScope sc = ON_SEGMENTS(rule_table[r].scope) ? ON_SEGMENT : rule_table[r].scope;
            if (sc != order[o] || r == R_waiver_unused ||
                (invariants && rule_table[r].cls != CLASS_INVARIANT))
                continue;
            for (unsigned i = 0; i < n && k->broken == CODE_NONE; i++)
                run(k, (Code)r, first + i);
            if (k->broken != CODE_NONE)
                return;
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
} On;
#define SEG(g, field) ((On){(g), NULL, NULL, (field)})
#define BANK(g, bank, field) ((On){(g), (bank), NULL, (field)})
#define BAR(bar, field) ((On){NULL, NULL, (bar), (field)})

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

static void note(Ck *k, Diag *e, On on, Pos pos, const char *fmt, ...) PRINTF_LIKE(5, 6);

static void note(Ck *k, Diag *e, On on, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Note *n = diag_vnote(k->d, e, pos, fmt, ap);
    va_end(ap);
    if (n)
        n->about = subject(k, on);
}

/* Reports a fault of the rule being checked (k->cur, so a checker reports
 * its own rule only): its finding, or NULL when the finding is not shown
 * (the rule is off; check_invariants). */
static Diag *report(Ck *k, On on, Pos pos, const char *fmt, ...) PRINTF_LIKE(4, 5);

static Diag *report(Ck *k, On on, Pos pos, const char *fmt, ...)
{
    Code id = k->cur;
    k->fired = true;
    const Segment *g = on.g;
    va_list ap;
    if (!k->mut) { /* check_invariants: the first fault is what it says */
        if (k->broken == CODE_NONE) {
            va_start(ap, fmt);
            k->broken = id;
            k->broken_msg = arena_vprintf(k->d->arena, fmt, ap);
            k->broken_seg = g;
            va_end(ap);
        }
        return NULL;
    }
    Severity sev = rule_table[id].sev;
    /* A value segc derived (a flag implied by another key, a default) has
     * no position of its own: point at its segment, else the board. */
    if (!pos.file)
        pos = g ? g->pos : k->s->name_pos;
    /* Waivers first: a rule switched off for this run (-Wno-) still fires
     * on the segment, so its waiver is not "unused".  The waived finding is
     * kept (not printed, not counted) so SARIF can show it as suppressed. */
    Waiver *w = NULL;
    Segment *mg = g ? &k->mut->segs[g - k->s->segs] : NULL;
    for (unsigned i = 0; mg && rule_waivable(id) && !w && i < mg->nwaivers; i++)
        if (!strcmp(mg->waivers[i].rule, rule_table[id].name))
            w = &mg->waivers[i];
    RuleSetting set = rule_switchable(id) && !w ? k->c->setting[id] : RS_DEFAULT;
    if (set == RS_OFF)
        return NULL;
    if (set != RS_DEFAULT)
        sev = set == RS_ERROR ? SEV_ERROR : SEV_WARNING;
    /* -Werror promotes warnings, except a rule kept a warning by name
     * (-Wno-error=RULE), as in gcc. */
    else if (sev == SEV_WARNING && k->c->werror_all && !w)
        sev = SEV_ERROR;
    va_start(ap, fmt);
    Diag *e = w ? diag_vwaived(k->d, sev, id, pos, w->reason, w->pos, fmt, ap) : diag_vadd(k->d, sev, id, pos, fmt, ap);
    va_end(ap);
    e->about = subject(k, on);
    if (w)
        w->used = true;
    return e;
}

/* A quantity as every message writes it: "0x3B0000000 (14.75 GiB)". */
#define Q(v) qty(k->d->arena, (v))

/* The remedy of finding `e` (NULL when it is not shown), worked out from
 * the spec: "= fix: base: vram.end". */
#define fix(k, e, ...) diag_fixit((k)->d, (e), __VA_ARGS__)

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
 * else the key that implies it (flag_derived); and that key's name. */
static Pos flag_pos(const Segment *g, unsigned bit, const char **key)
{
    *key = "flags";
    if (g->flag_pos[bit].file)
        return g->flag_pos[bit];
    switch (bit) {
    case FB_cpu_visible: *key = "cpu_visible"; return g->cpu_pos;
    case FB_use_banking: *key = "banks"; return g->banks_pos;
    case FB_vpr_supported: *key = "vpr"; return g->vpr.pos;
    case FB_supports_cpu_host_aperture: *key = "cpu_host_aperture"; return g->host.pos;
    default: *key = "kind"; return g->kind_pos;
    }
}

/* The name to say for flag `bit`: the flag, or the key that implies it. */
static const char *flag_said(Ck *k, const Segment *g, unsigned bit, const FlagInfo *fi)
{
    const char *key;
    flag_pos(g, bit, &key);
    return g->flag_pos[bit].file || !strcmp(key, "kind")
               ? arena_printf(k->d->arena, "flag '%s'", fi->name)
               : arena_printf(k->d->arena, "%s (which sets %s)", key, fi->dxgk);
}

/* ---- AGP segments ------------------------------------------------------------- */

static void check_agp_exclusive(Ck *k, const Segment *g)
{
    if (g->kind != SEG_AGP)
        return;
    if (g->flags_written)
        report(k, SEG(g, "flags"), g->flags_pos, "segment '%s' is AGP: it may set no flag besides Agp", g->name);
    if (g->cpu != CPU_NONE)
        report(k, SEG(g, "cpu_visible"), g->cpu_pos,
               "segment '%s' is AGP: cpu_visible would set CpuVisible beside Agp", g->name);
    if (g->nbanks)
        report(k, SEG(g, "banks"), g->banks_pos, "segment '%s' is AGP: banks would set UseBanking beside Agp", g->name);
    if (!k->fired && g->flags != FLAG_agp) /* a flag no key of the spec says */
        report(k, SEG(g, "flags"), g->pos,
               "segment '%s' is AGP: its flags 0x%X are not Agp alone", g->name, (unsigned)g->flags);
}

/* The first AGP segment, or NULL. */
static const Segment *first_agp(const Spec *s)
{
    for (unsigned i = 0; i < s->nsegs; i++)
        if (s->segs[i].kind == SEG_AGP)
            return &s->segs[i];
    return NULL;
}

static void check_agp_at_most_one(Ck *k, const Segment *g)
{
    const Segment *agp = first_agp(k->s);
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
    if (g->kind != SEG_AGP)
        return;
    if (g->base.set)
        report(k, SEG(g, "base"), g->base.pos,
               "base of AGP segment '%s' is ignored: VidMm uses the AGP aperture's address", g->name);
    if (g->size.set)
        report(k, SEG(g, "size"), g->size.pos,
               "size of AGP segment '%s' is ignored: VidMm takes as much of the aperture as it can", g->name);
}

static void check_key_not_emitted(Ck *k, const Segment *g)
{
    /* The AGP descriptor takes both from the aperture at run time. */
    static const FieldId dropped[] = {F_commit_limit, F_system_memory_end};
    for (size_t i = 0; g->kind == SEG_AGP && i < countof(dropped); i++) {
        const Value *v = field_value(dropped[i], g);
        const char *key = field_table[dropped[i]].key;
        if (v->set)
            report(k, SEG(g, key), v->pos,
                   "%s of AGP segment '%s' would not be emitted: the handler reports the aperture's own", key, g->name);
    }
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
    fix(k, report(k, SEG(g, "size"), at(&g->size, g),
               "size of segment '%s' (%s) is not a multiple of the %llu-byte page", g->name, Q(g->size.v),
               (unsigned long long)page),
        "size: %s0x%llX (a whole number of pages)",
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
            (!g && fi->scope != SC_PAGING) || width_rule(fi) != k->cur)
            continue;
        const Value *v = field_value((FieldId)f, g ? (const void *)g : (const void *)s);
        uint64_t max = field_max((FieldId)f, s);
        /* A default that copies the size is reported where the size is. */
        if (v->v <= max || (g && !v->set && fi->def == DEF_SIZE && v->v == g->size.v))
            continue;
        const char *pre = fi->scope == SC_VPR ? "vpr." : fi->scope == SC_PAGING ? "paging." : "";
        const char *key = arena_printf(k->d->arena, "%s%s", pre, fi->key);
        report(k, SEG(g, key), v->pos, "%s%s (%s) does not fit %s, a %u-bit %s%s%s", key,
               g ? arena_printf(k->d->arena, " of segment '%s'", g->name) : "", Q(v->v), fi->dxgk,
               max == UINT32_MAX ? 32u : 64u, fi->width == W_32 ? "UINT" : "SIZE_T",
               fi->width == W_SIZE_T ? " on " : "", fi->width == W_SIZE_T ? arch_name(s->arch) : "");
    }
}

static void check_size_fits_size_t(Ck *k, const Segment *g)
{
    check_widths(k, g);
}

static void check_field_width(Ck *k, const Segment *g)
{
    check_widths(k, g);
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
                          g->cpu_pos, "CPU window", "cpu_visible"};
    if (h->mode != CPU_NONE)
        w[n++] = (Window){h->mode, h->bar, h->mode == CPU_BAR ? h->offset.v : h->address.v, h->size.v, h->pos,
                          "host aperture", "cpu_host_aperture"};
    return n;
}

/* The GPU range, and the windows at fixed CPU addresses, stay below 2^64. */
static void check_range_overflow(Ck *k, const Segment *g)
{
    if (add_overflows(g->base.v, g->size.v))
        report(k, SEG(g, "base"), at(&g->base, g),
               "segment '%s' ends past the 64-bit GPU address space (base 0x%llX + size 0x%llX)", g->name,
               (unsigned long long)g->base.v, (unsigned long long)g->size.v);
    Window w[2];
    for (unsigned i = 0, n = windows(g, w); i < n; i++)
        if (w[i].mode == CPU_ADDRESS && add_overflows(w[i].start, w[i].size))
            report(k, SEG(g, w[i].key), w[i].pos,
                   "%s of segment '%s' ends past the 64-bit CPU address space (0x%llX + 0x%llX)", w[i].what,
                   g->name, (unsigned long long)w[i].start, (unsigned long long)w[i].size);
}

/* GPU ranges, pairwise: n <= 31 and the message names both. */
static void check_segments_overlap(Ck *k, const Segment *a)
{
    const Spec *s = k->s;
    for (unsigned j = 0; j < (unsigned)(a - s->segs); j++) {
        const Segment *b = &s->segs[j];
        if (!ready(k, R_segments_overlap, b))
            continue;
        uint64_t ae = end_of(a->base.v, a->size.v), be = end_of(b->base.v, b->size.v);
        if (a->base.v < be && b->base.v < ae) {
            Diag *e = report(k, SEG(a, "base"), at(&a->base, a),
                             "segment '%s' [0x%llX, 0x%llX) overlaps segment '%s' [0x%llX, 0x%llX)", a->name,
                             (unsigned long long)a->base.v, (unsigned long long)ae, b->name,
                             (unsigned long long)b->base.v, (unsigned long long)be);
            note(k, e, SEG(b, "base"), at(&b->base, b), "segment '%s' is placed here", b->name);
            if (be != UINT64_MAX)
                fix(k, e, "base: %s.end (0x%llX), after segment '%s'", b->name, (unsigned long long)be, b->name);
            return;
        }
    }
}

static void check_segments_max(Ck *k)
{
    const Spec *s = k->s;
    unsigned max = s->wddm >= 0x20 ? MAX_SEGMENTS - 1 : MAX_SEGMENTS;
    if (s->nsegs > max)
        report(k, SEG(&s->segs[max], NULL), s->segs[max].pos,
               "segment %u: at most %u segments can be described (WDDM %u.%u)", max + 1, max, s->wddm >> 4,
               s->wddm & 15);
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
        report(k, SEG(g, "cpu_visible"), g->cpu_pos,
               "cpu_visible on aperture '%s' has no meaning: VidMm ignores its CpuTranslatedAddress", g->name);
}

static void check_cpu_window_in_bar(Ck *k, const Segment *g)
{
    if (g->cpu != CPU_BAR || !g->cpu_bar)
        return;
    const Bar *b = g->cpu_bar;
    uint64_t off = g->cpu_offset.v;
    if (off > b->size.v || g->size.v > b->size.v - off) {
        Diag *e = report(k, ((On){g, NULL, b, "cpu_visible"}), g->cpu_pos,
                         "segment '%s' (%s at offset 0x%llX) does not fit in BAR '%s' (%s)", g->name, Q(g->size.v),
                         (unsigned long long)off, b->name, Q(b->size.v));
        note(k, e, BAR(b, NULL), b->pos, "BAR '%s' is described here", b->name);
        if (off <= b->size.v)
            fix(k, e, "the window is %s too large for the BAR: size: 0x%llX, or a larger BAR",
                Q(g->size.v - (b->size.v - off)), (unsigned long long)(b->size.v - off));
    }
}

/* Windows in one BAR, or at fixed addresses, do not overlap (BAR-relative
 * and fixed ones cannot be compared before the BARs are assigned); each
 * window of `a` against those of the segments before it. */
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
        bool found = false;
        for (unsigned j = 0; j < (unsigned)(a - s->segs) && !found; j++) {
            const Segment *b = &s->segs[j];
            if (!ready(k, R_cpu_windows_overlap, b))
                continue;
            for (unsigned m = 0, nb = windows(b, wb); m < nb && !found; m++) {
                const Window *y = &wb[m];
                if (y->mode != x->mode || y->bar != x->bar || !y->size ||
                    (y->mode == CPU_ADDRESS && add_overflows(y->start, y->size)))
                    continue;
                if (x->start < end_of(y->start, y->size) && y->start < xe) {
                    Diag *e = report(k, SEG(a, x->key), x->pos,
                                     "%s of segment '%s' overlaps the %s of segment '%s'", x->what, a->name, y->what,
                                     b->name);
                    note(k, e, SEG(b, y->key), y->pos, "the %s of segment '%s' is here", y->what, b->name);
                    found = true;
                }
            }
        }
    }
}

static void check_bar_index(Ck *k, const Bar *b)
{
    const Spec *s = k->s;
    unsigned n = bar_regs(b);
    if (b->index.v > 6 - n) /* 6 - n: index + n could wrap */
        report(k, BAR(b, "index"), b->index.pos,
               n == 1 ? "BAR '%s' has index %llu; PCI BARs are 0 to 5"
                      : "BAR '%s' is 64-bit: at index %llu its upper half would be past BAR5",
               b->name, (unsigned long long)b->index.v);
    for (unsigned j = 0; j < (unsigned)(b - s->bars); j++) {
        const Bar *o = &s->bars[j];
        if (b->index.v < o->index.v + bar_regs(o) && o->index.v < b->index.v + n) {
            Diag *e = report(k, BAR(b, "index"), b->index.pos,
                             o->index.v == b->index.v ? "BAR '%s' has the same index (%llu) as BAR '%s'"
                                                      : "BAR '%s' at index %llu shares a register with 64-bit BAR '%s'",
                             b->name, (unsigned long long)b->index.v, o->name);
            note(k, e, BAR(o, "index"), o->index.pos, "BAR '%s' is here", o->name);
            return;
        }
    }
}

static void check_bar_size(Ck *k, const Bar *b)
{
    if (b->bits.set && b->bits.v != 32 && b->bits.v != 64)
        report(k, BAR(b, "bits"), b->bits.pos, "BAR '%s' is %llu bits wide; a BAR is 32 or 64", b->name,
               (unsigned long long)b->bits.v);
    else if (bar_regs(b) == 1 && b->size.v > BAR32_MAX)
        fix(k, report(k, BAR(b, "bits"), b->bits.pos, "32-bit BAR '%s' cannot decode %s (at most 4 GiB)",
                   b->name, Q(b->size.v)),
            "bits: 64");
    if (!pow2(b->size.v)) {
        unsigned lg = 0;
        while (lg < 63 && (1ull << lg) < b->size.v)
            lg++;
        fix(k, report(k, BAR(b, "size"), b->size.pos, "BAR '%s' size %s is not a power of two", b->name,
                   Q(b->size.v)),
            "size: %s (the power of two that holds it)", iec(k->d->arena, 1ull << lg));
    }
}

/* ---- banks ----------------------------------------------------------------------- */

static void check_banks_memory_only(Ck *k, const Segment *g)
{
    if (g->nbanks && g->kind == SEG_APERTURE)
        report(k, SEG(g, "banks"), g->banks_pos,
               "banks on %s segment '%s': banking is for memory segments", seg_kind_name(g->kind), g->name);
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
            note(k, e, SEG(g, "size"), at(&g->size, g), "segment size written here");
            if (i + 1 == g->nbanks) {
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
        note(k, e, SEG(g, "size"), at(&g->size, g), "segment size written here");
        if (last->size.set) {
            fix(k, e, "leave the last bank's size out: it then ends at the segment's end");
            diag_edit_remove_pair(k->d, e, last->size.pos);
        }
    }
}

static void check_banks_page_aligned(Ck *k, const Segment *g)
{
    uint64_t page = k->page;
    for (unsigned i = 0; g->kind == SEG_MEMORY && i + 1 < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        if (b->end % page) {
            fix(k, report(k, BANK(g, b, "size"), at(&b->size, g),
                       "bank '%s' of segment '%s' ends at offset 0x%llX, not on a %llu-byte page", b->name, g->name,
                       (unsigned long long)b->end, (unsigned long long)page),
                "size: 0x%llX or 0x%llX (ends on a page)", (unsigned long long)(round_down(b->end, page) - b->start),
                (unsigned long long)(round_up(b->end, page) - b->start));
            return;
        }
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
    if (g->kind == SEG_MEMORY && g->commit_limit.set && g->commit_limit.v != g->size.v)
        fix(k, report(k, SEG(g, "commit_limit"), g->commit_limit.pos,
                   "commit limit of memory segment '%s' (%s) differs from its size (%s)", g->name,
                   Q(g->commit_limit.v), Q(g->size.v)),
            "leave commit_limit out: it defaults to the size");
}

static void check_commit_limit_aperture(Ck *k, const Segment *g)
{
    if (g->kind == SEG_APERTURE && g->commit_limit.v > g->size.v)
        fix(k, report(k, SEG(g, "commit_limit"), at(&g->commit_limit, g),
                   "commit limit of aperture '%s' (%s) exceeds its size (%s) by %s", g->name, Q(g->commit_limit.v),
                   Q(g->size.v), Q(g->commit_limit.v - g->size.v)),
            "commit_limit: size (or leave it out: it defaults to the size)");
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
        report(k, SEG(g, "system_memory_end"), e->pos,
               "system_memory_end on %s segment '%s'", seg_kind_name(g->kind), g->name);
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
    fix(k, w, e->v % page ? "end the driver-reserved part on a page: 0x%llX" : "write the last byte's offset: '- 1' (0x%llX)",
        (unsigned long long)(e->v % page ? round_up(e->v + 1, page) - 1 : e->v - 1));
    edit_minus_one(k, w, g);
}

/* ---- flags ------------------------------------------------------------------------- */

/* Every flag the descriptor sets (written or implied by a key) exists in
 * the DDI of board.wddm; and so does NumUEFIFrameBufferRanges. */
static void check_flag_wddm_version(Ck *k, const Segment *g)
{
    const Spec *s = k->s;
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        const char *key;
        if (!(g->flags & (1u << fi->bit)) || fi->min_wddm <= s->wddm)
            continue;
        Pos p = flag_pos(g, fi->bit, &key);
        const char *what = flag_said(k, g, fi->bit, fi);
        fix(k, report(k, SEG(g, key), p, "%s needs WDDM %u.%u or later; board.wddm is %u.%u",
                   what, fi->min_wddm >> 4, fi->min_wddm & 15, s->wddm >> 4, s->wddm & 15),
            "wddm: \"%u.%u\" in board, or remove '%s'", fi->min_wddm >> 4, fi->min_wddm & 15,
            g->flag_pos[fi->bit].file ? fi->name : key);
    }
    if (g->uefi_ranges.set && s->wddm < 0x22)
        report(k, SEG(g, "uefi_frame_buffer_ranges"), g->uefi_ranges.pos,
               "uefi_frame_buffer_ranges (NumUEFIFrameBufferRanges) needs WDDM 2.2 or later; board.wddm is %u.%u",
               s->wddm >> 4, s->wddm & 15);
}

static void check_reserved_sys_mem(Ck *k, const Segment *g)
{
    if (g->flags & FLAG_reserved_sys_mem)
        report(k, SEG(g, "flags"), g->flag_pos[FB_reserved_sys_mem],
               "reserved_sys_mem is set by the system, never by a driver");
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
    if (g->base.v % k64)
        report(k, SEG(g, "base"), at(&g->base, g),
               "segment '%s' uses 64 KB pages but its base 0x%llX is not 64 KiB-aligned", g->name,
               (unsigned long long)g->base.v);
    if (g->size.v % k64)
        report(k, SEG(g, "size"), at(&g->size, g),
               "segment '%s' uses 64 KB pages but its size 0x%llX is not a 64 KiB multiple", g->name,
               (unsigned long long)g->size.v);
}

static void check_cache_coherent_memory(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_cache_coherent) && g->kind == SEG_MEMORY)
        report(k, SEG(g, "flags"), g->flag_pos[FB_cache_coherent],
               "cache_coherent on memory segment '%s' has no meaning (aperture segments only)", g->name);
}

static void check_populated_from_system_memory_aperture(Ck *k, const Segment *g)
{
    if ((g->flags & FLAG_populated_from_system_memory) && g->kind == SEG_APERTURE)
        report(k, SEG(g, "flags"), g->flag_pos[FB_populated_from_system_memory],
               "populated_from_system_memory is ignored on %s segment '%s'", seg_kind_name(g->kind), g->name);
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
    if (g && g->kind != SEG_APERTURE)
        report(k, SEG(NULL, "paging.segment"), s->paging.seg_pos,
               g->kind == SEG_AGP ? "paging segment '%s' is the AGP segment, which is absent without an AGP aperture"
                                  : "paging segment '%s' is a memory segment; it must be an aperture (or none)",
               g->name);
}

/* VidMm allocates the paging buffer in that segment, within its commit limit. */
static void check_paging_buffer_fits(Ck *k)
{
    const Spec *s = k->s;
    const Segment *g = s->paging.seg && !s->paging.seg->unresolved ? s->paging.seg : NULL;
    uint64_t room = g ? (g->commit_limit.v && g->commit_limit.v < g->size.v ? g->commit_limit.v : g->size.v) : 0;
    if (g && s->paging.buffer_size.v > room) {
        Diag *e = report(k, SEG(NULL, "paging.buffer_size"), at(&s->paging.buffer_size, g),
                         "paging buffer_size %s does not fit in paging segment '%s' (commit limit %s)",
                         Q(s->paging.buffer_size.v), g->name, Q(room));
        note(k, e, SEG(NULL, "paging.segment"), s->paging.seg_pos, "the paging segment is named here");
        fix(k, e, "buffer_size: at most 0x%llX", (unsigned long long)room);
    }
}

/* ---- names and versions ------------------------------------------------------------ */

static void check_names_c_ident(Ck *k)
{
    const Spec *s = k->s;
    if (!is_c_ident(s->name))
        report(k, SEG(NULL, "board.name"), s->name_pos, "board name '%s' is not a C identifier", s->name);
    else if (strlen(s->name) > BOARD_NAME_MAX)
        report(k, SEG(NULL, "board.name"), s->name_pos,
               "board name '%.16s...' is %zu bytes long: the files named after it (%.16s..._segments.h) would pass "
               "the 255 bytes of a file name (%d bytes at most)", s->name, strlen(s->name), s->name, BOARD_NAME_MAX);
    for (unsigned i = 0; i < s->nbars; i++)
        if (!is_c_ident(s->bars[i].name))
            report(k, BAR(&s->bars[i], "name"), s->bars[i].pos, "BAR name '%s' is not a C identifier", s->bars[i].name);
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        if (!is_c_ident(g->name))
            report(k, SEG(g, "name"), g->pos, "segment name '%s' is not a C identifier", g->name);
        else if (!strcmp(g->name, "none"))
            report(k, SEG(g, "name"), g->pos,
                   "segment name 'none' is reserved: 'paging: { segment: none }' means no segment");
        for (unsigned b = 0; b < g->nbanks; b++)
            if (!is_c_ident(g->banks[b].name))
                report(k, BANK(g, &g->banks[b], "name"), g->banks[b].pos,
                       "bank name '%s' is not a C identifier", g->banks[b].name);
    }
}

static void check_names_unique(Ck *k)
{
    const Spec *s = k->s;
    for (unsigned i = 0; i < s->nsegs; i++) {
        const Segment *g = &s->segs[i];
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(s->segs[j].name, g->name)) {
                Diag *e = report(k, SEG(g, "name"), g->pos, "a second segment named '%s'", g->name);
                note(k, e, SEG(&s->segs[j], "name"), s->segs[j].pos, "the first is here");
                break;
            }
        for (unsigned b = 0; b < g->nbanks; b++)
            for (unsigned c = 0; c < b; c++)
                if (!strcmp(g->banks[c].name, g->banks[b].name)) {
                    Diag *e = report(k, BANK(g, &g->banks[b], "name"), g->banks[b].pos,
                                     "a second bank named '%s' in '%s'", g->banks[b].name, g->name);
                    note(k, e, BANK(g, &g->banks[c], "name"), g->banks[c].pos, "the first is here");
                    break;
                }
    }
}

static void check_variant_new_segment(Ck *k, const Segment *g)
{
    if (!g->near)
        return;
    const char *bn = g->near->str;
    Diag *e = report(k, SEG(g, "name"), g->pos,
                     "the base has no segment '%s', so this variant adds one: did you mean '%s' (from %s)?", g->name,
                     bn, os_basename(g->near->pos.file->name));
    note(k, e, SEG(NULL, NULL), node_span(g->near), "the base's segment '%s' is described here", bn);
    fix(k, e, "name: %s to change that segment, or new: true to add this one", bn);
}

/* The name a generated identifier comes from, and where it is written. */
static On gen_on(const Ck *k, const GenIdent *g)
{
    return g->bar ? BAR(&k->s->bars[g->bar - 1], "name") : SEG(g->seg ? &k->s->segs[g->seg - 1] : NULL, g->seg ? "name" : NULL);
}

static Pos gen_pos(const Ck *k, const GenIdent *g)
{
    return g->bar ? k->s->bars[g->bar - 1].pos : g->seg ? k->s->segs[g->seg - 1].pos : (Pos){0};
}

/* Two names that map to one generated identifier (gen_idents); a name
 * written twice is names-unique's.  Past the segment and BAR limits their
 * own rules report. */
static void check_generated_names(Ck *k)
{
    const Spec *s = k->s;
    Arena *a = k->d->arena;
    unsigned n;
    const GenIdent *id = gen_idents(a, s, &n);
    for (unsigned i = 3; i < n; i++) {
        for (unsigned j = 0; j < i; j++) {
            if (strcmp(id[i].ident, id[j].ident) || !strcmp(id[i].what, id[j].what) || id[i].seg > MAX_SEGMENTS ||
                id[j].seg > MAX_SEGMENTS || id[i].bar > MAX_BARS || id[j].bar > MAX_BARS)
                continue;
            /* Banks...: after the camel-case prefix */
            bool camel = id[i].ident[0] == 'B' && id[i].ident[1] == 'a';
            Diag *e = report(k, gen_on(k, &id[i]), gen_pos(k, &id[i]),
                             "%s and %s would both define %s%s in the generated code", id[j].what, id[i].what,
                             camel ? s->camel : arena_printf(a, "%s_", s->upper), id[i].ident);
            if (id[j].seg || id[j].bar)
                note(k, e, gen_on(k, &id[j]), gen_pos(k, &id[j]), "%s is here", id[j].what);
            break;
        }
    }
}

static void check_names_generated_unique(Ck *k)
{
    check_generated_names(k);
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

static void check_ddi_form_version(Ck *k)
{
    const Spec *s = k->s;
    unsigned wants = ddi_forms_for(s->wddm), extra = s->forms & ~wants;
    if (s->forms_from_option && extra)
        report(k, SEG(NULL, s->wddm_pos.file ? "board.wddm" : "board.name"),
               s->wddm_pos.file ? s->wddm_pos : s->name_pos,
               "a WDDM %u.%u driver is never asked for %s (it is asked for %s)", s->wddm >> 4, s->wddm & 15,
               extra & DDI_QS4 ? "QUERYSEGMENT4" : extra & DDI_QS3 ? "QUERYSEGMENT3" : "QUERYSEGMENT",
               wants == DDI_QS4 ? "QUERYSEGMENT4" : wants == DDI_QS3 ? "QUERYSEGMENT3" : "QUERYSEGMENT");
}

static void check_ddi_qs4_banks(Ck *k, const Segment *g)
{
    if ((k->s->forms & DDI_QS4) && g->nbanks)
        report(k, SEG(g, "banks"), g->banks_pos,
               "segment '%s' has banks, which QUERYSEGMENT4's DXGK_SEGMENTDESCRIPTOR4 cannot describe", g->name);
}

static void check_ddi_qs4_agp(Ck *k, const Segment *g)
{
    if ((k->s->forms & DDI_QS4) && g->kind == SEG_AGP)
        report(k, SEG(g, "kind"), g->kind_pos, "AGP segment '%s' cannot be reported by QUERYSEGMENT4", g->name);
}

static void check_ddi_qs_system_memory_end(Ck *k, const Segment *g)
{
    if ((k->s->forms & DDI_QS) && (g->flags & FLAG_partially_preserved_during_hibernate))
        report(k, SEG(g, "flags"), g->flag_pos[FB_partially_preserved_during_hibernate],
               "segment '%s' is partially preserved, which the legacy QUERYSEGMENT descriptor cannot describe "
               "(it has no SystemMemoryEndAddress)", g->name);
}

static void check_ddi_field_needs_qs4(Ck *k, const Segment *g)
{
    if (k->s->forms & DDI_QS4)
        return;
    const char *what = g->vpr.set ? "vpr" : g->host.mode != CPU_NONE ? "cpu_host_aperture"
                       : g->invalid_ranges.set ? "invalid_memory_ranges"
                       : g->uefi_ranges.set ? "uefi_frame_buffer_ranges" : NULL;
    Pos p = g->vpr.set ? g->vpr.pos : g->host.mode != CPU_NONE ? g->host.pos
            : g->invalid_ranges.set ? g->invalid_ranges.pos : g->uefi_ranges.pos;
    if (what)
        report(k, SEG(g, what), p, "'%s' of segment '%s' exists only in QUERYSEGMENT4's descriptor", what, g->name);
}

/* The WDDM 1.x handlers (QUERYSEGMENT, QUERYSEGMENT3) carry no flag from
 * WDDM 2.0 on, written or implied by a key. */
static void check_ddi_qs3_flag(Ck *k, const Segment *g)
{
    unsigned f = k->s->forms;
    for (size_t i = 0; (f & (DDI_QS | DDI_QS3)) && i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        const char *key;
        if ((g->flags & (1u << fi->bit)) && fi->min_wddm >= 0x20) {
            Pos p = flag_pos(g, fi->bit, &key);
            report(k, SEG(g, key), p, "%s exists from WDDM 2.0 on; the WDDM 1.x %s handler cannot carry it",
                   flag_said(k, g, fi->bit, fi), f & DDI_QS3 ? "QUERYSEGMENT3" : "QUERYSEGMENT");
            return;
        }
    }
}

/* The VPR lies inside the segment (and its counts fit their UINTs:
 * check_widths); values the spec does not write are 0, inside any. */
static void check_vpr_range_inside(Ck *k, const Segment *g)
{
    const Vpr *v = &g->vpr;
    if (v->range_start.v > g->size.v || v->range_size.v > g->size.v - v->range_start.v)
        report(k, SEG(g, v->range_start.v > g->size.v ? "vpr.range_start" : "vpr.range_size"),
               at(v->range_start.v > g->size.v ? &v->range_start : &v->range_size, g),
               "VPR [0x%llX, +0x%llX) is not inside segment '%s' (0x%llX bytes)", (unsigned long long)v->range_start.v,
               (unsigned long long)v->range_size.v, g->name, (unsigned long long)g->size.v);
    else if (v->alignment.v && !pow2(v->alignment.v))
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
    if (!h->size.v || h->size.v % unit || h->size.v / page > UINT32_MAX)
        report(k, SEG(g, "cpu_host_aperture.size"), at(&h->size, g),
               "host aperture of segment '%s' is 0x%llX bytes: not a non-zero number of %llu-byte pages that fits 32 bits",
               g->name, (unsigned long long)h->size.v, (unsigned long long)unit);
    else if (h->mode == CPU_BAR && (h->offset.v > h->bar->size.v || h->size.v > h->bar->size.v - h->offset.v))
        report(k, ((On){g, NULL, h->bar, "cpu_host_aperture"}), h->pos,
               "host aperture of segment '%s' does not fit in BAR '%s'", g->name, h->bar->name);
}

/* The aperture's first page starts on a host page (a BAR's own address is
 * aligned to its size, at least a page when the aperture fits in it). */
static void check_cpu_host_aperture_aligned(Ck *k, const Segment *g)
{
    const HostAperture *h = &g->host;
    uint64_t start = h->mode == CPU_BAR ? h->offset.v : h->address.v;
    if (h->mode != CPU_NONE && start % k->page)
        fix(k, report(k, SEG(g, h->mode == CPU_BAR ? "cpu_host_aperture.offset"
                                                                               : "cpu_host_aperture.address"),
                   at(h->mode == CPU_BAR ? &h->offset : &h->address, g),
                   "host aperture of segment '%s' starts at %s 0x%llX, not on a %llu-byte page", g->name,
                   h->mode == CPU_BAR ? "offset" : "address", (unsigned long long)start, (unsigned long long)k->page),
            "%s: 0x%llX or 0x%llX (on a page)", h->mode == CPU_BAR ? "offset" : "address",
            (unsigned long long)round_down(start, k->page), (unsigned long long)round_up(start, k->page));
}

static void check_cpu_host_aperture_memory(Ck *k, const Segment *g)
{
    if (g->kind == SEG_APERTURE && (g->flags & FLAG_supports_cpu_host_aperture))
        report(k, SEG(g, "cpu_host_aperture"),
               g->host.mode != CPU_NONE ? g->host.pos : g->flag_pos[FB_supports_cpu_host_aperture],
               "a CPU host aperture on %s segment '%s': it maps pages of a memory segment", seg_kind_name(g->kind),
               g->name);
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

/* Field by field: a Pos has padding memcmp would read. */
static bool same_pos(Pos a, Pos b)
{
    return a.file == b.file && a.line == b.line && a.col == b.col && a.len == b.len;
}

/* A finding (or one of its notes) at a value that reads a -D constant
 * says so: the value, and the command line that set it. */
static void trace_defines(Ck *k, Diag *e)
{
    const Spec *s = k->s;
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        FieldScope sc = field_table[f].scope;
        unsigned n = sc == SC_BOARD || sc == SC_PAGING ? 1 : sc == SC_BAR ? s->nbars : s->nsegs;
        for (unsigned i = 0; i < n; i++)
            for (unsigned b = 0; b < (sc == SC_BANK ? s->segs[i].nbanks : 1); b++) {
                const void *o = sc == SC_BOARD || sc == SC_PAGING ? (const void *)s : sc == SC_BAR ? (const void *)&s->bars[i]
                                : sc == SC_BANK ? (const void *)&s->segs[i].banks[b] : (const void *)&s->segs[i];
                const Value *v = field_value((FieldId)f, o);
                const Constant *c = v->define;
                bool at = c && v->set && same_pos(v->pos, e->pos);
                for (const Note *m = e->notes; c && m; m = m->next) {
                    at = at || same_pos(v->pos, m->pos);
                    c = m->pos.file == c->val.pos.file ? NULL : c; /* said once */
                }
                if (c && at)
                    note(k, e, SEG(NULL, NULL), c->val.pos, "'%s' is %s, set on the command line: -D %s", c->name,
                         Q(c->val.v), c->val.pos.file->text);
            }
    }
}

unsigned spec_check(Spec *s, const RuleConfig *c, Diags *d)
{
    Ck k;
    ck_init(&k, s, s, c, d);
    Diag **mark = d->tail;
    unsigned errors = d->nerrors; /* the waived are not counted */
    run_all(&k, false);
    run(&k, R_waiver_unused, 0);
    for (Diag *e = *mark; e; e = e->next)
        trace_defines(&k, e);
    return d->nerrors - errors;
}

Code check_invariants(Arena *a, const Spec *s, const Segment **where, const char **what)
{
    Diags quiet;
    diags_init(&quiet, a);
    Ck k;
    ck_init(&k, s, NULL, NULL, &quiet);
    run_all(&k, true);
    *where = k.broken_seg;
    *what = k.broken_msg;
    return k.broken;
}
