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

#endif
