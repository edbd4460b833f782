/* SPDX-License-Identifier: MIT */
/*
 * tmpl.c - the template engine: values, the parser and the interpreter.
 * templates/README.md is the language reference.
 *
 *   tmpl_parse   lex the whole template (tmpl_lex.re, which drops the lines
 *                that hold only statement tags) and parse the tokens by
 *                recursive descent into a tree of statements
 *   tmpl_render  walk the tree over a TVal context
 *
 * The engine knows nothing of segc's model: it renders text from a tree of
 * TVal.  Every error is reported at a position in the template and unwinds
 * with longjmp to tmpl_parse or tmpl_render; everything else they allocate
 * lives in the arena, so nothing leaks.
 */
#include "tmpl_int.h"

#include <inttypes.h>
#include <setjmp.h>
#include <string.h>

/* ==== values ============================================================ */

/* A copy of `v` in the arena. */
static TVal *tv_new(Arena *a, TVal v)
{
    TVal *p = arena_alloc(a, sizeof *p);
    *p = v;
    return p;
}

TVal *tv_bool(Arena *a, bool b)
{
    return tv_new(a, (TVal){.kind = TV_BOOL, .b = b});
}

TVal *tv_int(Arena *a, uint64_t i)
{
    return tv_new(a, (TVal){.kind = TV_INT, .i = i});
}

TVal *tv_str(Arena *a, const char *s)
{
    return tv_new(a, (TVal){.kind = TV_STR, .s = arena_strdup(a, s ? s : "")});
}

TVal *tv_list(Arena *a)
{
    return tv_new(a, (TVal){.kind = TV_LIST});
}

TVal *tv_map(Arena *a)
{
    return tv_new(a, (TVal){.kind = TV_MAP});
}

static void tv_grow(Arena *a, TVal *v)
{
    if (v->n < v->cap)
        return;
    size_t cap = v->cap ? v->cap * 2 : 8;
    TVal **items = arena_alloc(a, cap * sizeof *items);
    if (v->n)
        memcpy(items, v->items, v->n * sizeof *items);
    v->items = items;
    if (v->kind == TV_MAP) {
        const char **keys = arena_alloc(a, cap * sizeof *keys);
        if (v->n)
            memcpy(keys, v->keys, v->n * sizeof *keys);
        v->keys = keys;
    }
    v->cap = cap;
}

/* A NULL value is stored as a null. */
void tv_push(Arena *a, TVal *list, TVal *v)
{
    ASSERT(list && list->kind == TV_LIST);
    tv_grow(a, list);
    list->items[list->n++] = v ? v : tv_new(a, (TVal){.kind = TV_NULL});
}

void tv_put(Arena *a, TVal *map, const char *key, TVal *v)
{
    ASSERT(map && map->kind == TV_MAP && key);
    if (!v)
        v = tv_new(a, (TVal){.kind = TV_NULL});
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->keys[i], key) == 0) {
            map->items[i] = v;
            return;
        }
    tv_grow(a, map);
    map->keys[map->n] = arena_strdup(a, key);
    map->items[map->n++] = v;
}

const TVal *tv_get(const TVal *map, const char *key)
{
    if (!map || map->kind != TV_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->keys[i], key) == 0)
            return map->items[i];
    return NULL;
}

/* ==== the tree, the filters, errors ====================================== */

/* One tree for statements and expressions. */
typedef enum { TN_TEXT, TN_OUT, TN_IF, TN_FOR, TN_LIT, TN_NAME, TN_NOT, TN_BIN, TN_FILTER } TNodeKind;

typedef struct Filter Filter;
typedef struct TNode TNode;
struct TNode {
    TNodeKind kind;
    const TmplTok *tok;    /* TN_TEXT: the text; TN_BIN: the operator; TN_FOR: `for`, then
                              the loop variable; TN_NAME: the first of its names, which
                              are every other token from here */
    unsigned nnames;       /* TN_NAME */
    Pos pos;               /* the text, the `{{`, the `if`/`elif`/`for` keyword;
                              the literal, the whole name, the operator, the filter name */
    unsigned depth;        /* expressions: operators above the leaves, 0 for a leaf */
    const TVal *lit;       /* TN_LIT */
    TNode *lhs, *rhs;      /* operands; TN_FILTER: the filtered value, its argument */
    const Filter *filter;  /* TN_FILTER */
    TNode *next;           /* statements: the next one in its list */
    TNode *expr;           /* TN_OUT value, TN_IF condition, TN_FOR list */
    TNode *body;           /* TN_IF: when true; TN_FOR: each pass */
    TNode *els;            /* TN_IF: when false (an `elif` is the one `if` in here) */
};

