/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_report.h - what --profile measured, replayed and printed: the
 * kernel's SIMT efficiency, per decision and loop where work is lost, the
 * predictions after regrouping (the text report, --profile-json). Plain
 * C: nplus1gen-validate prints the report of a profile job with it.
 */
#ifndef NPLUS1_PROFILE_REPORT_H
#define NPLUS1_PROFILE_REPORT_H

#include <stddef.h>

#include <stdio.h>

#include "calibration.h"
#include "profile.h"
#include "profile_loop.h"

/* One kernel's run: what the runner measured and the recording. */
typedef struct profile_result {
    char device[256];
    size_t compared, mismatches;  /* instrumented vs original, writable buffers */
    size_t self_mismatches;       /* after a mismatch: the original's second run vs its first */
    size_t race_mismatches;       /* the mismatches on buffers items may race on (job.h) */
    char races[256];              /* those buffers' names, "g_cost, g_mask" */
    unsigned tile;                /* items per tile the runtime would use on the device */
    unsigned char *record;
    ptrace *traces;               /* the recorded items, by linear id */
    unsigned long long *ids;
    size_t n;
    unsigned longest;             /* the longest path, in tokens */
    size_t cut;                   /* items whose path did not fit their slot: left out (a
                                   * kernel that took a longer path on the second run) */
} profile_result;

void profile_result_free(profile_result *r);

/*
 * The generated set the profile predicts for (profile.tree's "set" line,
 * written from the plan of the same options): the candidates it carries and
 * what their schedules cost besides the replayed work.
 */
typedef struct profile_set {
    int known;                /* 0: a tree without the line (the split and tile as before) */
    unsigned carries;         /* bit c: candidate c (NPLUS1RT_CAND_*, nplus1rt_format.h) */
    unsigned tile;            /* the tile kernel: AUTO_TILE_* (0 none, 1 plain, 2 context, 3 loop, 4 machine) */
    unsigned ctx_bytes;       /* the tile's (the loop's) context per item */
    unsigned launches;        /* kernels one launch of the split runs: passes and leaves */
    double classifier;        /* the classifier's operations per item */
    double prologue;          /* the prologue's, which the plain tile runs twice */
    double accesses, ops;     /* the kernel's memory accesses and operations (its top level) */
    double classifier_accesses; /* the classifier's memory accesses (the decisions' inputs) */
    unsigned regroup;         /* the tile's (the loop's) default regroup policy: 0 never (in
                               * place; the loop kernel only refills), 1 or 2 regrouped,
                               * PROFILE_REGROUP_OFF the tile kernel (plain, context, loop
                               * or a machine without regroup points) with regrouping off
                               * (the kernel's own body, launched as the original) */
    double loop_accesses, loop_ops; /* a loop set: one iteration of the loop's body (its
                                     * statements' memory accesses and operations) */
    double access_bytes;      /* the bytes the kernel's accesses (its top level) move per item:
                               * their types' sizes (0: a tree without it) */
    double split_classifier;  /* the split's counting pass: the whole slice's operations per
                               * item (classifier is the context tile's classify phase, which
                               * leaves out the prologue it runs once); 0: a tree without it
                               * (classifier then) */
} profile_set;

#define PROFILE_REGROUP_OFF 3u /* profile_set.regroup: the set's tile kernel runs in place */

/* One profiled kernel: its name and its tree. */
typedef struct profile_kernel_tree {
    char *name;
    ptree tree;
    profile_set set;
} profile_kernel_tree;

/* One carried candidate's prediction (profile_replay_cost.c). */
typedef struct candidate_prediction {
    int cand;                 /* NPLUS1RT_CAND_* */
    int known;                /* 0: the model cannot tell: why says why */
    double cost;              /* FMA-equivalents per item: replayed work, classifier, rounds,
                               * launches */
    double speedup;           /* the original's cost / this one's */
    char why[200];
} candidate_prediction;

/* What the replays measured, per item (FMA-equivalents), for the predictions. */
typedef struct replay_costs {
    double original;          /* the measured grouping's issued work */
    double split, tile;       /* grouped by leaf (split), by leaf inside tiles (tile) */
    int has_split;            /* the split regroups by a decision the profile sees */
    int has_loop_kernel;      /* the loop kernel's schedule was replayed (profile_loop.h) */
    double loop_kernel;       /* its issued work: the kernel's, its own, its rounds' */
    double loop_own;          /* of which its own: per iteration, per item taken, rounds */
    double loop_wait;         /* lane work idle at its rounds' barriers (not in loop_kernel:
                               * other work-groups' SIMD groups issue in that time) */
    double gather[4];         /* the split's leaves, their items taken by bucket: the memory
                               * sectors their accesses touch against the original's, for
                               * 1, 2, 4, 8 items a sector (elements of 32, 16, 8, 4 bytes);
                               * 0: not measured (1) */
    double gather_tile[4];    /* the same of the tile's leaves, their items regrouped inside
                               * each tile */
    double accesses;          /* the memory accesses an item makes, replayed on its path
                               * (0: a tree without them) */
    double coalesced, coalesced_bytes; /* of those, the ones that coalesce and their bytes */
    double memory_bytes;      /* the DRAM bytes those accesses move an item: a coalesced one
                               * its bytes, a broadcast one a sector a SIMD group, any other
                               * a sector (a tree without the classes: a sector each) */
    double original_rough;    /* a loop set's: the original's work without the math
                               * builtins' time (pstats.rough), the loop kernel's unit */
} replay_costs;

