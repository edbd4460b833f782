/*
 * tmpl.c - the template engine: values, the parse driver and builders,
 * and the interpreter.  templates/README.md is the language reference.
 *
 *   tmpl_parse   lex the whole template (tmpl_lex.re), apply the
 *                whitespace rule to the tokens, push them into the Lemon
 *                parser (tmpl_gram.y), whose actions call the tb_* builders
 *   tmpl_render  walk the tree with a stack of scopes over a TVal context
 *
 * The engine knows nothing of segc's model: it renders text from a tree of
 * TVal.  Every error is reported at a position in the template.
 */
#include "tmpl_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ==== values ============================================================ */

static TVal *tv_new(Arena *a, TValKind kind)
{
    TVal *v = arena_alloc(a, sizeof *v);
    v->kind = kind;
    return v;
}

TVal *tv_bool(Arena *a, bool b)
{
    TVal *v = tv_new(a, TV_BOOL);
    v->b = b;
    return v;
}

TVal *tv_int(Arena *a, uint64_t i)
{
    TVal *v = tv_new(a, TV_INT);
    v->i = i;
    return v;
}

TVal *tv_str(Arena *a, const char *s)
{
    TVal *v = tv_new(a, TV_STR);
    v->s = arena_strdup(a, s ? s : "");
    return v;
}

TVal *tv_list(Arena *a)
{
    return tv_new(a, TV_LIST);
}

TVal *tv_map(Arena *a)
{
    return tv_new(a, TV_MAP);
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
    list->items[list->n++] = v ? v : tv_new(a, TV_NULL);
}

