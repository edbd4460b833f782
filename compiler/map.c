/* SPDX-License-Identifier: MIT */
/* map.c - the memory map as a picture (`segc map`).
 *
 * What map_render draws is in segc.h.  A spec that breaks rules is drawn too:
 * the picture is how a person sees an overlap or a window that spills out of
 * its BAR.  Left to right:
 *
 *   address ticks | GPU address column | labels | one lane per BAR
 *
 * The GPU column is a broken axis, not a log scale (a person compares
 * sizes): the boundaries of segments, BIOS-reserved parts and ranges no bank
 * covers cut it into pieces; a piece no segment covers collapses to a
 * labelled zigzag; the rest share one linear scale, except that a piece
 * shorter than MIN_PIECE is drawn MIN_PIECE tall and its segment is marked
 * "not to scale".  A BAR lane is the same kind of axis over the BAR's bytes,
 * without collapsed gaps.  AGP and empty segments are boxes below the axis.
 *
 * Output is deterministic: no dates or absolute paths, coordinates with at
 * most two decimals, text widths estimated from character counts. */
#include "segc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry and style constants ------------------------------------------ */

enum { MAX_FINDS = 24 };

static const double MARGIN = 16, FS = 12, FS_SMALL = 10.5, FS_TITLE = 17, LINE = 15;
static const double AXIS_TARGET = 600;  /* height of the drawn pieces of the axis */
static const double MIN_PIECE = 28;     /* shortest piece of the GPU axis */
static const double GAP_H = 34;         /* a collapsed gap */
static const double MIN_WINDOW = 22;    /* shortest piece of a BAR lane */
static const double OFF_BOX_H = 44;     /* an AGP or empty segment box */
static const double LANE_MIN_W = 130, LANE_MIN_H = 120, LANE_GAP = 36;
static const double OV_W = 120;         /* the lane of overlap labels */

#define FONT "DejaVu Sans, Verdana, Arial, sans-serif"
#define MONO "DejaVu Sans Mono, Menlo, Consolas, monospace"
#define C_RED "#d00000"

/* ---- small text helpers ------------------------------------------------------- */

/* `s` escaped for XML text and attribute values.  Characters XML 1.0 cannot
 * carry at all (C0 controls, U+FFFE/U+FFFF) become U+FFFD.  With `wbr` (a
 * name in a table cell) a line break is allowed after each '_' (the words
 * of an identifier): table text otherwise wraps only at spaces (the page's
 * style), never inside a word. */
static const char *xml(Arena *a, const char *s, bool wbr)
{
    Buf t = {0}, *b = &t;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '_': buf_puts(b, wbr ? "_<wbr>" : "_"); break;
        case '&': buf_puts(b, "&amp;"); break;
        case '<': buf_puts(b, "&lt;"); break;
        case '>': buf_puts(b, "&gt;"); break;
        case '"': buf_puts(b, "&quot;"); break;
        case '\'': buf_puts(b, "&#39;"); break;
        case '\t': case '\n': buf_putc(b, (char)*p); break;
        default:
            if (*p < 0x20 || (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF))) {
                buf_puts(b, "\xEF\xBF\xBD");
                if (*p >= 0x20)
                    p += 2;
            } else {
                buf_putc(b, (char)*p);
            }
        }
    }
    const char *r = arena_strdup(a, t.p ? t.p : "");
    buf_free(&t);
    return r;
}

/* Width estimates, generous on purpose: DejaVu Sans averages below 0.62 em
 * for mixed text, so an estimate never lets text overflow its place. */
static double text_w(const char *s, double size, bool bold)
{
    return (double)utf8_count(s, strlen(s)) * size * (bold ? 0.68 : 0.62);
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* Coordinates: two decimals at most, trailing zeros dropped, never "-0". */
static const char *px(Arena *a, double v)
{
    if (fabs(v) < 0.005)
        v = 0;
    char *s = arena_printf(a, "%.2f", v);
    char *e = s + strlen(s) - 1;
    while (*e == '0')
        *e-- = 0;
    if (*e == '.')
        *e = 0;
    return s;
}

/* 0x8000_0000: upper-case hex grouped by four digits. */
static const char *hex(Arena *a, uint64_t v)
{
    char digits[17], out[2 + 16 + 3 + 1] = "0x", *o = out + 2;
    int n = snprintf(digits, sizeof digits, "%llX", (unsigned long long)v);
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 4 == 0)
            *o++ = '_';
        *o++ = digits[i];
    }
    *o = 0;
    return arena_strdup(a, out);
}

static const char *size_text(Arena *a, uint64_t v)
{
    return arena_printf(a, "%s (%s)", iec(a, v), hex(a, v));
}

/* "0x1000 \xE2\x80\x93 0x2000", and " (4 KiB)" if `sized`. */
static const char *range_text(Arena *a, uint64_t lo, uint64_t hi, bool sized)
{
    const char *t = arena_printf(a, "%s \xE2\x80\x93 %s", hex(a, lo), hex(a, hi));
    return sized ? arena_printf(a, "%s (%s)", t, iec(a, hi - lo)) : t;
}

/* base + size, saturated: a spec that breaks rules may wrap around. */
static uint64_t end_of(uint64_t base, uint64_t size)
{
    return base > UINT64_MAX - size ? UINT64_MAX : base + size;
}

/* ---- which diagnostics concern which segment or BAR ------------------------- */

/* One rule that fired on a segment or BAR (deduplicated by rule). */
typedef struct Find {
    Severity sev;
    const char *code;
} Find;

typedef struct Finds {
    Find f[MAX_FINDS];
    unsigned n;
    unsigned more; /* rules beyond MAX_FINDS */
} Finds;

static void finds_add(Finds *fs, const Diag *e)
{
    const char *code = code_name(e->code);
    unsigned i = 0;
    while (i < fs->n && strcmp(fs->f[i].code, code))
        i++;
    if (i < fs->n)
        fs->f[i].sev = e->sev > fs->f[i].sev ? e->sev : fs->f[i].sev;
    else if (fs->n == MAX_FINDS)
        fs->more++;
    else
        fs->f[fs->n++] = (Find){e->sev, code};
}

/* ---- axes --------------------------------------------------------------------- */

/* A piecewise-linear map from addresses to y (see the comment at the top). */
typedef struct Axis {
    uint64_t *pt; /* breakpoints, ascending */
    double *y;    /* y of each breakpoint */
    bool *big;    /* piece i (pt[i] .. pt[i+1]) drawn at `scale` */
    bool *empty;  /* no span covers piece i (collapsed, if the axis collapses) */
    unsigned n;   /* breakpoints */
    double scale; /* pixels per byte of the pieces drawn to scale */
} Axis;

/* A segment's GPU addresses or its CPU window's BAR bytes, on an axis. */
typedef struct Span {
    uint64_t lo, hi;
    double y0, y1;
    bool to_scale;
    unsigned track; /* side by side with the spans it overlaps */
} Span;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Only on an axis with points: every span adds two. */
static double axis_y(const Axis *ax, uint64_t v)
{
    if (v <= ax->pt[0])
        return ax->y[0];
    for (unsigned i = 0; i + 1 < ax->n; i++)
        if (v <= ax->pt[i + 1]) {
            if (v == ax->pt[i + 1])
                return ax->y[i + 1];
            double t = (double)(v - ax->pt[i]) / (double)(ax->pt[i + 1] - ax->pt[i]);
            return ax->y[i] + (ax->y[i + 1] - ax->y[i]) * t;
        }
    return ax->y[ax->n - 1];
}

static bool axis_to_scale(const Axis *ax, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i + 1 < ax->n; i++)
        if (ax->pt[i] >= lo && ax->pt[i + 1] <= hi && !ax->big[i])
            return false;
    return true;
}

/* 0 .. n-1 in ascending order of key, ties in index order. */
static unsigned *order(Arena *a, const double *key, unsigned n)
{
    unsigned *ord = arena_alloc(a, (n + 1) * sizeof *ord), j;
    for (unsigned i = 0; i < n; i++) {
        for (j = i; j > 0 && key[ord[j - 1]] > key[i]; j--)
            ord[j] = ord[j - 1];
        ord[j] = i;
    }
    return ord;
}

/* Side-by-side tracks for overlapping spans: taken in order of their start,
 * each span gets the first track where it overlaps no span placed before it.
 * Places the spans on the axis; returns the number of tracks. */
static unsigned place_spans(Arena *a, const Axis *ax, Span *const *sp, unsigned n)
{
    double *key = arena_alloc(a, (n + 1) * sizeof *key);
    for (unsigned i = 0; i < n; i++)
        key[i] = (double)sp[i]->lo;
    unsigned *ord = order(a, key, n), ntracks = 1;
    for (unsigned k = 0; k < n; k++) {
        Span *s = sp[ord[k]]; /* s->track starts at 0 (arena memory is zeroed) */
        for (unsigned q = 0; q < k; q++)
            if (sp[ord[q]]->track == s->track && sp[ord[q]]->lo < s->hi && s->lo < sp[ord[q]]->hi)
                s->track++, q = (unsigned)-1; /* start over on the next track */
        ntracks = s->track + 1 > ntracks ? s->track + 1 : ntracks;
        s->y0 = axis_y(ax, s->lo);
        s->y1 = axis_y(ax, s->hi);
        s->to_scale = axis_to_scale(ax, s->lo, s->hi);
    }
    return ntracks;
}

/* Builds an axis over the spans plus the extra points and places the spans
 * on it; returns their number of tracks.  With `collapse`, pieces no span
 * covers become gaps of GAP_H. */
