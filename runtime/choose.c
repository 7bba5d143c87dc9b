/* SPDX-License-Identifier: Apache-2.0 */
/*
 * choose.c - the measured choice of --split auto: decision logic only
 * (see choose.h). set.c launches and times; this file decides.
 */
#include "choose.h"

#include "nplus1rt.h" /* nplus1rt_median: pure, no OpenCL call */

#include <math.h>
#include <string.h>

#define PROBE_PERIOD 16 /* a chosen candidate that needs divergence probes this often */
/* The reference (the original) leaves a round after one trial only when that trial is this
 * much slower than the fastest: on a noisy device one stalled launch of the original (1.6x
 * its time, bench/real's masked_update on an H200) is not the original's speed. */
#define REFERENCE_DROP_RATIO 1.5
/* A candidate whose one trial is its first launch (time_first, on a device whose first
 * launches cost nothing of their own) leaves the round only when that launch is this much
 * slower than the fastest: a first launch still pays what is made at it (the split's bucket
 * buffers: on an H200, narrowphase's split took 0.18-0.32 ms on its first launch, 0.138 ms
 * after, against the tile's 0.147 ms, and lost the choice on that first launch). The
 * reference's allowance: at 2.0 the cold first 16 launches paid second trials of more losers
 * (narrowphase random 1.30x -> 1.08x, docs/performance.md session 9). */
#define FIRST_LAUNCH_DROP_RATIO 1.5

void chooser_init(chooser *c, unsigned ncand, const int *order, const int *needs_div,
                  int reference)
{
    memset(c, 0, sizeof *c);
    c->ncand = ncand < CHOOSER_MAX_CANDIDATES ? ncand : CHOOSER_MAX_CANDIDATES;
    for (unsigned i = 0; i < c->ncand; i++)
        c->order[i] = order[i];
    for (unsigned i = 0; i < CHOOSER_MAX_CANDIDATES; i++)
        c->needs_divergence[i] = needs_div[i];
    c->reference = reference;
    c->forced = -1;
    c->recheck_period = 64;
    c->delay = 0;
    c->drop_ratio = 1.25;
    c->win_ratio = 0.95;
    c->probe_threshold = 0.25;
    c->probe_change = 0.25;
    c->first_ratio = 1.5;
    c->first_free = -1;
    for (unsigned k = 0; k < CHOOSER_CLASSES; k++) {
        c->cls[k].chosen = -1;
        c->cls[k].want = 2;
        c->cls[k].mixed = -1;
    }
}

unsigned chooser_class_of(unsigned long long n)
{
    unsigned k = 0;
    while (n > 1 && k + 1 < CHOOSER_CLASSES) {
        n >>= 1;
        k++;
    }
    return k;
}

/* A new round: every candidate timed want more times. */
static void start_round(chooser_class *k, unsigned want)
{
    memset(k->best, 0, sizeof k->best);
    memset(k->trials, 0, sizeof k->trials);
    k->dropped = 0;
    k->first_only = 0;
    k->want = want;
    k->chosen = -1;
    k->probed = 0;
    k->since = 0;
}

static int is_in(const chooser_class *k, int cand)
{
    return !(k->dropped & (1u << cand));
}

static unsigned candidates_in(const chooser *c, const chooser_class *k)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->ncand; i++)
        n += is_in(k, c->order[i]);
    return n;
}

/* Candidate d's fastest time this round (what the drop rule compares). */
static double fastest_time(const chooser_class *k, int d)
{
    return k->best[d];
}

/* Candidate d's time this round: its median from three trials on, else its fastest. */
static double judged(const chooser_class *k, int d)
{
    unsigned n = k->trials[d] < CHOOSER_MAX_TRIALS ? k->trials[d] : CHOOSER_MAX_TRIALS;
    if (n < 3)
        return k->best[d];
    double t[CHOOSER_MAX_TRIALS];
    memcpy(t, k->times[d], n * sizeof *t);
    return nplus1rt_median(t, n);
}

/* The candidate still in with a time whose time_of is least, -1 when none has one. */
static int fastest(const chooser *c, const chooser_class *k,
                   double (*time_of)(const chooser_class *, int))
{
    int best = -1;
    for (unsigned i = 0; i < c->ncand; i++) {
        int d = c->order[i];
        if (is_in(k, d) && k->trials[d] && (best < 0 || time_of(k, d) < time_of(k, best)))
            best = d;
    }
    return best;
}

