/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_profile_replay - the lock-step replay of --profile on hand-built
 * trees and paths, asserted exactly: the efficiency, the work lost per
 * decision and loop, the groups that diverge, and the regrouping key; a
 * helper's body at its call (PN_CALL, PN_LEAVE) and its constructs' helper
 * fields through profile.tree; the items a second, longer run leaves out,
 * and a mismatch no race scan explains, reported with no exit 3.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_job.h"
#include "profile_loop.h"
#include "profile_report.h"
#include "util.h"

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

/* The accesses each lane makes on its path: the if's condition 1, then 2, else none. */
static void accesses_on_paths(void)
{
    ptree t = {0};
    pnode *n = add_if(&t, &t.top, 1, 10, 10);
    n->accesses = 1;
    n->arms[0].v[0].accesses = 2;
    unsigned char p1[] = {1}, p2[] = {2};
    ptrace items[4] = {{p1, 1}, {p2, 1}, {p2, 1}, {p2, 1}};
    pstats s;
    pstats_init(&s, &t);
    profile_replay(&t, items, NULL, NULL, 4, 4, &s);
    /* every lane its condition's 1; the one lane of the then arm its 2 (the idle lanes none) */
    check_near(s.accesses, 4 + 2, "the accesses of the lanes that take each arm, not the group's");
    pstats_free(&s);
    ptree_free(&t);
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

/* A top-level while (test cost 1) whose body is if (cost 1) { work then } else { work other }. */
static void loop_with_if(ptree *t, double then, double other)
{
    pnode *loop = add(&t->top, PN_LOOP, 1);
    loop->construct = construct(t, PN_LOOP, 2, -1, 0);
    loop->narms = 1;
    loop->arms = calloc(1, sizeof *loop->arms);
    pnode *d = add(&loop->arms[0], PN_IF, 1);
    d->construct = construct(t, PN_IF, 2, 0, 0);
    d->narms = 2;
    d->arms = calloc(2, sizeof *d->arms);
    add(&d->arms[0], PN_WORK, then);
    add(&d->arms[1], PN_WORK, other);
}

/*
 * The loop kernel's schedule (profile_loop_kernel), policy 0: one SIMD group of 2 lanes
 * works through a tile of 4 items (trips 1, 3, 1, 1, always the then branch); a lane
 * whose item ends takes the next one at once. Each step costs the group (2 lanes): the
 * test 2, the if 2 and its branch 20 where a lane runs the body, the kernel's own 5 a
 * lane, and 3 a lane where a lane takes an item.
 */
static void loop_kernel_refills(void)
{
    ptree t = {0};
    loop_with_if(&t, 10, 10);
    unsigned char a[] = {2, 1, 1}, b[] = {2, 1, 2, 1, 2, 1, 1};
    ptrace items[4] = {{a, 3}, {b, 7}, {a, 3}, {a, 3}};
    unsigned long long ids[4] = {0, 1, 2, 3};
    loop_kernel_params p = {.width = 2, .lanes = 2, .tile = 4, .regroup = 0, .iter_cost = 5,
                            .take_cost = 3};
    loop_kernel_stats s;
    check(profile_loop_kernel(&t, items, ids, 4, &p, &s) == 0, "a loop with an if: replayed");
    /* steps: A and B taken, both iterate (6 + 34); A leaves, B iterates (34); C taken,
     * both iterate (6 + 34); both leave (test 2 + own 10); D taken, iterates (6 + 34);
     * D leaves (12) */
    check_near(s.issued, 178, "refill: the steps' work, the lanes' own and the takes");
    check_near(s.own, 78, "refill: the kernel's own, 6 steps of 10 and 3 takes of 6");
    check_near((double)s.items, 4, "refill: every item of the tile taken");
    check_near(s.lane_iters, 6, "refill: the items' iterations");
    check_near(s.rounds, 0, "refill: no round");
    /* B's three iterations no longer hold C and D back: they run beside it */
    pstats o;
    pstats_init(&o, &t);
    profile_replay(&t, items, NULL, NULL, 4, 2, &o);
    check_near(o.issued, 100, "the original: (A, B) three iterations and a test, (C, D) one");
    pstats_free(&o);
    unsigned char cut[] = {2, 1}; /* a path that ends before its loop does */
    ptrace short_path[1] = {{cut, 2}};
    check(profile_loop_kernel(&t, short_path, ids, 1, &p, &s) < 0,
          "a path that ends early: no replay of the loop kernel (and no endless loop)");
    unsigned char none[] = {1};
    ptrace flat[1] = {{none, 1}};
    ptree bare = {0};
    add(&bare.top, PN_WORK, 1);
    check(profile_loop_kernel(&bare, flat, ids, 1, &p, &s) < 0,
          "a tree without a loop with a decision has no loop kernel");
    ptree_free(&bare);
    ptree_free(&t);
}

/*
 * Policy 1: a work-group of 4 lanes in SIMD groups of 2, 4 items of one iteration, then
 * (10) and else (30) alternating. Round 1: every lane takes an item and runs the test
 * (head: 6 + 2 a group); two branches taken: the round (4 a lane, 16) and the contexts
 * moved (2 each, 8), sorted so that the first group runs the then branch (2 + 20 + own
 * 10) and the second the else (2 + 60 + 10). Round 2: the tests (2 a group), no context
 * left: a last round (16). The first group waits 40 at the branch phase's barrier.
 */
static void loop_kernel_rounds(void)
{
    ptree t = {0};
    loop_with_if(&t, 10, 30);
    unsigned char then[] = {2, 1, 1}, other[] = {2, 2, 1};
    ptrace items[4] = {{then, 3}, {other, 3}, {then, 3}, {other, 3}};
    unsigned long long ids[4] = {0, 1, 2, 3};
    loop_kernel_params p = {.width = 2, .lanes = 4, .tile = 4, .regroup = 1, .iter_cost = 5,
                            .take_cost = 3, .round_cost = 4, .move_cost = 2};
    loop_kernel_stats s;
    profile_loop_kernel(&t, items, ids, 4, &p, &s);
    check_near(s.issued, 164, "rounds: heads, rounds, moves and the sorted branches");
    check_near(s.rounds, 2, "rounds: one with contexts, and the last");
    check_near(s.regrouped, 1, "rounds: the mixed one regrouped");
    check_near(s.wait, 40, "rounds: the then group waits for the else group");
    check_near(s.own, 12 + 32 + 8 + 20, "rounds: takes, rounds, moves and per iteration");
    /* one branch only: the round is not regrouped (policy 1), no move */
    ptrace same[4] = {{then, 3}, {then, 3}, {then, 3}, {then, 3}};
    profile_loop_kernel(&t, same, ids, 4, &p, &s);
    check_near(s.regrouped, 0, "rounds: a round of one branch is not regrouped");
    check_near(s.issued, 16 + 16 + 2 * 32 + 4 + 16, "rounds: no move when not regrouped");
    p.regroup = 2;
    profile_loop_kernel(&t, same, ids, 4, &p, &s);
    check_near(s.regrouped, 1, "policy 2: every round with contexts regrouped");
    ptree_free(&t);
}

/*
 * A helper's body at its call: call { while (test 1) { if (0) { return } work 4 } } work 2.
 * Lane A: stays, then-arm (returns from the helper); lane B: twice through the else, leaves.
 * A waits at the call's end, not the kernel's: the work 2 after the call is both lanes'.
 */
static void helper_call(void)
{
    ptree t = {0};
    pnode *call = add(&t.top, PN_CALL, 0);
    call->narms = 1;
    call->arms = calloc(1, sizeof *call->arms);
    pnode *loop = add(&call->arms[0], PN_LOOP, 1);
    loop->construct = construct(&t, PN_LOOP, 2, -1, 0);
    loop->narms = 1;
    loop->arms = calloc(1, sizeof *loop->arms);
    pnode *d = add(&loop->arms[0], PN_IF, 0);
    d->construct = construct(&t, PN_IF, 2, 0, 0);
    d->narms = 2;
    d->arms = calloc(2, sizeof *d->arms);
    add(&d->arms[0], PN_LEAVE, 0);
    add(&loop->arms[0], PN_WORK, 4);
    add(&t.top, PN_WORK, 2);
    snprintf(t.c[0].helper, sizeof t.c[0].helper, "radiance");
    t.c[0].call_line = 42;
    unsigned char pa[] = {2, 1}, pb[] = {2, 2, 2, 2, 1};
    ptrace items[2] = {{pa, 2}, {pb, 5}};
    pstats s;
    pstats_init(&s, &t);
    profile_replay(&t, items, NULL, NULL, 2, 2, &s);
    /* tests 2+2+2 issued (2+1+1 done), work 4 twice (8 issued, 4 done each), work 2 (4, 4) */
    check_near(s.issued, 26, "helper issued");
    check_near(s.useful, 16, "helper useful");
    check_near(s.bad_trace, 0, "helper paths fit");
    check_near(s.c[0].lane_iters, 3, "helper loop lane iterations");
    check_near(s.c[0].issued_iters, 4, "helper loop issued iterations (two iterations of two lanes)");
    pstats_free(&s);
    /* profile.tree keeps the helper's name and its call's line */
    strbuf sb;
    sb_init(&sb);
    profile_tree_write(&sb, "k", &t);
    char path[] = "/tmp/test_profile_tree_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
        fputs(sb.data, f);
        fclose(f);
    }
    profile_kernel_tree *ks = NULL;
    unsigned nks = 0;
    check_near(profile_tree_read(path, &ks, &nks), 0, "tree read back");
    check_near(nks, 1, "one kernel read back");
    if (nks == 1) {
        check_near(strcmp(ks[0].tree.c[0].helper, "radiance"), 0, "helper name read back");
        check_near(ks[0].tree.c[0].call_line, 42, "call line read back");
        check_near(ks[0].tree.c[1].helper[0], 0, "no helper on the kernel's own construct");
        check_near(ks[0].tree.top.v[0].kind, PN_CALL, "call node read back");
    }
    profile_kernel_trees_free(ks, nks);
    remove(path);
    sb_free(&sb);
    ptree_free(&t);
}

