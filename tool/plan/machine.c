/* SPDX-License-Identifier: Apache-2.0 */
/*
 * machine.c - part of the plan stage: the regrouping state machine on the
 * kernel IR (machine.h). Regroup points by cost (the divergent work a round
 * saves at a visit, each arm weighed by how often it runs, against the
 * round), the item's context (the kernel's variables live at a regroup
 * point, ir_live.h), a machine without regroup points where only refilling
 * pays (a loop whose trip count is data dependent), what keeps the contexts
 * in place (a pointer into private state, local memory) and what blocks the
 * machine (each at its construct, with its rule).
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "ir_live.h"
#include "rules.h"
#include "util.h"

static int is_decision(const ir_node *n)
{
    return n->kind == IR_IF || n->kind == IR_SWITCH;
}

/* Whether a is n or one of n's ancestors. */
static int holds(const ir_node *a, const ir_node *n)
{
    for (; n; n = n->parent)
        if (n == a)
            return 1;
    return 0;
}

/* The arm of decision d that n (a node below d) lies in. */
static unsigned arm_of(const ir_node *d, const ir_node *n)
{
    while (n->parent && n->parent != d && !(d->kind == IR_SWITCH && n->parent == d->kids[0]))
        n = n->parent;
    if (d->kind == IR_IF)
        return n == d->kids[0] ? 0 : 1;
    unsigned j = 0;
    const ir_node *body = d->kids[0];
    while (j < body->nkids && body->kids[j] != n)
        j++;
    unsigned arm = 0;
    for (unsigned a = 0; a < d->narms; a++)
        if (!d->arms[a].implicit && d->arms[a].first <= j)
            arm = a;
    return arm;
}

/* What each arm of d runs, less the chosen regroup points directly inside it: left[narms]. */
static void arms_left(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen,
                      double *left)
{
    for (unsigned a = 0; a < d->narms; a++)
        left[a] = d->arms[a].cost;
    for (unsigned i = d->id + 1; i < ir->nnodes; i++) {
        const ir_node *p = ir->nodes[i];
        if (!chosen[i] || !holds(d, p))
            continue;
        int direct = 1; /* no chosen point between d and p */
        for (const ir_node *q = p->parent; q && q != d; q = q->parent)
            direct &= !chosen[q->id];
        if (direct)
            left[arm_of(d, p)] -= p->cost;
    }
    for (unsigned a = 0; a < d->narms; a++)
        left[a] = left[a] > 0 ? left[a] : 0;
}

/* The costliest arm of d, less the chosen regroup points directly inside each arm. */
static double residual(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen)
{
    double *left = xcalloc(d->narms ? d->narms : 1, sizeof *left);
    arms_left(ir, d, chosen, left);
    double max = 0;
    for (unsigned a = 0; a < d->narms; a++)
        if (left[a] > max)
            max = left[a];
    free(left);
    return max;
}

/* The trips a loop whose count is unknown is taken to run (the IR's cost assumes as many). */
#define MACHINE_DEFAULT_TRIPS 16.0

/* What the rule reads besides the IR: liveness, and which arms leave their loop. */
typedef struct machine_facts {
    const analysis *an;
    const kernel_info *k;
    const ir_kernel *ir;
    ir_live live;
    unsigned char **leaves;   /* per decision node: per arm, it leaves the innermost loop */
} machine_facts;

/* The innermost loop of the kernel's own text around n, or NULL. */
static const ir_node *loop_of(const ir_node *n)
{
    for (const ir_node *p = n->parent; p; p = p->parent)
        if (p->kind == IR_LOOP && p->frame == 0)
            return p;
    return NULL;
}

static double trips_of(const ir_node *loop)
{
    return loop->trips >= 1 ? (double)loop->trips
           : loop->trips == 0 ? 1.0
                              : MACHINE_DEFAULT_TRIPS;
}

