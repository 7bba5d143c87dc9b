/* SPDX-License-Identifier: Apache-2.0 */
/* report.c - human-readable verdicts and condition trees. */
#include "report.h"

#include <string.h>

#include "auto_tile.h"
#include "keep_in_leaf.h"
#include "tree.h"

static void put_text(FILE *f, const analysis *an, src_range r, size_t max)
{
    size_t len;
    const char *t = range_text(an, r, &len);
    size_t n = 0;
    for (size_t i = 0; i < len && n < max; i++, n++) {
        char ch = t[i];
        if (ch == '\n' || ch == '\t' || ch == '\r') {
            fputc(' ', f);
            while (i + 1 < len && (t[i + 1] == ' ' || t[i + 1] == '\n' || t[i + 1] == '\t'))
                i++;
        } else {
            fputc(ch, f);
        }
    }
    if (n < len && n >= max)
        fputs("...", f);
}

static void print_seq(FILE *f, const analysis *an, const decision_plan *dp, const seq *s,
                      int depth, int in_kept);

/* The mark of a decision that is not split; those nested in it are not marked again. */
static const char *kept_mark(const decision_plan *dp, const decision *d, unsigned b, int in_kept)
{
    return b == 0 && decision_kept(dp, d) && !in_kept ? "  (stays in the leaf kernels)" : "";
}

static void print_decision(FILE *f, const analysis *an, const decision_plan *dp,
                           const decision *d, int depth, int in_kept)
{
    if (d->kind == DEC_SWITCH) {
        fprintf(f, "%*sswitch (", depth * 2, "");
        put_text(f, an, d->cond, 60);
        fprintf(f, ")  [line %u]%s\n", d->range.line, kept_mark(dp, d, 0, in_kept));
    }
    int kept = in_kept || decision_kept(dp, d);
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        int ind = depth * 2 + (d->kind == DEC_SWITCH ? 2 : 0);
        switch (br->kind) {
        case BR_IF:
            fprintf(f, "%*s%s (", ind, "", b == 0 ? "if" : "else if");
            put_text(f, an, br->cond, 60);
            fprintf(f, ")  [line %u]%s\n", br->cond.line,
                    d->kind == DEC_IF ? kept_mark(dp, d, b, in_kept) : "");
            break;
        case BR_ELSE:
            fprintf(f, "%*selse  [line %u]\n", ind, "", br->body.line);
            break;
        case BR_IMPLICIT_ELSE:
            fprintf(f, "%*s(no else: falls through)\n", ind, "");
            break;
        case BR_CASE:
        case BR_DEFAULT:
            fprintf(f, "%*s", ind, "");
            for (unsigned i = 0; i < br->nvalues; i++)
                fprintf(f, "case %lld: ", br->values[i]);
            fprintf(f, "%s\n", br->kind == BR_DEFAULT ? "default:" : "");
            break;
        case BR_IMPLICIT_DEFAULT:
            fprintf(f, "%*s(no default: falls through)\n", ind, "");
            break;
        }
        if (d->kind == DEC_IF)
            print_seq(f, an, dp, &br->seq, ind / 2 + 1, kept);
    }
    if (d->kind == DEC_SWITCH)
        print_seq(f, an, dp, &d->body, depth + 2, kept);
}

static void print_seq(FILE *f, const analysis *an, const decision_plan *dp, const seq *s,
                      int depth, int in_kept)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        if (it->kind == ITEM_DECISION && it->decision)
            print_decision(f, an, dp, it->decision, depth, in_kept);
        else if (it->kind == ITEM_RETURN)
            fprintf(f, "%*sreturn  [line %u]\n", depth * 2, "", it->range.line);
        else if (it->kind == ITEM_BREAK)
            fprintf(f, "%*sbreak  [line %u]\n", depth * 2, "", it->range.line);
    }
}

/* What the tree visits of the report need. */
typedef struct report_ctx {
    FILE *f;
    const analysis *an;
    const kernel_plan *kp;
    int *any;              /* the slice printed a statement */
    int in_kept;           /* inside a decision that stays in the leaf kernels */
    int in_loop;           /* inside a top-level decision the loop kernel runs as written */
} report_ctx;

static tree_step print_slice_item(void *ud, const seq_item *it)
{
    const report_ctx *c = ud;
    if (it->kind == ITEM_STMT && plan_in_slice(c->kp, it)) {
        fprintf(c->f, "    line %u: ", it->range.line);
        put_text(c->f, c->an, it->range, 70);
        fputc('\n', c->f);
        c->any[0] = 1;
    }
    return TREE_RECURSE;
}

/* What the plan does with d: divergence.c's verdict, or what --max-leaves made of it. */
static const char *plan_text(const decision_plan *p, int in_kept)
{
    if (in_kept)
        return keep_reason_text(KEEP_INSIDE_KEPT);
    if (p->keep_in_leaf && (p->reason == KEEP_NONE || keep_reason_splits(p->reason)))
        return "stays in the leaf kernels (an inner level past --max-leaves, or after a kept "
               "decision that may return)";
    return keep_reason_text(p->reason);
}

