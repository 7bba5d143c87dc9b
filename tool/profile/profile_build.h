/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_build.h - the tool side of the divergence profile (profile.h):
 * a kernel's profile tree and the edits of its instrumented copy, built
 * from the kernel IR (ir.h, ir_src.h; profile_tree.c), and the instrumented
 * source made from them (profile_emit.c).
 *
 * A helper that holds a decision or a loop is recorded where the IR inlines
 * it: its body sits in the tree at each call (one construct per call), and
 * the instrumented copy calls a copy of the helper, `__nplus1_NAME`, that
 * takes the recorder as its first parameter and records its own decisions
 * and loop tests (a clone). Calls the tree cannot place (in a loop's
 * condition or step, under ?: or && / ||) call the helper as written, and
 * its cost counts as the statement's, as for a helper without decisions.
 */
#ifndef NPLUS1_PROFILE_BUILD_H
#define NPLUS1_PROFILE_BUILD_H

#include "analyze.h"
#include "ir_src.h"
#include "keep_in_leaf.h"
#include "profile.h"

/* Text inserted at one offset of the input file (edits at one offset keep their order). */
typedef struct pedit {
    unsigned at;
    unsigned order;
    char *text;
    unsigned skip;            /* bytes of the input the text replaces (0: an insertion) */
    int clone;                /* -1: the input file; else the clone (profile_kernel.clones)
                               * whose copy of the helper's text it edits */
    int early;                /* goes before the other edits at its offset: a call's
                               * recorder argument before a nested call's name */
} pedit;

/* A helper's recording copy (see above). */
typedef struct pclone {
    ir_helper_src src;
    char *name;
    int failed;               /* cannot be recorded: its calls stay as written */
} pclone;

typedef struct profile_kernel {
    const kernel_info *k;
    const decision_plan *planned; /* the plan splits it: its decisions (split ones marked) */
    ptree tree;
    pedit *edits;
    unsigned nedits, capedits;
    char err[256];            /* why it cannot be profiled, or "" */
    unsigned opaque;          /* loops and decisions a macro writes, not recorded */
    unsigned opaque_line;     /* the first one's line */
    pclone *clones;
    unsigned nclones, capclones;
    unsigned unrecorded;      /* helpers that hold decisions or loops, not recorded */
    char unrecorded_why[256]; /* the first one's name, line and reason */
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
