/* SPDX-License-Identifier: Apache-2.0 */
/*
 * validate_cmd.h - `nplus1gen --validate`: transform in memory, build the
 * original and the generated set on a device, run both on identical
 * seeded inputs, diff every writable buffer, report per leaf.
 */
#ifndef NPLUS1_VALIDATE_CMD_H
#define NPLUS1_VALIDATE_CMD_H

#include "emit.h"
#include "plan.h"

typedef struct validate_options {
    unsigned dim;
    size_t global[3], local[3], offset[3];
    int has_local;
    unsigned long long seed;
    unsigned ulp;
    int reps;
    unsigned timeout;         /* seconds before the device run is stopped (0: none) */
    const char **args;        /* "name=value" or "name=size:N" */
    unsigned nargs;
    const char **defines;     /* -D, passed to the original's build */
    unsigned ndefines;
    const char **includes;    /* -I */
    unsigned nincludes;
    const char *input;
    int quiet;
    /* issue 12 */
    const char **unordered;   /* --unordered NAME: compared as a multiset */
    const char **count;       /* per --unordered: --count NAME2, or NULL (the whole buffer) */
    unsigned nunordered;
    int require_all_leaves;   /* fail when a leaf that does work got no items */
    const char *emit_job;     /* --emit-job DIR: write the job there, run nothing */
    const char *device;       /* --device oclgrind, or NULL (the default device) */
    const char *device_select; /* --device NAME|INDEX: the runner's NPLUS1_DEVICE, or NULL */
    const char *build_options; /* --build-options: run-time options for both builds, or NULL */
    const char *cl_std;       /* --cl-std: the version the input was parsed as, or NULL;
                               * both builds get -cl-std= with it */
} validate_options;

/* Parses "N[,H[,D]]" into sizes; returns the dimension count or 0. */
unsigned parse_dims(const char *s, size_t out[3]);

/*
 * Returns 0 when every kernel matches, 1 on a mismatch or an inconclusive
 * run, 2 on a bad --arg, 3 when it cannot run. With emit_job: writes the
 * job and returns 0.
 */
int validate_run(const plan *pl, dispatch d, const emit_output *out, const validate_options *o);

/* One generated set of a run that validates several (--strategy A,B --dispatch C,D). */
typedef struct validate_set {
    const char *label;        /* "tile/fused": the runner's verdict names the set by it */
    const plan *pl;
    dispatch dispatch;        /* the dispatch its driver was emitted with */
    const emit_output *out;
} validate_set;

/*
 * The n sets in one job (n = 1: exactly validate_run): the runner builds each
 * kernel's original once, runs every set against it and prints one verdict
 * per set and one for them all; the exit is the worst set's.
 */
int validate_run_sets(const validate_set *sets, unsigned n, const validate_options *o);

/*
 * A job's pieces, for the profile's jobs too (profile_cmd.c): a --arg
 * value with a file: input copied into DIR/inputs (NULL after a message),
 * and the build options: with --emit-job the headers copied into
 * DIR/include/N, else what a run here builds with (-D, --build-options, the
 * input's folder and each -I, absolute), as --validate's own runs do.
 */
char *validate_job_value(const char *dir, const char *spec);
char *validate_job_options(const validate_options *o, const char *dir);

/* A parameter's `arg` line and its struct's `field` lines (common/job.h writes them). */
void validate_job_param(strbuf *sb, const kernel_param *a);
/* The `racy` line of k (job.h): the buffers its items may race on (race_scan.h). */
void validate_job_racy(strbuf *sb, const analysis *an, const kernel_info *k);

#endif
