/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_facts.h - what the plan stage asks of the source, answered by the
 * analyze stage (plan_facts.c, paths_facts.c, loop_facts.c,
 * context_facts.c): the plan carries the analysis's cursors as opaque
 * handles and reads them only through these functions, so that no file
 * under tool/plan/ calls libclang (tests/layout_check.py checks it). Each
 * function reads the const analysis and writes nothing into it; each is
 * asked on demand, for the kernels and decisions the plan reaches.
 */
#ifndef NPLUS1_PLAN_FACTS_H
#define NPLUS1_PLAN_FACTS_H

#include "analyze.h"
#include "diag.h"
#include "ir.h"
#include "syntax.h"

/* ---- plan_facts.c: handles, places ---- */

/* The null handle, and whether c is one. */
CXCursor cursor_null(void);
int cursor_is_null(CXCursor c);
/* Do a and b name the same entity (declaration, statement)? */
int cursors_equal(CXCursor a, CXCursor b);
/* Where c is, for a diagnostic (its expansion location). */
diag_loc cursor_diag_loc(const analysis *an, CXCursor c);
/* Is c's location (expansion coordinates) inside r? */
int cursor_inside(const analysis *an, CXCursor c, const src_range *r);
/* Where the local variable declaration var is: 0 and *out when var is a variable (not a
 * parameter) whose location is in a file, else -1. */
int var_decl_pos(const analysis *an, CXCursor var, src_pos *out);
/* Is the load (an access effects.c recorded) a read_image* call? */
int load_is_image_read(CXCursor load);

/* ---- paths_facts.c: the constant facts of impossible paths (tool/plan/paths.c) ---- */

/* The line of c's expansion location. */
unsigned cursor_expansion_line(CXCursor c);
/* `k = C;` or `int k = C;` with C an integer constant: 1 with k and C. */
int stmt_assigns_constant(const analysis *an, CXCursor stmt, CXCursor *var, long long *value);
/* Is var a private integer scalar of kernel k whose address k never takes, and does c fit
 * its type? (Walks k's body: asked only for an assignment the path runs.) */
int var_tracks_constant(const analysis *an, const kernel_info *k, CXCursor var, long long c);
/* Does the condition cond name only the kernel's own variables, enumerators and builtins
 * (no program-scope variable but a const one, also in the helpers it calls)? */
int cond_reads_only_locals(CXCursor cond);
/* Is var one of kernel k's parameters, a pointer to __constant memory (which no work-item
 * can write while the kernel runs)? */
int var_is_constant_pointer_param(const kernel_info *k, CXCursor var);
/* The variable the expression e names (parentheses and implicit casts stripped), or null. */
CXCursor named_var(CXCursor e);

/* The value a path knows var holds: a tag (non-NULL) and *value, or NULL when unknown. */
typedef const void *(*known_value_fn)(const void *ud, CXCursor var, long long *value);
typedef struct cond_value {
    int value;             /* 0 false, 1 true, -1 unknown */
    const void *used;      /* the tag of the known value that decided it */
} cond_value;
/* A condition (k OP C, C OP k, k, !k, && and || of those) from the values known() gives. */
cond_value cond_evaluate(const analysis *an, CXCursor e, known_value_fn known, const void *ud);

/* ---- loop_facts.c: the loop the tile kernel regroups (tool/plan/loop.c) ---- */

/* The line of c's spelling location. */
unsigned cursor_spelling_line(CXCursor c);
/* Is c a for, while or do loop whose body holds an if or a switch (at any depth)? */
int is_decision_loop(CXCursor c);
/* The first such loop in c (c itself included, pre-order), or null. */
CXCursor decision_loop_in(CXCursor c);
/* Is c a statement attribute around a loop (`#pragma unroll`, `__attribute__((opencl_unroll_hint))`:
 * libclang's unexposed statement whose child is the loop)? */
int is_attributed_loop(CXCursor c);
/* Appends the break and continue statements of loop's braced body that leave or restart
 * it (not those of an inner loop, nor a switch's break). */
void loop_jumps_of(CXCursor loop, cursor_list *out);
int is_break_stmt(CXCursor c);

/* How a loop statement is written. */
typedef struct loop_syntax {
    ir_loop_kind kind;
    unsigned nkids;          /* the statement's children */
    int braced;              /* two children or more, and the body is a { } */
    int body_bad;            /* not braced, or the body's range cannot be read */
    int body_holds;          /* the body (braced or not) is: 1 an if or switch, 2 a loop, 0 else */
    int decl_test;           /* while / do: the test is a declaration */
    int test_bad;            /* while / do with two children or more: the test is no
                              * declaration and is not one readable range */
} loop_syntax;
/* Fills ls; *body_range when braced, *test_range for a while / do's test. */
void loop_syntax_of(const analysis *an, CXCursor loop, loop_syntax *ls, src_range *body_range,
                    src_range *test_range);
/* An if whose then-statement is, or ends with, a break, continue or return. */
int if_ends_by_jump(CXCursor ifstmt);
int is_param_decl(CXCursor decl);
/* The type of the expression e, canonical, without a leading const / volatile (malloc'd). */
char *expr_value_type(CXCursor e);
/* sizeof the expression e's type (libclang's answer: negative when unknown). */
long long expr_type_size(CXCursor e);
/* A switch's braced body: 0 with its range, 1 when it has none. */
int switch_body_range(const analysis *an, CXCursor sw, src_range *body);
/* Appends the variables the declaration statement c declares (nothing for another statement). */
void decl_stmt_vars(CXCursor c, cursor_list *out);
/* A for loop's first part when it declares (`int i = 0`), else null. */
CXCursor for_init_decl(CXCursor loop);
/* Appends the function fn's parameters. */
void function_params(CXCursor fn, cursor_list *out);

/* ---- context_facts.c: a context's variables (tool/plan/context.c) ---- */

/* A variable as a context carries it. */
typedef struct var_facts {
    char *name;              /* as declared */
    unsigned line;           /* of the declaration (expansion) */
    unsigned bytes;          /* sizeof the whole variable */
    unsigned count;          /* a constant array: its elements; else 0 */
    char *value_type;        /* its type as libclang spells it ("__private float"), an
                              * array's element type */
    char *type;              /* its type as written */
    int const_value;         /* the value type is const once typedefs are seen through */
    int pointer;             /* its type is a pointer */
    int holds_pointer;       /* not a pointer, but a field at any depth or the element is */
    int movable;             /* the value type is a scalar (not bool), vector or struct */
    int local_type;          /* a type it spells is declared inside a function */
} var_facts;
void var_facts_of(CXCursor var, var_facts *f);
void var_facts_free(var_facts *f);
/* Has var an initializer? (An array's last child may be its size, not an initializer.) */
int var_initialized(CXCursor var);
/* Does the statement stmt name var anywhere inside it, or is stmt var itself? */
int stmt_mentions(CXCursor stmt, CXCursor var);

#endif
