/* SPDX-License-Identifier: MIT */
/*
 * expr.c - expressions: the parse driver, the tree builders the grammar
 * calls, the evaluator and the canonical printer.
 *
 * Positions: every Expr's `pos` is its whole span (including the
 * parentheses that group it); `op_pos` is the token an evaluation error is
 * reported at: the operator of EX_BIN/EX_NEG/EX_NOT, the unit of EX_UNIT,
 * the function name of EX_CALL, the token itself for EX_NUM/EX_REF.
 *
 * Depth: an expression may nest at most EXPR_MAX_DEPTH parentheses and,
 * separately, EXPR_MAX_DEPTH operators and calls (`a + b + c` nests 2
 * deep).  The parser enforces both, so the evaluator's and the printer's
 * recursion is bounded; they check again for trees built by hand.
 */
#include "expr_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- units ------------------------------------------------------------- */

static const struct UnitInfo {
    const char *name;
    unsigned shift;
} unit_table[] = {
#define X(e, s, sh) [e] = {s, sh},
    EXPR_UNITS(X)
#undef X
};

const char *expr_unit_name(Unit u)
{
    return (size_t)u < countof(unit_table) ? unit_table[u].name : "?";
}

unsigned expr_unit_shift(Unit u)
{
    return (size_t)u < countof(unit_table) ? unit_table[u].shift : 0;
}

bool expr_unit_lookup(const char *s, size_t n, Unit *out)
{
    const struct UnitInfo *u = NAMED(unit_table, countof(unit_table), s, n);
    if (u)
        *out = (Unit)(u - unit_table);
    return u;
}

/* ---- builders ---------------------------------------------------------- */

/* Span of the bytes [off, end) starting at `first`; a span that crosses a
 * line ends with its first line. */
static Pos span(const ExprParse *c, Pos first, uint32_t off, uint32_t end)
{
    const unsigned char *s = c->lx->buf + off;
    const unsigned char *nl = memchr(s, '\n', end - off);
    first.len = nl ? (uint32_t)(nl - s) : end - off;
    return c->lx->scalar ? node_char_pos(c->lx->files, c->lx->scalar, off, first.len) : first;
}

static Expr *node(ExprParse *c, ExprKind k, Pos op_pos, unsigned nargs)
{
    Expr *e = arena_alloc(c->a, sizeof *e);
    *e = (Expr){.kind = k, .pos = op_pos, .op_pos = op_pos, .nargs = nargs,
                .args = nargs ? arena_alloc(c->a, nargs * sizeof *e->args) : NULL};
    return e;
}

void expr_too_deep(ExprParse *c, Pos at)
{
    if (c->failed)
        return;
    c->failed = true;
    error_at(c->d, C_limit_expr_depth, at, "expression nests more than %d levels deep",
             EXPR_MAX_DEPTH);
}

static PExpr finish(ExprParse *c, Expr *e, Pos first, uint32_t off, uint32_t end, unsigned depth)
{
    e->pos = span(c, first, off, end);
    if (depth > EXPR_MAX_DEPTH)
        expr_too_deep(c, e->op_pos);
    return (PExpr){e, off, end, depth};
}

/* EX_NUM or EX_REF: the token's number or name (the other is 0 or NULL). */
PExpr expr_b_leaf(ExprParse *c, ExprKind k, ExprTok t)
{
    Expr *e = node(c, k, t.pos, 0);
    e->num = t.num;
    e->name = t.name;
    return (PExpr){e, t.off, t.off + t.len, 0};
}

PExpr expr_b_unary(ExprParse *c, ExprKind k, ExprTok op, PExpr a)
{
    Expr *e = node(c, k, op.pos, 1);
    e->args[0] = a.e;
    return finish(c, e, op.pos, op.off, a.end, a.depth + 1);
}

/* Unary plus makes no node, but counts as nesting so a long run of them
 * is refused like any other. */
PExpr expr_b_plus(ExprParse *c, ExprTok op, PExpr a)
{
    a.e->pos = span(c, op.pos, op.off, a.end);
    a.off = op.off;
    if (++a.depth > EXPR_MAX_DEPTH)
        expr_too_deep(c, op.pos);
    return a;
}

PExpr expr_b_unit(ExprParse *c, PExpr a, ExprTok unit)
{
    Expr *e = node(c, EX_UNIT, unit.pos, 1);
    e->unit = unit.unit;
    e->args[0] = a.e;
    return finish(c, e, a.e->pos, a.off, unit.off + unit.len, a.depth + 1);
}

