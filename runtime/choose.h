/* SPDX-License-Identifier: Apache-2.0 */
/*
 * choose.h - the measured choice of --split auto (internal to libnplus1rt).
 *
 * The module owns the decision logic only: which candidate (the original
 * kernel, the generated split, the tile kernel, ...) a launch of a given size
 * class runs, whether that launch is timed, and what a time or a divergence
 * probe changes. It is a pure function of the times it is fed: no OpenCL, no
 * clock, so tests drive it with fake timings (tests/unit/test_choose.c).
 * set.c does the launching and the timing.
 *
 * Per size class (a power of two of the item count): the candidates are tried
 * in the static prior's order, each once or twice (a candidate clearly slower
 * than the fastest so far is dropped after one trial). A candidate's first
 * launch in a class is not timed: it pays for first-launch costs (POCL
 * compiles a kernel for each work-group size there). The first launch of a
 * candidate that needs divergence to pay is a probing launch, and a probe that
 * finds the input coherent drops those candidates without timing them. With a
 * delay, a class's first launches run only the prior's favourite (order[0]),
 * so that trying the others (and the fixed costs of their first launches)
 * falls after them. The
 * fastest is kept; every recheck_period launches, or when a probe finds the
 * divergence changed, each candidate is timed once again.
 *
 * A round that would replace the original by a candidate whose margin is
 * within the noise of their trials (the spread of either's times, or a single
 * trial each) times both again, up to CHOOSER_MAX_TRIALS each; from three
 * trials on a candidate is judged by its median time, not its fastest. On an
 * H200 a 0.035-ms kernel's launches ranged 0.029-0.056 ms, and two trials each
 * kept a tile that runs at 0.80x of the original.
 *
 * With time_first (NPLUS1_CHOICE_START=lean, the default the set gives it) a
 * candidate's first launch is timed too. Whether that time counts as a trial
 * is the device's verdict, taken once: the first candidate timed twice shows
 * whether a first launch costs more (a compile, as on POCL) than later ones.
 * Where it does not (first within first_ratio of the second: NVIDIA), every
 * first launch counts as a trial, and a candidate clearly slower than the
 * original costs one launch instead of two. Where it does, the first times are
 * thrown away and the round is what it is without time_first.
 */
#ifndef NPLUS1_CHOOSE_H
#define NPLUS1_CHOOSE_H

#define CHOOSER_MAX_CANDIDATES 4
#define CHOOSER_MAX_TRIALS 6 /* a round's trials of one candidate, at most */
#define CHOOSER_CLASSES 33 /* item counts up to 2^32 */

typedef struct chooser_class {
    double best[CHOOSER_MAX_CANDIDATES]; /* fastest time this round, ms */
    double times[CHOOSER_MAX_CANDIDATES][CHOOSER_MAX_TRIALS]; /* each trial's, this round */
    unsigned trials[CHOOSER_MAX_CANDIDATES];
    unsigned dropped;    /* bit c: candidate c is out of this round */
    unsigned warm;       /* bit c: candidate c ran in this class (its first launch is untimed) */
    unsigned want;       /* trials each candidate gets this round (2, then 1 on rechecks) */
    int chosen;          /* -1 while a round runs */
    int probed;          /* this round's probe ran */
    unsigned since;      /* launches since the choice */
    unsigned seen;       /* launches of this class */
    double mixed;        /* the last probe's share of mixed chunks, -1 unknown */
    unsigned first_timed; /* bit c: candidate c's first launch was timed (time_first) */
    unsigned first_pending; /* bit c: ... and waits for the device's verdict in first_ms */
    double first_ms[CHOOSER_MAX_CANDIDATES];
    unsigned first_only;  /* bit c: candidate c's trials this round are its first launch alone */
} chooser_class;

typedef struct chooser {
    unsigned ncand;
    int order[CHOOSER_MAX_CANDIDATES];   /* trial order: the static prior's preference */
    int needs_divergence[CHOOSER_MAX_CANDIDATES]; /* by id: pays only when items diverge */
    int reference;                       /* the original: kept on near ties */
    int forced;                          /* >= 0: always this candidate */
    unsigned recheck_period;             /* launches between rechecks (0: never) */
    unsigned delay;                      /* a class's first launches run order[0] alone */
    double drop_ratio;                   /* slower than the best by this after one trial: out */
    double win_ratio;                    /* must beat the reference by this to be kept */
    double probe_threshold;              /* mixed share under which the input is coherent */
    double probe_change;                 /* a mixed share that moved this much rechecks */
    int trust_divergence;                /* a profile predicts a gain: rounds start unprobed */
    int time_first;                      /* time first launches too (see above) */
    double first_ratio;                  /* first launch within this of the second: no cost */
    int first_free;                      /* verdict: 1 no first-launch cost, 0 some, -1 unknown */
    chooser_class cls[CHOOSER_CLASSES];
} chooser;

/* What the next launch runs. */
typedef struct chooser_pick {
    int cand;    /* candidate index */
    int timed;   /* time this launch and chooser_record() it */
    int probe;   /* run it as a probing launch and chooser_probe() the share */
} chooser_pick;

/*
 * ncand candidates, order[] their ids in trial order (ids below
 * CHOOSER_MAX_CANDIDATES), needs_div[id] (CHOOSER_MAX_CANDIDATES entries) for
 * those that need divergence; reference is the original's id (-1: none).
 * Defaults: drop 1.25, win 0.95 (a candidate must beat the original by 5%: profiling
 * events see no launch overhead, which decides ties on short launches), recheck 64,
 * probe threshold and change 0.25, first launches untimed (time_first 0; first_ratio 1.5).
 */
void chooser_init(chooser *c, unsigned ncand, const int *order, const int *needs_div,
                  int reference);

/* The size class of a launch of n items (floor(log2 n)). */
unsigned chooser_class_of(unsigned long long n);

chooser_pick chooser_next(chooser *c, unsigned cls);

/* A timed launch of cand took ms (<= 0: no time could be taken; ignored). */
void chooser_record(chooser *c, unsigned cls, int cand, double ms);

/*
 * A probe found this share of 32-item chunks mixing leaves. Returns 1 when the
 * launch should go on with the candidate that probed, 0 when it should run
 * the reference instead (the input is coherent).
 */
int chooser_probe(chooser *c, unsigned cls, double mixed);

/* The candidate a class runs now, -1 while it is still measuring. */
int chooser_chosen(const chooser *c, unsigned cls);

/*
 * A class starts on cand, chosen in an earlier process (the choice cache,
 * set_cache.c): no delay, no first round; it is rechecked every
 * recheck_period launches, or when a probe finds the divergence changed, like
 * any choice.
 */
void chooser_seed(chooser *c, unsigned cls, int cand);

/* 1 once the class is past its delay and has chosen (or a candidate is forced). */
int chooser_settled(const chooser *c, unsigned cls);

#endif
