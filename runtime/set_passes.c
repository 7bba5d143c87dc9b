/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_passes.c - the launch protocol of a generated kernel set: the
 * classifier passes (count, scan, scatter), the leaves (host or fused
 * dispatch), the chunked and tile strategies, the adaptive probe, and the
 * original kernel with its argument cache. The hidden arguments are the
 * ones runtime/nplus1rt_format.h names and templates/kernel.cl.tmpl declares.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "set_internal.h"

static cl_int probe(nplus1rt_set *s, cl_command_queue q, const launch *L, cl_uint items, int *low);

cl_int set_check_launch(nplus1rt_set *s, cl_uint dim, const size_t *off, const size_t *gsz,
                        const size_t *lsz, launch *L)
{
    if (dim < 1 || dim > 3)
        return set_fail(s, CL_INVALID_WORK_DIMENSION, "work_dim must be 1, 2 or 3");
    if (!gsz)
        return set_fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "global_size is NULL");
    unsigned long long n = 1;
    size_t local_total = 1;
    memset(L, 0, sizeof *L);
    for (cl_uint d = 0; d < 3; d++) {
        size_t g = d < dim ? gsz[d] : 1, o = d < dim && off ? off[d] : 0;
        if (g == 0)
            return set_fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "a global size is 0");
        if ((unsigned long long)g + o > UINT_MAX)
            return set_fail(s, CL_INVALID_GLOBAL_OFFSET, "global offset + size exceeds 2^32");
        n *= g;
        L->gsz.s[d] = (cl_uint)g;
        L->goff.s[d] = (cl_uint)o;
        if (d < dim && lsz) {
            if (lsz[d] == 0 || g % lsz[d])
                return set_fail(s, CL_INVALID_WORK_GROUP_SIZE,
                            "global size is not a multiple of the local size");
            local_total *= lsz[d];
        }
        size_t reqd = s->desc->reqd_local[d];
        if (reqd && d < dim && (!lsz || lsz[d] != reqd))
            return set_fail(s, CL_INVALID_WORK_GROUP_SIZE,
                        "the kernel's reqd_work_group_size does not match local_size");
    }
    if (lsz && s->dev_max_wg && local_total > s->dev_max_wg)
        return set_fail(s, CL_INVALID_WORK_GROUP_SIZE, "local size exceeds the device's maximum");
    if (n > UINT_MAX - s->wg)
        return set_fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "more than 2^32 work-items");
    L->n = (cl_uint)n;
    L->dim = dim;
    L->groups = (n + s->wg * s->ipt - 1) / (s->wg * s->ipt); /* classifier groups */
    return CL_SUCCESS;
}

/* Grows *buf to hold at least need entries of 4 bytes. */
static cl_int ensure(nplus1rt_set *s, cl_mem *buf, size_t *cap, size_t need)
{
    if (*buf && *cap >= need)
        return CL_SUCCESS;
    if (*buf)
        clReleaseMemObject(*buf);
    cl_int err;
    size_t want = need < 1024 ? 1024 : need;
    *buf = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, want * sizeof(cl_uint), NULL, &err);
    *cap = err == CL_SUCCESS ? want : 0;
    if (err != CL_SUCCESS) {
        *buf = NULL;
        return set_fail(s, err, "allocating the bucket buffer");
    }
    return CL_SUCCESS;
}

static cl_int set_user_args(nplus1rt_set *s, cl_kernel k, const nplus1rt_argval *args)
{
    for (unsigned i = 0; i < s->desc->nargs; i++) {
        cl_int err = clSetKernelArg(k, i, args[i].size, args[i].value);
        if (err != CL_SUCCESS) {
            set_msg(s, "argument %u ('%s') of %s: %s", i, s->desc->args[i].name, s->desc->kernel,
                    nplus1_strerror(err));
            return err;
        }
    }
    return CL_SUCCESS;
}

#define SETARG(k, i, v)                                                   \
    do {                                                                  \
        cl_int e_ = clSetKernelArg((k), (i), sizeof(v), &(v));            \
        if (e_ != CL_SUCCESS)                                             \
            return set_fail(s, e_, "setting a hidden argument");              \
    } while (0)

