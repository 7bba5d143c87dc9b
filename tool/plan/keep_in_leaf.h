/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keep_in_leaf.h - the decisions that stay in the leaves and why: the plan's
 * per-decision data (decision_plan, indexed by decision.id), the divergence
 * policy, path counts, the outer levels that fit --max-leaves, and the rule
 * that nothing after a kept decision that may return is split. Part of the
 * plan stage: it reads the analysis and writes only decision_plan.
 */
#ifndef NPLUS1_KEEP_IN_LEAF_H
#define NPLUS1_KEEP_IN_LEAF_H

#include "analyze.h"

/*
 * What the divergence policy (keep_by_divergence) does with a decision, and why:
 * the id, whether it splits, and the text --report prints (keep_reason_text).
 */
#define KEEP_REASONS(X)                                                                     \
    X(NONE, 0, NULL)                                                                        \
    X(SPLIT_DATA, 1, "split")                                                               \
    X(SPLIT_NESTED_DATA, 1, "split: a data decision is nested in it")                       \
    X(SPLIT_GUARD, 1, "split: an early-return guard, a free filter in the classifier "      \
                      "(its returning path makes no leaf kernel)")                          \
    X(SPLIT_EXIT_BEFORE_DATA, 1, "split: it may return or break, and a data decision "      \
                                 "follows")                                                 \
    X(SPLIT_SETS_OUTER, 1, "split: it sets a variable a later decision may read")           \
    X(NOT_SPLIT, 0,      "stays in the leaf kernels (not split)")                           \
    X(INSIDE_KEPT, 0,      "stays in the leaf kernels (inside one that does)")
#define KEEP_REASON_ENUM_(id, splits, text) KEEP_##id,
typedef enum keep_reason { KEEP_REASONS(KEEP_REASON_ENUM_) } keep_reason;
#undef KEEP_REASON_ENUM_

/*
 * The plan's view of one decision of a kernel's tree.
 *
 * keep_in_leaf: not split. The decision (and every decision nested in it)
 * stays in the leaf code as written and still branches there. It is not a
 * level of the condition tree: the walk treats it as one plain statement of
 * the sequence it sits in (its seq_item's fx holds the effects and cost of
 * the whole statement), its text is copied into each leaf unchanged, and
 * the classifier runs it only when the slice needs what it writes. The
 * divergence policy sets it, and the plan sets it for the inner levels that
 * --max-leaves cuts and for every decision after a kept one that may return
 * or break on the same path.
 */
typedef struct decision_plan {
    int keep_in_leaf;
    unsigned level;           /* split decisions before it on its longest path */
    keep_reason reason;       /* the divergence policy's verdict (KEEP_NONE: it did not judge) */
} decision_plan;

/* Does d stay in the leaves under dp (indexed by decision id)? */
int decision_kept(const decision_plan *dp, const decision *d);

/* The number of paths (leaves) through top; kept decisions do not branch it. */
double plan_count_paths(const seq *top, const decision_plan *dp);

/*
 * Keeps the decisions after a kept one that may return or break, then, when
 * top has more than max_leaves paths, keeps the inner levels so that the
 * outer ones that fit are split. *paths: the paths before any level was
 * kept; *outer: the paths of the split that was chosen (or of the outermost
 * level alone, when even that does not fit). Returns 0, or -1 when it does
 * not fit (every decision is then left split).
 */
int plan_limit_leaves(const seq *top, decision_plan *dp, unsigned max_leaves, double *paths,
                      double *outer);

/*
 * The divergence policy (after analyze_tu's classes, before the walk): a
 * uniform or affine decision with no data decision below it stays in the
 * leaf kernels (keep_in_leaf), except an early-return guard whose returning
 * path is empty (a free filter in the classifier: it makes no leaf kernel)
 * and one that may return or break while a data decision follows (keeping it
 * would keep that one too), or that sets a local a later decision may read
 * (the classifier's slice would need the whole kept statement, side effects
 * and all). Sets each decision's reason.
 */
void keep_by_divergence(const analysis *an, const kernel_info *k, decision_plan *dp);

/* What --report prints for a policy's reason (NULL for KEEP_NONE). */
const char *keep_reason_text(keep_reason r);
/* Does the reason split the decision (KEEP_SPLIT_*)? */
int keep_reason_splits(keep_reason r);

#endif
