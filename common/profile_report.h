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

/* One profiled kernel: its name and its tree. */
typedef struct profile_kernel_tree {
    char *name;
    ptree tree;
} profile_kernel_tree;

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
} profile_report;

/* One kernel's replays: the measured grouping and the predictions the report prints. */
#define PROFILE_MAX_LOOP_PREDICTIONS 8
typedef struct profile_replayed {
    pstats base, split, tile;     /* split, tile: only when has_split */
    int has_split;
    loop_prediction loops[PROFILE_MAX_LOOP_PREDICTIONS]; /* the regroupable loops */
    unsigned nloops;
} profile_replayed;

/* Replays kernel i of rep into kp (profile_replayed_free frees it). */
void profile_replay_kernel(const profile_report *rep, unsigned i, profile_replayed *kp);
void profile_replayed_free(profile_replayed *kp);

/* Kernel i's part of the text report, as --profile prints it. */
void profile_print_kernel(FILE *f, const profile_report *rep, unsigned i,
                          const profile_replayed *kp);

/* Replays, prints and writes the JSON; 0, or 3 after a message. */
int profile_report_all(const profile_report *rep);

#endif
