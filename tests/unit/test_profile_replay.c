/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_profile_replay - the lock-step replay of --profile on hand-built
 * trees and paths, asserted exactly: the efficiency, the work lost per
 * decision and loop, the groups that diverge, and the regrouping key.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_loop.h"

#include "check.h"


static pnode *add(pseq *s, pnode_kind kind, double cost)
{
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    pnode *n = &s->v[s->n++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->cost = cost;
    return n;
}

static unsigned construct(ptree *t, pnode_kind kind, unsigned narms, int parent, int split)
{
    t->c = realloc(t->c, (t->nc + 1) * sizeof *t->c);
    pconstruct *c = &t->c[t->nc];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->what = kind == PN_LOOP ? "for" : "if";
    c->narms = narms;
    c->parent = parent;
    c->split = split;
    c->divergence = -1;
    return t->nc++;
}

static pnode *add_if(ptree *t, pseq *s, double cost, double then_cost, double else_cost)
{
    pnode *n = add(s, PN_IF, cost);
    n->construct = construct(t, PN_IF, 2, -1, 1);
    n->narms = 2;
    n->arms = calloc(2, sizeof *n->arms);
    if (then_cost > 0)
        add(&n->arms[0], PN_WORK, then_cost);
    if (else_cost > 0)
        add(&n->arms[1], PN_WORK, else_cost);
    return n;
}

/* work 1; if (cost 1) { work 10 } else { work 10 }: 4 lanes, paths 1,2,1,2. */
static void alternating_if(void)
{
    ptree t = {0};
    add(&t.top, PN_WORK, 1);
    add_if(&t, &t.top, 1, 10, 10);
    unsigned char p1[] = {1}, p2[] = {2};
    ptrace items[4] = {{p1, 1}, {p2, 1}, {p1, 1}, {p2, 1}};
    pstats s;
    pstats_init(&s, &t);
    profile_replay(&t, items, NULL, NULL, 4, 4, &s);
    /* issued: 4*(1+1+10+10) = 88; useful: 4*2 + 2*10 + 2*10 = 48 */
    check_near(s.issued, 88, "alternating issued");
    check_near(s.useful, 48, "alternating useful");
    check_near(s.c[0].lost, 40, "alternating lost at the if");
    check_near((double)s.c[0].diverged, 1, "alternating diverged groups");
    check_near((double)s.c[0].arm_items[0], 2, "alternating then items");
    pstats_free(&s);
    /* width 2 with paths 1,1,2,2: no group diverges */
    ptrace runs[4] = {{p1, 1}, {p1, 1}, {p2, 1}, {p2, 1}};
    pstats_init(&s, &t);
    profile_replay(&t, runs, NULL, NULL, 4, 2, &s);
    check_near(pstats_efficiency(&s), 1.0, "runs efficiency");
    check_near((double)s.groups, 2, "runs groups");
    pstats_free(&s);
    /* regrouped by the split's key: 1,2,1,2 sorted by key is 1,1,2,2 */
    unsigned char k[4];
    check_near(profile_leaf_key(&t, &items[1], k, 4), 1, "key length");
    check_near(k[0], 2, "key token");
    size_t order[4] = {0, 2, 1, 3};
    unsigned seg[4] = {0, 1, 0, 1};
    pstats_init(&s, &t);
    profile_replay(&t, items, order, seg, 4, 4, &s);
    check_near(pstats_efficiency(&s), 1.0, "regrouped efficiency");
    check_near((double)s.groups, 2, "regrouped groups end where the leaf changes");
    pstats_free(&s);
    ptree_free(&t);
}

/* for (init 1; test 1; step 1) { work 2 }: trip counts 0 and 2 in one group of 2. */
static void loop_trips(void)
{
    ptree t = {0};
    pnode *l = add(&t.top, PN_LOOP, 1);
    l->init_cost = 1;
    l->step_cost = 1;
    l->test = LOOP_PRE;
    l->construct = construct(&t, PN_LOOP, 2, -1, 0);
    l->narms = 1;
    l->arms = calloc(1, sizeof *l->arms);
    add(&l->arms[0], PN_WORK, 2);
    unsigned char p0[] = {1}, p2[] = {2, 2, 1};
    ptrace items[2] = {{p0, 1}, {p2, 3}};
    pstats s;
    pstats_init(&s, &t);
    profile_replay(&t, items, NULL, NULL, 2, 2, &s);
    /* issued per lane: init 1 + 3 tests + 2 * (body 2 + step 1) = 10; both lanes: 20.
     * useful: lane 0: init 1 + test 1 = 2; lane 1: 10. */
    check_near(s.issued, 20, "loop issued");
    check_near(s.useful, 12, "loop useful");
    check_near(s.c[0].lost, 8, "loop lost to trip counts");
    check_near(s.c[0].lane_iters, 2, "lane iterations");
    check_near(s.c[0].issued_iters, 4, "issued iterations");
    check_near((double)s.c[0].diverged, 1, "loop diverged");
    check_near(s.bad_trace, 0, "well-formed paths");
    pstats_free(&s);
    ptree_free(&t);
}

/* if (1) { return } work 4: the returned lane waits, lost to the if. */
static void early_return(void)
{
    ptree t = {0};
    pnode *n = add_if(&t, &t.top, 0, 0, 0);
    add(&n->arms[0], PN_RETURN, 0);
    add(&t.top, PN_WORK, 4);
    unsigned char p1[] = {1}, p2[] = {2};
    ptrace items[2] = {{p1, 1}, {p2, 1}};
    pstats s;
    pstats_init(&s, &t);
    profile_replay(&t, items, NULL, NULL, 2, 2, &s);
    check_near(pstats_efficiency(&s), 0.5, "early return efficiency");
    check_near(s.c[0].lost, 4, "lost to the returning if");
    pstats_free(&s);
    /* a path that ends early is flagged */
    ptrace bad[1] = {{p1, 0}};
    pstats_init(&s, &t);
    profile_replay(&t, bad, NULL, NULL, 1, 1, &s);
    check_near(s.bad_trace, 1, "short path flagged");
    pstats_free(&s);
    ptree_free(&t);
}

/*
 * A top-level while (test cost 1) whose body is if (cost 1) { work 10 } else
 * { work 10 }, 4 lanes: L0 then, else, leaves; L1 else, leaves; L2 never
 * enters; L3 then, leaves. The regrouped loop's prediction (profile_loop.h).
 */
static void regrouped_loop(void)
{
    ptree t = {0};
    pnode *loop = add(&t.top, PN_LOOP, 1);
    loop->construct = construct(&t, PN_LOOP, 2, -1, 0);
    loop->narms = 1;
    loop->arms = calloc(1, sizeof *loop->arms);
    pnode *d = add(&loop->arms[0], PN_IF, 1);
    d->construct = construct(&t, PN_IF, 2, 0, 0);
    d->narms = 2;
    d->arms = calloc(2, sizeof *d->arms);
    add(&d->arms[0], PN_WORK, 10);
    add(&d->arms[1], PN_WORK, 10);
    unsigned char p0[] = {2, 1, 2, 2, 1}, p1[] = {2, 2, 1}, p2[] = {1}, p3[] = {2, 1, 1};
    ptrace items[4] = {{p0, 5}, {p1, 3}, {p2, 1}, {p3, 3}};
    pstats s;
    pstats_init(&s, &t);
    profile_replay(&t, items, NULL, NULL, 4, 4, &s);
    /* tests 4+4+4 issued (4+3+1 useful), conditions 4+4 (3+1), arms 4 x 10 three times */
    check_near(s.issued, 140, "loop issued");
    check_near(s.useful, 52, "loop useful");
    check_near(s.c[0].issued_in, 20, "work issued in the loop itself");
    check_near(s.c[0].useful_in, 12, "work done in the loop itself");
    check_near(s.c[1].issued_in, 120, "work issued in the if's arms");
    check_near(s.c[1].useful_in, 40, "work done in the if's arms");
    loop_prediction p[2];
    /* rounds of 8 contexts in groups of 4: runs of 4 and 4, no group mixes branches */
    check_near(profile_loop_predict(&t, &s, 4, 8, p, 2), 1, "regroupable loops");
    check_near(p[0].branch_efficiency, 1.0, "sorted branches, rounds of 8");
    check_near(p[0].loop_issued_regrouped, 52, "loop issued, regrouped");
    check_near(p[0].kernel_efficiency, 52.0 / 140, "kernel efficiency measured");
    check_near(p[0].kernel_efficiency_regrouped, 1.0, "kernel efficiency predicted");
    /* rounds of 4: runs of 2 and 2 share the one group, which issues both branches */
    profile_loop_predict(&t, &s, 4, 4, p, 2);
    check_near(p[0].branch_efficiency, 0.5, "sorted branches, rounds of 4");
    check_near(p[0].kernel_efficiency_regrouped, 52.0 / 92, "kernel predicted, rounds of 4");
    pstats_free(&s);
    ptree_free(&t);
}

int main(void)
{
    alternating_if();
    loop_trips();
    early_return();
    regrouped_loop();
    return check_summary("profile replay");
}
