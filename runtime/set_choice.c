/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_choice.c - the measured choice (--split auto) as the set runs it: the
 * candidate table (nplus1rt_format.h's NPLUS1RT_CANDIDATES), the prior of the
 * profile and the cost model, timed trials, forced choices and the name of
 * the last one. The decisions are choose.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "set_internal.h"

static cl_int cand_original(nplus1rt_set *s, const request *r, int probing)
{
    (void)probing;
    return set_run_original(s, r->q, r->dim, r->off, r->gsz, r->lsz, r->args);
}

static int has_original(const nplus1rt_set *s)
{
    return s->original != NULL;
}

static int has_split(const nplus1rt_set *s)
{
    (void)s;
    return 1;
}

/* CHUNKED sets carry the aggregated passes too: a second split to measure. */
static int has_aggregated(const nplus1rt_set *s)
{
    return s->chunk && s->dispatch == NPLUS1RT_DISPATCH_FUSED;
}

/* The one-kernel tile beside the set's own strategy (a TILE set's split is the tile). */
static int has_tile(const nplus1rt_set *s)
{
    return s->tile && s->desc->strategy != NPLUS1RT_TILE;
}

static cl_int cand_aggregated(nplus1rt_set *s, const request *r, int probing)
{
    s->no_chunk = 1;
    cl_int err = set_launch_split(s, r, probing);
    s->no_chunk = 0;
    return err;
}

/* What a set can run. Adding a candidate is one entry (and its launch). */
typedef struct candidate {
    const char *name;      /* NPLUS1_CHOICE and nplus1rt_set_force_choice take it */
    int needs_divergence;  /* pays only when the items of a SIMD group diverge */
    int (*carried)(const nplus1rt_set *s);
    cl_int (*run)(nplus1rt_set *s, const request *r, int probing);
} candidate;

enum {
    CAND_ORIGINAL = NPLUS1RT_CAND_ORIGINAL,
    CAND_SPLIT = NPLUS1RT_CAND_SPLIT,
    CAND_AGGREGATED = NPLUS1RT_CAND_AGGREGATED,
    CAND_TILE = NPLUS1RT_CAND_TILE
};

/* Named and ordered by NPLUS1RT_CANDIDATES (nplus1rt_format.h): the manifest lists the same. */
#define CANDIDATE_(id, v, name, needs) [v] = {name, needs, has_##id, cand_##id},
#define has_ORIGINAL has_original
#define has_SPLIT has_split
#define has_AGGREGATED has_aggregated
#define has_TILE has_tile
#define cand_ORIGINAL cand_original
#define cand_SPLIT set_launch_split
#define cand_AGGREGATED cand_aggregated
#define cand_TILE set_run_tile
static const candidate candidates[] = {NPLUS1RT_CANDIDATES(CANDIDATE_)};
#define NCANDIDATES (sizeof candidates / sizeof *candidates)

/* "<strategy>/<dispatch>", e.g. "aggregated/fused" ("tile": one kernel, no dispatch). */
#define PASS_NAME_(id, v, name) {name "/host", name "/fused"},
static const char *pass_name(nplus1rt_strategy st, nplus1rt_dispatch d)
{
    static const char *names[][2] = {NPLUS1RT_STRATEGIES(PASS_NAME_)};
    if (st == NPLUS1RT_TILE)
        return "tile";
    return (unsigned)st < sizeof names / sizeof *names ? names[st][d == NPLUS1RT_DISPATCH_FUSED]
                                                       : "split";
}

/* The split the last launch ran: a chunk layout that did not fit ran the aggregated passes. */
static const char *split_name(const nplus1rt_set *s)
{
    nplus1rt_strategy st = s->desc->strategy;
    if (st == NPLUS1RT_CHUNKED && !s->last_chunked)
        st = NPLUS1RT_AGGREGATED;
    return pass_name(st, s->dispatch);
}

/* A candidate by name (or the split by "<strategy>/<dispatch>"); -1 when not carried. */
int set_candidate_named(const nplus1rt_set *s, const char *name)
{
    for (unsigned c = 0; c < NCANDIDATES; c++) {
        const char *full = c == CAND_SPLIT        ? pass_name(s->desc->strategy, s->dispatch)
                           : c == CAND_AGGREGATED ? pass_name(NPLUS1RT_AGGREGATED, s->dispatch)
                                                  : candidates[c].name;
        if (candidates[c].carried(s) && (!strcmp(name, candidates[c].name) || !strcmp(name, full)))
            return (int)c;
    }
    return -1;
}

/*
 * The profile's prior (format 2, nplus1gen --profile-in): every carried
 * candidate's predicted speed-up bound under PRIOR_NO_GAIN runs the original
 * first, trials after PRIOR_NO_GAIN_DELAY launches; one over PRIOR_GAIN is
 * tried first, without the probe of the first round. 0: no profile.
 */
#define PRIOR_NO_GAIN 1.05
#define PRIOR_NO_GAIN_DELAY 64
#define PRIOR_GAIN 1.25

/* The candidate the prior puts first: CAND_ORIGINAL, the split, the tile, or -1 (none). */
static int prior_first(const nplus1rt_set *s, int *no_gain, int *gain)
{
    double split = has_split(s) ? s->desc->predicted_split : 0;
    double tile = has_tile(s) ? s->desc->predicted_tile : 0;
    double best = split > tile ? split : tile;
    *no_gain = best > 0 && best < PRIOR_NO_GAIN;
    *gain = best >= PRIOR_GAIN;
    if (*gain)
        return tile > split ? CAND_TILE : CAND_SPLIT;
    return *no_gain || s->desc->split == NPLUS1RT_SPLIT_NEVER ? CAND_ORIGINAL : -1;
}

/*
 * The choice cache (set_cache.c): each class a process before stored starts
 * on its stored candidate; a name this set does not carry makes the entry
 * ignored, with a note.
 */
static void seed_stored_choices(nplus1rt_set *s)
{
    int cand[CHOOSER_CLASSES];
    set_cache_read(s);
    for (unsigned k = 0; k < CHOOSER_CLASSES; k++) {
        cand[k] = s->cache_name[k][0] ? set_candidate_named(s, s->cache_name[k]) : -1;
        if (s->cache_name[k][0] && cand[k] < 0) {
            set_cache_note(s, "it names a candidate this set does not carry");
            memset(s->cache_name, 0, sizeof s->cache_name);
            return;
        }
    }
    for (unsigned k = 0; k < CHOOSER_CLASSES; k++)
        if (cand[k] >= 0)
            chooser_seed(&s->chooser, k, cand[k]);
}

/*
 * Whether the measured choice tries candidate c: a tile kernel built with regrouping
 * off (the tool's choice where no round pays, or NPLUS1_TILE_REGROUP=off) is the
 * original's body launched as the original, so its trials would time the original
 * twice and keep either by noise (a TILE set's split is its tile); it stays forcible by
 * name.
 */
static int offered(const nplus1rt_set *s, int c)
{
    if (!candidates[c].carried(s))
        return 0;
    const int runs_tile = c == CAND_TILE || (c == CAND_SPLIT && s->desc->strategy == NPLUS1RT_TILE);
    return !(runs_tile && s->tile_in_place && has_original(s));
}

/*
 * The chooser's candidates, in the prior's order: the original first when
 * the static model said never or the profile predicts no gain, the
 * profile's favourite first when it predicts a clear one.
 */
void set_init_choice(nplus1rt_set *s)
{
    int order[CHOOSER_MAX_CANDIDATES], needs[CHOOSER_MAX_CANDIDATES] = {0};
    unsigned n = 0;
    int no_gain, gain, first = prior_first(s, &no_gain, &gain);
    if (first >= 0 && offered(s, first))
        order[n++] = first;
    for (unsigned c = 0; c < NCANDIDATES && n < CHOOSER_MAX_CANDIDATES; c++) {
        needs[c] = candidates[c].needs_divergence;
        if (offered(s, (int)c) && (int)c != first)
            order[n++] = (int)c;
    }
    chooser_init(&s->chooser, n, order, needs, has_original(s) ? CAND_ORIGINAL : -1);
    s->chooser.probe_threshold = s->probe_threshold;
    s->chooser.trust_divergence = gain;
    s->chooser.time_first = !s->config.choice_classic;
    const set_config *cfg = &s->config;
    const char *force = cfg->choice;
    if (cfg->has_recheck_period)
        s->chooser.recheck_period = cfg->recheck_period;
    /* when the original goes first the split is unlikely to pay: its trials (and
     * the fixed costs of a split's first launch) wait until 16 (64) launches ran */
    s->chooser.delay = cfg->has_choice_delay      ? cfg->choice_delay
                       : no_gain                 ? PRIOR_NO_GAIN_DELAY
                       : first == CAND_ORIGINAL  ? 16
                                                 : 0;
    s->forced = force && strcmp(force, "auto") ? set_candidate_named(s, force) : -1;
    if (s->forced < 0)
        seed_stored_choices(s);
}

void set_choice_forget_stored(nplus1rt_set *s)
{
    int on = s->cache_on;
    s->cache_on = 0; /* set_init_choice reads nothing: every class as in a first process */
    set_init_choice(s);
    s->cache_on = on;
}

static int queue_profiles(cl_command_queue q)
{
    cl_command_queue_properties p = 0;
    return clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL) == CL_SUCCESS &&
           (p & CL_QUEUE_PROFILING_ENABLE);
}

