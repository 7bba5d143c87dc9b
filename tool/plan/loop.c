/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop.c - the loop shape of --strategy tile (loop.h).
 *
 * The loop's body is the analysis's tree of it (loop_tree.c), its decisions
 * classified there by the divergence analysis; the context is the prologue's
 * variables the loop or the epilogue use and the head's variables (the body
 * before the decision) the rest of the iteration uses, found as context.c
 * finds the top-level context.
 */
#include "loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag_at.h"
#include "plan_facts.h"
#include "syntax.h"
#include "tree.h"
#include "util.h"

/* Bytes of local memory the contexts of one work-group may take: 24 KiB of the 32 KiB
 * every OpenCL device has, the rest left to the tile's counters. A context over it stays
 * in its lane (lp->in_place): the policies that move contexts (1, 2) are built as 0. */
#define LOOP_LOCAL_BUDGET 24576u

/* Which decision the loop regroups at, and whether it regroups at all, is the cost
 * rule's (regroup_rule.h): the state machine chooses its regroup points on the IR (each
 * arm weighed by how often the lanes wait for it, against a round that moves the context
 * by liveness), and the loop kernel regroups at its decision only where that decision is
 * one of them. Where none is, the loop kernel refills (policy 0) where refilling pays, or
 * runs the kernel's own body in place (-1). Measured on an H200 (docs/performance.md):
 * the loop kernel's own older rule (the costliest group times the others against its
 * round) regrouped a ray marcher at its cheap guard (0.40x, 1.02x off). */

/* The loop's jumps into lp->jumps; 0, or 1 with lp->why (one a macro writes). */
static void loop_note(const analysis *an, CXCursor at, diag_sink *diag, const char *why);

static int loop_jumps(const analysis *an, CXCursor loop, loop_plan *lp, diag_sink *diag)
{
    cursor_list all = {0};
    loop_jumps_of(loop, &all);
    int bad = 0;
    lp->jumps = all.n ? xcalloc(all.n, sizeof *lp->jumps) : NULL;
    for (unsigned i = 0; i < all.n && !bad; i++) {
        loop_jump *j = &lp->jumps[lp->njumps++];
        j->is_break = is_break_stmt(all.v[i]);
        const char *word = j->is_break ? "break" : "continue";
        size_t n = 0;
        const char *t = cursor_range(an, all.v[i], &j->at) == 0 ? range_text(an, j->at, &n) : NULL;
        bad = !t || n != strlen(word) || strncmp(t, word, n) != 0;
        if (bad) {
            snprintf(lp->why, sizeof lp->why, "a `%s` of the loop at line %u comes from a macro: "
                     "its text cannot be rewritten", word, lp->line);
            loop_note(an, all.v[i], diag, lp->why);
        }
    }
    free(all.v);
    return bad;
}

static double seq_cost(const seq *s);

/* The index of s's one top-level loop with a decision, or -1 (none, or two). */
static int branch_top_loop(const seq *s)
{
    int at = -1;
    for (unsigned i = 0; i < s->n; i++)
        if (s->items[i].kind == ITEM_STMT && is_decision_loop(s->items[i].cursor)) {
            if (at >= 0)
                return -1;
            at = (int)i;
        }
    return at;
}

/*
 * The top-level decision d (k->top's item `at`) holds a loop with a decision: the
 * loop at the top level of one of its branches, the costliest such branch when
 * several have one (lp->outer...); 0, or 1 with lp->line and lp->why.
 */
