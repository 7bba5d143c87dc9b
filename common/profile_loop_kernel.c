/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_loop_kernel.c - the loop kernel's schedule replayed on the recorded
 * paths (profile_loop.h, profile_loop_kernel): the lock-step replay's steps
 * (profile_replay_int.h) run lane by lane where the generated kernel runs
 * them: the prologue when a lane takes an item, one iteration at a time, the
 * epilogue when an item leaves the loop, and under a regrouping policy the
 * contexts moved between the head and the branch. Pure C: unit tested.
 */
#include <stdlib.h>
#include <string.h>

#include "profile_loop.h"
#include "profile_replay_int.h"
#include "util.h"

/* One lane of the work-group: the context it holds. */
typedef struct lane_state {
    const ptrace *tr;         /* its item's path, NULL: none */
    unsigned pos;             /* the next token */
    unsigned iters;           /* iterations the item began */
    int g;                    /* the group its next branch takes, -1 not yet known */
} lane_state;

typedef struct sim {
    const ptree *t;
    const loop_kernel_params *p;
    const pnode *loop, *d, *d2;
    pseq pro, epi;            /* the top level before and after the loop (views of t->top) */
    pseq pre, post;           /* the body before the decision, and from it on (views) */
    const ptrace *tile;       /* this tile's items */
    size_t ntile, next;       /* its size, the next one a lane takes */
    lane_state *l, *tmp;      /* p->lanes */
    pstats s;                 /* the replay's work, issued for every lane of a SIMD group */
    rctx x;
    loop_kernel_stats *out;
} sim;