#define PROFILE_MAX_CANDIDATES 4
/* Below this many operations per memory access the model cannot tell (memory-bound). */
#define PROFILE_MEMORY_BOUND_OPS 16.0
/* A memory access of an item moves at least a DRAM sector (NVIDIA: 32 bytes) at the
 * device's bandwidth (an H200's HBM3e: 4.8 TB/s, 4800 bytes a ns); the calibration
 * measures no global memory yet. */
#define PROFILE_SECTOR_BYTES 32.0
#define PROFILE_DRAM_BYTES_NS 4800.0
/* The L2's bandwidth, which the tile's regrouped leaves read their tile's sectors from:
 * about twice the DRAM's on an H100 or H200 (microbenchmarks read 5.5-7 TB/s on an H100
 * PCIe's L2 against its 2 TB/s HBM; taken here as 2x the H200's 4.8 TB/s). */
#define PROFILE_L2_BYTES_NS 9600.0
/* The L2's capacity (an H100's or H200's: 50 MB), which holds the working set of a launch
 * whose buffers fit: the split's extra traffic then comes from the L2 (profile_replay_cost.c,
 * dram_share). The calibration measures no cache yet. */
#define PROFILE_L2_BYTES 50.0e6

/*
 * Predicts each candidate set carries (in NPLUS1RT_CANDIDATES order) from the
 * replays rc under the cost model cal, for a launch of launch_items items;
 * writes at most PROFILE_MAX_CANDIDATES to out and returns how many.
 */
unsigned profile_predict_candidates(const replay_costs *rc, const profile_set *set,
                                    const nplus1rt_calibration *cal,
                                    unsigned long long launch_items, candidate_prediction *out);

/*
 * The loop kernel's own costs under the cost model cal (profile_replay_cost.c): what its
 * generated text runs per iteration, per item taken and per round, for a loop regrouped
 * by groups branches; fills p's costs and policy (set->regroup), not its sizes.
 */
void profile_loop_kernel_costs(const profile_set *set, const nplus1rt_calibration *cal,
                               unsigned groups, loop_kernel_params *p);

/* The candidate auto tries first from these predictions (set_choice.c's prior), or -1. */
int profile_auto_first(const candidate_prediction *p, unsigned n);

typedef struct profile_report {
    const char *input;            /* the user's file name, for the JSON */
    unsigned dim;
    size_t global[3];
    unsigned long long seed;
    unsigned width;               /* --simd-width */
    const char *json;             /* --profile-json FILE, or NULL */
    profile_layout lay;
    unsigned long long items;     /* the launch's items */
    const profile_kernel_tree *ks;
    unsigned nks;
    profile_result *res;          /* per kernel */
    const calibration_choice *cal; /* the cost model (NULL: the defaults) */
} profile_report;

/* One kernel's replays: the measured grouping and the predictions the report prints. */
#define PROFILE_MAX_LOOP_PREDICTIONS 8
typedef struct profile_replayed {
    pstats base, split, tile;     /* split, tile: only when has_split */
    int has_split;
    loop_prediction loops[PROFILE_MAX_LOOP_PREDICTIONS]; /* the regroupable loops */
    unsigned nloops;
    double gather[4], gather_tile[4]; /* the memory gathers (replay_costs.gather) */
    replay_costs costs;           /* per item, for the candidates' predictions */
    candidate_prediction cands[PROFILE_MAX_CANDIDATES]; /* the carried candidates (set known) */
    unsigned ncands;
    int auto_first;               /* the candidate auto tries first, -1 none */
} profile_replayed;

/*
 * The launch the predictions weigh the launch gaps for: NPLUS1_PREDICT_ITEMS=N (a profile
 * made at fewer items than the launch it predicts), else the profiled launch's items.
 */
unsigned long long profile_predict_items(const profile_report *rep);

/* Replays kernel i of rep into kp (profile_replayed_free frees it). */
void profile_replay_kernel(const profile_report *rep, unsigned i, profile_replayed *kp);
void profile_replayed_free(profile_replayed *kp);

/* Kernel i's part of the text report, as --profile prints it. */
void profile_print_kernel(FILE *f, const profile_report *rep, unsigned i,
                          const profile_replayed *kp);

/* Replays, prints and writes the JSON; 0, or 3 after a message. */
int profile_report_all(const profile_report *rep);

#endif
