/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keep_in_leaf.c - which decisions are split and which stay in the leaves,
 * and why: every reason a decision stays in the leaf kernels, in one
 * plan-stage file.
 *
 * A decision marked keep_in_leaf is not a level of the condition tree: it
 * stays in the leaf code as written. Here: the divergence policy (a
 * uniform or affine decision with no data decision below it stays, with
 * the exceptions keep_in_leaf.h lists, and the keep_reason of each), the
 * path count of a tree (kept decisions counting as plain statements), the
 * levels of the split decisions, the choice of the outer levels that fit
 * --max-leaves, and the rule that nothing after a kept decision that may
 * return or break is split. It writes only the plan's decision_plan
 * array (indexed by decision id), never the analysis.
 */
#include "keep_in_leaf.h"

#include <stdlib.h>
#include <string.h>

#include "plan_facts.h"
#include "tree.h"
#include "util.h"

/* ---- the divergence policy: which decisions the classes keep ----------------- */

static tree_step stop_at_data(void *ud, const decision *d)
{
    (void)ud;
    return d->divergence == DIV_DATA ? TREE_STOP : TREE_RECURSE;
}

/* Is a decision nested in d data dependent? */
static int has_data_inside(const decision *d)
{
    return for_each_decision_in(d, stop_at_data, NULL);
}

static tree_step stop_at_exit(void *ud, const seq_item *it);

/* A return, or a break that leaves no switch inside d: the path ends there. */
static int exits_in(const decision *d, int in_switch)
{
    in_switch |= d->kind == DEC_SWITCH;
    return for_each_item_in(d, stop_at_exit, &in_switch);
}

static tree_step stop_at_exit(void *ud, const seq_item *it)
{
    int in_switch = *(const int *)ud;
    if (it->kind == ITEM_RETURN || (it->kind == ITEM_BREAK && !in_switch))
        return TREE_STOP;
    if (it->kind != ITEM_DECISION || !it->decision)
        return TREE_CONTINUE;
    return exits_in(it->decision, in_switch) ? TREE_STOP : TREE_CONTINUE;
}

static int may_exit(const decision *d)
{
    return exits_in(d, 0);
}

typedef struct after_query {
    unsigned end;
    int only_data;
} after_query;

static tree_step stop_after(void *ud, const decision *d)
{
    const after_query *q = ud;
    return d->range.begin >= q->end && (!q->only_data || d->divergence == DIV_DATA)
               ? TREE_STOP
               : TREE_RECURSE;
}

/* A decision after offset `end` in the kernel: a data one when only_data, else any. */
static int decision_after(const seq *s, unsigned end, int only_data)
{
    after_query q = {end, only_data};
    return for_each_decision(s, stop_after, &q);
}

typedef struct outer_query {
    const decision *d;
    const analysis *an;
} outer_query;

static int declared_inside(CXCursor var, const decision *d, const analysis *an)
{
    return cursor_inside(an, var, &d->range);
}

static tree_step stop_at_outer_write(void *ud, const seq_item *it)
{
    const outer_query *q = ud;
    if (it->kind == ITEM_DECISION) /* its fx is the whole statement's: its items are read */
        return TREE_RECURSE;
    for (unsigned w = 0; w < it->fx.nwrites; w++)
        if (!declared_inside(it->fx.writes[w], q->d, q->an))
            return TREE_STOP;
    return TREE_RECURSE;
}

/* Does d assign a local declared before it? */
static int sets_outer(const decision *d, const analysis *an)
{
    outer_query q = {d, an};
    return for_each_item_in(d, stop_at_outer_write, &q);
}

static tree_step mark_nested(void *ud, const decision *d)
{
    decision_plan *dp = ud;
    dp[d->id].reason = KEEP_INSIDE_KEPT;
    return TREE_RECURSE;
}

typedef struct keep_ctx {
    const analysis *an;
    const kernel_info *k;
    decision_plan *dp;
} keep_ctx;

static keep_reason keep_reason_of(const keep_ctx *c, const decision *d)
{
    if (d->divergence == DIV_DATA)
        return KEEP_SPLIT_DATA;
    if (has_data_inside(d))
        return KEEP_SPLIT_NESTED_DATA;
    if (decision_is_guard(d))
        return KEEP_SPLIT_GUARD;
    if (may_exit(d) && decision_after(&c->k->top, d->range.end, 1))
        return KEEP_SPLIT_EXIT_BEFORE_DATA;
    /* kept, it would be one statement the classifier's slice may need, side effects and all */
    if (sets_outer(d, c->an) && decision_after(&c->k->top, d->range.end, 0))
        return KEEP_SPLIT_SETS_OUTER;
    return KEEP_NOT_SPLIT;
}

static tree_step keep_one(void *ud, const decision *d)
{
    const keep_ctx *c = ud;
    decision_plan *p = &c->dp[d->id];
    p->reason = keep_reason_of(c, d);
    if (p->reason != KEEP_NOT_SPLIT)
        return TREE_RECURSE;
    p->keep_in_leaf = 1;
    for_each_decision_in(d, mark_nested, c->dp);
    return TREE_CONTINUE;
}

const char *keep_reason_text(keep_reason r)
{
#define KEEP_REASON_TEXT_(id, splits, text) [KEEP_##id] = text,
    static const char *const texts[] = {KEEP_REASONS(KEEP_REASON_TEXT_)};
#undef KEEP_REASON_TEXT_
    return (unsigned)r < sizeof texts / sizeof *texts ? texts[r] : NULL;
}

int keep_reason_splits(keep_reason r)
{
#define KEEP_REASON_SPLITS_(id, splits, text) [KEEP_##id] = splits,
    static const int splits[] = {KEEP_REASONS(KEEP_REASON_SPLITS_)};
#undef KEEP_REASON_SPLITS_
    return (unsigned)r < sizeof splits / sizeof *splits && splits[r];
}

