/* SPDX-License-Identifier: MIT */
/*
 * expr_gram.y - the expression grammar (Lemon).
 *
 *   expr ::= expr OP expr          | ^ & << >> + - * / %, C precedence
 *          | - expr | ~ expr | + expr
 *          | expr UNIT             postfix: 512 MiB, (1+1)GiB, 4 pages
 *          | NUM | NAME | ( expr )
 *          | NAME ( )  | NAME ( expr , ... )
 *
 * Precedence lines instead of one nonterminal per level.  Actions call the
 * builders in expr.c; the driver loop (expr_parse) lexes and pushes.
 * Every value lives in the compilation's arena, so no %destructor.
 */

%name ExprParser
%token_prefix EXPR_TK_
%token_type {ExprTok}
%extra_context {ExprParse *ctx}

%include {
#include "expr_int.h"
}

/* A legal expression nests at most EXPR_MAX_DEPTH operators or calls and
 * EXPR_MAX_DEPTH parentheses (both checked by expr.c), so it never needs
 * more than 5 * EXPR_MAX_DEPTH + 2 entries; the %code block below checks
 * that this size covers that.  Deeper input fills the stack, which is
 * reported as the same limit. */
%stack_size 400
%stack_overflow { expr_too_deep(ctx, ctx->tok.pos); }
%syntax_error { expr_syntax_error(ctx, yymajor, TOKEN); }

%left OR.
%left XOR.
%left AND.
%left SHL SHR.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%right TILDE NEG.
%left UNIT.

%type expr {PExpr}
%type args {PArgs}

start ::= expr(A).                      { ctx->result = A; }

expr(A) ::= expr(B) OR(O) expr(C).      { A = expr_b_bin(ctx, B, OP_OR, O, C); }
expr(A) ::= expr(B) XOR(O) expr(C).     { A = expr_b_bin(ctx, B, OP_XOR, O, C); }
expr(A) ::= expr(B) AND(O) expr(C).     { A = expr_b_bin(ctx, B, OP_AND, O, C); }
expr(A) ::= expr(B) SHL(O) expr(C).     { A = expr_b_bin(ctx, B, OP_SHL, O, C); }
expr(A) ::= expr(B) SHR(O) expr(C).     { A = expr_b_bin(ctx, B, OP_SHR, O, C); }
expr(A) ::= expr(B) PLUS(O) expr(C).    { A = expr_b_bin(ctx, B, OP_ADD, O, C); }
expr(A) ::= expr(B) MINUS(O) expr(C).   { A = expr_b_bin(ctx, B, OP_SUB, O, C); }
expr(A) ::= expr(B) STAR(O) expr(C).    { A = expr_b_bin(ctx, B, OP_MUL, O, C); }
expr(A) ::= expr(B) SLASH(O) expr(C).   { A = expr_b_bin(ctx, B, OP_DIV, O, C); }
expr(A) ::= expr(B) PERCENT(O) expr(C). { A = expr_b_bin(ctx, B, OP_MOD, O, C); }

expr(A) ::= MINUS(O) expr(B). [NEG]     { A = expr_b_unary(ctx, EX_NEG, O, B); }
expr(A) ::= PLUS(O) expr(B). [NEG]      { A = expr_b_plus(ctx, O, B); }
expr(A) ::= TILDE(O) expr(B).           { A = expr_b_unary(ctx, EX_NOT, O, B); }

expr(A) ::= expr(B) UNIT(U).            { A = expr_b_unit(ctx, B, U); }

expr(A) ::= NUM(N).                     { A = expr_b_leaf(ctx, EX_NUM, N); }
expr(A) ::= NAME(N).                    { A = expr_b_leaf(ctx, EX_REF, N); }
expr(A) ::= LP(L) expr(B) RP(R).        { A = expr_b_paren(ctx, L, B, R); }
expr(A) ::= NAME(N) LP RP(R).           { PArgs none = {0}; A = expr_b_call(ctx, N, none, R); }
expr(A) ::= NAME(N) LP args(B) RP(R).   { A = expr_b_call(ctx, N, B, R); }

args(A) ::= expr(B).                    { PArgs none = {0}; A = expr_b_arg(ctx, none, B); }
args(A) ::= args(B) COMMA expr(C).      { A = expr_b_arg(ctx, B, C); }

%code {
_Static_assert(YYSTACKDEPTH >= 5 * EXPR_MAX_DEPTH + 2,
               "%stack_size must hold the deepest legal expression");
_Static_assert(sizeof(yyParser) <= EXPR_PARSER_BYTES, "EXPR_PARSER_BYTES must hold the parser");
}