static int branch_loop(const decision *d, unsigned at, loop_plan *lp)
{
    CXCursor any = decision_loop_in(d->cursor);
    lp->line = cursor_spelling_line(any);
    if (d->kind == DEC_SWITCH) {
        lp->shape = 1;
        snprintf(lp->why, sizeof lp->why, "the loop sits in a case of the switch at line %u, "
                 "which the tile kernel splits; the loop kernel regroups a loop in a branch of a "
                 "top-level if, never in a case of a switch (the loop runs in its leaf, as "
                 "written)", d->range.line);
        return 1;
    }
    int best = -1;
    for (unsigned b = 0; b < d->nbranches; b++) {
        const seq *s = &d->branches[b].seq;
        int has = 0;
        for (unsigned i = 0; i < s->n && !has; i++) {
            const decision *in = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
            has = !cursor_is_null(decision_loop_in(in ? in->cursor : s->items[i].cursor));
        }
        lp->outer_loops += has;
        int j = has ? branch_top_loop(s) : -1;
        if (j < 0)
            continue;
        double c = seq_cost(s);
        if (best < 0 || c > lp->outer_cost[0]) {
            lp->outer_cost[1] = best < 0 ? lp->outer_cost[1] : lp->outer_cost[0];
            lp->outer_cost[0] = c;
            best = (int)b;
            lp->item = (unsigned)j;
        } else if (c > lp->outer_cost[1]) {
            lp->outer_cost[1] = c;
        }
    }
    if (best < 0) {
        lp->shape = 1;
        snprintf(lp->why, sizeof lp->why, "the loop sits below the top level of a branch of "
                 "the if at line %u, which the tile kernel splits; the loop kernel regroups a "
                 "loop at the top level of the kernel or of such a branch only (the loop runs "
                 "in its leaf, as written)", d->range.line);
        return 1;
    }
    lp->outer = d;
    lp->outer_item = at;
    lp->outer_branch = (unsigned)best;
    const seq_item *it = &d->branches[best].seq.items[lp->item];
    lp->line = it->range.line;
    lp->stmt = it->range;
    return 0;
}

/*
 * The one loop with a decision: at the top level, after statements and decisions that
 * hold none (they run in the prologue), or at the top level of a branch of a top-level
 * if (branch_loop). 0 with lp->item, or 1 (lp->why may say why not).
 */
static int find_loop(const kernel_info *k, loop_plan *lp)
{
    int found = 0;
    for (unsigned i = 0; i < k->top.n; i++) {
        const seq_item *it = &k->top.items[i];
        const decision *d = it->kind == ITEM_DECISION ? it->decision : NULL;
        CXCursor in = d ? decision_loop_in(d->cursor)
                        : it->kind == ITEM_STMT ? decision_loop_in(it->cursor)
                                                : cursor_null();
        if (d && !decision_is_guard(d) && found && cursor_is_null(in) && !lp->outer) {
            lp->shape = 1;
            snprintf(lp->why, sizeof lp->why, "the kernel has a decision at its top level "
                     "after the loop (line %u), which the tile kernel splits; the loop kernel "
                     "regroups a loop whose kernel has decisions before it or around it only "
                     "(the loop runs in its leaf, as written)", it->range.line);
            return 1;
        }
        if (cursor_is_null(in))
            continue;
        if (found) {
            lp->shape = 1;
            snprintf(lp->why, sizeof lp->why,
                     "a second loop with a decision at line %u: the loop kernel regroups "
                     "one loop a kernel", cursor_spelling_line(in));
            return 1;
        }
        found = 1;
        if (d) {
            if (branch_loop(d, i, lp))
                return 1;
            continue;
        }
        if (!is_decision_loop(it->cursor)) {
            lp->line = cursor_spelling_line(in);
            if (is_attributed_loop(it->cursor))
                snprintf(lp->why, sizeof lp->why, "the loop is written under a statement "
                         "attribute (`#pragma unroll` or `__attribute__((...))`, line %u), "
                         "kept by running the loop in its leaf as written; without the "
                         "attribute its decisions are weighed against a regrouping round",
                         it->range.line);
            else {
                lp->shape = 1;
                snprintf(lp->why, sizeof lp->why, "the loop sits inside the statement at line "
                         "%u: the loop kernel regroups a loop at the top level of the kernel "
                         "or of a branch of a top-level if only", it->range.line);
            }
            return 1;
        }
        lp->item = i;
        lp->line = it->range.line;
        lp->stmt = it->range;
    }
    return !found;
}

/* The sequence the loop statement is an item of, and that item. */
static const seq *loop_seq(const kernel_info *k, const loop_plan *lp)
{
    return lp->outer ? &lp->outer->branches[lp->outer_branch].seq : &k->top;
}

static CXCursor loop_cursor(const kernel_info *k, const loop_plan *lp)
{
    return loop_seq(k, lp)->items[lp->item].cursor;
}

