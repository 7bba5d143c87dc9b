/* SPDX-License-Identifier: Apache-2.0 */
/* walk.c - every path of a condition tree, in order (walk.h). */
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct frame {
    const seq_item *items;
    unsigned n, next;
    int is_switch;
} frame;

typedef struct walker {
    const walk_visitor *v;
    const decision_plan *dp;
    frame stack[256];
    unsigned depth;
    choice path[256];
    unsigned npath;
    unsigned paths;
} walker;

static void walk_items(walker *w, const seq_item *items, unsigned n, unsigned i, unsigned fx,
                       double cost);

static void end_path(walker *w, int returned, unsigned fx, double cost)
{
    if (w->paths > PLAN_MAX_LEAVES) /* counted past the limit: stop, 2^40 paths would hang */
        return;
    w->paths++;
    if (w->v->path_end)
        w->v->path_end(w->v->ud, w->path, w->npath, returned, fx, cost);
}

/* Continues with the statements after the innermost open decision. */
static void continue_after(walker *w, unsigned fx, double cost)
{
    if (w->depth == 0) {
        end_path(w, 0, fx, cost);
        return;
    }
    frame f = w->stack[--w->depth];
    walk_items(w, f.items, f.n, f.next, fx, cost);
    w->stack[w->depth++] = f;
}

/* A break: leave the innermost switch. */
static void break_out(walker *w, unsigned fx, double cost)
{
    unsigned saved = w->depth;
    frame kept[256];
    memcpy(kept, w->stack, saved * sizeof *kept);
    while (w->depth > 0 && !w->stack[w->depth - 1].is_switch)
        w->depth--;
    if (w->depth == 0) { /* break outside a switch decision: ends the path */
        end_path(w, 1, fx, cost);
    } else {
        continue_after(w, fx, cost);
    }
    w->depth = saved;
    memcpy(w->stack, kept, saved * sizeof *kept);
}

static void walk_decision(walker *w, const seq_item *items, unsigned n, unsigned i,
                          unsigned fx, double cost)
{
    const decision *d = items[i].decision;
    if (w->v->decision_begin)
        w->v->decision_begin(w->v->ud, d);
    fx |= d->cond_fx.bits;
    cost += d->cond_fx.cost;
    for (unsigned b = 0; b < d->nbranches; b++) {
        if (w->depth >= 255 || w->npath >= 255 || w->paths > PLAN_MAX_LEAVES)
            break;
        if (w->v->branch_begin)
            w->v->branch_begin(w->v->ud, d, b);
        w->path[w->npath++] = (choice){d, b};
        w->stack[w->depth++] = (frame){items, n, i + 1, d->kind == DEC_SWITCH};
        const seq *s = &d->branches[b].seq;
        walk_items(w, s->items, s->n, 0, fx, cost);
        w->depth--;
        w->npath--;
        if (w->v->branch_end)
            w->v->branch_end(w->v->ud, d, b);
    }
    if (w->v->decision_end)
        w->v->decision_end(w->v->ud, d);
}

static void walk_items(walker *w, const seq_item *items, unsigned n, unsigned i, unsigned fx,
                       double cost)
{
    for (; i < n; i++) {
        const seq_item *it = &items[i];
        switch (it->kind) {
        case ITEM_STMT:
            if (w->v->stmt)
                w->v->stmt(w->v->ud, it);
            fx |= it->fx.bits;
            cost += it->fx.cost;
            break;
        case ITEM_RETURN:
            end_path(w, 1, fx | it->fx.bits, cost);
            return;
        case ITEM_BREAK:
            break_out(w, fx, cost);
            return;
        case ITEM_DECISION:
            if (it->decision && decision_kept(w->dp, it->decision)) { /* a plain statement */
                if (w->v->stmt)
                    w->v->stmt(w->v->ud, it);
                fx |= it->fx.bits;
                cost += it->fx.cost;
                break;
            }
            walk_decision(w, items, n, i, fx, cost);
            return;
        }
    }
    continue_after(w, fx, cost);
}

unsigned walk_tree(const seq *top, const decision_plan *dp, const walk_visitor *v)
{
    walker *w = xcalloc(1, sizeof *w);
    w->v = v;
    w->dp = dp;
    walk_items(w, top->items, top->n, 0, 0, 0.0);
    unsigned paths = w->paths;
    free(w);
    return paths;
}

