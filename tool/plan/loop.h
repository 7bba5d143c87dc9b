/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop.h - part of the plan stage: the loop shape of --strategy tile. A
 * kernel whose body is a prologue (statements and early-return guards), one
 * `while`, `for` or `do` loop whose body holds a data-dependent if/else or
 * switch at its top level (break, continue and return anywhere), and an
 * epilogue, becomes one kernel in which each work-group works through a
 * tile of items round by round and regroups the items' contexts (the loop's
 * live state) by the branch they take (docs/design.md, "Loops").
 */
#ifndef NPLUS1_LOOP_H
#define NPLUS1_LOOP_H

#include "analyze.h"
#include "context.h"
#include "diag.h"
#include "machine.h"
#include "regroup_rule.h"

typedef enum loop_kind { LOOP_WHILE, LOOP_FOR, LOOP_DO } loop_kind;

/* The other data decisions of a body a plan names (the rest are counted). */
#define LOOP_MAX_OTHERS 8

/* A `break` or `continue` of the loop (not of a loop or switch inside it). */
typedef struct loop_jump {
    src_range at;         /* the keyword */
    int is_break;
} loop_jump;

typedef struct loop_plan {
    int active;           /* the tile kernel regroups this loop */
    loop_kind kind;
    src_range init, inc;  /* for: its first and third parts (end == begin: none) */
    unsigned item;        /* index of the loop statement in k->top, or with outer in its
                           * branch's seq */
    const decision *outer; /* or NULL: the top-level if whose branch outer_branch holds the
                            * loop at its top level (a loop inside a top-level leaf). An
                            * item that takes another branch ends in the prologue: that
                            * branch and the code after the if run there */
    unsigned outer_item;  /* outer: its index in k->top */
    unsigned outer_branch;
    unsigned outer_loops; /* outer: its branches that hold a loop with a decision (the
                           * costliest of those at a branch's top level is regrouped) */
    double outer_cost[2]; /* outer_loops > 1: the chosen branch's operations, the next one's */
    unsigned line;        /* of the loop */
    src_range stmt;       /* the loop statement */
    src_range cond;       /* the loop test, inside its parentheses (empty in `for (;;)`) */
    src_range body;       /* the body, braces included */
    seq bodyseq;          /* the body's statements (the decision among them): the
                           * analysis's tree of the loop (kernel_info.loops), not owned */
    unsigned at;          /* index in bodyseq of the decision */
    const decision *d;    /* the data decision of the body regrouped: of those at its top
                           * level, the one whose costliest group costs most (loop.c) */
    const decision *d2;   /* or NULL: d is an if without else whose branch leaves the
                           * iteration (break, continue, return) and d2 the decision right
                           * after it; the groups are d's branch, then d2's branches */
    unsigned ngroups;     /* branches the contexts are grouped by */
    unsigned nothers;     /* the body's other data decisions at its top level: they run as
                           * written (head or rest of the iteration), not regrouped */
    unsigned others[LOOP_MAX_OTHERS]; /* their lines, the first LOOP_MAX_OTHERS */
    const decision *sw;   /* d or d2 when it is a switch, else NULL */
    char *sel_type;       /* sw: the controlling expression's type; else NULL */
    src_range switch_body; /* sw: its body, braces included */
    loop_jump *jumps;     /* the loop's break and continue statements, in text order */
    unsigned njumps;
    kernel_context ctx;   /* the prologue's and the head's variables the loop uses */
    unsigned nprologue;   /* ctx.vars[0, nprologue): the prologue's; the rest: the head's */
    unsigned bytes;       /* per item in local memory: ctx, selector, item, branch */
    double arm_cost[2];   /* the costliest group's operations, and all groups' together */
    int pays;             /* the decision (d, or d2 after its guard) is a regroup point by
                           * the cost rule (regroup_rule.h): the state machine's choice */
    double saved;         /* the rule's figures: what a round at it saves at a visit (d2's
                           * and d's together), */
    double round_cost;    /* and what the round costs, its context by liveness */
    int regroup;          /* the default of NPLUS1_LOOP_REGROUP: 1 a round whose contexts
                           * take two branches or more (pays, !in_place), else 0 never
                           * (refill only, where refilling pays: regroup_refill_pays) or
                           * -1 off (the kernel's own body in place) */
    char refill_why[400]; /* regroup <= 0: why refilling pays or not (a sentence) */
    int in_place;         /* the contexts do not fit in local memory (LOOP_LOCAL_BUDGET):
                           * each stays in its lane; the kernel builds the policies that
                           * move contexts (1, 2) as 0, refill only, and the default is 0
                           * or -1 by the cost rule, even where the decision pays */
    char in_place_why[300]; /* in_place: why (a sentence) */
    regroup_left *left;   /* the data decisions of the loop left as written, and why */
    unsigned nleft;
    char why[360];        /* not active: why (a sentence) */
    int shape;            /* not active because the loop sits outside the loop kernel's
                           * shapes (why says where): the state machine weighs its
                           * decisions, and --report points there */
} loop_plan;

/*
 * Finds k's loop shape (one loop with a decision, at the top level after
 * statements, guards and decisions, or at the top level of a branch of a
 * top-level if) under a work-group of wg and fills lp; its regroup point and
 * policy follow the state machine's choice by the cost rule (mp, built
 * first: machine.h, regroup_rule.h); lp->active
 * when the loop is regrouped, else lp->why (empty: k has no loop with a
 * decision at its top level). Notes and warnings go to diag when a
 * data-dependent loop cannot be regrouped (a break, a pointer, its size).
 */
void loop_build(const analysis *an, const kernel_info *k, unsigned wg, const machine_plan *mp,
                loop_plan *lp, diag_sink *diag);
/* Group g of an active loop: its decision, and the branch b of it. */
const decision *loop_group(const loop_plan *lp, unsigned g, unsigned *b);
void loop_free(loop_plan *lp);

#endif
