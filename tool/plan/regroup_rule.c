/* SPDX-License-Identifier: Apache-2.0 */
/*
 * regroup_rule.c - the cost rule of regrouping on the IR (regroup_rule.h),
 * shared by the state machine and the loop kernel.
 */
#include "regroup_rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "ir_live.h"
#include "util.h"

/* The work a trip must compute for each global load it makes for refilling to pay: about a
 * load's latency, which the original hides with NPLUS1_TILE_IPT times more work-items than
 * the refilling tile. Between the measured cases (H200): a trip of about 20 operations a
 * load lost (0.84x), of about 18 (bvh_stack, five loads) 0.93x, of about 980 won (the
 * private stack with a costly leaf test, 1.27x). */
#define REFILL_WORK_PER_LOAD 256.0

static int is_data_decision(const ir_node *n)
{
    return (n->kind == IR_IF || n->kind == IR_SWITCH) && n->cond.divergence == DIV_DATA;
}

const ir_node *regroup_loop_of(const ir_node *n)
{
    for (const ir_node *p = n->parent; p; p = p->parent)
        if (p->kind == IR_LOOP && p->frame == n->frame)
            return p;
    return NULL;
}

double regroup_trips_of(const ir_node *loop)
{
    return loop->trips >= 1 ? (double)loop->trips
           : loop->trips == 0 ? 1.0
                              : (double)IR_UNKNOWN_TRIPS;
}

void regroup_facts_build(const analysis *an, const kernel_info *k, regroup_facts *f)
{
    memset(f, 0, sizeof *f);
    f->an = an;
    f->k = k;
    f->ir = k->ir;
    f->leaves = xcalloc(f->ir->nnodes ? f->ir->nnodes : 1, sizeof *f->leaves);
    for (unsigned i = 0; i < f->ir->nnodes; i++) {
        const ir_node *n = f->ir->nodes[i];
        /* a helper's decision too (ir_arm_leaves_loop: a break of, or a return from, the
         * helper whose loop it is; a flag of the helper is not seen: its arms weigh as
         * staying) */
        if (!is_data_decision(n))
            continue;
        const ir_node *loop = regroup_loop_of(n);
        f->leaves[i] = xcalloc(n->narms ? n->narms : 1, 1);
        for (unsigned a = 0; loop && a < n->narms; a++)
            f->leaves[i][a] = (unsigned char)ir_arm_leaves_loop(an, k, n, a, loop);
    }
}

void regroup_facts_free(regroup_facts *f)
{
    for (unsigned i = 0; f->leaves && i < f->ir->nnodes; i++)
        free(f->leaves[i]);
    free(f->leaves);
    memset(f, 0, sizeof *f);
}

