/* SPDX-License-Identifier: Apache-2.0 */
/*
 * walk.h - every path of a condition tree, in order: a walk with a stack of
 * continuations. When a branch ends without returning, the statements after
 * its decision run next (a `break` in a switch case skips to after the
 * switch); every complete path is one leaf. A decision the plan keeps in the
 * leaves is one plain statement. Plan (leaves) and emit (the classifier's
 * body) walk the tree through it.
 */
#ifndef NPLUS1_WALK_H
#define NPLUS1_WALK_H

#include "analyze.h"
#include "keep_in_leaf.h"

/* At most this many leaves (paths) per kernel: a walk stops counting past it. */
#define PLAN_MAX_LEAVES 64

/* One step of a path: the branch b of decision d. */
typedef struct choice {
    const decision *d;
    unsigned branch;
} choice;

/* The callbacks of a walk over every path of a condition tree. */
typedef struct walk_visitor {
    void (*stmt)(void *ud, const seq_item *it);
    void (*decision_begin)(void *ud, const decision *d);
    void (*branch_begin)(void *ud, const decision *d, unsigned b);
    void (*branch_end)(void *ud, const decision *d, unsigned b);
    void (*decision_end)(void *ud, const decision *d);
    void (*path_end)(void *ud, const choice *path, unsigned npath, int returned,
                     unsigned fx, double cost);
    void *ud;
} walk_visitor;

/* Walks every path of top in order (dp: which decisions are kept); returns the number of paths. */
unsigned walk_tree(const seq *top, const decision_plan *dp, const walk_visitor *v);

#endif