/* From the start of the launch's first kernel to the end of its last. */
static double events_span(nplus1rt_set *s, unsigned first)
{
    if (s->nevents <= first || clWaitForEvents(1, &s->events[s->nevents - 1]) != CL_SUCCESS)
        return -1;
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(s->events[first], CL_PROFILING_COMMAND_START, sizeof start, &start,
                                NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(s->events[s->nevents - 1], CL_PROFILING_COMMAND_END, sizeof end,
                                &end, NULL) != CL_SUCCESS || end <= start)
        return -1;
    return (double)(end - start) * 1e-6;
}

/*
 * A timed trial: the host's clock around the launch, the queue drained before
 * and after, as --reps times a launch; with NPLUS1_TRIAL_CLOCK=events, the span
 * of its kernels' profiling events where the queue has them. The span leaves out
 * what a launch costs the host (setting the tile kernel's ten extra arguments,
 * launching more kernels): on an H200 a tile chosen by its span ran 0.87-0.91x of
 * the original in wall time on three rows of bench/real (bitonic_mirror skewed,
 * masked_update random and skewed), where trials by the wall clock kept the
 * original (docs/performance.md, session 7). A probe that switched the launch to
 * the original leaves nothing to record.
 */
static cl_int timed_trial(nplus1rt_set *s, const request *r, chooser_pick p, unsigned cls)
{
    int events = s->config.trial_events && queue_profiles(r->q);
    unsigned first = s->nevents;
    cl_int err = CL_SUCCESS;
    if (!events && (err = clFinish(r->q)) != CL_SUCCESS)
        return set_fail(s, err, "timing a candidate");
    s->timing = events;
    double t0 = nplus1rt_now_ms();
    err = candidates[p.cand].run(s, r, p.probe);
    s->timing = 0;
    if (err != CL_SUCCESS)
        return err;
    if (p.cand != CAND_ORIGINAL && s->last_original)
        return CL_SUCCESS; /* the probe found the input coherent */
    double ms = events ? events_span(s, first) : -1;
    if (!events) {
        if ((err = clFinish(r->q)) != CL_SUCCESS)
            return set_fail(s, err, "timing a candidate");
        ms = nplus1rt_now_ms() - t0;
    }
    chooser_record(&s->chooser, cls, p.cand, ms);
    if (s->config.trace_choice)
        fprintf(stderr, "nplus1: trial of %s: %.4f ms (%s, launch class %u)\n",
                candidates[p.cand].name, ms, events ? "profiling events" : "wall clock", cls);
    return CL_SUCCESS;
}

