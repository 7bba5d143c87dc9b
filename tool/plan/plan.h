/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.h - the plan stage: the leaves of each kernel's condition tree (one
 * per path), which are empty, the classifier's backward slice, each leaf's
 * cost estimate, and the compaction strategy and dispatch. Also decides
 * the legality rules that depend on the slice.
 */
#ifndef NPLUS1_PLAN_H
#define NPLUS1_PLAN_H

#include "analyze.h"
#include "context.h"
#include "diag.h"
#include "keep_in_leaf.h"
#include "loop.h"
#include "machine.h"
#include "nplus1rt_format.h"
#include "walk.h"

/* --strategy and the run-time split: the runtime's values (nplus1rt_format.h); --dispatch
 * is emit's (emit.h). */
#define PLAN_STRATEGY_(id, v, name) STRATEGY_##id = v,
#define PLAN_SPLIT_MODE_(id, v, name) SPLIT_MODE_##id = v,
typedef enum strategy { NPLUS1RT_STRATEGIES(PLAN_STRATEGY_) } strategy;
/* What the driver does at run time (the generator writes ALWAYS, ADAPTIVE, NEVER). */
typedef enum split_mode { NPLUS1RT_SPLITS(PLAN_SPLIT_MODE_) } split_mode;
#undef PLAN_STRATEGY_
#undef PLAN_SPLIT_MODE_
typedef enum split_policy { SPLIT_AUTO, SPLIT_ALWAYS } split_policy;

/* A leaf costing less than this (rough operations) does not pay for the classifier. */
#define PLAN_CHEAP_LEAF 300.0 /* H100: K=8 (~220) loses, K=16 (~420) wins; docs/performance.md */
/* The leaf cost under which a leaf is cheap for a classifier of classifier_cost:
 * PLAN_CHEAP_LEAF, or 16 times the classifier's cost when that is more. */
static inline double plan_cheap_below(double classifier_cost)
{
    return 16 * classifier_cost > PLAN_CHEAP_LEAF ? 16 * classifier_cost : PLAN_CHEAP_LEAF;
}

typedef struct leaf {
    choice *path;
    unsigned npath;
    int returned;          /* the path ends in a return */
    int empty;             /* nothing observable happens: no kernel, no bucket */
    int kernel;            /* index of its leaf kernel, -1 when empty */
    unsigned fx;           /* effects along the path */
    double cost;           /* rough operation count along the path */
    char *condition;       /* the condition path as source text */
    char *impossible;      /* dropped: why its path cannot run (paths.h), or NULL */
    cond_input *inputs;    /* what the decisions on its path read (analyze.h) */
    unsigned ninputs;
    unsigned line_begin, line_end;
} leaf;

/* --profile-in: what the profile predicts for one kernel (profile_in_apply). All zero
 * without a profile, or when it does not profile this kernel (the static prior stays). */
typedef struct plan_prior {
    int has;               /* the profile has this kernel */
    const char *file;      /* the profile as given on the command line (borrowed) */
    unsigned width;
    double simt_efficiency;
    double split_bound;    /* predicted speed-up bound of the n+1 split */
    double tile_bound;     /* ... of the tile strategy */
    double loop_bound;     /* ... of the regrouped loop ("tile+loop"), 0: none predicted */
    int has_candidates;    /* the bounds are the carried candidates' predictions ("candidates"):
                            * 0 for a candidate the set does not carry */
} plan_prior;

typedef struct kernel_plan {
    const kernel_info *k;
    decision_plan *decisions; /* by decision.id: kept or split, level, the policy's reason */
    unsigned char *in_slice;  /* by seq_item.id: the classifier needs this statement */
    leaf *leaves;
    unsigned nleaves, capleaves;
    unsigned nkernels;     /* non-empty leaves */
    unsigned nslice;       /* statements in the classifier's slice */
    double classifier_cost;
    double classifier_accesses; /* its memory accesses (the slice's and the conditions') */
    double classifier_math;   /* its math builtins' time less their cost (effects.math): the
                               * profile's predictions weigh them, the plan's rules do not */
    split_mode split;      /* run-time policy for the driver */
    int merged_kernel;     /* kernel running the original code for cheap leaves, or -1 */
    unsigned nmerged;      /* leaves in it */
    unsigned errors;       /* slice rules this kernel broke (refused) */
    unsigned ndata;        /* decisions whose condition is data dependent (divergence.h) */
    double paths;          /* paths with every decision split (before --max-leaves) */
    unsigned max_leaves;   /* the leaf limit it was planned under */
    kernel_context ctx;    /* --strategy tile: the top-level decision's context (context.h) */
    tile_policy plain;     /* the plain tile's default NPLUS1_TILE_REGROUP (its round moves
                            * the item's id) */
    loop_plan loop;        /* --strategy tile: the regrouped loop (loop.h); when active, the
                            * leaves are its decision's branches, one group each */
    strategy strategy;     /* this kernel's set: --strategy, or tile when the tile is the only
                            * split candidate under --split auto (auto_tile.h) */
    int tile_candidate;    /* the set's tile kernel: AUTO_TILE_* (auto_tile.h) */
    split_mode tile_split; /* the context tile's own verdict, the prologue counted once */
    plan_prior prior;      /* --profile-in's predictions (profile_in_apply), for emit */
    machine_plan machine;  /* the state machine on the IR (machine.h), where the loop kernel
                            * declines; when active, the leaves are its regroup points'
                            * arms, one group each */
} kernel_plan;

typedef struct plan_options {
    strategy strategy;
    unsigned wg;           /* work-group size of the generated kernels */
    split_policy split;    /* auto: cost model and run-time probe; always: split every launch */
    unsigned max_leaves;   /* split only the outer levels that keep this many leaves (0: 64) */
    const unsigned *keep;  /* decision ids to keep in the leaves whatever their class (tests) */
    unsigned nkeep;
} plan_options;

/* A kernel kept only for its loop (kernel_info.loop_kept, plan_loop_lenient) whose loop is
 * not regrouped: left alone, as a kernel with decisions only inside loops was before. */
typedef struct plan_skip {
    const kernel_info *k;
    char why[1024];        /* why its loop is not regrouped, or why the kernel is refused */
} plan_skip;

typedef struct plan {
    const analysis *an;    /* read only: one analysis can be planned under any options */
    kernel_plan *kernels;  /* one per transformable kernel with a decision */
    unsigned nkernels;
    plan_skip *skipped;    /* one per plan_loop_lenient kernel left alone */
    unsigned nskipped;
    plan_options opt;
} plan;

/* Is k, kept by the analysis only for its loop, planned leniently: its refusals quiet, and
 * left alone (a plan_skip) when its loop cannot be regrouped? Under every strategy but tile,
 * where the loop kernel is the tile candidate beside the set; under tile the loop kernel is
 * the set, and its refusals are errors like any kernel's. */
static inline int plan_loop_lenient(const plan *pl, const kernel_info *k)
{
    return k->loop_kept && pl->opt.strategy != STRATEGY_TILE;
}

/* Was k left alone (a plan_skip), and why? NULL: no. */
const char *plan_skipped_why(const plan *pl, const kernel_info *k);

/* Does the classifier's slice hold it (an item of kp's kernel tree)? */
int plan_in_slice(const kernel_plan *kp, const seq_item *it);

/*
 * Plans every legal kernel with a decision. Returns 0, or 1 when a kernel
 * breaks a slice rule (diagnostics reported).
 */
int plan_build(plan *pl, const analysis *an, const plan_options *opt, diag_sink *diag);
void plan_free(plan *pl);

const char *strategy_name(strategy s);
const char *split_mode_name(split_mode m);

#endif
