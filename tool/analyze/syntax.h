/* SPDX-License-Identifier: Apache-2.0 */
/*
 * syntax.h - the analyze stage's read-only view of the source, public to the
 * later stages (plan, profile): cursors, ranges and operators (syntax.c), and
 * the const effects scan of a statement (effects.c). Nothing here writes the
 * analysis.
 */
#ifndef NPLUS1_SYNTAX_H
#define NPLUS1_SYNTAX_H

#include "analyze.h"
#include "cursor_set.h"

/* ---- syntax.c: cursors, ranges, operators ---- */

/* A list of cursors in order (a cursor's children, duplicates kept): the one cursor
 * vector type, cursor_set's (cursor_set.h), under the name that says it is a list. */
typedef cursor_set cursor_list;

cursor_list children_of(CXCursor c);
/* The last child of parent of this kind, or the null cursor: a function's body
 * (CXCursor_CompoundStmt), its last parameter (CXCursor_ParmDecl). */
CXCursor last_child_of_kind(CXCursor parent, enum CXCursorKind kind);
/* The barrier(...) or work_group_barrier(...) call that is kernel func's last statement,
 * written as such, or the null cursor (it orders nothing: docs/legality.md). */
CXCursor kernel_trailing_barrier(const analysis *an, CXCursor func);
/* Skips whitespace and comments from offset; returns the new offset. */
unsigned skip_space(const char *t, size_t len, unsigned off);
/* Skips whitespace, comments and inactive text (#if blocks not compiled, directive lines). */
unsigned skip_inactive(const analysis *an, unsigned file, unsigned off);
/* The extent of c in expansion coordinates; 0 on success. */
int cursor_range(const analysis *an, CXCursor c, src_range *r);
/* Like cursor_range, for a statement: includes its ';'. Memoised in an->stmt_ranges when
 * analyze_tu made it (syntax_memo_init; syntax_memo_free frees it). */
int stmt_range(const analysis *an, CXCursor c, src_range *r);
void syntax_memo_init(analysis *an);
void syntax_memo_free(analysis *an);
char *cursor_spelling(CXCursor c);
/* The body of a while, for or do statement (a do's first child, else the last), or null. */
CXCursor loop_body_of(CXCursor loop);
/* Strips implicit casts and parentheses. */
CXCursor strip(CXCursor c);
/* Strips implicit casts, parentheses and C-style casts too. */
CXCursor strip_casts(CXCursor c);
/* The single expression operand of a cast, paren or implicit node c; a null cursor when
 * it has none or several. */
CXCursor cast_operand(CXCursor c);
/* 1 with *v set when e (not null) evaluates to an integer constant. */
int int_constant(CXCursor e, long long *v);
/* The source text of e on one line (at most n-1 bytes, "..." when cut; printed in a macro). */
void expr_text(const analysis *an, CXCursor e, char *out, size_t n);
/* The spelling of c into out (cut to n-1 bytes). */
void spelling_into(CXCursor c, char *out, size_t n);
/* The declaration a name refers to (through casts and parentheses), or null. */
CXCursor referenced_decl(CXCursor e);
/* Is e (through strip) a name of decl? */
int names_decl(CXCursor e, CXCursor decl);
/* The position of parameter var among func's, or -1. */
int param_index(CXCursor func, CXCursor var);
/* The operator text of a binary / unary operator (libclang 14 does not expose the kind). */
void binary_operator(const analysis *an, CXCursor c, CXCursor lhs, CXCursor rhs, char *out,
                     size_t outlen);
void unary_operator(const analysis *an, CXCursor c, CXCursor operand, char *out,
                    size_t outlen);
int is_assignment_op(const char *op);
int is_logical_op(const char *op); /* && or || */

/* Is decl a parameter or a non-static local of a function? */
int is_local_decl(CXCursor decl);
/*
 * The local variable whose own storage the lvalue e is part of (x, x.f,
 * x[i] of a local array), or the null cursor when e is in memory.
 */
CXCursor local_root(CXCursor e);
int type_is_pointer(CXType t);
/* A parameter declared as an array (`uchar p[16]`): a pointer, which libclang shows with
 * the array type it was written with. */
int is_array_param(CXCursor decl);
/* Is the expression e (parentheses and implicit casts stripped) a pointer: of pointer type,
 * or an array parameter? */
int expr_is_pointer(CXCursor e);
/* Does t's spelling hold word (an address space, a qualifier)? */
int spelling_has(CXType t, const char *word);

/* ---- effects.c: the const effects scan ---- */

/* The effects of c, part of function func (whose locals are tracked). */
void effects_of(const analysis *an, CXCursor func, CXCursor c, effects *fx);

#endif
