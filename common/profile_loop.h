/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_loop.h - part of the divergence profile (profile.h): the
 * prediction for a regrouped loop (--strategy tile's loop kernel, loop.h).
 * A top-level loop whose body holds a data-dependent if or switch at its top
 * level (not uniform or affine) is the shape loop.c regroups. Its work as the original runs it is
 * the replay's (useful and issued lane work inside the loop); regrouped, the
 * lanes hold live contexts every round (refill: no trip-count loss), run the
 * loop test and the code around the decision together, and run the branch
 * after the contexts are sorted by it, so that a SIMD group mixes branches
 * only where one branch's run ends and the next begins. A prediction of
 * SIMD efficiency: blind to the moves through local memory, the barriers,
 * memory traffic and the tile's last rounds.
 */
#ifndef NPLUS1_PROFILE_LOOP_H
#define NPLUS1_PROFILE_LOOP_H

#include "profile.h"

/* The contexts a round sorts: the work-group size of the generated kernels (--wg default). */
#define PROFILE_LOOP_LANES 256

typedef struct loop_prediction {
    unsigned loop, decision;       /* constructs: the loop and its decision */
    double loop_useful, loop_issued; /* inside the loop, as the original ran it */
    double loop_issued_regrouped;  /* predicted */
    double branch_efficiency;      /* predicted: the sorted branches' useful / issued */
    double kernel_efficiency, kernel_efficiency_regrouped;
} loop_prediction;

/*
 * Predicts each regroupable loop of t from the replay base at SIMD width
 * width, rounds of lanes contexts. Returns how many (at most cap) it wrote.
 */
unsigned profile_loop_predict(const ptree *t, const pstats *base, unsigned width, unsigned lanes,
                              loop_prediction *out, unsigned cap);

/*
 * The decision a regroupable loop node holds: the first if or switch at its body's top
 * level that the analysis did not find uniform or affine (the one loop.c regroups at in
 * bench/real's loop kernels: the plan picks the costliest, which the tree does not say).
 * NULL when loop holds none.
 */
const pnode *profile_loop_decision(const ptree *t, const pnode *loop);

/*
 * The loop kernel's schedule (--strategy tile's loop shape, the loop-tile fragment of
 * templates/kernel.cl.tmpl) replayed on the recorded paths (profile_loop_kernel.c):
 * each work-group of lanes lanes works through its tile of consecutive items; a lane
 * whose item ends takes the next item of the tile. Policy 0 (never): each SIMD group
 * runs on its own, an iteration at a time (its lanes' current items in lock-step, each
 * at its own iteration); a lane whose item ends takes the next at once. Policy 1 and 2:
 * rounds of the whole work-group: every lane runs the loop test and the body up to the
 * decision (refilling), then the round counts the branches and, when it regroups (2:
 * always, 1: when two or more are taken), moves the contexts into local memory branch
 * by branch, and each SIMD group runs the branch of the contexts it holds and the rest
 * of the body.
 */
typedef struct loop_kernel_params {
    unsigned width;           /* SIMD width */
    unsigned lanes;           /* the work-group's size */
    unsigned long long tile;  /* items per tile (lanes x items a lane) */
    unsigned regroup;         /* 0 never, 1 a round of mixed branches, 2 every round */
    double iter_cost;         /* the kernel's own operations per iteration of a lane (issued
                               * for its SIMD group) */
    double take_cost;         /* a lane taking the next item of the tile */
    double round_cost;        /* per lane of the work-group and round (regroup >= 1) */
    double move_cost;         /* per context moved through local memory, a regrouped round */
} loop_kernel_params;

typedef struct loop_kernel_stats {
    double issued;            /* lane work issued (the kernel's and its own), all items */
    double own;               /* of which the kernel's own: iterations, takes, rounds, moves */
    double rounds, regrouped; /* the work-groups' rounds, and those regrouped */
    double lane_iters;        /* iterations the items ran */
    double wait;              /* rounds: lane work the SIMD groups could have issued while
                               * they waited at a round's barrier for its slowest group (in
                               * issued: 0; what other work-groups fill of it is unknown) */
    double slowest, phased;   /* rounds: the slowest SIMD group's work in each phase, summed,
                               * and all groups' */
    unsigned long long items;
} loop_kernel_stats;

/*
 * Replays the loop kernel of t (its first top-level loop with a decision) on the n
 * recorded items (ids: their linear ids, which place them in tiles) under p; fills s.
 * Returns 0, or -1 when t has no such loop, p is out of range or a path ends early.
 */
int profile_loop_kernel(const ptree *t, const ptrace *items, const unsigned long long *ids,
                        size_t n, const loop_kernel_params *p, loop_kernel_stats *s);

/* The branches the loop kernel of t groups its contexts by (0: t has no such loop). */
unsigned profile_loop_groups(const ptree *t);

#endif