struct Template {
    TNode *body;
};

/* What the parser and the interpreter share: where errors go and where
 * they unwind to. */
typedef struct Env {
    Arena *a;
    Diags *d;
    jmp_buf jmp;
} Env;

typedef struct Render Render;
typedef const char *FilterFn(Render *r, const TNode *e, const TVal *v, const TVal *arg);

struct Filter {
    const char *name;     /* first, for diag_suggest */
    TValKind in;          /* the kind of value it takes */
    TValKind arg;         /* its argument's kind; TV_NULL: it takes none */
    const char *arg_name;
    FilterFn *fn;
    int digits;           /* hex filters: the digits it pads to; hex8 fits no more */
};

static FilterFn f_int, f_cstr, f_comment, f_pad, f_join;

static const Filter filters[] = {
    {"hex", TV_INT, TV_NULL, NULL, f_int, 0},
    {"hex8", TV_INT, TV_NULL, NULL, f_int, 8},
    {"hex16", TV_INT, TV_NULL, NULL, f_int, 16},
    {"cstr", TV_STR, TV_NULL, NULL, f_cstr, 0},
    {"comment", TV_STR, TV_NULL, NULL, f_comment, 0},
    {"pad", TV_STR, TV_INT, "the width", f_pad, 0},
    {"join", TV_LIST, TV_STR, "the separator", f_join, 0},
};

static NORETURN void die(Env *env, Code code, Pos pos, const char *fmt, ...) PRINTF_LIKE(4, 5);
static NORETURN void die(Env *env, Code code, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(env->d, SEV_ERROR, code, pos, fmt, ap);
    va_end(ap);
    longjmp(env->jmp, 1);
}

/* ==== the parser ========================================================= */

typedef struct Parser {
    Env env;
    const TmplTok *t; /* the current token */
    unsigned blocks;  /* open `if`/`for` blocks */
    unsigned parens;  /* open parentheses in the current tag */
} Parser;

/* The innermost open block, for the messages about a misplaced tag. */
typedef struct Block {
    const TmplTok *kw; /* `if` or `for` */
    Pos pos;           /* its whole `{% ... %}` tag */
    Pos else_pos;      /* line 0 until its `else` */
} Block;

/* From the start of `a` to the end of `b`: in one tag, so on one line. */
static Pos span(Pos a, Pos b)
{
    a.len = b.col + b.len - a.col;
    return a;
}

/* A token in a tag: the lexer makes no text or end-of-template token there. */
static const char *describe_token(Parser *p, const TmplTok *t)
{
    switch (t->type) {
    case TT_NAME: return arena_printf(p->env.a, "name `%s`", t->s);
    case TT_STRING: return "a string";
    case TT_INT: return arena_printf(p->env.a, "integer `%s`", t->s);
    default: return arena_printf(p->env.a, "`%s`", t->s);
    }
}

/* "expected WHAT, found ..." at the current token, or the lexical error
 * that token stands for. */
static NORETURN void expected(Parser *p, const char *what)
{
    const TmplTok *t = p->t;
    if (t->type == TT_ERROR)
        die(&p->env, t->code, t->pos, "%s", t->s);
    die(&p->env, C_tmpl_syntax, t->pos, "expected %s, found %s", what, describe_token(p, t));
}

static const TmplTok *expect(Parser *p, TokType type, const char *what)
{
    if (p->t->type != type)
        expected(p, what);
    return p->t++;
}

