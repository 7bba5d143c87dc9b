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

#endif