static void facts_build(const analysis *an, const kernel_info *k, machine_facts *f)
{
    memset(f, 0, sizeof *f);
    f->an = an;
    f->k = k;
    f->ir = k->ir;
    ir_live_build(an, k, &f->live);
    f->leaves = xcalloc(f->ir->nnodes, sizeof *f->leaves);
    for (unsigned i = 0; i < f->ir->nnodes; i++) {
        const ir_node *n = f->ir->nodes[i];
        if (!is_decision(n) || n->frame != 0 || n->cond.divergence != DIV_DATA)
            continue;
        const ir_node *loop = loop_of(n);
        f->leaves[i] = xcalloc(n->narms ? n->narms : 1, 1);
        for (unsigned a = 0; loop && a < n->narms; a++)
            f->leaves[i][a] = (unsigned char)ir_arm_leaves_loop(an, k, n, a, loop);
    }
}

static void facts_free(machine_facts *f)
{
    for (unsigned i = 0; f->leaves && i < f->ir->nnodes; i++)
        free(f->leaves[i]);
    free(f->leaves);
    ir_live_free(&f->live);
}

/*
 * The rule: the divergent work a round at decision d saves at a visit. Without the round
 * a lane waits for the arms it does not take; statically each arm is taken as often as
 * the others, so arm a's work (less the regroup points inside it) weighs 1 - 1/narms. An
 * arm that leaves d's loop (break, return, the loop's flag) runs at most once a loop
 * execution while d is reached at every iteration: its work weighs 1/trips (the loop's
 * constant trip count, MACHINE_DEFAULT_TRIPS when unknown). *leaving: the weighed work of
 * the arms that leave, of the total.
 */
static double saved_at(const machine_facts *f, const ir_node *d, const unsigned char *chosen,
                       double *leaving)
{
    double *left = xcalloc(d->narms ? d->narms : 1, sizeof *left);
    arms_left(f->ir, d, chosen, left);
    const ir_node *loop = loop_of(d);
    double saved = 0, out = 0;
    for (unsigned a = 0; a < d->narms; a++) {
        int leaves = loop && f->leaves && f->leaves[d->id] && f->leaves[d->id][a];
        double w = leaves ? 1.0 / trips_of(loop) : 1.0 - 1.0 / (double)d->narms;
        saved += w * left[a];
        out += leaves ? w * left[a] : 0;
    }
    free(left);
    if (leaving)
        *leaving = out;
    return saved;
}

static unsigned loops_around(const ir_node *n)
{
    unsigned k = 0;
    for (const ir_node *p = n->parent; p; p = p->parent)
        k += p->kind == IR_LOOP && p->frame == n->frame;
    return k;
}

/* Whether variable v (index vi) is the kernel's own local whose scope holds a chosen point,
 * and (live) live there: read on some path after the point before it is set again. */
static int in_context(const machine_facts *f, unsigned vi, const unsigned char *chosen, int live)
{
    const ir_kernel *ir = f->ir;
    const ir_var *v = &ir->vars[vi];
    if (v->frame != 0 || (v->flags & (IR_VAR_PARAM | IR_VAR_RETURN)))
        return 0;
    const ir_node *scope = v->scope < ir->nnodes ? ir->nodes[v->scope] : NULL;
    for (unsigned i = 0; scope && i < ir->nnodes; i++)
        if (chosen[i] && holds(scope, ir->nodes[i]) && (!live || ir_live_at(&f->live, i, vi)))
            return 1;
    return 0;
}

static unsigned context_bytes(const machine_facts *f, const unsigned char *chosen, int live)
{
    const ir_kernel *ir = f->ir;
    unsigned bytes = 8; /* the state and the item */
    for (unsigned i = 0; i < ir->nnodes; i++)
        bytes += chosen[i] && ir->nodes[i]->kind == IR_SWITCH ? 8 : 0;
    for (unsigned i = 0; i < ir->nvars; i++)
        if (in_context(f, i, chosen, live) && ir->vars[i].size > 0)
            bytes += (unsigned)((ir->vars[i].size + 3) / 4 * 4);
    return bytes;
}

static double round_cost_of(unsigned bytes)
{
    return REGROUP_MOVE_COST * (double)bytes / 4.0 + REGROUP_ROUND_COST;
}