static void loop_note(const analysis *an, CXCursor at, diag_sink *diag, const char *why)
{
    diag_at(diag, an->pr, DIAG_NOTE, at, NULL, "the loop is not regrouped: %s", why);
}

/* A range of the file text [begin, end) with the spaces at its ends left out. */
static src_range trimmed_range(const analysis *an, unsigned file, unsigned begin, unsigned end)
{
    const char *t = an->pr->files[file].text;
    while (begin < end && (t[begin] == ' ' || t[begin] == '\t' || t[begin] == '\n'))
        begin++;
    while (end > begin && (t[end - 1] == ' ' || t[end - 1] == '\t' || t[end - 1] == '\n'))
        end--;
    src_range r = {file, begin, end, 0, 0};
    return r;
}

/* A for loop's three parts, by its parentheses and top-level semicolons; 0 or 1. */
static int for_parts(const analysis *an, loop_plan *lp)
{
    const char *t = an->pr->files[lp->stmt.file].text;
    unsigned p = lp->stmt.begin, semi[2], n = 0, depth = 0;
    while (p < lp->stmt.end && t[p] != '(')
        p++;
    unsigned open = p;
    for (p++; p < lp->stmt.end; p++) {
        if (t[p] == '(' || t[p] == '[' || t[p] == '{')
            depth++;
        else if ((t[p] == ')' || t[p] == ']' || t[p] == '}') && depth)
            depth--;
        else if (t[p] == ')')
            break;
        else if (t[p] == ';' && !depth && n < 2)
            semi[n++] = p;
    }
    if (n != 2 || p >= lp->stmt.end)
        return 1;
    lp->init = trimmed_range(an, lp->stmt.file, open + 1, semi[0]);
    lp->cond = trimmed_range(an, lp->stmt.file, semi[0] + 1, semi[1]);
    lp->inc = trimmed_range(an, lp->stmt.file, semi[1] + 1, p);
    return 0;
}

/* The loop's test and body; 0, or 1 with lp->why. */
static int loop_parts(const analysis *an, const kernel_info *k, loop_plan *lp)
{
    loop_syntax ls;
    loop_syntax_of(an, loop_cursor(k, lp), &ls, &lp->body, &lp->cond);
    lp->kind = ls.kind == IR_FOR ? LOOP_FOR : ls.kind == IR_DO ? LOOP_DO : LOOP_WHILE;
    int braced = ls.braced;
    int bad = ls.body_bad;
    int decl_test = 0, parts = 0; /* the reasons, each said below */
    if (lp->kind == LOOP_FOR) {
        parts = for_parts(an, lp);
    } else if (ls.nkids >= 2) {
        decl_test = ls.decl_test;
        parts = ls.test_bad;
    }
    bad = bad || decl_test || parts;
    const loop_tree *lt = bad ? NULL : kernel_loop_tree_at(k, loop_cursor(k, lp));
    int macro = !bad && (!lt || !lt->ok);
    bad = bad || macro;
    if (!bad)
        lp->bodyseq = lt->body;
    if (bad) { /* every reason at once: the first fixed, the next would stop it too */
        strbuf sb;
        sb_init(&sb);
        if (!braced && ls.nkids >= 1) {
            sb_printf(&sb, "its body has no braces%s",
                      ls.body_holds == 1
                          ? " (write { } around its decision)"
                      : ls.body_holds == 2
                          ? ", and braced it would hold no decision at its top level: its "
                            "body is an inner loop (the loop kernel regroups at an if/else or "
                            "switch of the body itself)"
                          : "");
        }
        if (decl_test)
            sb_printf(&sb, "%sits test is a declaration", sb.len ? "; " : "");
        if (parts && !decl_test)
            sb_printf(&sb, "%sits parts cannot be read from the source text (a macro?)",
                      sb.len ? "; " : "");
        if (macro)
            sb_printf(&sb, "%sa decision of its body comes from a macro, or its body cannot "
                      "be read", sb.len ? "; " : "");
        if (!sb.len)
            sb_puts(&sb, "its body cannot be read from the source text (a macro?)");
        snprintf(lp->why, sizeof lp->why, "the loop at line %u cannot be taken apart: %s",
                 lp->line, sb.data);
        sb_free(&sb);
    }
    return bad;
}

