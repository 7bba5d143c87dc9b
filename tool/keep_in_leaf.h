/*
 * keep_in_leaf.h - the decisions that stay in the leaves (keep_in_leaf) and
 * why (keep_reason): the divergence policy, path counts, the outer levels
 * that fit --max-leaves, and the rule that nothing after a kept decision
 * that may return is split. Part of the plan stage.
 */
#ifndef NPLUS1_KEEP_IN_LEAF_H
#define NPLUS1_KEEP_IN_LEAF_H

#include "analyze.h"

/* Marks d to stay in the leaf code (not split); call before plan_build. */
void plan_keep_in_leaf(decision *d);

/* The number of paths (leaves) through top; kept decisions do not branch it. */
double plan_count_paths(const seq *top);

/*
 * Keeps the decisions after a kept one that may return or break, then, when
 * top has more than max_leaves paths, keeps the inner levels so that the
 * outer ones that fit are split. Fills in the effects of every kept
 * decision's statement. *paths: the paths before any level was kept;
 * *outer: the paths of the split that was chosen (or of the outermost level
 * alone, when even that does not fit). Returns 0, or -1 when it does not fit
 * (every decision is then left split).
 */
int plan_limit_leaves(seq *top, unsigned max_leaves, double *paths, double *outer);

/*
 * The divergence policy (call after divergence_classify, before the walk):
 * a uniform or affine decision with no data decision below it stays in the
 * leaf kernels (keep_in_leaf), except an early-return guard whose
 * returning path is empty (a free filter in the classifier: it makes no leaf
 * kernel) and one that may return or break while a data decision follows
 * (keeping it would keep that one too), or that sets a local a later decision
 * may read (the classifier's slice would need the whole kept statement, side
 * effects and all). Sets decision.divergence_plan.
 */
void keep_by_divergence(const analysis *an, kernel_info *k);

/* What --report prints for a policy's reason (NULL for KEEP_NONE). */
const char *keep_reason_text(keep_reason r);
/* Does the reason split the decision (KEEP_SPLIT_*)? */
int keep_reason_splits(keep_reason r);

#endif