/* Chooses the regroup points under round (innermost first): chosen[] by node id. */
static void choose(const machine_facts *f, double round, unsigned char *chosen)
{
    const ir_kernel *ir = f->ir;
    memset(chosen, 0, ir->nnodes);
    for (unsigned i = ir->nnodes; i-- > 0;) {
        const ir_node *n = ir->nodes[i];
        if (!is_decision(n) || n->frame != 0 || n->cond.divergence != DIV_DATA)
            continue;
        if (saved_at(f, n, chosen, NULL) >= round)
            chosen[i] = 1;
    }
}

static void add_blocker(machine_plan *mp, src_range at, const char *rule, const char *fmt,
                        const char *name)
{
    machine_blocker b;
    memset(&b, 0, sizeof b);
    b.at = at;
    char msg[200];
    snprintf(msg, sizeof msg, fmt, name);
    snprintf(b.msg, sizeof b.msg, "%s [%s]", msg, rule);
    unsigned cap = mp->nblockers;
    VEC_PUSH(mp->blockers, mp->nblockers, cap, b);
}

/* The type spelling without its top-level const ("const int" -> "int"). */
static char *unconst(const char *type)
{
    char *t = xstrdup(type);
    char *pv;
    while ((pv = strstr(t, "__private")) != NULL) { /* a local's address space, as spelled */
        size_t skip = 9 + (pv[9] == ' ');
        memmove(pv, pv + skip, strlen(pv + skip) + 1);
    }
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ')
        t[--n] = '\0';
    if (!strchr(t, '*') && !strncmp(t, "const ", 6))
        memmove(t, t + 6, n - 5);
    n = strlen(t);
    if (n > 6 && !strcmp(t + n - 6, " const"))
        t[n - 6] = '\0';
    return t;
}

/* "float t", "int stack[16]": the member's declaration from the type's spelling. */
static char *member_decl(const char *type, const char *member)
{
    char *t = unconst(type);
    strbuf sb;
    sb_init(&sb);
    char *br = strchr(t, '[');
    if (br) {
        size_t n = (size_t)(br - t);
        while (n && t[n - 1] == ' ')
            n--;
        sb_putn(&sb, t, n);
        sb_printf(&sb, " %s%s", member, br);
    } else {
        sb_printf(&sb, "%s%s%s", t, t[0] && t[strlen(t) - 1] == '*' ? "" : " ", member);
    }
    free(t);
    return sb_steal(&sb);
}

/* A pointer whose type names no address space points into private memory. */
static int private_pointer(const ir_var *v)
{
    if (!(v->flags & IR_VAR_POINTER))
        return 0;
    static const char *const spaces[] = {"global", "constant", "local"};
    for (unsigned i = 0; i < 3; i++)
        if (strstr(v->type, spaces[i]))
            return 0;
    return 1;
}

