/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_int.h - shared inside the plan stage (plan.c, slice.c,
 * rules_slice.c): the tree as flat lists, the classifier's slice, and the
 * legality rules that depend on the slice.
 */
#ifndef NPLUS1_PLAN_INT_H
#define NPLUS1_PLAN_INT_H

#include "plan.h"

/* The kernel tree as the plan's rules read it. */
typedef struct tree_lists {
    const decision_plan *dp;  /* the kernel plan's: which decisions are kept */
    unsigned char *in_slice;  /* the kernel plan's, by item id */
    const seq_item **items;   /* plain statements */
    unsigned nitems, capitems;
    const decision **decisions;
    unsigned ndecisions, capdecisions;
} tree_lists;

/* Fills t (t->dp and t->in_slice set) with the items and split decisions of top. */
void tree_lists_collect(tree_lists *t, const seq *top);
void tree_lists_free(tree_lists *t);

/* ---- slice.c ---- */

/* The start of the last decision: the slice and its rules look before it. */
unsigned slice_horizon(const tree_lists *t);
/* Marks (t->in_slice) the statements the conditions need, transitively, and the
 * declarations of what they write; returns the count. */
unsigned compute_slice(const analysis *an, const tree_lists *t, unsigned horizon);

/* ---- rules_slice.c: nplus1-side-effect, -hidden-return, -memory-order, -too-many-leaves ---- */

/*
 * Under another strategy than tile: would tile's context have run this statement
 * once per item (and so allowed it)? Built the first time a refusal asks, quietly,
 * so that a kernel with no refusal pays nothing for it.
 */
typedef struct tile_hint {
    const kernel_info *k;
    const decision_plan *dp;
    unsigned wg;
    int wanted, built;
    kernel_context ctx;
} tile_hint;

/* nplus1-side-effect in a condition; returns the errors. */
int check_conditions(const analysis *an, const tree_lists *t, diag_sink *diag);
/* nplus1-hidden-return and nplus1-side-effect in the slice; returns the errors. */
int check_slice(const analysis *an, const tree_lists *t, unsigned horizon, kernel_context *ctx,
                tile_hint *hint, diag_sink *diag);
/* nplus1-memory-order: a store before a condition that loads what it wrote. */
int check_memory_order(const analysis *an, const tree_lists *t, const seq *top, unsigned horizon,
                       kernel_context *ctx, tile_hint *hint, diag_sink *diag);
/* nplus1-too-many-leaves: even the outermost level alone has more paths than allowed. */
void report_too_many_leaves(const analysis *an, const kernel_info *k, double all, double outer,
                            unsigned max_leaves, diag_sink *diag);

#endif
