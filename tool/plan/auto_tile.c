/* SPDX-License-Identifier: Apache-2.0 */
/* auto_tile.c - the tile kernel as a candidate of --split auto (auto_tile.h). */
#include "auto_tile.h"

int auto_tile_wants_context(const plan_options *opt)
{
    return opt->strategy == STRATEGY_TILE || opt->split == SPLIT_AUTO;
}

void auto_tile_choose(const plan_options *opt, kernel_plan *kp)
{
    kp->strategy = opt->strategy;
    int tile = auto_tile_wants_context(opt);
    if (kp->loop.active) { /* the loop kernel is the split, under every policy */
        kp->strategy = STRATEGY_TILE;
        kp->tile_candidate = AUTO_TILE_LOOP;
        return;
    }
    if (kp->machine.active) { /* the state machine likewise */
        kp->strategy = STRATEGY_TILE;
        kp->tile_candidate = AUTO_TILE_MACHINE;
        return;
    }
    if (!tile) {
        kp->tile_candidate = AUTO_TILE_NONE;
        return;
    }
    kp->tile_candidate = kp->ctx.active ? AUTO_TILE_CONTEXT : AUTO_TILE_PLAIN;
    if (kp->ctx.active && kp->ctx.relaxed) /* the other strategies would refuse it */
        kp->strategy = STRATEGY_TILE;
}

void auto_tile_costs(const kernel_plan *kp, double *prologue, double *classifier)
{
    *prologue = 0;
    *classifier = kp->classifier_cost;
    if (!kp->ctx.active)
        return;
    const seq *top = &kp->k->top;
    for (unsigned i = 0; i < kp->ctx.at && i < top->n; i++) {
        *prologue += top->items[i].fx.cost;
        if (plan_in_slice(kp, &top->items[i]))
            *classifier -= top->items[i].fx.cost;
    }
    if (*classifier < 0)
        *classifier = 0;
}

split_mode auto_tile_verdict(const plan_options *opt, const kernel_plan *kp)
{
    if (opt->split != SPLIT_AUTO)
        return SPLIT_MODE_ALWAYS;
    /* A regrouped loop's decision is data dependent (loop.c regroups no other): whether its
     * SIMD groups mix branches or trip counts, and so whether the loop kernel pays, is for
     * the driver's probe and the measured choice to find. kp->ndata counts the top level
     * only (none in a kernel whose decisions all sit in the loop). */
    if (kp->loop.active || kp->machine.active)
        return SPLIT_MODE_ADAPTIVE;
    if (kp->ndata == 0)
        return SPLIT_MODE_NEVER;
    double prologue, classifier;
    auto_tile_costs(kp, &prologue, &classifier);
    return auto_tile_costliest_leaf(kp) >= plan_cheap_below(classifier) ? SPLIT_MODE_ADAPTIVE
                                                                        : SPLIT_MODE_NEVER;
}

double auto_tile_costliest_leaf(const kernel_plan *kp)
{
    double prologue, classifier, max = 0;
    auto_tile_costs(kp, &prologue, &classifier);
    for (unsigned l = 0; l < kp->nleaves; l++)
        if (kp->leaves[l].kernel >= 0 && kp->leaves[l].cost - prologue > max)
            max = kp->leaves[l].cost - prologue;
    return max;
}

const char *auto_tile_name(int kind)
{
    switch (kind) {
    case AUTO_TILE_CONTEXT:
        return "tile+context";
    case AUTO_TILE_LOOP:
        return "tile+loop";
    case AUTO_TILE_MACHINE:
        return "tile+machine";
    default:
        return "tile";
    }
}