/* A regrouped loop: a decision at the kernel's top level (not a guard) runs in its phases. */
static int loop_runs_it(const report_ctx *c, const decision *d)
{
    const seq *top = &c->kp->k->top;
    if (!c->kp->loop.active || c->in_kept)
        return 0;
    for (unsigned i = 0; !c->in_loop && i < top->n; i++)
        if (top->items[i].decision == d)
            return !decision_is_guard(d);
    return c->in_loop;
}

static void print_loop_decision(FILE *f, const loop_plan *lp, const decision *d, int inner)
{
    if (lp->outer == d)
        fprintf(f, "      plan: runs in the loop kernel's prologue: an item of the branch at "
                   "line %u goes on to the %sloop at line %u; one of another branch "
                   "runs it and the code after the if, and ends\n",
                d->branches[lp->outer_branch].body.line, lp->regroup > 0 ? "regrouped " : "",
                lp->line);
    else
        fprintf(f, "      plan: runs as written in the loop kernel (%s), which %s the "
                   "loop at line %u%s instead of splitting here\n",
                inner ? "inside a top-level decision" : "its prologue or epilogue",
                lp->regroup > 0 ? "regroups" : "takes", lp->line,
                lp->regroup > 0 ? ""
                : lp->pays      ? " (not regrouped: its contexts stay in their lanes)"
                                : " (not regrouped: no round pays)");
}

/* One line per decision, in source order: its divergence class and why. */
static tree_step print_divergence(void *ud, const decision *d)
{
    const report_ctx *c = ud;
    FILE *f = c->f;
    fprintf(f, "    divergence: %s: %s  [line %u: %s (", div_class_name(d->divergence),
            d->divergence_why, d->range.line, d->kind == DEC_SWITCH ? "switch" : "if");
    put_text(f, c->an, d->kind == DEC_SWITCH ? d->cond : d->branches[0].cond, 40);
    fputs(")]\n", f);
    const decision_plan *p = &c->kp->decisions[d->id];
    const char *plan = plan_text(p, c->in_kept);
    if (c->kp->machine.active) { /* the state machine is the split: nothing here is split */
        const ir_kernel *ir = c->kp->k->ir;
        const machine_plan *mp = &c->kp->machine;
        unsigned point = 0;
        for (unsigned i = 0; i < mp->npoints; i++)
            if (ir->nodes[mp->points[i].node]->range.begin == d->range.begin)
                point = mp->points[i].line;
        if (point)
            fprintf(f, "      plan: a regroup point of the state machine (above)\n");
        else
            fprintf(f, "      plan: runs as written in the state machine's body\n");
        return TREE_RECURSE;
    }
    if (loop_runs_it(c, d)) { /* the loop kernel is the split: nothing here is split */
        print_loop_decision(f, &c->kp->loop, d, c->in_loop);
        report_ctx inner = *c;
        inner.in_loop = 1;
        for_each_decision_in(d, print_divergence, &inner);
        return TREE_CONTINUE;
    }
    if (plan)
        fprintf(f, "      plan: %s\n", plan);
    if (c->in_kept || !p->keep_in_leaf)
        return TREE_RECURSE;
    report_ctx inner = *c;
    inner.in_kept = 1;
    for_each_decision_in(d, print_divergence, &inner);
    return TREE_CONTINUE;
}

typedef struct decision_count {
    const decision_plan *dp;
    unsigned split, kept;
    unsigned kept_lines[8];
} decision_count;

static tree_step count_decision(void *ud, const decision *d)
{
    decision_count *c = ud;
    if (decision_kept(c->dp, d)) {
        if (c->kept < 8)
            c->kept_lines[c->kept] = d->range.line;
        c->kept++;
        return TREE_CONTINUE;
    }
    c->split++;
    return TREE_RECURSE;
}

/* Which decisions are split and which stay in the leaf kernels (and still branch there). */
static void print_kept(FILE *f, const kernel_plan *kp)
{
    decision_count c = {kp->decisions, 0, 0, {0}};
    for_each_decision(&kp->k->top, count_decision, &c);
    if (!c.kept)
        return;
    fprintf(f, "  decisions: %u split, %u stay in the leaf kernels and branch there (line%s",
            c.split, c.kept, c.kept > 1 ? "s" : "");
    for (unsigned i = 0; i < c.kept && i < 8; i++)
        fprintf(f, "%s %u", i ? "," : "", c.kept_lines[i]);
    fprintf(f, "%s); %.0f paths if every decision were split, at most %u leaves\n",
            c.kept > 8 ? ", ..." : "", kp->paths, kp->max_leaves);
}

