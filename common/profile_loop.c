/* SPDX-License-Identifier: Apache-2.0 */
/* profile_loop.c - the regrouped loop's predicted SIMD efficiency (profile_loop.h). */
#include "profile_loop.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define DIV_DATA_CLASS 2 /* pconstruct.divergence: 0 uniform, 1 affine, 2 data */

/* Whether construct c is a (or lies inside) construct `in`. */
static int inside(const ptree *t, unsigned c, unsigned in)
{
    for (int p = (int)c; p >= 0; p = t->c[p].parent)
        if ((unsigned)p == in)
            return 1;
    return 0;
}

/* Lane work inside construct `in` (its own and its descendants'). */
static void work_inside(const ptree *t, const pstats *s, unsigned in, double *useful,
                        double *issued)
{
    *useful = *issued = 0;
    for (unsigned c = 0; c < t->nc; c++)
        if (inside(t, c, in)) {
            *useful += s->c[c].useful_in;
            *issued += s->c[c].issued_in;
        }
}

/* A sequence's cost when every region runs once (the cost model's, static). */
static double seq_cost(const pseq *s)
{
    double cost = 0;
    for (unsigned i = 0; i < s->n; i++) {
        const pnode *nd = &s->v[i];
        cost += nd->cost + nd->init_cost + nd->step_cost;
        double arms = 0;
        for (unsigned a = 0; a < nd->narms; a++)
            arms += seq_cost(&nd->arms[a]);
        cost += nd->kind == PN_LOOP ? arms : (nd->narms ? arms / nd->narms : 0);
    }
    return cost;
}

/*
 * One round: lanes contexts sorted by branch, branch b's run n[b] long, in
 * SIMD groups of width; a group issues every branch whose run it touches.
 * The sorted branches' useful / issued work.
 */
static double sorted_efficiency(const pconstruct *c, const pcstats *cs, const double *cost,
                                unsigned width, unsigned lanes)
{
    double items = 0, useful = 0, issued = 0;
    for (unsigned b = 0; b < c->narms; b++)
        items += (double)cs->arm_items[b];
    if (!(items > 0) || !width)
        return 1.0;
    unsigned *run = xcalloc(c->narms, sizeof *run), placed = 0;
    for (unsigned b = 0; b < c->narms; b++) { /* the expected run lengths, summing to lanes */
        double upto = 0;
        for (unsigned a = 0; a <= b; a++)
            upto += (double)cs->arm_items[a];
        unsigned stop = (unsigned)(0.5 + (double)lanes * upto / items);
        run[b] = stop > placed ? stop - placed : 0;
        placed += run[b];
    }
    for (unsigned g = 0; g < lanes; g += width) {
        unsigned at = 0;
        for (unsigned b = 0; b < c->narms; b++) {
            unsigned lo = at, hi = at + run[b];
            at = hi;
            if (hi > g && lo < g + width)
                issued += (double)width * cost[b];
        }
    }
    for (unsigned b = 0; b < c->narms; b++)
        useful += (double)run[b] * cost[b];
    free(run);
    return issued > 0 ? useful / issued : 1.0;
}

const pnode *profile_loop_decision(const ptree *t, const pnode *loop)
{
    if (loop->kind != PN_LOOP || loop->narms < 1)
        return NULL;
    const pseq *body = &loop->arms[0];
    for (unsigned i = 0; i < body->n; i++) {
        const pnode *nd = &body->v[i];
        int div = t->c[nd->construct].divergence; /* -1: the analysis leaves loops alone */
        if ((nd->kind == PN_IF || nd->kind == PN_SWITCH) && (div < 0 || div == DIV_DATA_CLASS))
            return nd;
    }
    return NULL;
}

static void predict_one(const ptree *t, const pstats *base, const pnode *loop, const pnode *d,
                        unsigned width, unsigned lanes, loop_prediction *p)
{
    memset(p, 0, sizeof *p);
    p->loop = loop->construct;
    p->decision = d->construct;
    work_inside(t, base, loop->construct, &p->loop_useful, &p->loop_issued);
    double branch_useful, branch_issued;
    work_inside(t, base, d->construct, &branch_useful, &branch_issued);
    const pconstruct *c = &t->c[d->construct];
    double *cost = xcalloc(c->narms ? c->narms : 1, sizeof *cost), any = 0;
    for (unsigned b = 0; b < c->narms && b < d->narms; b++) /* a switch: the entry's own */
        any += cost[b] = seq_cost(&d->arms[b]);
    for (unsigned b = 0; !(any > 0) && b < c->narms; b++)
        cost[b] = 1; /* no cost known: every branch alike */
    p->branch_efficiency = sorted_efficiency(c, &base->c[d->construct], cost, width, lanes);
    free(cost);
    /* the rest of the loop runs with every lane live (refill); the branches sorted */
    p->loop_issued_regrouped = (p->loop_useful - branch_useful) +
                               (p->branch_efficiency > 0 ? branch_useful / p->branch_efficiency
                                                         : branch_issued);
    p->kernel_efficiency = pstats_efficiency(base);
    double issued = base->issued - p->loop_issued + p->loop_issued_regrouped;
    p->kernel_efficiency_regrouped = issued > 0 ? base->useful / issued : 1.0;
}

unsigned profile_loop_predict(const ptree *t, const pstats *base, unsigned width, unsigned lanes,
                              loop_prediction *out, unsigned cap)
{
    unsigned n = 0;
    for (unsigned i = 0; i < t->top.n && n < cap; i++) {
        const pnode *loop = &t->top.v[i];
        const pnode *d = profile_loop_decision(t, loop);
        if (d)
            predict_one(t, base, loop, d, width, lanes, &out[n++]);
    }
    return n;
}