/*
 * The arguments every generated kernel but the scan starts with: the user's,
 * then (with_n) the item count, then the original launch's dimension, sizes
 * and offsets. *next gets the index of the kernel's own arguments.
 */
static cl_int launch_args(nplus1rt_set *s, cl_kernel k, const nplus1rt_argval *args,
                          const launch *L, int with_n, cl_uint *next)
{
    cl_int err = set_user_args(s, k, args);
    if (err != CL_SUCCESS)
        return err;
    cl_uint a = s->desc->nargs;
    if (with_n)
        SETARG(k, a++, L->n);
    SETARG(k, a + NPLUS1RT_HEAD_DIM, L->dim);
    SETARG(k, a + NPLUS1RT_HEAD_GSZ, L->gsz);
    SETARG(k, a + NPLUS1RT_HEAD_GOFF, L->goff);
    *next = a + NPLUS1RT_HEAD_ARGS;
    return CL_SUCCESS;
}

static cl_event *next_event(nplus1rt_set *s)
{
    if ((!s->profiling && !s->timing) || s->nevents >= MAX_EVENTS)
        return NULL;
    s->event_leaf[s->nevents] = (unsigned char)s->launching_leaf;
    return &s->events[s->nevents++];
}

static cl_int run(nplus1rt_set *s, cl_command_queue q, cl_kernel k, size_t items, const char *what)
{
    size_t global = (items + s->wg - 1) / s->wg * s->wg;
    if (global == 0)
        return CL_SUCCESS;
    cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &s->wg, 0, NULL, next_event(s));
    return err == CL_SUCCESS ? err : set_fail(s, err, what);
}

/* This launch's counter set: zeroed by the last scatter, or by a fill now. */
static cl_int take_counters(nplus1rt_set *s, cl_command_queue q)
{
    s->ctr = s->ctrs[s->cur];
    if (!s->clean[s->cur]) {
        cl_uint zero = 0;
        cl_int err = clEnqueueFillBuffer(q, s->ctr, &zero, sizeof zero, 0,
                                         sizeof(cl_uint) * (2 * s->desc->nleaves + 1), 0, NULL,
                                         NULL);
        if (err != CL_SUCCESS)
            return set_fail(s, err, "clearing the leaf counters");
    }
    s->clean[s->cur] = 0;
    return CL_SUCCESS;
}

