/*
 * tmpl_gram.y - the template grammar (Lemon).
 *
 * Actions only call the tb_* builders of tmpl.c.  Every tree node lives
 * in the compilation's arena, so no symbol needs a %destructor: dropping a
 * half-built tree on a syntax error leaks nothing.
 *
 * The driver (tmpl.c) does not push `{%`: a statement starts with its
 * keyword, which is how `{% if %}` ... `{% elif %}` ... `{% end %}` stays
 * LALR(1) (the parser decides between "another statement in this body" and
 * "the body ends here" on the keyword).  Comments never reach the parser.
 */

%name TmplParse
%token_prefix TT_
%token_type {TmplTok}
%extra_context {TmplParser *ctx}
%stack_size 1000

%include {
#include "tmpl_int.h"

#include <assert.h>
#include <stdlib.h>

static void expected_tokens(void *parser, bool expected[TMPL_NTOKENS]);
}

%syntax_error {
    bool expected[TMPL_NTOKENS] = {0};
    expected_tokens(yypParser, expected);
    tmpl_syntax_error(ctx, &TOKEN, expected);
    (void)yymajor;
}

%stack_overflow {
    tmpl_stack_overflow(ctx);
}

/* Terminals in a fixed order, so TT_ codes do not move when rules do. */
%token TEXT OPEN_EXPR CLOSE_EXPR CLOSE_STMT
       IF ELIF ELSE END FOR IN SET DEFINED
       NAME INT STRING ASSIGN LPAREN RPAREN DOT COMMA.

%left PIPE.
%left OR.
%left AND.
%right NOT.
%nonassoc EQ NE LT LE GT GE.
%left PLUS MINUS.

%type body {TList}
%type item {TStmt *}
%type if_arms {TStmt *}
%type for_head {TStmt *}
%type expr {TExpr *}
%type path {TExpr *}
%type args {TArgs}

template ::= body(B).                               { ctx->root = B; }

body(A) ::= .                                       { A = tl_empty(); }
body(A) ::= body(B) item(I).                        { A = tl_add(B, I); }

item(A) ::= TEXT(T).                                { A = tb_text(ctx, &T); }
item(A) ::= OPEN_EXPR(O) expr(E) CLOSE_EXPR.        { A = tb_out(ctx, &O, E); }
item(A) ::= SET(K) NAME(N) ASSIGN expr(E) CLOSE_STMT.
                                                    { A = tb_set(ctx, &K, &N, E); }
item(A) ::= if_arms(S) END CLOSE_STMT.              { A = S; }
item(A) ::= if_arms(S) ELSE CLOSE_STMT body(B) END CLOSE_STMT.
                                                    { A = tb_else(ctx, S, B); }
item(A) ::= for_head(S) body(B) END CLOSE_STMT.     { A = tb_for_body(ctx, S, B); }

if_arms(A) ::= IF(K) expr(E) CLOSE_STMT body(B).    { A = tb_if(ctx, &K, E, B); }
if_arms(A) ::= if_arms(S) ELIF(K) expr(E) CLOSE_STMT body(B).
                                                    { A = tb_elif(ctx, S, &K, E, B); }

for_head(A) ::= FOR(K) NAME(N) IN expr(E) CLOSE_STMT.
                                                    { A = tb_for(ctx, &K, &N, E); }

expr(A) ::= INT(T).                                 { A = tb_int(ctx, &T); }
expr(A) ::= STRING(T).                              { A = tb_str(ctx, &T); }
expr(A) ::= path(P).                                { A = P; }
expr(A) ::= DEFINED(K) LPAREN path(P) RPAREN.       { A = tb_defined(ctx, &K, P); }
expr(A) ::= LPAREN expr(E) RPAREN.                  { A = E; }
expr(A) ::= NOT(O) expr(E).                         { A = tb_not(ctx, &O, E); }
expr(A) ::= expr(L) OR(O) expr(R).                  { A = tb_bin(ctx, TE_OR, &O, L, R); }
expr(A) ::= expr(L) AND(O) expr(R).                 { A = tb_bin(ctx, TE_AND, &O, L, R); }
expr(A) ::= expr(L) EQ(O) expr(R).                  { A = tb_bin(ctx, TE_EQ, &O, L, R); }
expr(A) ::= expr(L) NE(O) expr(R).                  { A = tb_bin(ctx, TE_NE, &O, L, R); }
expr(A) ::= expr(L) LT(O) expr(R).                  { A = tb_bin(ctx, TE_LT, &O, L, R); }
expr(A) ::= expr(L) LE(O) expr(R).                  { A = tb_bin(ctx, TE_LE, &O, L, R); }
expr(A) ::= expr(L) GT(O) expr(R).                  { A = tb_bin(ctx, TE_GT, &O, L, R); }
expr(A) ::= expr(L) GE(O) expr(R).                  { A = tb_bin(ctx, TE_GE, &O, L, R); }
expr(A) ::= expr(L) PLUS(O) expr(R).                { A = tb_bin(ctx, TE_ADD, &O, L, R); }
expr(A) ::= expr(L) MINUS(O) expr(R).               { A = tb_bin(ctx, TE_SUB, &O, L, R); }
expr(A) ::= expr(E) PIPE NAME(F).                   { A = tb_filter(ctx, E, &F, NULL); }
expr(A) ::= expr(E) PIPE NAME(F) LPAREN args(L) RPAREN.
                                                    { A = tb_filter(ctx, E, &F, &L); }

args(A) ::= expr(E).                                { A = tb_arg(ctx, (TArgs){0}, E); }
args(A) ::= args(L) COMMA expr(E).                  { A = tb_arg(ctx, L, E); }

path(A) ::= NAME(N).                                { A = tb_name(ctx, &N); }
path(A) ::= path(P) DOT NAME(N).                    { A = tb_field(ctx, P, &N); }

%code {
/* Which terminals the parser would accept now: runs the LALR automaton on
 * a copy of the state stack for each terminal, reductions included, without
 * touching the real parser or running any action.  Used only to word the
 * syntax error. */
static bool accepts(const yyParser *p, YYCODETYPE tok)
{
    YYACTIONTYPE st[YYSTACKDEPTH + 2];
    int n = 0;
    for (const yyStackEntry *e = p->yystack; e <= p->yytos; e++)
        st[n++] = e->stateno;
    YYACTIONTYPE act = st[n - 1];
    for (;;) {
        act = yy_find_shift_action(tok, act);
        if (act >= YY_MIN_REDUCE && act <= YY_MAX_REDUCE) {
            unsigned rule = act - YY_MIN_REDUCE;
            int size = yyRuleInfoNRhs[rule];
            if (n + size < 1 || n + size + 1 > (int)(sizeof st / sizeof st[0]))
                return false;
            act = yy_find_reduce_action(st[n - 1 + size], yyRuleInfoLhs[rule]);
            st[n + size] = act;
            n += size + 1;
            continue;
        }
        return act <= YY_MAX_SHIFTREDUCE || act == YY_ACCEPT_ACTION;
    }
}

static void expected_tokens(void *parser, bool expected[TMPL_NTOKENS])
{
    _Static_assert(YYNTOKEN <= TMPL_NTOKENS, "raise TMPL_NTOKENS");
    for (int t = 0; t < YYNTOKEN; t++)
        expected[t] = accepts(parser, (YYCODETYPE)t);
}
}