/* The spread of d's trial times, (slowest - fastest) / fastest; 1 with a single trial. */
static double spread(const chooser_class *k, int d)
{
    unsigned n = k->trials[d] < CHOOSER_MAX_TRIALS ? k->trials[d] : CHOOSER_MAX_TRIALS;
    if (n < 2 || !(k->best[d] > 0))
        return 1.0;
    double hi = k->times[d][0];
    for (unsigned i = 1; i < n; i++)
        hi = k->times[d][i] > hi ? k->times[d][i] : hi;
    return (hi - k->best[d]) / k->best[d];
}

/*
 * Whether the round would replace the reference by a candidate whose margin lies
 * within the noise of the two: then both are timed again (chooser_next).
 */
static int within_noise(const chooser *c, const chooser_class *k)
{
    int best = fastest(c, k, judged), ref = c->reference;
    if (best < 0 || ref < 0 || best == ref || !is_in(k, ref) || !k->trials[ref])
        return 0;
    double b = judged(k, best), r = judged(k, ref);
    if (!(b > 0) || b > c->win_ratio * r)
        return 0; /* the reference stays anyway */
    double noise = spread(k, best) > spread(k, ref) ? spread(k, best) : spread(k, ref);
    return r / b - 1.0 < noise;
}

/* Times again, in the next trials, only the reference and the candidate that beats it. */
static void keep_the_two(const chooser *c, chooser_class *k)
{
    int best = fastest(c, k, judged);
    for (unsigned i = 0; i < c->ncand; i++) {
        int d = c->order[i];
        if (d != best && d != c->reference)
            k->dropped |= 1u << d;
    }
}

/* The end of a round: the fastest, unless it barely beats the reference. */
static int decide(const chooser *c, const chooser_class *k)
{
    int best = fastest(c, k, judged);
    int ref = c->reference;
    if (best < 0) {
        for (unsigned i = 0; i < c->ncand && best < 0; i++)
            if (is_in(k, c->order[i]))
                best = c->order[i];
        return best >= 0 ? best : ref >= 0 ? ref : c->order[0];
    }
    if (ref >= 0 && best != ref && is_in(k, ref) && k->trials[ref] &&
        judged(k, best) > c->win_ratio * judged(k, ref))
        return ref;
    return best;
}

/* The next candidate of the round to time, -1 when the round is done. */
static int next_trial(const chooser *c, const chooser_class *k)
{
    if (candidates_in(c, k) <= 1)
        return -1; /* nothing left to compare */
    for (unsigned pass = 1; pass <= k->want; pass++)
        for (unsigned i = 0; i < c->ncand; i++) {
            int d = c->order[i];
            if (is_in(k, d) && k->trials[d] < pass)
                return d;
        }
    return -1;
}

/* During the delay: the prior's favourite, warmed up and timed like any trial. */
static chooser_pick delayed_pick(const chooser *c, chooser_class *k)
{
    int d = c->order[0];
    chooser_pick p = {d, 0, 0};
    p.timed = (c->time_first || (k->warm & (1u << d))) && k->trials[d] < k->want;
    p.probe = c->needs_divergence[d] && !k->probed && !c->trust_divergence;
    k->warm |= 1u << d;
    return p;
}

chooser_pick chooser_next(chooser *c, unsigned cls)
{
    chooser_pick p = {c->forced, 0, 0};
    if (c->forced >= 0 || c->ncand == 0)
        return p;
    chooser_class *k = &c->cls[cls < CHOOSER_CLASSES ? cls : CHOOSER_CLASSES - 1];
    if (k->seen < c->delay) {
        k->seen++;
        return delayed_pick(c, k);
    }
    if (k->chosen >= 0) {
        k->since++;
        if (!c->recheck_period || k->since < c->recheck_period) {
            p.cand = k->chosen;
            p.probe = c->needs_divergence[k->chosen] && k->since % PROBE_PERIOD == 0;
            return p;
        }
        start_round(k, 1);
    }
    int d = next_trial(c, k);
    if (d < 0 && k->want < CHOOSER_MAX_TRIALS && within_noise(c, k)) {
        keep_the_two(c, k);
        k->want++;
        d = next_trial(c, k);
    }
    if (d < 0) {
        k->chosen = decide(c, k);
        k->since = 0;
        p.cand = k->chosen;
        return p;
    }
    p.cand = d;
    p.timed = c->time_first || (k->warm & (1u << d)); /* else the first launch warms up */
    p.probe = c->needs_divergence[d] && !k->probed && !c->trust_divergence;
    k->warm |= 1u << d;
    return p;
}

/* One trial of cand took ms (first: its first launch): its best, and the candidates now
 * clearly slower are out. */
