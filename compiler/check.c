/* SPDX-License-Identifier: MIT */
/* check.c - the WDDM rules over a resolved Spec.
 *
 * Every rule is a line of rules.def; this file holds the code that makes
 * each fire.  A rule reports through report(), which applies -W settings
 * and the segment's waivers to advisories, so no rule needs to know about
 * either; rules_option() and resolve.c never let either touch an invariant. */
#include "segc.h"

#include <string.h>

const RuleInfo rule_table[] = {
#define RULE(id, name, cls, sev, src, text, fix, why) {name, CLASS_##cls, sev, src, text, fix, why},
#define CODE(name, sev, text)
#include "rules.def"
#undef RULE
#undef CODE
#define RULE(id, name, cls, sev, src, text, fix, why)
#define CODE(name, sev, text) {name, CLASS_INVARIANT, sev, NULL, text, NULL, NULL},
#include "rules.def"
#undef RULE
#undef CODE
};
const size_t code_count = countof(rule_table);

int code_by_name(const char *name)
{
    for (size_t i = 0; i < code_count; i++)
        if (!strcmp(rule_table[i].name, name))
            return (int)i;
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

/* ---- reporting -------------------------------------------------------------- */

typedef struct Ck {
    Spec *s;
    const RuleConfig *c;
    Diags *d;
    uint64_t page; /* the page size, else the default (page-size-valid) */
} Ck;

/* What a finding or note is about, as model pointers (Subject, segc.h). */
typedef struct On {
    Segment *g;
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

static Diag *report(Ck *k, RuleId id, On on, Pos pos, const char *fmt, ...) PRINTF_LIKE(5, 6);

/* A quantity as every message writes it: "0x3B0000000 (14.75 GiB)". */
#define Q(v) qty(k->d->arena, (v))

/* The remedy of finding `e` (NULL when the rule is off), worked out from
 * the spec: "= fix: base: vram.end". */
#define fix(k, e, ...) diag_fixit((k)->d, (e), __VA_ARGS__)

static uint64_t round_down(uint64_t v, uint64_t unit) { return v - v % unit; }
static uint64_t round_up(uint64_t v, uint64_t unit)
{
    return v % unit && v <= UINT64_MAX - unit ? round_down(v, unit) + unit : v;
}

static Diag *report(Ck *k, RuleId id, On on, Pos pos, const char *fmt, ...)
{
    Segment *g = on.g;
    Severity sev = rule_table[id].sev;
    /* A value segc derived (a flag implied by another key, a default) has
     * no position of its own: point at its segment, else the board. */
    if (!pos.file)
        pos = g ? g->pos : k->s->name_pos;
    /* Waivers first: a rule switched off for this run (-Wno-) still fires
     * on the segment, so its waiver is not "unused".  The waived finding is
     * kept (not printed, not counted) so SARIF can show it as suppressed. */
    Waiver *w = NULL;
    for (unsigned i = 0; g && rule_waivable(id) && !w && i < g->nwaivers; i++)
        if (!strcmp(g->waivers[i].rule, rule_table[id].name))
            w = &g->waivers[i];
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
    Diag *e = w ? diag_vwaived(k->d, sev, rule_table[id].name, pos, w->reason, w->pos, fmt, ap)
                : diag_vadd(k->d, sev, rule_table[id].name, pos, fmt, ap);
    va_end(ap);
    e->about = subject(k, on);
    if (w)
        w->used = true;
    return e;
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

/* ---- per-segment rules ---------------------------------------------------------- */

static void check_agp(Ck *k, Segment *g)
{
    if (g->flags_written)
        report(k, R_agp_exclusive, SEG(g, "flags"), g->flags_pos,
               "segment '%s' is AGP: it may set no flag besides Agp", g->name);
    if (g->cpu != CPU_NONE)
        report(k, R_agp_exclusive, SEG(g, "cpu_visible"), g->cpu_pos,
               "segment '%s' is AGP: cpu_visible would set CpuVisible beside Agp", g->name);
    if (g->nbanks)
        report(k, R_agp_exclusive, SEG(g, "banks"), g->banks_pos,
               "segment '%s' is AGP: banks would set UseBanking beside Agp", g->name);
    /* The AGP descriptor takes both from the aperture at run time. */
    static const FieldId dropped[] = {F_commit_limit, F_system_memory_end};
    for (size_t i = 0; i < countof(dropped); i++) {
        const Value *v = field_value(dropped[i], g);
        const char *key = field_table[dropped[i]].key;
        if (v->set)
            report(k, R_key_not_emitted, SEG(g, key), v->pos,
                   "%s of AGP segment '%s' would not be emitted: the handler reports the aperture's own", key, g->name);
    }
    if (g->base.set)
        report(k, R_agp_base_size_ignored, SEG(g, "base"), g->base.pos,
               "base of AGP segment '%s' is ignored: VidMm uses the AGP aperture's address", g->name);
    if (g->size.set)
        report(k, R_agp_base_size_ignored, SEG(g, "size"), g->size.pos,
               "size of AGP segment '%s' is ignored: VidMm takes as much of the aperture as it can", g->name);
}

static void check_sizes(Ck *k, Segment *g)
{
    uint64_t page = k->page;
    if (g->size.v == 0)
        report(k, R_size_nonzero, SEG(g, "size"), at(&g->size, g), "segment '%s' has size 0", g->name);
    else if (g->size.v % page)
        fix(k, report(k, R_size_page_multiple, SEG(g, "size"), at(&g->size, g),
                   "size of segment '%s' (%s) is not a multiple of the %llu-byte page", g->name, Q(g->size.v),
                   (unsigned long long)page),
            "size: %s0x%llX (a whole number of pages)",
            round_down(g->size.v, page) ? arena_printf(k->d->arena, "0x%llX or ", (unsigned long long)round_down(g->size.v, page)) : "",
            (unsigned long long)round_up(g->size.v, page));
    if (add_overflows(g->base.v, g->size.v))
        report(k, R_range_overflow, SEG(g, "base"), at(&g->base, g),
               "segment '%s' ends past the 64-bit GPU address space (base 0x%llX + size 0x%llX)", g->name,
               (unsigned long long)g->base.v, (unsigned long long)g->size.v);
    if (g->kind == SEG_MEMORY && g->commit_limit.set && g->commit_limit.v != g->size.v)
        fix(k, report(k, R_commit_limit_memory, SEG(g, "commit_limit"), g->commit_limit.pos,
                   "commit limit of memory segment '%s' (%s) differs from its size (%s)", g->name,
                   Q(g->commit_limit.v), Q(g->size.v)),
            "leave commit_limit out: it defaults to the size");
    if (g->kind == SEG_APERTURE && g->commit_limit.v > g->size.v)
        fix(k, report(k, R_commit_limit_aperture, SEG(g, "commit_limit"), at(&g->commit_limit, g),
                   "commit limit of aperture '%s' (%s) exceeds its size (%s) by %s", g->name, Q(g->commit_limit.v),
                   Q(g->size.v), Q(g->commit_limit.v - g->size.v)),
            "commit_limit: size (or leave it out: it defaults to the size)");
}

static void check_cpu(Ck *k, Segment *g)
{
    if (g->cpu == CPU_NONE)
        return;
    if (g->kind == SEG_APERTURE)
        report(k, R_cpu_visible_aperture, SEG(g, "cpu_visible"), g->cpu_pos,
               "cpu_visible on aperture '%s' has no meaning: VidMm ignores its CpuTranslatedAddress", g->name);
    if (g->cpu == CPU_BAR && g->cpu_bar) {
        const Bar *b = g->cpu_bar;
        uint64_t off = g->cpu_offset.v;
        if (off > b->size.v || g->size.v > b->size.v - off) {
            Diag *e = report(k, R_cpu_window_in_bar, ((On){g, NULL, b, "cpu_visible"}), g->cpu_pos,
                             "segment '%s' (%s at offset 0x%llX) does not fit in BAR '%s' (%s)", g->name,
                             Q(g->size.v), (unsigned long long)off, b->name, Q(b->size.v));
            note(k, e, BAR(b, NULL), b->pos, "BAR '%s' is described here", b->name);
            if (off <= b->size.v)
                fix(k, e, "the window is %s too large for the BAR: size: 0x%llX, or a larger BAR",
                    Q(g->size.v - (b->size.v - off)), (unsigned long long)(b->size.v - off));
        }
    }
}

static void check_banks(Ck *k, Segment *g)
{
    if (!g->nbanks)
        return;
    uint64_t page = k->page;
    if (g->kind != SEG_MEMORY) {
        report(k, R_banks_memory_only, SEG(g, "banks"), g->banks_pos,
               "banks on %s segment '%s': banking is for memory segments", seg_kind_name(g->kind), g->name);
        return;
    }
    if (g->nbanks > MAX_BANKS)
        report(k, R_banks_max, BANK(g, &g->banks[MAX_BANKS], NULL), g->banks[MAX_BANKS].pos,
               "segment '%s' has %u banks; at most %u can be named", g->name, g->nbanks, (unsigned)MAX_BANKS);
    uint64_t sum = 0;
    for (unsigned i = 0; i < g->nbanks; i++) {
        const Bank *b = &g->banks[i];
        bool overflow = add_overflows(sum, b->size.v);
        if (b->size.v == 0) {
            report(k, R_banks_cover, BANK(g, b, b->size.set ? "size" : NULL), b->size.set ? b->size.pos : b->pos,
                   b->size.set ? "bank '%s' of segment '%s' is empty"
                               : "bank '%s' of segment '%s' has nothing left: the banks before it fill the segment",
                   b->name, g->name);
            return;
        }
        uint64_t start = sum;
        sum += b->size.v;
        if (overflow || sum > g->size.v) { /* this bank, not the next, passes the end */
            Diag *e = report(k, R_banks_cover, BANK(g, b, "size"), at(&b->size, g),
                             "bank '%s' of segment '%s' ends at offset 0x%llX, %s past the segment's %s",
                             b->name, g->name, (unsigned long long)(overflow ? UINT64_MAX : sum),
                             overflow ? "far" : Q(sum - g->size.v), Q(g->size.v));
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
        if (b->end % page && i + 1 < g->nbanks) {
            fix(k, report(k, R_banks_page_aligned, BANK(g, b, "size"), at(&b->size, g),
                       "bank '%s' of segment '%s' ends at offset 0x%llX, not on a %llu-byte page", b->name, g->name,
                       (unsigned long long)b->end, (unsigned long long)page),
                "size: 0x%llX or 0x%llX (ends on a page)", (unsigned long long)(round_down(b->end, page) - start),
                (unsigned long long)(round_up(b->end, page) - start));
            return;
        }
    }
    if (sum != g->size.v) {
        const Bank *last = &g->banks[g->nbanks - 1];
        Diag *e = report(k, R_banks_cover, BANK(g, last->size.set ? last : NULL, last->size.set ? "size" : "banks"),
                         last->size.set ? last->size.pos : g->banks_pos,
                         "banks of segment '%s' cover %s, %s short of the segment's %s", g->name, Q(sum),
                         Q(g->size.v - sum), Q(g->size.v));
        note(k, e, SEG(g, "size"), at(&g->size, g), "segment size written here");
        if (last->size.set) {
            fix(k, e, "leave the last bank's size out: it then ends at the segment's end");
            diag_edit_remove_pair(k->d, e, last->size.pos);
        }
    }
}

static void check_preserve(Ck *k, Segment *g)
{
    uint64_t page = k->page;
    uint32_t f = g->flags;
    bool sb = f & FLAG_preserved_during_standby, hb = f & FLAG_preserved_during_hibernate,
         ph = f & FLAG_partially_preserved_during_hibernate;
    if (hb && ph)
        report(k, R_preserve_combination, SEG(g, "flags"), g->flag_pos[FB_partially_preserved_during_hibernate],
               "segment '%s' is preserved during hibernate both fully and partially; pick one", g->name);
    else if ((hb || ph) && !sb)
        fix(k, report(k, R_preserve_combination, SEG(g, "flags"),
                      g->flag_pos[hb ? FB_preserved_during_hibernate : FB_partially_preserved_during_hibernate],
                      "segment '%s' is preserved during hibernate but not during standby", g->name),
            "add preserved_during_standby to the flags");
    const Value *e = &g->system_memory_end;
    if (e->set && g->kind != SEG_MEMORY) {
        report(k, R_system_memory_end_memory_only, SEG(g, "system_memory_end"), e->pos,
               "system_memory_end on %s segment '%s'", seg_kind_name(g->kind), g->name);
        return;
    }
    if (ph && (!e->set || e->v == 0))
        report(k, R_system_memory_end_iff_partial, SEG(g, e->set ? "system_memory_end" : "flags"),
               e->set ? e->pos : g->flag_pos[FB_partially_preserved_during_hibernate],
               "segment '%s' is partially preserved during hibernate but has no (non-zero) system_memory_end",
               g->name);
    else if (e->set && e->v && !ph) /* 0 is what an unpreserved segment writes */
        report(k, R_system_memory_end_iff_partial, SEG(g, "system_memory_end"), e->pos,
               "system_memory_end is set on segment '%s' without partially_preserved_during_hibernate", g->name);
    Diag *w = NULL;
    if (e->set && e->v >= g->size.v && g->size.v)
        fix(k, w = report(k, R_system_memory_end_inside, SEG(g, "system_memory_end"), e->pos,
                   "system_memory_end 0x%llX of segment '%s' is not inside it (size %s; the offset is inclusive)",
                   (unsigned long long)e->v, g->name, Q(g->size.v)),
            "system_memory_end: size - 1 (0x%llX) at most", (unsigned long long)(g->size.v - 1));
    else if (e->set && e->v && (e->v + 1) % page)
        fix(k, w = report(k, R_system_memory_end_page, SEG(g, "system_memory_end"), e->pos,
                   "system_memory_end 0x%llX of segment '%s' is inclusive, so the driver-reserved part is %s: "
                   "not a whole number of %llu-byte pages",
                   (unsigned long long)e->v, g->name, Q(e->v + 1), (unsigned long long)page),
            e->v % page ? "end the driver-reserved part on a page: 0x%llX" : "write the last byte's offset: '- 1' (0x%llX)",
            (unsigned long long)(e->v % page ? round_up(e->v + 1, page) - 1 : e->v - 1));
    /* The size itself (an end taken as exclusive): '- 1' makes it the last byte. */
    if (e->v == g->size.v || (e->v < g->size.v && e->v % page == 0))
        diag_edit_append(k->d, w, e->pos, "- 1");
}

static void check_flags(Ck *k, Segment *g)
{
    const Spec *s = k->s;
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *fi = &flag_table[i];
        if (!(g->flags_written & (1u << fi->bit)))
            continue;
        if (fi->min_wddm > s->wddm)
            fix(k, report(k, R_flag_wddm_version, SEG(g, "flags"), g->flag_pos[fi->bit],
                       "flag '%s' needs WDDM %u.%u or later; board.wddm is %u.%u", fi->name, fi->min_wddm >> 4,
                       fi->min_wddm & 15, s->wddm >> 4, s->wddm & 15),
                "wddm: \"%u.%u\" in board, or remove '%s'", fi->min_wddm >> 4, fi->min_wddm & 15, fi->name);
    }
    uint32_t f = g->flags;
    if (f & FLAG_reserved_sys_mem)
        report(k, R_reserved_sys_mem, SEG(g, "flags"), g->flag_pos[FB_reserved_sys_mem],
               "reserved_sys_mem is set by the system, never by a driver");
    if ((f & FLAG_supports_cpu_host_aperture) && (f & FLAG_cpu_visible)) {
        Diag *e = report(k, R_host_aperture_cpu_visible, SEG(g, g->flag_pos[FB_supports_cpu_host_aperture].file ? "flags" : "cpu_host_aperture"),
                         g->flag_pos[FB_supports_cpu_host_aperture].file ? g->flag_pos[FB_supports_cpu_host_aperture] : g->host.pos,
                         "segment '%s' supports a CPU host aperture and is also cpu_visible", g->name);
        note(k, e, SEG(g, "cpu_visible"), g->cpu_pos, "cpu_visible written here");
    }
    if ((f & FLAG_supports_cached_cpu_host_aperture) && !(f & FLAG_supports_cpu_host_aperture))
        report(k, R_cached_host_aperture, SEG(g, "flags"), g->flag_pos[FB_supports_cached_cpu_host_aperture],
               "supports_cached_cpu_host_aperture without supports_cpu_host_aperture on segment '%s'", g->name);
    if (f & FLAG_use_64kb_pages) {
        const uint64_t k64 = 64 * 1024;
        if (g->base.v % k64)
            report(k, R_use_64kb_pages_alignment, SEG(g, "base"), at(&g->base, g),
                   "segment '%s' uses 64 KB pages but its base 0x%llX is not 64 KiB-aligned", g->name,
                   (unsigned long long)g->base.v);
        if (g->size.v % k64)
            report(k, R_use_64kb_pages_alignment, SEG(g, "size"), at(&g->size, g),
                   "segment '%s' uses 64 KB pages but its size 0x%llX is not a 64 KiB multiple", g->name,
                   (unsigned long long)g->size.v);
    }
    if ((f & FLAG_cache_coherent) && g->kind == SEG_MEMORY)
        report(k, R_cache_coherent_memory, SEG(g, "flags"), g->flag_pos[FB_cache_coherent],
               "cache_coherent on memory segment '%s' has no meaning (aperture segments only)", g->name);
    if ((f & FLAG_populated_from_system_memory) && g->kind != SEG_MEMORY)
        report(k, R_populated_from_system_memory_aperture, SEG(g, "flags"), g->flag_pos[FB_populated_from_system_memory],
               "populated_from_system_memory is ignored on %s segment '%s'", seg_kind_name(g->kind), g->name);
    if (f & FLAG_application_target)
        report(k, R_application_target_deprecated, SEG(g, "flags"), g->flag_pos[FB_application_target],
               "application_target is deprecated; use local_budget_group or non_local_budget_group");
}

/* What the emitted forms can express for one segment. */
static void check_forms(Ck *k, Segment *g)
{
    const Spec *s = k->s;
    unsigned f = s->forms;
    if ((f & DDI_QS4) && g->nbanks)
        report(k, R_ddi_qs4_banks, SEG(g, "banks"), g->banks_pos,
               "segment '%s' has banks, which QUERYSEGMENT4's DXGK_SEGMENTDESCRIPTOR4 cannot describe", g->name);
    if ((f & DDI_QS4) && g->kind == SEG_AGP)
        report(k, R_ddi_qs4_agp, SEG(g, "kind"), g->kind_pos, "AGP segment '%s' cannot be reported by QUERYSEGMENT4",
               g->name);
    if ((f & DDI_QS) && (g->flags & FLAG_partially_preserved_during_hibernate))
        report(k, R_ddi_qs_system_memory_end, SEG(g, "flags"), g->flag_pos[FB_partially_preserved_during_hibernate],
               "segment '%s' is partially preserved, which the legacy QUERYSEGMENT descriptor cannot describe "
               "(it has no SystemMemoryEndAddress)", g->name);
    if (!(f & DDI_QS4)) {
        const char *what = g->vpr.set ? "vpr" : g->host.mode != CPU_NONE ? "cpu_host_aperture"
                           : g->invalid_ranges.set ? "invalid_memory_ranges"
                           : g->uefi_ranges.set ? "uefi_frame_buffer_ranges" : NULL;
        Pos p = g->vpr.set ? g->vpr.pos : g->host.mode != CPU_NONE ? g->host.pos
                : g->invalid_ranges.set ? g->invalid_ranges.pos : g->uefi_ranges.pos;
        if (what)
            report(k, R_ddi_field_needs_qs4, SEG(g, what), p,
                   "'%s' of segment '%s' exists only in QUERYSEGMENT4's descriptor", what,
                   g->name);
    }
    if (f & (DDI_QS | DDI_QS3))
        for (size_t i = 0; i < flag_count; i++) {
            const FlagInfo *fi = &flag_table[i];
            /* Below 2.0 flag-wddm-version already reports it. */
            if ((g->flags_written & (1u << fi->bit)) && fi->min_wddm >= 0x20 && fi->min_wddm <= s->wddm) {
                report(k, R_ddi_qs3_flag, SEG(g, "flags"), g->flag_pos[fi->bit],
                       "flag '%s' exists from WDDM 2.0 on; the WDDM 1.x %s handler cannot carry it", fi->name,
                       f & DDI_QS3 ? "QUERYSEGMENT3" : "QUERYSEGMENT");
                break;
            }
        }
    if (g->uefi_ranges.set && s->wddm < 0x22)
        report(k, R_flag_wddm_version, SEG(g, "uefi_frame_buffer_ranges"), g->uefi_ranges.pos,
               "uefi_frame_buffer_ranges (NumUEFIFrameBufferRanges) needs WDDM 2.2 or later; board.wddm is %u.%u",
               s->wddm >> 4, s->wddm & 15);
}

static void check_qs4_fields(Ck *k, Segment *g)
{
    uint64_t page = k->page;
    if ((g->flags_written & FLAG_vpr_supported) && !g->vpr.set)
        report(k, R_vpr_needs_range, SEG(g, "flags"), g->flag_pos[FB_vpr_supported],
               "segment '%s' supports VPR but has no 'vpr:' range", g->name);
    if (g->vpr.set) {
        const Vpr *v = &g->vpr;
        if (v->range_start.v > g->size.v || v->range_size.v > g->size.v - v->range_start.v)
            report(k, R_vpr_range_inside, SEG(g, v->range_start.v > g->size.v ? "vpr.range_start" : "vpr.range_size"),
                   at(v->range_start.v > g->size.v ? &v->range_start : &v->range_size, g),
                   "VPR [0x%llX, +0x%llX) is not inside segment '%s' (0x%llX bytes)", (unsigned long long)v->range_start.v,
                   (unsigned long long)v->range_size.v, g->name, (unsigned long long)g->size.v);
        else if (v->alignment.v && !pow2(v->alignment.v))
            report(k, R_vpr_range_inside, SEG(g, "vpr.alignment"), v->alignment.pos,
                   "VPR alignment 0x%llX is not a power of two",
                   (unsigned long long)v->alignment.v);
    }
    if ((g->flags_written & FLAG_supports_cpu_host_aperture) && g->host.mode == CPU_NONE)
        report(k, R_cpu_host_aperture_needs_window, SEG(g, "flags"), g->flag_pos[FB_supports_cpu_host_aperture],
               "segment '%s' supports a CPU host aperture but has no 'cpu_host_aperture:' window", g->name);
    if (g->kind != SEG_MEMORY && (g->flags & FLAG_supports_cpu_host_aperture))
        report(k, R_cpu_host_aperture_memory, SEG(g, "cpu_host_aperture"), g->host.mode != CPU_NONE ? g->host.pos : g->flag_pos[FB_supports_cpu_host_aperture],
               "a CPU host aperture on %s segment '%s': it maps pages of a memory segment", seg_kind_name(g->kind),
               g->name);
    if (g->host.mode != CPU_NONE) {
        const HostAperture *h = &g->host;
        /* SizeInPages is "the size in CPU host pages" (DXGK_CPUHOSTAPERTURE),
         * but the aperture is mapped in the segment's pages: "The page size
         * is equal to the segment page size, reported in DXGK_SEGMENTFLAGS"
         * (DXGKARG_MAPCPUHOSTAPERTURE).  So host pages are counted, and a
         * Use64KBPages segment's aperture is a whole number of 64 KiB pages. */
        uint64_t unit = g->flags & FLAG_use_64kb_pages ? 64 * 1024 : page;
        if (!h->size.v || h->size.v % unit || h->size.v / page > UINT32_MAX)
            report(k, R_cpu_host_aperture_size, SEG(g, "cpu_host_aperture.size"), at(&h->size, g),
                   "host aperture of segment '%s' is 0x%llX bytes: not a non-zero number of %llu-byte pages that fits 32 bits",
                   g->name, (unsigned long long)h->size.v, (unsigned long long)unit);
        else if (h->mode == CPU_BAR && (h->offset.v > h->bar->size.v || h->size.v > h->bar->size.v - h->offset.v))
            report(k, R_cpu_host_aperture_size, ((On){g, NULL, h->bar, "cpu_host_aperture"}), h->pos,
                   "host aperture of segment '%s' does not fit in BAR '%s'", g->name, h->bar->name);
    }
}

/* ---- whole-spec rules ----------------------------------------------------------- */

static void check_names(Ck *k)
{
    Spec *s = k->s;
    if (!is_c_ident(s->name))
        report(k, R_names_c_ident, SEG(NULL, "board.name"), s->name_pos, "board name '%s' is not a C identifier",
               s->name);
    for (unsigned i = 0; i < s->nbars; i++)
        if (!is_c_ident(s->bars[i].name))
            report(k, R_names_c_ident, BAR(&s->bars[i], "name"), s->bars[i].pos, "BAR name '%s' is not a C identifier", s->bars[i].name);
    for (unsigned i = 0; i < s->nsegs; i++) {
        Segment *g = &s->segs[i];
        if (!is_c_ident(g->name))
            report(k, R_names_c_ident, SEG(g, "name"), g->pos, "segment name '%s' is not a C identifier", g->name);
        else if (!strcmp(g->name, "none"))
            report(k, R_names_c_ident, SEG(g, "name"), g->pos, "segment name 'none' is reserved: 'paging: { segment: none }' means no segment");
        if (g->near) {
            const char *bn = g->near->str;
            Diag *e = report(k, R_variant_new_segment, SEG(g, "name"), g->pos,
                             "the base has no segment '%s', so this variant adds one: did you mean '%s' (from %s)?",
                             g->name, bn, os_basename(g->near->pos.file->name));
            note(k, e, SEG(NULL, NULL), node_span(g->near), "the base's segment '%s' is described here", bn);
            fix(k, e, "name: %s to change that segment, or new: true to add this one", bn);
        }
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(s->segs[j].name, g->name)) {
                Diag *e = report(k, R_names_unique, SEG(g, "name"), g->pos, "a second segment named '%s'", g->name);
                note(k, e, SEG(&s->segs[j], "name"), s->segs[j].pos, "the first is here");
                break;
            }
        for (unsigned b = 0; b < g->nbanks; b++) {
            const char *bn = g->banks[b].name;
            if (!is_c_ident(bn))
                report(k, R_names_c_ident, BANK(g, &g->banks[b], "name"), g->banks[b].pos,
                       "bank name '%s' is not a C identifier", bn);
            for (unsigned c = 0; c < b; c++)
                if (!strcmp(g->banks[c].name, bn)) {
                    Diag *e = report(k, R_names_unique, BANK(g, &g->banks[b], "name"), g->banks[b].pos,
                                     "a second bank named '%s' in '%s'", bn,
                                     g->name);
                    note(k, e, BANK(g, &g->banks[c], "name"), g->banks[c].pos, "the first is here");
                    break;
                }
        }
    }
}

/* What a generated identifier is built from (NameClash: 1 the board's
 * name, 2 a BAR's, 3 a segment's), as a message names it, and where. */
static const char *clash_what(const Ck *k, unsigned kind, unsigned index, On *on, Pos *at)
{
    const Spec *s = k->s;
    Arena *a = k->d->arena;
    if (kind == 3) {
        *on = SEG(&s->segs[index], "name");
        *at = s->segs[index].pos;
        return arena_printf(a, "segment '%s'", s->segs[index].name);
    }
    if (kind == 2) {
        *on = BAR(&s->bars[index], "name");
        *at = s->bars[index].pos;
        return arena_printf(a, "BAR '%s'", s->bars[index].name);
    }
    *on = SEG(NULL, "board.name");
    *at = s->name_pos;
    return arena_printf(a, "board name '%s'", s->name);
}

/* An identifier the generated code would define twice: emit.c renders
 * every output (the self-test too) in memory and compares what they
 * define.  Reported at the more particular name of the two, else at the
 * later; a name written twice is names-unique's.  It renders, so it runs
 * last, on a spec nothing else was reported for. */
static void check_generated_names(Ck *k)
{
    unsigned n;
    const NameClash *c = emit_name_clashes(k->d->arena, k->s, &n);
    for (unsigned i = 0; i < n; i++, c++) {
        unsigned r = c->def[0].kind > c->def[1].kind ? 0 : 1, o = 1 - r;
        On on, on_o;
        Pos at, at_o;
        const char *what = clash_what(k, c->def[r].kind, c->def[r].index, &on, &at);
        if (c->def[o].kind >= 2 && (c->def[o].kind != c->def[r].kind || c->def[o].index != c->def[r].index)) {
            const char *other = clash_what(k, c->def[o].kind, c->def[o].index, &on_o, &at_o);
            Diag *e = report(k, R_names_generated_unique, on, at, "%s and %s would both define %s in the generated code",
                             other, what, c->ident);
            note(k, e, on_o, at_o, "%s is here", other);
        } else if (!strcmp(c->def[0].file, c->def[1].file)) {
            report(k, R_names_generated_unique, on, at, "%s would make %s define %s twice", what, c->def[0].file,
                   c->ident);
        } else {
            report(k, R_names_generated_unique, on, at, "%s would make %s define %s, which %s defines too", what,
                   c->def[r].file, c->ident, c->def[o].file);
        }
    }
}

static void check_layout(Ck *k)
{
    Spec *s = k->s;
    unsigned max = s->wddm >= 0x20 ? MAX_SEGMENTS - 1 : MAX_SEGMENTS;
    if (s->nsegs == 0)
        report(k, R_segments_none, SEG(NULL, "segments"), s->segs_pos, "the board describes no segment");
    if (s->nsegs > max)
        report(k, R_segments_max, SEG(&s->segs[max], NULL), s->segs[max].pos,
               "segment %u: at most %u segments can be described (WDDM %u.%u)", max + 1, max, s->wddm >> 4,
               s->wddm & 15);
    unsigned agps = 0, apertures = 0;
    Segment *agp = NULL; /* the first */
    for (unsigned i = 0; i < s->nsegs; i++) {
        Segment *g = &s->segs[i];
        if (g->kind == SEG_APERTURE)
            apertures++;
        if (g->kind != SEG_AGP)
            continue;
        if (agps++) {
            Diag *e = report(k, R_agp_at_most_one, SEG(g, "kind"), g->kind_pos, "a second AGP segment '%s'", g->name);
            note(k, e, SEG(agp, "kind"), agp->kind_pos, "the first AGP segment is here");
            continue;
        }
        agp = g;
        if (i + 1 != s->nsegs)
            report(k, R_agp_last, SEG(g, "kind"), g->kind_pos,
                   "AGP segment '%s' is not last: when no AGP aperture exists the ids of the segments after it "
                   "would shift", g->name);
    }
    if (s->nsegs && agps == s->nsegs)
        report(k, R_segments_none, SEG(&s->segs[0], "kind"), s->segs[0].kind_pos,
               "AGP segment '%s' is the board's only segment: without an AGP aperture the driver would report none",
               s->segs[0].name);
    if (s->wddm >= 0x20 && apertures != 1)
        report(k, R_wddm2_one_aperture, SEG(NULL, "board.wddm"), s->wddm_pos,
               "WDDM %u.%u needs exactly one aperture segment; found %u",
               s->wddm >> 4, s->wddm & 15, apertures);

    /* GPU ranges: pairwise, n <= 31 and the message names both. */
    for (unsigned i = 0; i < s->nsegs; i++) {
        Segment *a = &s->segs[i];
        if (a->kind == SEG_AGP || !a->size.v || a->unresolved)
            continue;
        for (unsigned j = 0; j < i; j++) {
            Segment *b = &s->segs[j];
            if (b->kind == SEG_AGP || !b->size.v || b->unresolved)
                continue;
            uint64_t ae = add_overflows(a->base.v, a->size.v) ? UINT64_MAX : a->base.v + a->size.v;
            uint64_t be = add_overflows(b->base.v, b->size.v) ? UINT64_MAX : b->base.v + b->size.v;
            if (a->base.v < be && b->base.v < ae) {
                Diag *e = report(k, R_segments_overlap, SEG(a, "base"), at(&a->base, a),
                                 "segment '%s' [0x%llX, 0x%llX) overlaps segment '%s' [0x%llX, 0x%llX)", a->name,
                                 (unsigned long long)a->base.v, (unsigned long long)ae, b->name,
                                 (unsigned long long)b->base.v, (unsigned long long)be);
                note(k, e, SEG(b, "base"), at(&b->base, b), "segment '%s' is placed here", b->name);
                if (be != UINT64_MAX)
                    fix(k, e, "base: %s.end (0x%llX), after segment '%s'", b->name, (unsigned long long)be, b->name);
                break;
            }
        }
    }
}

/* What the CPU reaches a segment through: its cpu_visible window or its
 * host aperture, at an offset in a BAR or at a fixed physical address. */
typedef struct Window {
    Segment *g;
    CpuMode mode;
    const Bar *bar;
    uint64_t start, size;
    Pos pos;
    const char *what, *key;
} Window;

/* Fixed addresses stay below 2^64; windows in one BAR, or at fixed
 * addresses, do not overlap (BAR-relative and fixed ones cannot be compared
 * before the BARs are assigned). */
static void check_cpu_windows(Ck *k)
{
    Spec *s = k->s;
    Window w[2 * MAX_SEGMENTS + 2];
    unsigned n = 0;
    for (unsigned i = 0; i < s->nsegs && n + 2 <= countof(w); i++) {
        Segment *g = &s->segs[i];
        const HostAperture *h = &g->host;
        if (g->unresolved)
            continue;
        if (g->cpu != CPU_NONE && (g->cpu != CPU_BAR || g->cpu_bar))
            w[n++] = (Window){g, g->cpu, g->cpu_bar, g->cpu == CPU_BAR ? g->cpu_offset.v : g->cpu_address.v,
                              g->size.v, g->cpu_pos, "CPU window", "cpu_visible"};
        if (h->mode != CPU_NONE)
            w[n++] = (Window){g, h->mode, h->bar, h->mode == CPU_BAR ? h->offset.v : h->address.v, h->size.v,
                              h->pos, "host aperture", "cpu_host_aperture"};
    }
    for (unsigned i = 0; i < n; i++) {
        const Window *a = &w[i];
        uint64_t ae = add_overflows(a->start, a->size) ? UINT64_MAX : a->start + a->size;
        if (a->mode == CPU_ADDRESS && add_overflows(a->start, a->size)) {
            report(k, R_range_overflow, SEG(a->g, a->key), a->pos,
                   "%s of segment '%s' ends past the 64-bit CPU address space (0x%llX + 0x%llX)", a->what,
                   a->g->name, (unsigned long long)a->start, (unsigned long long)a->size);
            continue;
        }
        for (unsigned j = 0; j < i; j++) {
            const Window *b = &w[j];
            if (b->g == a->g || b->mode != a->mode || b->bar != a->bar || !a->size || !b->size)
                continue;
            uint64_t be = add_overflows(b->start, b->size) ? UINT64_MAX : b->start + b->size;
            if (a->start < be && b->start < ae) {
                Diag *e = report(k, R_cpu_windows_overlap, SEG(a->g, a->key), a->pos,
                                 "%s of segment '%s' overlaps the %s of segment '%s'",
                                 a->what, a->g->name, b->what, b->g->name);
                note(k, e, SEG(b->g, b->key), b->pos, "the %s of segment '%s' is here", b->what, b->g->name);
                break;
            }
        }
    }
}

/* PCI configuration registers a BAR takes: two for a 64-bit BAR. */
static unsigned bar_regs(const Bar *b)
{
    return (b->bits.set ? b->bits.v == 64 : b->size.v > (1ull << 32)) ? 2 : 1;
}

static void check_bars(Ck *k)
{
    Spec *s = k->s;
    for (unsigned i = 0; i < s->nbars; i++) {
        const Bar *b = &s->bars[i];
        unsigned n = bar_regs(b);
        if (b->index.v + n > 6)
            report(k, R_bar_index, BAR(b, "index"), b->index.pos, n == 1 ? "BAR '%s' has index %llu; PCI BARs are 0 to 5"
                   : "BAR '%s' is 64-bit: at index %llu its upper half would be past BAR5", b->name,
                   (unsigned long long)b->index.v);
        for (unsigned j = 0; j < i; j++) {
            const Bar *o = &s->bars[j];
            if (b->index.v < o->index.v + bar_regs(o) && o->index.v < b->index.v + n) {
                Diag *e = report(k, R_bar_index, BAR(b, "index"), b->index.pos,
                                 o->index.v == b->index.v ? "BAR '%s' has the same index (%llu) as BAR '%s'"
                                 : "BAR '%s' at index %llu shares a register with 64-bit BAR '%s'",
                                 b->name, (unsigned long long)b->index.v, o->name);
                note(k, e, BAR(o, "index"), o->index.pos, "BAR '%s' is here", o->name);
                break;
            }
        }
        if (b->bits.set && b->bits.v != 32 && b->bits.v != 64)
            report(k, R_bar_size, BAR(b, "bits"), b->bits.pos, "BAR '%s' is %llu bits wide; a BAR is 32 or 64", b->name,
                   (unsigned long long)b->bits.v);
        else if (n == 1 && b->size.v > (1ull << 32))
            fix(k, report(k, R_bar_size, BAR(b, "bits"), b->bits.pos, "32-bit BAR '%s' cannot decode %s (at most 4 GiB)",
                       b->name, Q(b->size.v)),
                "bits: 64");
        if (!pow2(b->size.v)) {
            unsigned lg = 0;
            while (lg < 63 && (1ull << lg) < b->size.v)
                lg++;
            fix(k, report(k, R_bar_size, BAR(b, "size"), b->size.pos, "BAR '%s' size %s is not a power of two", b->name,
                       Q(b->size.v)),
                "size: %s (the power of two that holds it)", iec(k->d->arena, 1ull << lg));
        }
    }
}

static void check_paging(Ck *k)
{
    Spec *s = k->s;
    const Segment *g = s->paging.seg && !s->paging.seg->unresolved ? s->paging.seg : NULL;
    if (g && g->kind != SEG_APERTURE)
        report(k, R_paging_segment_aperture, SEG(NULL, "paging.segment"), s->paging.seg_pos,
               g->kind == SEG_AGP ? "paging segment '%s' is the AGP segment, which is absent without an AGP aperture"
                                  : "paging segment '%s' is a memory segment; it must be an aperture (or none)",
               g->name);
    /* VidMm allocates the paging buffer in that segment, within its commit limit. */
    uint64_t room = g ? (g->commit_limit.v && g->commit_limit.v < g->size.v ? g->commit_limit.v : g->size.v) : 0;
    if (g && g->kind == SEG_APERTURE && s->paging.buffer_size.v > room && s->paging.buffer_size.v <= UINT32_MAX) {
        Diag *e = report(k, R_paging_buffer_fits, SEG(NULL, "paging.buffer_size"), at(&s->paging.buffer_size, g),
                         "paging buffer_size %s does not fit in paging segment '%s' (commit limit %s)",
                         Q(s->paging.buffer_size.v), g->name, Q(room));
        note(k, e, SEG(NULL, "paging.segment"), s->paging.seg_pos, "the paging segment is named here");
        fix(k, e, "buffer_size: at most 0x%llX", (unsigned long long)room);
    }
}

/* The rows of segment `g`, or with g NULL the board's. */
static void check_widths(Ck *k, Segment *g)
{
    const Spec *s = k->s;
    for (unsigned f = 0; f < FIELD_COUNT; f++) {
        const FieldInfo *fi = &field_table[f];
        /* Bank ends are at most Size; SizeInPages counts pages
         * (cpu-host-aperture-size); 64-bit members hold any value. */
        bool seg = fi->scope == SC_SEG || fi->scope == SC_VPR || fi->scope == SC_QS4;
        if ((fi->width != W_32 && fi->width != W_SIZE_T) || f == F_host_size || seg != !!g ||
            (!g && fi->scope != SC_PAGING))
            continue;
        const Value *v = field_value((FieldId)f, g ? (const void *)g : (const void *)s);
        uint64_t max = field_max((FieldId)f, s);
        /* A default is reported where the value it copies is (size). */
        if (v->v <= max || (!v->set && v != &g->size))
            continue;
        RuleId rule = fi->width == W_SIZE_T      ? R_size_fits_size_t
                      : fi->scope == SC_VPR    ? R_vpr_range_inside
                      : fi->scope == SC_PAGING ? R_paging_size_uint
                                               : R_field_width;
        const char *pre = fi->scope == SC_VPR ? "vpr." : fi->scope == SC_PAGING ? "paging." : "";
        const char *key = arena_printf(k->d->arena, "%s%s", pre, fi->key);
        report(k, rule, SEG(g, key), v->pos, "%s%s (%s) does not fit %s, a %u-bit %s%s%s", key,
               g ? arena_printf(k->d->arena, " of segment '%s'", g->name) : "", Q(v->v), fi->dxgk,
               max == UINT32_MAX ? 32u : 64u, fi->width == W_32 ? "UINT" : "SIZE_T",
               fi->width == W_SIZE_T ? " on " : "", fi->width == W_SIZE_T ? arch_name(s->arch) : "");
    }
}

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
    Ck k = {s, c, d, s->page_size.v ? s->page_size.v : DEFAULT_PAGE_SIZE};
    Diag **mark = d->tail;
    unsigned errors = d->nerrors; /* the waived are not counted */
    if (s->page_size.v < DEFAULT_PAGE_SIZE || !pow2(s->page_size.v))
        report(&k, R_page_size_valid, SEG(NULL, "board.page_size"), s->page_size.pos,
               "page size %llu is not a power of two of at least %d", (unsigned long long)s->page_size.v,
               DEFAULT_PAGE_SIZE);
    check_names(&k);
    check_bars(&k);
    check_layout(&k);
    check_cpu_windows(&k);
    unsigned wants = ddi_forms_for(s->wddm);
    if (s->forms_from_option && (s->forms & ~wants)) {
        unsigned extra = s->forms & ~wants;
        report(&k, R_ddi_form_version, SEG(NULL, s->wddm_pos.file ? "board.wddm" : "board.name"),
               s->wddm_pos.file ? s->wddm_pos : s->name_pos,
               "a WDDM %u.%u driver is never asked for %s (it is asked for %s)", s->wddm >> 4, s->wddm & 15,
               extra & DDI_QS4 ? "QUERYSEGMENT4" : extra & DDI_QS3 ? "QUERYSEGMENT3" : "QUERYSEGMENT",
               wants == DDI_QS4 ? "QUERYSEGMENT4" : wants == DDI_QS3 ? "QUERYSEGMENT3" : "QUERYSEGMENT");
    }
    for (unsigned i = 0; i < s->nsegs; i++) {
        Segment *g = &s->segs[i];
        if (g->unresolved)
            continue;
        check_forms(&k, g);
        if (g->kind == SEG_AGP) {
            check_agp(&k, g);
            continue;
        }
        check_qs4_fields(&k, g);
        check_widths(&k, g);
        check_sizes(&k, g);
        check_cpu(&k, g);
        check_banks(&k, g);
        check_preserve(&k, g);
        check_flags(&k, g);
    }
    check_paging(&k);
    check_widths(&k, NULL);
    if (!diags_failed(d))
        check_generated_names(&k);
    /* Last: only now is it known which waivers were used. */
    for (unsigned i = 0; i < s->nsegs; i++)
        for (unsigned w = 0; w < s->segs[i].nwaivers; w++) {
            const Waiver *wv = &s->segs[i].waivers[w];
            if (!wv->used && !s->segs[i].unresolved)
                report(&k, R_waiver_unused, SEG(&s->segs[i], "waive"), wv->pos,
                       "waiver of '%s' on segment '%s' is unused: the rule does not fire there",
                       wv->rule, s->segs[i].name);
        }
    for (Diag *e = *mark; e; e = e->next)
        trace_defines(&k, e);
    return d->nerrors - errors;
}