static unsigned axis_build(Arena *a, Axis *ax, Span *const *sp, unsigned n, const uint64_t *extra, unsigned nextra,
                       bool collapse, double top, double target, double minh)
{
    ax->pt = arena_alloc(a, (2 * n + nextra) * sizeof *ax->pt);
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        ax->pt[m++] = sp[i]->lo;
        ax->pt[m++] = sp[i]->hi;
    }
    for (unsigned i = 0; i < nextra; i++)
        ax->pt[m++] = extra[i];
    qsort(ax->pt, m, sizeof *ax->pt, cmp_u64);
    unsigned u = 0;
    for (unsigned i = 0; i < m; i++)
        if (u == 0 || ax->pt[i] != ax->pt[u - 1])
            ax->pt[u++] = ax->pt[i];
    ax->n = u;
    ax->y = arena_alloc(a, u * sizeof *ax->y);
    ax->big = arena_alloc(a, u * sizeof *ax->big);
    ax->empty = arena_alloc(a, u * sizeof *ax->empty);
    unsigned sized = 0;
    for (unsigned i = 0; i + 1 < u; i++) {
        bool covered = false;
        for (unsigned k = 0; k < n && !covered; k++)
            covered = sp[k]->lo <= ax->pt[i] && sp[k]->hi >= ax->pt[i + 1];
        ax->empty[i] = !covered;
        ax->big[i] = covered || !collapse;
        sized += ax->big[i];
    }
    /* Largest scale at which the pieces fill `target`, given that pieces
     * too short at that scale are drawn `minh` tall.  Each round can only
     * move pieces from big to small, so it ends within `sized` rounds. */
    if (target < 2 * sized * minh)
        target = 2 * sized * minh;
    bool changed;
    do {
        double len = 0;
        unsigned small = sized;
        for (unsigned i = 0; i + 1 < u; i++)
            if (ax->big[i])
                len += (double)(ax->pt[i + 1] - ax->pt[i]), small--;
        ax->scale = len > 0 ? (target - small * minh) / len : 0;
        changed = false;
        for (unsigned i = 0; i + 1 < u; i++)
            if (ax->big[i] && (double)(ax->pt[i + 1] - ax->pt[i]) * ax->scale < minh)
                ax->big[i] = false, changed = true;
    } while (changed);
    double y = top;
    for (unsigned i = 0; i < u; i++) {
        ax->y[i] = y;
        if (i + 1 < u)
            y += collapse && ax->empty[i] ? GAP_H : ax->big[i] ? (double)(ax->pt[i + 1] - ax->pt[i]) * ax->scale : minh;
    }
    return place_spans(a, ax, sp, n);
}

/* ---- the model of the picture ------------------------------------------------- */

typedef struct Line {
    const char *text, *cls; /* "b" (bold), "" (plain), "muted", "err", "warn" */
} Line;

typedef struct Label {
    Line lines[9 + MAX_FINDS + 1]; /* what build_label says, the rules, "more" */
    unsigned n;
    double y, w;     /* top (n lines of LINE below it), width */
} Label;

typedef struct SegDraw {
    const Segment *g;
    bool axis; /* on the GPU address axis (else a box below it) */
    Span at;
    uint64_t fw, nb; /* where its BIOS-reserved part and the bytes no bank
                        covers start (hi: there are none) */
    double x, w;
    Finds finds;
    bool cpu_red;
    Label label;
    Span win; /* its CPU window: bytes of a BAR */
} SegDraw;

typedef struct Lane {
    const Bar *bar;
    Finds finds;
    SegDraw **wins; /* the segments CPU-visible through the BAR */
    unsigned nwins, ntracks;
    Axis ax;
    double x, w, slot_w;
    bool own_scale; /* not drawn at the GPU axis' scale */
    Label head;     /* its name, index and size, the rules it breaks */
} Lane;

typedef struct Map {
    Arena *a;
    const Spec *s;
    const Diags *d;
    const char *title, *file; /* "Memory map of NAME", the spec's file */
    Buf *b;
    SegDraw *sd;
    unsigned nsd;
    Lane *lanes;
    unsigned nlanes;
    Axis ax;
    unsigned lane_rows; /* rule lines under the tallest BAR header */
    unsigned ndiags;    /* not counting notes */
    /* columns, and the top and bottom of the axis */
    double tick_r, col_x, col_w, ov_w, label_x, label_w, width; /* ov_w: the overlaps' lane */
    double body_top, axis_bottom;
} Map;

static void line_add(Label *l, const char *cls, const char *text)
{
    ASSERT(l->n < countof(l->lines));
    l->lines[l->n++] = (Line){text, cls};
    l->w = dmax(l->w, text_w(text, FS, *cls && strcmp(cls, "muted")));
}

/* acc, sep and item (acc NULL: item alone). */
static const char *join(Map *m, const char *acc, const char *sep, const char *item)
{
    return acc ? arena_printf(m->a, "%s%s%s", acc, sep, item) : item;
}

/* A line "error: rule" for each rule in fs, of class `cls` plus "err" or
 * "warn". */
static void finds_lines(Map *m, Label *l, const Finds *fs, const char *cls)
{
    for (unsigned i = 0; i < fs->n; i++)
        line_add(l, arena_printf(m->a, "%s%s", cls, fs->f[i].sev == SEV_WARNING ? "warn" : "err"),
                 arena_printf(m->a, "%s: %s", severity_name(fs->f[i].sev), fs->f[i].code));
}

/* "error: rule" for each rule in fs, the first after `first`, the others
 * after `sep`; "" for none. */
static const char *finds_text(Map *m, const Finds *fs, const char *first, const char *sep)
{
    const char *t = "";
    for (unsigned i = 0; i < fs->n; i++)
        t = arena_printf(m->a, "%s%s%s: %s", t, i ? sep : first, severity_name(fs->f[i].sev), fs->f[i].code);
    return t;
}

static const char *cpu_text(Map *m, const Segment *g)
{
    Arena *a = m->a;
    if (g->cpu == CPU_BAR && g->cpu_bar)
        return arena_printf(a, "BAR %s bytes %s", g->cpu_bar->name,
                            range_text(a, g->cpu_offset.v, end_of(g->cpu_offset.v, g->size.v), false));
    if (g->cpu == CPU_ADDRESS)
        return arena_printf(a, "physical address %s", hex(a, g->cpu_address.v));
    return "not visible";
}

static bool has_split(const Segment *g)
{
    return g->kind == SEG_MEMORY && g->system_memory_end.set && g->system_memory_end.v < g->size.v;
}

/* Does a line of small text fit in a shape w wide and h tall? */
static bool fits(double w, double h, const char *text, bool bold)
{
    return h >= FS_SMALL + 3 && text_w(text, FS_SMALL, bold) + 10 <= w;
}

static const char *bank_text(Map *m, const Bank *bk)
{
    return arena_printf(m->a, "%s \xC2\xB7 %s", bk->name ? bk->name : "?", iec(m->a, bk->end - bk->start));
}

/* GPU address range of bank i, clamped to its segment. */
static void bank_range(const SegDraw *sd, const Bank *bk, uint64_t *lo, uint64_t *hi)
{
    uint64_t n = sd->at.hi - sd->at.lo;
    *lo = sd->at.lo + (bk->start < n ? bk->start : n);
    *hi = sd->at.lo + (bk->end < n ? bk->end : n);
}

/* The banks too short to carry their name in the column, for the label. */
static const char *hidden_banks(Map *m, const SegDraw *sd)
{
    unsigned hidden = 0;
    const char *t = NULL;
    for (unsigned i = 0; sd->axis && i < sd->g->nbanks; i++) {
        uint64_t lo, hi;
        bank_range(sd, &sd->g->banks[i], &lo, &hi);
        const char *bt = bank_text(m, &sd->g->banks[i]);
        if (!fits(sd->w, axis_y(&m->ax, hi) - axis_y(&m->ax, lo), bt, false) && hidden++ < 4)
            t = join(m, t, ", ", bt);
    }
    if (hidden > 4)
        t = arena_printf(m->a, "%s and %u more", t, hidden - 4);
    return t ? arena_printf(m->a, "banks: %s", t) : NULL;
}

static void build_label(Map *m, SegDraw *sd)
{
    Arena *a = m->a;
    const Segment *g = sd->g;
    Label *l = &sd->label;
    line_add(l, "b", arena_printf(a, "%s  (id %u)", g->name ? g->name : "?", g->id));
    if (g->kind == SEG_AGP) {
        line_add(l, "", "agp: runtime aperture");
        line_add(l, "muted", "address and size come from the chipset");
        line_add(l, "muted", "at run time; absent without an AGP aperture");
    } else {
        line_add(l, "", arena_printf(a, "%s, %s%s", seg_kind_name(g->kind), size_text(a, g->size.v),
                                     sd->axis && !sd->at.to_scale ? ", not to scale" : ""));
        line_add(l, "muted", sd->axis ? arena_printf(a, "GPU %s", range_text(a, sd->at.lo, sd->at.hi, false))
                                      : arena_printf(a, "GPU %s, empty: not on the axis", hex(a, g->base.v)));
        if (g->commit_limit.v != g->size.v)
            line_add(l, "muted", arena_printf(a, "commit limit %s", iec(a, g->commit_limit.v)));
        line_add(l, "muted", arena_printf(a, "CPU: %s", cpu_text(m, g)));
        if (g->flags_written)
            line_add(l, "muted", arena_printf(a, "flags: %s", flags_text(a, g->flags_written, ", ", false)));
        const char *hidden = hidden_banks(m, sd);
        if (hidden)
            line_add(l, "muted", hidden);
        if (has_split(g))
            line_add(l, "muted", arena_printf(a, "driver-reserved %s, BIOS-reserved %s", iec(a, g->system_memory_end.v + 1),
                                              iec(a, g->size.v - g->system_memory_end.v - 1)));
        if (sd->nb < sd->at.hi)
            line_add(l, "muted", arena_printf(a, "no bank: offsets %s",
                                              range_text(a, sd->nb - sd->at.lo, sd->at.hi - sd->at.lo, true)));
    }
    finds_lines(m, l, &sd->finds, "");
    if (sd->finds.more)
        line_add(l, "err", arena_printf(a, "and %u more rules", sd->finds.more));
}

