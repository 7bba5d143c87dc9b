/* SPDX-License-Identifier: Apache-2.0 */
/*
 * machine.h - part of the plan stage: regrouping as a resumable state
 * machine on the kernel IR (ir.h; issue 28). Where the loop kernel (loop.h)
 * declines, a kernel whose data-dependent decisions sit at any depth of its
 * own body (nested blocks, inner loops, branches, after a loop, several
 * loops, the helpers it calls, inlined at their calls) is cut at its regroup
 * points: the decisions whose arms save the work of a regrouping round. An
 * item's state is the arm it resumes at and its context, the variables live
 * at a regroup point. Each round,
 * every lane runs its item to the next regroup point or to its end, the
 * work-group counts the contexts per state and moves them through local
 * memory so that lanes with one state sit together; lanes whose item ended
 * take the next item of the tile (docs/design.md, "The state machine").
 * Reads the IR only: no libclang.
 */
#ifndef NPLUS1_MACHINE_H
#define NPLUS1_MACHINE_H

#include "analyze.h"
#include "diag.h"
#include "ir.h"
#include "regroup_rule.h"

/* Local memory the contexts of a work-group may take when they move (as the loop's). */
#define MACHINE_LOCAL_BUDGET 24576u

/* A regroup point: an if or a switch of the kernel's text or of a helper it inlines. */
typedef struct machine_point {
    unsigned node;        /* its IR node (ir_kernel.nodes) */
    unsigned line;
    unsigned first;       /* its arms are the groups first .. first + narms - 1 */
    unsigned narms;
    double cost;          /* its costliest arm, less the regroup points inside it */
    double saved;         /* the divergent work a round saves at a visit (machine.c's rule) */
    unsigned depth;       /* loops around it */
} machine_point;

/* A decision left as written, and why (regroup_rule.h). */
typedef regroup_left machine_left;

/* A variable of the item's context, the kernel's or an inlined helper's: live at a regroup
 * point (machine.c, in_context). */
typedef struct machine_var {
    unsigned var;         /* ir_kernel.vars */
    char *member;         /* its member in the context struct (unique) */
    char *decl;           /* the member's declaration: "float t", "int stack[16]" */
    char *init_decl;      /* an array declared alone with an initialiser: a temporary's
                           * declaration ("int nplus1_init[4]") that the initialiser fills
                           * and the member copies, bytes; else NULL */
} machine_var;

/* A reason the kernel cannot be regrouped, at the construct. */
typedef struct machine_blocker {
    src_range at;
    char msg[220];
} machine_blocker;

typedef struct machine_plan {
    int active;           /* the tile kernel is the state machine */
    machine_point *points;
    unsigned npoints;
    machine_left *left;
    unsigned nleft;
    machine_var *vars;
    unsigned nvars;
    unsigned char *subst; /* by variable (ir_kernel.vars): a helper's pointer parameter
                           * that stands for its argument where the helper is inlined */
    machine_blocker *blockers;
    unsigned nblockers;
    unsigned ngroups;     /* the arms of every regroup point: the states an item yields at */
    unsigned bytes;       /* the context, per item: variables, switch values, state, item */
    unsigned bytes_scope; /* the same without liveness: every variable whose scope holds a
                           * regroup point (what --report compares bytes with) */
    unsigned refill_loop; /* a machine without regroup points (npoints 0): the loop whose
                           * data-dependent trip count refilling evens out (its node id + 1);
                           * one group, each item run to its end in its lane; with regroup
                           * -1, the costliest loop of the kernel's text (0: none), whose
                           * trips a forced refill counts */
    double arm_cost;      /* the costliest regroup point's costliest arm */
    double round_cost;    /* a regrouping round, in the same operations (context.h) */
    int regroup;          /* default NPLUS1_LOOP_REGROUP: 0 refill only, 1 mixed rounds;
                           * -1 off, a machine without regroup points where refilling does
                           * not pay either (machine.c, off_machine): the kernel's own body
                           * in place (tile-in-place), a forced policy runs as 0 */
    int in_place;         /* contexts never move (a pointer into private state, or too
                           * large for local memory): refill only, whatever the policy */
    char in_place_why[400];
    char why[560];        /* not active: why (a sentence); empty: nothing to regroup */
} machine_plan;

/*
 * Builds k's state machine under a work-group of wg from k->ir. Active when
 * at least one regroup point sits inside a loop and nothing blocks it; in a
 * kernel whose decisions all sit in loops, also without regroup points where
 * only the cost rule declines them: refill only where refilling pays, else
 * regrouping off (regroup -1). The blockers are listed (and, when quiet is 0,
 * reported as notes to diag).
 */
void machine_build(const analysis *an, const kernel_info *k, unsigned wg, machine_plan *mp);
/* Group g's regroup point and arm. */
const machine_point *machine_group(const machine_plan *mp, unsigned g, unsigned *arm);
/* "if at line 7: then", "switch at line 9: case 1, 2": group g's condition, allocated. */
char *machine_group_text(const analysis *an, const kernel_info *k, const machine_plan *mp,
                         unsigned g);
void machine_free(machine_plan *mp);

#endif