/* --strategy tile: the top-level decision's context (context.h), or why there is none. */
static void print_context(FILE *f, const kernel_plan *kp)
{
    const kernel_context *cx = &kp->ctx;
    if (kp->tile_candidate == AUTO_TILE_LOOP) {
        fprintf(f, "  context (tile): none at the top level: the tile kernel is the loop kernel "
                   "(its context below)\n");
        return;
    }
    if (kp->tile_candidate == AUTO_TILE_MACHINE) {
        fprintf(f, "  context (tile): none at the top level: the tile kernel is the state "
                   "machine (its context below)\n");
        return;
    }
    if (!cx->active) {
        fprintf(f, "  context (tile): none: %s; the tile's leaves recompute the prologue\n",
                cx->why);
        return;
    }
    fprintf(f, "  context (tile): at the decision at line %u, %u variable%s, %u bytes an item\n",
            cx->at_line, cx->nvars, cx->nvars == 1 ? "" : "s", cx->bytes);
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        char dim[32] = "";
        if (v->count)
            snprintf(dim, sizeof dim, "[%u]", v->count);
        if (v->carried)
            fprintf(f, "    %s: %s%s, %u bytes (line %u)\n", v->name, v->store_type, dim,
                    v->bytes, v->line);
        else
            fprintf(f, "    %s: %s%s, declared only: no value set before the decision is read "
                       "(line %u)\n", v->name, v->store_type, dim, v->line);
    }
    char why[320];
    tile_policy_why(&cx->policy, 1, why, sizeof why);
    fprintf(f, "    regroup: NPLUS1_TILE_REGROUP=%d (%s): %s; -D sets it\n", cx->policy.regroup,
            cx->policy.regroup > 0 ? "regroup the rounds whose items take two leaves or more"
                                   : "off",
            why);
    unsigned group = cx->bytes * cx->wg;
    if (group)
        fprintf(f, "    local memory%s: %u bytes x %u work-items = %u bytes a work-group for each "
                   "item a work-item holds; a tile goes in rounds of at most %u item%s a "
                   "work-item (%u-byte budget)\n",
                cx->policy.regroup > 0 ? "" : " when regrouped", cx->bytes, cx->wg, group,
                CONTEXT_LOCAL_BUDGET / group,
                CONTEXT_LOCAL_BUDGET / group == 1 ? "" : "s", CONTEXT_LOCAL_BUDGET);
    fprintf(f, "    the prologue (lines %u-%u) runs once per item, in the classify phase; the "
               "leaves start from the context\n",
            cx->prologue_begin_line, cx->prologue_end_line);
    if (cx->relaxed)
        fprintf(f, "    legal only with the context: %u prologue statement%s with side effects "
                   "or stores that a condition reads (the other strategies refuse them)\n",
                cx->relaxed, cx->relaxed == 1 ? "" : "s");
}

/* The loop sits in a branch of a top-level if (a loop inside a top-level leaf). */
static void print_outer(FILE *f, const loop_plan *lp)
{
    fprintf(f, "    inside: the branch at line %u of the if at line %u; an item that takes "
               "another branch runs it and the code after the if in the prologue phase, and "
               "its lane takes the next item\n",
            lp->outer->branches[lp->outer_branch].body.line, lp->outer->range.line);
    if (lp->outer_loops > 1)
        fprintf(f, "    the costliest of %u branches that hold a loop with a decision: about %.0f "
                   "operations, the next %.0f (that one runs as written)\n",
                lp->outer_loops, lp->outer_cost[0], lp->outer_cost[1]);
}

/* The decisions left as written, and why (the state machine's, or the loop's). */
static void print_left(FILE *f, const analysis *an, const ir_kernel *ir, const regroup_left *left,
                       unsigned nleft)
{
    for (unsigned i = 0; i < nleft; i++) {
        const ir_node *n = ir->nodes[left[i].node];
        fprintf(f, "    left as written: line %u", left[i].line);
        for (unsigned fr = n->frame; fr; fr = ir->nodes[fr]->frame)
            fprintf(f, " in helper '%s' called at line %u", ir->nodes[fr]->call.name,
                    ir->nodes[fr]->line);
        fprintf(f, ", %s (", n->kind == IR_SWITCH ? "switch" : "if");
        put_text(f, an, n->cond.range, 40);
        fprintf(f, "): %s\n", left[i].why);
    }
}

/* Whether n sits inside a loop. */
static int in_a_loop(const ir_node *n)
{
    for (const ir_node *q = n->parent; q; q = q->parent)
        if (q->kind == IR_LOOP)
            return 1;
    return 0;
}

/* Whether n is a data decision of the kernel's own text inside one of its loops. */
static int data_in_a_loop(const ir_node *n)
{
    return n->cond.divergence == DIV_DATA && n->frame == 0 && in_a_loop(n);
}

/* Whether a decision the state machine leaves is a data decision of a helper it inlines. */
static int left_helper_data(const kernel_plan *kp)
{
    const machine_plan *mp = &kp->machine;
    for (unsigned i = 0; i < mp->nleft; i++) {
        const ir_node *n = kp->k->ir->nodes[mp->left[i].node];
        if (n->frame != 0 && n->cond.divergence == DIV_DATA)
            return 1;
    }
    return 0;
}

/* Whether the state machine weighed the kernel's decisions and none inside its loops (nor in
 * a helper) depends on data. */