/* ---- layout ----------------------------------------------------------------------- */

/* The first subject of e or of its notes that names segment (or BAR) `id`
 * (1-based; Subject in segc.h), or NULL. */
static const Subject *subject_of(const Diag *e, unsigned id, bool bar)
{
    if ((bar ? e->about.bar : e->about.seg) == id)
        return &e->about;
    for (const Note *n = e->notes; n; n = n->next)
        if ((bar ? n->about.bar : n->about.seg) == id)
            return &n->about;
    return NULL;
}

/* A segment's CPU window is outlined when the finding is about its
 * cpu_visible (or a key under it). */
static void collect_finds(Map *m)
{
    for (const Diag *e = m->d->head; e; e = e->next) {
        if (e->sev == SEV_NOTE)
            continue;
        m->ndiags++;
        for (unsigned i = 0; i < m->nsd; i++) {
            const Subject *on = subject_of(e, i + 1, false);
            if (on) {
                finds_add(&m->sd[i].finds, e);
                m->sd[i].cpu_red |= on->field && !strncmp(on->field, "cpu_visible", 11);
            }
        }
        for (unsigned i = 0; i < m->nlanes; i++)
            if (subject_of(e, i + 1, true))
                finds_add(&m->lanes[i].finds, e);
    }
}

static void layout_axis(Map *m)
{
    unsigned n = 0, nx = 0;
    Span **sp = arena_alloc(m->a, (m->nsd + 1) * sizeof *sp);
    uint64_t *extra = arena_alloc(m->a, (2 * m->nsd + 1) * sizeof *extra);
    for (unsigned i = 0; i < m->nsd; i++)
        if (m->sd[i].axis) {
            sp[n++] = &m->sd[i].at;
            extra[nx++] = m->sd[i].fw; /* own pieces: never thinner than MIN_PIECE */
            extra[nx++] = m->sd[i].nb;
        }
    extra[nx] = 0;
    unsigned ntracks = axis_build(m->a, &m->ax, sp, n, extra, n ? nx + 1 : 0, true, m->body_top, AXIS_TARGET, MIN_PIECE);
    if (ntracks > 1) /* overlaps: a lane of their own on the right */
        m->ov_w = OV_W, m->col_w += OV_W;
    for (unsigned i = 0; i < m->nsd; i++) {
        SegDraw *sd = &m->sd[i];
        sd->w = sd->axis ? (m->col_w - m->ov_w) / ntracks : m->col_w;
        sd->x = m->col_x + (sd->axis ? sd->at.track * sd->w : 0);
    }
    m->axis_bottom = n ? m->ax.y[m->ax.n - 1] : m->body_top;
}

/* The header's lines; a lane's tracks are as wide as the longest name in
 * them (the lane at least LANE_MIN_W), and the lane as wide as its header. */
static void lane_width(Map *m, Lane *ln)
{
    Label *h = &ln->head;
    line_add(h, "b", arena_printf(m->a, "BAR %s", ln->bar->name));
    line_add(h, "small", arena_printf(m->a, "index %llu, %s", (unsigned long long)ln->bar->index.v,
                                      iec(m->a, ln->bar->size.v)));
    finds_lines(m, h, &ln->finds, "small ");
    double name_w = 0, hw = dmax(text_w(h->lines[0].text, FS, true), text_w(h->lines[1].text, FS_SMALL, false));
    for (unsigned k = 0; k < ln->nwins; k++)
        name_w = dmax(name_w, text_w(ln->wins[k]->g->name ? ln->wins[k]->g->name : "?", FS_SMALL, true));
    ln->slot_w = dmax(name_w + 16, LANE_MIN_W / ln->ntracks);
    ln->w = ln->slot_w * ln->ntracks;
    for (unsigned f = 0; f < ln->finds.n; f++)
        hw = dmax(hw, text_w(ln->finds.f[f].code, FS_SMALL, true) + text_w("warning: ", FS_SMALL, true));
    if (hw > ln->w) {
        ln->slot_w *= hw / ln->w;
        ln->w = hw;
    }
}

/* A BAR lane is drawn at the GPU axis' scale when that makes it neither
 * shorter than LANE_MIN_H nor taller than the axis; otherwise it is
 * stretched or squeezed to the nearer bound (its scale is its own then). */
static void layout_lanes(Map *m, double axis_h)
{
    for (unsigned i = 0; i < m->nlanes; i++) {
        Lane *ln = &m->lanes[i];
        Span **sp = arena_alloc(m->a, (m->nsd + 1) * sizeof *sp);
        ln->wins = arena_alloc(m->a, (m->nsd + 1) * sizeof *ln->wins);
        uint64_t extent = ln->bar->size.v; /* the BAR, or further if a window spills out */
        for (unsigned k = 0; k < m->nsd; k++) { /* the CPU windows, in segment order */
            const Segment *g = m->sd[k].g;
            if (g->cpu != CPU_BAR || g->cpu_bar != ln->bar || g->size.v == 0)
                continue;
            Span *w = &m->sd[k].win;
            w->lo = g->cpu_offset.v;
            w->hi = end_of(g->cpu_offset.v, g->size.v);
            extent = w->hi > extent ? w->hi : extent;
            ln->wins[ln->nwins] = &m->sd[k];
            sp[ln->nwins++] = w;
        }
        double lane_h = (double)extent * m->ax.scale;
        ln->own_scale = lane_h > axis_h || lane_h < LANE_MIN_H;
        lane_h = lane_h > axis_h ? axis_h : lane_h < LANE_MIN_H ? LANE_MIN_H : lane_h;
        uint64_t extra[2] = {0, ln->bar->size.v};
        ln->ntracks = axis_build(m->a, &ln->ax, sp, ln->nwins, extra, 2, false, m->body_top, lane_h, MIN_WINDOW);
        lane_width(m, ln);
    }
}

/* Labels keep their order along the axis and never overlap: each goes to
 * its segment's centre, or just below the previous label if that is lower. */
static double place_labels(Map *m)
{
    unsigned n = m->nsd;
    double *mid = arena_alloc(m->a, (n + 1) * sizeof *mid), bottom;
    for (unsigned i = 0; i < n; i++)
        mid[i] = (m->sd[i].at.y0 + m->sd[i].at.y1) / 2;
    unsigned *ord = order(m->a, mid, n);
    bottom = m->body_top - 8;
    for (unsigned k = 0; k < n; k++) {
        Label *l = &m->sd[ord[k]].label;
        l->y = dmax(dmax(mid[ord[k]] - l->n * LINE / 2, bottom + 8), m->body_top);
        bottom = l->y + l->n * LINE;
    }
    return n ? bottom : m->body_top;
}

/* ---- drawing ------------------------------------------------------------------------ */

static void title_el(Map *m, const char *text)
{
    buf_printf(m->b, "<title>%s</title>", xml(m->a, text, false));
}

/* ` name="value"`, the value escaped (NULL: "?"). */
static const char *attr(Map *m, const char *name, const char *value)
{
    return arena_printf(m->a, " %s=\"%s\"", name, xml(m->a, value ? value : "?", false));
}

/* <rect class="cls"ATTRS x y width height> with its tooltip. */
static void rect(Map *m, const char *cls, const char *attrs, double x, double y, double w, double h, const char *tip)
{
    Arena *a = m->a;
    buf_printf(m->b, "<rect class=\"%s\"%s x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\">", cls, attrs ? attrs : "",
               px(a, x), px(a, y), px(a, w), px(a, h));
    title_el(m, tip);
    buf_puts(m->b, "</rect>\n");
}

/* On the shape x, y0 .. y1, w wide: unless `to_scale`, the zigzag "drawn
 * taller than to scale" mark on its right edge; if `red` (what breaks the
 * rules in fs) is not NULL, the red outline just inside its edge. */
static void shape_marks(Map *m, const char *attrs, double x, double y0, double w, double y1, bool to_scale,
                        const char *red, const Finds *fs)
{
    Arena *a = m->a;
    double h = y1 - y0;
    if (!to_scale)
        buf_printf(m->b, "<path class=\"nts\" d=\"M%s %s l-6 4 l6 4 l-6 4 l6 4\"><title>not to scale: drawn taller than its size</title></path>\n",
                   px(a, x + w - 3), px(a, (y0 + y1) / 2 - 8));
    if (red)
        rect(m, "redline", attrs, x + 1.5, y0 + 1.5, w - 3, h - 3 > 0 ? h - 3 : 0,
             arena_printf(a, "%s breaks rules:%s", red, finds_text(m, fs, "\n", "\n")));
}

/* <text class="cls" x y [text-anchor]>text</text>; class "in" is small text
 * inside a shape, white-haloed so it reads over any fill. */
static void text_at(Map *m, const char *cls, double x, double y, const char *anchor, const char *text)
{
    buf_printf(m->b, "<text class=\"%s\" x=\"%s\" y=\"%s\"", cls, px(m->a, x), px(m->a, y));
    if (anchor)
        buf_printf(m->b, " text-anchor=\"%s\"", anchor);
    buf_printf(m->b, ">%s</text>\n", xml(m->a, text, false));
}

