/* SPDX-License-Identifier: Apache-2.0 */
/*
 * divergence.h - the divergence analysis (part of the analyze stage): for
 * every decision of a kernel's condition tree, how its condition varies
 * across the work-items of a launch.
 *
 *   uniform  every item agrees: the condition reads only kernel scalar
 *            arguments, constants, get_global_size/offset, get_work_dim,
 *            and __constant/const memory at uniform indices;
 *   affine   it compares values affine in the global ids (get_global_id,
 *            get_global_linear_id, and what +, -, * by uniform, / and % by
 *            uniform, shifts, casts and vector components make of them)
 *            with uniform values: bounds guards, `x == 0 || x == w-1`.
 *            Items disagree only in the SIMD groups at the borders;
 *   data     anything else: loads at item-varying addresses, atomics,
 *            values no affine form describes. It may diverge anywhere.
 *
 * Values are followed through locals (every definition that reaches the
 * decision, joined, plus the conditions it is control dependent on),
 * helper calls (their returns, with the call's arguments bound), casts,
 * vector components, ternaries and && / ||. When unsure: data, which is
 * the safe side (data means "split", the behaviour before the analysis).
 * See docs/design.md, "Divergence analysis".
 */
#ifndef NPLUS1_DIVERGENCE_H
#define NPLUS1_DIVERGENCE_H

#include <limits.h>

#include "analyze.h"

/* div_class and div_class_name() are in analyze.h. */

/*
 * Classifies every decision of k's condition tree: fills decision.divergence,
 * decision.divergence_why and the inputs (cond_inputs.h). analyze_tu runs it.
 */
void divergence_classify(analysis *an, kernel_info *k);

/* Classifies one decision of k that is not in its condition tree (one inside a loop). */
void divergence_classify_one(analysis *an, kernel_info *k, decision *d);

/*
 * A condition anywhere in k (the IR, ir.h): cond in the kernel, or in a helper inlined
 * at calls[0..ncalls) (calls[0] a call expression in the kernel, each next one in the
 * previous one's helper; each call's arguments are evaluated in its caller and bound to
 * the helper's parameters). In the kernel, the definitions before offset horizon of
 * file hfile reach (the IR passes the end of the outermost loop around the point, so a
 * value a loop carries from one iteration to the next is seen); in a helper, all of
 * them. cond as a condition, or as a value (is_switch). Returns the class, its reason
 * into why[0..n). Sites are classified in a session (divergence_open .. _close).
 */
typedef struct div_site {
    CXCursor cond;
    int is_switch;
    const CXCursor *calls;
    unsigned ncalls;
    unsigned hfile, horizon;
} div_site;
/* A session keeps the definitions of the functions walked from one site to the next. */
typedef struct dctx div_session;
div_session *divergence_open(analysis *an, kernel_info *k);
div_class divergence_classify_site(div_session *x, const div_site *s, char *why, size_t n);
void divergence_close(div_session *x);

/*
 * An address at s (s->cond: the index, or the pointer, as a value): its class, and where
 * it is affine, *stride: how it steps from one item to the next along dimension 0, in its
 * own units (an index's elements): the coefficient of get_global_id(0) or the linear id,
 * 0 where the items of a row agree, DIV_STRIDE_UNKNOWN where no constant says (a stride
 * known only at run time, a helper's parameter, a value joined from two strides).
 */
#define DIV_STRIDE_UNKNOWN LONG_MIN
div_class divergence_classify_address(div_session *x, const div_site *s, long *stride);

#endif