static int loop_decisions_agree(const kernel_plan *kp)
{
    const machine_plan *mp = &kp->machine;
    if (!kp->k->ir || !mp->nleft || mp->nblockers || left_helper_data(kp))
        return 0;
    int looped = 0; /* one at least in a loop */
    for (unsigned i = 0; i < mp->nleft; i++) {
        const ir_node *n = kp->k->ir->nodes[mp->left[i].node];
        if (data_in_a_loop(n))
            return 0;
        looped |= in_a_loop(n);
    }
    return looped;
}

/*
 * Whether print_machine says something of a state machine it does not use: its blockers,
 * or why it leaves the data decisions of helpers or of the kernel's loops as written (in
 * terms of uniformity and cost). The loop kernel's line then points there.
 */
static int machine_speaks(const kernel_plan *kp)
{
    const machine_plan *mp = &kp->machine;
    if (mp->active)
        return 0;
    if (mp->nblockers || left_helper_data(kp))
        return 1;
    int data_in_loop = 0; /* the machine's domain: its decisions in the kernel's loops */
    for (unsigned i = 0; i < mp->nleft; i++)
        data_in_loop |= data_in_a_loop(kp->k->ir->nodes[mp->left[i].node]);
    return data_in_loop && mp->why[0] && !kp->loop.active;
}

/* --strategy tile: the loop regrouped round by round (loop.h), or why not. */
static void print_loop(FILE *f, const analysis *an, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    if (!lp->line || kp->machine.active)
        return;
    if (!lp->active && (lp->shape || kp->machine.nblockers) && machine_speaks(kp)) {
        /* the machine's reasons, in terms of uniformity and cost, are below */
        fprintf(f, "  loop (tile): line %u: not regrouped by the loop kernel: see the state "
                   "machine\n", lp->line);
        return;
    }
    if (!lp->active && lp->shape && loop_decisions_agree(kp)) {
        fprintf(f, "  loop (tile): line %u: not regrouped: no decision inside the kernel's "
                   "loops depends on data (the items of a SIMD group agree at each): nothing "
                   "to regroup\n", lp->line);
        return;
    }
    if (!lp->active) {
        fprintf(f, "  loop (tile): line %u: not regrouped: %s\n", lp->line, lp->why);
        return;
    }
    const decision *d = lp->d;
    const char *no_round = lp->pays ? "its decision pays for a round, but its context does "
                                      "not fit in local memory"
                                    : "no decision of the loop pays for a round";
    if (lp->regroup > 0)
        fprintf(f, "  loop (tile): line %u: regrouped round by round in the work-group\n",
                lp->line);
    else if (lp->regroup == 0)
        fprintf(f, "  loop (tile): line %u: %s: each item in its lane, refilled (no "
                   "regrouping)\n", lp->line, no_round);
    else
        fprintf(f, "  loop (tile): line %u: %s, nor does refilling%s: regrouping off (the "
                   "tile kernel is the kernel's own body, in place)\n", lp->line, no_round,
                lp->pays ? " pay" : "");
    static const char *const kinds[] = {"while", "for", "do"};
    fprintf(f, "    loop: `%s`; %u break/continue statement%s of the loop\n", kinds[lp->kind],
            lp->njumps, lp->njumps == 1 ? "" : "s");
    if (lp->outer)
        print_outer(f, lp);
    fprintf(f, "    decision: %s at line %u, divergence: data (%s), %u branches\n",
            d->kind == DEC_SWITCH ? "switch" : "if", d->range.line, d->divergence_why,
            d->nbranches);
    if (lp->d2)
        fprintf(f, "    and the %s at line %u after it, divergence: data (%s), %u branches: the "
                   "if's branch leaves the iteration, so %u groups\n",
                lp->d2->kind == DEC_SWITCH ? "switch" : "if", lp->d2->range.line,
                lp->d2->divergence_why, lp->d2->nbranches, lp->ngroups);
    if (lp->nothers) {
        if (lp->pays)
            fprintf(f, "    regroup point: of %u data decisions at the top of the body, the one "
                       "whose round saves most a visit (~%.0f operations); the other%s (line%s",
                    lp->nothers + 1, lp->saved, lp->nothers == 1 ? "" : "s",
                    lp->nothers == 1 ? "" : "s");
        else
            fprintf(f, "    %u data decisions at the top of the body, none a regroup point; the "
                       "loop kernel's groups follow the costliest (its costliest group ~%.0f "
                       "operations); the other%s (line%s", lp->nothers + 1, lp->arm_cost[0],
                    lp->nothers == 1 ? "" : "s", lp->nothers == 1 ? "" : "s");
        for (unsigned i = 0; i < lp->nothers && i < LOOP_MAX_OTHERS; i++)
            fprintf(f, "%s %u", i ? "," : "", lp->others[i]);
        fprintf(f, "%s) run%s as written, not regrouped: a second regroup point would move "
                   "every context through local memory twice more a round\n",
                lp->nothers > LOOP_MAX_OTHERS ? ", ..." : "", lp->nothers == 1 ? "s" : "");
    }
    fprintf(f, "    context: %u variable%s, at most %u bytes an item with the selector, item "
               "and branch; %u bytes of local memory a work-group of %u\n",
            lp->ctx.nvars, lp->ctx.nvars == 1 ? "" : "s", lp->bytes, lp->bytes * lp->ctx.wg,
            lp->ctx.wg);
    for (unsigned i = 0; i < lp->ctx.nvars; i++) {
        const ctx_var *v = &lp->ctx.vars[i];
        char dim[32] = "";
        if (v->count)
            snprintf(dim, sizeof dim, "[%u]", v->count);
        fprintf(f, "      %s: %s%s, %u bytes (line %u, %s)\n", v->name, v->store_type, dim,
                v->bytes, v->line, i < lp->nprologue ? "prologue" : "loop head");
    }
    static const char *const modes[] = {"-1: off (the kernel's own body in place)",
                                        "0: never (each lane keeps its item's context)",
                                        "1: a round whose contexts take two branches or more",
                                        "2: every round"};
    if (lp->in_place)
        fprintf(f, "    in place: %s\n", lp->in_place_why);
    if (lp->pays && lp->in_place)
        fprintf(f, "    policy: regroup NPLUS1_LOOP_REGROUP=%s (the default; -D sets it): a "
                   "round at the decision would save about %.0f operations a visit, which pays "
                   "for a regrouping round ~%.0f, but the contexts cannot move (in place, "
                   "above); %s\n",
                modes[lp->regroup + 1], lp->saved, lp->round_cost, lp->refill_why);
    else if (lp->pays)
        fprintf(f, "    policy: regroup NPLUS1_LOOP_REGROUP=%s, at most every "
                   "NPLUS1_LOOP_REGROUP_EVERY=1 rounds (defaults; -D sets them); regroup point "
                   "by the cost rule: a round at the decision saves about %.0f operations a "
                   "visit (each group's work weighed by how often the lanes of the others wait "
                   "for it), which pays for a regrouping round ~%.0f (the context's two moves "
                   "and the barriers); a lane whose item leaves the loop runs the epilogue and "
                   "takes the next item of the tile\n",
                modes[lp->regroup + 1], lp->saved, lp->round_cost);
    else
        fprintf(f, "    policy: regroup NPLUS1_LOOP_REGROUP=%s (the default; -D sets it): no "
                   "regroup point: a round at the decision would save about %.0f operations a "
                   "visit of the ~%.0f it costs; %s\n",
                modes[lp->regroup + 1], lp->saved, lp->round_cost, lp->refill_why);
    print_left(f, an, kp->k->ir, lp->left, lp->nleft);
}