/* An if without else whose branch ends by leaving the iteration (break, continue, return). */
static int exit_guard(const decision *d)
{
    if (d->kind != DEC_IF || d->nbranches != 2 || d->branches[1].kind != BR_IMPLICIT_ELSE)
        return 0;
    return if_ends_by_jump(d->cursor);
}

/* A sequence's operations, every branch of its decisions counted (an upper bound). */
static double seq_cost(const seq *s)
{
    double c = 0;
    for (unsigned i = 0; i < s->n; i++) {
        c += s->items[i].fx.cost;
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d)
            continue;
        c += d->cond_fx.cost + (d->kind == DEC_SWITCH ? seq_cost(&d->body) : 0);
        for (unsigned b = 0; d->kind != DEC_SWITCH && b < d->nbranches; b++)
            c += seq_cost(&d->branches[b].seq);
    }
    return c;
}

/* The body's other data decisions (classified by body_decision): lp->others. */
static void other_decisions(loop_plan *lp)
{
    const seq *s = &lp->bodyseq;
    lp->nothers = 0;
    for (unsigned i = 0; i < s->n; i++) {
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d || d == lp->d || d == lp->d2 || d->divergence != DIV_DATA)
            continue;
        if (lp->nothers < LOOP_MAX_OTHERS)
            lp->others[lp->nothers] = d->range.line;
        lp->nothers++;
    }
}

/* What regrouping group b of decision d saves at most: its branch's operations (a switch's
 * branches share one body: its average). */
static double group_cost(const decision *d, unsigned b)
{
    return d->kind == DEC_SWITCH ? seq_cost(&d->body) / d->nbranches
                                 : seq_cost(&d->branches[b].seq);
}

/* A regroup point: a data decision, or an exit guard and the data decision after it. */
typedef struct regroup_point {
    unsigned at;
    const decision *d, *d2;
    double cost;       /* its costliest group */
} regroup_point;

static double point_cost(const regroup_point *p)
{
    double max = 0;
    for (unsigned b = 0; b < p->d->nbranches; b++) {
        double c = group_cost(p->d, b);
        max = !p->d2 || b == 0 ? (c > max ? c : max) : max;
    }
    for (unsigned b = 0; p->d2 && b < p->d2->nbranches; b++) {
        double c = group_cost(p->d2, b);
        max = c > max ? c : max;
    }
    return max;
}

/* Classified by the analyze stage (loop_tree.c): a condition read through a value the
 * loop carries counts as data there. */
static int is_data(const decision *d)
{
    return d->divergence == DIV_DATA;
}

/* The IR's node of a decision of the kernel's own text, or NULL. */
static const ir_node *ir_decision(const kernel_info *k, const decision *d)
{
    return d ? ir_node_at(k->ir, d->range.file, d->range.begin, 0) : NULL;
}

/* The state machine's regroup point at decision d, or NULL. */
static const machine_point *point_at(const kernel_info *k, const machine_plan *mp,
                                     const decision *d)
{
    const ir_node *n = ir_decision(k, d);
    for (unsigned i = 0; n && mp && i < mp->npoints; i++)
        if (mp->points[i].node == n->id)
            return &mp->points[i];
    return NULL;
}

/* Whether p is a regroup point by the cost rule (the machine's choice at d or d2), and
 * what a round there saves at a visit (*saved). */
static int point_pays(const kernel_info *k, const machine_plan *mp, const regroup_point *p,
                      double *saved)
{
    const machine_point *a = point_at(k, mp, p->d), *b = p->d2 ? point_at(k, mp, p->d2) : NULL;
    *saved = (a ? a->saved : 0) + (b ? b->saved : 0);
    return a || b;
}

/*
 * The regroup point among the data decisions at the body's top level: of those that are
 * regroup points by the cost rule (the state machine's choice, mp), the one whose round
 * saves most at a visit; where none is, the one whose costliest group costs most (the
 * first on a tie), which the loop kernel then does not regroup at (loop_policy). A round
 * regroups at one point: a second would move every context through local memory twice
 * more; the other decisions run as written, in the head or the rest of the iteration
 * (lp->others). 0, or 1 with lp->why.
 */
