/* SPDX-License-Identifier: Apache-2.0 */
/*
 * auto_tile.h - part of the plan stage: the tile kernel as a candidate of
 * the measured choice. Under --split auto the tile kernel is emitted beside
 * the strategy's kernels; it is the context tile when the kernel's top-level
 * decision has a context (context.h: the prologue runs once per item), and
 * the loop kernel when a loop is regrouped (loop.h). When only the context
 * makes the kernel legal (a prologue statement with a side effect, or a
 * store a condition reads back), or when the split is the loop kernel, the
 * tile is the set's only split candidate: the set's strategy is tile and
 * the driver still has the original. The context tile's cost model counts
 * the prologue once: neither in its classifier nor in its leaves.
 */
#ifndef NPLUS1_AUTO_TILE_H
#define NPLUS1_AUTO_TILE_H

#include "plan.h"

/* kernel_plan.tile_candidate: the tile kernel a set carries. */
enum auto_tile_kind {
    AUTO_TILE_NONE = 0,    /* no tile kernel (--split always under another strategy) */
    AUTO_TILE_PLAIN = 1,   /* the leaves recompute the prologue */
    AUTO_TILE_CONTEXT = 2, /* the leaves start from the context the classify phase kept */
    AUTO_TILE_LOOP = 3,    /* the loop kernel: contexts regrouped round by round */
    AUTO_TILE_MACHINE = 4  /* the state machine on the IR (machine.h): regrouped at any depth */
};

/* Whether the plan builds the top-level context (the set emits a tile kernel). */
int auto_tile_wants_context(const plan_options *opt);

/*
 * Sets kp->strategy and kp->tile_candidate from the context and the loop
 * kp has (built before, errors counted): the set's strategy becomes tile
 * when the tile is its only split.
 */
void auto_tile_choose(const plan_options *opt, kernel_plan *kp);

/*
 * The context tile's costs: *prologue is the cost of the statements before
 * the decision (the prologue, run once), *classifier the classifier's cost
 * without them. Without an active context: 0 and kp->classifier_cost.
 */
void auto_tile_costs(const kernel_plan *kp, double *prologue, double *classifier);
/* The costliest leaf kernel's cost from the context's decision on (the prologue, run
 * once, left out); 0 when no leaf costs more. */
double auto_tile_costliest_leaf(const kernel_plan *kp);

/*
 * The context tile's verdict under --split auto: never when no decision
 * depends on data or when every leaf, without the prologue, costs less than
 * the cheap bound of its classifier; else adaptive. The loop kernel's:
 * adaptive (its decision is data dependent). ALWAYS under --split always.
 * Call after the leaves are collected.
 */
split_mode auto_tile_verdict(const plan_options *opt, const kernel_plan *kp);

/* "tile", "tile+context", "tile+loop", "tile+machine": the candidate's name in the report and the job. */
const char *auto_tile_name(int kind);

#endif