/*
 * A racy original: a path longer on the second run than its slot is left out (counted),
 * and a mismatch that neither the original's second run nor the race scan explains is
 * a warning beside the report, not exit 3.
 */
static void racy_original(void)
{
    profile_layout lay = {2, 1, 1, 8}; /* two items, 4 tokens of room each */
    unsigned char *data = calloc(1, 16);
    unsigned n0 = 1, n1 = 6;
    memcpy(data, &n0, 4);
    data[4] = 1;
    memcpy(data + 8, &n1, 4);
    profile_result r;
    memset(&r, 0, sizeof r);
    check_near(profile_take_record(&r, data, 16, &lay, 2), 0, "record taken");
    check_near(r.n, 1, "the item that fits is kept");
    check_near(r.cut, 1, "the item that does not fit is left out");
    check_near(r.longest, 6, "the longest path is still known");
    ptree t = {0};
    add_if(&t, &t.top, 1, 2, 2);
    profile_kernel_tree k;
    memset(&k, 0, sizeof k);
    k.name = "racy";
    k.tree = t;
    r.compared = 10;
    r.mismatches = 3; /* no self mismatch, none on a racy buffer */
    profile_report rep = {"racy.cl", 1, {2, 1, 1}, 1, 32, NULL, lay, 2, &k, 1, &r, NULL};
    check_near(profile_report_all(&rep), 0, "an unexplained mismatch is no exit 3");
    profile_result_free(&r);
    ptree_free(&t);
}

int main(void)
{
    accesses_on_paths();
    alternating_if();
    loop_trips();
    early_return();
    regrouped_loop();
    loop_kernel_refills();
    loop_kernel_rounds();
    helper_call();
    racy_original();
    return check_summary("profile replay");
}