PExpr expr_b_bin(ExprParse *c, PExpr l, BinOp op, ExprTok optok, PExpr r)
{
    Expr *e = node(c, EX_BIN, optok.pos, 2);
    e->op = op;
    e->args[0] = l.e;
    e->args[1] = r.e;
    unsigned depth = (l.depth > r.depth ? l.depth : r.depth) + 1;
    return finish(c, e, l.e->pos, l.off, r.end, depth);
}

PExpr expr_b_paren(ExprParse *c, ExprTok lp, PExpr a, ExprTok rp)
{
    a.off = lp.off;
    a.end = rp.off + rp.len;
    a.e->pos = span(c, lp.pos, a.off, a.end);
    return a;
}

PArgs expr_b_arg(ExprParse *c, PArgs list, PExpr a)
{
    if ((list.n & (list.n - 1)) == 0) {
        Expr **v = arena_alloc(c->a, (list.n ? 2 * list.n : 1) * sizeof *v);
        if (list.n)
            memcpy(v, list.v, list.n * sizeof *v);
        list.v = v;
    }
    list.v[list.n++] = a.e;
    if (a.depth > list.depth)
        list.depth = a.depth;
    return list;
}

PExpr expr_b_call(ExprParse *c, ExprTok name, PArgs args, ExprTok rp)
{
    Expr *e = node(c, EX_CALL, name.pos, 0);
    e->name = name.name;
    e->args = args.v;
    e->nargs = args.n;
    return finish(c, e, name.pos, name.off, rp.off + rp.len, args.depth + 1);
}

void expr_syntax_error(ExprParse *c, int major, ExprTok t)
{
    if (c->failed)
        return;
    c->failed = true;
    const char *what = major == EXPR_TK_NUM    ? "number "
                       : major == EXPR_TK_NAME ? "name "
                       : major == EXPR_TK_UNIT ? "unit "
                                               : "";
    if (major == EXPR_TOK_END)
        error_at(c->d, C_expr_syntax, t.pos, "unexpected end of expression");
    else
        error_at(c->d, C_expr_syntax, t.pos, "unexpected %s'%.*s'", what, (int)t.len, (const char *)c->lx->buf + t.off);
}

/* ---- driver ------------------------------------------------------------ */

static Expr *parse(Arena *a, const char *text, size_t len, Pos start, const SrcFile *const *files,
                   const Node *scalar, Diags *d)
{
    if (len > EXPR_MAX_LEN) {
        error_at(d, C_limit_expr_length, pos_shift(start, 0, 0),
                 "expression is %zu bytes long; the limit is %d", len, EXPR_MAX_LEN);
        return NULL;
    }
    ExprLexer lx;
    expr_lex_init(&lx, a, text, len, start, d);
    lx.scalar = scalar;
    lx.files = files;
    ExprParse c = {.a = a, .d = d, .lx = &lx};
    union {
        max_align_t align;
        unsigned char bytes[EXPR_PARSER_BYTES];
    } parser_room;
    void *parser = &parser_room;
    ExprParserInit(parser, &c);
    unsigned parens = 0;
    for (bool first = true;; first = false) {
        int k = expr_lex(&lx, &c.tok);
        if (k == EXPR_TOK_END && first) {
            error_at(d, C_expr_syntax, pos_shift(start, 0, 0), "empty expression");
        } else if (k == EXPR_TK_LP && ++parens > EXPR_MAX_DEPTH) {
            error_at(d, C_limit_expr_depth, c.tok.pos, "more than %d nested parentheses", EXPR_MAX_DEPTH);
        } else if (k != EXPR_TOK_ERROR) { /* the lexer reported its errors */
            if (k == EXPR_TK_RP && parens)
                parens--;
            ExprParser(parser, k, c.tok);
            if (c.failed || k == EXPR_TOK_END)
                break;
            continue;
        }
        c.failed = true;
        break;
    }
    ExprParserFinalize(parser);
    if (c.failed)
        return NULL;
    ASSERT(c.result.e);
    return c.result.e;
}

Expr *expr_parse(Arena *a, const char *text, size_t len, Pos start, Diags *d)
{
    return parse(a, text, len, start, NULL, NULL, d);
}

Expr *expr_parse_scalar(Arena *a, const SrcFile *const *files, const Node *scalar, Diags *d)
{
    return parse(a, scalar->str, scalar->len, node_char_pos(files, scalar, 0, 1), files, scalar, d);
}

