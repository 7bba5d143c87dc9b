/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_live.c - liveness of the kernel's own variables over the IR, and
 * whether a decision's arm leaves its loop (ir_live.h).
 */
#include "ir_live.h"

#include <stdlib.h>
#include <string.h>

#include "syntax.h"
#include "util.h"

typedef struct live_walk {
    const analysis *an;
    const kernel_info *k;
    const ir_kernel *ir;
    unsigned words;
    unsigned *gen, *kill;        /* per node: a statement's, or a decision's condition's */
    unsigned *init_gen, *init_kill, *step_gen, *step_kill; /* per node: a for's parts */
    unsigned *brk;               /* per loop or switch: live after it (its break) */
    unsigned *cont;              /* per loop: live at its continue */
    unsigned *at;                /* the result (ir_live.at) */
} live_walk;

#define SET(w, base, id) ((base) + (size_t)(id) * (w)->words)

static void set_bit(unsigned *s, unsigned i)
{
    s[i / 32] |= 1u << (i % 32);
}

static int has_bit(const unsigned *s, unsigned i)
{
    return (s[i / 32] >> (i % 32)) & 1u;
}

/* The kernel's own variable (frame 0, not a parameter) declared by decl, or -1. */
static int own_var(const ir_kernel *ir, CXCursor decl)
{
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if (v->frame == 0 && !(v->flags & (IR_VAR_PARAM | IR_VAR_RETURN)) &&
            !clang_Cursor_isNull(v->decl) && clang_equalCursors(v->decl, decl))
            return (int)i;
    }
    return -1;
}

static void add_reads(const ir_kernel *ir, const effects *fx, unsigned *s)
{
    for (unsigned i = 0; i < fx->nreads; i++) {
        int v = own_var(ir, fx->reads[i]);
        if (v >= 0)
            set_bit(s, (unsigned)v);
    }
}

static void kill_decl_vars(const ir_kernel *ir, CXCursor decl_stmt, unsigned *s)
{
    cursor_list ch = children_of(decl_stmt);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_VarDecl) {
            int v = own_var(ir, ch.v[i]);
            if (v >= 0)
                set_bit(s, (unsigned)v);
        }
    free(ch.v);
}

/* What statement or expression c defines whole: a declaration's variables, or x in
 * `x = e` (x named on the left, casts and parentheses aside). */
static void kills_of(const live_walk *w, CXCursor c, unsigned *s)
{
    if (clang_Cursor_isNull(c))
        return;
    c = strip(c);
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_DeclStmt) {
        kill_decl_vars(w->ir, c, s);
        return;
    }
    if (kind != CXCursor_BinaryOperator)
        return;
    cursor_list ch = children_of(c);
    if (ch.n == 2) {
        char op[8] = "";
        binary_operator(w->an, c, ch.v[0], ch.v[1], op, sizeof op);
        CXCursor lhs = strip_casts(ch.v[0]);
        if (!strcmp(op, "=") && clang_getCursorKind(lhs) == CXCursor_DeclRefExpr) {
            int v = own_var(w->ir, clang_getCursorReferenced(lhs));
            if (v >= 0)
                set_bit(s, (unsigned)v);
        }
    }
    free(ch.v);
}

static void part_sets(const live_walk *w, CXCursor c, unsigned *gen, unsigned *kill)
{
    if (clang_Cursor_isNull(c))
        return;
    effects fx;
    effects_of(w->an, w->k->cursor, c, &fx);
    add_reads(w->ir, &fx, gen);
    effects_free(&fx);
    kills_of(w, c, kill);
}

/* Each node's gen and kill sets, once. */
static void prepare(live_walk *w)
{
    const ir_kernel *ir = w->ir;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        if (n->frame != 0)
            continue;
        unsigned *gen = SET(w, w->gen, i), *kill = SET(w, w->kill, i);
        switch (n->kind) {
        case IR_STMT:
        case IR_RETURN:
            add_reads(ir, &n->fx, gen);
            if (n->kind == IR_STMT)
                kills_of(w, n->cursor, kill);
            break;
        case IR_IF:
        case IR_SWITCH:
            add_reads(ir, &n->cond.fx, gen);
            break;
        case IR_LOOP:
            add_reads(ir, &n->cond.fx, gen);
            part_sets(w, n->init, SET(w, w->init_gen, i), SET(w, w->init_kill, i));
            part_sets(w, n->step, SET(w, w->step_gen, i), SET(w, w->step_kill, i));
            break;
        case IR_CALL: /* never a kid of the kernel's text: a statement's calls are its own */
            add_reads(ir, &n->fx, gen);
            break;
        default:
            break;
        }
    }
}