cl_int set_run_candidate(nplus1rt_set *s, const request *r, int c, int probing)
{
    return candidates[c].run(s, r, probing);
}

cl_int set_enqueue_measured(nplus1rt_set *s, const request *r)
{
    unsigned cls = chooser_class_of(r->L.n);
    int before = chooser_chosen(&s->chooser, cls);
    chooser_pick p = chooser_next(&s->chooser, cls);
    cl_int err = p.timed ? timed_trial(s, r, p, cls) : candidates[p.cand].run(s, r, p.probe);
    int chosen = chooser_chosen(&s->chooser, cls);
    if (s->config.trace_choice && chosen >= 0 && chosen != before)
        fprintf(stderr, "nplus1: chose %s (launch class %u)\n", candidates[chosen].name, cls);
    if (err == CL_SUCCESS && chosen >= 0)
        set_cache_write(s, cls, candidates[chosen].name);
    return err;
}

cl_int nplus1rt_set_force_choice(nplus1rt_set *s, const char *name)
{
    if (!s)
        return CL_INVALID_VALUE;
    int c = !name || !strcmp(name, "auto") ? -1 : set_candidate_named(s, name);
    if (name && strcmp(name, "auto") && c < 0)
        return set_fail(s, CL_INVALID_VALUE, "no such candidate in this set");
    s->forced = c;
    return CL_SUCCESS;
}

int nplus1rt_set_measuring(const nplus1rt_set *s, size_t items)
{
    if (!s || s->forced >= 0 || s->split != NPLUS1RT_SPLIT_MEASURED)
        return 0;
    return !chooser_settled(&s->chooser, chooser_class_of(items));
}

const char *nplus1rt_set_last_choice(const nplus1rt_set *s)
{
    if (!s || !s->last_queue)
        return "none";
    if (s->last_original)
        return "original";
    if (s->last_tile)
        return "tile";
    return split_name(s);
}
