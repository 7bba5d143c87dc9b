/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_in.h - `nplus1gen FILE -o DIR --profile-in P.json`: reads what
 * --profile-json wrote (docs/cli.md, "--profile-in") and keeps, per kernel,
 * the predicted speed-up bounds that the manifest and the driver's
 * description carry to the runtime's static prior (docs/driver.md).
 */
#ifndef NPLUS1_PROFILE_IN_H
#define NPLUS1_PROFILE_IN_H

#include <stddef.h>

#include "plan.h"

/* One kernel of the profile. A bound of 0: the profile predicts nothing (no split). */
typedef struct profile_prior {
    char *name;
    double simt_efficiency;
    unsigned width;
    double split_bound;        /* predicted speed-up bound of the n+1 split */
    double tile_bound;         /* ... of the tile strategy */
    double loop_bound;         /* ... of the regrouped loop ("tile+loop"), 0: none predicted */
    int has_candidates;        /* the bounds are the carried candidates' predicted speed-ups
                                * ("candidates"), 0 for a candidate not carried or not told */
} profile_prior;

typedef struct profile_in {
    char *path;                /* the file as given */
    profile_prior *kernels;
    unsigned nkernels;
} profile_in;

/*
 * Reads path, a --profile-json file of input (compared by file name, without
 * the directory). Returns 0, or -1 with a message in err: the file cannot be
 * read, is not JSON, not an nplus1-profile of version 1, or profiles another
 * file.
 */
int profile_in_load(profile_in *p, const char *path, const char *input, char *err,
                    size_t errlen);

/* The kernel's entry, NULL when the profile has none. */
const profile_prior *profile_in_find(const profile_in *p, const char *kernel);

/* Puts p's predictions on each kernel of pl that p profiles (kernel_plan.prior), the
 * numbers emit writes into the driver and the manifest; the others keep a zero prior. */
void profile_in_apply(const profile_in *p, plan *pl);

void profile_in_free(profile_in *p);

#endif