/* A node at token `t`; an expression deeper than the limit is an error. */
static TNode *node(Parser *p, TNodeKind kind, const TmplTok *t, TNode *lhs, TNode *rhs)
{
    TNode *e = arena_alloc(p->env.a, sizeof *e);
    e->kind = kind;
    e->tok = t;
    e->pos = t->pos;
    e->lhs = lhs;
    e->rhs = rhs;
    unsigned dl = lhs ? lhs->depth + 1 : 0, dr = rhs ? rhs->depth + 1 : 0;
    e->depth = dl > dr ? dl : dr;
    if (e->depth > TMPL_MAX_DEPTH)
        die(&p->env, C_tmpl_depth, e->pos, "expression nests deeper than %d levels", TMPL_MAX_DEPTH);
    return e;
}

static TNode *parse_expr(Parser *p);

/* `(` expr `)`, as a group or a filter's argument. */
static TNode *parse_parens(Parser *p)
{
    const TmplTok *open = expect(p, TT_LPAREN, "`(`");
    if (++p->parens > TMPL_MAX_DEPTH)
        die(&p->env, C_tmpl_depth, open->pos, "parentheses nest deeper than %d levels",
            TMPL_MAX_DEPTH);
    TNode *e = parse_expr(p);
    expect(p, TT_RPAREN, "`)` or an operator");
    p->parens--;
    return e;
}

/* NAME (`.` NAME)*, where a keyword after `.` is a name too. */
static TNode *parse_name(Parser *p)
{
    TNode *e = node(p, TN_NAME, p->t, NULL, NULL);
    for (e->nnames = 1; p->t[1].type == TT_DOT; e->nnames++) {
        p->t += 2;
        if (p->t->type != TT_NAME && (p->t->type < TT_IF || p->t->type > TT_OR))
            expected(p, "a name");
    }
    e->pos = span(e->pos, p->t++->pos);
    return e;
}

static TNode *parse_primary(Parser *p)
{
    const TmplTok *t = p->t;
    switch (t->type) {
    case TT_INT:
    case TT_STRING: {
        TNode *e = node(p, TN_LIT, p->t++, NULL, NULL);
        e->lit = t->type == TT_INT ? tv_int(p->env.a, t->num) : tv_str(p->env.a, t->s);
        return e;
    }
    case TT_NAME: return parse_name(p);
    case TT_LPAREN: return parse_parens(p);
    default: expected(p, "an expression");
    }
}

/* How tightly the binary operators bind: `a or b and c == d + e` is
 * `a or (b and (c == (d + e)))`.  A `not` binds between `and` and `==`. */
static const unsigned char prec[] = {
    [TT_OR] = 1, [TT_AND] = 2, [TT_EQ] = 4, [TT_NE] = 4, [TT_GT] = 4, [TT_PLUS] = 5, [TT_MINUS] = 5,
};
enum { PREC_NOT = 3, PREC_CMP = 4 };

/* `not`* and the binary operators that bind at least as tightly as `min`,
 * left-associative.  A run of `not` is a loop, not recursion, so it meets
 * the depth limit, never the end of the C stack. */
static TNode *parse_ops(Parser *p, unsigned min)
{
    const TmplTok *nots = p->t;
    while (min <= PREC_NOT && p->t->type == TT_NOT)
        p->t++;
    const TmplTok *op = p->t;
    TNode *e = op > nots ? parse_ops(p, PREC_CMP) : parse_primary(p);
    while (op-- > nots)
        e = node(p, TN_NOT, op, e, NULL);
    while (prec[p->t->type] >= min) {
        op = p->t++;
        e = node(p, TN_BIN, op, e, parse_ops(p, prec[op->type] + 1u));
        if (prec[op->type] == PREC_CMP && prec[p->t->type] == PREC_CMP)
            die(&p->env, C_tmpl_syntax, p->t->pos,
                "comparisons do not chain: `%s` cannot compare the result of a comparison "
                "(combine comparisons with `and`)", p->t->s);
    }
    return e;
}

static const Filter *find_filter(Parser *p, const TmplTok *name)
{
    for (size_t i = 0; i < countof(filters); i++)
        if (strcmp(filters[i].name, name->s) == 0)
            return &filters[i];
    Diag *g = error_at(p->env.d, C_tmpl_filter, name->pos, "unknown filter `%s`", name->s);
    diag_suggest(p->env.d, g, name->s, filters, countof(filters), sizeof *filters);
    longjmp(p->env.jmp, 1);
}