void keep_by_divergence(const analysis *an, const kernel_info *k, decision_plan *dp)
{
    keep_ctx c = {an, k, dp};
    for_each_decision(&k->top, keep_one, &c);
}

int decision_kept(const decision_plan *dp, const decision *d)
{
    return dp[d->id].keep_in_leaf;
}

static int is_split(const decision_plan *dp, const seq_item *it)
{
    return it->kind == ITEM_DECISION && it->decision && !decision_kept(dp, it->decision);
}

/* ---- path count ------------------------------------------------------- */

typedef struct path_count {
    const decision_plan *dp;
} path_count;

static double count_decision(const path_count *pc, const decision *d, double cont, double brk);

/* The paths from item i of s on, when `after` paths follow item i. */
static double count_item(const path_count *pc, const seq_item *it, double after, double brk)
{
    if (it->kind == ITEM_RETURN)
        return 1;
    if (it->kind == ITEM_BREAK)
        return brk;
    if (is_split(pc->dp, it))
        return count_decision(pc, it->decision, after, brk);
    return after;
}

/* Paths from the start of s, right to left so that each item is seen once. */
static double count_seq(const path_count *pc, const seq *s, double cont, double brk)
{
    double after = cont;
    for (unsigned i = s->n; i-- > 0;)
        after = count_item(pc, &s->items[i], after, brk);
    return after;
}

/* The paths of decision d, when cont paths follow it and brk follow a break. */
static double count_decision(const path_count *pc, const decision *d, double cont, double brk)
{
    double sum = 0;
    if (d->kind == DEC_IF) {
        for (unsigned b = 0; b < d->nbranches; b++)
            sum += count_seq(pc, &d->branches[b].seq, cont, brk);
        return sum;
    }
    /* the cases are suffixes of the body: count every suffix once; a break leaves the switch */
    unsigned n = d->body.n;
    double *suffix = xmalloc((n + 1) * sizeof *suffix);
    suffix[n] = cont;
    for (unsigned i = n; i-- > 0;)
        suffix[i] = count_item(pc, &d->body.items[i], suffix[i + 1], cont);
    for (unsigned b = 0; b < d->nbranches; b++) {
        const seq *bs = &d->branches[b].seq;
        unsigned start = bs->n ? (unsigned)(bs->items - d->body.items) : n;
        sum += suffix[start];
    }
    free(suffix);
    return sum;
}

double plan_count_paths(const seq *top, const decision_plan *dp)
{
    path_count pc = {dp};
    return count_seq(&pc, top, 1, 1);
}

/* ---- nothing split after a kept return ---------------------------------- */

/*
 * Keeps every decision after a kept one that may return or break, on any
 * path through s (over-approximated by position: the rest of the sequence
 * and what follows the enclosing decisions). A kept decision's item holds
 * the effects of its whole statement (analyze.h), early exit included.
 * Returns whether such an exit is pending at the end of s.
 */
static int keep_after_exits(const seq *s, decision_plan *dp, int pending)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        if (it->kind != ITEM_DECISION || !it->decision)
            continue;
        const decision *d = it->decision;
        if (pending)
            dp[d->id].keep_in_leaf = 1;
        if (dp[d->id].keep_in_leaf) {
            pending |= !cursor_is_null(it->fx.hidden_exit);
            continue;
        }
        for (unsigned b = 0; b < decision_seqs(d); b++)
            pending |= keep_after_exits(decision_seq(d, b), dp, 0);
    }
    return pending;
}

/* ---- levels and --max-leaves ---------------------------------------------- */

typedef struct decision_list {
    const decision **v;
    unsigned n, cap;
    decision_plan *dp;
} decision_list;

static unsigned level_seq(decision_list *l, const seq *s, unsigned lvl);

static unsigned level_decision(decision_list *l, const decision *d, unsigned lvl)
{
    l->dp[d->id].level = lvl;
    VEC_PUSH(l->v, l->n, l->cap, d);
    unsigned after = lvl + 1, a;
    for (unsigned b = 0; b < decision_seqs(d); b++)
        if ((a = level_seq(l, decision_seq(d, b), lvl + 1)) > after)
            after = a;
    return after;
}

/* Numbers the split decisions by how many split ones come before them on a path. */
static unsigned level_seq(decision_list *l, const seq *s, unsigned lvl)
{
    for (unsigned i = 0; i < s->n; i++)
        if (is_split(l->dp, &s->items[i]))
            lvl = level_decision(l, s->items[i].decision, lvl);
    return lvl;
}

static void keep_from_level(const decision_list *l, unsigned level)
{
    for (unsigned i = 0; i < l->n; i++) {
        decision_plan *p = &l->dp[l->v[i]->id];
        p->keep_in_leaf = p->level >= level;
    }
}

int plan_limit_leaves(const seq *top, decision_plan *dp, unsigned max_leaves, double *paths,
                      double *outer)
{
    keep_after_exits(top, dp, 0);
    *paths = *outer = plan_count_paths(top, dp);
    if (*paths <= max_leaves)
        return 0;
    decision_list l = {NULL, 0, 0, dp};
    unsigned levels = level_seq(&l, top, 0);
    int fits = 0;
    for (unsigned level = levels; level-- > 1 && !fits;) {
        keep_from_level(&l, level);
        *outer = plan_count_paths(top, dp);
        fits = *outer <= max_leaves;
    }
    if (!fits)
        keep_from_level(&l, levels); /* refused: leave every decision split, as written */
    free(l.v);
    keep_after_exits(top, dp, 0); /* and after the newly kept ones that may return */
    return fits ? 0 : -1;
}