void tv_put(Arena *a, TVal *map, const char *key, TVal *v)
{
    ASSERT(map && map->kind == TV_MAP && key);
    if (!v)
        v = tv_new(a, TV_NULL);
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

/* ==== filters: the table ================================================= */

/* A value while rendering: scalars by value, lists and maps by reference.
 * Strings are NUL-terminated. */
typedef struct Val {
    TValKind kind;
    bool b;
    uint64_t i;
    const char *s;
    size_t len;
    const TVal *tv; /* TV_LIST, TV_MAP */
} Val;

typedef struct Render Render;
typedef bool FilterFn(Render *r, const TExpr *e, Val *v, const Val *args);

/* X(name, number of arguments, what the argument is) */
#define TMPL_FILTERS(X)                                   \
    X(upper, 0, NULL)                                     \
    X(lower, 0, NULL)                                     \
    X(camel, 0, NULL)                                     \
    X(ident, 0, NULL)                                     \
    X(hex, 0, NULL)                                       \
    X(hex8, 0, NULL)                                      \
    X(hex16, 0, NULL)                                     \
    X(dec, 0, NULL)                                       \
    X(ull, 0, NULL)                                       \
    X(cstr, 0, NULL)                                      \
    X(comment, 0, NULL)                                   \
    X(pad, 1, "the width")                                \
    X(rpad, 1, "the width")                               \
    X(len, 0, NULL)                                       \
    X(join, 1, "the separator")                           \
    X(default, 1, "the value to use when the left side is null or missing")

#define X(name, nargs, arg) static FilterFn f_##name;
TMPL_FILTERS(X)
#undef X

struct TFilter {
    const char *name;
    unsigned nargs;
    const char *arg;
    FilterFn *fn;
};

static const TFilter filter_table[] = {
#define X(name, nargs, arg) {#name, nargs, arg, f_##name},
    TMPL_FILTERS(X)
#undef X
};

/* ==== builders (called from tmpl_gram.y) ================================= */

static bool same_line(Pos a, Pos b)
{
    return a.file == b.file && a.line == b.line;
}

/* The span from the start of `a` to the end of `b` when both are on one
 * line, else `a`. */
static Pos span(Pos a, Pos b)
{
    if (same_line(a, b) && b.col + b.len >= a.col)
        a.len = b.col + b.len - a.col;
    return a;
}

TList tl_empty(void)
{
    return (TList){NULL, NULL};
}

TList tl_add(TList l, TStmt *s)
{
    if (!s)
        return l;
    if (l.tail)
        l.tail->next = s;
    else
        l.head = s;
    l.tail = s;
    return l;
}

static TStmt *stmt_new(TmplParser *p, TStmtKind kind, Pos pos)
{
    TStmt *s = arena_alloc(p->a, sizeof *s);
    s->kind = kind;
    s->pos = pos;
    return s;
}

TStmt *tb_text(TmplParser *p, const TmplTok *t)
{
    TStmt *s = stmt_new(p, TS_TEXT, t->pos);
    s->text = t->s;
    s->len = t->n;
    return s;
}

TStmt *tb_out(TmplParser *p, const TmplTok *open, TExpr *e)
{
    TStmt *s = stmt_new(p, TS_OUT, open->pos);
    s->expr = e;
    return s;
}

TStmt *tb_set(TmplParser *p, const TmplTok *kw, const TmplTok *name, TExpr *e)
{
    TStmt *s = stmt_new(p, TS_SET, kw->pos);
    s->var = name->s;
    s->expr = e;
    return s;
}

TStmt *tb_if(TmplParser *p, const TmplTok *kw, TExpr *cond, TList body)
{
    TStmt *s = stmt_new(p, TS_IF, kw->pos);
    return tb_elif(p, s, kw, cond, body);
}

TStmt *tb_elif(TmplParser *p, TStmt *s, const TmplTok *kw, TExpr *cond, TList body)
{
    (void)kw;
    TArm *arm = arena_alloc(p->a, sizeof *arm);
    arm->cond = cond;
    arm->body = body;
    if (s->arms_tail)
        s->arms_tail->next = arm;
    else
        s->arms = arm;
    s->arms_tail = arm;
    return s;
}

TStmt *tb_else(TmplParser *p, TStmt *s, TList body)
{
    (void)p;
    s->body = body;
    s->has_else = true;
    return s;
}

TStmt *tb_for(TmplParser *p, const TmplTok *kw, const TmplTok *name, TExpr *list)
{
    TStmt *s = stmt_new(p, TS_FOR, kw->pos);
    s->var = name->s;
    s->expr = list;
    return s;
}

TStmt *tb_for_body(TmplParser *p, TStmt *s, TList body)
{
    (void)p;
    s->body = body;
    return s;
}

static TExpr *expr_new(TmplParser *p, TExprKind kind, Pos pos)
{
    TExpr *e = arena_alloc(p->a, sizeof *e);
    e->kind = kind;
    e->pos = pos;
    return e;
}

/* Gives `e` the height of its deepest child plus one (a literal or a name
 * is 0); a tree taller than TMPL_MAX_DEPTH is refused so the recursion of
 * evaluation stays bounded. */
static TExpr *deepen(TmplParser *p, TExpr *e, const TExpr *child)
{
    if (child && child->depth + 1 > e->depth)
        e->depth = child->depth + 1;
    if (e->depth > TMPL_MAX_DEPTH && !p->failed) {
        error_at(p->d, "tmpl-depth", e->pos, "expression nests deeper than %d levels",
                 TMPL_MAX_DEPTH);
        p->failed = true;
    }
    return e;
}

TExpr *tb_int(TmplParser *p, const TmplTok *t)
{
    TExpr *e = expr_new(p, TE_INT, t->pos);
    e->num = t->num;
    return e;
}

TExpr *tb_str(TmplParser *p, const TmplTok *t)
{
    TExpr *e = expr_new(p, TE_STR, t->pos);
    e->str = t->s;
    e->len = t->n;
    return e;
}

TExpr *tb_name(TmplParser *p, const TmplTok *t)
{
    TExpr *e = expr_new(p, TE_NAME, t->pos);
    e->names = arena_alloc(p->a, sizeof *e->names);
    e->name_pos = arena_alloc(p->a, sizeof *e->name_pos);
    e->names[0] = t->s;
    e->name_pos[0] = t->pos;
    e->nnames = 1;
    return e;
}

TExpr *tb_field(TmplParser *p, TExpr *path, const TmplTok *t)
{
    unsigned n = path->nnames;
    const char **names = arena_alloc(p->a, (n + 1) * sizeof *names);
    Pos *pos = arena_alloc(p->a, (n + 1) * sizeof *pos);
    memcpy(names, path->names, n * sizeof *names);
    memcpy(pos, path->name_pos, n * sizeof *pos);
    names[n] = t->s;
    pos[n] = t->pos;
    path->names = names;
    path->name_pos = pos;
    path->nnames = n + 1;
    path->pos = span(pos[0], t->pos);
    return path;
}

TExpr *tb_defined(TmplParser *p, const TmplTok *kw, TExpr *path)
{
    TExpr *e = expr_new(p, TE_DEFINED, kw->pos);
    e->names = path->names;
    e->name_pos = path->name_pos;
    e->nnames = path->nnames;
    return e;
}

TExpr *tb_not(TmplParser *p, const TmplTok *op, TExpr *operand)
{
    TExpr *e = expr_new(p, TE_NOT, op->pos);
    e->lhs = operand;
    return deepen(p, e, operand);
}

TExpr *tb_bin(TmplParser *p, TExprKind kind, const TmplTok *op, TExpr *l, TExpr *r)
{
    TExpr *e = expr_new(p, kind, op->pos);
    e->lhs = l;
    e->rhs = r;
    deepen(p, e, l);
    return deepen(p, e, r);
}

TArgs tb_arg(TmplParser *p, TArgs list, TExpr *e)
{
    TExpr **v = arena_alloc(p->a, (list.n + 1) * sizeof *v);
    if (list.n)
        memcpy(v, list.v, list.n * sizeof *v);
    v[list.n] = e;
    return (TArgs){v, list.n + 1};
}

static const TFilter *filter_by_name(const char *name)
{
    for (size_t i = 0; i < countof(filter_table); i++)
        if (strcmp(filter_table[i].name, name) == 0)
            return &filter_table[i];
    return NULL;
}

TExpr *tb_filter(TmplParser *p, TExpr *value, const TmplTok *name, const TArgs *args)
{
    TExpr *e = expr_new(p, TE_FILTER, name->pos);
    e->lhs = value;
    deepen(p, e, value);
    if (args) {
        e->args = args->v;
        e->nargs = args->n;
        for (unsigned i = 0; i < args->n; i++)
            deepen(p, e, args->v[i]);
    }
    if (p->failed)
        return e;
    e->filter = filter_by_name(name->s);
    if (!e->filter) {
        const char *names[countof(filter_table)];
        for (size_t i = 0; i < countof(filter_table); i++)
            names[i] = filter_table[i].name;
        Diag *g = error_at(p->d, "tmpl-filter", name->pos, "unknown filter `%s`", name->s);
        const char *near = closest_name(name->s, names, countof(names));
        if (near)
            diag_fixit(p->d, g, "did you mean `%s`?", near);
        p->failed = true;
        return e;
    }
    if (e->nargs != e->filter->nargs) {
        if (e->filter->nargs == 0)
            error_at(p->d, "tmpl-filter", name->pos, "filter `%s` takes no argument", name->s);
        else
            error_at(p->d, "tmpl-filter", name->pos, "filter `%s` takes one argument: %s",
                     name->s, e->filter->arg);
        p->failed = true;
        return e;
    }
    /* `x | default(v)`: a missing `x` is null rather than an error. */
    if (e->filter->fn == f_default && value->kind == TE_NAME)
        value->lenient = true;
    return e;
}

/* ==== syntax errors ====================================================== */

static const char *const token_text[TMPL_NTOKENS] = {
    [TT_CLOSE_EXPR] = "`}}`", [TT_CLOSE_STMT] = "`%}`", [TT_IF] = "`if`",
    [TT_ELIF] = "`elif`",     [TT_ELSE] = "`else`",     [TT_END] = "`end`",
    [TT_FOR] = "`for`",       [TT_SET] = "`set`",       [TT_IN] = "`in`",
    [TT_ASSIGN] = "`=`",      [TT_LPAREN] = "`(`",      [TT_RPAREN] = "`)`",
    [TT_COMMA] = "`,`",       [TT_DOT] = "`.`",
};

/* The order in which expected tokens are listed. */
static const int listed[] = {
    TT_CLOSE_EXPR, TT_CLOSE_STMT, TT_IF, TT_ELIF, TT_ELSE, TT_END, TT_FOR, TT_SET,
    TT_IN, TT_ASSIGN, TT_LPAREN, TT_RPAREN, TT_COMMA,
};

static const int statement_keywords[] = {TT_IF, TT_FOR, TT_SET, TT_ELIF, TT_ELSE, TT_END};

static void list_add(const char **items, size_t *n, const char *item)
{
    items[(*n)++] = item;
}

static void list_print(Buf *b, const char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_puts(b, i + 1 == n ? " or " : ", ");
        buf_puts(b, items[i]);
    }
}

