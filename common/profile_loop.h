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

#endif