/* Centres the first of `text` and `alt` that fits in the shape x, y0 .. y1,
 * w wide; either may be two lines ("first\nsecond", the first one `bold`). */
static void label_in(Map *m, double x, double y0, double w, double y1, bool bold, const char *text, const char *alt)
{
    double h = y1 - y0, cx = x + w / 2;
    const char *alts[] = {text, alt};
    for (unsigned i = 0; i < 2 && alts[i]; i++) {
        const char *t = alts[i], *l2 = strchr(t, '\n');
        const char *l1 = l2 ? arena_printf(m->a, "%.*s", (int)(l2 - t), t) : t;
        if (!fits(w, h, l1, bold) || (l2 && (h < 2 * LINE + 4 || !fits(w, h, ++l2, false))))
            continue;
        text_at(m, bold ? "in b" : "in", cx, l2 ? y0 + h / 2 - 2 : y0 + h / 2 + FS_SMALL * 0.35, "middle", l1);
        if (l2)
            text_at(m, "in", cx, y0 + h / 2 + LINE - 2, "middle", l2);
        return;
    }
}

/* A shape with its tooltip and, if one fits, its text. */
static void mark(Map *m, const char *cls, const char *attrs, double x, double y0, double w, double y1, const char *text,
                 const char *alt, const char *tip)
{
    rect(m, cls, attrs, x, y0, w, y1 - y0, tip);
    label_in(m, x, y0, w, y1, false, text, alt);
}

/* A segment with system_memory_end: its BIOS-reserved part and the cut. */
static void draw_split(Map *m, const SegDraw *sd)
{
    Arena *a = m->a;
    const Segment *g = sd->g;
    double yc = axis_y(&m->ax, sd->fw);
    mark(m, "fwres", NULL, sd->x, yc, sd->w, sd->at.y1, arena_printf(a, "BIOS-reserved %s", iec(a, sd->at.hi - sd->fw)),
         arena_printf(a, "BIOS %s", iec(a, sd->at.hi - sd->fw)),
         arena_printf(a, "%s: BIOS-reserved %s, offsets %s: firmware memory, purged across hibernate", g->name,
                      iec(a, sd->at.hi - sd->fw), range_text(a, sd->fw - sd->at.lo, sd->at.hi - sd->at.lo, false)));
    buf_printf(m->b, "<line class=\"cut\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\">", px(a, sd->x), px(a, yc),
               px(a, sd->x + sd->w), px(a, yc));
    title_el(m, arena_printf(a, "%s: system_memory_end %s (inclusive): driver-reserved below, BIOS-reserved above",
                             g->name, hex(a, g->system_memory_end.v)));
    buf_puts(m->b, "</line>\n");
}

/* The banks, and the bytes past the last of them. */
static void draw_banks(Map *m, const SegDraw *sd)
{
    Arena *a = m->a;
    const Segment *g = sd->g;
    for (unsigned i = 0; i < g->nbanks; i++) {
        const Bank *bk = &g->banks[i];
        uint64_t blo, bhi;
        bank_range(sd, bk, &blo, &bhi);
        mark(m, "bank", attr(m, "data-bank", bk->name), sd->x, axis_y(&m->ax, blo), sd->w, axis_y(&m->ax, bhi),
             bank_text(m, bk), NULL,
             arena_printf(a, "bank %u '%s' of %s: offsets %s, %s", i + 1, bk->name ? bk->name : "?", g->name,
                          range_text(a, bk->start, bk->end, false), size_text(a, bk->end - bk->start)));
    }
    if (sd->nb < sd->at.hi)
        mark(m, "nobank", NULL, sd->x, axis_y(&m->ax, sd->nb), sd->w, sd->at.y1,
             arena_printf(a, "no bank: %s", iec(a, sd->at.hi - sd->nb)), "no bank",
             arena_printf(a, "%s: offsets %s are in no bank", g->name,
                          range_text(a, sd->nb - sd->at.lo, sd->at.hi - sd->at.lo, true)));
}

static void draw_segment(Map *m, const SegDraw *sd)
{
    Arena *a = m->a;
    const Segment *g = sd->g;
    bool red = sd->finds.n > 0;
    const char *id = arena_printf(a, "%s data-id=\"%u\"", attr(m, "data-name", g->name), g->id);
    const char *tip = NULL; /* the label's lines */
    for (unsigned i = 0; i < sd->label.n; i++)
        tip = join(m, tip, "\n", sd->label.lines[i].text);
    buf_printf(m->b, "<g class=\"segment\"%s>\n", id);
    rect(m, arena_printf(a, "seg %s%s", seg_kind_name(g->kind), red ? " bad" : ""),
         arena_printf(a, "%s data-axis=\"%d\" data-scale=\"%d\"", id, sd->axis, sd->axis && sd->at.to_scale), sd->x,
         sd->at.y0, sd->w, sd->at.y1 - sd->at.y0, tip);
    if (sd->axis && sd->fw < sd->at.hi)
        draw_split(m, sd);
    if (sd->axis && g->nbanks) {
        draw_banks(m, sd);
    } else {
        const char *t = g->kind == SEG_AGP ? arena_printf(a, "%s: runtime aperture", g->name)
                        : !sd->axis        ? arena_printf(a, "%s: size 0", g->name)
                        : sd->fw < sd->at.hi
                            ? arena_printf(a, "%s\ndriver-reserved %s", g->name, iec(a, sd->fw - sd->at.lo))
                            : g->name;
        label_in(m, sd->x, sd->at.y0, sd->w, sd->axis ? axis_y(&m->ax, sd->fw) : sd->at.y1, true, t, g->name);
    }
    shape_marks(m, NULL, sd->x, sd->at.y0, sd->w, sd->at.y1, !sd->axis || sd->at.to_scale, red ? g->name : NULL,
                &sd->finds);
    buf_puts(m->b, "</g>\n");
}

static void draw_label(Map *m, const SegDraw *sd)
{
    Arena *a = m->a;
    const Label *l = &sd->label;
    double ax = sd->x + sd->w, ay = (sd->at.y0 + sd->at.y1) / 2, ly = l->y + LINE * 0.5;
    buf_printf(m->b, "<path class=\"leader\" d=\"M%s %s H%s L%s %s H%s\">", px(a, ax), px(a, ay),
               px(a, m->col_x + m->col_w + 10), px(a, m->label_x - 14), px(a, ly), px(a, m->label_x - 4));
    title_el(m, arena_printf(a, "label of %s", sd->g->name));
    buf_printf(m->b, "</path>\n<g class=\"label\"%s>\n", attr(m, "data-name", sd->g->name));
    for (unsigned i = 0; i < l->n; i++)
        text_at(m, l->lines[i].cls, m->label_x, l->y + i * LINE + FS, NULL, l->lines[i].text);
    buf_puts(m->b, "</g>\n");
}

static void draw_ticks(Map *m)
{
    Arena *a = m->a;
    double last = -1e9;
    buf_puts(m->b, "<g class=\"ticks\">\n");
    for (unsigned i = 0; i < m->ax.n; i++) {
        double y = m->ax.y[i];
        if (y - last < FS_SMALL + 1)
            continue;
        last = y;
        buf_printf(m->b, "<line class=\"tick\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"><title>GPU address %s</title></line>\n",
                   px(a, m->tick_r + 2), px(a, y), px(a, m->col_x), px(a, y), hex(a, m->ax.pt[i]));
        text_at(m, "mono", m->tick_r, y + FS_SMALL * 0.35, "end", hex(a, m->ax.pt[i]));
    }
    buf_puts(m->b, "</g>\n");
}

static void draw_gaps(Map *m)
{
    Buf *b = m->b;
    Arena *a = m->a;
    for (unsigned i = 0; i + 1 < m->ax.n; i++) {
        if (!m->ax.empty[i])
            continue;
        double y0 = m->ax.y[i], y1 = m->ax.y[i + 1], x0 = m->col_x, x1 = m->col_x + m->col_w;
        uint64_t lo = m->ax.pt[i], hi = m->ax.pt[i + 1];
        buf_printf(b, "<g class=\"gap\" data-lo=\"%s\" data-hi=\"%s\">", hex(a, lo), hex(a, hi));
        title_el(m, arena_printf(a, "unused GPU addresses %s, not drawn to scale", range_text(a, lo, hi, true)));
        buf_printf(b, "\n<rect class=\"gapbg\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", px(a, x0), px(a, y0),
                   px(a, x1 - x0), px(a, y1 - y0));
        for (int k = 0; k < 2; k++) {
            double yz = k ? y1 - 5 : y0 + 5;
            buf_printf(b, "<path class=\"zig\" d=\"M%s %s", px(a, x0), px(a, yz));
            for (double x = x0 + 8; x <= x1 + 0.01; x += 8)
                buf_printf(b, " L%s %s", px(a, x), px(a, yz + ((int)((x - x0) / 8) % 2 ? -4 : 4)));
            buf_puts(b, "\"/>\n");
        }
        label_in(m, x0, y0, x1 - x0, y1, false, arena_printf(a, "gap: %s unused", iec(a, hi - lo)), NULL);
        buf_puts(b, "</g>\n");
    }
}

/* Each overlap of two segments: shaded across the column and labelled in
 * the overlaps' lane on its right. */