static int body_decision(const kernel_info *k, const machine_plan *mp, loop_plan *lp)
{
    const seq *s = &lp->bodyseq;
    const decision *first = NULL;
    regroup_point best = {0, NULL, NULL, -1};
    int best_pays = 0;
    double best_saved = -1;
    for (unsigned i = 0; i < s->n; i++) {
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d)
            continue;
        if (!is_data(d)) {
            first = first ? first : d;
            continue;
        }
        const decision *d2 = i + 1 < s->n && s->items[i + 1].kind == ITEM_DECISION
                           ? s->items[i + 1].decision
                           : NULL;
        regroup_point p = {i, d, d2 && exit_guard(d) && is_data(d2) ? d2 : NULL, 0};
        p.cost = point_cost(&p);
        double saved;
        int pays = point_pays(k, mp, &p, &saved);
        if (pays > best_pays || (pays == best_pays && (pays ? saved > best_saved
                                                              : p.cost > best.cost))) {
            best = p;
            best_pays = pays;
            best_saved = saved;
        }
    }
    if (best.d) {
        lp->at = best.at;
        lp->d = best.d;
        lp->d2 = best.d2;
        lp->pays = best_pays;
        lp->saved = best_saved;
        other_decisions(lp);
        return 0;
    }
    if (first)
        snprintf(lp->why, sizeof lp->why, "the decision at line %u is %s (%s), and so is every "
                 "other at the top of the loop's body: its items agree, so regrouping cannot "
                 "pay", first->range.line, div_class_name(first->divergence),
                 first->divergence_why);
    else {
        lp->shape = 1;
        snprintf(lp->why, sizeof lp->why, "the body of the loop at line %u holds no decision at "
                 "its top level: the loop kernel regroups at an if/else or switch of the body "
                 "itself", lp->line);
    }
    return 1;
}

const decision *loop_group(const loop_plan *lp, unsigned g, unsigned *b)
{
    if (!lp->d2 || g == 0) {
        *b = g;
        return lp->d;
    }
    *b = g - 1;
    return lp->d2;
}

