/* SPDX-License-Identifier: Apache-2.0 */
/*
 * machine.c - part of the plan stage: the regrouping state machine on the
 * kernel IR (machine.h). Regroup points by cost (the costliest arm, less the
 * regroup points inside it, against a round), the item's context (the
 * kernel's variables whose scope holds a regroup point), what keeps the
 * contexts in place (a pointer into private state, local memory) and what
 * blocks the machine (each at its construct, with its rule).
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
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

/* The costliest arm of d, less the chosen regroup points directly inside each arm. */
static double residual(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen)
{
    double *left = xcalloc(d->narms ? d->narms : 1, sizeof *left);
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
    double max = 0;
    for (unsigned a = 0; a < d->narms; a++)
        if (left[a] > max)
            max = left[a];
    free(left);
    return max;
}

static unsigned loops_around(const ir_node *n)
{
    unsigned k = 0;
    for (const ir_node *p = n->parent; p; p = p->parent)
        k += p->kind == IR_LOOP && p->frame == n->frame;
    return k;
}

/* Whether variable v is the kernel's own local whose scope holds a chosen point. */
static int in_context(const ir_kernel *ir, const ir_var *v, const unsigned char *chosen)
{
    if (v->frame != 0 || (v->flags & (IR_VAR_PARAM | IR_VAR_RETURN)))
        return 0;
    const ir_node *scope = v->scope < ir->nnodes ? ir->nodes[v->scope] : NULL;
    for (unsigned i = 0; scope && i < ir->nnodes; i++)
        if (chosen[i] && holds(scope, ir->nodes[i]))
            return 1;
    return 0;
}

static unsigned context_bytes(const ir_kernel *ir, const unsigned char *chosen)
{
    unsigned bytes = 8; /* the state and the item */
    for (unsigned i = 0; i < ir->nnodes; i++)
        bytes += chosen[i] && ir->nodes[i]->kind == IR_SWITCH ? 8 : 0;
    for (unsigned i = 0; i < ir->nvars; i++)
        if (in_context(ir, &ir->vars[i], chosen) && ir->vars[i].size > 0)
            bytes += (unsigned)((ir->vars[i].size + 3) / 4 * 4);
    return bytes;
}

static double round_cost_of(unsigned bytes)
{
    return REGROUP_MOVE_COST * (double)bytes / 4.0 + REGROUP_ROUND_COST;
}

/* Chooses the regroup points under round (innermost first): chosen[] by node id. */
static void choose(const ir_kernel *ir, double round, unsigned char *chosen)
{
    memset(chosen, 0, ir->nnodes);
    for (unsigned i = ir->nnodes; i-- > 0;) {
        const ir_node *n = ir->nodes[i];
        if (!is_decision(n) || n->frame != 0 || n->cond.divergence != DIV_DATA)
            continue;
        if (residual(ir, n, chosen) >= round)
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

static void note_left(const analysis *an, const ir_kernel *ir, const ir_node *n,
                      const unsigned char *chosen, double round, machine_plan *mp)
{
    (void)an;
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
    else if (inner)
        snprintf(l.why, sizeof l.why, "the regroup point inside it (line %u) regroups its "
                 "costly part; the rest of its costliest arm, about %.0f operations, costs "
                 "less than a round (about %.0f)", inner->line, res, round);
    else
        snprintf(l.why, sizeof l.why, "cheap against a round: its costliest arm takes about "
                 "%.0f operations, a regrouping round about %.0f", res, round);
    unsigned cap = mp->nleft;
    VEC_PUSH(mp->left, mp->nleft, cap, l);
}

void machine_build(const analysis *an, const kernel_info *k, unsigned wg, machine_plan *mp)
{
    memset(mp, 0, sizeof *mp);
    const ir_kernel *ir = k->ir;
    if (!ir || !ir->root || !ir->nnodes)
        return;
    unsigned char *chosen = xcalloc(ir->nnodes, 1);
    /* two passes: the round's cost depends on the context, the context on the points */
    for (unsigned i = 0; i < ir->nnodes; i++)
        chosen[i] = is_decision(ir->nodes[i]) && ir->nodes[i]->frame == 0 &&
                    ir->nodes[i]->cond.divergence == DIV_DATA;
    double round = round_cost_of(context_bytes(ir, chosen));
    choose(ir, round, chosen);
    round = round_cost_of(context_bytes(ir, chosen));
    choose(ir, round, chosen);
    /* the second pass's context can be larger than the one it chose under: drop the points
     * that do not pay for the final round (a smaller context only lowers it) */
    for (int dropped = 1; dropped;) {
        round = round_cost_of(context_bytes(ir, chosen));
        dropped = 0;
        for (unsigned i = ir->nnodes; i-- > 0;)
            if (chosen[i] && residual(ir, ir->nodes[i], chosen) < round)
                chosen[i] = 0, dropped = 1;
    }
    mp->bytes = context_bytes(ir, chosen);
    mp->round_cost = round_cost_of(mp->bytes);
    unsigned in_loop = 0;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        if (!is_decision(n))
            continue;
        if (!chosen[i]) {
            note_left(an, ir, n, chosen, mp->round_cost, mp);
            continue;
        }
        machine_point p;
        memset(&p, 0, sizeof p);
        p.node = i;
        p.line = n->line;
        p.first = mp->ngroups;
        p.narms = n->narms;
        p.cost = residual(ir, n, chosen);
        p.depth = loops_around(n);
        in_loop += p.depth > 0;
        mp->ngroups += p.narms;
        if (p.cost > mp->arm_cost)
            mp->arm_cost = p.cost;
        unsigned cap = mp->npoints;
        VEC_PUSH(mp->points, mp->npoints, cap, p);
        if (n->cond.range.file != ir->root->range.file || n->cond.range.end <= n->cond.range.begin ||
            n->range.file != ir->root->range.file || n->kids[0]->range.file != n->range.file)
            add_blocker(mp, n->range, rule_name(RULE_MACRO_DECISION),
                        "the regroup point%s is spelled by a macro: its arms cannot be cut", "");
    }
    if (!mp->npoints || !in_loop) {
        snprintf(mp->why, sizeof mp->why, "%s",
                 mp->npoints ? "no regroup point sits inside a loop: the tile splits the "
                               "kernel's top level"
                             : "no data-dependent decision of the kernel's own text has an arm "
                               "that costs a regrouping round");
        if (!mp->npoints)
            mp->why[0] = mp->nleft ? mp->why[0] : '\0';
        free(chosen);
        return;
    }
    if (ir->truncated)
        add_blocker(mp, ir->root->range, rule_name(RULE_UNSUPPORTED),
                    "helpers nested too deep to inline%s", "");
    /* the context: the kernel's variables whose scope holds a regroup point */
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if (v->frame == 0 && (v->flags & IR_VAR_PARAM) && (v->flags & IR_VAR_WRITTEN))
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "parameter '%s' is assigned in the body: an item's copy of a parameter "
                        "does not move with its context", v->name);
        if (!in_context(ir, v, chosen))
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
    if ((unsigned long)mp->bytes * wg > MACHINE_LOCAL_BUDGET && !mp->in_place) {
        mp->in_place = 1;
        snprintf(mp->in_place_why, sizeof mp->in_place_why,
                 "its context takes %u bytes an item, %lu a work-group of %u: over the %u-byte "
                 "budget of local memory, so each item stays in its lane (refill only)",
                 mp->bytes, (unsigned long)mp->bytes * wg, wg, MACHINE_LOCAL_BUDGET);
    }
    mp->regroup = mp->in_place ? 0 : mp->arm_cost >= mp->round_cost;
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
