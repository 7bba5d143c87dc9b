/*
 * memory_order.h - the check of the memory-order rule (RULE_MEMORY_ORDER, rules.h),
 * run by the plan on a kernel's items and decisions (memory_order.c).
 */
#ifndef NPLUS1_MEMORY_ORDER_H
#define NPLUS1_MEMORY_ORDER_H

#include "analyze.h"
#include "context.h"
#include "diag.h"

/* The plain statements (and decisions kept in the leaves) and the split decisions. */
typedef struct order_lists {
    seq_item *const *items;
    unsigned nitems;
    decision *const *decisions;
    unsigned ndecisions;
} order_lists;

/*
 * The first store item before horizon whose write a condition, or the slice,
 * may read later on a path: reported (an error and its notes) and returned;
 * NULL when there is none. A store the tile's context runs in its classify
 * phase (ctx) is allowed, and counted in ctx->relaxed.
 */
const seq_item *memory_order_check(analysis *an, const order_lists *t, const seq *top,
                                   unsigned horizon, kernel_context *ctx, diag_sink *diag);

#endif
