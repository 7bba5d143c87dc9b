/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_build.h - the tool side of the divergence profile (profile.h):
 * a kernel's profile tree and the edits of its instrumented copy, built
 * from the analysis (profile_tree.c), and the instrumented source made
 * from them (profile_emit.c).
 */
#ifndef NPLUS1_PROFILE_BUILD_H
#define NPLUS1_PROFILE_BUILD_H

#include "analyze.h"
#include "keep_in_leaf.h"
#include "profile.h"

/* Text inserted at one offset of the input file (edits at one offset keep their order). */
typedef struct pedit {
    unsigned at;
    unsigned order;
    char *text;
} pedit;

typedef struct profile_kernel {
    const kernel_info *k;
    const decision_plan *planned; /* the plan splits it: its decisions (split ones marked) */
    ptree tree;
    pedit *edits;
    unsigned nedits, capedits;
    char err[256];            /* why it cannot be profiled, or "" */
    unsigned opaque;          /* loops and decisions a macro writes, not recorded */
    unsigned opaque_line;     /* the first one's line */
} profile_kernel;

/* Builds pk->tree and pk->edits for pk->k; 0, or -1 with pk->err set. */
int profile_build_kernel(const analysis *an, profile_kernel *pk);
void profile_kernel_free(profile_kernel *pk);

/*
 * The input file with every kernel's edits and the recording prelude
 * (malloc'd). The layout (profile_layout, profile.h) is not in it: the
 * runner defines NPLUS1_PROF_UNIT, _EVERY, _UNITS and _SLOT in the build
 * options, so that it can run again with room for the longest path.
 */
char *profile_instrumented_source(const analysis *an, const profile_kernel *pks, unsigned n);

#endif
