/* SPDX-License-Identifier: Apache-2.0 */
/*
 * race_scan.h - the buffers a kernel's items may race on, as far as its
 * text shows: written at an index that comes from memory (a load, or a
 * local computed from one) and read too, in the kernel's body. Rodinia's
 * BFS_1 reads g_cost[tid] and writes g_cost[id], id = g_graph_edges[i]:
 * two items may write one element, or one read what another writes, and
 * the original's result then depends on the schedule. Validation and the
 * profile use it only to explain a mismatch (job.h, the `racy` line).
 */
#ifndef NPLUS1_RACE_SCAN_H
#define NPLUS1_RACE_SCAN_H

#include "analyze.h"

/* racy[p] = 1 for each such pointer parameter p of k (k->nparams entries); the count. */
unsigned race_scan(const analysis *an, const kernel_info *k, unsigned char *racy);

#endif
