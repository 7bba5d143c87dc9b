/*
 * loop.c - the loop shape of --strategy tile (loop.h).
 *
 * The loop's body is read with the analyze stage's own tree builder
 * (build_seq_from) and its decision classified by the divergence analysis;
 * the context is the prologue's variables the loop or the epilogue use and
 * the head's variables (the body before the decision) the rest of the
 * iteration uses, found as context.c finds the top-level context.
 */
#include "loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "divergence.h"
#include "util.h"

/* Bytes of local memory the contexts of one work-group may take: 24 KiB of the 32 KiB
 * every OpenCL device has, the rest left to the tile's counters. */
#define LOOP_LOCAL_BUDGET 24576u

static int is_loop(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_WhileStmt || k == CXCursor_ForStmt || k == CXCursor_DoStmt;
}

/* Is there an if or a switch in c? */
static int holds_decision(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IfStmt || k == CXCursor_SwitchStmt)
        return 1;
    cursor_list ch = children_of(c);
    int found = 0;
    for (unsigned i = 0; i < ch.n && !found; i++)
        found = holds_decision(ch.v[i]);
    free(ch.v);
    return found;
}

static CXCursor loop_jump(CXCursor c, int in_switch);

/* A break or continue in loop's body that leaves or restarts it, or a null cursor. */
static CXCursor loop_body_jump(CXCursor loop)
{
    cursor_list ch = children_of(loop);
    CXCursor found = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n && clang_Cursor_isNull(found); i++)
        found = loop_jump(ch.v[i], 0);
    free(ch.v);
    return found;
}

/* A break or continue in c that leaves or restarts the loop c sits in, or a null cursor. */
static CXCursor loop_jump(CXCursor c, int in_switch)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_BreakStmt && !in_switch) || k == CXCursor_ContinueStmt)
        return c;
    if (is_loop(c))
        return clang_getNullCursor();
    in_switch |= k == CXCursor_SwitchStmt;
    cursor_list ch = children_of(c);
    CXCursor found = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n && clang_Cursor_isNull(found); i++)
        found = loop_jump(ch.v[i], in_switch);
    free(ch.v);
    return found;
}

/* An early-return guard: one branch returns, doing nothing observable first. */
static int is_guard(const decision *d)
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

/* The top-level loop holding a decision: 0 and its index, or 1 (lp->why may say why not). */
static int find_loop(const kernel_info *k, loop_plan *lp)
{
    int found = 0;
    for (unsigned i = 0; i < k->top.n; i++) {
        const seq_item *it = &k->top.items[i];
        if (it->kind == ITEM_DECISION && it->decision && !is_guard(it->decision)) {
            if (found) /* else no loop comes first: nothing to say */
                snprintf(lp->why, sizeof lp->why, "the kernel has a decision at its top level "
                         "(line %u), which the tile kernel splits; this version regroups a loop "
                         "only in a kernel without one", it->range.line);
            return 1;
        }
        if (it->kind != ITEM_STMT || !is_loop(it->cursor) || !holds_decision(it->cursor))
            continue;
        if (found) {
            snprintf(lp->why, sizeof lp->why,
                     "a second loop with a decision at line %u: one loop a kernel is "
                     "regrouped in this version", it->range.line);
            return 1;
        }
        found = 1;
        lp->item = i;
        lp->line = it->range.line;
        lp->stmt = it->range;
    }
    return !found;
}

static void loop_note(analysis *an, CXCursor at, diag_sink *diag, const char *why)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(at));
    diag_report(diag, DIAG_NOTE, &loc, NULL, "the loop is not regrouped: %s", why);
}