/* expr := ops (`|` NAME (`(` expr `)`)?)*: a filter applies to everything
 * on its left. */
static TNode *parse_expr(Parser *p)
{
    TNode *e = parse_ops(p, 1);
    while (p->t->type == TT_PIPE) {
        p->t++;
        const TmplTok *name = expect(p, TT_NAME, "a filter name");
        const Filter *f = find_filter(p, name);
        bool has_arg = p->t->type == TT_LPAREN;
        if (has_arg && f->arg == TV_NULL)
            die(&p->env, C_tmpl_filter, name->pos, "filter `%s` takes no argument", f->name);
        if (!has_arg && f->arg != TV_NULL)
            die(&p->env, C_tmpl_filter, name->pos, "filter `%s` takes one argument: %s", f->name,
                f->arg_name);
        e = node(p, TN_FILTER, name, e, has_arg ? parse_parens(p) : NULL);
        e->filter = f;
        if (prec[p->t->type])
            die(&p->env, C_tmpl_syntax, p->t->pos,
                "`%s` after a filter: a filter applies to everything on its left, so put "
                "the filtered value in parentheses", p->t->s);
    }
    return e;
}

/* ---- statements ---------------------------------------------------------- */

/* The current token, a `{%` whose keyword cannot come here (or the end of
 * the template, or a lexical error): says why. */
static NORETURN void misplaced(Parser *p, const Block *in)
{
    Env *env = &p->env;
    if (p->t->type == TT_EOF && in)
        die(env, C_tmpl_syntax, in->pos, "this `%s` is never closed by `{%% end %%}`", in->kw->s);
    if (p->t->type != TT_OPEN_STMT)
        expected(p, "text or a tag"); /* a lexical error, which expected() reports */
    TokType k = (++p->t)->type;
    const char *kw = p->t->s;
    if (!in && k >= TT_ELIF && k <= TT_END)
        die(env, C_tmpl_syntax, p->t->pos, "`{%% %s %%}` without an open `if`%s", kw,
            k == TT_END ? " or `for`" : "");
    if (k == TT_ELIF || k == TT_ELSE) {
        bool in_for = in->kw->type == TT_FOR;
        Diag *g = error_at(env->d, C_tmpl_syntax, p->t->pos, "`{%% %s %%}` %s", kw,
                           in_for ? arena_printf(env->a, "inside a `for`; only an `if` has `%s`", kw)
                                  : "after the `{% else %}` of this `if`");
        diag_note(env->d, g, in_for ? in->pos : in->else_pos,
                  in_for ? "the innermost open block is this `for`" : "the `else` is here");
        longjmp(env->jmp, 1);
    }
    expected(p, !in ? "`if` or `for` after `{%`"
                : in->kw->type == TT_FOR || in->else_pos.line ? "`if`, `for` or `end` after `{%`"
                : "`if`, `for`, `elif`, `else` or `end` after `{%`");
}

static TNode *parse_block(Parser *p);

/* Whether `{% k` ends the body of the block `in`. */
static bool ends_body(const Block *in, TokType k)
{
    return k == TT_END ||
           (in->kw->type == TT_IF && !in->else_pos.line && (k == TT_ELIF || k == TT_ELSE));
}

/* Statements up to the end of the template or, in a block, up to a `{%`
 * with the keyword that may end that block's body. */
static TNode *parse_body(Parser *p, const Block *in)
{
    TNode *head = NULL, **tail = &head, *s;
    for (;;) {
        const TmplTok *t = p->t;
        TokType k = t->type == TT_OPEN_STMT ? t[1].type : TT_EOF;
        if (t->type == TT_TEXT) {
            p->t++;
            if (t->n == 0)
                continue; /* dropped by the tag-line rule */
            s = node(p, TN_TEXT, t, NULL, NULL);
        } else if (t->type == TT_OPEN_EXPR) {
            p->t++;
            s = node(p, TN_OUT, t, NULL, NULL);
            s->expr = parse_expr(p);
            expect(p, TT_CLOSE_EXPR, "`}}` or an operator");
        } else if (k == TT_IF || k == TT_FOR) {
            s = parse_block(p);
        } else if (in ? t->type == TT_OPEN_STMT && ends_body(in, k) : t->type == TT_EOF) {
            return head;
        } else {
            misplaced(p, in);
        }
        *tail = s;
        tail = &s->next;
    }
}

