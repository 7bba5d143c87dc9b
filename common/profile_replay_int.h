/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_replay_int.h - the lock-step replay's state and steps (profile_replay.c),
 * shared with the schedules replayed on them (profile_loop_kernel.c). Not a
 * public interface: profile.h is.
 */
#ifndef NPLUS1_PROFILE_REPLAY_INT_H
#define NPLUS1_PROFILE_REPLAY_INT_H

#include <stdint.h>

#include "profile.h"

typedef struct rctx {
    const ptree *t;
    pstats *s;
    const ptrace *lane[PROFILE_MAX_WIDTH];
    unsigned pos[PROFILE_MAX_WIDTH];
    int cause[PROFILE_MAX_WIDTH]; /* why an idle lane waits: a construct, -1 the top */
    uint64_t present;
    uint64_t brk, cont;       /* lanes that left by break / continue, for the construct */
    uint64_t ret;             /* lanes that left the innermost helper by its return */
    int cur;                  /* the innermost construct being run */
    unsigned char *reached, *diverged; /* per construct, in this group */
    unsigned char *key;       /* profile_leaf_key: the split tokens */
    unsigned nkey, capkey;
} rctx;

/* The group issues cost for every present lane; those in m do work, the others wait. */
void replay_issue(rctx *x, double cost, uint64_t m);
/* Runs s for the lanes m; returns the lanes that reach its end. */
uint64_t replay_seq(rctx *x, const pseq *s, uint64_t m);
/* Loop nd's test for the lanes in: returns those that stay, adds those that leave to *left. */
uint64_t replay_loop_test(rctx *x, const pnode *nd, uint64_t in, uint64_t *left);

#endif
