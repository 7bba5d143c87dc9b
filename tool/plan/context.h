/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context.h - part of the plan stage: the context of a kernel's top-level
 * decision, for the tile strategy. The prologue is the top-level statements
 * before the first split decision; the context is the private variables it
 * declares that the decisions or the epilogue use. With a context, the tile
 * kernel's classify phase runs the prologue once per item and keeps the
 * context in local memory, and the leaves start from it instead of running
 * the prologue again.
 */
#ifndef NPLUS1_CONTEXT_H
#define NPLUS1_CONTEXT_H

#include "analyze.h"
#include "diag.h"
#include "keep_in_leaf.h"

/* Bytes of local memory the contexts of one work-group's items may take, one item each. */
#define CONTEXT_LOCAL_BUDGET 16384u

/*
 * What regrouping costs, per item, in FMA-equivalents (effects.c's rough operations;
 * shared with loop.c): a context word's two trips through local memory, and a round's
 * barriers and ranking besides the moves. The device's calibration when the CLI found one
 * (regroup_costs_set, common/calibration.h), else the defaults measured on an H200
 * (nplus1rt_calibration_defaults: 16 a word, 70 a round; docs/performance.md).
 */
#define REGROUP_MOVE_COST (regroup_move_cost())
#define REGROUP_ROUND_COST (regroup_round_cost())
double regroup_move_cost(void);
double regroup_round_cost(void);
/* Sets both (a value <= 0 keeps the default): once, before anything is planned. */
void regroup_costs_set(double move_per_word, double round);

typedef struct ctx_var {
    char *name;
    char *decl_type;   /* as declared ("const int", "float4"); arrays: the element type */
    char *store_type;  /* without qualifiers, for the local array ("int"); arrays: element */
    unsigned count;    /* array elements; 0: not an array */
    unsigned bytes;    /* the whole variable, as parsed */
    unsigned line;     /* of its declaration */
    int carried;       /* its value moves; else the leaves only declare it (no value is read) */
} ctx_var;

/*
 * A top-level tile kernel's default NPLUS1_TILE_REGROUP (the plain tile's and the context
 * tile's), by the one cost rule of the loop kernel and the state machine (regroup_rule.h):
 * in a mixed SIMD group the lanes of the other leaves wait for the costliest, so a round
 * saves leaf_cost x (1 - 1/leaves) an item (one working leaf: nothing); it moves `bytes`
 * an item twice through local memory and waits at its barriers (regroup_round_of). So 1
 * (regroup the rounds whose items take two leaves or more) when the saving reaches the
 * round, else -1 (off: the kernel's own body, launched as the original; the tile's own
 * in-place rounds, 0, cost 8-32% on an H200 where they regroup nothing,
 * docs/performance.md).
 */
typedef struct tile_policy {
    int regroup;       /* 1, or -1 off */
    unsigned leaves;   /* the leaves that do work */
    unsigned bytes;    /* what a round moves an item: the context, or the item's id (4) */
    double leaf_cost;  /* the costliest leaf after the decision, rough operations */
    double saved;      /* what a round saves an item */
    double round_cost; /* what a round costs in the same operations */
} tile_policy;

void tile_policy_set(tile_policy *p, double leaf_cost, unsigned leaves, unsigned bytes);
/* The policy's reason, a phrase for the report, the kernel's comment and the manifest;
 * context: the round moves a context (else the item's id). */
void tile_policy_why(const tile_policy *p, int context, char *buf, unsigned size);

typedef struct kernel_context {
    int active;        /* the tile leaves start from the context */
    unsigned at;       /* index in k->top of the first split decision */
    unsigned point;    /* its offset in the kernel's file: the leaves start there */
    unsigned at_line;
    unsigned prologue_begin_line, prologue_end_line;
    unsigned wg;
    ctx_var *vars;     /* the variables the leaves declare, in declaration order */
    unsigned nvars, capvars;
    unsigned bytes;    /* per item: the carried variables */
    unsigned relaxed;  /* prologue statements that are legal only because it runs once */
    unsigned loop_line; /* loop.c: the loop whose state this is (0: a top-level decision) */
    tile_policy policy; /* the context tile's default NPLUS1_TILE_REGROUP */
    char why[320];     /* not active: why (a sentence) */
} kernel_context;

/*
 * Computes k's context under a work-group of wg, at the first top-level
 * decision dp splits (dp: the plan's, by decision id). A private pointer used
 * after the decision is reported as a warning [nplus1-loop-state] naming it;
 * the context is then inactive (the kernel keeps the recomputing tile).
 */
void context_build(const analysis *an, const kernel_info *k, const decision_plan *dp,
                   unsigned wg, kernel_context *ctx, diag_sink *diag);
void context_free(kernel_context *ctx);

/*
 * For loops (loop.c): adds to ctx the variables that the declaration
 * statement decl declares and that the items of s from index `from` on, or
 * extra, read or write; each of them is carried. Returns 0, or 1 when one
 * cannot move: a pointer (a warning [nplus1-loop-state] names it), a type
 * local memory cannot hold, or a name already in ctx; ctx->why says why.
 */
int context_add_loop_vars(const analysis *an, const kernel_info *k, kernel_context *ctx,
                          CXCursor decl, const seq *s, unsigned from, const effects *extra,
                          diag_sink *diag);

/* Whether the statement it lies in the prologue of an active context. */
int context_in_prologue(const kernel_context *ctx, const seq_item *it);

#endif