static void draw_overlaps(Map *m)
{
    Arena *a = m->a;
    for (unsigned i = 0; i < m->nsd; i++)
        for (unsigned j = i + 1; j < m->nsd; j++) {
            const SegDraw *p = &m->sd[i], *q = &m->sd[j];
            if (!p->axis || !q->axis || !(p->at.lo < q->at.hi && q->at.lo < p->at.hi))
                continue;
            uint64_t lo = p->at.lo > q->at.lo ? p->at.lo : q->at.lo, hi = p->at.hi < q->at.hi ? p->at.hi : q->at.hi;
            double y0 = axis_y(&m->ax, lo), y1 = axis_y(&m->ax, hi), xo = m->col_x + m->col_w - m->ov_w;
            buf_printf(m->b, "<g class=\"overlap\"%s%s>\n", attr(m, "data-a", p->g->name), attr(m, "data-b", q->g->name));
            rect(m, "overlap", NULL, m->col_x - 4, y0, m->col_w + 8, y1 - y0,
                 arena_printf(a, "overlap of %s and %s: GPU %s", p->g->name, q->g->name, range_text(a, lo, hi, true)));
            label_in(m, xo, y0, m->ov_w, y1, true, arena_printf(a, "overlap\n%s", iec(a, hi - lo)),
                     arena_printf(a, "overlap %s", iec(a, hi - lo)));
            buf_puts(m->b, "</g>\n");
        }
}

/* Stretches of the BAR no segment is visible through. */
static void lane_unused(Map *m, const Lane *ln)
{
    Arena *a = m->a;
    for (unsigned i = 0; i + 1 < ln->ax.n; i++) {
        uint64_t lo = ln->ax.pt[i], hi = ln->ax.pt[i + 1];
        if (hi > ln->bar->size.v)
            break;
        if (!ln->ax.empty[i])
            continue;
        const char *what = ln->nwins ? arena_printf(a, "bytes %s", range_text(a, lo, hi, false))
                                     : arena_printf(a, "index %llu", (unsigned long long)ln->bar->index.v);
        mark(m, "unused", NULL, ln->x, ln->ax.y[i], ln->w, ln->ax.y[i + 1],
             arena_printf(a, "no segment\n%s \xC2\xB7 %s", what, iec(a, hi - lo)), "no segment",
             arena_printf(a, "BAR %s (index %llu) bytes %s: no segment", ln->bar->name,
                          (unsigned long long)ln->bar->index.v, range_text(a, lo, hi, true)));
    }
}

/* A segment's CPU window in a BAR lane. */
static void draw_window(Map *m, const Lane *ln, const SegDraw *sd)
{
    Arena *a = m->a;
    const Segment *g = sd->g;
    const Span *w = &sd->win;
    const char *bar = ln->bar->name, *name = attr(m, "data-name", g->name);
    double x = ln->x + w->track * ln->slot_w, h = w->y1 - w->y0;
    rect(m, arena_printf(a, "win %s%s", seg_kind_name(g->kind), sd->cpu_red ? " bad" : ""),
         arena_printf(a, "%s%s data-scale=\"%d\"", name, attr(m, "data-bar", bar), w->to_scale), x, w->y0,
         ln->slot_w, h,
         arena_printf(a, "%s is CPU-visible through BAR %s bytes %s%s", g->name, bar,
                      range_text(a, w->lo, w->hi, true), w->to_scale ? "" : "\ndrawn taller than to scale"));
    label_in(m, x, w->y0, ln->slot_w, w->y1, true, arena_printf(a, "%s\n+%s", g->name, hex(a, w->lo)), g->name);
    shape_marks(m, name, x, w->y0, ln->slot_w, w->y1, w->to_scale,
                sd->cpu_red ? arena_printf(a, "the CPU window of %s", g->name) : NULL, &sd->finds);
}

static void draw_lane(Map *m, const Lane *ln)
{
    Arena *a = m->a;
    const Bar *bar = ln->bar;
    double top = m->body_top;
    buf_printf(m->b, "<g class=\"lane\"%s>\n", attr(m, "data-bar", bar->name));
    /* The BAR's name, index and size, and the rules it breaks, above its lane. */
    double yh = top - 36 - 12.0 * m->lane_rows;
    for (unsigned i = 0; i < ln->head.n; i++)
        text_at(m, ln->head.lines[i].cls, ln->x, i ? yh + 14 + 12.0 * (i - 1) : yh, NULL, ln->head.lines[i].text);
    double ybar = axis_y(&ln->ax, bar->size.v);
    rect(m, ln->finds.n ? "bar bad" : "bar",
         arena_printf(a, "%s data-scale=\"%d\"", attr(m, "data-bar", bar->name), axis_to_scale(&ln->ax, 0, bar->size.v)),
         ln->x, top, ln->w, ybar - top,
         arena_printf(a, "BAR %s (index %llu): %s; the CPU reaches each segment drawn here through these bytes%s",
                      bar->name, (unsigned long long)bar->index.v, size_text(a, bar->size.v), finds_text(m, &ln->finds, "\n", "\n")));
    lane_unused(m, ln);
    for (unsigned k = 0; k < ln->nwins; k++)
        draw_window(m, ln, ln->wins[k]);
    double yend = ln->ax.n ? ln->ax.y[ln->ax.n - 1] : top;
    if (yend > ybar + 0.01) {
        rect(m, "spill", NULL, ln->x, ybar, ln->w, yend - ybar,
             arena_printf(a, "past the end of BAR %s (%s): the CPU cannot reach these bytes", bar->name,
                          hex(a, bar->size.v)));
        label_in(m, ln->x, yend - 2 * FS_SMALL, ln->w, yend, false, "past the BAR's end", NULL);
    }
    if (ln->finds.n)
        rect(m, "redline", NULL, ln->x - 2, top - 2, ln->w + 4, ybar - top + 4,
             arena_printf(a, "BAR %s breaks rules:%s", bar->name, finds_text(m, &ln->finds, "\n", "\n")));
    buf_puts(m->b, "</g>\n");
}

/* The legend: each key is drawn in its own coordinates, an 18 x 14 rect of
 * class `cls` and what `more` adds on it. */
static const struct {
    const char *cls, *more, *text, *tip;
} legend[] = {
    {"seg memory", "", "memory segment",
     "kind: memory - a linear memory-space segment with storage of its own (VRAM, a carve-out)"},
    {"seg aperture", "", "aperture segment", "kind: aperture - GPU addresses the driver maps system pages into"},
    {"seg agp", "", "AGP runtime aperture",
     "kind: agp - the AGP aperture; its address and size are known only at run time"},
    {"fwres", "", "BIOS-reserved part", "offsets past system_memory_end: firmware memory, purged across hibernate"},
    {"nobank", "", "in no bank", "bytes of a segment past its last bank"},
    {"unused", "", "BAR bytes, no segment", "bytes of a BAR no segment is visible through"},
    {"gapbg", "<path class=\"zig\" d=\"M0 7 l4.5 -3 l4.5 6 l4.5 -6 l4.5 3\"/>", "collapsed gap (not to scale)",
     "a collapsed gap between segments; its true size is written in it"},
    {"seg memory", "<path class=\"nts\" d=\"M16 1.75 l-5 3.5 l5 3.5 l-5 3.5\"/>", "drawn taller than to scale",
     "a segment too small to see at the common scale is drawn taller; its true size is in its label"},
    {"seg memory", "<rect class=\"redline\" x=\"1.5\" y=\"1.5\" width=\"15\" height=\"11\"/>",
     "breaks a rule (see label)", "a segment, window or BAR a diagnostic points at"},
    {"overlap", "", "overlapping addresses", "GPU addresses claimed by two segments"},
};

/* Lays the legend out in rows from y (and draws it with `draw`); returns
 * the bottom of its last row. */
static double draw_legend(Map *m, double y, bool draw)
{
    double x = MARGIN, right = m->width - MARGIN, w = 0;
    for (size_t i = 0; i < countof(legend); i++)
        w = dmax(w, 18 + 6 + text_w(legend[i].text, FS_SMALL, false) + 18);
    if (draw)
        buf_puts(m->b, "<g class=\"legend\">\n");
    for (size_t i = 0; i < countof(legend); i++) {
        if (x > MARGIN && x + w > right + 0.01) {
            x = MARGIN;
            y += 22;
        }
        if (draw) {
            buf_printf(m->b, "<g class=\"key\" transform=\"translate(%s %s)\">", px(m->a, x), px(m->a, y));
            title_el(m, legend[i].tip);
            buf_printf(m->b, "<rect class=\"%s\" width=\"18\" height=\"14\"/>%s<text class=\"small\" x=\"24\" y=\"11\">%s</text></g>\n",
                       legend[i].cls, legend[i].more, legend[i].text);
        }
        x += w;
    }
    if (draw)
        buf_puts(m->b, "</g>\n");
    return y + 14;
}

static const char *diag_line(Map *m, Pos p, Severity sev, Code c, const char *msg)
{
    Arena *a = m->a;
    const char *code = code_name(c);
    SrcLoc l = src_loc(p);
    const char *where = p.file ? arena_printf(a, "%s:%u:%u: ", p.file->name, l.line, l.col) : "";
    return arena_printf(a, "%s%s: %s%s%s%s", where, severity_name(sev), code ? "[" : "", code ? code : "",
                        code ? "] " : "", msg);
}

/* Cuts text to about `w` pixels (at FS_SMALL), ending it with an ellipsis. */
static const char *fit(Map *m, const char *text, double w)
{
    if (text_w(text, FS_SMALL, false) <= w)
        return text;
    size_t keep = (size_t)(w / (FS_SMALL * 0.62));
    keep = keep > 1 ? keep - 1 : 0;
    const char *p = text;
    for (size_t n = 0; *p && n < keep; n++) {
        p++;
        while (((unsigned char)*p & 0xC0) == 0x80)
            p++;
    }
    return arena_printf(m->a, "%.*s\xE2\x80\xA6", (int)(p - text), text);
}

