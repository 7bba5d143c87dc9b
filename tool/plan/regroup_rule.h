/* SPDX-License-Identifier: Apache-2.0 */
/*
 * regroup_rule.h - part of the plan stage: the one cost rule of regrouping
 * (issue 28 item 5), on the kernel IR, that the state machine (machine.h)
 * and the loop kernel (loop.h) both follow. A data decision is a regroup
 * point when the divergent work a round saves at a visit reaches the round:
 * each arm's work weighed by how often the lanes of a SIMD group wait for it
 * (1 - 1/narms), an arm that leaves the decision's loop by 1/trips, against
 * a round that moves the item's context twice through local memory
 * (regroup_round_of). Where no decision pays, refilling alone (each lane runs
 * its items to their ends and takes the next) pays only where a loop's trip
 * count is data dependent, a trip computes enough for each global load it
 * makes, and half its work reaches a refill (regroup_refill_pays). Reads
 * the IR only: no libclang.
 */
#ifndef NPLUS1_REGROUP_RULE_H
#define NPLUS1_REGROUP_RULE_H

#include "analyze.h"
#include "ir.h"

/* What the rule reads besides the IR: which arms leave their loop. */
typedef struct regroup_facts {
    const analysis *an;
    const kernel_info *k;
    const ir_kernel *ir;
    unsigned char **leaves; /* per data decision node: per arm, it leaves the innermost loop
                             * of its own function (regroup_loop_of) */
} regroup_facts;

/* A decision left as written, and why (with the rule's figures where cost decided). */
typedef struct regroup_left {
    unsigned node, line;
    int cheap;            /* left for its cost: saved < round */
    double saved, round;  /* cheap: what a round would save at a visit, and cost */
    char why[360];
} regroup_left;

void regroup_facts_build(const analysis *an, const kernel_info *k, regroup_facts *f);
void regroup_facts_free(regroup_facts *f);

/* The innermost loop around n of n's own function (the kernel's text, or the inlined
 * helper's n is part of), or NULL: an arm leaves only a loop of its own function. */
const ir_node *regroup_loop_of(const ir_node *n);
/* A loop's trips for the rule: its constant count, else IR_UNKNOWN_TRIPS. */
double regroup_trips_of(const ir_node *loop);
/* Whether n lies in an arm of decision d (not in a helper its condition calls). */
int regroup_in_arm(const ir_node *d, const ir_node *n);
/* What each arm of d runs, less the chosen regroup points (chosen[] by node id, NULL:
 * none) directly inside it: left[narms]. */
void regroup_arms_left(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen,
                       double *left);
/* The costliest of those. */
double regroup_residual(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen);
/* The divergent work a round at d saves at a visit (the rule above); *leaving (may be
 * NULL): the weighed work of the arms that leave d's loop, of the total. */
double regroup_saved_at(const regroup_facts *f, const ir_node *d, const unsigned char *chosen,
                        double *leaving);
/* A round that moves a context of `bytes` an item: its words' two trips through local
 * memory and the barriers and counting (the calibration's constants, context.h). */
double regroup_round_of(unsigned bytes);

/* Whether the text at off (a reference of a name len long) may change the variable or take
 * its address: an assignment (not through it: `*p = v`), ++ or --, or &. */
int regroup_ref_writes(const char *t, unsigned off, size_t len);

/* Why refilling alone pays or not for loop (a loop of the kernel's own text). */
typedef enum refill_verdict {
    REFILL_PAYS,
    REFILL_EVEN_TRIPS,    /* its trip count is not data dependent: no lane waits */
    REFILL_READS_MEMORY,  /* a trip computes little for the global loads it makes */
    REFILL_CHEAP          /* half its work is less than a refill */
} refill_verdict;

/*
 * Whether refilling alone pays for loop: its trip count is data dependent (its test loads
 * memory or reads a variable its body changes, or a data decision at the top of its body
 * leaves it by itself), so a lane of a SIMD group
 * waits, statically, about half the loop's work for its group's longest item; refilled,
 * the lane takes the next item instead, for a refill (about a round without context). It
 * loses where a trip reads global memory and computes little for it (measured on an H200:
 * bvh_stack 0.93x, a private-stack walk 0.84x, skip links 0.61-1.05x): the tile kernel
 * runs a tile's items one after the other in NPLUS1_TILE_IPT times fewer work-items, with
 * fewer loads in flight than the original. *waits and *refill: the figures (about half the
 * loop's operations an item, a refill); why: a sentence (may be NULL).
 */
refill_verdict regroup_refill_pays(const regroup_facts *f, const ir_node *loop, double *waits,
                                   double *refill, char *why, size_t n);

#endif