/* The state machine (machine.h): its regroup points, the decisions left as written and
 * why, its context and policy; or why it is not used. */
static void print_machine(FILE *f, const analysis *an, const kernel_plan *kp, unsigned wg)
{
    const machine_plan *mp = &kp->machine;
    const ir_kernel *ir = kp->k->ir;
    if (!mp->active) {
        if (!machine_speaks(kp))
            return;
        if (!mp->nblockers && left_helper_data(kp)) { /* each decision left, with its helper */
            fprintf(f, "  state machine (tile): not used: %s\n", mp->why);
            print_left(f, an, ir, mp->left, mp->nleft);
            return;
        }
        if (mp->nblockers) {
            fprintf(f, "  state machine (tile): cannot be regrouped:\n");
            for (unsigned i = 0; i < mp->nblockers; i++) {
                const src_file *sf = &an->pr->files[mp->blockers[i].at.file];
                unsigned col = 1;
                for (unsigned o = mp->blockers[i].at.begin; o > 0 && sf->text[o - 1] != '\n'; o--)
                    col++;
                fprintf(f, "    %s:%u:%u: %s\n", sf->path, mp->blockers[i].at.line, col,
                        mp->blockers[i].msg);
            }
            return;
        }
        fprintf(f, "  state machine (tile): not used: %s\n", mp->why);
        for (unsigned i = 0; i < mp->nleft; i++) { /* its domain: the loops' data decisions */
            const ir_node *n = ir->nodes[mp->left[i].node];
            if (!data_in_a_loop(n))
                continue; /* a top-level one is the tile's (its split, or "split: never") */
            fprintf(f, "    left as written: line %u, %s (", mp->left[i].line,
                    n->kind == IR_SWITCH ? "switch" : "if");
            put_text(f, an, n->cond.range, 40);
            fprintf(f, "): %s\n", mp->left[i].why);
        }
        return;
    }
    if (mp->regroup < 0) {
        fprintf(f, "  state machine (tile): no regroup point: no decision pays for a round, nor "
                   "does refilling: regrouping off (the tile kernel is the kernel's own body, "
                   "in place)\n");
        if (mp->why[0])
            fprintf(f, "    refill: %s\n", mp->why);
    } else if (mp->refill_loop)
        fprintf(f, "  state machine (tile): no regroup point, each item in its lane (refill "
                   "only): the loop at line %u runs a data-dependent number of trips\n",
                ir->nodes[mp->refill_loop - 1]->line);
    else if (mp->in_place)
        fprintf(f, "  state machine (tile): cut at %u regroup point%s, each item in its lane "
                   "(refill only, no move: the policy below)\n", mp->npoints,
                mp->npoints == 1 ? "" : "s");
    else
        fprintf(f, "  state machine (tile): regrouped round by round in the work-group at %u "
                   "regroup point%s\n", mp->npoints, mp->npoints == 1 ? "" : "s");
    for (unsigned i = 0; i < mp->npoints; i++) {
        const machine_point *p = &mp->points[i];
        const ir_node *n = ir->nodes[p->node];
        fprintf(f, "    regroup point: line %u", p->line);
        if (n->frame) /* inlined at its call (and its caller's, up to the kernel) */
            for (unsigned fr = n->frame; fr; fr = ir->nodes[fr]->frame)
                fprintf(f, " in helper '%s' called at line %u", ir->nodes[fr]->call.name,
                        ir->nodes[fr]->line);
        fprintf(f, ", %s (", n->kind == IR_SWITCH ? "switch" : "if");
        put_text(f, an, n->cond.range, 40);
        fprintf(f, "), divergence: data (%s), %u arms, inside %u loop%s: its arms save ~%.0f "
                   "operations a visit (its costliest arm ~%.0f), which pays for a regrouping "
                   "round ~%.0f\n",
                n->cond.why, p->narms, p->depth, p->depth == 1 ? "" : "s", p->saved, p->cost,
                mp->round_cost);
    }
    print_left(f, an, ir, mp->left, mp->nleft);
    fprintf(f, "    context: %u variable%s, %u bytes an item with the state and the item; %u "
               "bytes of local memory a work-group of %u\n",
            mp->nvars, mp->nvars == 1 ? "" : "s", mp->bytes, mp->bytes * wg, wg);
    fprintf(f, "    context by liveness: %u bytes an item, against %u for every variable whose "
               "scope holds a regroup point\n", mp->bytes, mp->bytes_scope);
    for (unsigned i = 0; i < mp->nvars; i++) {
        const ir_var *v = &ir->vars[mp->vars[i].var];
        fprintf(f, "      %s, %lld bytes (line %u)\n", mp->vars[i].decl, v->size,
                (v->flags & IR_VAR_RETURN) ? ir->nodes[v->frame]->line : v->range.line);
    }
    static const char *const modes[] = {"0: never (each lane keeps its item's context)",
                                        "1: a round whose contexts take two arms or more"};
    if (mp->in_place)
        fprintf(f, "    policy: in place: %s\n", mp->in_place_why);
    else
        fprintf(f, "    policy: regroup NPLUS1_LOOP_REGROUP=%s, at most every "
                   "NPLUS1_LOOP_REGROUP_EVERY=1 rounds (defaults; -D sets them); the costliest "
                   "arm %.0f operations, a regrouping round %.0f (the context's two moves and "
                   "the barriers)\n",
                modes[mp->regroup ? 1 : 0], mp->arm_cost, mp->round_cost);
    fprintf(f, "    a lane runs its item to the next regroup point or its end; a lane whose "
               "item ends takes the next item of the tile\n");
}

