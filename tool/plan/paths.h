/* SPDX-License-Identifier: Apache-2.0 */
/*
 * paths.h - impossible paths: a path through the condition tree whose
 * decisions contradict integer constants assigned on the same path
 * (`case 0: k = 1; ... if (k > 5)`). Such a leaf can get no item; plan
 * drops it (no kernel, no bucket) and --report says why.
 */
#ifndef NPLUS1_PATHS_H
#define NPLUS1_PATHS_H

#include <stddef.h>

#include "analyze.h"

/* One step of a path, in order: a statement it runs, or a branch it takes. */
typedef struct path_event {
    const seq_item *stmt;     /* a statement, or NULL */
    const decision *d;        /* with stmt NULL: the decision, and the branch taken */
    unsigned branch;
} path_event;

/*
 * 1 when the path cannot run: a private integer scalar (no address taken,
 * no other write on the path) holds a constant assigned on the path, and a
 * decision on the path takes the branch that constant rules out. why gets
 * "k = 1 on line 6, k > 5 on line 10".
 */
int path_impossible(const analysis *an, const kernel_info *k, const path_event *ev, unsigned n,
                    char *why, size_t len);

#endif