/* {% if E %} body ({% elif E %} body)* ({% else %} body)? {% end %}
 * {% for NAME in E %} body {% end %} */
static TNode *parse_block(Parser *p)
{
    const TmplTok *open = p->t, *kw = p->t + 1;
    p->t += 2;
    TNode *s = node(p, kw->type == TT_IF ? TN_IF : TN_FOR, kw, NULL, NULL);
    if (kw->type == TT_FOR) {
        expect(p, TT_NAME, "a name");
        expect(p, TT_IN, "`in`");
    }
    s->expr = parse_expr(p);
    Block b = {kw, span(open->pos, p->t->pos), {0}};
    expect(p, TT_CLOSE_STMT, "`%}` or an operator");
    if (++p->blocks > TMPL_MAX_DEPTH)
        die(&p->env, C_tmpl_depth, b.pos, "blocks nest deeper than %d levels", TMPL_MAX_DEPTH);
    TNode *arm = s;
    TNode **into = &s->body;
    for (;;) {
        *into = parse_body(p, &b);
        kw = ++p->t; /* parse_body stopped at `{%`: elif, else or end */
        p->t++;
        if (kw->type == TT_ELIF) {
            arm = arm->els = node(p, TN_IF, kw, NULL, NULL);
            arm->expr = parse_expr(p);
            expect(p, TT_CLOSE_STMT, "`%}` or an operator");
            into = &arm->body;
            continue;
        }
        expect(p, TT_CLOSE_STMT, "`%}`");
        if (kw->type == TT_END)
            break;
        b.else_pos = kw->pos;
        into = &arm->els;
    }
    p->blocks--;
    return s;
}

/* ---- the parse driver ------------------------------------------------------ */

Template *tmpl_parse(Arena *a, const SrcFile *src, Diags *d)
{
    Parser p = {.env = {.a = a, .d = d}, .t = tmpl_lex(a, src)};
    if (setjmp(p.env.jmp))
        return NULL;
    Template *t = arena_alloc(a, sizeof *t);
    t->body = parse_body(&p, NULL);
    return t;
}

/* ==== the interpreter ==================================================== */

struct Render {
    Env env;
    const TVal *ctx;
    Buf *out;
    size_t out_start, mem_start, steps;
    struct {
        const char *name;
        const TVal *v;
    } b[2 * TMPL_MAX_DEPTH]; /* loop variables and `loop`, innermost last */
    size_t nb;
};

static const TVal bools[2] = {{.kind = TV_BOOL, .b = false}, {.kind = TV_BOOL, .b = true}};

static const char *const kind_name[] = {
    [TV_NULL] = "null",  [TV_BOOL] = "a boolean", [TV_INT] = "an integer",
    [TV_STR] = "a string", [TV_LIST] = "a list", [TV_MAP] = "a map",
};

static bool truthy(const TVal *v)
{
    switch (v->kind) {
    case TV_BOOL: return v->b;
    case TV_INT: return v->i != 0;
    case TV_STR: return v->s[0] != 0;
    case TV_LIST:
    case TV_MAP: return v->n != 0;
    default: return false;
    }
}

/* `a.b.c`, the first `n` parts of a path, for messages. */
static const char *path_text(Render *r, const TNode *e, unsigned n)
{
    const char *s = e->tok->s;
    for (unsigned i = 1; i < n; i++)
        s = arena_printf(r->env.a, "%s.%s", s, e->tok[2 * i].s);
    return s;
}

/* How an expression is named in a message. */
static const char *describe(Render *r, const TNode *e)
{
    if (e->kind == TN_NAME)
        return arena_printf(r->env.a, "`%s`", path_text(r, e, e->nnames));
    if (e->kind == TN_FILTER)
        return arena_printf(r->env.a, "the result of `%s`", e->filter->name);
    return "the value";
}

/* The limits that keep a hostile template from running away: memory
 * with `more` bytes to come, and steps. */
