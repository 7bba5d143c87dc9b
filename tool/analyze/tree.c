/* SPDX-License-Identifier: Apache-2.0 */
/* tree.c - the sequences of a decision and the pre-order visits of tree.h. */
#include "tree.h"

unsigned decision_seqs(const decision *d)
{
    return d->kind == DEC_SWITCH ? 1 : d->nbranches;
}

const seq *decision_seq(const decision *d, unsigned i)
{
    return d->kind == DEC_SWITCH ? &d->body : &d->branches[i].seq;
}

/* One walker for both kinds of visit: read (the later stages) or fill (analyze). */
typedef struct visitor {
    item_visit read;
    item_fill fill;
    void *ud;
} visitor;

static int walk_in(const decision *d, const visitor *v);

static int walk_seq(const seq *s, const visitor *v)
{
    for (unsigned i = 0; i < s->n; i++) {
        seq_item *it = &s->items[i];
        tree_step step = v->fill ? v->fill(v->ud, it) : v->read(v->ud, it);
        if (step == TREE_STOP)
            return 1;
        if (step != TREE_RECURSE || it->kind != ITEM_DECISION || !it->decision)
            continue;
        if (walk_in(it->decision, v))
            return 1;
    }
    return 0;
}

static int walk_in(const decision *d, const visitor *v)
{
    for (unsigned k = 0; k < decision_seqs(d); k++)
        if (walk_seq(decision_seq(d, k), v))
            return 1;
    return 0;
}

int for_each_item(const seq *s, item_visit fn, void *ud)
{
    visitor v = {fn, NULL, ud};
    return walk_seq(s, &v);
}

int for_each_item_in(const decision *d, item_visit fn, void *ud)
{
    visitor v = {fn, NULL, ud};
    return walk_in(d, &v);
}

int for_each_item_fill(seq *s, item_fill fn, void *ud)
{
    visitor v = {NULL, fn, ud};
    return walk_seq(s, &v);
}

typedef struct decision_filter {
    decision_visit read;
    decision_fill fill;
    void *ud;
} decision_filter;

static tree_step only_decisions(void *ud, const seq_item *it)
{
    const decision_filter *f = ud;
    if (it->kind != ITEM_DECISION || !it->decision)
        return TREE_CONTINUE;
    return f->read(f->ud, it->decision);
}

static tree_step only_decisions_fill(void *ud, seq_item *it)
{
    const decision_filter *f = ud;
    if (it->kind != ITEM_DECISION || !it->decision)
        return TREE_CONTINUE;
    return f->fill(f->ud, it->decision);
}

int for_each_decision(const seq *s, decision_visit fn, void *ud)
{
    decision_filter f = {fn, NULL, ud};
    return for_each_item(s, only_decisions, &f);
}

int for_each_decision_in(const decision *d, decision_visit fn, void *ud)
{
    decision_filter f = {fn, NULL, ud};
    return for_each_item_in(d, only_decisions, &f);
}

int for_each_decision_fill(seq *s, decision_fill fn, void *ud)
{
    decision_filter f = {NULL, fn, ud};
    return for_each_item_fill(s, only_decisions_fill, &f);
}

int decision_is_guard(const decision *d)
{
    if (d->kind != DEC_IF)
        return 0;
    for (unsigned b = 0; b < d->nbranches; b++) {
        const seq *s = &d->branches[b].seq;
        int ret = s->n > 0 && s->items[s->n - 1].kind == ITEM_RETURN;
        for (unsigned i = 0; ret && i + 1 < s->n; i++)
            ret = s->items[i].kind == ITEM_STMT && !(s->items[i].fx.bits & EFF_OBSERVABLE);
        if (ret)
            return 1;
    }
    return 0;
}