static cl_int classify(nplus1rt_set *s, cl_command_queue q, const launch *L,
                       const nplus1rt_argval *args, cl_uint probing)
{
    cl_uint nl = s->desc->nleaves;
    cl_int err = take_counters(s, q);
    if (err != CL_SUCCESS)
        return err;
    cl_mem counts = s->ctr; /* unused by the kernels of the other strategies */
    if (s->desc->strategy == NPLUS1RT_ORDERED) {
        if ((err = ensure(s, &s->counts, &s->counts_cap, (size_t)nl * L->groups)) != CL_SUCCESS)
            return err;
        counts = s->counts;
    }
    cl_uint a;
    if ((err = launch_args(s, s->count, args, L, 1, &a)) != CL_SUCCESS)
        return err;
    SETARG(s->count, a + NPLUS1RT_COUNT_CTR, s->ctr);
    SETARG(s->count, a + NPLUS1RT_COUNT_COUNTS, counts);
    SETARG(s->count, a + NPLUS1RT_COUNT_LEAFID, s->leafid);
    SETARG(s->count, a + NPLUS1RT_COUNT_PROBE, probing);
    SETARG(s->scatter, NPLUS1RT_SCATTER_N, L->n);
    SETARG(s->scatter, NPLUS1RT_SCATTER_CTR, s->ctr);
    SETARG(s->scatter, NPLUS1RT_SCATTER_COUNTS, counts);
    SETARG(s->scatter, NPLUS1RT_SCATTER_IDX, s->idx);
    SETARG(s->scatter, NPLUS1RT_SCATTER_LEAFID, s->leafid);
    SETARG(s->scatter, NPLUS1RT_SCATTER_NEXT_CTR, s->ctrs[!s->cur]);
    if ((err = run(s, q, s->count, L->groups * s->wg, "classifier (count)")) != CL_SUCCESS)
        return err;
    if (s->scan) {
        cl_uint groups = (cl_uint)L->groups;
        SETARG(s->scan, NPLUS1RT_SCAN_GROUPS, groups);
        SETARG(s->scan, NPLUS1RT_SCAN_COUNTS, s->counts);
        SETARG(s->scan, NPLUS1RT_SCAN_CTR, s->ctr);
        if ((err = run(s, q, s->scan, s->wg, "classifier (scan)")) != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int dispatch_host(nplus1rt_set *s, cl_command_queue q, const launch *L,
                            const nplus1rt_argval *args)
{
    cl_uint nl = s->desc->nleaves;
    cl_int err = CL_SUCCESS;
    if (s->counts_valid) { /* the adaptive probe read them already */
        err = run(s, q, s->scatter, L->groups * s->wg, "classifier (scatter)");
        if (err != CL_SUCCESS)
            return err;
    } else {
        cl_event read;
        err = clEnqueueReadBuffer(q, s->ctr, CL_FALSE, 0, nl * sizeof(cl_uint), s->last_counts, 0,
                                  NULL, &read);
        if (err != CL_SUCCESS)
            return set_fail(s, err, "reading the leaf counts");
        err = run(s, q, s->scatter, L->groups * s->wg, "classifier (scatter)");
        if (err == CL_SUCCESS)
            err = clFlush(q);
        cl_int werr = clWaitForEvents(1, &read);
        clReleaseEvent(read);
        if (err != CL_SUCCESS)
            return err;
        if (werr != CL_SUCCESS)
            return set_fail(s, werr, "waiting for the leaf counts");
        s->counts_valid = 1;
    }
    cl_uint base = 0;
    for (cl_uint l = 0; l < nl; l++) {
        cl_uint count = s->last_counts[l];
        if (count == 0)
            continue;
        cl_kernel k = s->leaves[l];
        cl_uint a;
        if ((err = launch_args(s, k, args, L, 0, &a)) != CL_SUCCESS)
            return err;
        SETARG(k, a + NPLUS1RT_LEAF_IDX, s->idx);
        SETARG(k, a + NPLUS1RT_LEAF_BASE, base);
        SETARG(k, a + NPLUS1RT_LEAF_COUNT, count);
        s->launching_leaf = 1;
        err = run(s, q, k, count, "leaf kernel");
        s->launching_leaf = 0;
        if (err != CL_SUCCESS)
            return err;
        base += count;
    }
    return CL_SUCCESS;
}

static cl_int dispatch_fused(nplus1rt_set *s, cl_command_queue q, const launch *L,
                             const nplus1rt_argval *args)
{
    cl_int err = run(s, q, s->scatter, L->groups * s->wg, "classifier (scatter)");
    if (err != CL_SUCCESS)
        return err;
    cl_uint a;
    if ((err = launch_args(s, s->fused, args, L, 1, &a)) != CL_SUCCESS)
        return err;
    SETARG(s->fused, a + NPLUS1RT_FUSED_IDX, s->idx);
    SETARG(s->fused, a + NPLUS1RT_FUSED_CTR, s->ctr);
    return run(s, q, s->fused, L->n, "fused leaf kernel");
}

/* Items fit the (leaf << 26 | id) encoding of the chunk layout. */
static int chunk_layout_fits(const nplus1rt_set *s, const launch *L)
{
    return s->chunk && !s->no_chunk && s->dispatch == NPLUS1RT_DISPATCH_FUSED &&
           L->n < (1u << 26) && s->desc->nleaves < 63;
}

/* CHUNKED: one classifier pass, then the fused kernel over the chunks. */
static cl_int launch_chunked(nplus1rt_set *s, cl_command_queue q, const launch *L,
                             const nplus1rt_argval *args, int probing, cl_uint dim,
                             const size_t *off, const size_t *gsz, const size_t *lsz)
{
    cl_uint nl = s->desc->nleaves, a;
    size_t positions = L->n + L->groups * nl * 32; /* items + padding to whole warps */
    cl_int err = ensure(s, &s->idx, &s->idx_cap, positions);
    if (err != CL_SUCCESS)
        return err;
    if ((err = take_counters(s, q)) != CL_SUCCESS)
        return err;
    cl_uint probe_flag = (cl_uint)probing;
    if ((err = launch_args(s, s->chunk, args, L, 1, &a)) != CL_SUCCESS)
        return err;
    SETARG(s->chunk, a + NPLUS1RT_CHUNK_CTR, s->ctr);
    SETARG(s->chunk, a + NPLUS1RT_CHUNK_IDX, s->idx);
    SETARG(s->chunk, a + NPLUS1RT_CHUNK_PROBE, probe_flag);
    SETARG(s->chunk, a + NPLUS1RT_CHUNK_NEXT_CTR, s->ctrs[!s->cur]);
    if ((err = run(s, q, s->chunk, L->groups * s->wg, "classifier (chunk)")) != CL_SUCCESS)
        return err;
    s->clean[!s->cur] = 1; /* the chunk pass zeroed the other counter set */
    s->cur = !s->cur;
    s->last_chunked = 1;
    s->last_positions = positions;
    if (probing) {
        if ((err = probe(s, q, L, L->n, &s->use_original)) != CL_SUCCESS)
            return err;
        s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
        if (s->use_original)
            return set_run_original(s, q, dim, off, gsz, lsz, args);
    }
    if ((err = launch_args(s, s->fused_chunk, args, L, 0, &a)) != CL_SUCCESS)
        return err;
    SETARG(s->fused_chunk, a + NPLUS1RT_FUSED_IDX, s->idx);
    SETARG(s->fused_chunk, a + NPLUS1RT_FUSED_CTR, s->ctr);
    return run(s, q, s->fused_chunk, positions, "fused leaf kernel (chunks)");
}

/*
 * The original kernel keeps its arguments between launches (no one else sets
 * them): unchanged ones are not set again, a host cost that shows on short
 * launches. Returns 1 when args are what the last launch set.
 */
/* Bytes of args packed as (size, value) pairs. */
static size_t packed_args_size(const nplus1rt_set *s, const nplus1rt_argval *args)
{
    size_t need = 0;
    for (unsigned i = 0; i < s->desc->nargs; i++)
        need += sizeof(size_t) + args[i].size;
    return need;
}

/* Whether args are the bytes m kept. */
static int memo_same(const nplus1rt_set *s, const arg_memo *m, const nplus1rt_argval *args)
{
    if (!m->bytes || m->len != packed_args_size(s, args))
        return 0;
    const unsigned char *p = m->bytes;
    for (unsigned i = 0; i < s->desc->nargs; i++) {
        if (memcmp(p, &args[i].size, sizeof(size_t)) ||
            memcmp(p + sizeof(size_t), args[i].value, args[i].size))
            return 0;
        p += sizeof(size_t) + args[i].size;
    }
    return 1;
}

/* Keeps args in m (nothing kept when memory runs out: the next launch sets them all). */
static void memo_keep(const nplus1rt_set *s, arg_memo *m, const nplus1rt_argval *args)
{
    size_t need = packed_args_size(s, args);
    unsigned char *p = realloc(m->bytes, need ? need : 1);
    m->len = 0;
    if (!p)
        return;
    m->bytes = p;
    for (unsigned i = 0; i < s->desc->nargs; i++) {
        memcpy(p, &args[i].size, sizeof(size_t));
        memcpy(p + sizeof(size_t), args[i].value, args[i].size);
        p += sizeof(size_t) + args[i].size;
    }
    m->len = need;
}

/* k's user arguments, unless m says k holds these already. */
static cl_int set_user_args_memo(nplus1rt_set *s, cl_kernel k, arg_memo *m,
                                 const nplus1rt_argval *args)
{
    if (memo_same(s, m, args))
        return CL_SUCCESS;
    m->len = 0;
    cl_int err = set_user_args(s, k, args);
    if (err == CL_SUCCESS)
        memo_keep(s, m, args);
    return err;
}

/*
 * TILE with regrouping off (tile-in-place): the tile kernel is the original's body,
 * launched with the original's sizes, offsets and local size; it touches no counter
 * (this launch's set stays as it was) and counts nothing. It takes the original's
 * parameters alone, set when they change, as the original's are (a tile kernel in place
 * generated by an earlier nplus1gen has the hidden ones too: set once, unused).
 */
static cl_int launch_tile_in_place(nplus1rt_set *s, const request *r)
{
    cl_int err = set_user_args_memo(s, s->tile, &s->in_place_user_args, r->args);
    if (err != CL_SUCCESS)
        return err;
    cl_uint nargs = 0;
    if (!s->in_place_args &&
        clGetKernelInfo(s->tile, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) == CL_SUCCESS &&
        nargs == s->desc->nargs)
        s->in_place_args = 1; /* the original's parameters alone (as generated now) */
    if (!s->in_place_args) { /* unused by the body in place: set once, as OpenCL wants */
        cl_uint a = s->desc->nargs, zero = 0;
        SETARG(s->tile, a++, r->L.n);
        SETARG(s->tile, a + NPLUS1RT_HEAD_DIM, r->L.dim);
        SETARG(s->tile, a + NPLUS1RT_HEAD_GSZ, r->L.gsz);
        SETARG(s->tile, a + NPLUS1RT_HEAD_GOFF, r->L.goff);
        a += NPLUS1RT_HEAD_ARGS;
        SETARG(s->tile, a + NPLUS1RT_TILE_CTR, s->ctrs[0]);
        SETARG(s->tile, a + NPLUS1RT_TILE_NEXT_CTR, s->ctrs[1]);
        SETARG(s->tile, a + NPLUS1RT_TILE_PROBE, zero);
        SETARG(s->tile, a + NPLUS1RT_TILE_LEAFID, s->ctrs[0]);
        SETARG(s->tile, a + NPLUS1RT_TILE_FLAGS, zero);
        s->in_place_args = 1;
    }
    err = clEnqueueNDRangeKernel(r->q, s->tile, r->dim, r->off, r->gsz, r->lsz, 0, NULL,
                                 next_event(s));
    if (err != CL_SUCCESS)
        return set_fail(s, err, "tile kernel (in place)");
    s->last_tile = 1;
    s->counts_valid = 0;
    s->last_uncounted = 1;
    return CL_SUCCESS;
}

/*
 * TILE: one kernel; each work-group regroups its tile of NPLUS1_WG x tile_ipt
 * items by leaf in local memory and runs the leaves. It counts the items per
 * leaf (and, probing, the mixed chunks) into this launch's counter set, zeroes
 * the other set, and writes each item's leaf when recording. The seam for a
 * caller that picks the strategy per launch: it needs only s->tile.
 */
static cl_int launch_tile(nplus1rt_set *s, const request *r, cl_uint probing)
{
    cl_command_queue q = r->q;
    const launch *L = &r->L;
    const nplus1rt_argval *args = r->args;
    size_t tile = s->wg * s->tile_ipt;
    if (s->tile_in_place) /* regrouping off: the original's body, as the original launches */
        return launch_tile_in_place(s, r);
    cl_kernel k = s->tile;
    if (s->tile_half && (L->n + tile - 1) / tile < s->half_below) { /* few tiles a unit */
        k = s->tile_half;
        tile = s->wg * (s->tile_ipt / 2); /* the kernel's NPLUS1_TILE_IPT / 2 (odd: rounded down) */
    }
    if ((size_t)L->n + tile > UINT_MAX)
        return set_fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "too many work-items for the tile kernel");
    /* a set driven by the measured choice records only when asked: the first launch's
     * record (a byte an item, its buffer made then) cost 0.18-0.2 ms on an H200, ten
     * launches of a 20-us kernel, in every process that starts on a stored tile */
    cl_uint record = s->record_leaves ||
                     (s->launches == 0 && s->split != NPLUS1RT_SPLIT_MEASURED), a;
    cl_uint flags = (record || probing ? (cl_uint)NPLUS1RT_TILE_COUNT : 0u) |
                    (record ? (cl_uint)NPLUS1RT_TILE_RECORD : 0u);
    cl_int err = take_counters(s, q);
    if (err == CL_SUCCESS && record)
        err = ensure(s, &s->leafid, &s->leafid_cap, (L->n + 3) / 4);
    if (err != CL_SUCCESS)
        return err;
    cl_mem leafid = record ? s->leafid : s->ctr; /* unused unless recording */
    if ((err = launch_args(s, k, args, L, 1, &a)) != CL_SUCCESS)
        return err;
    SETARG(k, a + NPLUS1RT_TILE_CTR, s->ctr);
    SETARG(k, a + NPLUS1RT_TILE_NEXT_CTR, s->ctrs[!s->cur]);
    SETARG(k, a + NPLUS1RT_TILE_PROBE, probing);
    SETARG(k, a + NPLUS1RT_TILE_LEAFID, leafid);
    SETARG(k, a + NPLUS1RT_TILE_FLAGS, flags);
    size_t groups = (L->n + tile - 1) / tile;
    if ((err = run(s, q, k, groups * s->wg, "tile kernel")) != CL_SUCCESS)
        return err;
    s->clean[!s->cur] = 1; /* the tile kernel zeroed the other counter set */
    s->cur = !s->cur;
    s->last_tile = record ? 2 : 1;
    s->counts_valid = 0;
    s->last_uncounted = !(flags & NPLUS1RT_TILE_COUNT);
    return CL_SUCCESS;
}

/* TILE, probing or not: the probing launch has done the work already. */
static cl_int enqueue_tile(nplus1rt_set *s, const request *r, int probing)
{
    cl_int err = launch_tile(s, r, (cl_uint)probing);
    if (err != CL_SUCCESS || !probing)
        return err;
    s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
    if (s->tile_in_place) { /* no chunk mixes: the original's body runs as written */
        s->use_original = s->split != NPLUS1RT_SPLIT_MEASURED ||
                          !chooser_probe(&s->chooser, chooser_class_of(r->L.n), 0.0);
        return CL_SUCCESS;
    }
    return probe(s, r->q, &r->L, r->L.n, &s->use_original);
}

cl_int set_run_original(nplus1rt_set *s, cl_command_queue q, cl_uint dim, const size_t *off,
                        const size_t *gsz, const size_t *lsz, const nplus1rt_argval *args)
{
    cl_int err = CL_SUCCESS;
    if ((err = set_user_args_memo(s, s->original, &s->orig_args, args)) != CL_SUCCESS)
        return err;
    s->last_original = 1;
    err = clEnqueueNDRangeKernel(q, s->original, dim, off, gsz, lsz, 0, NULL, next_event(s));
    return err == CL_SUCCESS ? err : set_fail(s, err, "the original kernel");
}

/*
 * Reads the counters after the counting pass over the first `items` items: is
 * divergence below the threshold?
 */
static cl_int probe(nplus1rt_set *s, cl_command_queue q, const launch *L, cl_uint items, int *low)
{
    cl_uint nl = s->desc->nleaves;
    cl_int err = clEnqueueReadBuffer(q, s->ctr, CL_TRUE, 0, (2 * nl + 1) * sizeof(cl_uint),
                                     s->last_counts, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return set_fail(s, err, "reading the divergence probe");
    s->counts_valid = 1;
    double chunks = (double)((items + 31) / 32);
    *low = s->last_counts[2 * nl] < s->probe_threshold * chunks;
    if (s->split == NPLUS1RT_SPLIT_MEASURED)
        *low = !chooser_probe(&s->chooser, chooser_class_of(L->n),
                              s->last_counts[2 * nl] / chunks);
    return CL_SUCCESS;
}

/* TILE as a launch of its own: counted, the first one records the leaves. */
cl_int set_run_tile(nplus1rt_set *s, const request *r, int probing)
{
    cl_int err = enqueue_tile(s, r, probing);
    s->launches++;
    return err;
}

/*
 * The measured choice's lean start: the split's probe classifies a sample (the
 * first PROBE_SAMPLE_GROUPS classifier groups, at least 1/PROBE_SAMPLE_DIV of
 * them) and this launch runs the original, so a probe costs a fraction of the
 * counting pass, not a whole split launch; the split's first launch follows
 * when the probe finds the input divergent. The sample is a prefix of the
 * items (the count kernel's groups cover consecutive items).
 */
#define PROBE_SAMPLE_GROUPS 64
#define PROBE_SAMPLE_DIV 8
static int probes_a_sample(const nplus1rt_set *s)
{
    return s->split == NPLUS1RT_SPLIT_MEASURED && !s->config.choice_classic && s->count &&
           s->desc->strategy != NPLUS1RT_TILE;
}

static cl_int probe_beside_original(nplus1rt_set *s, const request *r)
{
    const launch *L = &r->L;
    size_t groups = L->groups / PROBE_SAMPLE_DIV;
    groups = groups < PROBE_SAMPLE_GROUPS ? PROBE_SAMPLE_GROUPS : groups;
    groups = groups < L->groups ? groups : L->groups;
    size_t span = groups * s->wg * s->ipt;
    cl_uint items = span < L->n ? (cl_uint)span : L->n, a;
    cl_int err = ensure(s, &s->leafid, &s->leafid_cap, (L->n + 3) / 4);
    if (err == CL_SUCCESS && s->desc->strategy == NPLUS1RT_ORDERED)
        err = ensure(s, &s->counts, &s->counts_cap, (size_t)s->desc->nleaves * L->groups);
    if (err == CL_SUCCESS)
        err = take_counters(s, r->q);
    if (err == CL_SUCCESS)
        err = launch_args(s, s->count, r->args, L, 1, &a);
    if (err != CL_SUCCESS)
        return err;
    cl_mem counts = s->desc->strategy == NPLUS1RT_ORDERED ? s->counts : s->ctr;
    cl_uint on = 1;
    SETARG(s->count, a + NPLUS1RT_COUNT_CTR, s->ctr);
    SETARG(s->count, a + NPLUS1RT_COUNT_COUNTS, counts);
    SETARG(s->count, a + NPLUS1RT_COUNT_LEAFID, s->leafid);
    SETARG(s->count, a + NPLUS1RT_COUNT_PROBE, on);
    if ((err = run(s, r->q, s->count, groups * s->wg, "classifier (probe)")) != CL_SUCCESS ||
        (err = probe(s, r->q, L, items, &s->use_original)) != CL_SUCCESS)
        return err;
    s->counts_valid = 0; /* the sample's counts: no launch's buckets */
    s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
    return set_run_original(s, r->q, r->dim, r->off, r->gsz, r->lsz, r->args);
}

cl_int set_launch_split(nplus1rt_set *s, const request *r, int probing)
{
    cl_command_queue q = r->q;
    const launch *L = &r->L;
    const nplus1rt_argval *args = r->args;
    cl_int err;
    if (s->desc->strategy == NPLUS1RT_TILE)
        return set_run_tile(s, r, probing);
    if (probing && probes_a_sample(s))
        return probe_beside_original(s, r);
    if (chunk_layout_fits(s, L))
        return launch_chunked(s, q, L, args, probing, r->dim, r->off, r->gsz, r->lsz);
    /* a probe needs no buckets yet: one that finds the input coherent allocates none */
    if ((!probing && (err = ensure(s, &s->idx, &s->idx_cap, L->n)) != CL_SUCCESS) ||
        (err = ensure(s, &s->leafid, &s->leafid_cap, (L->n + 3) / 4)) != CL_SUCCESS)
        return err;
    if ((err = classify(s, q, L, args, (cl_uint)probing)) != CL_SUCCESS)
        return err;
    if (probing) {
        if ((err = probe(s, q, L, L->n, &s->use_original)) != CL_SUCCESS)
            return err;
        s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
        if (s->use_original)
            return set_run_original(s, q, r->dim, r->off, r->gsz, r->lsz, args);
        if ((err = ensure(s, &s->idx, &s->idx_cap, L->n)) != CL_SUCCESS)
            return err;
        SETARG(s->scatter, NPLUS1RT_SCATTER_IDX, s->idx);
    }
    err = s->dispatch == NPLUS1RT_DISPATCH_FUSED ? dispatch_fused(s, q, L, args)
                                                 : dispatch_host(s, q, L, args);
    if (err == CL_SUCCESS) { /* the scatter zeroed the other counter set */
        s->clean[!s->cur] = 1;
        s->cur = !s->cur;
    }
    return err;
}