static void check_memory(Render *r, Pos pos, size_t more)
{
    if (arena_bytes(r->env.a) - r->mem_start + more > TMPL_MAX_MEMORY)
        die(&r->env, C_tmpl_limit, pos, "template uses more than %u MiB of memory",
            TMPL_MAX_MEMORY >> 20);
}

static void step(Render *r, Pos pos)
{
    if (++r->steps > TMPL_MAX_STEPS)
        die(&r->env, C_tmpl_limit, pos, "template runs more than %u steps", TMPL_MAX_STEPS);
    check_memory(r, pos, 0);
}

static void put(Render *r, Pos pos, const char *s, size_t n)
{
    if (r->out->len - r->out_start + n > TMPL_MAX_OUTPUT)
        die(&r->env, C_tmpl_limit, pos, "output grows past the %u MiB limit",
            TMPL_MAX_OUTPUT >> 20);
    buf_putn(r->out, s, n);
}

/* A dotted name: a loop variable (the innermost first) or a key of the
 * context, then a key of each map on the way. */
static const TVal *lookup(Render *r, const TNode *e)
{
    const TVal *v = NULL;
    const char *first = e->tok->s;
    for (size_t i = r->nb; i-- > 0 && !v;)
        if (strcmp(r->b[i].name, first) == 0)
            v = r->b[i].v;
    if (!v && !(v = tv_get(r->ctx, first))) { /* suggests a loop variable, else a key */
        Diag *g = error_at(r->env.d, C_tmpl_name, e->tok->pos, "unknown name `%s`", first);
        if (!diag_suggest(r->env.d, g, first, r->b, r->nb, sizeof *r->b) && r->ctx &&
            r->ctx->kind == TV_MAP)
            diag_suggest(r->env.d, g, first, r->ctx->keys, r->ctx->n, sizeof *r->ctx->keys);
        longjmp(r->env.jmp, 1);
    }
    for (unsigned k = 1; k < e->nnames; k++) {
        const TmplTok *name = &e->tok[2 * k];
        if (v->kind != TV_MAP)
            die(&r->env, C_tmpl_type, name->pos, "`%s` is %s, not a map; it has no field `%s`",
                path_text(r, e, k), kind_name[v->kind], name->s);
        const TVal *field = tv_get(v, name->s);
        if (!field) {
            Diag *g = error_at(r->env.d, C_tmpl_name, name->pos, "`%s` has no field `%s`",
                               path_text(r, e, k), name->s);
            diag_suggest(r->env.d, g, name->s, v->keys, v->n, sizeof *v->keys);
            longjmp(r->env.jmp, 1);
        }
        v = field;
    }
    return v;
}

static const TVal *eval(Render *r, const TNode *e);

/* and, or (both stop early), comparisons, + and -. */
static const TVal *binary(Render *r, const TNode *e)
{
    TokType op = e->tok->type;
    const TVal *a = eval(r, e->lhs);
    if (op == TT_AND || op == TT_OR)
        return truthy(a) == (op == TT_OR) ? &bools[op == TT_OR] : &bools[truthy(eval(r, e->rhs))];
    const TVal *b = eval(r, e->rhs);
    bool eq = op == TT_EQ || op == TT_NE; /* these compare strings and booleans too */
    if (a->kind != b->kind ||
        (a->kind != TV_INT && !(eq && (a->kind == TV_STR || a->kind == TV_BOOL))))
        die(&r->env, C_tmpl_type, e->pos, "`%s` %s, not %s and %s", e->tok->s,
            eq ? "compares two integers, two strings or two booleans" : "needs two integers",
            kind_name[a->kind], kind_name[b->kind]);
    if (eq) {
        bool same = a->kind == TV_STR ? strcmp(a->s, b->s) == 0
                  : a->kind == TV_INT ? a->i == b->i : a->b == b->b;
        return &bools[same == (op == TT_EQ)];
    }
    uint64_t x = a->i, y = b->i;
    if (op == TT_GT)
        return &bools[x > y];
    if (op == TT_PLUS && x > UINT64_MAX - y)
        die(&r->env, C_tmpl_overflow, e->pos, "%" PRIu64 " + %" PRIu64 " does not fit in 64 bits", x, y);
    if (op == TT_MINUS && y > x)
        die(&r->env, C_tmpl_overflow, e->pos,
            "%" PRIu64 " - %" PRIu64 " is below zero (integers are unsigned)", x, y);
    return tv_int(r->env.a, op == TT_PLUS ? x + y : x - y);
}

