/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rules_slice.c - the legality rules that depend on the classifier's slice
 * and on the plan's paths: nplus1-side-effect (a condition, or a statement
 * the slice runs, has a side effect), nplus1-hidden-return (an early exit
 * inside a statement before a decision), nplus1-memory-order (a store
 * before a condition that loads what it wrote) and nplus1-too-many-leaves.
 * Under another strategy than tile, a refusal says when tile's context
 * would allow the statement.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag_at.h"
#include "plan_facts.h"
#include "rules.h"
#include "tree.h"
#include "util.h"

static CXCursor first_site(const effects *fx, unsigned mask, CXCursor fallback, CXCursor *via)
{
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if ((fx->bits & mask & (1u << i)) && !cursor_is_null(fx->site[i].at)) {
            *via = fx->site[i].via;
            return fx->site[i].at;
        }
    *via = cursor_null();
    return fallback;
}

static void note_via(const analysis *an, diag_sink *diag, CXCursor via)
{
    if (cursor_is_null(via))
        return;
    diag_at(diag, an->pr, DIAG_NOTE, via, NULL, "reached through this call");
}

int check_conditions(const analysis *an, const tree_lists *t, diag_sink *diag)
{
    int errors = 0;
    for (unsigned i = 0; i < t->ndecisions; i++) {
        const decision *d = t->decisions[i];
        /* an if's conditions may write private variables: the leaves evaluate them again */
        unsigned bad = d->cond_fx.bits & (EFF_OBSERVABLE | (d->kind == DEC_SWITCH ? EFF_LOCAL_WRITE : 0));
        if (!bad)
            continue;
        CXCursor via;
        CXCursor at = first_site(&d->cond_fx, bad, d->cursor, &via);
        diag_at(diag, an->pr, DIAG_ERROR, at, rule_name(RULE_SIDE_EFFECT),
                "this condition has a side effect (it writes a variable or memory, or calls "
                "something that does)");
        note_via(an, diag, via);
        diag_at(diag, an->pr, DIAG_NOTE, d->cursor, NULL,
                "the classifier evaluates the condition and the leaf kernels do not, so the "
                "side effect would happen in the wrong kernel; compute the value in a "
                "statement before the decision");
        errors++;
    }
    return errors;
}

/* ---- the slice's statements ------------------------------------------------ */

static void note_tile_allows(const analysis *an, tile_hint *h, const seq_item *it, diag_sink *diag)
{
    if (!h->wanted)
        return;
    if (!h->built) {
        diag_sink quiet;
        diag_init(&quiet);
        quiet.quiet = 1;
        context_build(an, h->k, h->dp, h->wg, &h->ctx, &quiet);
        h->built = 1;
    }
    if (context_in_prologue(&h->ctx, it))
        diag_at(diag, an->pr, DIAG_NOTE, it->cursor, NULL,
                "--strategy tile allows this statement: its classify phase runs the prologue "
                "once per item and the leaves start from its values (docs/legality.md)");
}

int check_slice(const analysis *an, const tree_lists *t, unsigned horizon,
                       kernel_context *ctx, tile_hint *hint, diag_sink *diag)
{
    int errors = 0;
    for (unsigned i = 0; i < t->nitems; i++) {
        const seq_item *it = t->items[i];
        if (it->range.end > horizon)
            continue;
        /* a kept decision may return: nothing after it is split, unless the slice needs it */
        int in_slice = t->in_slice[it->id];
        if (!cursor_is_null(it->fx.hidden_exit) && (it->kind == ITEM_STMT || in_slice)) {
            diag_at(diag, an->pr, DIAG_ERROR, it->fx.hidden_exit, rule_name(RULE_HIDDEN_RETURN),
                    "a return or break inside this statement comes before a decision");
            diag_at(diag, an->pr, DIAG_NOTE, it->cursor, NULL,
                    "the classifier cannot tell which items leave early here; write the early "
                    "exit as a top-level guard 'if (...) return;'");
            errors++;
        }
        if (!in_slice || !(it->fx.bits & EFF_OBSERVABLE))
            continue;
        if (context_in_prologue(ctx, it)) { /* the tile runs it once, in the classify phase */
            ctx->relaxed++;
            continue;
        }
        CXCursor via;
        CXCursor at = first_site(&it->fx, EFF_OBSERVABLE, it->cursor, &via);
        diag_at(diag, an->pr, DIAG_ERROR, at, rule_name(RULE_SIDE_EFFECT),
                "a condition depends on a statement with a side effect");
        note_via(an, diag, via);
        diag_at(diag, an->pr, DIAG_NOTE, it->cursor, NULL,
                "the classifier must run this statement to evaluate a condition, and it would "
                "repeat its writes; move the side effect after the decision");
        note_tile_allows(an, hint, it, diag);
        errors++;
    }
    return errors;
}