/* The loop's test and body; 0, or 1 with lp->why. */
static int loop_parts(analysis *an, kernel_info *k, loop_plan *lp)
{
    CXCursor c = k->top.items[lp->item].cursor;
    if (clang_getCursorKind(c) != CXCursor_WhileStmt) {
        snprintf(lp->why, sizeof lp->why, "the loop at line %u is a %s loop: this version "
                 "regroups `while` loops only", lp->line,
                 clang_getCursorKind(c) == CXCursor_ForStmt ? "`for`" : "`do`");
        return 1;
    }
    cursor_list ch = children_of(c);
    int bad = ch.n != 2 || clang_getCursorKind(ch.v[1]) != CXCursor_CompoundStmt ||
              cursor_range(an, ch.v[0], &lp->cond) != 0 ||
              cursor_range(an, ch.v[1], &lp->body) != 0;
    if (!bad) {
        diag_sink quiet;
        diag_init(&quiet);
        quiet.quiet = 1;
        build_ctx bc = {an, k, &quiet, 0, 0, 0};
        unsigned cap = 0;
        build_seq_from(&bc, ch.v[1], &lp->bodyseq, &cap);
        bad = bc.errors || bc.macro_decisions;
    }
    free(ch.v);
    if (bad)
        snprintf(lp->why, sizeof lp->why, "the loop at line %u has a test or a body this "
                 "version cannot take apart (a declaration as its test, a body without "
                 "braces, or a decision a macro writes)", lp->line);
    return bad;
}

/* The body's one decision, and nothing else that decides; 0, or 1 with lp->why. */
static int body_decision(loop_plan *lp)
{
    const seq *s = &lp->bodyseq;
    unsigned n = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (s->items[i].kind == ITEM_DECISION) {
            lp->at = i;
            n++;
        } else if (s->items[i].kind == ITEM_STMT && holds_decision(s->items[i].cursor)) {
            n += 2; /* a decision inside a statement of the body: not the one split */
        }
    }
    if (n == 1 && s->items[lp->at].decision) {
        lp->d = s->items[lp->at].decision;
        return 0;
    }
    snprintf(lp->why, sizeof lp->why, "the body of the loop at line %u holds %s: this version "
             "regroups a body with one if/else or switch at its top level", lp->line,
             n ? "several decisions" : "no decision at its top level");
    return 1;
}

/* A kernel parameter assigned anywhere: each phase would see the value it was called with. */
static int assigns_param(const kernel_info *k, loop_plan *lp)
{
    for (unsigned i = 0; i < k->top.n; i++) {
        const effects *fx = &k->top.items[i].fx;
        for (unsigned w = 0; w < fx->nwrites; w++) {
            if (clang_getCursorKind(fx->writes[w]) != CXCursor_ParmDecl)
                continue;
            char *name = cursor_spelling(fx->writes[w]);
            snprintf(lp->why, sizeof lp->why, "the kernel assigns its parameter '%s': the "
                     "loop's phases would each start from the value it was called with", name);
            free(name);
            return 1;
        }
    }
    return 0;
}

static char *selector_type(const decision *d)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(d->cond_cursor));
    CXString s = clang_getTypeSpelling(t);
    const char *p = clang_getCString(s);
    while (!strncmp(p, "const ", 6) || !strncmp(p, "volatile ", 9))
        p += p[0] == 'c' ? 6 : 9;
    char *r = xstrdup(p);
    clang_disposeString(s);
    return r;
}

/* The switch's body, braces included; 0 or 1. */
static int switch_body(analysis *an, loop_plan *lp)
{
    cursor_list ch = children_of(lp->d->cursor);
    int bad = ch.n < 2 || clang_getCursorKind(ch.v[ch.n - 1]) != CXCursor_CompoundStmt ||
              cursor_range(an, ch.v[ch.n - 1], &lp->switch_body) != 0;
    free(ch.v);
    if (bad)
        snprintf(lp->why, sizeof lp->why, "the switch at line %u has no braced body",
                 lp->d->range.line);
    return bad;
}