/* ---- the whole picture ---------------------------------------------------------- */

/* Columns, left to right: tick labels, the GPU column, labels. */
static void plan_columns(Map *m)
{
    double tick_chars = 3; /* "0x0" */
    m->col_w = 200;
    for (unsigned i = 0; i < m->nsd; i++) {
        const Segment *g = m->sd[i].g;
        tick_chars = dmax(tick_chars, (double)strlen(hex(m->a, m->sd[i].at.hi)));
        for (unsigned k = 0; k < g->nbanks; k++)
            m->col_w = dmax(m->col_w, text_w(bank_text(m, &g->banks[k]), FS_SMALL, false) + 16);
        m->col_w = dmax(m->col_w, text_w(g->name ? g->name : "?", FS_SMALL, true) + 16);
    }
    m->col_w = m->col_w > 320 ? 320 : m->col_w;
    m->tick_r = MARGIN + tick_chars * FS_SMALL * 0.61; /* DejaVu Sans Mono: 0.6 em */
    m->col_x = m->tick_r + 10;
}

/* Lays the picture out with its body (the axis, labels and lanes) at `top`. */
static void plan(Map *m, double top)
{
    const Spec *s = m->s;
    m->body_top = top;
    m->nsd = s->nsegs;
    m->sd = arena_alloc(m->a, (s->nsegs + 1) * sizeof *m->sd);
    m->nlanes = s->nbars;
    m->lanes = arena_alloc(m->a, (s->nbars + 1) * sizeof *m->lanes);
    for (unsigned i = 0; i < s->nbars; i++)
        m->lanes[i].bar = &s->bars[i];
    for (unsigned i = 0; i < s->nsegs; i++) {
        SegDraw *sd = &m->sd[i];
        const Segment *g = &s->segs[i];
        sd->g = g;
        sd->axis = g->kind != SEG_AGP && g->size.v > 0;
        sd->at.lo = g->base.v;
        sd->at.hi = end_of(g->base.v, g->size.v);
        uint64_t banked = g->nbanks ? g->banks[g->nbanks - 1].end : g->size.v;
        sd->fw = has_split(g) && g->system_memory_end.v < sd->at.hi - sd->at.lo ? sd->at.lo + g->system_memory_end.v + 1 : sd->at.hi;
        sd->nb = banked < sd->at.hi - sd->at.lo ? sd->at.lo + banked : sd->at.hi;
    }
    collect_finds(m);
    plan_columns(m);
    layout_axis(m);
    m->label_x = m->col_x + m->col_w + 40;
    for (unsigned i = 0; i < m->nsd; i++) {
        build_label(m, &m->sd[i]);
        m->label_w = dmax(m->label_w, m->sd[i].label.w);
    }
    double axis_h = m->axis_bottom - m->body_top;
    layout_lanes(m, dmax(axis_h, LANE_MIN_H));
    double x = m->label_x + m->label_w + 40;
    for (unsigned i = 0; i < m->nlanes; i++) {
        m->lanes[i].x = x;
        x += m->lanes[i].w + LANE_GAP;
        if (m->lanes[i].finds.n > m->lane_rows)
            m->lane_rows = m->lanes[i].finds.n;
    }
    m->width = dmax((m->nlanes ? x - LANE_GAP : m->label_x + m->label_w) + MARGIN, 720);
}

/* Places the boxes below the axis and the labels; returns the bottom of
 * everything drawn above the footer. */
static double place_body(Map *m)
{
    double y = m->axis_bottom + (m->ax.n ? 40 : 0); /* AGP and empty segments */
    bool any_off = false;
    for (unsigned i = 0; i < m->nsd; i++) {
        SegDraw *sd = &m->sd[i];
        if (sd->axis)
            continue;
        any_off = true;
        sd->at.y0 = y;
        sd->at.y1 = y + OFF_BOX_H;
        y += OFF_BOX_H + 14;
    }
    double labels_bottom = place_labels(m);
    double bottom = any_off ? y - 14 : m->axis_bottom;
    for (const Lane *ln = m->lanes; ln < m->lanes + m->nlanes; ln++)
        bottom = dmax(bottom, ln->ax.n ? ln->ax.y[ln->ax.n - 1] : m->body_top);
    return dmax(labels_bottom, bottom);
}

/* <svg>, its <title>, the style sheet and the fill patterns. */
static void svg_head(Map *m, double height)
{
    Arena *a = m->a;
    Buf *b = m->b;
    buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"" FONT "\" font-size=\"%s\">\n",
               px(a, m->width), px(a, height), px(a, m->width), px(a, height), px(a, FS));
    title_el(m, arena_printf(a, "%s (%s)", m->title, m->file));
    buf_puts(b, "\n<style>\n"
                "text { fill: #1a1a1a; } text.b, text.in.b { font-weight: bold; } text.muted { fill: #444; }\n"
                "text.err, text.warn { fill: " C_RED "; font-weight: bold; }\n"
                "text.small, text.in, text.mono, text.diag { font-size: 10.5px; }\n"
                "text.mono { font-family: " MONO "; fill: #333; } text.h { font-size: 17px; font-weight: bold; }\n"
                "text.in { paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }\n"
                "rect.seg { stroke-width: 1.5px; } rect.memory { fill: #cfe2f3; stroke: #2b5d8a; }\n"
                "rect.aperture { fill: url(#pat-aperture); stroke: #4f7d35; }\n"
                "rect.agp { fill: url(#pat-agp); stroke: #b36b00; stroke-dasharray: 6 4; }\n"
                "rect.bank { fill: none; stroke: #2b5d8a; stroke-width: 0.75px; stroke-dasharray: 3 2; }\n"
                "rect.fwres { fill: url(#pat-fw); stroke: #555; stroke-width: 1px; } line.cut { stroke: #333; stroke-width: 1.5px; }\n"
                "rect.bar { fill: #fafafa; stroke: #555; stroke-width: 1.5px; }\n"
                "rect.unused { fill: #f2f2f2; stroke: #bbb; stroke-width: 0.75px; stroke-dasharray: 2 2; }\n"
                "rect.spill, rect.nobank { fill: url(#pat-spill); stroke: " C_RED "; stroke-dasharray: 4 3; }\n"
                "rect.redline { fill: none; stroke: " C_RED "; stroke-width: 3px; }\n"
                "rect.overlap { fill: " C_RED "; fill-opacity: 0.18; stroke: " C_RED "; stroke-dasharray: 5 3; }\n"
                "rect.gapbg { fill: #fff; stroke: none; } path.zig { fill: none; stroke: #888; stroke-width: 1.25px; }\n"
                "path.nts { fill: none; stroke: #000; stroke-width: 1.5px; }\n"
                "path.leader, line.tick { fill: none; stroke: #999; stroke-width: 0.75px; }\n"
                "line.rule { stroke: #ccc; stroke-width: 1px; }\n"
                "</style>\n<defs>\n");
    /* id, size, rotation, fill, stripe */
    static const char *const pat[][5] = {
        {"aperture", "8", "45", "#e4f1da", "<line y2=\"8\" stroke=\"#8fbf6f\" stroke-width=\"3\"/>"},
        {"agp", "10", "0", "#fdf0dc", "<path d=\"M0 0 L10 10 M10 0 L0 10\" stroke=\"#e0a85a\"/>"},
        {"fw", "6", "-45", "#e0e0e0", "<line y2=\"6\" stroke=\"#808080\" stroke-width=\"2\"/>"},
        {"spill", "8", "45", "none", "<line y2=\"8\" stroke=\"" C_RED "\" stroke-opacity=\"0.35\" stroke-width=\"3\"/>"},
    };
    for (size_t i = 0; i < countof(pat); i++)
        buf_printf(b, "<pattern id=\"pat-%s\" width=\"%s\" height=\"%s\" patternUnits=\"userSpaceOnUse\" "
                      "patternTransform=\"rotate(%s)\"><rect width=\"%s\" height=\"%s\" fill=\"%s\"/>%s</pattern>\n",
                   pat[i][0], pat[i][1], pat[i][1], pat[i][2], pat[i][1], pat[i][1], pat[i][3], pat[i][4]);
    buf_puts(b, "</defs>\n");
}

/* The title, the line under it, the legend and the column headers. */
static void svg_titles(Map *m)
{
    const Spec *s = m->s;
    Arena *a = m->a;
    text_at(m, "h", MARGIN, MARGIN + FS_TITLE, NULL, m->title);
    unsigned nbanks = 0;
    for (unsigned i = 0; i < s->nsegs; i++)
        nbanks += s->segs[i].nbanks;
    text_at(m, "muted", MARGIN, MARGIN + FS_TITLE + 17, NULL,
            arena_printf(a, "%s \xC2\xB7 WDDM %u.%u \xC2\xB7 %s \xC2\xB7 page %s \xC2\xB7 %u segment%s, %u bank%s, %u BAR%s",
                         m->file, s->wddm >> 4, s->wddm & 15, arch_name(s->arch), iec(a, s->page_size.v),
                         s->nsegs, s->nsegs == 1 ? "" : "s", nbanks, nbanks == 1 ? "" : "s", s->nbars,
                         s->nbars == 1 ? "" : "s"));
    draw_legend(m, MARGIN + FS_TITLE + 31, true);
    double col_top = m->body_top - 14;
    text_at(m, "b", m->col_x, col_top - 16, NULL, "GPU address space");
    text_at(m, "small", m->col_x, col_top - 3, NULL, "low addresses at the top; gaps collapsed");
    text_at(m, "b", m->label_x, col_top - 16, NULL, "Segments");
}

/* The segments, the gaps and overlaps on the axis, the boxes below it, the
 * labels and the BAR lanes. */