static void set_copy(const live_walk *w, unsigned *to, const unsigned *from)
{
    memcpy(to, from, w->words * sizeof *to);
}

static void set_or(const live_walk *w, unsigned *to, const unsigned *from)
{
    for (unsigned i = 0; i < w->words; i++)
        to[i] |= from[i];
}

/* to = (out - kill) | gen */
static void transfer(const live_walk *w, unsigned *to, const unsigned *out, const unsigned *gen,
                     const unsigned *kill)
{
    for (unsigned i = 0; i < w->words; i++)
        to[i] = (out[i] & ~kill[i]) | gen[i];
}

static unsigned *new_set(const live_walk *w)
{
    return xcalloc(w->words ? w->words : 1, sizeof(unsigned));
}

static void live_before(live_walk *w, const ir_node *n, const unsigned *out, unsigned *in);

/* A switch body's kids from..end, backwards: suffix[j] is what is live before kid j. */
static void block_suffixes(live_walk *w, const ir_node *b, const unsigned *out, unsigned *suffix)
{
    set_copy(w, SET(w, suffix, b->nkids), out);
    for (unsigned j = b->nkids; j-- > 0;)
        live_before(w, b->kids[j], SET(w, suffix, j + 1), SET(w, suffix, j));
}

static void live_switch(live_walk *w, const ir_node *n, const unsigned *out, unsigned *in)
{
    set_copy(w, SET(w, w->brk, n->id), out);
    unsigned *at = SET(w, w->at, n->id);
    memset(at, 0, w->words * sizeof *at);
    const ir_node *body = n->kids[0];
    if (body->kind != IR_BLOCK) {
        live_before(w, body, out, at);
        set_or(w, at, out);
    } else {
        unsigned *suffix = xcalloc(((size_t)body->nkids + 1) * w->words + 1, sizeof *suffix);
        block_suffixes(w, body, out, suffix);
        int has_default = 0;
        for (unsigned a = 0; a < n->narms; a++) {
            has_default |= n->arms[a].is_default && !n->arms[a].implicit;
            if (n->arms[a].implicit)
                set_or(w, at, out);
            else
                set_or(w, at, SET(w, suffix, n->arms[a].first < body->nkids ? n->arms[a].first
                                                                            : body->nkids));
        }
        if (!has_default)
            set_or(w, at, out);
        free(suffix);
    }
    for (unsigned i = 0; i < w->words; i++)
        in[i] = at[i] | SET(w, w->gen, n->id)[i];
}

static void live_loop(live_walk *w, const ir_node *n, const unsigned *out, unsigned *in)
{
    set_copy(w, SET(w, w->brk, n->id), out);
    const unsigned id = n->id;
    unsigned *head = new_set(w), *body_in = new_set(w), *next = new_set(w);
    const int has_cond = !clang_Cursor_isNull(n->cond.cursor);
    for (unsigned round = 0;; round++) {
        unsigned *cont = SET(w, w->cont, id);
        if (n->loop == IR_DO) { /* continue: the condition, then the body again or out */
            for (unsigned i = 0; i < w->words; i++)
                cont[i] = SET(w, w->gen, id)[i] | head[i] | out[i];
        } else if (n->loop == IR_FOR) {
            transfer(w, cont, head, SET(w, w->step_gen, id), SET(w, w->step_kill, id));
        } else {
            set_copy(w, cont, head);
        }
        if (n->nkids)
            live_before(w, n->kids[0], cont, body_in);
        else
            set_copy(w, body_in, cont);
        if (n->loop == IR_DO) {
            set_copy(w, next, body_in);
        } else {
            set_copy(w, next, body_in);
            if (has_cond) {
                set_or(w, next, out);
                set_or(w, next, SET(w, w->gen, id));
            }
        }
        if (!memcmp(next, head, w->words * sizeof *head) || round > w->words * 32 + 2)
            break;
        set_copy(w, head, next);
    }
    if (n->loop == IR_FOR)
        transfer(w, in, head, SET(w, w->init_gen, id), SET(w, w->init_kill, id));
    else
        set_copy(w, in, head);
    free(head);
    free(body_in);
    free(next);
}