static uint64_t full_mask(unsigned n)
{
    return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

/* Loads the SIMD group of lanes [first, first + n) into the replay's state. */
static void load(sim *S, unsigned first, unsigned n)
{
    rctx *x = &S->x;
    static const unsigned char none[1] = {0};
    static const ptrace empty = {none, 0};
    for (unsigned k = 0; k < n; k++) {
        x->lane[k] = S->l[first + k].tr ? S->l[first + k].tr : &empty;
        x->pos[k] = S->l[first + k].pos;
        x->cause[k] = -1;
    }
    x->present = full_mask(n);
    x->brk = x->cont = x->ret = 0;
    x->cur = -1;
}

static void store(sim *S, unsigned first, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        S->l[first + k].pos = S->x.pos[k];
}

static void own(sim *S, double cost, uint64_t m)
{
    if (!m || !(cost > 0))
        return;
    double before = S->s.issued;
    replay_issue(&S->x, cost, m);
    S->out->own += S->s.issued - before;
}

/*
 * The lanes in need (of the group at first) that hold no item take the tile's next
 * ones and run the prologue, until each reaches the loop or the tile is out of items.
 * Returns the lanes that hold an item in the loop.
 */
static uint64_t refill(sim *S, unsigned first, uint64_t live, uint64_t need)
{
    rctx *x = &S->x;
    for (;;) {
        uint64_t got = 0;
        for (uint64_t m = need & ~live; m; m &= m - 1) {
            unsigned k = (unsigned)__builtin_ctzll(m);
            lane_state *ls = &S->l[first + k];
            ls->tr = NULL;
            if (S->next >= S->ntile)
                continue;
            ls->tr = &S->tile[S->next++];
            ls->pos = 0;
            ls->iters = 0;
            ls->g = -1;
            x->lane[k] = ls->tr;
            x->pos[k] = 0;
            got |= 1ULL << k;
        }
        if (!got)
            return live;
        own(S, S->p->take_cost, got);
        x->brk = x->cont = x->ret = 0;
        uint64_t in = replay_seq(x, &S->pro, got);
        replay_issue(x, S->loop->init_cost, in);
        S->out->items += (unsigned long long)__builtin_popcountll(got);
        live |= in;
        need &= ~in; /* a lane whose item returned in the prologue takes another */
    }
}

/* The items of the lanes in leave left the loop: the epilogue. */
static void finish(sim *S, uint64_t leave)
{
    if (!leave)
        return;
    S->x.brk = S->x.cont = S->x.ret = 0;
    replay_seq(&S->x, &S->epi, leave);
}

/*
 * The lanes in m whose item's loop test says stay (a do loop: tested after its first
 * pass), each beginning an iteration (counted); *left gets those it says leave.
 */
static uint64_t test(sim *S, unsigned first, uint64_t m, uint64_t *left)
{
    const pnode *loop = S->loop;
    uint64_t tested = loop->test == LOOP_NONE ? 0 : m;
    if (loop->test == LOOP_POST)
        for (uint64_t r = m; r; r &= r - 1)
            if (!S->l[first + (unsigned)__builtin_ctzll(r)].iters)
                tested &= ~(1ULL << __builtin_ctzll(r));
    uint64_t stay = tested ? replay_loop_test(&S->x, loop, tested, left) : 0;
    uint64_t in = stay | (m & ~tested);
    for (uint64_t r = in; r; r &= r - 1)
        S->l[first + (unsigned)__builtin_ctzll(r)].iters++;
    S->out->lane_iters += (double)__builtin_popcountll(in);
    return in;
}

/* The group the next branch of lane k (in the loaded SIMD group) takes. */
static int group_of(const sim *S, unsigned k)
{
    const rctx *x = &S->x;
    const ptrace *tr = x->lane[k];
    unsigned at = x->pos[k];
    if (at >= tr->n)
        return 0;
    int t1 = tr->tok[at];
    if (!S->d2) /* an if: then 0, else 1; a switch: its entry */
        return t1 - 1;
    if (t1 == 1 || at + 1 >= tr->n) /* d's branch leaves the iteration: group 0 */
        return 0;
    return tr->tok[at + 1]; /* d2's branches: 1 on */
}

/* Policy 0: SIMD group `first` runs one iteration of its lanes' items; 0 when it is done. */
static int never_step(sim *S, unsigned first, unsigned n, uint64_t *live)
{
    rctx *x = &S->x;
    load(S, first, n);
    uint64_t m = refill(S, first, *live, full_mask(n));
    if (!m) {
        store(S, first, n);
        *live = 0;
        return 0;
    }
    uint64_t left = 0;
    uint64_t in = test(S, first, m, &left);
    x->brk = x->cont = x->ret = 0;
    uint64_t out = in ? replay_seq(x, &S->loop->arms[0], in) | x->cont : 0;
    uint64_t brk = x->brk;
    replay_issue(x, S->loop->step_cost, out);
    own(S, S->p->iter_cost, m);
    finish(S, left | brk);
    store(S, first, n);
    *live = out;
    return 1;
}

static void run_never(sim *S)
{
    unsigned lanes = S->p->lanes, w = S->p->width, ngroups = (lanes + w - 1) / w;
    uint64_t *live = xcalloc(ngroups, sizeof *live);
    unsigned char *done = xcalloc(ngroups, 1);
    for (unsigned running = ngroups; running && !S->s.bad_trace;) { /* in turn */
        running = 0;
        for (unsigned g = 0; g < ngroups; g++) {
            unsigned first = g * w, n = lanes - first < w ? lanes - first : w;
            if (done[g])
                continue;
            if (never_step(S, first, n, &live[g]))
                running++;
            else
                done[g] = 1;
        }
    }
    free(live);
    free(done);
}

/* Policy 1, 2: the head phase of SIMD group `first`: each lane gets a branch or runs out. */
static void head(sim *S, unsigned first, unsigned n)
{
    rctx *x = &S->x;
    load(S, first, n);
    uint64_t live = 0;
    for (unsigned k = 0; k < n; k++)
        live |= (uint64_t)(S->l[first + k].tr != NULL) << k;
    uint64_t ready = 0;
    for (;;) {
        live = refill(S, first, live, full_mask(n));
        uint64_t h = live & ~ready;
        if (!h)
            break;
        uint64_t left = 0;
        uint64_t in = test(S, first, h, &left);
        x->brk = x->cont = x->ret = 0;
        uint64_t out = in ? replay_seq(x, &S->pre, in) : 0;
        uint64_t brk = x->brk, cont = x->cont;
        replay_issue(x, S->loop->step_cost, cont); /* a continue: the next iteration */
        finish(S, left | brk);
        for (uint64_t r = out; r; r &= r - 1) {
            unsigned k = (unsigned)__builtin_ctzll(r);
            S->l[first + k].g = group_of(S, k);
        }
        ready |= out;
        live = (live & ~h) | out | cont;
        for (uint64_t r = h & ~live; r; r &= r - 1) /* ended: the lane takes another */
            S->l[first + (unsigned)__builtin_ctzll(r)].tr = NULL;
    }
    for (uint64_t r = full_mask(n) & ~live; r; r &= r - 1)
        S->l[first + (unsigned)__builtin_ctzll(r)].tr = NULL;
    store(S, first, n);
}

/* Policy 1, 2: the branch phase of SIMD group `first`: the contexts it holds. */
static void branch(sim *S, unsigned first, unsigned n)
{
    rctx *x = &S->x;
    load(S, first, n);
    uint64_t m = 0;
    for (unsigned k = 0; k < n; k++)
        m |= (uint64_t)(S->l[first + k].tr != NULL && S->l[first + k].g >= 0) << k;
    if (!m)
        return;
    x->brk = x->cont = x->ret = 0;
    uint64_t out = replay_seq(x, &S->post, m) | x->cont;
    uint64_t brk = x->brk;
    replay_issue(x, S->loop->step_cost, out);
    own(S, S->p->iter_cost, m);
    finish(S, brk);
    store(S, first, n);
    for (unsigned k = 0; k < n; k++) {
        lane_state *ls = &S->l[first + k];
        ls->g = -1;
        if (!(out >> k & 1))
            ls->tr = NULL;
    }
}

/*
 * One phase of a round, SIMD group by SIMD group; the phase ends at a barrier, where
 * each group waits for the slowest: their idle issue slots go to s->wait.
 */
static void phase(sim *S, void (*run)(sim *, unsigned, unsigned))
{
    unsigned lanes = S->p->lanes, w = S->p->width, groups = 0;
    double most = 0, sum = 0;
    for (unsigned first = 0; first < lanes; first += w, groups++) {
        double before = S->s.issued;
        run(S, first, lanes - first < w ? lanes - first : w);
        double did = S->s.issued - before;
        sum += did;
        most = did > most ? did : most;
    }
    S->out->wait += most * groups - sum;
    S->out->slowest += most;
    S->out->phased += sum;
}

static void run_rounds(sim *S)
{
    const loop_kernel_params *p = S->p;
    unsigned lanes = p->lanes;
    while (!S->s.bad_trace) {
        phase(S, head);
        unsigned taken = 0, live = 0, most = 0;
        unsigned long long seen[4] = {0};
        for (unsigned k = 0; k < lanes; k++)
            if (S->l[k].tr && S->l[k].g >= 0) {
                unsigned g = (unsigned)S->l[k].g & 255;
                live++;
                if (!(seen[g / 64] >> (g % 64) & 1))
                    taken++;
                seen[g / 64] |= 1ULL << (g % 64);
                most = g > most ? g : most;
            }
        S->out->rounds++; /* the last round finds no context: the tile is done */
        S->out->own += p->round_cost * lanes;
        S->s.issued += p->round_cost * lanes;
        if (!live)
            return;
        if (p->regroup >= 2 || taken >= 2) { /* the contexts, branch by branch */
            S->out->regrouped++;
            S->out->own += p->move_cost * live;
            S->s.issued += p->move_cost * live;
            unsigned at = 0;
            for (unsigned g = 0; g <= most; g++) {
                if (!(seen[g / 64] >> (g % 64) & 1))
                    continue;
                for (unsigned k = 0; k < lanes; k++)
                    if (S->l[k].tr && S->l[k].g == (int)g)
                        S->tmp[at++] = S->l[k];
            }
            for (unsigned k = at; k < lanes; k++)
                S->tmp[k] = (lane_state){NULL, 0, 0, -1};
            memcpy(S->l, S->tmp, lanes * sizeof *S->l);
        }
        phase(S, branch);
    }
}

/* The body's decision node index, and d2 (see loop.h: an if without else whose branch
 * leaves the iteration, and the decision right after it). */
static int find_decision(sim *S)
{
    for (unsigned i = 0; i < S->t->top.n; i++) {
        const pnode *loop = &S->t->top.v[i];
        const pnode *d = profile_loop_decision(S->t, loop);
        if (!d)
            continue;
        const pseq *body = &loop->arms[0];
        unsigned at = (unsigned)(d - body->v);
        S->loop = loop;
        S->d = d;
        S->pro = (pseq){S->t->top.v, i, 0};
        S->epi = (pseq){S->t->top.v + i + 1, S->t->top.n - i - 1, 0};
        S->pre = (pseq){body->v, at, 0};
        S->post = (pseq){body->v + at, body->n - at, 0};
        const pnode *next = at + 1 < body->n ? &body->v[at + 1] : NULL;
        const pseq *then = d->kind == PN_IF && d->narms == 2 ? &d->arms[0] : NULL;
        if (then && then->n && !d->arms[1].n && next &&
            (next->kind == PN_IF || next->kind == PN_SWITCH)) {
            pnode_kind last = then->v[then->n - 1].kind;
            if (last == PN_BREAK || last == PN_CONTINUE || last == PN_RETURN)
                S->d2 = next;
        }
        return 0;
    }
    return -1;
}

unsigned profile_loop_groups(const ptree *t)
{
    sim S;
    memset(&S, 0, sizeof S);
    S.t = t;
    if (find_decision(&S) < 0)
        return 0;
    return S.d2 ? 1 + S.d2->narms : S.d->narms;
}

int profile_loop_kernel(const ptree *t, const ptrace *items, const unsigned long long *ids,
                        size_t n, const loop_kernel_params *p, loop_kernel_stats *s)
{
    memset(s, 0, sizeof *s);
    if (!p->width || p->width > PROFILE_MAX_WIDTH || !p->lanes || p->tile < p->lanes)
        return -1;
    sim S;
    memset(&S, 0, sizeof S);
    S.t = t;
    S.p = p;
    S.out = s;
    if (find_decision(&S) < 0)
        return -1;
    pstats_init(&S.s, t);
    S.x.t = t;
    S.x.s = &S.s;
    S.s.rough = 1; /* its own costs are counted in the rough unit (profile_replay_cost.c) */
    S.x.reached = xcalloc(t->nc ? t->nc : 1, 1);
    S.x.diverged = xcalloc(t->nc ? t->nc : 1, 1);
    S.l = xcalloc(p->lanes, sizeof *S.l);
    S.tmp = xcalloc(p->lanes, sizeof *S.tmp);
    for (size_t i = 0; i < n;) { /* a tile: the recorded items of one tile of ids */
        size_t j = i + 1;
        while (j < n && ids[j] / p->tile == ids[i] / p->tile)
            j++;
        S.tile = items + i;
        S.ntile = j - i;
        S.next = 0;
        memset(S.l, 0, p->lanes * sizeof *S.l);
        for (unsigned k = 0; k < p->lanes; k++)
            S.l[k].g = -1;
        if (p->regroup)
            run_rounds(&S);
        else
            run_never(&S);
        i = j;
    }
    int bad = S.s.bad_trace; /* a path that ended early: no prediction from it */
    s->issued = S.s.issued;
    free(S.l);
    free(S.tmp);
    free(S.x.reached);
    free(S.x.diverged);
    pstats_free(&S.s);
    return bad ? -1 : 0;
}