static const char *bare(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

static void note_left(const machine_facts *f, const ir_node *n, const unsigned char *chosen,
                      double round, machine_plan *mp)
{
    const ir_kernel *ir = f->ir;
    machine_left l;
    memset(&l, 0, sizeof l);
    l.node = n->id;
    l.line = n->line;
    double res = residual(ir, n, chosen);
    const ir_node *inner = NULL;
    for (unsigned i = n->id + 1; i < ir->nnodes && !inner; i++)
        if (chosen[i] && holds(n, ir->nodes[i]))
            inner = ir->nodes[i];
    if (n->cond.divergence != DIV_DATA)
        snprintf(l.why, sizeof l.why, "%s: every item of a SIMD group takes the same arm "
                 "(or only the groups at a border differ)", div_class_name(n->cond.divergence));
    else if (n->frame != 0)
        snprintf(l.why, sizeof l.why, "in helper '%s' inlined at line %u: the state machine "
                 "regroups the kernel's own text, not a helper's (its costliest arm about %.0f "
                 "operations, a round about %.0f)",
                 ir->nodes[n->frame]->call.name, ir->nodes[n->frame]->line, res, round);
    else {
        /* the round it would pay: the context with it a regroup point too */
        unsigned char *with = xcalloc(ir->nnodes, 1);
        memcpy(with, chosen, ir->nnodes);
        with[n->id] = 1;
        round = round_cost_of(context_bytes(f, with, 1));
        free(with);
        double leaving, saved = saved_at(f, n, chosen, &leaving);
        const ir_node *loop = loop_of(n);
        double *left = xcalloc(n->narms ? n->narms : 1, sizeof *left);
        arms_left(ir, n, chosen, left);
        unsigned costliest = 0;
        for (unsigned a = 1; a < n->narms; a++)
            if (left[a] > left[costliest])
                costliest = a;
        int costly_leaves = loop && n->narms && f->leaves[n->id][costliest] && left[costliest] > 0;
        free(left);
        if (inner)
            snprintf(l.why, sizeof l.why, "the regroup point inside it (line %u) regroups its "
                     "costly part; the rest saves about %.0f operations a visit (its costliest "
                     "arm about %.0f), less than a round (about %.0f)", inner->line, saved, res,
                     round);
        else if (costly_leaves)
            snprintf(l.why, sizeof l.why, "its costly arm leaves the loop at line %u: it runs "
                     "once an item (about %.0f operations, %.0f a visit over %.0f trips), "
                     "against a round at every iteration (about %.0f); its arms save about "
                     "%.0f a visit", loop->line, res, leaving ? res / trips_of(loop) : 0,
                     trips_of(loop), round, saved);
        else
            snprintf(l.why, sizeof l.why, "cheap against a round: its arms save about %.0f "
                     "operations a visit (its costliest arm about %.0f, which the lanes of the "
                     "other %u arm%s wait for), a regrouping round about %.0f", saved, res,
                     n->narms > 1 ? n->narms - 1 : 1, n->narms > 2 ? "s" : "", round);
    }
    unsigned cap = mp->nleft;
    VEC_PUSH(mp->left, mp->nleft, cap, l);
}

/*
 * A machine without regroup points (issue 28 item 3): where no decision pays for a round
 * but a loop of the kernel's own text runs a data-dependent number of trips (its condition
 * is data dependent, or a data decision's arm leaves it), each lane runs its items to
 * their ends one after the other and takes the next item of the tile (refill only), which
 * evens out the trip counts of a SIMD group's items (a loop with a constant trip count
 * counts only when an arm leaves it). Refilling pays when half the loop's
 * work (what a lane waits, statically, for the longest item of its group) costs a round
 * without context (the refill's counter and the item's start cost less). Only for a kernel
 * whose decisions all sit in loops (the top-level tile splits the others). 1: built.
 */
static int refill_machine(const machine_facts *f, machine_plan *mp)
{
    const ir_kernel *ir = f->ir;
    if (!f->k->loop_only)
        return 0;
    const ir_node *best = NULL;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *l = ir->nodes[i];
        if (l->kind != IR_LOOP || l->frame != 0)
            continue;
        /* a constant trip count under a data arm is that arm's divergence, not the loop's */
        int data = l->trips < 0 && l->cond.divergence == DIV_DATA;
        for (unsigned j = i + 1; j < ir->nnodes && !data && holds(l, ir->nodes[j]); j++)
            for (unsigned a = 0; f->leaves[j] && a < ir->nodes[j]->narms; a++)
                data |= loop_of(ir->nodes[j]) == l && f->leaves[j][a];
        if (data && (!best || l->cost > best->cost))
            best = l;
    }
    if (!best)
        return 0;
    double saved = best->cost / 2, round = REGROUP_ROUND_COST;
    if (saved < round) {
        snprintf(mp->why, sizeof mp->why, "no decision pays for a regrouping round, and "
                 "refilling does not pay either: the loop at line %u, whose trip count is data "
                 "dependent, takes about %.0f operations an item, half of it (what a lane "
                 "waits for the longest item of its group) against a refill's %.0f",
                 best->line, best->cost, round);
        return 0;
    }
    mp->refill_loop = best->id + 1;
    mp->ngroups = 1;
    mp->bytes = mp->bytes_scope = 8;
    mp->round_cost = round;
    mp->arm_cost = saved;
    mp->in_place = 1;
    snprintf(mp->in_place_why, sizeof mp->in_place_why,
             "no regroup point: no decision pays for a round, but the loop at line %u runs a "
             "data-dependent number of trips (about %.0f operations an item; a lane waits "
             "about %.0f for its group's longest item, a refill costs about %.0f): each lane "
             "runs its items to their ends and takes the next (refill only)",
             best->line, best->cost, saved, round);
    mp->active = 1;
    return 1;
}

