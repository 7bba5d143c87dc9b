/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_replay.c - the lock-step replay of recorded paths (see profile.h
 * and docs/cli.md, "--profile"). A group of W lanes walks the kernel's
 * structured control flow together: a branch runs when any lane takes it
 * while the others wait, a loop runs while any lane is still in it, and
 * each region costs what the cost model says, for every lane of the group.
 * Pure C: no libclang, no device (unit tested on hand-built paths).
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_replay_int.h"
#include "util.h"

#define MAX_ITERATIONS 100000000ULL /* a path that never leaves its loop is bad */

static unsigned popcount(uint64_t m)
{
    return (unsigned)__builtin_popcountll(m);
}

/* The group issues cost for every present lane; those in m do work, the others wait. */
void replay_issue(rctx *x, double cost, uint64_t m)
{
    if (!m || !(cost > 0) || !x->s)
        return;
    x->s->issued += cost * popcount(x->present);
    x->s->useful += cost * popcount(m);
    if (x->cur >= 0) { /* profile_loop.c: the work inside each construct */
        x->s->c[x->cur].issued_in += cost * popcount(x->present);
        x->s->c[x->cur].useful_in += cost * popcount(m);
    }
    for (uint64_t idle = x->present & ~m; idle; idle &= idle - 1) {
        int c = x->cause[__builtin_ctzll(idle)];
        if (c >= 0)
            x->s->c[c].lost += cost;
        else
            x->s->lost_top += cost;
    }
}

/* What nd issues: its cost, without its math in a rough replay (pstats.rough). */
static double ncost(const rctx *x, const pnode *nd)
{
    return x->s && x->s->rough ? nd->cost - nd->math : nd->cost;
}

/* The lanes m make nd's memory accesses (each lane its own). */
static void replay_access(rctx *x, const pnode *nd, uint64_t m)
{
    if (!x->s || !(nd->accesses > 0))
        return;
    unsigned lanes = popcount(m);
    x->s->accesses += nd->accesses * lanes;
    x->s->coalesced += nd->coalesced * lanes;
    x->s->coalesced_bytes += nd->coalesced_bytes * lanes;
    x->s->broadcast += nd->broadcast * lanes;
}

static void set_cause(rctx *x, uint64_t lanes, int c)
{
    for (; lanes; lanes &= lanes - 1)
        x->cause[__builtin_ctzll(lanes)] = c;
}

/* The lane's next token, 0 when its path has ended. */
static unsigned take(rctx *x, unsigned lane)
{
    const ptrace *p = x->lane[lane];
    if (x->pos[lane] >= p->n) {
        if (x->s)
            x->s->bad_trace = 1;
        return 0;
    }
    return p->tok[x->pos[lane]++];
}

/*
 * Splits m by each lane's token into arms[0..c->narms) (an if's then and
 * else, a switch's entries, a loop's leave and stay); bad tokens go to the last.
 */
static void split_lanes(rctx *x, const pnode *nd, uint64_t m, uint64_t *arms)
{
    const pconstruct *c = &x->t->c[nd->construct];
    memset(arms, 0, c->narms * sizeof *arms);
    for (uint64_t l = m; l; l &= l - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(l), t = take(x, lane);
        if (t < 1 || t > c->narms) {
            if (x->s)
                x->s->bad_trace = 1;
            t = c->narms;
        }
        arms[t - 1] |= 1ULL << lane;
        if (x->s)
            x->s->c[nd->construct].arm_items[t - 1]++;
        if (c->split && x->key && x->nkey < x->capkey)
            x->key[x->nkey] = (unsigned char)t;
        if (c->split && x->key)
            x->nkey++;
    }
}

static void mark(rctx *x, unsigned c, unsigned nonempty)
{
    x->reached[c] = 1;
    if (nonempty > 1)
        x->diverged[c] = 1;
}