static const TVal *filter(Render *r, const TNode *e)
{
    const Filter *f = e->filter;
    const TVal *v = eval(r, e->lhs), *arg = e->rhs ? eval(r, e->rhs) : NULL;
    if (v->kind != f->in)
        die(&r->env, C_tmpl_filter, e->pos, "filter `%s` needs %s, got %s", f->name,
            kind_name[f->in], kind_name[v->kind]);
    if (arg && arg->kind != f->arg)
        die(&r->env, C_tmpl_filter, e->rhs->pos, "%s of `%s` must be %s, got %s", f->arg_name,
            f->name, kind_name[f->arg], kind_name[arg->kind]);
    return tv_new(r->env.a, (TVal){.kind = TV_STR, .s = f->fn(r, e, v, arg)});
}

static const TVal *eval(Render *r, const TNode *e)
{
    switch (e->kind) {
    case TN_LIT: return e->lit;
    case TN_NAME: return lookup(r, e);
    case TN_NOT: return &bools[!truthy(eval(r, e->lhs))];
    case TN_BIN: return binary(r, e);
    case TN_FILTER: return filter(r, e);
    default: BUG("not an expression");
    }
}

/* ---- filters ------------------------------------------------------------ */

/* Room for a filter's result of `n` bytes, within the output and memory
 * limits (a result too long to write is refused before it is made). */
static char *result(Render *r, const TNode *e, size_t n)
{
    if (n > TMPL_MAX_OUTPUT)
        die(&r->env, C_tmpl_limit, e->pos, "result of `%s` is over the %u MiB output limit",
            e->filter->name, TMPL_MAX_OUTPUT >> 20);
    check_memory(r, e->pos, n);
    return arena_alloc(r->env.a, n);
}

/* hex, hex8, hex16: the digits come from the table. */
static const char *f_int(Render *r, const TNode *e, const TVal *v, const TVal *arg)
{
    (void)arg;
    if (e->filter->digits == 8 && v->i > UINT32_MAX)
        die(&r->env, C_tmpl_filter, e->pos, "filter `%s`: 0x%" PRIX64 " needs more than 8 hex digits",
            e->filter->name, v->i);
    return arena_printf(r->env.a, "0x%0*" PRIX64, e->filter->digits, v->i);
}

/* A C string literal.  Bytes outside printable ASCII become three-digit
 * octal escapes (never \x, which would swallow a following hex digit), and
 * a `?` after a `?` is escaped so no trigraph can form. */
static const char *f_cstr(Render *r, const TNode *e, const TVal *v, const TVal *arg)
{
    (void)arg;
    size_t len = strlen(v->s);
    char *out = result(r, e, 4 * len + 3), *o = out;
    *o++ = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)v->s[i];
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
                        : c == '\t' ? "\\t" : c == '\r' ? "\\r"
                        : c == '?' && i && v->s[i - 1] == '?' ? "\\?" : NULL;
        if (esc)
            o += sprintf(o, "%s", esc);
        else if (c < 0x20 || c >= 0x7F)
            o += sprintf(o, "\\%03o", c);
        else
            *o++ = (char)c;
    }
    strcpy(o, "\"");
    return out;
}

/* Text safe inside a C block comment: a space splits every `*` `/` and
 * every `/` `*`, so the text can neither end the comment nor draw a
 * nested-comment warning. */
static const char *f_comment(Render *r, const TNode *e, const TVal *v, const TVal *arg)
{
    (void)arg;
    char *out = result(r, e, 2 * strlen(v->s) + 1), *o = out;
    for (const char *s = v->s; *s; s++) {
        *o++ = *s;
        if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*'))
            *o++ = ' ';
    }
    *o = 0;
    return out;
}

