/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_inspect.c - what validation and the benchmark read back from a set
 * after a launch: the leaf counts, the kernels' profiled times, and each
 * item's leaf (from the buckets, the chunk layout or the tile's record).
 */
#include <stdlib.h>

#include "set_internal.h"

cl_int nplus1rt_set_last_counts(nplus1rt_set *s, cl_uint *counts, unsigned n)
{
    if (!s || !counts)
        return CL_INVALID_VALUE;
    unsigned nl = s->desc->nleaves;
    if (!s->counts_valid) {
        if (!s->last_queue)
            return set_fail(s, CL_INVALID_OPERATION, "no launch yet");
        if (s->last_tile && s->last_uncounted)
            return set_fail(s, CL_INVALID_OPERATION,
                            "the last tile launch did not count its items "
                            "(nplus1rt_set_record_leaves)");
        if (s->last_original) { /* no buckets this time */
            for (unsigned i = 0; i < n; i++)
                counts[i] = 0;
            return CL_SUCCESS;
        }
        cl_int err = clEnqueueReadBuffer(s->last_queue, s->ctr, CL_TRUE, 0, nl * sizeof(cl_uint),
                                         s->last_counts, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return set_fail(s, err, "reading the leaf counts");
        s->counts_valid = 1;
    }
    for (unsigned i = 0; i < n; i++)
        counts[i] = i < nl ? s->last_counts[i] : 0;
    return CL_SUCCESS;
}

void nplus1rt_set_profiling(nplus1rt_set *s, int on)
{
    s->profiling = on;
}

unsigned nplus1rt_set_last_kernel_times(nplus1rt_set *s, double *ms, unsigned max)
{
    unsigned n = s->nevents < max ? s->nevents : max;
    for (unsigned i = 0; i < n; i++)
        ms[i] = nplus1rt_event_ms(s->events[i]);
    return n;
}

/* The last launch's kernel times summed (only its leaf kernels' with leaves_only), and
 * whether any event had a time. */
static double events_total(nplus1rt_set *s, int leaves_only, int *any)
{
    double total = 0;
    *any = 0;
    for (unsigned i = 0; i < s->nevents; i++) {
        double ms = !leaves_only || s->event_leaf[i] ? nplus1rt_event_ms(s->events[i]) : -1;
        if (ms > 0) {
            total += ms;
            *any = 1;
        }
    }
    return total;
}

double set_last_leaves_ms(nplus1rt_set *s)
{
    int any;
    double total = events_total(s, 1, &any);
    return any ? total : -1;
}

double nplus1rt_set_last_kernel_ms(nplus1rt_set *s)
{
    int any;
    return events_total(s, 0, &any);
}

/* The chunk layout: entries are (leaf << 26 | id), padding 0xffffffff. */
static cl_int chunk_item_leaves(nplus1rt_set *s, cl_int *leaf_of, size_t n)
{
    for (size_t i = 0; i < n; i++)
        leaf_of[i] = -1;
    cl_uint *idx = malloc(s->last_positions * sizeof *idx);
    if (!idx)
        return set_fail(s, NPLUS1_ERR_OOM, "reading the buckets");
    cl_int err = clEnqueueReadBuffer(s->last_queue, s->idx, CL_TRUE, 0,
                                     s->last_positions * sizeof *idx, idx, 0, NULL, NULL);
    cl_uint used = 0;
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(s->last_queue, s->ctr, CL_TRUE,
                                  s->desc->nleaves * sizeof(cl_uint), sizeof used, &used, 0, NULL,
                                  NULL);
    for (cl_uint j = 0; err == CL_SUCCESS && j < used && j < s->last_positions; j++)
        if (idx[j] != 0xffffffffu && (idx[j] & 0x3ffffffu) < n)
            leaf_of[idx[j] & 0x3ffffffu] = (cl_int)(idx[j] >> 26);
    free(idx);
    return err == CL_SUCCESS ? err : set_fail(s, err, "reading the buckets");
}

/* TILE: the recorded byte per item (255: none). */
static cl_int tile_item_leaves(nplus1rt_set *s, cl_int *leaf_of, size_t n)
{
    if (s->last_tile != 2)
        return set_fail(s, CL_INVALID_OPERATION, "the last tile launch did not record the leaves");
    unsigned char *b = malloc(n ? n : 1);
    if (!b)
        return set_fail(s, NPLUS1_ERR_OOM, "reading the item leaves");
    cl_int err = clEnqueueReadBuffer(s->last_queue, s->leafid, CL_TRUE, 0, n, b, 0, NULL, NULL);
    for (size_t i = 0; err == CL_SUCCESS && i < n; i++)
        leaf_of[i] = b[i] == 255 ? -1 : (cl_int)b[i];
    free(b);
    return err == CL_SUCCESS ? err : set_fail(s, err, "reading the item leaves");
}

void nplus1rt_set_record_leaves(nplus1rt_set *s, int on)
{
    s->record_leaves = on;
}

cl_int nplus1rt_set_item_leaves(nplus1rt_set *s, cl_int *leaf_of, size_t n)
{
    if (s->last_tile)
        return tile_item_leaves(s, leaf_of, n);
    if (s->last_chunked)
        return chunk_item_leaves(s, leaf_of, n);
    unsigned nl = s->desc->nleaves;
    cl_uint counts[64];
    cl_int err = nplus1rt_set_last_counts(s, counts, nl < 64 ? nl : 64);
    if (err != CL_SUCCESS)
        return err;
    size_t total = 0;
    for (unsigned l = 0; l < nl && l < 64; l++)
        total += counts[l];
    for (size_t i = 0; i < n; i++)
        leaf_of[i] = -1;
    if (total == 0)
        return CL_SUCCESS;
    cl_uint *idx = malloc(total * sizeof *idx);
    if (!idx)
        return set_fail(s, NPLUS1_ERR_OOM, "reading the buckets");
    err = clEnqueueReadBuffer(s->last_queue, s->idx, CL_TRUE, 0, total * sizeof *idx, idx, 0, NULL,
                              NULL);
    if (err == CL_SUCCESS) {
        size_t pos = 0;
        for (unsigned l = 0; l < nl && l < 64; l++)
            for (cl_uint j = 0; j < counts[l]; j++, pos++)
                if (idx[pos] < n)
                    leaf_of[idx[pos]] = (cl_int)l;
    }
    free(idx);
    return err == CL_SUCCESS ? err : set_fail(s, err, "reading the buckets");
}