int regroup_in_arm(const ir_node *d, const ir_node *n)
{
    for (const ir_node *q = n; q; q = q->parent)
        if (q->parent == d)
            return q->kind != IR_CALL;
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

void regroup_arms_left(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen,
                       double *left)
{
    for (unsigned a = 0; a < d->narms; a++)
        left[a] = d->arms[a].cost;
    for (unsigned i = d->id + 1; chosen && i < ir->nnodes; i++) {
        const ir_node *p = ir->nodes[i];
        if (!chosen[i] || !regroup_in_arm(d, p))
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

double regroup_residual(const ir_kernel *ir, const ir_node *d, const unsigned char *chosen)
{
    double *left = xcalloc(d->narms ? d->narms : 1, sizeof *left);
    regroup_arms_left(ir, d, chosen, left);
    double max = 0;
    for (unsigned a = 0; a < d->narms; a++)
        if (left[a] > max)
            max = left[a];
    free(left);
    return max;
}

/*
 * The rule: the divergent work a round at decision d saves at a visit. Without the round
 * a lane waits for the arms it does not take; statically each arm is taken as often as
 * the others, so arm a's work (less the regroup points inside it) weighs 1 - 1/narms. An
 * arm that leaves d's loop (break, return, the loop's flag) runs at most once a loop
 * execution while d is reached at every iteration: its work weighs 1/trips (the loop's
 * constant trip count, IR_UNKNOWN_TRIPS when unknown).
 */
double regroup_saved_at(const regroup_facts *f, const ir_node *d, const unsigned char *chosen,
                        double *leaving)
{
    double *left = xcalloc(d->narms ? d->narms : 1, sizeof *left);
    regroup_arms_left(f->ir, d, chosen, left);
    const ir_node *loop = regroup_loop_of(d);
    double saved = 0, out = 0;
    for (unsigned a = 0; a < d->narms; a++) {
        int leaves = loop && f->leaves && f->leaves[d->id] && f->leaves[d->id][a];
        double w = leaves ? 1.0 / regroup_trips_of(loop) : 1.0 - 1.0 / (double)d->narms;
        saved += w * left[a];
        out += leaves ? w * left[a] : 0;
    }
    free(left);
    if (leaving)
        *leaving = out;
    return saved;
}

double regroup_round_of(unsigned bytes)
{
    return REGROUP_MOVE_COST * (double)bytes / 4.0 + REGROUP_ROUND_COST;
}


int regroup_ref_writes(const char *t, unsigned off, size_t len)
{
    const char *a = t + off + len;
    while (*a == ' ' || *a == '\t')
        a++;
    unsigned b = off;
    while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
        b--;
    if ((a[0] == '+' && a[1] == '+') || (a[0] == '-' && a[1] == '-'))
        return 1;
    if (b > 1 && ((t[b - 1] == '+' && t[b - 2] == '+') || (t[b - 1] == '-' && t[b - 2] == '-')))
        return 1;
    if (b > 0 && t[b - 1] == '&' && (b < 2 || t[b - 2] != '&'))
        return 1;
    const int deref = b > 0 && t[b - 1] == '*';
    if (a[0] == '=' && a[1] != '=')
        return !deref;
    if (a[0] && strchr("+-*/%&|^", a[0]) && a[1] == '=')
        return !deref;
    if ((a[0] == '<' && a[1] == '<' && a[2] == '=') || (a[0] == '>' && a[1] == '>' && a[2] == '='))
        return !deref;
    return 0;
}

/* Whether loop's test reads data that changes from trip to trip: it loads memory, or it
 * reads a variable its body may change (the counter a for's third part steps is not in
 * the body: `p < paths` reads none). */
static int test_reads_data(const regroup_facts *f, const ir_node *loop)
{
    const ir_kernel *ir = f->ir;
    const src_range c = loop->cond.range, b = loop->nkids ? loop->kids[0]->range : c;
    if (loop->cond.fx.nloads)
        return 1;
    if (c.end <= c.begin || b.end <= b.begin)
        return 0;
    const char *t = f->an->pr->files[b.file].text;
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        const char *dot = strrchr(v->name, '.');
        const size_t len = strlen(dot ? dot + 1 : v->name);
        int in_test = 0, changed = 0;
        for (unsigned r = 0; r < v->nrefs; r++) {
            in_test |= c.file == b.file && v->refs[r] >= c.begin && v->refs[r] < c.end;
            changed |= v->refs[r] >= b.begin && v->refs[r] < b.end &&
                       regroup_ref_writes(t, v->refs[r], len);
        }
        if (v->frame == loop->frame && in_test && (changed || v->refs_hidden))
            return 1;
    }
    return 0;
}

/* Whether decision d sits in loop's body with no data decision between them. */
static int at_top_of(const ir_node *loop, const ir_node *d)
{
    for (const ir_node *q = d->parent; q && q != loop; q = q->parent)
        if ((q->kind == IR_IF || q->kind == IR_SWITCH) && q->cond.divergence == DIV_DATA)
            return 0;
    return 1;
}

/* Whether arm a of data decision d leaves loop by itself: it leaves (a break, a return, the
 * loop's flag: ir_arm_leaves_loop) and no data decision inside it holds the leaving arm. */
static int arm_leaves_by_itself(const regroup_facts *f, const ir_node *d, unsigned a,
                                const ir_node *loop)
{
    const ir_kernel *ir = f->ir;
    if (!f->leaves[d->id] || !f->leaves[d->id][a])
        return 0;
    for (unsigned j = d->id + 1; j < ir->nnodes && ir_holds(d, ir->nodes[j]); j++) {
        const ir_node *e = ir->nodes[j];
        if (!f->leaves[j] || regroup_loop_of(e) != loop || !regroup_in_arm(d, e))
            continue;
        unsigned arm = 0;
        for (const ir_node *q = e; q->parent; q = q->parent)
            if (q->parent == d) {
                arm = d->kind == IR_IF ? (q == d->kids[0] ? 0 : 1) : a;
                break;
            }
        if (arm != a)
            continue;
        for (unsigned b = 0; b < e->narms; b++)
            if (f->leaves[j][b])
                return 0;
    }
    return 1;
}

refill_verdict regroup_refill_pays(const regroup_facts *f, const ir_node *loop, double *waits,
                                   double *refill, char *why, size_t n)
{
    const ir_kernel *ir = f->ir;
    /* a constant trip count under a data arm is that arm's divergence, not the loop's; an
     * arm leaves the loop at a data-dependent trip where a data decision at the top of the
     * body leaves it by itself (one under another data decision's arm leaves it rarely) */
    int data = loop->trips < 0 && loop->cond.divergence == DIV_DATA && test_reads_data(f, loop);
    const ir_node *leaving = NULL;
    for (unsigned j = loop->id + 1; j < ir->nnodes && !data && ir_holds(loop, ir->nodes[j]); j++) {
        const ir_node *d = ir->nodes[j];
        for (unsigned a = 0; is_data_decision(d) && a < d->narms && !leaving; a++)
            if (regroup_loop_of(d) == loop && at_top_of(loop, d) &&
                arm_leaves_by_itself(f, d, a, loop))
                leaving = d;
    }
    data |= leaving != NULL;
    *waits = loop->cost / 2;
    *refill = REGROUP_ROUND_COST;
    const double trips = regroup_trips_of(loop), trip = trips > 0 ? loop->cost / trips : 0;
    if (!data) {
        if (why)
            snprintf(why, n, "the loop at line %u runs as many trips in every item of a SIMD "
                     "group, statically (%s, and no data-dependent decision at the top of its "
                     "body leaves it by itself): refilling evens out nothing", loop->line,
                     loop->trips >= 0 ? "its trip count is constant"
                                      : "its test reads nothing that changes from trip to trip");
        return REFILL_EVEN_TRIPS;
    }
    if (loop->fx.nloads && trip < REFILL_WORK_PER_LOAD * (double)loop->fx.nloads) {
        if (why)
            snprintf(why, n, "the loop at line %u runs a data-dependent number of trips, but a "
                     "trip computes about %.0f operations for %u global load%s (less than %.0f a "
                     "load): refilled, a lane runs its items one after the other in a tile of "
                     "fewer work-items, with fewer loads in flight than the original, and waits "
                     "for memory (measured on an H200: 0.84x-0.94x)", loop->line, trip,
                     loop->fx.nloads, loop->fx.nloads == 1 ? "" : "s", REFILL_WORK_PER_LOAD);
        return REFILL_READS_MEMORY;
    }
    if (*waits < *refill) {
        if (why)
            snprintf(why, n, "the loop at line %u runs a data-dependent number of trips, but "
                     "it takes about %.0f operations an item: half of it (what a lane waits, "
                     "statically, for its group's longest item) is less than a refill's %.0f",
                     loop->line, loop->cost, *refill);
        return REFILL_CHEAP;
    }
    if (why)
        snprintf(why, n, "the loop at line %u runs a data-dependent number of trips, each "
                 "computing about %.0f operations%s: a lane waits about %.0f operations for "
                 "its group's longest item (half the loop's %.0f), a refill costs about %.0f",
                 loop->line, trip, loop->fx.nloads ? " (enough for each global load)" : "", *waits,
                 loop->cost, *refill);
    return REFILL_PAYS;
}