static void svg_body(Map *m)
{
    Arena *a = m->a;
    draw_ticks(m);
    for (unsigned i = 0; i < m->nsd; i++)
        if (m->sd[i].axis)
            draw_segment(m, &m->sd[i]);
    draw_gaps(m);
    draw_overlaps(m);
    double off_header = m->axis_bottom + (m->ax.n ? 40 : 0) - 14;
    for (unsigned i = 0, first = 1; i < m->nsd; i++) {
        if (m->sd[i].axis)
            continue;
        if (first) {
            buf_printf(m->b, "<line class=\"rule\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"><title>below: segments with no place on the GPU address axis</title></line>\n",
                       px(a, m->col_x), px(a, off_header - 14), px(a, m->col_x + m->col_w), px(a, off_header - 14));
            text_at(m, "small", m->col_x, off_header, NULL, "not on the address axis:");
            first = 0;
        }
        draw_segment(m, &m->sd[i]);
    }
    for (unsigned i = 0; i < m->nsd; i++)
        draw_label(m, &m->sd[i]);
    for (unsigned i = 0; i < m->nlanes; i++)
        draw_lane(m, &m->lanes[i]);
}

static const char *scale_note(Map *m)
{
    if (m->ax.scale <= 0)
        return "no segment on the GPU address axis";
    double bpp = 1.0 / m->ax.scale;
    uint64_t per = bpp >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)(bpp + 0.5);
    const char *own = NULL;
    for (unsigned i = 0; i < m->nlanes; i++)
        if (m->lanes[i].own_scale)
            own = join(m, own, ", ", m->lanes[i].bar->name);
    return arena_printf(m->a, "Scale: 1 px = %s of GPU addresses%s%s%s", iec(m->a, per),
                        !m->nlanes ? "." : own ? "; drawn at a scale of its own: BAR " : " and BAR bytes.",
                        own ? own : "", own ? "." : "");
}

/* The scale note and every diagnostic, one line each. */
static void svg_foot(Map *m, double foot)
{
    Arena *a = m->a;
    text_at(m, "small", MARGIN, foot, NULL, scale_note(m));
    if (!m->ndiags)
        return;
    double dy = foot + 30;
    buf_printf(m->b, "<text class=\"b\" x=\"%s\" y=\"%s\">Diagnostics (%u)</text>\n", px(a, MARGIN), px(a, dy), m->ndiags);
    for (const Diag *e = m->d->head; e; e = e->next) {
        if (e->sev == SEV_NOTE)
            continue;
        dy += LINE;
        const char *full = diag_line(m, e->pos, e->sev, e->code, e->msg);
        buf_printf(m->b, "<text class=\"diag %s\" x=\"%s\" y=\"%s\">", e->sev == SEV_WARNING ? "warn" : "err",
                   px(a, MARGIN), px(a, dy));
        title_el(m, full);
        buf_printf(m->b, "%s</text>\n", xml(a, fit(m, full, m->width - 2 * MARGIN), false));
    }
}

static void svg(Map *m)
{
    /* The legend's height needs the width, which needs the layout: of a
     * copy of the Map, which plan fills from the zeroes it starts with. */
    Map first = *m;
    plan(&first, 0);
    plan(m, draw_legend(&first, MARGIN + FS_TITLE + 31, false) + 24 + 36 + 12.0 * first.lane_rows);
    double foot = place_body(m) + 30;
    svg_head(m, foot + 16 + (m->ndiags ? 26 + m->ndiags * LINE : 0) + MARGIN);
    svg_titles(m);
    svg_body(m);
    svg_foot(m, foot);
    buf_puts(m->b, "</svg>\n");
}

/* ---- HTML: the SVG, a table of the segments, the diagnostics; Markdown ---------- */

/* "From FILE by segc V. WDDM M.m, ARCH, page size N." */
static const char *page_from(Map *m)
{
    const Spec *s = m->s;
    return arena_printf(m->a, "From %s by segc %s. WDDM %u.%u, %s, page size %s.", m->file, SEGC_VERSION,
                        s->wddm >> 4, s->wddm & 15, arch_name(s->arch), iec(m->a, s->page_size.v));
}

static void html_head(Map *m)
{
    Arena *a = m->a;
    Buf *b = m->b;
    const char *title = xml(a, m->title, false);
    buf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n", title);
    buf_puts(b, "<style>\n"
                "body { font-family: " FONT "; font-size: 14px; color: #1a1a1a; margin: 16px; }\n"
                "h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }\n"
                "table { border-collapse: collapse; max-width: 100%; }\n"
                "th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: left; vertical-align: top; }\n"
                "th { background: #eee; } td.num { font-family: " MONO "; } tr.bad td { background: #fdecec; }\n"
                ".err { color: " C_RED "; font-weight: bold; } .warn { color: " C_RED "; }\n"
                "li { font-family: " MONO "; font-size: 12px; overflow-wrap: break-word; } .map { overflow-x: auto; }\n"
                "</style>\n</head>\n<body>\n");
    buf_printf(b, "<h1>%s</h1>\n<p>%s Hover over a shape for its details.</p>\n<div class=\"map\">\n", title,
               xml(a, page_from(m), false));
}

/* ---- the tables of the HTML page and of the Markdown page ------------------------ */

/* The segments table.  The page lists the banks in their cell, Markdown
 * counts them (its Banks table lists them). */
enum { COL_ID, COL_NAME, COL_KIND, COL_FLAGS, COL_BASE, COL_SIZE, COL_END, COL_COMMIT, COL_CPU, COL_BANKS, COL_RULES,
       SEG_COLS };
static const char *const seg_heads[SEG_COLS] = {
    "id", "name", "kind", "flags", "base", "size", "end (exclusive)", "commit limit", "CPU window", "banks",
    "rules broken",
};
/* The columns set in the monospaced font (HTML). */
#define SEG_NUM (1u << COL_ID | 1u << COL_BASE | 1u << COL_SIZE | 1u << COL_END | 1u << COL_COMMIT)

static void seg_cells(Map *m, const SegDraw *sd, const char *cell[SEG_COLS])
{
    Arena *a = m->a;
    const Segment *g = sd->g;
    bool agp = g->kind == SEG_AGP;
    const char *flags = flags_text(a, g->flags, " | ", true);
    cell[COL_ID] = arena_printf(a, "%u", g->id);
    cell[COL_NAME] = g->name ? g->name : "?";
    cell[COL_KIND] = agp ? "agp (runtime aperture)" : seg_kind_name(g->kind);
    cell[COL_FLAGS] = arena_printf(a, "%s (0x%08X)", flags ? flags : "none", (unsigned)g->flags);
    cell[COL_BASE] = agp ? "set at run time" : hex(a, g->base.v);
    cell[COL_SIZE] = agp ? "set at run time" : size_text(a, g->size.v);
    cell[COL_END] = agp ? "set at run time" : hex(a, sd->at.hi);
    cell[COL_COMMIT] = agp ? "set at run time" : size_text(a, g->commit_limit.v);
    cell[COL_CPU] = !has_split(g) ? cpu_text(m, g)
                                  : arena_printf(a, "%s; driver-reserved up to offset %s (system_memory_end), BIOS-reserved above",
                                                 cpu_text(m, g), hex(a, g->system_memory_end.v));
    cell[COL_BANKS] = g->nbanks ? arena_printf(a, "%u", g->nbanks) : "none";
    cell[COL_RULES] = finds_text(m, &sd->finds, "", ", ");
}

/* The BARs table. */
enum { BAR_COLS = 4 };
static const char *const bar_heads[BAR_COLS] = {"name", "index", "size", "segments"};

static void bar_cells(Map *m, const Lane *ln, const char *cell[BAR_COLS])
{
    Arena *a = m->a;
    const char *t = NULL;
    for (unsigned k = 0; k < ln->nwins; k++)
        t = join(m, t, "; ", arena_printf(a, "%s: %s", ln->wins[k]->g->name,
                                          range_text(a, ln->wins[k]->win.lo, ln->wins[k]->win.hi, false)));
    cell[0] = ln->bar->name;
    cell[1] = arena_printf(a, "%llu", (unsigned long long)ln->bar->index.v);
    cell[2] = size_text(a, ln->bar->size.v);
    cell[3] = t ? t : "no segment";
}

/* The allocation classes table: each value in hex and by name
 * ("0x7: local (2), visible (1), gart (3)"). */
enum { CLASS_COLS = 7 };
static const char *const class_heads[CLASS_COLS] = {"class", "value", "write set", "read set", "eviction set",
                                                    "preference", "bank hint"};

static const char *placed(Map *m, uint32_t v, const PlaceList *l)
{
    return arena_printf(m->a, "0x%X: %s", v, places_text(m->a, l, true));
}

static void class_cells(Map *m, unsigned i, const char *cell[CLASS_COLS])
{
    const AllocClass *c = &m->s->classes[i];
    cell[0] = c->name ? c->name : "?";
    cell[1] = arena_printf(m->a, "%u", i);
    cell[2] = placed(m, places_mask(&c->write), &c->write);
    cell[3] = placed(m, places_mask(class_read(c)), class_read(c));
    cell[4] = placed(m, places_mask(&c->evict), &c->evict);
    cell[5] = placed(m, class_preferred(c), &c->prefer);
    cell[6] = placed(m, class_hinted_bank(c), &c->banks);
}

/* ---- Markdown: the tables and the diagnostics, for reviews and wikis ---------- */