/* Spaces on the right up to the width, counted in UTF-8 characters. */
static const char *f_pad(Render *r, const TNode *e, const TVal *v, const TVal *arg)
{
    size_t len = strlen(v->s), cols = 0;
    for (size_t i = 0; i < len; i++)
        cols += ((unsigned char)v->s[i] & 0xC0) != 0x80;
    if (cols >= arg->i)
        return v->s;
    uint64_t fill = arg->i - cols;
    char *out = result(r, e, fill > TMPL_MAX_OUTPUT ? SIZE_MAX : len + (size_t)fill + 1);
    sprintf(out, "%s%*s", v->s, (int)fill, "");
    return out;
}

static const char *f_join(Render *r, const TNode *e, const TVal *v, const TVal *arg)
{
    size_t total = 0, sep = strlen(arg->s);
    for (size_t i = 0; i < v->n; i++) {
        if (v->items[i]->kind != TV_STR)
            die(&r->env, C_tmpl_filter, e->pos,
                "filter `join` needs a list of strings; item %zu is %s", i,
                kind_name[v->items[i]->kind]);
        total += strlen(v->items[i]->s) + (i ? sep : 0);
    }
    char *out = result(r, e, total + 1), *o = out;
    *o = 0;
    for (size_t i = 0; i < v->n; i++)
        o = stpcpy(i ? stpcpy(o, arg->s) : o, v->items[i]->s);
    return out;
}

/* ---- statements ---------------------------------------------------------- */

static void exec_list(Render *r, const TNode *s);

static void substitute(Render *r, const TNode *s)
{
    const TVal *v = eval(r, s->expr);
    char num[24];
    if (v->kind == TV_STR)
        put(r, s->pos, v->s, strlen(v->s));
    else if (v->kind == TV_INT)
        put(r, s->pos, num, (size_t)snprintf(num, sizeof num, "%" PRIu64, v->i));
    else if (v->kind == TV_BOOL)
        put(r, s->pos, v->b ? "1" : "0", 1);
    else
        die(&r->env, C_tmpl_type, s->expr->pos,
            "%s is %s; `{{ }}` substitutes only strings, integers and booleans",
            describe(r, s->expr), kind_name[v->kind]);
}

/* The loop variable and `loop` are bound for the passes of the body. */
static void exec_for(Render *r, const TNode *s)
{
    const TVal *list = eval(r, s->expr);
    if (list->kind != TV_LIST)
        die(&r->env, C_tmpl_type, s->expr->pos, "`for` needs a list; %s is %s",
            describe(r, s->expr), kind_name[list->kind]);
    Arena *a = r->env.a;
    TVal *loop = tv_map(a), *number = tv_int(a, 1);
    TVal *first = tv_bool(a, true), *last = tv_bool(a, false);
    tv_put(a, loop, "number", number);
    tv_put(a, loop, "first", first);
    tv_put(a, loop, "last", last);
    size_t nb = r->nb;
    r->b[nb].name = "loop";
    r->b[nb].v = loop;
    r->b[nb + 1].name = s->tok[1].s;
    r->nb = nb + 2;
    for (size_t i = 0; i < list->n; i++) {
        step(r, s->pos);
        number->i = i + 1;
        first->b = i == 0;
        last->b = i + 1 == list->n;
        r->b[nb + 1].v = list->items[i];
        exec_list(r, s->body);
    }
    r->nb = nb;
}

static void exec_list(Render *r, const TNode *s)
{
    for (; s; s = s->next) {
        step(r, s->pos);
        switch (s->kind) {
        case TN_TEXT: put(r, s->pos, s->tok->s, s->tok->n); break;
        case TN_OUT: substitute(r, s); break;
        case TN_IF: exec_list(r, truthy(eval(r, s->expr)) ? s->body : s->els); break;
        case TN_FOR: exec_for(r, s); break;
        default: BUG("not a statement");
        }
    }
}

bool tmpl_render(Arena *a, const Template *t, const TVal *ctx, Buf *out, Diags *d)
{
    if (!t)
        return false;
    Render r = {.env = {.a = a, .d = d}, .ctx = ctx, .out = out, .out_start = out->len,
                .mem_start = arena_bytes(a)};
    buf_putn(out, "", 0); /* an empty result is still a string */
    if (setjmp(r.env.jmp))
        return false;
    exec_list(&r, t->body);
    return true;
}
