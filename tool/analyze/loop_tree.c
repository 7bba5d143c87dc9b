/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop_tree.c - part of the analyze stage: the trees of the loops at each
 * kernel's top level (kernel_info.loops), from which the plan's loop shape
 * of --strategy tile (loop.h) picks the loop and the decision to regroup at.
 * Each body is read with the kernel's own tree builder (cond_tree.c), and
 * the decisions at its top level are classified by the divergence analysis
 * here, so that the plan reads the analysis and never writes it.
 */
#include "analyze_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "divergence.h"
#include "util.h"

static void seq_writes(const seq *s, cursor_list *out);

static void fx_writes(const effects *fx, cursor_list *out)
{
    for (unsigned w = 0; w < fx->nwrites; w++)
        VEC_PUSH(out->v, out->n, out->cap, fx->writes[w]);
}

/* Every variable a sequence writes or declares, nested decisions included. */
static void seq_writes(const seq *s, cursor_list *out)
{
    for (unsigned i = 0; i < s->n; i++) {
        fx_writes(&s->items[i].fx, out);
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d)
            continue;
        fx_writes(&d->cond_fx, out);
        if (d->kind == DEC_SWITCH)
            seq_writes(&d->body, out);
        for (unsigned b = 0; b < d->nbranches; b++)
            seq_writes(&d->branches[b].seq, out);
    }
}

/* Is c declared inside r? */
static int declared_in(const analysis *an, CXCursor c, src_range r)
{
    src_range at;
    return cursor_range(an, c, &at) == 0 && at.file == r.file && at.begin >= r.begin &&
           at.end <= r.end;
}

/* The loop statement, its braced body and the body's tree. */
typedef struct loop_ctx {
    const analysis *an;
    src_range stmt, body;
    const seq *tree;
} loop_ctx;

/*
 * A decision the divergence analysis calls uniform or affine whose condition reads a
 * variable the loop carries (declared before it and written in its body) or one the
 * body declares, in a loop that carries one: the analysis sees the carried values
 * only as they were before the loop, so the items may disagree. Then d is data, and
 * its reason says so.
 */
static void carried_condition(const loop_ctx *lc, decision *d)
{
    cursor_list w = {0}, carried = {0};
    seq_writes(lc->tree, &w);
    for (unsigned i = 0; i < w.n; i++)
        if (!declared_in(lc->an, w.v[i], lc->stmt) && !cursor_set_has(&carried, w.v[i]))
            VEC_PUSH(carried.v, carried.n, carried.cap, w.v[i]);
    int found = 0;
    for (unsigned r = 0; carried.n && r < d->cond_fx.nreads && !found; r++) {
        CXCursor v = d->cond_fx.reads[r];
        found = cursor_set_has(&carried, v) || (cursor_set_has(&w, v) && declared_in(lc->an, v, lc->body));
        if (found) {
            strbuf names;
            sb_init(&names);
            for (unsigned c = 0; c < carried.n && c < 3; c++) {
                char *cn = cursor_spelling(carried.v[c]);
                sb_printf(&names, "%s'%s'", c ? ", " : "", cn);
                free(cn);
            }
            char *name = cursor_spelling(v);
            snprintf(d->divergence_why, sizeof d->divergence_why, "reads '%s'; the loop carries "
                     "%s%s from one iteration to the next, which the analysis sees only as "
                     "before the loop", name, names.data, carried.n > 3 ? ", ..." : "");
            free(name);
            sb_free(&names);
            d->divergence = DIV_DATA;
        }
    }
    free(w.v);
    free(carried.v);
}

/* Classifies the decisions at the top level of the body (not those nested in them). */
static void classify_body(analysis *an, kernel_info *k, const loop_ctx *lc)
{
    for (unsigned i = 0; i < lc->tree->n; i++) {
        decision *d = lc->tree->items[i].kind == ITEM_DECISION ? lc->tree->items[i].decision
                                                               : NULL;
        if (!d)
            continue;
        divergence_classify_one(an, k, d);
        if (d->divergence != DIV_DATA)
            carried_condition(lc, d);
    }
}

/* The tree of the loop statement it (an item of k->top) with a braced body, into lt. */
static void build_loop_tree(analysis *an, kernel_info *k, const seq_item *it, CXCursor body,
                            loop_tree *lt)
{
    loop_ctx lc = {an, it->range, {0}, &lt->body};
    if (cursor_range(an, body, &lc.body) != 0)
        return;
    diag_sink quiet; /* the kernel's own tree reported what the loop holds */
    diag_init(&quiet);
    quiet.quiet = 1;
    build_ctx bc = {an, k, &quiet, 0, 0, 0};
    unsigned cap = 0;
    analyze_build_seq_from(&bc, body, &lt->body, &cap);
    lt->ok = !bc.errors && !bc.macro_decisions;
    if (lt->ok)
        classify_body(an, k, &lc);
}

/* The trees of the loop statements with a braced body among s's items. */
static void loops_of_seq(analysis *an, kernel_info *k, const seq *s, int top)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        CXCursor body = it->kind == ITEM_STMT ? loop_body_of(it->cursor) : clang_getNullCursor();
        if (clang_Cursor_isNull(body) || clang_getCursorKind(body) != CXCursor_CompoundStmt)
            continue;
        loop_tree lt;
        memset(&lt, 0, sizeof lt);
        lt.item = top ? i : UINT_MAX;
        lt.stmt = it->cursor;
        build_loop_tree(an, k, it, body, &lt);
        VEC_PUSH(k->loops, k->nloops, k->caploops, lt);
    }
}

void analyze_loop_trees(analysis *an, kernel_info *k)
{
    loops_of_seq(an, k, &k->top, 1);
    for (unsigned i = 0; i < k->top.n; i++) { /* a loop inside a top-level leaf (loop.c) */
        const decision *d = k->top.items[i].kind == ITEM_DECISION ? k->top.items[i].decision
                                                                  : NULL;
        for (unsigned b = 0; d && d->kind == DEC_IF && b < d->nbranches; b++)
            loops_of_seq(an, k, &d->branches[b].seq, 0);
    }
}

const loop_tree *kernel_loop_tree(const kernel_info *k, unsigned item)
{
    for (unsigned i = 0; i < k->nloops; i++)
        if (k->loops[i].item == item)
            return &k->loops[i];
    return NULL;
}

const loop_tree *kernel_loop_tree_at(const kernel_info *k, CXCursor stmt)
{
    for (unsigned i = 0; i < k->nloops; i++)
        if (clang_equalCursors(k->loops[i].stmt, stmt))
            return &k->loops[i];
    return NULL;
}

void analyze_loop_trees_free(kernel_info *k)
{
    for (unsigned i = 0; i < k->nloops; i++)
        analyze_seq_free(&k->loops[i].body);
    free(k->loops);
    k->loops = NULL;
    k->nloops = k->caploops = 0;
}
