/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tree.h - one view of the condition tree (analyze.h's seq / seq_item /
 * decision / branch): the sequences directly inside a decision, and a
 * pre-order visit of every item or decision below a sequence. Every stage
 * walks the tree through these instead of spelling out "a switch's body,
 * or each branch of an if" again.
 */
#ifndef NPLUS1_TREE_H
#define NPLUS1_TREE_H

#include "analyze.h"

/*
 * The sequences directly inside d, in order: a switch's whole body (each
 * case is a suffix of it, so it is walked once), or each if-branch's
 * statements. decision_seqs() says how many, decision_seq() gives the i-th.
 */
unsigned decision_seqs(const decision *d);
const seq *decision_seq(const decision *d, unsigned i);

/* What a visit asks next: skip what is inside the item, enter it, or end the walk. */
typedef enum tree_step { TREE_CONTINUE, TREE_RECURSE, TREE_STOP } tree_step;

/* A visit reads the tree: every stage after analyze (the analysis is const after it). */
typedef tree_step (*item_visit)(void *ud, const seq_item *it);
typedef tree_step (*decision_visit)(void *ud, const decision *d);

/*
 * Visits every item of s in source order; TREE_RECURSE on a decision item
 * visits the items of its sequences before the next one. Returns 1 when a
 * visit said TREE_STOP, else 0.
 */
int for_each_item(const seq *s, item_visit fn, void *ud);

/* The same over the decision items only (items with no decision are skipped). */
int for_each_decision(const seq *s, decision_visit fn, void *ud);

/* The same over what is inside d (its sequences, in order), d itself not visited. */
int for_each_item_in(const decision *d, item_visit fn, void *ud);
int for_each_decision_in(const decision *d, decision_visit fn, void *ud);

/* The analyze stage's own visits, which fill the tree in (ids, effects, classes). */
typedef tree_step (*item_fill)(void *ud, seq_item *it);
typedef tree_step (*decision_fill)(void *ud, decision *d);
int for_each_item_fill(seq *s, item_fill fn, void *ud);
int for_each_decision_fill(seq *s, decision_fill fn, void *ud);

/* An early-return guard, `if (gid >= n) return;`: an if with a branch that returns,
 * doing nothing observable first. */
int decision_is_guard(const decision *d);

#endif