/* ---- memory order: stores before a condition that loads what they wrote ---- */

typedef struct spans {
    unsigned (*v)[2];
    unsigned n, cap;
} spans;

enum { FLOW_RETURNED, FLOW_ON, FLOW_BREAK };

/* Adds the text from item `from` of s up to a return or break; says how the flow leaves. */
static int flow_after(const seq *s, unsigned from, spans *out)
{
    unsigned end = from;
    int how = FLOW_ON;
    for (; end < s->n; end++)
        if (s->items[end].kind == ITEM_RETURN || s->items[end].kind == ITEM_BREAK) {
            how = s->items[end].kind == ITEM_RETURN ? FLOW_RETURNED : FLOW_BREAK;
            break;
        }
    if (end > from) {
        unsigned span[2] = {s->items[from].range.begin, s->items[end - 1].range.end};
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 8;
            out->v = xrealloc(out->v, out->cap * sizeof *out->v);
        }
        memcpy(out->v[out->n++], span, sizeof span);
    }
    return how;
}

/*
 * The text that can run after target, on some path: the rest of its
 * sequence up to a return or break, then what follows the decisions around
 * it. Returns how the flow leaves s, or -1 when target is not in s.
 */
static int reach_after(const decision_plan *dp, const seq *s, const seq_item *target,
                       spans *out)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        if (it == target)
            return flow_after(s, i + 1, out);
        if (it->kind != ITEM_DECISION || !it->decision || decision_kept(dp, it->decision))
            continue;
        const decision *d = it->decision;
        int r = -1;
        for (unsigned b = 0; b < decision_seqs(d) && r < 0; b++)
            r = reach_after(dp, decision_seq(d, b), target, out);
        if (d->kind == DEC_SWITCH && r == FLOW_BREAK)
            r = FLOW_ON; /* a break leaves the switch */
        if (r < 0)
            continue;
        return r == FLOW_ON ? flow_after(s, i + 1, out) : r;
    }
    return -1;
}

static int in_spans(const spans *sp, unsigned at)
{
    for (unsigned i = 0; i < sp->n; i++)
        if (at >= sp->v[i][0] && at < sp->v[i][1])
            return 1;
    return 0;
}

/* A load of r that a store of w may feed, or the null cursor. */
static CXCursor fed_load(const effects *w, const effects *r, CXCursor *store)
{
    for (unsigned i = 0; i < r->nloads; i++)
        for (unsigned j = 0; j < w->nstores; j++)
            if (accesses_may_alias(w->stores[j], r->loads[i])) {
                *store = w->stores[j];
                return r->loads[i];
            }
    return cursor_null();
}

/* The first load by a condition or the slice that the store item w may feed on a path;
 * *in_slice says whether a statement of the slice (not a condition) loads it. */