void machine_build(const analysis *an, const kernel_info *k, unsigned wg, machine_plan *mp)
{
    memset(mp, 0, sizeof *mp);
    const ir_kernel *ir = k->ir;
    if (!ir || !ir->root || !ir->nnodes)
        return;
    machine_facts f;
    facts_build(an, k, &f);
    unsigned char *chosen = xcalloc(ir->nnodes, 1);
    /* two passes: the round's cost depends on the context, the context on the points */
    for (unsigned i = 0; i < ir->nnodes; i++)
        chosen[i] = is_decision(ir->nodes[i]) && ir->nodes[i]->frame == 0 &&
                    ir->nodes[i]->cond.divergence == DIV_DATA;
    double round = round_cost_of(context_bytes(&f, chosen, 1));
    choose(&f, round, chosen);
    round = round_cost_of(context_bytes(&f, chosen, 1));
    choose(&f, round, chosen);
    /* the second pass's context can be larger than the one it chose under: drop the points
     * that do not pay for the final round (a smaller context only lowers it) */
    for (int dropped = 1; dropped;) {
        round = round_cost_of(context_bytes(&f, chosen, 1));
        dropped = 0;
        for (unsigned i = ir->nnodes; i-- > 0;)
            if (chosen[i] && saved_at(&f, ir->nodes[i], chosen, NULL) < round)
                chosen[i] = 0, dropped = 1;
    }
    mp->bytes = context_bytes(&f, chosen, 1);
    mp->bytes_scope = context_bytes(&f, chosen, 0);
    mp->round_cost = round_cost_of(mp->bytes);
    unsigned in_loop = 0;
    double most_saved = 0;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        if (!is_decision(n))
            continue;
        if (!chosen[i]) {
            note_left(&f, n, chosen, mp->round_cost, mp);
            continue;
        }
        machine_point p;
        memset(&p, 0, sizeof p);
        p.node = i;
        p.line = n->line;
        p.first = mp->ngroups;
        p.narms = n->narms;
        p.cost = residual(ir, n, chosen);
        p.saved = saved_at(&f, n, chosen, NULL);
        p.depth = loops_around(n);
        in_loop += p.depth > 0;
        mp->ngroups += p.narms;
        if (p.cost > mp->arm_cost)
            mp->arm_cost = p.cost;
        if (p.saved > most_saved)
            most_saved = p.saved;
        unsigned cap = mp->npoints;
        VEC_PUSH(mp->points, mp->npoints, cap, p);
        if (n->cond.range.file != ir->root->range.file || n->cond.range.end <= n->cond.range.begin ||
            n->range.file != ir->root->range.file || n->kids[0]->range.file != n->range.file)
            add_blocker(mp, n->range, rule_name(RULE_MACRO_DECISION),
                        "the regroup point%s is spelled by a macro: its arms cannot be cut", "");
    }
    if (!mp->npoints && refill_machine(&f, mp)) {
        free(chosen);
        facts_free(&f);
        return;
    }
    if (!mp->npoints || !in_loop) {
        if (!mp->why[0] || mp->npoints)
            snprintf(mp->why, sizeof mp->why, "%s",
                     mp->npoints ? "no regroup point sits inside a loop: the tile splits the "
                                   "kernel's top level"
                                 : "no data-dependent decision of the kernel's own text saves "
                                   "the work of a regrouping round");
        if (!mp->npoints)
            mp->why[0] = mp->nleft ? mp->why[0] : '\0';
        free(chosen);
        facts_free(&f);
        return;
    }
    if (ir->truncated)
        add_blocker(mp, ir->root->range, rule_name(RULE_UNSUPPORTED),
                    "helpers nested too deep to inline%s", "");
    /* the context: the kernel's variables live at a regroup point (ir_live.h) */
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if (v->frame == 0 && (v->flags & IR_VAR_PARAM) && (v->flags & IR_VAR_WRITTEN))
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "parameter '%s' is assigned in the body: an item's copy of a parameter "
                        "does not move with its context", v->name);
        if (!in_context(&f, i, chosen, 1))
            continue;
        if (v->refs_hidden)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "variable '%s' is named inside a macro's own text: it cannot be "
                        "renamed into the item's context", v->name);
        else if (!v->decl_stmt.end)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "the declaration of '%s' is not a plain declaration statement", v->name);
        else if ((v->flags & IR_VAR_ARRAY) && v->init.end > v->init.begin)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "array '%s' has an initialiser: a declaration cannot become an "
                        "assignment", v->name);
        else if (v->size <= 0)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "variable '%s' has a type of unknown size", v->name);
        if (private_pointer(v) && !mp->in_place)
            snprintf(mp->in_place_why, sizeof mp->in_place_why,
                     "pointer '%s' (line %u) may point into the item's private state, which "
                     "cannot move to another lane: each item stays in its lane (refill only)",
                     v->name, v->range.line);
        mp->in_place |= private_pointer(v);
        machine_var mv;
        memset(&mv, 0, sizeof mv);
        mv.var = i;
        unsigned same = 0;
        for (unsigned j = 0; j < mp->nvars; j++)
            same += !strcmp(bare(ir->vars[mp->vars[j].var].name), bare(v->name));
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, bare(v->name));
        if (same)
            sb_printf(&sb, "_nplus1_%u", i);
        mv.member = sb_steal(&sb);
        mv.decl = member_decl(v->type, mv.member);
        unsigned cap = mp->nvars;
        VEC_PUSH(mp->vars, mp->nvars, cap, mv);
    }
    free(chosen);
    facts_free(&f);
    if ((unsigned long)mp->bytes * wg > MACHINE_LOCAL_BUDGET && !mp->in_place) {
        mp->in_place = 1;
        snprintf(mp->in_place_why, sizeof mp->in_place_why,
                 "its context takes %u bytes an item, %lu a work-group of %u: over the %u-byte "
                 "budget of local memory, so each item stays in its lane (refill only)",
                 mp->bytes, (unsigned long)mp->bytes * wg, wg, MACHINE_LOCAL_BUDGET);
    }
    mp->regroup = mp->in_place ? 0 : most_saved >= mp->round_cost;
    if (mp->nblockers) {
        snprintf(mp->why, sizeof mp->why, "%u blocker%s of the state machine (below)",
                 mp->nblockers, mp->nblockers > 1 ? "s" : "");
        return;
    }
    mp->active = 1;
}

