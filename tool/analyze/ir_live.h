/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_live.h - part of the analyze stage: liveness of the kernel's own
 * variables over the kernel IR (ir.h), and the static facts the state
 * machine's cost rule weighs an arm by (does it leave its loop). A variable
 * is live at a point when some path from the point reads it before
 * redefining it. Computed on demand from the IR and the source (libclang
 * stays in this stage: the plan asks, tool/plan/machine.c).
 *
 * The analysis is structured (the IR's statements nest; break, continue and
 * return name their targets): backwards over a block, both arms of an if, a
 * switch's entries with their fall-through, and each loop iterated to its
 * fixed point. A statement kills a variable it defines whole (a declaration,
 * `x = ...` with x named on the left); a partial write (an element, a field,
 * a vector component) or a write through a pointer kills nothing. A variable
 * whose address is taken is live wherever its scope holds the point: reads
 * through a pointer are not seen. Helpers' own variables are not tracked.
 * See docs/design.md, "The state machine".
 */
#ifndef NPLUS1_IR_LIVE_H
#define NPLUS1_IR_LIVE_H

#include "analyze.h"
#include "ir.h"

typedef struct ir_live {
    unsigned nnodes, nvars, words;
    unsigned *at;          /* nnodes x words: at a decision of the kernel's own text, the
                            * variables live once its condition is evaluated (what a
                            * lane resuming at one of its arms needs); other nodes: live
                            * before the node */
    unsigned char *pinned; /* nvars: address taken (live wherever its scope is) */
} ir_live;

/* Computes the liveness of k's own variables (frame 0) over k->ir. */
void ir_live_build(const analysis *an, const kernel_info *k, ir_live *lv);
/* Whether variable var is live at node (see ir_live.at); a pinned variable always is. */
int ir_live_at(const ir_live *lv, unsigned node, unsigned var);
void ir_live_free(ir_live *lv);

/*
 * Whether arm `arm` of decision d (an if's 0 then, 1 else; a switch's entry) leaves the
 * loop `loop` (d's innermost loop of its own function: the kernel's text, or an inlined
 * helper's): it holds a `break` of that loop or a `return` of the loop's function (the
 * kernel's, or the helper's), or it assigns a kernel's variable the loop's condition reads
 * that nothing else in the loop (nor its step) writes (a flag that ends the loop; a
 * helper's variables are not tracked, so a helper's flag is not seen).
 */
int ir_arm_leaves_loop(const analysis *an, const kernel_info *k, const ir_node *d, unsigned arm,
                       const ir_node *loop);

#endif