/* A top-level decision other than an early-return guard (the loop kernel runs it). */
static int loop_has_top_decision(const kernel_plan *kp)
{
    const seq *top = &kp->k->top;
    for (unsigned i = 0; i < top->n; i++)
        if (top->items[i].kind == ITEM_DECISION && top->items[i].decision &&
            !decision_is_guard(top->items[i].decision))
            return 1;
    return 0;
}

/* The tile kernel the set carries: its name, and why it is the only split or what it costs. */
static void print_tile_candidate(FILE *f, const plan *pl, dispatch d, const kernel_plan *kp)
{
    if (kp->tile_candidate == AUTO_TILE_NONE)
        return;
    const char *name = auto_tile_name(kp->tile_candidate);
    if (pl->opt.strategy != STRATEGY_TILE && kp->strategy == STRATEGY_TILE &&
        kp->tile_candidate == AUTO_TILE_LOOP && kp->loop.regroup <= 0)
        fprintf(f, "  candidates: original and %s only: the loop kernel is the split (%s: "
                   "%s)\n", name,
                kp->loop.pays ? "its contexts do not fit in local memory"
                              : "no decision of the loop pays for a round",
                kp->loop.regroup == 0 ? "each item in its lane, refilled"
                                      : "regrouping off, the kernel's own body in place");
    else if (pl->opt.strategy != STRATEGY_TILE && kp->strategy == STRATEGY_TILE)
        fprintf(f, "  candidates: original and %s only: %s\n", name,
                kp->tile_candidate == AUTO_TILE_MACHINE && kp->machine.regroup < 0
                    ? "the state machine without a regroup point is the split (no decision pays "
                      "for a round, nor does refilling: regrouping off, the kernel's own body "
                      "in place)"
                : kp->tile_candidate == AUTO_TILE_MACHINE && kp->machine.refill_loop
                    ? "the state machine without a regroup point is the split (each lane runs "
                      "its items to their ends and takes the next: refill only)"
                : kp->tile_candidate == AUTO_TILE_MACHINE
                    ? "the state machine is the split (it regroups at its regroup points, at any "
                      "depth; the other decisions run as written in its body)"
                : kp->tile_candidate != AUTO_TILE_LOOP
                    ? "only the context makes the kernel legal (a prologue statement the other "
                      "strategies refuse runs once per item in its classify phase)"
                : kp->k->loop_only
                    ? "the loop kernel is the split (it regroups the decision inside the loop; "
                      "the top level has no decision)"
                : kp->loop.outer
                    ? "the loop kernel is the split (it regroups the decision inside the loop; "
                      "the top-level if that holds the loop runs in its prologue)"
                : loop_has_top_decision(kp)
                    ? "the loop kernel is the split (it regroups the decision inside the loop; "
                      "the top level's decisions run as written in its prologue or epilogue)"
                    : "the loop kernel is the split (it regroups the decision inside the loop; "
                      "the top level has only early-return guards)");
    else if (pl->opt.strategy != STRATEGY_TILE)
        fprintf(f, "  candidates: original, %s/%s and %s\n", strategy_name(kp->strategy),
                dispatch_name(d), name);
    if (kp->tile_candidate == AUTO_TILE_LOOP && pl->opt.split == SPLIT_AUTO)
        fprintf(f, "  %s: %s: the loop's decision at line %u is data dependent (the static "
                   "model cannot tell how often a SIMD group mixes branches or trip counts); "
                   "regroup policy %d (a round there saves ~%.0f a visit, a round ~%.0f%s)\n",
                name, split_mode_name(kp->tile_split), kp->loop.d->range.line,
                kp->loop.regroup, kp->loop.saved, kp->loop.round_cost,
                kp->loop.regroup > 0    ? ": it pays"
                : kp->loop.in_place && kp->loop.regroup == 0
                    ? ": refill only, its contexts over the local-memory budget"
                : kp->loop.in_place ? ": regrouping off, in place, its contexts over the "
                                      "local-memory budget"
                : kp->loop.regroup == 0 ? ": refill only"
                                        : ": regrouping off, in place");
    if (kp->tile_candidate == AUTO_TILE_MACHINE && pl->opt.split == SPLIT_AUTO &&
        kp->machine.regroup < 0)
        fprintf(f, "  %s: %s: its decisions in loops are data dependent (the static model "
                   "cannot tell how often a SIMD group mixes arms); regroup policy -1 (no "
                   "regroup point, refilling does not pay: regrouping off, in place)\n",
                name, split_mode_name(kp->tile_split));
    else if (kp->tile_candidate == AUTO_TILE_MACHINE && pl->opt.split == SPLIT_AUTO &&
             kp->machine.refill_loop)
        fprintf(f, "  %s: %s: no regroup point; the loop at line %u runs a data-dependent number "
                   "of trips (the static model cannot tell how much they differ in a SIMD "
                   "group); refill only (half the loop ~%.0f, a refill ~%.0f)\n",
                name, split_mode_name(kp->tile_split),
                kp->k->ir->nodes[kp->machine.refill_loop - 1]->line, kp->machine.arm_cost,
                kp->machine.round_cost);
    else if (kp->tile_candidate == AUTO_TILE_MACHINE && pl->opt.split == SPLIT_AUTO)
        fprintf(f, "  %s: %s: its regroup points are data dependent (the static model cannot "
                   "tell how often a SIMD group mixes arms); regroup policy %u (the costliest "
                   "arm ~%.0f, a round ~%.0f)\n",
                name, split_mode_name(kp->tile_split), (unsigned)kp->machine.regroup,
                kp->machine.arm_cost, kp->machine.round_cost);
    if (kp->tile_candidate != AUTO_TILE_CONTEXT || pl->opt.split != SPLIT_AUTO)
        return;
    double prologue, classifier;
    auto_tile_costs(kp, &prologue, &classifier);
    fprintf(f, "  %s: %s: its prologue (cost ~%.0f) runs once per item; classifier ~%.0f and "
               "leaves without the prologue decide (cheap below %.0f)\n",
            name, split_mode_name(kp->tile_split), prologue, classifier,
            plan_cheap_below(classifier));
}