const machine_point *machine_group(const machine_plan *mp, unsigned g, unsigned *arm)
{
    for (unsigned i = 0; i < mp->npoints; i++)
        if (g >= mp->points[i].first && g < mp->points[i].first + mp->points[i].narms) {
            *arm = g - mp->points[i].first;
            return &mp->points[i];
        }
    *arm = 0;
    return NULL;
}

char *machine_group_text(const analysis *an, const kernel_info *k, const machine_plan *mp,
                         unsigned g)
{
    (void)an;
    unsigned arm;
    const machine_point *p = machine_group(mp, g, &arm);
    strbuf sb;
    sb_init(&sb);
    if (!p && mp->refill_loop && g == 0)
        sb_printf(&sb, "loop at line %u: each item to its end (no regroup point, refill only)",
                  k->ir->nodes[mp->refill_loop - 1]->line);
    if (!p)
        return sb_steal(&sb);
    const ir_node *n = k->ir->nodes[p->node];
    if (n->kind == IR_IF) {
        sb_printf(&sb, "if at line %u: %s", p->line,
                  arm == 0 ? "then" : n->arms[1].implicit ? "no branch (implicit else)" : "else");
    } else {
        const ir_arm *a = &n->arms[arm];
        sb_printf(&sb, "switch at line %u: %s", p->line,
                  a->implicit ? "no case (implicit default)"
                  : a->labels ? a->labels
                              : "default");
    }
    return sb_steal(&sb);
}

void machine_free(machine_plan *mp)
{
    for (unsigned i = 0; i < mp->nvars; i++) {
        free(mp->vars[i].member);
        free(mp->vars[i].decl);
    }
    free(mp->vars);
    free(mp->points);
    free(mp->left);
    free(mp->blockers);
    memset(mp, 0, sizeof *mp);
}