/* A kernel parameter assigned anywhere: each phase would see the value it was called with. */
static int assigns_param(const kernel_info *k, loop_plan *lp)
{
    for (unsigned i = 0; i < k->top.n; i++) {
        const effects *fx = &k->top.items[i].fx;
        for (unsigned w = 0; w < fx->nwrites; w++) {
            if (!is_param_decl(fx->writes[w]))
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

/* The switch's body, braces included; 0 or 1. */
static int switch_body(const analysis *an, loop_plan *lp)
{
    int bad = switch_body_range(an, lp->sw->cursor, &lp->switch_body);
    if (bad)
        snprintf(lp->why, sizeof lp->why, "the switch at line %u has no braced body",
                 lp->sw->range.line);
    return bad;
}

static int same_name(CXCursor a, CXCursor b)
{
    char *x = cursor_spelling(a), *y = cursor_spelling(b);
    int same = !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/*
 * With outer, the branch's statements before the loop and a for loop's declared counter
 * join the prologue in one scope: a name they declare that a parameter or the prologue
 * already has would be declared twice. 0, or 1 with lp->why.
 */
static int flattened_names(const kernel_info *k, loop_plan *lp)
{
    cursor_list outer = {0}, inner = {0};
    CXCursor kc = k->cursor;
    function_params(kc, &outer);
    unsigned ntop = lp->outer ? lp->outer_item : lp->item;
    for (unsigned i = 0; i < ntop; i++)
        if (k->top.items[i].kind == ITEM_STMT)
            decl_stmt_vars(k->top.items[i].cursor, &outer);
    for (unsigned i = 0; lp->outer && i < lp->item; i++)
        if (loop_seq(k, lp)->items[i].kind == ITEM_STMT)
            decl_stmt_vars(loop_seq(k, lp)->items[i].cursor, &inner);
    decl_stmt_vars(for_init_decl(loop_cursor(k, lp)), &inner);
    int bad = 0;
    for (unsigned i = 0; i < inner.n && !bad; i++)
        for (unsigned j = 0; j < outer.n + i && !bad; j++) {
            CXCursor o = j < outer.n ? outer.v[j] : inner.v[j - outer.n];
            bad = same_name(inner.v[i], o);
            if (bad) {
                char *name = cursor_spelling(o);
                snprintf(lp->why, sizeof lp->why, "'%s' (line %u) is declared again at line %u; "
                         "the loop's start phase runs both in one scope", name, cursor_spelling_line(o),
                         cursor_spelling_line(inner.v[i]));
                free(name);
            }
        }
    free(outer.v);
    free(inner.v);
    return bad;
}

/* The context: the prologue's and the head's variables; 0, or 1 with ctx.why. */
static int loop_context(const analysis *an, const kernel_info *k, unsigned wg, loop_plan *lp,
                        diag_sink *diag)
{
    kernel_context *cx = &lp->ctx;
    cx->wg = wg;
    cx->loop_line = lp->line;
    cx->at = lp->item;
    cx->at_line = lp->line;
    cx->point = lp->stmt.begin;
    int bad = 0;
    unsigned ntop = lp->outer ? lp->outer_item : lp->item;
    for (unsigned i = 0; i < ntop && !bad; i++)
        if (k->top.items[i].kind == ITEM_STMT)
            bad = context_add_loop_vars(an, k, cx, k->top.items[i].cursor, &k->top, ntop,
                                        NULL, diag);
    const seq *ls = loop_seq(k, lp);
    for (unsigned i = 0; lp->outer && i < lp->item && !bad; i++)
        if (ls->items[i].kind == ITEM_STMT) /* the branch's statements before the loop */
            bad = context_add_loop_vars(an, k, cx, ls->items[i].cursor, ls, lp->item, NULL,
                                        diag);
    CXCursor init = for_init_decl(loop_cursor(k, lp));
    if (!bad && !cursor_is_null(init))
        bad = context_add_loop_vars(an, k, cx, init, ls, lp->item, NULL, diag);
    lp->nprologue = cx->nvars;
    for (unsigned i = 0; i < lp->at && !bad; i++)
        if (lp->bodyseq.items[i].kind == ITEM_STMT)
            bad = context_add_loop_vars(an, k, cx, lp->bodyseq.items[i].cursor, &lp->bodyseq,
                                        lp->at, NULL, diag);
    return bad;
}


/*
 * The default regroup policy, by the cost rule (regroup_rule.h): 1 (a round whose contexts
 * take two branches or more) where the loop's decision is a regroup point (the state
 * machine's choice) and the contexts fit in local memory (!lp->in_place); else 0 (never: each lane keeps its item and refills) where refilling
 * pays for the loop (its trip count data dependent, no global load an iteration, half its
 * work at least a refill), else -1 (off: the kernel's own body in place, as the original).
 * The decisions of the loop the machine leaves as written are kept with their reasons.
 */
static void loop_policy(const analysis *an, const kernel_info *k, const machine_plan *mp,
                        loop_plan *lp)
{
    double max = 0, sum = 0;
    for (unsigned g = 0; g < lp->ngroups; g++) {
        unsigned b;
        const decision *d = loop_group(lp, g, &b);
        double c = group_cost(d, b);
        max = c > max ? c : max;
        sum += c;
    }
    lp->arm_cost[0] = max;
    lp->arm_cost[1] = sum;
    const ir_node *loop = ir_node_at(k->ir, lp->stmt.file, lp->stmt.begin, 1);
    const ir_node *d = ir_decision(k, lp->d), *d2 = ir_decision(k, lp->d2);
    for (unsigned i = 0; mp && loop && i < mp->nleft; i++) { /* the rule's reasons */
        const ir_node *n = k->ir->nodes[mp->left[i].node];
        if (n->cond.divergence != DIV_DATA || !ir_holds(loop, n) ||
            (lp->pays && (n == d || n == d2))) /* part of the point regrouped */
            continue;
        unsigned cap = lp->nleft;
        VEC_PUSH(lp->left, lp->nleft, cap, mp->left[i]);
    }
    if (lp->pays && !lp->in_place) {
        lp->round_cost = mp->round_cost;
        lp->regroup = 1;
        return;
    }
    if (lp->pays) { /* a round would pay, but the contexts cannot move */
        lp->round_cost = mp->round_cost;
    } else { /* what a round at the decision would save and cost (the machine's figures) */
        lp->saved = 0;
        lp->round_cost = regroup_round_of(lp->bytes);
        for (unsigned i = 0; i < lp->nleft; i++) {
            const ir_node *n = k->ir->nodes[lp->left[i].node];
            if (lp->left[i].cheap && (n == d || n == d2)) {
                lp->saved += lp->left[i].saved;
                lp->round_cost = lp->left[i].round;
            }
        }
    }
    /* no round (none pays, or the contexts cannot move): refill, or off */
    lp->regroup = -1;
    const machine_point *outer = lp->outer ? point_at(k, mp, lp->outer) : NULL;
    if (outer) { /* the if that holds the loop pays: its other items end in the prologue */
        lp->regroup = 0;
        snprintf(lp->refill_why, sizeof lp->refill_why, "the if at line %u that holds the loop "
                 "is a regroup point (a round there saves about %.0f operations a visit): the "
                 "items that take its other branch end in the prologue, and refilling their "
                 "lanes with the next items evens that out", outer->line, outer->saved);
        return;
    }
    if (!loop) {
        snprintf(lp->refill_why, sizeof lp->refill_why, "the loop is not in the kernel's IR");
        return;
    }
    regroup_facts rf;
    regroup_facts_build(an, k, &rf);
    double waits, refill;
    if (regroup_refill_pays(&rf, loop, &waits, &refill, lp->refill_why,
                            sizeof lp->refill_why) == REFILL_PAYS)
        lp->regroup = 0;
    regroup_facts_free(&rf);
}

static int decide(const analysis *an, const kernel_info *k, unsigned wg,
                  const machine_plan *mp, loop_plan *lp, diag_sink *diag)
{
    if (loop_parts(an, k, lp) || body_decision(k, mp, lp))
        return 1;
    if (loop_jumps(an, loop_cursor(k, lp), lp, diag) || assigns_param(k, lp) ||
        flattened_names(k, lp))
        return 1;
    lp->ngroups = lp->d2 ? 1 + lp->d2->nbranches : lp->d->nbranches;
    lp->sw = lp->d->kind == DEC_SWITCH ? lp->d : lp->d2 && lp->d2->kind == DEC_SWITCH ? lp->d2
                                                                                      : NULL;
    if (lp->sw && (switch_body(an, lp) != 0))
        return 1;
    if (loop_context(an, k, wg, lp, diag)) {
        snprintf(lp->why, sizeof lp->why, "%s", lp->ctx.why);
        return 1;
    }
    lp->bytes = lp->ctx.bytes + 12; /* item, branch, iteration */
    if (lp->sw) {
        lp->sel_type = expr_value_type(lp->sw->cond_cursor);
        lp->bytes += (unsigned)expr_type_size(lp->sw->cond_cursor);
    }
    lp->bytes = (lp->bytes + 15) / 16 * 16; /* the struct's padding, at most */
    if ((unsigned long)lp->bytes * wg > LOOP_LOCAL_BUDGET) { /* never a refusal: in place */
        lp->in_place = 1;
        snprintf(lp->in_place_why, sizeof lp->in_place_why, "its context takes %u bytes an "
                 "item, %lu bytes of local memory a work-group of %u: over the %u-byte budget, "
                 "so each item stays in its lane (a policy that moves contexts, 1 or 2, runs "
                 "as 0: refill only)", lp->bytes, (unsigned long)lp->bytes * wg, wg,
                 LOOP_LOCAL_BUDGET);
    }
    loop_policy(an, k, mp, lp);
    return 0;
}

void loop_build(const analysis *an, const kernel_info *k, unsigned wg, const machine_plan *mp,
                loop_plan *lp, diag_sink *diag)
{
    memset(lp, 0, sizeof *lp);
    if (find_loop(k, lp))
        return;
    lp->active = !decide(an, k, wg, mp, lp, diag);
}

void loop_free(loop_plan *lp)
{
    context_free(&lp->ctx);
    free(lp->sel_type);
    free(lp->jumps);
    free(lp->left);
    memset(lp, 0, sizeof *lp);
}
