/*
 * loop.h - part of the plan stage: the loop shape of --strategy tile. A
 * kernel whose body is a prologue (statements and early-return guards), one
 * `while` loop whose body holds one data-dependent if/else or switch, and
 * an epilogue, becomes one kernel in which each work-group works through a
 * tile of items round by round and regroups the items' contexts (the loop's
 * live state) by the branch they take (docs/design.md, "Loops").
 */
#ifndef NPLUS1_LOOP_H
#define NPLUS1_LOOP_H

#include "analyze.h"
#include "context.h"
#include "diag.h"

typedef struct loop_plan {
    int active;           /* the tile kernel regroups this loop */
    unsigned item;        /* index in k->top of the loop statement */
    unsigned line;        /* of the loop */
    src_range stmt;       /* the loop statement */
    src_range cond;       /* the loop test, inside its parentheses */
    src_range body;       /* the body, braces included */
    seq bodyseq;          /* the body's statements (the decision among them) */
    unsigned at;          /* index in bodyseq of the decision */
    const decision *d;
    unsigned ngroups;     /* branches the contexts are grouped by */
    char *sel_type;       /* switch: the controlling expression's type; if: NULL */
    src_range switch_body; /* switch: its body, braces included */
    kernel_context ctx;   /* the prologue's and the head's variables the loop uses */
    unsigned nprologue;   /* ctx.vars[0, nprologue): the prologue's; the rest: the head's */
    unsigned bytes;       /* per item in local memory: ctx, selector, item, branch */
    char why[360];        /* not active: why (a sentence) */
} loop_plan;

/*
 * Finds k's loop shape under a work-group of wg and fills lp; lp->active
 * when the loop is regrouped, else lp->why (empty: k has no loop with a
 * decision at its top level). Notes and warnings go to diag when a
 * data-dependent loop cannot be regrouped (a break, a pointer, its size).
 */
void loop_build(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp, diag_sink *diag);
void loop_free(loop_plan *lp);

#endif