static CXCursor load_after(const tree_lists *t, const seq *top, const seq_item *w, CXCursor *store,
                           int *in_slice)
{
    spans sp = {NULL, 0, 0};
    reach_after(t->dp, top, w, &sp);
    CXCursor read = cursor_null();
    for (unsigned i = 0; i < t->nitems && cursor_is_null(read); i++) {
        const seq_item *it = t->items[i];
        if (t->in_slice[it->id] && (it->fx.bits & EFF_MEM_READ) &&
            in_spans(&sp, it->range.begin))
            read = fed_load(&w->fx, &it->fx, store);
    }
    *in_slice = !cursor_is_null(read);
    for (unsigned i = 0; i < t->ndecisions && cursor_is_null(read); i++) {
        const decision *d = t->decisions[i];
        if ((d->cond_fx.bits & EFF_MEM_READ) && in_spans(&sp, d->range.begin))
            read = fed_load(&w->fx, &d->cond_fx, store);
    }
    free(sp.v);
    return read;
}

/*
 * A condition (or its slice) must not load memory that a store before it,
 * on the same path, may have written: the classifier runs before any leaf.
 * A store on a path that returns first, and a store to another field of the
 * struct, do not count.
 */
int check_memory_order(const analysis *an, const tree_lists *t, const seq *top,
                              unsigned horizon, kernel_context *ctx, tile_hint *hint,
                              diag_sink *diag)
{
    for (unsigned i = 0; i < t->nitems; i++) {
        const seq_item *w = t->items[i];
        if (w->range.end > horizon || !(w->fx.bits & (EFF_MEM_WRITE | EFF_ATOMIC)))
            continue;
        CXCursor store = cursor_null();
        int in_slice = 0;
        CXCursor read = load_after(t, top, w, &store, &in_slice);
        if (cursor_is_null(read))
            continue;
        if (context_in_prologue(ctx, w)) { /* the classify phase runs it, then the read */
            ctx->relaxed++;
            continue;
        }
        diag_at(diag, an->pr, DIAG_ERROR, read, rule_name(RULE_MEMORY_ORDER), "%s",
                in_slice ? "a condition reads memory after the kernel wrote memory, through "
                           "this statement of its slice (the classifier runs it to compute "
                           "the condition)"
                         : "a condition reads memory after the kernel wrote memory");
        CXCursor via;
        CXCursor at = first_site(&w->fx, EFF_MEM_WRITE | EFF_ATOMIC, w->cursor, &via);
        if (cursor_is_null(via) && !cursor_is_null(store))
            at = store;
        diag_at(diag, an->pr, DIAG_NOTE, at, NULL, "%s",
                load_is_image_read(read) /* 'restrict' does not apply to images */
                    ? "this write runs before the condition; the classifier runs before any "
                      "leaf kernel and would read the old value (read a 'read_only' image and "
                      "write a 'write_only' one if they are different images)"
                    : "this write runs before the condition; the classifier runs before any "
                      "leaf kernel and would read the old value (declare the read pointer "
                      "'restrict' or '__constant' if it never aliases the written one)");
        note_via(an, diag, via);
        note_tile_allows(an, hint, w, diag);
        return 1;
    }
    return 0;
}

/* Even the outermost level of decisions alone has more paths than --max-leaves. */
void report_too_many_leaves(const analysis *an, const kernel_info *k, double all, double outer,
                                   unsigned max_leaves, diag_sink *diag)
{
    diag_loc loc = cursor_diag_loc(an, k->cursor);
    if (all > outer)
        diag_report(diag, DIAG_ERROR, &loc, rule_name(RULE_TOO_MANY_LEAVES),
                    "kernel '%s' has %.0f paths through its decisions (leaves), %.0f with only "
                    "its outermost decisions split; at most %u are allowed",
                    k->name, all, outer, max_leaves);
    else
        diag_report(diag, DIAG_ERROR, &loc, rule_name(RULE_TOO_MANY_LEAVES),
                    "kernel '%s' has %.0f paths through its outermost decisions (leaves); at "
                    "most %u are allowed",
                    k->name, all, max_leaves);
    diag_report(diag, DIAG_NOTE, &loc, NULL,
                "nplus1gen splits the outer levels of the condition tree that fit and leaves "
                "the inner ones in the leaf kernels, but one decision alone has more branches "
                "than that; %s",
                max_leaves < PLAN_MAX_LEAVES ? "raise --max-leaves (at most 64)"
                                             : "write it as a computed index or a table lookup");
}