/* The context: the prologue's and the head's variables; 0, or 1 with ctx.why. */
static int loop_context(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp,
                        diag_sink *diag)
{
    kernel_context *cx = &lp->ctx;
    cx->wg = wg;
    cx->loop_line = lp->line;
    cx->at = lp->item;
    cx->at_line = lp->line;
    cx->point = lp->stmt.begin;
    int bad = 0;
    for (unsigned i = 0; i < lp->item && !bad; i++)
        if (k->top.items[i].kind == ITEM_STMT)
            bad = context_add_loop_vars(an, k, cx, k->top.items[i].cursor, &k->top, lp->item,
                                        NULL, diag);
    lp->nprologue = cx->nvars;
    for (unsigned i = 0; i < lp->at && !bad; i++)
        if (lp->bodyseq.items[i].kind == ITEM_STMT)
            bad = context_add_loop_vars(an, k, cx, lp->bodyseq.items[i].cursor, &lp->bodyseq,
                                        lp->at, NULL, diag);
    return bad;
}

static int decide(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp, diag_sink *diag)
{
    if (loop_parts(an, k, lp) || body_decision(lp))
        return 1;
    decision *d = lp->bodyseq.items[lp->at].decision;
    divergence_classify_one(an, k, d);
    if (d->divergence != DIV_DATA) {
        snprintf(lp->why, sizeof lp->why, "the decision at line %u is %s (%s): its items agree, "
                 "so regrouping cannot pay", d->range.line, div_class_name(d->divergence),
                 d->divergence_why);
        return 1;
    }
    CXCursor jump = loop_body_jump(k->top.items[lp->item].cursor);
    if (!clang_Cursor_isNull(jump)) {
        src_range r;
        cursor_range(an, jump, &r);
        snprintf(lp->why, sizeof lp->why, "the `%s` at line %u leaves or restarts the loop: "
                 "this version regroups loops without break or continue",
                 clang_getCursorKind(jump) == CXCursor_BreakStmt ? "break" : "continue", r.line);
        loop_note(an, jump, diag, lp->why);
        return 1;
    }
    if (d->cond_fx.nwrites || (d->cond_fx.bits & (EFF_OBSERVABLE | EFF_MEM_WRITE))) {
        snprintf(lp->why, sizeof lp->why, "the condition at line %u writes: it must run once "
                 "per iteration, before the regrouping", d->range.line);
        return 1;
    }
    if (assigns_param(k, lp))
        return 1;
    lp->ngroups = d->nbranches;
    if (d->kind == DEC_SWITCH && (switch_body(an, lp) != 0))
        return 1;
    if (loop_context(an, k, wg, lp, diag)) {
        snprintf(lp->why, sizeof lp->why, "%s", lp->ctx.why);
        return 1;
    }
    lp->bytes = lp->ctx.bytes + 8;
    if (d->kind == DEC_SWITCH) {
        lp->sel_type = selector_type(d);
        lp->bytes += (unsigned)clang_Type_getSizeOf(clang_getCursorType(d->cond_cursor));
    }
    lp->bytes = (lp->bytes + 15) / 16 * 16; /* the struct's padding, at most */
    if ((unsigned long)lp->bytes * wg > LOOP_LOCAL_BUDGET) {
        snprintf(lp->why, sizeof lp->why, "its context takes %u bytes an item, %lu bytes of "
                 "local memory a work-group of %u: over the %u-byte budget", lp->bytes,
                 (unsigned long)lp->bytes * wg, wg, LOOP_LOCAL_BUDGET);
        loop_note(an, k->top.items[lp->item].cursor, diag, lp->why);
        return 1;
    }
    return 0;
}

void loop_build(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp, diag_sink *diag)
{
    memset(lp, 0, sizeof *lp);
    if (find_loop(k, lp))
        return;
    lp->active = !decide(an, k, wg, lp, diag);
}

void loop_free(loop_plan *lp)
{
    analyze_seq_free(&lp->bodyseq);
    context_free(&lp->ctx);
    free(lp->sel_type);
    memset(lp, 0, sizeof *lp);
}
