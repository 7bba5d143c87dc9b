/* SPDX-License-Identifier: Apache-2.0 */
/*
 * slice.c - the kernel tree as flat lists, and the classifier's backward
 * slice: the statements before the last decision that the conditions need,
 * transitively, and the declarations of what the slice writes.
 */
#include "plan_int.h"

#include <stdlib.h>

#include "cursor_set.h"
#include "plan_facts.h"
#include "tree.h"
#include "util.h"

/* ---- every item and decision of a tree -------------------------------- */


/* Plain statements (and kept decisions, one statement each), and the split decisions. */
static tree_step collect_item(void *ud, const seq_item *it)
{
    tree_lists *t = ud;
    if (it->kind == ITEM_STMT || (it->kind == ITEM_DECISION && it->decision &&
                                  decision_kept(t->dp, it->decision))) {
        VEC_PUSH(t->items, t->nitems, t->capitems, it);
        return TREE_CONTINUE;
    }
    if (it->kind == ITEM_DECISION && it->decision)
        VEC_PUSH(t->decisions, t->ndecisions, t->capdecisions, it->decision);
    return TREE_RECURSE;
}

void tree_lists_collect(tree_lists *t, const seq *top)
{
    for_each_item(top, collect_item, t);
}

void tree_lists_free(tree_lists *t)
{
    free(t->items);
    free(t->decisions);
    t->items = NULL;
    t->decisions = NULL;
    t->nitems = t->ndecisions = t->capitems = t->capdecisions = 0;
}

/* ---- the slice ---------------------------------------------------------- */

unsigned slice_horizon(const tree_lists *t)
{
    unsigned m = 0;
    for (unsigned i = 0; i < t->ndecisions; i++)
        if (t->decisions[i]->range.begin > m)
            m = t->decisions[i]->range.begin;
    return m;
}

/* Needed variables and the last place (offset) where the slice reads each. */
typedef struct needed_vars {
    cursor_set vars;
    unsigned *last;
} needed_vars;

static int need(needed_vars *nv, CXCursor c, unsigned at)
{
    for (unsigned i = 0; i < nv->vars.n; i++)
        if (cursors_equal(nv->vars.v[i], c)) {
            if (at > nv->last[i])
                nv->last[i] = at;
            return 0;
        }
    unsigned cap = nv->vars.cap;
    cursor_set_add(&nv->vars, c);
    if (nv->vars.cap != cap || !nv->last)
        nv->last = xrealloc(nv->last, nv->vars.cap * sizeof *nv->last);
    nv->last[nv->vars.n - 1] = at;
    return 1;
}

/* Does it write a needed variable before the slice's last read of it? */
static int feeds_a_read(const needed_vars *nv, const seq_item *it)
{
    for (unsigned w = 0; w < it->fx.nwrites; w++)
        for (unsigned i = 0; i < nv->vars.n; i++)
            if (cursors_equal(nv->vars.v[i], it->fx.writes[w]) &&
                it->range.end <= nv->last[i])
                return 1;
    return 0;
}

/* The plain statement that declares the local variable var, or NULL (a parameter, or
 * a variable declared inside a statement kept whole). */
static const seq_item *declaring_item(const analysis *an, const tree_lists *t, CXCursor var)
{
    src_pos d;
    if (var_decl_pos(an, var, &d) != 0)
        return NULL;
    for (unsigned i = 0; i < t->nitems; i++) {
        const seq_item *it = t->items[i];
        if (it->kind == ITEM_STMT && it->range.file == d.file && it->range.begin <= d.offset &&
            d.offset < it->range.end)
            return it;
    }
    return NULL;
}

static void add_to_slice(const tree_lists *t, needed_vars *nv, const seq_item *it,
                         unsigned *count)
{
    t->in_slice[it->id] = 1;
    (*count)++;
    for (unsigned r = 0; r < it->fx.nreads; r++)
        need(nv, it->fx.reads[r], it->range.begin);
}

/* The classifier runs every write of the slice and the conditions: it must declare
 * what they write ('int v; if ((v = ...) > 3)'). Returns whether it added any. */
static int add_declarations(const analysis *an, const tree_lists *t, const effects *fx,
                            needed_vars *nv, unsigned *count)
{
    int added = 0;
    for (unsigned w = 0; w < fx->nwrites; w++) {
        const seq_item *d = declaring_item(an, t, fx->writes[w]);
        if (d && !t->in_slice[d->id]) {
            add_to_slice(t, nv, d, count);
            added = 1;
        }
    }
    return added;
}

static int add_all_declarations(const analysis *an, const tree_lists *t, needed_vars *nv,
                                unsigned *count)
{
    int added = 0;
    for (unsigned i = 0; i < t->ndecisions; i++)
        added |= add_declarations(an, t, &t->decisions[i]->cond_fx, nv, count);
    for (unsigned i = 0; i < t->nitems; i++)
        if (t->in_slice[t->items[i]->id])
            added |= add_declarations(an, t, &t->items[i]->fx, nv, count);
    return added;
}

unsigned compute_slice(const analysis *an, const tree_lists *t, unsigned horizon)
{
    needed_vars nv = {{0}, NULL};
    for (unsigned i = 0; i < t->ndecisions; i++)
        for (unsigned r = 0; r < t->decisions[i]->cond_fx.nreads; r++)
            need(&nv, t->decisions[i]->cond_fx.reads[r], t->decisions[i]->range.begin);
    unsigned count = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i < t->nitems; i++) {
            const seq_item *it = t->items[i];
            if (t->in_slice[it->id] || it->range.end > horizon || !feeds_a_read(&nv, it))
                continue;
            add_to_slice(t, &nv, it, &count);
            changed = 1;
        }
        if (!changed)
            changed = add_all_declarations(an, t, &nv, &count);
    }
    cursor_set_free(&nv.vars);
    free(nv.last);
    return count;
}

int plan_in_slice(const kernel_plan *kp, const seq_item *it)
{
    return kp->in_slice[it->id];
}