static const kernel_plan *plan_of(const plan *pl, const kernel_info *k)
{
    for (unsigned i = 0; i < pl->nkernels; i++)
        if (pl->kernels[i].k == k)
            return &pl->kernels[i];
    return NULL;
}

static int plan_ok(const kernel_plan *kp)
{
    return kp && kp->nkernels > 0 && kp->nleaves <= PLAN_MAX_LEAVES && kp->errors == 0;
}

static void print_kernel(FILE *f, const analysis *an, const plan *pl, dispatch d,
                         const kernel_info *k, int full)
{
    const kernel_plan *kp = plan_of(pl, k);
    const char *skip = plan_skipped_why(pl, k);
    if (skip) {
        fprintf(f, "kernel %s: skipped (its decisions are inside loops, from line %u, and its "
                   "loop is not regrouped: %s)\n", k->name, k->loop_only, skip);
        return;
    }
    if (!k->legal || !plan_ok(kp)) {
        fprintf(f, "kernel %s: refused (see the diagnostics)\n", k->name);
        return;
    }
    fprintf(f, "kernel %s: can be split: %u leaves, %u leaf kernels, classifier slice of %u "
               "statements, strategy %s, dispatch %s\n",
            k->name, kp->nleaves, kp->nkernels, kp->nslice, strategy_name(kp->strategy),
            dispatch_name(d));
    if (kp->split == SPLIT_MODE_NEVER && kp->ndata == 0)
        fprintf(f, "  split: never: no decision depends on data (every condition is uniform or "
                   "affine, so the items of a SIMD group agree except at the borders); the driver "
                   "runs the original kernel\n");
    else if (kp->split == SPLIT_MODE_NEVER)
        fprintf(f, "  split: never: every leaf is too cheap to pay for the classifier (cost < %.0f); "
                   "the driver runs the original kernel\n", PLAN_CHEAP_LEAF);
    else if (kp->split == SPLIT_MODE_ADAPTIVE)
        fprintf(f, "  split: adaptive: the driver probes divergence (every 16th launch by default) "
                   "and runs the original kernel while few 32-item chunks mix leaves\n");
    print_tile_candidate(f, pl, d, kp);
    if (!full && kp->tile_candidate == AUTO_TILE_MACHINE && kp->machine.regroup < 0)
        print_left(f, an, k->ir, kp->machine.left, kp->machine.nleft); /* why none regroups */
    if (kp->merged_kernel >= 0)
        fprintf(f, "  merged: %u cheap leaves share %s" NPLUS1RT_SUFFIX_LEAF "%d, which runs the "
                   "original code\n", kp->nmerged, k->name, kp->merged_kernel);
    if (k->linear_ids)
        fprintf(f, "  local ids: %u sum%s get_group_id(d) * get_local_size(d) + "
                   "get_local_id(d) (the first at line %u), computed in the generated kernels "
                   "from the original's global id less its offset\n", k->linear_ids,
                k->linear_ids == 1 ? "" : "s", k->linear_id_line);
    if (!full)
        return;
    print_kept(f, kp);
    fputs("  condition tree:\n", f);
    print_seq(f, an, kp->decisions, &k->top, 2, 0);
    fputs("  leaves:\n", f);
    for (unsigned l = 0; l < kp->nleaves; l++) {
        const leaf *lf = &kp->leaves[l];
        if (lf->kernel >= 0)
            fprintf(f, "    leaf %u -> %s" NPLUS1RT_SUFFIX_LEAF "%d  lines %u-%u  cost ~%.0f%s\n",
                    l, k->name, lf->kernel, lf->line_begin, lf->line_end, lf->cost,
                    lf->returned ? "  (returns)" : "");
        else if (lf->impossible)
            fprintf(f, "    leaf %u dropped: impossible path (%s)  lines %u-%u\n", l,
                    lf->impossible, lf->line_begin, lf->line_end);
        else
            fprintf(f, "    leaf %u -> empty (no kernel, no bucket)  lines %u-%u\n", l,
                    lf->line_begin, lf->line_end);
        fprintf(f, "      when %s\n", lf->condition);
    }
    fprintf(f, "  classifier slice (cost ~%.0f per item):\n", kp->classifier_cost);
    int any = 0;
    report_ctx c = {f, an, kp, &any, 0, 0};
    for_each_item(&k->top, print_slice_item, &c);
    if (!any)
        fputs("    (nothing: the conditions read only parameters and ids)\n", f);
    fprintf(f, "  buckets: one index array of N entries, %u counters per work-group of %u\n",
            kp->nkernels, pl->opt.wg);
    if (kp->tile_candidate != AUTO_TILE_NONE) {
        print_context(f, kp);
        print_loop(f, an, kp);
        print_machine(f, an, kp, pl->opt.wg);
    }
    fputs("  divergence (one line per decision, in source order):\n", f);
    for_each_decision(&k->top, print_divergence, &c);
}

void report_print(FILE *f, const analysis *an, const plan *pl, dispatch d, int full)
{
    for (unsigned i = 0; i < an->nkernels; i++)
        print_kernel(f, an, pl, d, &an->kernels[i], full);
    for (unsigned i = 0; i < an->nskipped; i++)
        if (an->skipped_loop_line && an->skipped_loop_line[i])
            fprintf(f, "kernel %s: skipped (its decisions are inside loops, from line %u: "
                       "nplus1gen does not split those)\n",
                    an->skipped[i], an->skipped_loop_line[i]);
        else
            fprintf(f, "kernel %s: skipped (no decision to split)\n", an->skipped[i]);
}