static const char *describe_token(TmplParser *p, const TmplTok *t)
{
    switch (t->type) {
    case TK_EOF: return "the end of the template";
    case TT_TEXT: return "text";
    case TT_NAME: return arena_printf(p->a, "name `%s`", t->s);
    case TT_STRING: return "a string";
    case TT_INT: return arena_printf(p->a, "integer `%.*s`", (int)t->n, t->s);
    default: return arena_printf(p->a, "`%.*s`", (int)t->n, t->s);
    }
}

static bool is_comparison(int t)
{
    return t == TT_EQ || t == TT_NE || t == TT_LT || t == TT_LE || t == TT_GT || t == TT_GE;
}

static void note_block(TmplParser *p, Diag *g, const TmplOpen *o)
{
    diag_note(p->d, g, o->pos, "the innermost open block is this `%s`",
              o->kind == TT_IF ? "if" : "for");
}

void tmpl_syntax_error(TmplParser *p, const TmplTok *tok, const bool expected[TMPL_NTOKENS])
{
    if (p->failed)
        return;
    p->failed = true;
    int t = tok->type;
    const TmplOpen *top = p->nopen ? &p->open[p->nopen - 1] : NULL;
    Diags *d = p->d;

    if (t == TK_EOF && top) {
        error_at(d, "tmpl-syntax", top->pos, "this `%s` is never closed by `{%% end %%}`",
                 top->kind == TT_IF ? "if" : "for");
        return;
    }
    if (p->after_open && (t == TT_ELSE || t == TT_ELIF)) {
        const char *kw = t == TT_ELSE ? "else" : "elif";
        if (!top) {
            error_at(d, "tmpl-syntax", tok->pos, "`{%% %s %%}` without an open `if`", kw);
        } else if (top->kind == TT_FOR) {
            Diag *g = error_at(d, "tmpl-syntax", tok->pos,
                               "`{%% %s %%}` inside a `for`; only an `if` has `%s`", kw, kw);
            note_block(p, g, top);
        } else {
            Diag *g = error_at(d, "tmpl-syntax", tok->pos,
                               "`{%% %s %%}` after the `{%% else %%}` of this `if`", kw);
            diag_note(d, g, top->else_pos, "the `else` is here");
        }
        return;
    }
    if (p->after_open && t == TT_END && !top) {
        error_at(d, "tmpl-syntax", tok->pos, "`{%% end %%}` without an open `if` or `for`");
        return;
    }

    const char *items[32];
    size_t n = 0;
    Buf b = {0};
    if (p->after_open) {
        for (size_t i = 0; i < countof(statement_keywords); i++)
            if (expected[statement_keywords[i]])
                list_add(items, &n, token_text[statement_keywords[i]]);
        list_print(&b, items, n);
        error_at(d, "tmpl-syntax", tok->pos, "expected %s after `{%%`, found %s", b.p,
                 describe_token(p, tok));
        buf_free(&b);
        return;
    }
    bool ops = expected[TT_PLUS];
    if (ops && is_comparison(t)) {
        error_at(d, "tmpl-syntax", tok->pos,
                 "comparisons do not chain: `%.*s` cannot compare the result of a comparison "
                 "(combine comparisons with `and`)",
                 (int)tok->n, tok->s);
        return;
    }
    for (size_t i = 0; i < countof(listed); i++)
        if (expected[listed[i]] && !(listed[i] == TT_LPAREN && expected[TT_INT]))
            list_add(items, &n, token_text[listed[i]]);
    if (expected[TT_DOT] && !ops)
        list_add(items, &n, token_text[TT_DOT]);
    if (expected[TT_INT])
        list_add(items, &n, "an expression");
    else if (expected[TT_NAME])
        list_add(items, &n, p->prev == TT_PIPE ? "a filter name" : "a name");
    if (ops)
        list_add(items, &n, "an operator");
    if (n == 0)
        list_add(items, &n, "something else");
    list_print(&b, items, n);
    error_at(d, "tmpl-syntax", tok->pos, "expected %s, found %s", b.p, describe_token(p, tok));
    buf_free(&b);
}

void tmpl_stack_overflow(TmplParser *p)
{
    if (!p->failed)
        error_at(p->d, "tmpl-depth", p->cur->pos, "template nests too deeply to parse");
    p->failed = true;
}

/* ==== the parse driver =================================================== */

typedef struct TokVec {
    TmplTok *v;
    size_t n, cap;
} TokVec;

static void tokvec_push(TokVec *tv, const TmplTok *t)
{
    if (tv->n == tv->cap) {
        tv->cap = tv->cap ? tv->cap * 2 : 256;
        tv->v = xrealloc(tv->v, tv->cap * sizeof *tv->v);
    }
    tv->v[tv->n++] = *t;
}

static bool is_keyword(int type)
{
    switch (type) {
    case TT_IF: case TT_ELIF: case TT_ELSE: case TT_END: case TT_FOR: case TT_IN:
    case TT_SET: case TT_NOT: case TT_AND: case TT_OR: case TT_DEFINED:
        return true;
    default:
        return false;
    }
}

/* Lexes the whole template.  Adjacent pieces of text on one line become one
 * TEXT token; a word after `.` is always a field name (`bank.end`).
 * Returns false on a lexical error, keeping the tokens before it. */