static void add_trial(const chooser *c, chooser_class *k, int cand, double ms, int first)
{
    if (!k->trials[cand] || ms < k->best[cand])
        k->best[cand] = ms;
    if (k->trials[cand] < CHOOSER_MAX_TRIALS)
        k->times[cand][k->trials[cand]] = ms;
    if (first && !k->trials[cand])
        k->first_only |= 1u << cand;
    else
        k->first_only &= ~(1u << cand);
    k->trials[cand]++;
    int f = fastest(c, k, fastest_time);
    for (unsigned i = 0; f >= 0 && i < c->ncand; i++) {
        int d = c->order[i];
        double ratio = d == c->reference ? REFERENCE_DROP_RATIO : c->drop_ratio;
        if ((k->first_only & (1u << d)) && ratio < FIRST_LAUNCH_DROP_RATIO)
            ratio = FIRST_LAUNCH_DROP_RATIO;
        if (is_in(k, d) && k->trials[d] && k->best[d] > ratio * k->best[f])
            k->dropped |= 1u << d; /* clearly slower: no second trial */
    }
}

/*
 * time_first: cand's first launch took ms. Counted at once where the device
 * has no first-launch cost, else kept until the verdict.
 */
static void record_first(const chooser *c, chooser_class *k, int cand, double ms)
{
    k->first_timed |= 1u << cand;
    if (c->first_free == 1) {
        add_trial(c, k, cand, ms, 1);
        return;
    }
    k->first_ms[cand] = ms;
    k->first_pending |= 1u << cand;
}

/* cand's second time: the device's verdict, and the first times waiting on it. */
static void settle_first(chooser *c, chooser_class *k, int cand, double ms)
{
    if (c->first_free >= 0 || !(k->first_pending & (1u << cand)))
        return;
    c->first_free = k->first_ms[cand] <= c->first_ratio * ms;
    for (unsigned i = 0; c->first_free && i < c->ncand; i++) {
        int d = c->order[i];
        if (k->first_pending & (1u << d))
            add_trial(c, k, d, k->first_ms[d], 1);
    }
    k->first_pending = 0;
}

void chooser_record(chooser *c, unsigned cls, int cand, double ms)
{
    chooser_class *k = &c->cls[cls < CHOOSER_CLASSES ? cls : CHOOSER_CLASSES - 1];
    if (!(ms > 0) || cand < 0 || (unsigned)cand >= CHOOSER_MAX_CANDIDATES || k->chosen >= 0)
        return;
    if (c->time_first && !(k->first_timed & (1u << cand))) {
        record_first(c, k, cand, ms);
        return;
    }
    add_trial(c, k, cand, ms, 0);
    settle_first(c, k, cand, ms);
}

static void drop_divergent(const chooser *c, chooser_class *k)
{
    for (unsigned i = 0; i < c->ncand; i++)
        if (c->needs_divergence[c->order[i]])
            k->dropped |= 1u << c->order[i];
}

int chooser_probe(chooser *c, unsigned cls, double mixed)
{
    chooser_class *k = &c->cls[cls < CHOOSER_CLASSES ? cls : CHOOSER_CLASSES - 1];
    int coherent = mixed < c->probe_threshold;
    int moved = k->mixed >= 0 && fabs(mixed - k->mixed) > c->probe_change;
    k->mixed = mixed;
    if (k->chosen >= 0) { /* a periodic probe of the chosen candidate */
        if (!coherent && !moved)
            return 1;
        start_round(k, 1); /* the input changed: measure again */
    }
    k->probed = 1;
    if (coherent)
        drop_divergent(c, k);
    return !coherent;
}

int chooser_settled(const chooser *c, unsigned cls)
{
    const chooser_class *k = &c->cls[cls < CHOOSER_CLASSES ? cls : CHOOSER_CLASSES - 1];
    return c->forced >= 0 || c->ncand <= 1 || (k->seen >= c->delay && k->chosen >= 0);
}

int chooser_chosen(const chooser *c, unsigned cls)
{
    if (c->forced >= 0)
        return c->forced;
    return c->cls[cls < CHOOSER_CLASSES ? cls : CHOOSER_CLASSES - 1].chosen;
}

void chooser_seed(chooser *c, unsigned cls, int cand)
{
    chooser_class *k = &c->cls[cls < CHOOSER_CLASSES ? cls : CHOOSER_CLASSES - 1];
    k->seen = c->delay; /* past the delay: the stored choice runs from the first launch */
    k->chosen = cand;
    k->since = 0;
    k->want = 1;        /* its rechecks time each candidate once */
}
