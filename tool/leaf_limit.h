/*
 * leaf_limit.h - the decisions that stay in the leaves (keep_in_leaf): path
 * counts, the outer levels that fit --max-leaves, and the rule that nothing
 * after a kept decision that may return is split. Part of the plan stage.
 */
#ifndef NPLUS1_LEAF_LIMIT_H
#define NPLUS1_LEAF_LIMIT_H

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

#endif