static bool lex_all(TmplLexer *lx, TokVec *tv)
{
    for (;;) {
        TmplTok t;
        int type = tmpl_lex(lx, &t);
        if (type == TK_ERROR)
            return false;
        TmplTok *last = tv->n ? &tv->v[tv->n - 1] : NULL;
        if (type == TT_TEXT && last && last->type == TT_TEXT && last->s + last->n == t.s &&
            last->s[last->n - 1] != '\n') {
            last->n += t.n;
            continue;
        }
        if (last && last->type == TT_DOT && is_keyword(type))
            t.type = TT_NAME;
        tokvec_push(tv, &t);
        if (type == TK_EOF)
            return true;
    }
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_space(char c)
{
    return is_blank(c) || c == '\n' || c == '\v' || c == '\f';
}

/* Index just after the closer of the tag opened at `i`. */
static size_t after_tag(const TokVec *tv, size_t i)
{
    for (i++; i < tv->n; i++)
        if (tv->v[i].type == TT_CLOSE_EXPR || tv->v[i].type == TT_CLOSE_STMT)
            return i + 1;
    return tv->n;
}

/* A line holding only `{% %}` and `{# #}` tags and blanks produces
 * nothing: its blanks and its newline are dropped.  A "line" runs from one
 * newline in the text to the next; a tag may span several source lines. */
static void drop_standalone_lines(TokVec *tv)
{
    size_t i = 0;
    while (i < tv->n) {
        size_t j = i;
        bool blank = true;
        unsigned tags = 0;
        while (j < tv->n) {
            const TmplTok *t = &tv->v[j];
            if (t->type == TT_TEXT) {
                bool nl = t->s[t->n - 1] == '\n';
                for (size_t k = 0; k + nl < t->n; k++)
                    if (!is_blank(t->s[k]))
                        blank = false;
                j++;
                if (nl)
                    break;
            } else if (t->type == TK_COMMENT) {
                tags++;
                j++;
            } else if (t->type == TK_OPEN_STMT) {
                tags++;
                j = after_tag(tv, j);
            } else if (t->type == TT_OPEN_EXPR) {
                blank = false;
                j = after_tag(tv, j);
            } else {
                j++;
            }
        }
        if (blank && tags)
            for (size_t k = i; k < j; k++)
                if (tv->v[k].type == TT_TEXT)
                    tv->v[k].n = 0;
        i = j;
    }
}

/* `{{-` / `{%-` strip the whitespace before the tag, `-}}` / `-%}` the
 * whitespace after it, newlines included, up to the next non-blank or tag. */
static void apply_trim_markers(TokVec *tv)
{
    for (size_t i = 0; i < tv->n; i++) {
        const TmplTok *t = &tv->v[i];
        if (!t->trim)
            continue;
        if (t->type == TT_OPEN_EXPR || t->type == TK_OPEN_STMT) {
            for (size_t k = i; k-- > 0 && tv->v[k].type == TT_TEXT;) {
                TmplTok *x = &tv->v[k];
                while (x->n && is_space(x->s[x->n - 1]))
                    x->n--;
                if (x->n)
                    break;
            }
        } else {
            for (size_t k = i + 1; k < tv->n && tv->v[k].type == TT_TEXT; k++) {
                TmplTok *x = &tv->v[k];
                while (x->n && is_space(*x->s))
                    x->s++, x->n--;
                if (x->n)
                    break;
            }
        }
    }
}

/* Keeps the stack of open blocks after `{% KEYWORD` was accepted, for the
 * "never closed" and misplaced `else` messages and the depth limit. */
static void track_block(TmplParser *p, const TokVec *tv, size_t open)
{
    const TmplTok *kw = &tv->v[open + 1];
    switch (kw->type) {
    case TT_IF:
    case TT_FOR: {
        size_t close = after_tag(tv, open) - 1;
        Pos pos = tv->v[open].pos;
        if (close < tv->n)
            pos = span(pos, tv->v[close].pos);
        if (p->nopen == TMPL_MAX_DEPTH) {
            error_at(p->d, "tmpl-depth", pos, "blocks nest deeper than %d levels", TMPL_MAX_DEPTH);
            p->failed = true;
            return;
        }
        p->open[p->nopen++] = (TmplOpen){kw->type, pos, false, {0}};
        break;
    }
    case TT_ELSE:
        if (p->nopen) {
            p->open[p->nopen - 1].seen_else = true;
            p->open[p->nopen - 1].else_pos = kw->pos;
        }
        break;
    case TT_END:
        if (p->nopen)
            p->nopen--;
        break;
    default:
        break;
    }
}

/* Pushes the tokens into the parser.  Stops at the first error. */
static void push_tokens(TmplParser *p, void *lp, const TokVec *tv)
{
    unsigned parens = 0;
    size_t open = 0;
    bool after_open = false;
    p->prev = -1;
    for (size_t i = 0; i < tv->n && !p->failed; i++) {
        const TmplTok *t = &tv->v[i];
        switch (t->type) {
        case TK_COMMENT:
            continue;
        case TK_OPEN_STMT:
            open = i;
            after_open = true;
            continue;
        case TT_TEXT:
            if (t->n == 0)
                continue;
            break;
        case TT_LPAREN:
            if (++parens > TMPL_MAX_DEPTH) {
                error_at(p->d, "tmpl-depth", t->pos, "parentheses nest deeper than %d levels",
                         TMPL_MAX_DEPTH);
                p->failed = true;
                return;
            }
            break;
        case TT_RPAREN:
            if (parens)
                parens--;
            break;
        case TT_CLOSE_EXPR:
        case TT_CLOSE_STMT:
            parens = 0;
            break;
        default:
            break;
        }
        p->cur = t;
        p->after_open = after_open;
        TmplParse(lp, t->type, *t);
        if (!p->failed && after_open)
            track_block(p, tv, open);
        after_open = false;
        p->prev = t->type;
    }
}

Template *tmpl_parse(Arena *a, const SrcFile *src, Diags *d)
{
    TmplLexer lx;
    tmpl_lex_init(&lx, a, src);
    TokVec tv = {0};
    bool lexed = lex_all(&lx, &tv);
    drop_standalone_lines(&tv);
    apply_trim_markers(&tv);

    TmplParser p = {0};
    p.a = a;
    p.d = d;
    void *lp = TmplParseAlloc(xmalloc, &p);
    /* Without a lexical error the last token is the end of input, which
     * completes the parse; with one, the parser sees the tokens before it
     * so that an earlier syntax error is the one reported. */
    push_tokens(&p, lp, &tv);
    if (!p.failed && !lexed) {
        error_at(d, lx.err_code, lx.err_pos, "%s", lx.err_msg);
        p.failed = true;
    }
    TmplParseFree(lp, free);
    free(tv.v);
    if (p.failed)
        return NULL;
    Template *t = arena_alloc(a, sizeof *t);
    t->src = src;
    t->body = p.root;
    return t;
}

/* ==== the interpreter ==================================================== */

typedef struct Binding {
    const char *name;
    Val v;
} Binding;

struct Render {
    Arena *a;
    Diags *d;
    const TVal *ctx;
    Buf *out;
    size_t out_start, mem_start, steps;
    Binding *b; /* the scopes, innermost last */
    size_t nb, cap;
};

static Val from_tval(const TVal *t)
{
    Val v = {.kind = t->kind};
    switch (t->kind) {
    case TV_NULL: break;
    case TV_BOOL: v.b = t->b; break;
    case TV_INT: v.i = t->i; break;
    case TV_STR:
        v.s = t->s ? t->s : "";
        v.len = strlen(v.s);
        break;
    case TV_LIST:
    case TV_MAP: v.tv = t; break;
    }
    return v;
}

static Val v_int(uint64_t i)
{
    return (Val){.kind = TV_INT, .i = i};
}

static Val v_bool(bool b)
{
    return (Val){.kind = TV_BOOL, .b = b};
}

static Val v_str(const char *s, size_t len)
{
    return (Val){.kind = TV_STR, .s = s, .len = len};
}

static Val v_buf(Render *r, const Buf *b)
{
    return v_str(arena_strndup(r->a, b->p ? b->p : "", b->len), b->len);
}

static const char *kind_name(TValKind k)
{
    switch (k) {
    case TV_NULL: return "null";
    case TV_BOOL: return "a boolean";
    case TV_INT: return "an integer";
    case TV_STR: return "a string";
    case TV_LIST: return "a list";
    case TV_MAP: return "a map";
    }
    return "?";
}

static bool truthy(const Val *v)
{
    switch (v->kind) {
    case TV_NULL: return false;
    case TV_BOOL: return v->b;
    case TV_INT: return v->i != 0;
    case TV_STR: return v->len != 0;
    case TV_LIST:
    case TV_MAP: return v->tv->n != 0;
    }
    return false;
}

/* `a.b.c`, the first `n` parts of a path, for messages. */
static const char *path_text(Render *r, const TExpr *e, unsigned n)
{
    Buf b = {0};
    for (unsigned i = 0; i < n; i++) {
        if (i)
            buf_putc(&b, '.');
        buf_puts(&b, e->names[i]);
    }
    const char *s = arena_strdup(r->a, b.p);
    buf_free(&b);
    return s;
}

/* How an expression is named in a message. */
static const char *describe(Render *r, const TExpr *e)
{
    switch (e->kind) {
    case TE_NAME: return arena_printf(r->a, "`%s`", path_text(r, e, e->nnames));
    case TE_FILTER: return arena_printf(r->a, "the result of `%s`", e->filter->name);
    default: return "the value";
    }
}

static bool fail(Render *r, const char *code, Pos pos, const char *fmt, ...) PRINTF_LIKE(4, 5);
static bool fail(Render *r, const char *code, Pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(r->d, SEV_ERROR, code, pos, fmt, ap);
    va_end(ap);
    return false;
}

/* The limits that keep a hostile template from running away. */
static bool step(Render *r, Pos pos)
{
    if (++r->steps > TMPL_MAX_STEPS)
        return fail(r, "tmpl-limit", pos, "template runs more than %u steps", TMPL_MAX_STEPS);
    if (arena_bytes(r->a) - r->mem_start > TMPL_MAX_MEMORY)
        return fail(r, "tmpl-limit", pos, "template uses more than %u MiB of memory",
                    TMPL_MAX_MEMORY >> 20);
    return true;
}

static bool put(Render *r, Pos pos, const char *s, size_t n)
{
    if (r->out->len - r->out_start + n > TMPL_MAX_OUTPUT)
        return fail(r, "tmpl-limit", pos, "output grows past the %u MiB limit",
                    TMPL_MAX_OUTPUT >> 20);
    buf_putn(r->out, s, n);
    return true;
}

static void bind(Render *r, size_t scope, const char *name, Val v)
{
    for (size_t i = r->nb; i-- > scope;)
        if (strcmp(r->b[i].name, name) == 0) {
            r->b[i].v = v;
            return;
        }
    if (r->nb == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 32;
        r->b = xrealloc(r->b, r->cap * sizeof *r->b);
    }
    r->b[r->nb++] = (Binding){name, v};
}

typedef enum { LOOK_STRICT, LOOK_LENIENT, LOOK_PROBE } LookMode;

static void suggest(Render *r, Diag *g, const char *word, const char **cands, size_t n)
{
    const char *near = closest_name(word, cands, n);
    if (near)
        diag_fixit(r->d, g, "did you mean `%s`?", near);
}

static bool unknown_name(Render *r, const TExpr *e)
{
    const char *word = e->names[0];
    Diag *g = error_at(r->d, "tmpl-name", e->name_pos[0], "unknown name `%s`", word);
    size_t nctx = r->ctx && r->ctx->kind == TV_MAP ? r->ctx->n : 0;
    const char **cands = xmalloc((r->nb + nctx) * sizeof *cands);
    size_t n = 0;
    for (size_t i = 0; i < r->nb; i++)
        cands[n++] = r->b[i].name;
    for (size_t i = 0; i < nctx; i++)
        cands[n++] = r->ctx->keys[i];
    suggest(r, g, word, cands, n);
    free(cands);
    return false;
}

/* Resolves a dotted name.  LOOK_LENIENT gives null for anything missing,
 * LOOK_PROBE sets *found instead of reporting a missing name. */
static bool lookup(Render *r, const TExpr *e, LookMode mode, Val *out, bool *found)
{
    const char *first = e->names[0];
    const TVal *t = NULL;
    size_t i = r->nb;
    while (i-- > 0)
        if (strcmp(r->b[i].name, first) == 0)
            break;
    if (i != SIZE_MAX) {
        *out = r->b[i].v;
    } else if ((t = tv_get(r->ctx, first)) != NULL) {
        *out = from_tval(t);
    } else {
        if (mode == LOOK_STRICT)
            return unknown_name(r, e);
        *out = (Val){.kind = TV_NULL};
        if (found)
            *found = false;
        return true;
    }
    for (unsigned k = 1; k < e->nnames; k++) {
        if (out->kind != TV_MAP)
            return fail(r, "tmpl-type", e->name_pos[k], "`%s` is %s, not a map; it has no field `%s`",
                        path_text(r, e, k), kind_name(out->kind), e->names[k]);
        t = tv_get(out->tv, e->names[k]);
        if (!t) {
            if (mode != LOOK_STRICT) {
                *out = (Val){.kind = TV_NULL};
                if (found)
                    *found = false;
                return true;
            }
            Diag *g = error_at(r->d, "tmpl-name", e->name_pos[k], "`%s` has no field `%s`",
                               path_text(r, e, k), e->names[k]);
            suggest(r, g, e->names[k], out->tv->keys, out->tv->n);
            return false;
        }
        *out = from_tval(t);
    }
    if (found)
        *found = true;
    return true;
}

static bool eval(Render *r, const TExpr *e, Val *out);

static bool compare(Render *r, const TExpr *e, const Val *a, const Val *b, Val *out)
{
    const char *op = e->kind == TE_EQ ? "==" : e->kind == TE_NE ? "!=" : e->kind == TE_LT ? "<"
                   : e->kind == TE_LE ? "<=" : e->kind == TE_GT ? ">" : ">=";
    if (e->kind == TE_EQ || e->kind == TE_NE) {
        bool eq;
        if (a->kind != b->kind || (a->kind != TV_INT && a->kind != TV_STR && a->kind != TV_BOOL))
            return fail(r, "tmpl-type", e->pos,
                        "`%s` compares two integers, two strings or two booleans, not %s and %s",
                        op, kind_name(a->kind), kind_name(b->kind));
        if (a->kind == TV_INT)
            eq = a->i == b->i;
        else if (a->kind == TV_BOOL)
            eq = a->b == b->b;
        else
            eq = a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
        *out = v_bool(e->kind == TE_EQ ? eq : !eq);
        return true;
    }
    if (a->kind != TV_INT || b->kind != TV_INT)
        return fail(r, "tmpl-type", e->pos, "`%s` compares two integers, not %s and %s", op,
                    kind_name(a->kind), kind_name(b->kind));
    bool res = e->kind == TE_LT ? a->i < b->i : e->kind == TE_LE ? a->i <= b->i
             : e->kind == TE_GT ? a->i > b->i : a->i >= b->i;
    *out = v_bool(res);
    return true;
}

static bool arith(Render *r, const TExpr *e, const Val *a, const Val *b, Val *out)
{
    const char *op = e->kind == TE_ADD ? "+" : "-";
    if (a->kind != TV_INT || b->kind != TV_INT)
        return fail(r, "tmpl-type", e->pos, "`%s` needs two integers, not %s and %s", op,
                    kind_name(a->kind), kind_name(b->kind));
    if (e->kind == TE_ADD) {
        if (a->i > UINT64_MAX - b->i)
            return fail(r, "tmpl-overflow", e->pos,
                        "%" PRIu64 " + %" PRIu64 " does not fit in 64 bits", a->i, b->i);
        *out = v_int(a->i + b->i);
    } else {
        if (b->i > a->i)
            return fail(r, "tmpl-overflow", e->pos,
                        "%" PRIu64 " - %" PRIu64 " is below zero (integers are unsigned)", a->i,
                        b->i);
        *out = v_int(a->i - b->i);
    }
    return true;
}

static bool eval(Render *r, const TExpr *e, Val *out)
{
    Val a, b;
    bool found;
    switch (e->kind) {
    case TE_INT:
        *out = v_int(e->num);
        return true;
    case TE_STR:
        *out = v_str(e->str, e->len);
        return true;
    case TE_NAME:
        return lookup(r, e, e->lenient ? LOOK_LENIENT : LOOK_STRICT, out, NULL);
    case TE_DEFINED:
        if (!lookup(r, e, LOOK_PROBE, &a, &found))
            return false;
        *out = v_bool(found);
        return true;
    case TE_NOT:
        if (!eval(r, e->lhs, &a))
            return false;
        *out = v_bool(!truthy(&a));
        return true;
    case TE_AND:
    case TE_OR:
        if (!eval(r, e->lhs, &a))
            return false;
        if (truthy(&a) == (e->kind == TE_OR)) {
            *out = v_bool(e->kind == TE_OR);
            return true;
        }
        if (!eval(r, e->rhs, &b))
            return false;
        *out = v_bool(truthy(&b));
        return true;
    case TE_EQ: case TE_NE: case TE_LT: case TE_LE: case TE_GT: case TE_GE:
        return eval(r, e->lhs, &a) && eval(r, e->rhs, &b) && compare(r, e, &a, &b, out);
    case TE_ADD:
    case TE_SUB:
        return eval(r, e->lhs, &a) && eval(r, e->rhs, &b) && arith(r, e, &a, &b, out);
    case TE_FILTER: {
        Val args[1];
        if (!eval(r, e->lhs, out))
            return false;
        for (unsigned i = 0; i < e->nargs; i++)
            if (!eval(r, e->args[i], &args[i]))
                return false;
        return e->filter->fn(r, e, out, args);
    }
    }
    BUG("unknown expression kind");
}

/* ==== filters ============================================================ */

static bool filter_type(Render *r, const TExpr *e, const Val *v, const char *want)
{
    return fail(r, "tmpl-filter", e->pos, "filter `%s` needs %s, got %s", e->filter->name, want,
                kind_name(v->kind));
}

static bool need_str(Render *r, const TExpr *e, const Val *v)
{
    return v->kind == TV_STR || filter_type(r, e, v, "a string");
}

static bool need_int(Render *r, const TExpr *e, const Val *v)
{
    return v->kind == TV_INT || filter_type(r, e, v, "an integer");
}

static bool arg_type(Render *r, const TExpr *e, const Val *arg, TValKind want)
{
    if (arg->kind == want)
        return true;
    return fail(r, "tmpl-filter", e->args[0]->pos, "%s of `%s` must be %s, got %s", e->filter->arg,
                e->filter->name, kind_name(want), kind_name(arg->kind));
}

static bool map_chars(Render *r, Val *v, char (*f)(char))
{
    char *s = arena_strndup(r->a, v->s, v->len);
    for (size_t i = 0; i < v->len; i++)
        s[i] = f(s[i]);
    *v = v_str(s, v->len);
    return true;
}

static char ascii_upper(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool f_upper(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    return need_str(r, e, v) && map_chars(r, v, ascii_upper);
}

static bool f_lower(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    return need_str(r, e, v) && map_chars(r, v, ascii_lower);
}

static bool f_camel(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    if (!need_str(r, e, v))
        return false;
    const char *s = to_camel(r->a, v->s);
    *v = v_str(s, strlen(s));
    return true;
}

static bool f_ident(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    if (!need_str(r, e, v))
        return false;
    if (!is_c_ident(v->s))
        return fail(r, "tmpl-filter", e->pos, "filter `ident`: \"%.40s\" is not a C identifier",
                    v->s);
    return true;
}

static bool print_int(Render *r, const TExpr *e, Val *v, const char *fmt)
{
    if (!need_int(r, e, v))
        return false;
    const char *s = arena_printf(r->a, fmt, v->i);
    *v = v_str(s, strlen(s));
    return true;
}

static bool f_hex(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    return print_int(r, e, v, "0x%" PRIX64);
}

static bool f_hex8(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    if (v->kind == TV_INT && v->i > UINT32_MAX)
        return fail(r, "tmpl-filter", e->pos, "filter `hex8`: 0x%" PRIX64 " needs more than 8 hex digits",
                    v->i);
    return print_int(r, e, v, "0x%08" PRIX64);
}

static bool f_hex16(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    return print_int(r, e, v, "0x%016" PRIX64);
}

static bool f_dec(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    return print_int(r, e, v, "%" PRIu64);
}

static bool f_ull(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    return print_int(r, e, v, "%" PRIu64 "ull");
}

/* A C string literal.  Bytes outside printable ASCII become three-digit
 * octal escapes (never \x, which would swallow a following hex digit), and
 * a `?` after a `?` is escaped so no trigraph can form. */
static bool f_cstr(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    if (!need_str(r, e, v))
        return false;
    Buf b = {0};
    buf_putc(&b, '"');
    for (size_t i = 0; i < v->len; i++) {
        unsigned char c = (unsigned char)v->s[i];
        switch (c) {
        case '"': buf_puts(&b, "\\\""); break;
        case '\\': buf_puts(&b, "\\\\"); break;
        case '\n': buf_puts(&b, "\\n"); break;
        case '\t': buf_puts(&b, "\\t"); break;
        case '\r': buf_puts(&b, "\\r"); break;
        case '?':
            buf_puts(&b, i && v->s[i - 1] == '?' ? "\\?" : "?");
            break;
        default:
            if (c < 0x20 || c >= 0x7F)
                buf_printf(&b, "\\%03o", c);
            else
                buf_putc(&b, (char)c);
        }
    }
    buf_putc(&b, '"');
    *v = v_buf(r, &b);
    buf_free(&b);
    return true;
}

/* Text safe inside a C block comment: a space splits every `*` `/` and
 * every `/` `*`, so the text can neither end the comment nor draw a
 * nested-comment warning. */
static bool f_comment(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    if (!need_str(r, e, v))
        return false;
    Buf b = {0};
    buf_putn(&b, "", 0);
    for (size_t i = 0; i < v->len; i++) {
        char c = v->s[i], next = v->s[i + 1];
        buf_putc(&b, c);
        if ((c == '*' && next == '/') || (c == '/' && next == '*'))
            buf_putc(&b, ' ');
    }
    *v = v_buf(r, &b);
    buf_free(&b);
    return true;
}

/* Columns are UTF-8 code points. */
static size_t columns(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static bool pad(Render *r, const TExpr *e, Val *v, const Val *args, bool right)
{
    if (v->kind == TV_INT) {
        const char *s = arena_printf(r->a, "%" PRIu64, v->i);
        *v = v_str(s, strlen(s));
    }
    if (v->kind != TV_STR)
        return filter_type(r, e, v, "a string or an integer");
    if (!arg_type(r, e, &args[0], TV_INT))
        return false;
    if (args[0].i > TMPL_MAX_OUTPUT)
        return fail(r, "tmpl-limit", e->args[0]->pos, "width %" PRIu64 " of `%s` is over the %u MiB output limit",
                    args[0].i, e->filter->name, TMPL_MAX_OUTPUT >> 20);
    size_t cols = columns(v->s, v->len), width = (size_t)args[0].i;
    if (cols >= width)
        return true;
    size_t fill = width - cols;
    char *s = arena_alloc(r->a, v->len + fill + 1);
    memset(right ? s : s + v->len, ' ', fill);
    memcpy(right ? s + fill : s, v->s, v->len);
    *v = v_str(s, v->len + fill);
    return true;
}

static bool f_pad(Render *r, const TExpr *e, Val *v, const Val *args)
{
    return pad(r, e, v, args, false);
}

static bool f_rpad(Render *r, const TExpr *e, Val *v, const Val *args)
{
    return pad(r, e, v, args, true);
}

static bool f_len(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)args;
    if (v->kind == TV_STR)
        *v = v_int(v->len);
    else if (v->kind == TV_LIST || v->kind == TV_MAP)
        *v = v_int(v->tv->n);
    else
        return filter_type(r, e, v, "a list, a map or a string");
    return true;
}

static bool f_join(Render *r, const TExpr *e, Val *v, const Val *args)
{
    if (v->kind != TV_LIST)
        return filter_type(r, e, v, "a list");
    if (!arg_type(r, e, &args[0], TV_STR))
        return false;
    Buf b = {0};
    buf_putn(&b, "", 0);
    for (size_t i = 0; i < v->tv->n; i++) {
        Val item = from_tval(v->tv->items[i]);
        if (i)
            buf_putn(&b, args[0].s, args[0].len);
        if (item.kind == TV_STR)
            buf_putn(&b, item.s, item.len);
        else if (item.kind == TV_INT)
            buf_printf(&b, "%" PRIu64, item.i);
        else {
            buf_free(&b);
            return fail(r, "tmpl-filter", e->pos,
                        "filter `join` needs a list of strings or integers; item %zu is %s", i,
                        kind_name(item.kind));
        }
        if (b.len > TMPL_MAX_OUTPUT) {
            buf_free(&b);
            return fail(r, "tmpl-limit", e->pos, "result of `join` is over the %u MiB output limit",
                        TMPL_MAX_OUTPUT >> 20);
        }
    }
    *v = v_buf(r, &b);
    buf_free(&b);
    return true;
}

static bool f_default(Render *r, const TExpr *e, Val *v, const Val *args)
{
    (void)r;
    (void)e;
    if (v->kind == TV_NULL)
        *v = args[0];
    return true;
}

/* ==== statements ========================================================= */

static bool exec_list(Render *r, const TList *l, size_t scope);

/* A body is a scope: its bindings go when it ends. */
static bool exec_body(Render *r, const TList *l)
{
    size_t scope = r->nb;
    bool ok = exec_list(r, l, scope);
    r->nb = scope;
    return ok;
}

static bool substitute(Render *r, const TStmt *s)
{
    Val v;
    char num[24];
    if (!eval(r, s->expr, &v))
        return false;
    switch (v.kind) {
    case TV_STR:
        return put(r, s->pos, v.s, v.len);
    case TV_INT:
        return put(r, s->pos, num, (size_t)snprintf(num, sizeof num, "%" PRIu64, v.i));
    case TV_BOOL:
        return put(r, s->pos, v.b ? "1" : "0", 1);
    case TV_NULL:
        return fail(r, "tmpl-type", s->expr->pos,
                    "%s is null; give it a value with `default(...)`", describe(r, s->expr));
    case TV_LIST:
    case TV_MAP:
        break;
    }
    return fail(r, "tmpl-type", s->expr->pos,
                "%s is %s; `{{ }}` substitutes only strings, integers and booleans",
                describe(r, s->expr), kind_name(v.kind));
}

static bool exec_for(Render *r, const TStmt *s)
{
    Val list;
    if (!eval(r, s->expr, &list))
        return false;
    if (list.kind != TV_LIST)
        return fail(r, "tmpl-type", s->expr->pos, "`for` needs a list; %s is %s",
                    describe(r, s->expr), kind_name(list.kind));
    /* One `loop` map per loop, updated in place: nothing a body can bind
     * outlives the iteration that bound it. */
    size_t n = list.tv->n;
    TVal *loop = tv_map(r->a), *index = tv_int(r->a, 0), *number = tv_int(r->a, 1);
    TVal *first = tv_bool(r->a, true), *last = tv_bool(r->a, false);
    tv_put(r->a, loop, "index", index);
    tv_put(r->a, loop, "number", number);
    tv_put(r->a, loop, "first", first);
    tv_put(r->a, loop, "last", last);
    tv_put(r->a, loop, "count", tv_int(r->a, n));
    Val loop_val = from_tval(loop);
    for (size_t i = 0; i < n; i++) {
        if (!step(r, s->pos))
            return false;
        index->i = i;
        number->i = i + 1;
        first->b = i == 0;
        last->b = i + 1 == n;
        size_t scope = r->nb;
        bind(r, scope, "loop", loop_val);
        bind(r, scope, s->var, from_tval(list.tv->items[i]));
        bool ok = exec_list(r, &s->body, scope);
        r->nb = scope;
        if (!ok)
            return false;
    }
    return true;
}

static bool exec_if(Render *r, const TStmt *s)
{
    for (const TArm *arm = s->arms; arm; arm = arm->next) {
        Val c;
        if (!eval(r, arm->cond, &c))
            return false;
        if (truthy(&c))
            return exec_body(r, &arm->body);
    }
    return !s->has_else || exec_body(r, &s->body);
}

static bool exec_list(Render *r, const TList *l, size_t scope)
{
    for (const TStmt *s = l->head; s; s = s->next) {
        if (!step(r, s->pos))
            return false;
        bool ok = true;
        Val v;
        switch (s->kind) {
        case TS_TEXT: ok = put(r, s->pos, s->text, s->len); break;
        case TS_OUT: ok = substitute(r, s); break;
        case TS_IF: ok = exec_if(r, s); break;
        case TS_FOR: ok = exec_for(r, s); break;
        case TS_SET:
            ok = eval(r, s->expr, &v);
            if (ok)
                bind(r, scope, s->var, v);
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

bool tmpl_render(Arena *a, const Template *t, const TVal *ctx, Buf *out, Diags *d)
{
    if (!t)
        return false;
    Render r = {0};
    r.a = a;
    r.d = d;
    r.ctx = ctx;
    r.out = out;
    r.out_start = out->len;
    r.mem_start = arena_bytes(a);
    buf_putn(out, "", 0); /* an empty result is still a string */
    bool ok = exec_body(&r, &t->body);
    free(r.b);
    return ok;
}