static void live_before(live_walk *w, const ir_node *n, const unsigned *out, unsigned *in)
{
    switch (n->kind) {
    case IR_STMT:
    case IR_CALL:
        transfer(w, in, out, SET(w, w->gen, n->id), SET(w, w->kill, n->id));
        break;
    case IR_BLOCK: {
        unsigned *cur = new_set(w), *tmp = new_set(w);
        set_copy(w, cur, out);
        for (unsigned j = n->nkids; j-- > 0;) {
            live_before(w, n->kids[j], cur, tmp);
            set_copy(w, cur, tmp);
        }
        set_copy(w, in, cur);
        free(cur);
        free(tmp);
        break;
    }
    case IR_IF: {
        unsigned *at = SET(w, w->at, n->id), *e = new_set(w);
        live_before(w, n->kids[0], out, at);
        if (n->nkids > 1)
            live_before(w, n->kids[1], out, e);
        else
            set_copy(w, e, out);
        set_or(w, at, e);
        free(e);
        for (unsigned i = 0; i < w->words; i++)
            in[i] = at[i] | SET(w, w->gen, n->id)[i];
        return; /* at holds the arms' union, not the node's entry */
    }
    case IR_SWITCH:
        live_switch(w, n, out, in);
        return;
    case IR_LOOP:
        live_loop(w, n, out, in);
        break;
    case IR_BREAK:
        if (n->target)
            set_copy(w, in, SET(w, w->brk, n->target->id));
        else
            set_copy(w, in, out);
        break;
    case IR_CONTINUE:
        if (n->target)
            set_copy(w, in, SET(w, w->cont, n->target->id));
        else
            set_copy(w, in, out);
        break;
    case IR_RETURN: /* the item ends: only what the returned expression reads */
        set_copy(w, in, SET(w, w->gen, n->id));
        break;
    }
    set_copy(w, SET(w, w->at, n->id), in);
}

void ir_live_build(const analysis *an, const kernel_info *k, ir_live *lv)
{
    memset(lv, 0, sizeof *lv);
    const ir_kernel *ir = k->ir;
    if (!ir || !ir->root)
        return;
    live_walk w;
    memset(&w, 0, sizeof w);
    w.an = an;
    w.k = k;
    w.ir = ir;
    w.words = (ir->nvars + 31) / 32;
    if (!w.words)
        w.words = 1;
    size_t cells = (size_t)ir->nnodes * w.words + 1;
    unsigned **sets[] = {&w.gen, &w.kill, &w.init_gen, &w.init_kill, &w.step_gen, &w.step_kill,
                         &w.brk, &w.cont, &w.at};
    for (unsigned i = 0; i < sizeof sets / sizeof sets[0]; i++)
        *sets[i] = xcalloc(cells, sizeof(unsigned));
    prepare(&w);
    unsigned *end = new_set(&w), *in = new_set(&w);
    live_before(&w, ir->root, end, in);
    free(end);
    free(in);
    lv->nnodes = ir->nnodes;
    lv->nvars = ir->nvars;
    lv->words = w.words;
    lv->at = w.at;
    lv->pinned = xcalloc(ir->nvars ? ir->nvars : 1, 1);
    for (unsigned i = 0; i < ir->nvars; i++)
        lv->pinned[i] = (ir->vars[i].flags & IR_VAR_ADDR_TAKEN) != 0;
    for (unsigned i = 0; i < sizeof sets / sizeof sets[0] - 1; i++)
        free(*sets[i]);
}

int ir_live_at(const ir_live *lv, unsigned node, unsigned var)
{
    if (!lv->at || node >= lv->nnodes || var >= lv->nvars)
        return 1; /* unknown: live */
    return lv->pinned[var] || has_bit(lv->at + (size_t)node * lv->words, var);
}

void ir_live_free(ir_live *lv)
{
    free(lv->at);
    free(lv->pinned);
    memset(lv, 0, sizeof *lv);
}

/* ---- does an arm leave its loop ------------------------------------------------------ */


/* The kids of decision d that make up arm `arm` (an if's kid, a switch body's run of kids
 * from the arm's first to its first break, return or continue): [*from, *to). */
