/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_choose.c - the measured choice of --split auto, fed with fake timings
 * (runtime/choose.c is a pure function of the times it is given: no device).
 *
 * Each test drives the chooser the way set.c does (next, then record the
 * pick's time, or probe a probing pick) against a table of per-candidate
 * launch times, and checks what it keeps, how many trials it spent, and that
 * the first 16 launches together stay within 3% of the original.
 */
#include <stdio.h>
#include <stdlib.h>

#include "choose.h"

#include "check.h"

enum { ORIG = 0, SPLIT = 1, TILE = 2 };


/* A world: each candidate's time per launch, and the probe's mixed share. */
typedef struct world {
    double ms[3];
    double mixed;
    double probe_ms;   /* a probing launch that fell back to the original */
    unsigned ran[3];   /* launches per candidate */
    double total;      /* time of all launches */
} world;

static void init3(chooser *c, int prior_never, int with_tile)
{
    int needs[CHOOSER_MAX_CANDIDATES] = {0, 1, 1, 0};
    int order_never[] = {ORIG, SPLIT, TILE}, order_split[] = {SPLIT, TILE, ORIG};
    int order_never2[] = {ORIG, SPLIT}, order_split2[] = {SPLIT, ORIG};
    const int *order = with_tile ? (prior_never ? order_never : order_split)
                                 : (prior_never ? order_never2 : order_split2);
    chooser_init(c, with_tile ? 3 : 2, order, needs, ORIG);
}

/* One launch as set.c runs it; returns the candidate that ran. */
static int launch(chooser *c, world *w, unsigned cls)
{
    chooser_pick p = chooser_next(c, cls);
    int ran = p.cand;
    if (p.probe && !chooser_probe(c, cls, w->mixed)) {
        ran = ORIG;
        w->total += w->probe_ms;
        w->ran[ORIG]++;
        return ran;
    }
    w->total += w->ms[ran];
    w->ran[ran]++;
    if (p.timed)
        chooser_record(c, cls, ran, w->ms[ran]);
    return ran;
}

static double run_launches(chooser *c, world *w, unsigned n, unsigned cls)
{
    for (unsigned i = 0; i < n; i++)
        launch(c, w, cls);
    return w->total;
}

static void test_keeps_the_split_when_it_wins(void)
{
    chooser c;
    init3(&c, 0, 0);
    world w = {{1.0, 0.5}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 16, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d, want the split", chooser_chosen(&c, 20));
    checkf(w.ran[ORIG] <= 2, "the original (2x slower) ran %u times", w.ran[ORIG]);
}

static void test_keeps_the_original_when_the_split_loses(void)
{
    chooser c;
    init3(&c, 1, 0);
    world w = {{1.0, 1.1}, 0.9, 1.2, {0}, 0};
    double t = run_launches(&c, &w, 16, 20);
    checkf(chooser_chosen(&c, 20) == ORIG, "chose %d, want the original", chooser_chosen(&c, 20));
    checkf(16.0 / t >= 0.97, "first 16 launches at %.3fx the original", 16.0 / t);
}

static void test_drops_a_clearly_slower_split_after_one_trial(void)
{
    chooser c;
    init3(&c, 1, 0);
    world w = {{1.0, 1.6}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 16, 20);
    checkf(w.ran[SPLIT] == 2, "the 1.6x slower split ran %u times, want 2 (warm-up, one trial)",
          w.ran[SPLIT]);
    checkf(chooser_chosen(&c, 20) == ORIG, "chose %d", chooser_chosen(&c, 20));
}

static void test_a_coherent_probe_skips_the_split_untimed(void)
{
    chooser c;
    init3(&c, 1, 1);
    world w = {{1.0, 1.7, 1.3}, 0.01, 1.2, {0}, 0};
    double t = run_launches(&c, &w, 16, 20);
    checkf(w.ran[SPLIT] == 0 && w.ran[TILE] == 0, "split ran %u, tile %u on coherent input",
          w.ran[SPLIT], w.ran[TILE]);
    checkf(chooser_chosen(&c, 20) == ORIG, "chose %d", chooser_chosen(&c, 20));
    checkf(16.0 / t >= 0.97, "first 16 launches at %.3fx the original", 16.0 / t);
}

/*
 * A profile that predicts a gain (trust_divergence): no trial probes, so even an input
 * the probe would call coherent gets the split timed; a periodic probe of the kept
 * split still runs.
 */
static void test_a_trusted_profile_tries_the_split_unprobed(void)
{
    chooser c;
    init3(&c, 0, 0);
    c.trust_divergence = 1;
    world w = {{1.0, 0.5, 0}, 0.01, 1.2, {0}, 0};
    chooser_pick first = chooser_next(&c, 20);
    checkf(first.cand == SPLIT && !first.probe, "first pick %d, probe %d", first.cand,
          first.probe);
    run_launches(&c, &w, 15, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d", chooser_chosen(&c, 20));
    unsigned probes = 0;
    for (unsigned i = 0; i < 16; i++)
        probes += chooser_next(&c, 20).probe;
    checkf(probes == 1, "%u periodic probes in 16 launches of the kept split", probes);
}

static void test_takes_the_fastest_of_three(void)
{
    chooser c;
    init3(&c, 0, 1);
    world w = {{1.0, 0.8, 0.6}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 16, 22);
    checkf(chooser_chosen(&c, 22) == TILE, "chose %d, want the tile", chooser_chosen(&c, 22));
}

static void test_a_near_tie_keeps_the_original(void)
{
    chooser c;
    init3(&c, 0, 0);
    world w = {{1.0, 0.97}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 16, 20);
    checkf(chooser_chosen(&c, 20) == ORIG, "chose %d: a 3%% win is noise", chooser_chosen(&c, 20));
    init3(&c, 0, 0);
    w.ms[SPLIT] = 0.93;
    run_launches(&c, &w, 16, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d: a 7%% win is kept", chooser_chosen(&c, 20));
}

static void test_size_classes_choose_apart(void)
{
    chooser c;
    init3(&c, 1, 0);
    world small = {{1.0, 1.5}, 0.9, 1.2, {0}, 0}, big = {{1.0, 0.7}, 0.9, 1.2, {0}, 0};
    unsigned cs = chooser_class_of(1000), cb = chooser_class_of(1u << 22);
    checkf(cs == 9 && cb == 22, "classes %u and %u, want 9 and 22", cs, cb);
    for (int i = 0; i < 16; i++) {
        launch(&c, &small, cs);
        launch(&c, &big, cb);
    }
    checkf(chooser_chosen(&c, cs) == ORIG, "small launches chose %d", chooser_chosen(&c, cs));
    checkf(chooser_chosen(&c, cb) == SPLIT, "big launches chose %d", chooser_chosen(&c, cb));
}

static void test_rechecks_and_follows_a_change(void)
{
    chooser c;
    init3(&c, 1, 0);
    c.recheck_period = 32;
    world w = {{1.0, 1.1}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 16, 20);
    checkf(chooser_chosen(&c, 20) == ORIG, "chose %d first", chooser_chosen(&c, 20));
    w.ms[SPLIT] = 0.5; /* the leaves got expensive: the split wins now */
    run_launches(&c, &w, 40, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "after the recheck chose %d", chooser_chosen(&c, 20));
}

static void test_a_probe_that_turns_coherent_goes_back_to_the_original(void)
{
    chooser c;
    init3(&c, 0, 0);
    world w = {{1.0, 0.5}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 8, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d first", chooser_chosen(&c, 20));
    w.mixed = 0.0; /* the input became sorted */
    w.ms[SPLIT] = 1.3;
    run_launches(&c, &w, 24, 20);
    checkf(chooser_chosen(&c, 20) == ORIG, "after a coherent probe chose %d",
          chooser_chosen(&c, 20));
}

static void test_forced_candidate_always_runs(void)
{
    chooser c;
    init3(&c, 1, 0);
    c.forced = SPLIT;
    world w = {{1.0, 3.0}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 10, 20);
    checkf(w.ran[SPLIT] == 10, "forced split ran %u of 10", w.ran[SPLIT]);
}

static void test_first_launch_in_a_class_is_an_untimed_warm_up(void)
{
    chooser c;
    init3(&c, 1, 0);
    chooser_pick p = chooser_next(&c, 5), q = chooser_next(&c, 5);
    checkf(p.cand == ORIG && !p.timed, "first launch: %d timed %d, want the original untimed",
          p.cand, p.timed);
    checkf(q.cand == ORIG && q.timed, "second launch: %d timed %d, want the original timed",
          q.cand, q.timed);
    chooser_record(&c, 5, q.cand, 1.0);
    chooser_pick r = chooser_next(&c, 5);
    checkf(chooser_probe(&c, 5, 0.9) == 1, "a divergent probe lets the split run");
    chooser_pick t = chooser_next(&c, 5);
    checkf(r.cand == SPLIT && !r.timed && r.probe, "the split's warm-up launch probes, untimed");
    checkf(t.cand == SPLIT && t.timed && !t.probe, "the split's trial is timed, without a probe");
    chooser_pick u = chooser_next(&c, 6);
    checkf(!u.timed, "a new size class warms up again");
}

/* A world where every first launch of a candidate costs a compile. */
static void test_a_slow_first_launch_does_not_decide(void)
{
    chooser c;
    init3(&c, 1, 0);
    world w = {{1.0, 0.8}, 0.9, 1.2, {0}, 0};
    double compile = 100.0;
    for (int i = 0; i < 16; i++) {
        chooser_pick p = chooser_next(&c, 20);
        if (p.probe && !chooser_probe(&c, 20, w.mixed))
            continue;
        if (p.timed)
            chooser_record(&c, 20, p.cand, w.ms[p.cand] + (w.ran[p.cand]++ ? 0 : compile));
        else
            w.ran[p.cand]++;
    }
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d, want the split", chooser_chosen(&c, 20));
}

static void test_a_delay_keeps_the_first_launches_on_the_prior(void)
{
    chooser c;
    init3(&c, 1, 0);
    c.delay = 16;
    world w = {{1.0, 0.5}, 0.9, 1.2, {0}, 0};
    double t = run_launches(&c, &w, 16, 20);
    checkf(w.ran[SPLIT] == 0, "the split ran %u times in the delay", w.ran[SPLIT]);
    checkf(!chooser_settled(&c, 20), "settled before the split was tried");
    checkf(t == 16.0, "the first 16 launches took %.2f, want 16 (the original's)", t);
    run_launches(&c, &w, 8, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "after the delay chose %d, want the split",
          chooser_chosen(&c, 20));
    checkf(chooser_settled(&c, 20), "not settled after the trials");
}

/* The choice cache: a class seeded with a stored choice runs it from the first launch, past
 * any delay, untimed; it is rechecked after recheck_period launches like any choice. */
static void test_a_seeded_class_runs_its_stored_choice_at_once(void)
{
    chooser c;
    init3(&c, 1, 1);
    c.delay = 16;
    c.time_first = 1;
    chooser_seed(&c, 20, SPLIT);
    world w = {{1.0, 0.5, 0.8}, 0.9, 1.2, {0}, 0};
    double t = run_launches(&c, &w, 15, 20);
    checkf(w.ran[SPLIT] == 15 && w.ran[ORIG] == 0 && w.ran[TILE] == 0,
           "a seeded class ran the split %u, the original %u, the tile %u times in its first 15 "
           "launches, want 15, 0, 0", w.ran[SPLIT], w.ran[ORIG], w.ran[TILE]);
    checkf(t == 7.5, "the first 15 launches took %.2f, want 7.5 (the split's)", t);
    checkf(chooser_settled(&c, 20), "a seeded class is not settled");
    checkf(chooser_chosen(&c, 21) == -1, "seeding class 20 chose for class 21 too");
    w.ms[SPLIT] = 2.0; /* the stored choice no longer pays: the recheck finds it */
    run_launches(&c, &w, 80, 20);
    checkf(chooser_chosen(&c, 20) != SPLIT, "after the recheck the class still runs the split");
}

static void test_ignores_launches_without_a_time(void)
{
    chooser c;
    init3(&c, 1, 0);
    chooser_next(&c, 5); /* the warm-up */
    chooser_pick p = chooser_next(&c, 5);
    chooser_record(&c, 5, p.cand, -1); /* no profiling data */
    chooser_pick q = chooser_next(&c, 5);
    checkf(q.cand == p.cand && q.timed, "an untimed trial is tried again (got %d)", q.cand);
}

/*
 * NPLUS1_CHOICE_START=lean (time_first) on a device without first-launch costs (the
 * H100's trace: a first launch as fast as the next): a candidate 2.4x slower than the
 * original (bounce_materials coherent) runs once instead of twice, and the first 16
 * launches lose one launch's worth less than the classic start.
 */
static void test_lean_start_runs_a_losing_candidate_once(void)
{
    chooser classic, lean;
    init3(&classic, 1, 0);
    init3(&lean, 1, 0);
    lean.time_first = 1;
    world wc = {{1.0, 2.4}, 0.9, 1.2, {0}, 0}, wl = wc;
    double tc = run_launches(&classic, &wc, 16, 20), tl = run_launches(&lean, &wl, 16, 20);
    checkf(wc.ran[SPLIT] == 2 && wl.ran[SPLIT] == 1, "the split ran %u times classic, %u lean",
           wc.ran[SPLIT], wl.ran[SPLIT]);
    checkf(chooser_chosen(&lean, 20) == ORIG, "lean chose %d", chooser_chosen(&lean, 20));
    checkf(lean.first_free == 1, "verdict %d, want no first-launch cost", lean.first_free);
    checkf(tc - tl > 1.3, "first 16: classic %.2f, lean %.2f original launches", tc, tl);
}

/* A winner (bounce_materials random: the tile 1.8x faster) is kept as soon as classic keeps it. */
static void test_lean_start_keeps_a_winner_sooner(void)
{
    chooser classic, lean;
    init3(&classic, 1, 0);
    init3(&lean, 1, 0);
    lean.time_first = 1;
    world wc = {{1.0, 0.55}, 0.9, 1.2, {0}, 0}, wl = wc;
    double tc = run_launches(&classic, &wc, 16, 20), tl = run_launches(&lean, &wl, 16, 20);
    checkf(chooser_chosen(&lean, 20) == SPLIT, "lean chose %d", chooser_chosen(&lean, 20));
    checkf(wl.ran[ORIG] == 2 && wc.ran[ORIG] == 2, "the original ran %u times lean, %u classic",
           wl.ran[ORIG], wc.ran[ORIG]);
    checkf(tl <= tc, "first 16: lean %.2f, classic %.2f", tl, tc);
}

/*
 * lean where a first launch compiles (POCL): the first times do not count, the
 * verdict says so, and the round is the classic one (the same launches, the same choice).
 */
/* 16 launches where every candidate's first launch costs a compile of 100. */
static void run_compiling(chooser *c, world *w)
{
    for (int i = 0; i < 16; i++) {
        chooser_pick p = chooser_next(c, 20);
        if (p.probe && !chooser_probe(c, 20, w->mixed))
            continue;
        double ms = w->ms[p.cand] + (w->ran[p.cand]++ ? 0 : 100.0);
        if (p.timed)
            chooser_record(c, 20, p.cand, ms);
    }
}

/*
 * lean on a device whose first launches cost nothing of their own (the original's two agree)
 * but where the split's first launch makes its buffers (the shape measured for narrowphase on
 * an H200: a first launch 1.3x-2.3x the split's later ones): here 0.84 of the original's time
 * on its first launch, 0.56 after, the tile 0.6. That first launch alone does not drop the
 * split, whose second trial wins the round.
 */
static void test_a_first_launch_alone_does_not_drop_a_winner(void)
{
    chooser c;
    init3(&c, 1, 1);
    c.time_first = 1;
    world w = {{1.0, 0.56, 0.6}, 0.9, 1.2, {0}, 0};
    for (int i = 0; i < 16; i++) {
        chooser_pick p = chooser_next(&c, 20);
        if (p.probe && !chooser_probe(&c, 20, w.mixed))
            continue;
        double ms = w.ms[p.cand] + (p.cand == SPLIT && !w.ran[SPLIT] ? 0.28 : 0.0);
        w.ran[p.cand]++;
        if (p.timed)
            chooser_record(&c, 20, p.cand, ms);
    }
    checkf(c.first_free == 1, "verdict %d, want no first-launch cost", c.first_free);
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d, want the split", chooser_chosen(&c, 20));
    checkf(w.ran[SPLIT] >= 2, "the split ran %u times", w.ran[SPLIT]);
}

static void test_lean_start_ignores_first_launches_that_compile(void)
{
    for (int win = 0; win < 2; win++) {
        chooser c, classic;
        init3(&c, 1, 0);
        init3(&classic, 1, 0);
        c.time_first = 1;
        world w = {{1.0, win ? 0.8 : 1.6}, 0.9, 1.2, {0}, 0}, wc = w;
        run_compiling(&c, &w);
        run_compiling(&classic, &wc);
        checkf(c.first_free == 0, "verdict %d, want a first-launch cost", c.first_free);
        checkf(chooser_chosen(&c, 20) == (win ? SPLIT : ORIG), "chose %d (win %d)",
               chooser_chosen(&c, 20), win);
        checkf(w.ran[SPLIT] == wc.ran[SPLIT] && w.ran[ORIG] == wc.ran[ORIG],
               "lean ran the split %u, the original %u times; classic %u, %u (win %d)",
               w.ran[SPLIT], w.ran[ORIG], wc.ran[SPLIT], wc.ran[ORIG], win);
    }
}

/* lean: every trial pick is timed, the first one included; a new class keeps the verdict. */
static void test_lean_start_times_first_launches(void)
{
    chooser c;
    init3(&c, 1, 0);
    c.time_first = 1;
    chooser_pick p = chooser_next(&c, 5);
    checkf(p.cand == ORIG && p.timed, "first launch: %d timed %d", p.cand, p.timed);
    chooser_record(&c, 5, p.cand, 1.1);
    chooser_pick q = chooser_next(&c, 5);
    checkf(q.cand == ORIG && q.timed, "the verdict needs a second time: %d", q.cand);
    chooser_record(&c, 5, q.cand, 1.0);
    chooser_pick r = chooser_next(&c, 5);
    checkf(r.cand == SPLIT && r.timed && r.probe, "the split's first launch: timed probe");
    chooser_record(&c, 6, ORIG, 2.0);
    chooser_pick t = chooser_next(&c, 6);
    checkf(t.cand == SPLIT, "class 6 after one counted time of the original: %d", t.cand);
}

/*
 * A short kernel on a noisy device (bench/real's masked_update on the H200: launches of
 * the original from 0.029 to 0.056 ms): each candidate's i-th launch takes its time
 * times noise[i % 8]. Two trials each made a tile 1.25x slower look 9% faster (the
 * original's two trials drew the 1.6 and 1.3 stalls); within the noise the two are
 * timed again, and judged by their medians, the original stays.
 */
static const double noise_orig[8] = {1.0, 1.6, 1.3, 1.0, 1.05, 1.0, 1.1, 1.0};
static const double noise_tile[8] = {1.0, 0.95, 1.0, 1.02, 1.0, 1.3, 1.0, 1.0};

static double noisy_run(chooser *c, const double *ms, unsigned n, unsigned cls, unsigned *ran)
{
    double total = 0;
    for (unsigned i = 0; i < n; i++) {
        chooser_pick p = chooser_next(c, cls);
        const double *noise = p.cand == ORIG ? noise_orig : noise_tile;
        double t = ms[p.cand] * noise[ran[p.cand] % 8];
        ran[p.cand]++;
        total += t;
        if (p.timed)
            chooser_record(c, cls, p.cand, t);
    }
    return total;
}

static void test_a_win_within_the_noise_is_timed_again_and_judged_by_medians(void)
{
    chooser c;
    int needs[CHOOSER_MAX_CANDIDATES] = {0, 0, 0, 0}, order[] = {ORIG, TILE};
    chooser_init(&c, 2, order, needs, ORIG);
    c.time_first = 0;
    double ms[3] = {1.0, 0, 1.25};
    unsigned ran[3] = {0};
    noisy_run(&c, ms, 24, 20, ran);
    checkf(chooser_chosen(&c, 20) == ORIG, "chose %d: the tile is 1.25x slower",
           chooser_chosen(&c, 20));
    checkf(ran[TILE] <= 1 + CHOOSER_MAX_TRIALS, "the tile ran %u times", ran[TILE]);
    /* a clear win survives the same noise */
    chooser_init(&c, 2, order, needs, ORIG);
    c.time_first = 0;
    ms[TILE] = 0.55;
    unsigned ran2[3] = {0};
    noisy_run(&c, ms, 24, 20, ran2);
    checkf(chooser_chosen(&c, 20) == TILE, "chose %d: the tile is 1.8x faster",
           chooser_chosen(&c, 20));
}

/* On a quiet device (the same time each launch) a 7% win is kept after two trials each. */
static void test_a_clear_win_on_a_quiet_device_needs_no_more_trials(void)
{
    chooser c;
    init3(&c, 0, 0);
    c.time_first = 0;
    world w = {{1.0, 0.93}, 0.9, 1.2, {0}, 0};
    run_launches(&c, &w, 16, 20);
    checkf(chooser_chosen(&c, 20) == SPLIT, "chose %d", chooser_chosen(&c, 20));
    checkf(w.ran[ORIG] == 3, "the original ran %u times, want 3 (warm-up, two trials)",
           w.ran[ORIG]);
}

int main(void)
{
    test_keeps_the_split_when_it_wins();
    test_keeps_the_original_when_the_split_loses();
    test_drops_a_clearly_slower_split_after_one_trial();
    test_a_first_launch_alone_does_not_drop_a_winner();
    test_a_coherent_probe_skips_the_split_untimed();
    test_takes_the_fastest_of_three();
    test_a_near_tie_keeps_the_original();
    test_size_classes_choose_apart();
    test_rechecks_and_follows_a_change();
    test_a_probe_that_turns_coherent_goes_back_to_the_original();
    test_forced_candidate_always_runs();
    test_first_launch_in_a_class_is_an_untimed_warm_up();
    test_a_slow_first_launch_does_not_decide();
    test_a_delay_keeps_the_first_launches_on_the_prior();
    test_ignores_launches_without_a_time();
    test_a_trusted_profile_tries_the_split_unprobed();
    test_lean_start_runs_a_losing_candidate_once();
    test_lean_start_keeps_a_winner_sooner();
    test_lean_start_ignores_first_launches_that_compile();
    test_lean_start_times_first_launches();
    test_a_seeded_class_runs_its_stored_choice_at_once();
    test_a_win_within_the_noise_is_timed_again_and_judged_by_medians();
    test_a_clear_win_on_a_quiet_device_needs_no_more_trials();
    return check_summary("chooser");
}