static uint64_t exec_if(rctx *x, const pnode *nd, uint64_t m)
{
    uint64_t arms[2];
    replay_issue(x, ncost(x, nd), m);
    replay_access(x, nd, m);
    split_lanes(x, nd, m, arms);
    mark(x, nd->construct, (arms[0] != 0) + (arms[1] != 0));
    uint64_t out = 0;
    int saved = x->cur;
    x->cur = (int)nd->construct;
    for (unsigned b = 0; b < 2; b++) {
        if (!arms[b])
            continue;
        set_cause(x, m & ~arms[b], (int)nd->construct);
        out |= replay_seq(x, &nd->arms[b], arms[b]);
    }
    x->cur = saved;
    return out;
}

static uint64_t exec_switch(rctx *x, const pnode *nd, uint64_t m)
{
    uint64_t arms[PROFILE_MAX_ARMS], run = 0, outer_brk = x->brk;
    unsigned nonempty = 0;
    replay_issue(x, ncost(x, nd), m);
    replay_access(x, nd, m);
    split_lanes(x, nd, m, arms);
    for (unsigned i = 0; i < nd->narms; i++)
        nonempty += arms[i] != 0;
    mark(x, nd->construct, nonempty);
    int saved = x->cur;
    x->cur = (int)nd->construct;
    x->brk = 0;
    for (unsigned i = 0; i < nd->narms; i++) { /* an entry falls into the next */
        run |= arms[i];
        if (!run)
            continue;
        set_cause(x, m & ~run, (int)nd->construct);
        run = replay_seq(x, &nd->arms[i], run);
    }
    uint64_t out = run | x->brk;
    x->brk = outer_brk;
    x->cur = saved;
    return out;
}

/* A loop test: the lanes whose token says "once more" stay in. */
uint64_t replay_loop_test(rctx *x, const pnode *nd, uint64_t in, uint64_t *left)
{
    uint64_t arms[2];
    replay_issue(x, ncost(x, nd), in);
    replay_access(x, nd, in);
    /* tokens: 1 leave, 2 stay (split_lanes numbers arms from token 1) */
    split_lanes(x, nd, in, arms);
    set_cause(x, arms[0], (int)nd->construct);
    *left |= arms[0];
    return arms[1];
}

static uint64_t exec_loop(rctx *x, const pnode *nd, uint64_t m)
{
    uint64_t in = m, left = 0, outer_brk = x->brk, outer_cont = x->cont;
    unsigned c = nd->construct;
    int saved = x->cur;
    replay_issue(x, nd->init_cost, m);
    x->cur = (int)c;
    x->brk = 0;
    x->reached[c] = 1;
    for (unsigned long long it = 0; in; it++) {
        if (nd->test == LOOP_PRE)
            in = replay_loop_test(x, nd, in, &left);
        if (!in)
            break;
        if (in != m)
            x->diverged[c] = 1;
        if (x->s) {
            x->s->c[c].lane_iters += popcount(in);
            x->s->c[c].issued_iters += popcount(m);
        }
        x->cont = 0;
        in = replay_seq(x, &nd->arms[0], in) | x->cont;
        replay_issue(x, nd->step_cost, in);
        if (nd->test == LOOP_POST && in)
            in = replay_loop_test(x, nd, in, &left);
        if (it > MAX_ITERATIONS) {
            if (x->s)
                x->s->bad_trace = 1;
            break;
        }
    }
    uint64_t out = left | x->brk;
    x->brk = outer_brk;
    x->cont = outer_cont;
    x->cur = saved;
    return out;
}

uint64_t replay_seq(rctx *x, const pseq *s, uint64_t m)
{
    for (unsigned i = 0; i < s->n && m; i++) {
        const pnode *nd = &s->v[i];
        switch (nd->kind) {
        case PN_WORK:
            replay_issue(x, ncost(x, nd), m);
            replay_access(x, nd, m);
            break;
        case PN_IF:
            m = exec_if(x, nd, m);
            break;
        case PN_SWITCH:
            m = exec_switch(x, nd, m);
            break;
        case PN_LOOP:
            m = exec_loop(x, nd, m);
            break;
        case PN_BREAK:
            set_cause(x, m, x->cur);
            x->brk |= m;
            m = 0;
            break;
        case PN_CONTINUE:
            set_cause(x, m, x->cur);
            x->cont |= m;
            m = 0;
            break;
        case PN_RETURN:
            set_cause(x, m, x->cur);
            m = 0;
            break;
        case PN_CALL: { /* the lanes that returned early wait at its end */
            uint64_t outer_ret = x->ret;
            x->ret = 0;
            m = nd->narms ? replay_seq(x, &nd->arms[0], m) | x->ret : m;
            x->ret = outer_ret;
            break;
        }
        case PN_LEAVE:
            set_cause(x, m, x->cur);
            x->ret |= m;
            m = 0;
            break;
        }
    }
    return m;
}

