/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_cmd.h - `nplus1gen FILE --profile`: runs the original kernel,
 * instrumented, on the inputs --validate would build, replays its groups
 * of W items in lock-step and prints the SIMT efficiency, where it is
 * lost, and what a split would gain (docs/cli.md, "--profile").
 */
#ifndef NPLUS1_PROFILE_CMD_H
#define NPLUS1_PROFILE_CMD_H

#include "parse.h"
#include "plan.h"
#include "validate_cmd.h"

typedef struct profile_options {
    unsigned width;               /* --simd-width W: a power of two, 1..64 */
    unsigned long long memory;    /* --profile-memory MiB, in bytes: the recording's limit */
    const char *json;             /* --profile-json FILE, or NULL */
    const char *map;              /* --profile-map FILE.png, or NULL */
    const char *html;             /* --profile-html FILE.html, or NULL */
    int fused;                    /* --dispatch is not host: the set carries the fused kernel */
} profile_options;

/*
 * Returns 0 when every selected kernel was profiled, 1 when the input
 * cannot be profiled (nothing to profile, a kernel it cannot instrument, a
 * recording that does not fit --profile-memory), 2 on a bad --arg, 3 when
 * it cannot run.
 */
int profile_command(const char *input, const parse_options *po, const char **kernels,
                    unsigned nkernels, const plan_options *popt, const validate_options *vo,
                    const profile_options *o);

#endif