static const ir_node *arm_span(const ir_node *d, unsigned arm, unsigned *from, unsigned *to)
{
    if (d->kind == IR_IF) {
        *from = 0;
        *to = arm < d->nkids ? 1 : 0;
        return arm < d->nkids ? d->kids[arm] : NULL;
    }
    const ir_node *body = d->nkids ? d->kids[0] : NULL;
    if (!body || arm >= d->narms || d->arms[arm].implicit || body->kind != IR_BLOCK) {
        *from = *to = 0;
        return NULL;
    }
    *from = d->arms[arm].first;
    unsigned j = *from;
    while (j < body->nkids && body->kids[j]->kind != IR_BREAK &&
           body->kids[j]->kind != IR_RETURN && body->kids[j]->kind != IR_CONTINUE)
        j++;
    *to = j < body->nkids ? j + 1 : j;
    return body;
}

static int in_arm(const ir_node *d, unsigned arm, const ir_node *n)
{
    unsigned from, to;
    const ir_node *s = arm_span(d, arm, &from, &to);
    if (!s)
        return 0;
    if (d->kind == IR_IF)
        return ir_holds(s, n);
    for (unsigned j = from; j < to; j++)
        if (ir_holds(s->kids[j], n))
            return 1;
    return 0;
}

static int writes_var(const ir_kernel *ir, const effects *fx, unsigned var)
{
    for (unsigned i = 0; i < fx->nwrites; i++)
        if (own_var(ir, fx->writes[i]) == (int)var)
            return 1;
    return 0;
}

/* Whether something under n other than arm `arm` of d writes var. */
static int written_elsewhere(const ir_kernel *ir, const ir_node *n, const ir_node *d, unsigned arm,
                             unsigned var)
{
    if (in_arm(d, arm, n))
        return 0;
    if (!ir_holds(n, d) && !(d->kind == IR_SWITCH && d->nkids && n == d->kids[0]))
        return writes_var(ir, &n->fx, var);
    if ((n->kind == IR_IF || n->kind == IR_SWITCH || n->kind == IR_LOOP) &&
        writes_var(ir, &n->cond.fx, var))
        return 1;
    for (unsigned i = 0; i < n->nkids; i++)
        if (written_elsewhere(ir, n->kids[i], d, arm, var))
            return 1;
    return 0;
}

int ir_arm_leaves_loop(const analysis *an, const kernel_info *k, const ir_node *d, unsigned arm,
                       const ir_node *loop)
{
    const ir_kernel *ir = k->ir;
    if (!loop || !ir_holds(loop, d))
        return 0;
    for (unsigned i = d->id + 1; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        if (!ir_holds(d, n))
            break; /* pre-order: d's subtree is contiguous */
        if (!in_arm(d, arm, n))
            continue;
        if (n->kind == IR_BREAK && n->target == loop)
            return 1;
        /* a return of the loop's own function: the kernel's (the item ends), or, for a
         * loop of an inlined helper, the helper's */
        if (n->kind == IR_RETURN && n->frame == loop->frame && (loop->frame || !n->in_helper))
            return 1;
    }
    /* a flag the loop's condition reads, set by this arm alone */
    if (clang_Cursor_isNull(loop->cond.cursor) || !loop->nkids)
        return 0;
    effects step;
    effects_init(&step);
    if (!clang_Cursor_isNull(loop->step))
        effects_of(an, k->cursor, loop->step, &step);
    int leaves = 0;
    for (unsigned r = 0; r < loop->cond.fx.nreads && !leaves; r++) {
        int v = own_var(ir, loop->cond.fx.reads[r]);
        if (v < 0 || (ir->vars[v].flags & IR_VAR_ADDR_TAKEN))
            continue;
        const ir_node *s = NULL;
        unsigned from, to;
        if (d->kind == IR_IF) {
            s = arm < d->nkids ? d->kids[arm] : NULL;
            if (!s || !writes_var(ir, &s->fx, (unsigned)v))
                continue;
        } else {
            const ir_node *body = arm_span(d, arm, &from, &to);
            int w = 0;
            for (unsigned j = from; body && j < to; j++)
                w |= writes_var(ir, &body->kids[j]->fx, (unsigned)v);
            if (!w)
                continue;
        }
        leaves = !writes_var(ir, &step, (unsigned)v) &&
                 !written_elsewhere(ir, loop->kids[0], d, arm, (unsigned)v);
    }
    effects_free(&step);
    return leaves;
}