static void run_group(rctx *x, const ptrace *items, const size_t *order, size_t first,
                      unsigned lanes)
{
    memset(x->pos, 0, sizeof x->pos);
    memset(x->reached, 0, x->t->nc ? x->t->nc : 1);
    memset(x->diverged, 0, x->t->nc ? x->t->nc : 1);
    for (unsigned l = 0; l < lanes; l++) {
        x->lane[l] = &items[order ? order[first + l] : first + l];
        x->cause[l] = -1;
    }
    x->present = lanes == 64 ? ~0ULL : (1ULL << lanes) - 1;
    x->brk = x->cont = 0;
    x->cur = -1;
    replay_seq(x, &x->t->top, x->present);
    if (!x->s)
        return;
    x->s->groups++;
    x->s->items += lanes;
    for (unsigned c = 0; c < x->t->nc; c++) {
        x->s->c[c].reached += x->reached[c];
        x->s->c[c].diverged += x->diverged[c];
    }
}

int profile_replay(const ptree *t, const ptrace *items, const size_t *order, const unsigned *seg,
                   size_t n, unsigned width, pstats *s)
{
    if (width < 1 || width > PROFILE_MAX_WIDTH)
        return -1;
    rctx x;
    memset(&x, 0, sizeof x);
    x.t = t;
    x.s = s;
    x.reached = xcalloc(t->nc ? t->nc : 1, 1);
    x.diverged = xcalloc(t->nc ? t->nc : 1, 1);
    for (size_t i = 0; i < n;) {
        unsigned lanes = 1;
        size_t at = order ? order[i] : i;
        while (lanes < width && i + lanes < n &&
               (!seg || seg[order ? order[i + lanes] : i + lanes] == seg[at]))
            lanes++;
        run_group(&x, items, order, i, lanes);
        i += lanes;
    }
    free(x.reached);
    free(x.diverged);
    return 0;
}

unsigned profile_leaf_key(const ptree *t, const ptrace *item, unsigned char *key, unsigned cap)
{
    rctx x;
    memset(&x, 0, sizeof x);
    x.t = t;
    x.key = key;
    x.capkey = cap;
    x.reached = xcalloc(t->nc ? t->nc : 1, 1);
    x.diverged = xcalloc(t->nc ? t->nc : 1, 1);
    x.lane[0] = item;
    x.cause[0] = -1;
    x.present = 1;
    x.cur = -1;
    replay_seq(&x, &t->top, 1);
    free(x.reached);
    free(x.diverged);
    return x.nkey;
}

void pstats_init(pstats *s, const ptree *t)
{
    memset(s, 0, sizeof *s);
    s->nc = t->nc;
    s->c = xcalloc(t->nc ? t->nc : 1, sizeof *s->c);
    for (unsigned c = 0; c < t->nc; c++)
        s->c[c].arm_items = xcalloc(t->c[c].narms ? t->c[c].narms : 1, sizeof(unsigned long long));
}

void pstats_free(pstats *s)
{
    for (unsigned c = 0; c < s->nc; c++)
        free(s->c[c].arm_items);
    free(s->c);
    memset(s, 0, sizeof *s);
}

double pstats_efficiency(const pstats *s)
{
    return s->issued > 0 ? s->useful / s->issued : 1.0;
}

static void pseq_free(pseq *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        for (unsigned a = 0; a < s->v[i].narms; a++)
            pseq_free(&s->v[i].arms[a]);
        free(s->v[i].arms);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

void ptree_free(ptree *t)
{
    pseq_free(&t->top);
    free(t->c);
    memset(t, 0, sizeof *t);
}