static bool alnum(char c)
{
    return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* `s` as inline Markdown text (CommonMark with GitHub's tables and
 * strikethrough), never at a line's start: the characters that open
 * markup, entities, autolinks or HTML backslash-escaped, '|' too (a table
 * cell's end), and '_' unless inside a word (where it opens nothing: a
 * name or 0x8000_0000 stays readable); line breaks become spaces. */
static void md_text(Buf *b, const char *s)
{
    for (const char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r')
            buf_putc(b, ' ');
        else if (strchr("\\`*[]<>|~&", *p) || (*p == '_' && !(p > s && alnum(p[-1]) && alnum(p[1]))))
            buf_printf(b, "\\%c", *p);
        else
            buf_putc(b, *p);
}

static void md_row(Buf *b, const char *const *cell, unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        buf_puts(b, "| ");
        md_text(b, cell[c]);
        buf_putc(b, ' ');
    }
    buf_puts(b, "|\n");
}

/* `text` escaped for Markdown, or for HTML. */
static void put_text(Map *m, bool md, const char *text)
{
    if (md)
        md_text(m->b, text);
    else
        buf_puts(m->b, xml(m->a, text, false));
}

/* ---- the tables, of the Markdown page (md) or of the HTML page ------------------ */

/* A table's title and head row: Markdown's, or the page's (its id `id`). */
static void table_head(Map *m, bool md, const char *title, const char *id, const char *const *head, unsigned n)
{
    if (md) {
        buf_printf(m->b, "\n## %s\n\n", title);
        md_row(m->b, head, n);
        for (unsigned c = 0; c < n; c++)
            buf_puts(m->b, "|---");
        buf_puts(m->b, "|\n");
        return;
    }
    buf_printf(m->b, "<h2>%s</h2>\n<table id=\"%s\">\n<tr>", title, id);
    for (unsigned c = 0; c < n; c++)
        buf_printf(m->b, "<th>%s</th>", head[c]);
    buf_puts(m->b, "</tr>\n");
}

/* The page's row: its start and its first n cells, `bad` shaded, column
 * `name` a name, the columns in the mask `num` monospaced. */
static void html_cells(Map *m, bool bad, const char *const *cell, unsigned n, unsigned name, unsigned num)
{
    buf_printf(m->b, "<tr%s>", bad ? " class=\"bad\"" : "");
    for (unsigned c = 0; c < n; c++)
        buf_printf(m->b, "<td%s>%s</td>", num & (1u << c) ? " class=\"num\"" : "",
                   xml(m->a, cell[c], c == name));
}

/* A row of n cells, the first a name (html_cells' `bad` and `num`). */
static void table_row(Map *m, bool md, bool bad, const char *const *cell, unsigned n, unsigned num)
{
    if (md) {
        md_row(m->b, cell, n);
        return;
    }
    html_cells(m, bad, cell, n, 0, num);
    buf_puts(m->b, "</tr>\n");
}

/* The page's segment row lists the banks, one per line, and marks the
 * rules broken by severity. */
static void html_segment(Map *m, const SegDraw *sd, const char *const *cell)
{
    Arena *a = m->a;
    Buf *b = m->b;
    const Segment *g = sd->g;
    html_cells(m, sd->finds.n, cell, COL_BANKS, COL_NAME, SEG_NUM);
    buf_puts(b, g->nbanks ? "<td class=\"num\">" : "<td>none");
    for (unsigned k = 0; k < g->nbanks; k++) {
        const Bank *bk = &g->banks[k];
        buf_printf(b, "%s%s: %s", k ? "<br>" : "", xml(a, bk->name ? bk->name : "?", true),
                   xml(a, range_text(a, bk->start, bk->end, true), false));
    }
    buf_puts(b, "</td><td>");
    for (unsigned k = 0; k < sd->finds.n; k++)
        buf_printf(b, "%s<span class=\"%s\">%s</span>", k ? ", " : "", sd->finds.f[k].sev == SEV_WARNING ? "warn" : "err",
                   xml(a, sd->finds.f[k].code, false));
    buf_puts(b, "</td></tr>\n");
}

/* The segments, allocation classes, DMA set and BARs, and for Markdown
 * (which counts a segment's banks) the banks and CPU windows; then the
 * findings, each with its notes. */
static void tables(Map *m, bool md)
{
    Arena *a = m->a;
    Buf *b = m->b;
    const char *table_end = md ? "" : "</table>\n";
    table_head(m, md, "Segments", "segments", seg_heads, SEG_COLS);
    unsigned banked = 0, windows = 0;
    for (unsigned i = 0; i < m->nsd; i++) {
        const SegDraw *sd = &m->sd[i];
        const char *cell[SEG_COLS];
        seg_cells(m, sd, cell);
        if (md)
            md_row(b, cell, SEG_COLS);
        else
            html_segment(m, sd, cell);
        banked += sd->g->nbanks > 0;
        windows += sd->g->cpu != CPU_NONE;
    }
    buf_puts(b, table_end);
    if (m->s->nclasses) {
        table_head(m, md, "Allocation classes", "classes", class_heads, CLASS_COLS);
        for (unsigned i = 0; i < m->s->nclasses; i++) {
            const char *cell[CLASS_COLS];
            class_cells(m, i, cell);
            table_row(m, md, false, cell, CLASS_COLS, 1u << 1);
        }
        buf_puts(b, table_end);
    }
    if (m->s->dma.set) { /* "DMA buffer segment set: 0x4: gart (3)" */
        buf_puts(b, md ? "\n" : "<p id=\"dma\">");
        put_text(m, md, arena_printf(a, "DMA buffer segment set: %s",
                                     placed(m, places_mask(&m->s->dma), &m->s->dma)));
        buf_puts(b, md ? "\n" : "</p>\n");
    }
    if (md && banked) {
        static const char *const bank_head[] = {"segment", "bank", "id", "offsets", "size"};
        table_head(m, md, "Banks", NULL, bank_head, countof(bank_head));
        for (unsigned i = 0; i < m->nsd; i++)
            for (unsigned k = 0; k < m->sd[i].g->nbanks; k++) {
                const Segment *g = m->sd[i].g;
                const Bank *bk = &g->banks[k];
                const char *cell[] = {g->name ? g->name : "?", bk->name ? bk->name : "?", arena_printf(a, "%u", k + 1),
                                      range_text(a, bk->start, bk->end, false), size_text(a, bk->end - bk->start)};
                md_row(b, cell, countof(cell));
            }
    }
    if (m->nlanes) {
        table_head(m, md, "BARs", "bars", bar_heads, BAR_COLS);
        for (unsigned i = 0; i < m->nlanes; i++) {
            const char *cell[BAR_COLS];
            bar_cells(m, &m->lanes[i], cell);
            table_row(m, md, m->lanes[i].finds.n, cell, BAR_COLS, 1u << 1 | 1u << 2);
        }
        buf_puts(b, table_end);
    }
    if (md && windows) {
        static const char *const win_head[] = {"segment", "CPU window"};
        table_head(m, md, "CPU windows", NULL, win_head, countof(win_head));
        for (unsigned i = 0; i < m->nsd; i++)
            if (m->sd[i].g->cpu != CPU_NONE) {
                const char *cell[] = {m->sd[i].g->name ? m->sd[i].g->name : "?", cpu_text(m, m->sd[i].g)};
                md_row(b, cell, countof(cell));
            }
    }
    buf_puts(b, md ? "\n## Diagnostics\n\n" : "<h2>Diagnostics</h2>\n");
    if (!m->ndiags)
        buf_puts(b, md ? "None: the spec passes every rule.\n" : "<p>None: the spec passes every rule.</p>\n");
    else if (!md)
        buf_puts(b, "<ul id=\"diagnostics\">\n");
    for (const Diag *e = m->d->head; e; e = e->next) {
        if (e->sev == SEV_NOTE)
            continue;
        buf_puts(b, md ? "- " : e->sev == SEV_WARNING ? "<li class=\"warn\">" : "<li class=\"err\">");
        put_text(m, md, diag_line(m, e->pos, e->sev, e->code, e->msg));
        for (const Note *n = e->notes; n; n = n->next) {
            buf_puts(b, md ? "\n  - " : "<br>");
            put_text(m, md, diag_line(m, n->pos, SEV_NOTE, CODE_NONE, n->msg));
        }
        buf_puts(b, md ? "\n" : "</li>\n");
    }
    if (m->ndiags && !md)
        buf_puts(b, "</ul>\n");
}

static void markdown(Map *m)
{
    buf_puts(m->b, "# ");
    md_text(m->b, m->title);
    buf_puts(m->b, "\n\n");
    md_text(m->b, page_from(m));
    buf_putc(m->b, '\n');
    tables(m, true);
}

static void html(Map *m, const Buf *svgtext)
{
    html_head(m);
    buf_putn(m->b, svgtext->p, svgtext->len);
    buf_puts(m->b, "</div>\n");
    tables(m, false);
    buf_puts(m->b, "</body>\n</html>\n");
}

bool map_render(Arena *a, const Spec *s, const Diags *d, MapFormat format, Buf *out)
{
    ASSERT(s && d && out);
    Map m = {.a = a, .s = s, .d = d, .title = arena_printf(a, "Memory map of %s", s->name ? s->name : "?"),
             .file = s->file ? s->file->name : "?"};
    Buf pic = {0};
    /* The page and the Markdown read what drawing the picture laid out. */
    m.b = format == MAP_SVG ? out : &pic;
    if (format == MAP_SVG) /* the file's name is in the picture's <title> */
        buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- drawn by segc %s -->\n", SEGC_VERSION);
    svg(&m);
    m.b = out;
    if (format == MAP_HTML)
        html(&m, &pic);
    else if (format == MAP_MARKDOWN)
        markdown(&m);
    buf_free(&pic);
    return true;
}