/* ---- evaluation -------------------------------------------------------- */

typedef struct Func {
    const char *name;
    unsigned min_args, max_args; /* 0: no upper bound */
} Func;

enum { F_MIN, F_MAX, F_ALIGN_UP, F_ALIGN_DOWN };
static const Func funcs[] = {
    [F_MIN] = {"min", 2, 0},
    [F_MAX] = {"max", 2, 0},
    [F_ALIGN_UP] = {"align_up", 2, 2},
    [F_ALIGN_DOWN] = {"align_down", 2, 2},
};

typedef struct Eval {
    const EvalEnv *env;
    Diags *d;
} Eval;

static bool eval(const Eval *v, const Expr *e, unsigned depth, uint64_t *out);

static const char *const op_text[] = {
    [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*",  [OP_DIV] = "/", [OP_MOD] = "%",
    [OP_SHL] = "<<", [OP_SHR] = ">>", [OP_AND] = "&", [OP_OR] = "|",  [OP_XOR] = "^",
};

static bool eval_bin(const Eval *v, const Expr *e, uint64_t a, uint64_t b, uint64_t *out)
{
    Diags *d = v->d;
    Pos at = e->op_pos;
    bool fits = true; /* the result fits 64 bits (+, *, <<) */
    switch (e->op) {
    case OP_ADD: fits = b <= UINT64_MAX - a, *out = a + b; break;
    case OP_MUL: fits = !a || b <= UINT64_MAX / a, *out = a * b; break;
    case OP_SUB:
        if (b > a) {
            error_at(d, C_expr_underflow, at, "%" PRIu64 " - %" PRIu64 " is below zero; values are unsigned", a, b);
            return false;
        }
        *out = a - b;
        break;
    case OP_DIV:
    case OP_MOD:
        if (b == 0) {
            error_at(d, C_expr_div_zero, at, "%s by zero", e->op == OP_DIV ? "division" : "remainder");
            return false;
        }
        *out = e->op == OP_DIV ? a / b : a % b;
        break;
    case OP_SHL:
    case OP_SHR:
        if (b >= 64) {
            error_at(d, C_expr_shift, at, "shift count %" PRIu64 " is not below 64", b);
            return false;
        }
        fits = e->op == OP_SHR || (a << b) >> b == a;
        *out = e->op == OP_SHL ? a << b : a >> b;
        break;
    case OP_AND: *out = a & b; break;
    case OP_OR: *out = a | b; break;
    case OP_XOR: *out = a ^ b; break;
    default: BUG("unknown binary operator");
    }
    if (!fits)
        error_at(d, C_expr_overflow, at, "%" PRIu64 " %s %" PRIu64 " overflows 64 bits", a, op_text[e->op], b);
    return fits;
}

static bool eval_unit(const Eval *v, const Expr *e, uint64_t a, uint64_t *out)
{
    uint64_t f;
    if (e->unit == UNIT_PAGES) {
        f = v->env ? v->env->page_size : 0;
        if (f == 0) {
            error_at(v->d, C_expr_unit, e->op_pos, "'pages' needs a page size, and none is set");
            return false;
        }
    } else {
        ASSERT((size_t)e->unit < countof(unit_table));
        f = (uint64_t)1 << unit_table[e->unit].shift;
    }
    if (a && f > UINT64_MAX / a) {
        error_at(v->d, C_expr_overflow, e->op_pos, "%" PRIu64 " %s overflows 64 bits", a,
                 expr_unit_name(e->unit));
        return false;
    }
    *out = a * f;
    return true;
}

static bool eval_call(const Eval *v, const Expr *e, unsigned depth, uint64_t *out)
{
    Diags *d = v->d;
    const Func *f = BY_NAME(funcs, countof(funcs), e->name);
    if (!f) {
        Diag *g = error_at(d, C_expr_call, e->op_pos, "unknown function '%s'", e->name);
        const char *names[countof(funcs)];
        for (size_t i = 0; i < countof(funcs); i++)
            names[i] = funcs[i].name;
        if (!diag_suggest(d, g, e->name, funcs, countof(funcs), sizeof *funcs))
            diag_fixit(d, g, "the functions are %s", words_text(d->arena, names, countof(funcs), " and "));
        return false;
    }
    if (e->nargs < f->min_args || (f->max_args && e->nargs > f->max_args)) {
        error_at(d, C_expr_call, e->pos, "%s takes %u%s arguments, not %u", f->name, f->min_args,
                 f->max_args == f->min_args ? "" : " or more", e->nargs);
        return false;
    }
    uint64_t acc = 0, x = 0;
    for (unsigned i = 0; i < e->nargs; i++) {
        if (!eval(v, e->args[i], depth + 1, &x))
            return false;
        if (i == 0 || (f == &funcs[F_MIN] && x < acc) || (f == &funcs[F_MAX] && x > acc))
            acc = x;
    }
    if (f == &funcs[F_MIN] || f == &funcs[F_MAX]) {
        *out = acc;
        return true;
    }
    uint64_t align = x;
    if (align == 0 || (align & (align - 1)) != 0) {
        error_at(d, C_expr_align, e->args[1]->pos,
                 "alignment %" PRIu64 " is not a non-zero power of two", align);
        return false;
    }
    bool up = f == &funcs[F_ALIGN_UP];
    if (up && acc > UINT64_MAX - (align - 1)) {
        error_at(d, C_expr_overflow, e->op_pos, "align_up(%" PRIu64 ", %" PRIu64 ") overflows 64 bits", acc, align);
        return false;
    }
    *out = (up ? acc + (align - 1) : acc) & ~(align - 1);
    return true;
}

static bool eval(const Eval *v, const Expr *e, unsigned depth, uint64_t *out)
{
    if (depth > EXPR_MAX_DEPTH) {
        error_at(v->d, C_limit_expr_depth, e->pos, "expression nests more than %d levels deep",
                 EXPR_MAX_DEPTH);
        return false;
    }
    uint64_t a, b;
    switch (e->kind) {
    case EX_NUM:
        *out = e->num;
        return true;
    case EX_REF:
        if (!v->env || !v->env->lookup) {
            error_at(v->d, C_expr_name, e->pos, "unknown name '%s'", e->name);
            return false;
        }
        return v->env->lookup(v->env->ctx, e, out);
    case EX_UNIT:
        return eval(v, e->args[0], depth + 1, &a) && eval_unit(v, e, a, out);
    case EX_NEG:
    case EX_NOT:
        if (!eval(v, e->args[0], depth + 1, &a))
            return false;
        if (e->kind == EX_NEG && a != 0) {
            error_at(v->d, C_expr_underflow, e->op_pos, "-%" PRIu64 " is below zero; values are unsigned", a);
            return false;
        }
        *out = e->kind == EX_NEG ? 0 : ~a;
        return true;
    case EX_BIN:
        return eval(v, e->args[0], depth + 1, &a) && eval(v, e->args[1], depth + 1, &b) &&
               eval_bin(v, e, a, b, out);
    case EX_CALL:
        return eval_call(v, e, depth, out);
    }
    BUG("unknown expression kind");
}

bool expr_eval(const Expr *e, const EvalEnv *env, Diags *d, uint64_t *out)
{
    ASSERT(e && out);
    Eval v = {env, d};
    uint64_t x;
    if (!eval(&v, e, 0, &x))
        return false;
    *out = x;
    return true;
}

/* ---- printing ---------------------------------------------------------- */

static void print(Buf *b, const Expr *e, unsigned depth)
{
    if (depth > EXPR_MAX_DEPTH) {
        buf_puts(b, "...");
        return;
    }
    switch (e->kind) {
    case EX_NUM:
        buf_printf(b, "%" PRIu64, e->num);
        return;
    case EX_REF:
        buf_puts(b, e->name);
        return;
    case EX_UNIT: /* (a UNIT), (-a), (~a), (a OP b) */
    case EX_NEG:
    case EX_NOT:
    case EX_BIN:
        buf_puts(b, e->kind == EX_NEG ? "(-" : e->kind == EX_NOT ? "(~" : "(");
        print(b, e->args[0], depth + 1);
        if (e->kind == EX_UNIT)
            buf_printf(b, " %s", expr_unit_name(e->unit));
        if (e->kind == EX_BIN) {
            buf_printf(b, " %s ", (size_t)e->op < countof(op_text) ? op_text[e->op] : "?");
            print(b, e->args[1], depth + 1);
        }
        buf_putc(b, ')');
        return;
    case EX_CALL:
        buf_printf(b, "%s(", e->name);
        for (unsigned i = 0; i < e->nargs; i++) {
            if (i)
                buf_puts(b, ", ");
            print(b, e->args[i], depth + 1);
        }
        buf_putc(b, ')');
        return;
    }
    BUG("unknown expression kind");
}

void expr_print(Buf *b, const Expr *e)
{
    print(b, e, 0);
}
