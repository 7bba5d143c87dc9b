/* SPDX-License-Identifier: Apache-2.0 */
/*
 * validate.c - the differential check: the original kernel and the
 * generated set run on identical seeded inputs; every writable buffer is
 * diffed (integers bitwise, floats within a ULP tolerance, NaN-aware) and
 * each mismatch is attributed to the leaf its work-item went to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "nplus1rt.h"
#include "set_internal.h"

typedef struct host_arg {
    void *init;          /* initial contents (buffers) or value (scalars) */
    size_t bytes;
    size_t scalars;      /* number of scalar elements in the buffer */
    void *result;        /* read back after a run (writable buffers and images) */
    void *input;         /* a writable buffer's or image's initial contents, kept at the first
                            upload: init receives the original's results (download) */
    cl_mem mem;
    cl_mem buf;          /* an image1d_buffer's buffer */
    cl_sampler sampler;
    nplus1rt_image_spec image; /* an image's size and format, defaults filled in */
    nplus1rt_elem elem;  /* the element compared: a buffer's, an image's channel */
    size_t lanes;        /* elements per buffer element or pixel */
    union {
        cl_long l;
        cl_double d;
        unsigned char raw[128];
    } value;
} host_arg;

typedef struct vctx {
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue q;
    const nplus1rt_set_desc *desc;
    const nplus1rt_validate_opts *o;
    nplus1rt_validation *res;
    host_arg *args;
    nplus1rt_argval *vals;
    size_t items;
} vctx;

static cl_int vfail(vctx *v, cl_int err, const char *what)
{
    snprintf(v->res->message, sizeof v->res->message, "%s: %s (%d)", what, nplus1_strerror(err),
             (int)err);
    return err;
}

static size_t scalar_size(const nplus1rt_arg *a)
{
    return nplus1rt_elem_size(a->elem);
}

static size_t default_elems(const nplus1rt_validate_opts *o)
{
    size_t n = 1;
    for (cl_uint d = 0; d < o->work_dim; d++)
        n *= o->global_offset[d] + o->global_size[d];
    return n;
}

/* Default scalar values: integers get the item count, floats 0.5. */
static void default_value(const nplus1rt_arg *a, size_t items, host_arg *h)
{
    size_t ss = scalar_size(a), lanes = a->size / (ss ? ss : 1);
    for (size_t i = 0; i < lanes && (i + 1) * ss <= sizeof h->value.raw; i++) {
        unsigned char *p = h->value.raw + i * ss;
        switch (a->elem) {
        case NPLUS1RT_F32: { float f = 0.5f; memcpy(p, &f, 4); break; }
        case NPLUS1RT_F64: { double f = 0.5; memcpy(p, &f, 8); break; }
        case NPLUS1RT_F16: { unsigned short hv = 0x3800; memcpy(p, &hv, 2); break; }
        default: {
            unsigned long long n = items;
            memcpy(p, &n, ss); /* little-endian truncation */
        }
        }
    }
}

/* An image: its size and format, random contents (or the given bytes), a result. */
static cl_int prepare_image(vctx *v, unsigned i, uint64_t *seed)
{
    const nplus1rt_arg *a = &v->desc->args[i];
    host_arg *h = &v->args[i];
    unsigned channels;
    const nplus1rt_image_spec *given = v->o->images ? &v->o->images[i] : NULL;
    if (nplus1rt_image_resolve(a, given, v->o, &h->image, &h->bytes, &h->elem, &channels))
        return vfail(v, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "describing an image argument");
    h->lanes = channels;
    h->scalars = h->bytes / nplus1rt_elem_size(h->elem);
    h->init = malloc(h->bytes ? h->bytes : 1);
    h->result = a->writable ? malloc(h->bytes ? h->bytes : 1) : NULL;
    if (!h->init || (a->writable && !h->result))
        return vfail(v, NPLUS1_ERR_OOM, "allocating host images");
    if (v->o->buffer_init && v->o->buffer_init[i])
        memcpy(h->init, v->o->buffer_init[i], h->bytes);
    else
        nplus1rt_fill_random(h->init, h->scalars, h->elem, 0, seed);
    v->vals[i].size = sizeof(cl_mem);
    v->vals[i].value = &h->mem;
    return CL_SUCCESS;
}

/* A sampler: created once, the same for both runs. */
static cl_int prepare_sampler(vctx *v, unsigned i)
{
    host_arg *h = &v->args[i];
    cl_int err;
    h->sampler = nplus1rt_sampler_create(v->ctx, v->o->samplers ? &v->o->samplers[i] : NULL,
                                         &err);
    if (err != CL_SUCCESS)
        return vfail(v, err, "creating a sampler");
    v->vals[i].size = sizeof(cl_sampler);
    v->vals[i].value = &h->sampler;
    return CL_SUCCESS;
}

static cl_int prepare_args(vctx *v)
{
    const nplus1rt_set_desc *d = v->desc;
    uint64_t seed = v->o->seed ? v->o->seed : 1;
    for (unsigned i = 0; i < d->nargs; i++) {
        const nplus1rt_arg *a = &d->args[i];
        host_arg *h = &v->args[i];
        cl_int err = a->kind == NPLUS1RT_ARG_IMAGE     ? prepare_image(v, i, &seed)
                     : a->kind == NPLUS1RT_ARG_SAMPLER ? prepare_sampler(v, i)
                                                       : CL_SUCCESS;
        if (err != CL_SUCCESS)
            return err;
        if (a->kind == NPLUS1RT_ARG_IMAGE || a->kind == NPLUS1RT_ARG_SAMPLER)
            continue;
        if (a->kind == NPLUS1RT_ARG_VALUE) {
            int given = v->o->values && v->o->values[i];
            if (a->size > sizeof h->value.raw) { /* a large struct by value: zeros, or given */
                if (!(h->init = calloc(1, a->size)))
                    return vfail(v, NPLUS1_ERR_OOM, "allocating an argument's value");
                if (given)
                    memcpy(h->init, v->o->values[i], a->size);
            } else if (given) {
                memcpy(h->value.raw, v->o->values[i], a->size);
            } else {
                default_value(a, v->items, h);
            }
            v->vals[i].size = a->size;
            v->vals[i].value = h->init ? h->init : h->value.raw;
            continue;
        }
        size_t elems = v->o->buffer_elems && v->o->buffer_elems[i] ? v->o->buffer_elems[i]
                                                                     : default_elems(v->o);
        h->bytes = elems * a->size;
        h->scalars = h->bytes / scalar_size(a);
        h->elem = a->elem;
        h->lanes = a->size / scalar_size(a);
        h->init = malloc(h->bytes ? h->bytes : 1);
        h->result = a->writable ? malloc(h->bytes ? h->bytes : 1) : NULL;
        if (!h->init || (a->writable && !h->result))
            return vfail(v, NPLUS1_ERR_OOM, "allocating host buffers");
        /* inputs and the initial contents of outputs: seeded, identical for both runs */
        if (v->o->buffer_init && v->o->buffer_init[i])
            memcpy(h->init, v->o->buffer_init[i], h->bytes);
        else
            nplus1rt_fill_random(h->init, h->scalars, a->elem, 0, &seed);
        v->vals[i].size = sizeof(cl_mem);
        v->vals[i].value = &h->mem;
    }
    return CL_SUCCESS;
}

/* An output: a writable buffer or image, read back and diffed. */
static int compared(const nplus1rt_arg *a)
{
    return a->writable && (a->kind == NPLUS1RT_ARG_BUFFER || a->kind == NPLUS1RT_ARG_IMAGE);
}

/* The initial contents of a buffer or image: init, or the copy kept before init took results. */
static const void *input_of(vctx *v, unsigned i)
{
    host_arg *h = &v->args[i];
    if (!h->input && compared(&v->desc->args[i]) && (h->input = malloc(h->bytes ? h->bytes : 1)))
        memcpy(h->input, h->init, h->bytes);
    return h->input ? h->input : h->init;
}

/* Every buffer and image made anew from the initial inputs (each run starts from the same data). */
static cl_int upload(vctx *v)
{
    for (unsigned i = 0; i < v->desc->nargs; i++) {
        host_arg *h = &v->args[i];
        const nplus1rt_arg *a = &v->desc->args[i];
        if (a->kind != NPLUS1RT_ARG_BUFFER && a->kind != NPLUS1RT_ARG_IMAGE)
            continue;
        const void *in = input_of(v, i);
        if (h->mem)
            clReleaseMemObject(h->mem);
        if (h->buf)
            clReleaseMemObject(h->buf);
        h->buf = NULL;
        cl_int err;
        if (a->kind == NPLUS1RT_ARG_IMAGE) {
            err = nplus1rt_image_create(v->ctx, a, &h->image, in, &h->mem, &h->buf);
            if (err != CL_SUCCESS)
                return vfail(v, err, "creating a device image");
            continue;
        }
        h->mem = clCreateBuffer(v->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                h->bytes ? h->bytes : 4, (void *)in, &err);
        if (err != CL_SUCCESS) {
            h->mem = NULL;
            return vfail(v, err, "creating a device buffer");
        }
    }
    return CL_SUCCESS;
}

static cl_int download(vctx *v, int into_result)
{
    for (unsigned i = 0; i < v->desc->nargs; i++) {
        host_arg *h = &v->args[i];
        const nplus1rt_arg *a = &v->desc->args[i];
        if (!compared(a))
            continue;
        void *dst = into_result ? h->result : h->init;
        cl_int err = a->kind == NPLUS1RT_ARG_IMAGE
                         ? nplus1rt_image_read(v->q, a, &h->image, h->mem, h->buf, dst)
                         : clEnqueueReadBuffer(v->q, h->mem, CL_TRUE, 0, h->bytes, dst, 0, NULL,
                                               NULL);
        if (err != CL_SUCCESS)
            return vfail(v, err, "reading a result buffer");
    }
    return CL_SUCCESS;
}

static cl_int run_original(vctx *v, cl_kernel k)
{
    for (unsigned i = 0; i < v->desc->nargs; i++) {
        cl_int err = clSetKernelArg(k, i, v->vals[i].size, v->vals[i].value);
        if (err != CL_SUCCESS)
            return vfail(v, err, "setting an argument of the original kernel");
    }
    const nplus1rt_validate_opts *o = v->o;
    cl_int err = clEnqueueNDRangeKernel(v->q, k, o->work_dim, o->global_offset, o->global_size,
                                        o->has_local_size ? o->local_size : NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(v->q);
    return err == CL_SUCCESS ? err : vfail(v, err, "running the original kernel");
}

static cl_int run_generated(vctx *v, nplus1rt_set *set, nplus1rt_enqueue_fn gen, void *ud)
{
    const nplus1rt_validate_opts *o = v->o;
    const size_t *lsz = o->has_local_size ? o->local_size : NULL;
    cl_int err = gen ? gen(ud, v->q, o->work_dim, o->global_offset, o->global_size, lsz, v->vals)
                     : nplus1rt_set_enqueue(set, v->q, o->work_dim, o->global_offset,
                                            o->global_size, lsz, v->vals);
    if (err == CL_SUCCESS)
        err = clFinish(v->q);
    if (err != CL_SUCCESS && !v->res->message[0])
        snprintf(v->res->message, sizeof v->res->message, "running the generated set: %s (%s)",
                 nplus1_strerror(err), set ? nplus1rt_set_errmsg(set) : "");
    return err;
}

/* The work-item whose original global id addresses element `index`, or -1. */
static long item_of_element(const nplus1rt_validate_opts *o, size_t index)
{
    size_t rest = index, lin = 0, stride = 1;
    for (cl_uint d = 0; d < o->work_dim; d++) {
        size_t extent = o->global_offset[d] + o->global_size[d];
        size_t c = d + 1 < o->work_dim ? rest % extent : rest;
        rest = d + 1 < o->work_dim ? rest / extent : 0;
        if (c < o->global_offset[d] || c - o->global_offset[d] >= o->global_size[d])
            return -1;
        lin += (c - o->global_offset[d]) * stride;
        stride *= o->global_size[d];
    }
    return (long)lin;
}

/* Element 0 of buffer `arg` as the original left it (a count), clamped to max. */
static size_t count_of(vctx *v, int arg, size_t max)
{
    if (arg < 0 || (unsigned)arg >= v->desc->nargs || !v->args[arg].init || !v->args[arg].bytes)
        return max;
    unsigned long long n = 0;
    size_t sz = scalar_size(&v->desc->args[arg]);
    memcpy(&n, v->args[arg].init, sz < sizeof n ? sz : sizeof n); /* little-endian */
    return n < max ? (size_t)n : max;
}

/*
 * A 3-lane vector (float3, int3, ...) takes four lanes in memory; its fourth
 * is padding that stores may leave undefined (clang writes a 4-lane vector
 * with an undef lane). It is not an output: give the result the expected
 * buffer's padding so that only lanes 0-2 are compared.
 */
static void align_vec3_padding(const nplus1rt_arg *a, const void *expected, void *got,
                               size_t bytes)
{
    size_t ss = scalar_size(a);
    if (a->lanes != 3 || a->size != 4 * ss)
        return;
    for (size_t off = 3 * ss; off + ss <= bytes; off += a->size)
        memcpy((char *)got + off, (const char *)expected + off, ss);
}

/* --unordered: the first n elements as a multiset, the rest in order. */
static size_t diff_unordered(vctx *v, unsigned i)
{
    const nplus1rt_arg *a = &v->desc->args[i];
    host_arg *h = &v->args[i];
    size_t elems = h->bytes / a->size;
    int carg = v->o->count_arg ? v->o->count_arg[i] : -1;
    size_t n = count_of(v, carg, elems);
    align_vec3_padding(a, h->init, h->result, h->bytes);
    size_t bad = nplus1rt_diff_unordered(h->init, h->result, n, a->size);
    size_t head = n * a->size, tail = h->bytes - head;
    bad += tail ? memcmp((char *)h->init + head, (char *)h->result + head, tail) != 0 : 0;
    v->res->compared += h->scalars;
    v->res->mismatches += bad;
    return bad;
}

static void diff_all(vctx *v, const cl_int *leaf_of)
{
    nplus1rt_validation *r = v->res;
    for (unsigned i = 0; i < v->desc->nargs; i++) {
        const nplus1rt_arg *a = &v->desc->args[i];
        host_arg *h = &v->args[i];
        if (!compared(a))
            continue;
        if (v->o->unordered && v->o->unordered[i] && a->kind == NPLUS1RT_ARG_BUFFER) {
            diff_unordered(v, i);
            continue;
        }
        size_t lanes = h->lanes;
        if (a->kind == NPLUS1RT_ARG_BUFFER)
            align_vec3_padding(a, h->init, h->result, h->bytes);
        nplus1rt_mismatch few[256], *mm = few;
        size_t bad = nplus1rt_diff(h->init, h->result, h->scalars, h->elem, v->o->ulp_tol, mm, 256);
        if (bad > 256 && (mm = malloc(bad * sizeof *mm)) != NULL) /* every one, for the leaves */
            nplus1rt_diff(h->init, h->result, h->scalars, h->elem, v->o->ulp_tol, mm, bad);
        size_t listed = mm ? bad : 256;
        if (!mm)
            mm = few;
        r->compared += h->scalars;
        r->mismatches += bad;
        for (size_t m = 0; m < listed; m++) {
            long item = item_of_element(v->o, mm[m].index / (lanes ? lanes : 1));
            int leaf = item >= 0 && (size_t)item < v->items && leaf_of ? leaf_of[item] : -1;
            if (leaf >= 0 && leaf < 64)
                r->leaf_mismatches[leaf]++;
            if (r->nfirst < NPLUS1RT_MAX_REPORT) {
                r->first[r->nfirst].arg = i;
                r->first[r->nfirst].index = mm[m].index;
                r->first[r->nfirst].leaf = leaf;
                r->first[r->nfirst].expected = mm[m].expected;
                r->first[r->nfirst].got = mm[m].got;
                r->nfirst++;
            }
        }
        if (mm != few)
            free(mm);
    }
}

/*
 * Before a timed run: the writable buffers written back to the initial inputs (images made
 * anew), finished before the clock starts, so that a kernel that updates its inputs in place
 * is timed on the same data each run.
 */
static cl_int refresh_inputs(vctx *v)
{
    for (unsigned i = 0; i < v->desc->nargs; i++) {
        const nplus1rt_arg *a = &v->desc->args[i];
        host_arg *h = &v->args[i];
        if (a->kind == NPLUS1RT_ARG_IMAGE && a->writable)
            return upload(v);
        if (!compared(a) || !h->mem || !h->bytes)
            continue;
        cl_int err = clEnqueueWriteBuffer(v->q, h->mem, CL_FALSE, 0, h->bytes, input_of(v, i), 0,
                                          NULL, NULL);
        if (err != CL_SUCCESS)
            return vfail(v, err, "writing the inputs back before a timed run");
    }
    return clFinish(v->q);
}

/*
 * One timed run of --reps: the original (set NULL) or a generated set (through the
 * driver's enqueue function gen when given).
 */
typedef struct timed_run {
    nplus1rt_set *set;
    nplus1rt_enqueue_fn gen;
    void *ud;
    double t[64];
} timed_run;

/* p once, on the inputs as uploaded: its wall time in ms, or -1 on an error. */
static double time_once(vctx *v, cl_kernel orig, const timed_run *p)
{
    if (refresh_inputs(v) != CL_SUCCESS)
        return -1;
    double t0 = nplus1rt_now_ms();
    cl_int err = p->set ? run_generated(v, p->set, p->gen, p->ud) : run_original(v, orig);
    return err == CL_SUCCESS ? nplus1rt_now_ms() - t0 : -1;
}

/*
 * --reps rounds; each round times every run of p once, each round starting at the next
 * one, so that a device whose clock or temperature drifts during the measurement slows
 * every variant alike (a 20-microsecond kernel read 0.0375 ms and 0.046 ms in two jobs
 * of one H200 session when each variant was timed in a block of its own). ms[i] gets
 * p[i]'s median, -1 when one of its runs failed.
 */
static void time_interleaved(vctx *v, cl_kernel orig, timed_run *p, unsigned n, double *ms)
{
    int reps = v->o->reps > 64 ? 64 : v->o->reps, failed[8] = {0};
    for (int r = 0; r < reps; r++)
        for (unsigned j = 0; j < n; j++) {
            unsigned i = (unsigned)(r + (int)j) % n;
            if (!failed[i] && (p[i].t[r] = time_once(v, orig, &p[i])) < 0)
                failed[i] = 1;
        }
    for (unsigned i = 0; i < n; i++)
        ms[i] = failed[i] ? -1 : nplus1rt_median(p[i].t, (size_t)reps);
}

/*
 * After a mismatch: the original once more, diffed with its first run. A
 * kernel that races (or reads uninitialised memory) disagrees with itself.
 */
static void recheck_original(vctx *v, cl_kernel orig)
{
    nplus1rt_validation *r = v->res;
    if (upload(v) != CL_SUCCESS || run_original(v, orig) != CL_SUCCESS || download(v, 1) != CL_SUCCESS)
        return;
    r->original_rechecked = 1;
    for (unsigned i = 0; i < v->desc->nargs; i++) {
        const nplus1rt_arg *a = &v->desc->args[i];
        host_arg *h = &v->args[i];
        if (!compared(a))
            continue;
        if (a->kind == NPLUS1RT_ARG_BUFFER)
            align_vec3_padding(a, h->init, h->result, h->bytes);
        size_t bad = nplus1rt_diff(h->init, h->result, h->scalars, h->elem, v->o->ulp_tol, NULL, 0);
        if (bad && !r->original_self_mismatches)
            r->original_self_arg = i;
        r->original_self_mismatches += bad;
    }
}

/* A fresh set of desc, forced to candidate `forced` (NULL: auto, the default). */
static nplus1rt_set *variant_set(vctx *v, const nplus1rt_set_desc *desc, const char *opts,
                                 const char *forced)
{
    cl_int err;
    nplus1rt_set *set = nplus1rt_set_create(v->ctx, v->dev, desc, opts, &err, NULL);
    if (set && forced && nplus1rt_set_force_choice(set, forced) != CL_SUCCESS) {
        nplus1rt_set_release(set);
        return NULL;
    }
    return set;
}

static void add_variant(nplus1rt_validation *r, const char *name, double ms, const char *chose)
{
    if (r->nvariants >= sizeof r->variants / sizeof *r->variants)
        return;
    snprintf(r->variants[r->nvariants].name, sizeof r->variants[0].name, "%s", name);
    snprintf(r->variants[r->nvariants].chose, sizeof r->variants[0].chose, "%s", chose);
    r->variants[r->nvariants++].ms = ms;
}

/* The original kernel from a program built anew: *prog NULL and *log its build log when the
 * build fails, *orig NULL when the kernel cannot be made (the status either way). */
static cl_int build_original(vctx *v, const char *source, const char *opts, cl_program *prog,
                             cl_kernel *orig, char **log)
{
    cl_int err;
    *orig = NULL;
    *prog = nplus1rt_build(v->ctx, v->dev, source, opts, log, &err);
    if (!*prog)
        return err;
    *orig = clCreateKernel(*prog, v->desc->kernel, &err);
    return err;
}

/* The original kernel from a program built anew (NULL on an error), as a later process
 * builds it. */
static cl_kernel fresh_original(vctx *v, const char *source, const char *opts, cl_program *prog)
{
    cl_kernel k;
    char *log = NULL;
    cl_int err = build_original(v, source, opts, prog, &k, &log);
    free(log);
    return err == CL_SUCCESS ? k : NULL;
}

/* Undoes build_original. */
static void release_original(cl_program prog, cl_kernel orig)
{
    if (orig)
        clReleaseKernel(orig);
    if (prog)
        clReleaseProgram(prog);
}

/*
 * What a user pays before auto has settled: a fresh auto set's first
 * NPLUS1RT_FIRST_LAUNCHES launches (its probes and trials included), as the
 * mean time per launch, beside the original's median. Cold: as in a first
 * process (no stored choice); warm: as in a later process, which starts on
 * what the choice cache holds from the sets before it (set_cache.c). Each of
 * NPLUS1RT_FIRST_REPEATS fresh sets is paired with the original launched between
 * its launches; the median of their ratios is reported: one sequence of 16
 * launches of a 0.02-0.03-ms kernel moved by 10% between runs on an H200
 * (0.89x-1.02x for a set that ran the original each time). The original it is
 * paired with is a program built anew for each set, as a later process builds
 * it: the first launch of a fresh program's kernel pays for loading it (on an
 * H200, 1.1x-1.5x and once 2.3x a warmed launch of a 0.03-ms kernel), and a
 * warmed original charged that to auto alone (docs/performance.md, session 9).
 */
#define NPLUS1RT_FIRST_LAUNCHES 16
#define NPLUS1RT_FIRST_REPEATS 5
static void first_launches(vctx *v, const char *source, const nplus1rt_set_desc *desc,
                           const char *opts, int warm)
{
    const int trace = getenv("NPLUS1_TRACE_FIRST") != NULL; /* each launch, to stderr */
    double ratio[NPLUS1RT_FIRST_REPEATS];
    char chose[64] = "";
    unsigned reps = 0;
    for (unsigned rep = 0; rep < NPLUS1RT_FIRST_REPEATS; rep++) {
        cl_program prog = NULL;
        cl_kernel orig = fresh_original(v, source, opts, &prog);
        nplus1rt_set *set = orig ? variant_set(v, desc, opts, NULL) : NULL;
        if (!set) {
            release_original(prog, orig);
            break;
        }
        if (!warm)
            set_choice_forget_stored(set);
        double total = 0, paired = 0;
        const timed_run original = {0};
        timed_run generated = {set, NULL, NULL, {0}};
        int failed = 0;
        for (int i = 0; i < NPLUS1RT_FIRST_LAUNCHES && !failed; i++) {
            const double ms = time_once(v, orig, &generated), between = time_once(v, orig, &original);
            if (ms < 0 || between < 0) {
                failed = 1;
                break;
            }
            total += ms;
            paired += between;
            if (trace)
                fprintf(stderr, "auto-first16: launch %2d %9.3f ms  %s (choice so far: %s); the "
                        "original after it %9.3f ms\n", i + 1, ms,
                        nplus1rt_set_last_ran_original(set) ? "original" : "generated",
                        nplus1rt_set_last_choice(set), between);
        }
        snprintf(chose, sizeof chose, "%s", nplus1rt_set_last_choice(set));
        nplus1rt_set_release(set);
        release_original(prog, orig);
        if (failed || total <= 0 || paired <= 0)
            break;
        /* paired: the originals' total over auto's, the same statistic both sides (a stall
         * of the device in either counts) */
        ratio[reps++] = paired / total;
    }
    /* reported as a time: the original's median over the median ratio, so x = the ratio */
    if (reps && v->res->original_ms > 0)
        add_variant(v->res, warm ? "auto-first16-warm" : "auto-first16",
                    v->res->original_ms / nplus1rt_median(ratio, reps), chose);
}

/*
 * The split's leaf kernels alone, --reps times, on a queue of the same context that keeps
 * profiling events (the host dispatch launches one kernel a leaf, over its bucket): what
 * the split would take if its classifier, scatter, counts and launch gaps cost nothing.
 * The original over that is what regrouping the items by leaf, at no cost, gains in the
 * split's structure (the leaves run one after another; each reads its items through its
 * bucket). -1 where the set launches no leaf kernel (a tile set), the device keeps no
 * events or a run fails (the validation's verdict stands either way).
 */
static double leaves_alone_ms(vctx *v, const nplus1rt_set_desc *always, const char *opts)
{
    if (always->strategy == NPLUS1RT_TILE || !always->nleaves)
        return -1;
    cl_int err;
    cl_command_queue pq = clCreateCommandQueue(v->ctx, v->dev, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!pq)
        return -1;
    nplus1rt_set *set = variant_set(v, always, opts, NULL);
    const int reps = v->o->reps > 64 ? 64 : v->o->reps;
    double t[64];
    int n = 0;
    if (set) {
        char message[sizeof v->res->message];
        memcpy(message, v->res->message, sizeof message);
        cl_command_queue q = v->q;
        v->q = pq;
        nplus1rt_set_dispatch(set, NPLUS1RT_DISPATCH_HOST);
        nplus1rt_set_profiling(set, 1);
        while (n < reps && refresh_inputs(v) == CL_SUCCESS &&
               run_generated(v, set, NULL, NULL) == CL_SUCCESS && (t[n] = set_last_leaves_ms(set)) > 0)
            n++;
        v->q = q;
        memcpy(v->res->message, message, sizeof message); /* a failure here is no verdict */
        nplus1rt_set_release(set);
    }
    clReleaseCommandQueue(pq);
    return n == reps && n > 0 ? nplus1rt_median(t, (size_t)n) : -1;
}

/*
 * --reps side by side, timed in interleaved rounds (time_interleaved): the original,
 * the split forced, each other candidate forced, and auto as the driver runs it by
 * default, once it has chosen (its trials are over: at most 64 launches). Then auto's
 * first launches, cold and over a warm choice cache, each paired with the original.
 */
static void time_variants(vctx *v, cl_kernel orig, const char *source,
                          const nplus1rt_set_desc *desc, const char *opts, nplus1rt_set *split,
                          nplus1rt_enqueue_fn gen, void *gen_ud)
{
    static const char *const others[] = {"tile"};
    nplus1rt_set_desc always = *desc;
    always.split = NPLUS1RT_SPLIT_ALWAYS;
    timed_run p[2 + sizeof others / sizeof *others + 1] = {{0}};
    const char *name[sizeof p / sizeof *p] = {"original", nplus1rt_set_last_choice(split)};
    unsigned n = 2;
    p[1] = (timed_run){split, gen, gen_ud, {0}};
    for (unsigned i = 0; i < sizeof others / sizeof *others; i++) {
        if (!strcmp(others[i], name[1]))
            continue; /* the split is this candidate already (--strategy tile) */
        nplus1rt_set *set = variant_set(v, &always, opts, others[i]);
        if (!set)
            continue;
        name[n] = others[i];
        p[n++] = (timed_run){set, NULL, NULL, {0}};
    }
    nplus1rt_set *autoset = variant_set(v, desc, opts, NULL);
    for (int i = 0; autoset && i < 64 && nplus1rt_set_measuring(autoset, v->items); i++)
        if (refresh_inputs(v) != CL_SUCCESS || run_generated(v, autoset, NULL, NULL) != CL_SUCCESS)
            break; /* its trials on the same data as every timed run */
    if (autoset) {
        name[n] = "auto";
        p[n++] = (timed_run){autoset, NULL, NULL, {0}};
    }
    double ms[sizeof p / sizeof *p];
    time_interleaved(v, orig, p, n, ms);
    v->res->original_ms = ms[0];
    v->res->generated_ms = ms[1];
    add_variant(v->res, name[1], ms[1], "");
    double leaves = leaves_alone_ms(v, &always, opts); /* the split's ceiling, beside it */
    if (leaves > 0)
        add_variant(v->res, "leaves-alone", leaves, "");
    for (unsigned i = 2; i < n; i++) {
        int is_auto = p[i].set == autoset;
        add_variant(v->res, name[i], ms[i], is_auto ? nplus1rt_set_last_choice(autoset) : "");
        nplus1rt_set_release(p[i].set); /* what the last timed launch ran: read above */
    }
    first_launches(v, source, desc, opts, 0);
    if (set_cache_enabled()) /* a later process: the sets above stored their choices */
        first_launches(v, source, desc, opts, 1);
}

static void free_args(vctx *v)
{
    for (unsigned i = 0; v->args && i < v->desc->nargs; i++) {
        free(v->args[i].init);
        free(v->args[i].result);
        free(v->args[i].input);
        if (v->args[i].mem)
            clReleaseMemObject(v->args[i].mem);
        if (v->args[i].buf)
            clReleaseMemObject(v->args[i].buf);
        if (v->args[i].sampler)
            clReleaseSampler(v->args[i].sampler);
    }
    free(v->args);
    free(v->vals);
}

/* The inputs of both runs, and the original kernel built from its source. */
static cl_int setup_original(vctx *v, const char *source, const char *build_options,
                             cl_program *prog, cl_kernel *orig)
{
    for (cl_uint d = 0; d < v->o->work_dim && d < 3; d++)
        v->items *= v->o->global_size[d];
    v->args = calloc(v->desc->nargs + 1, sizeof *v->args);
    v->vals = calloc(v->desc->nargs + 1, sizeof *v->vals);
    cl_int err = v->args && v->vals ? prepare_args(v) : vfail(v, NPLUS1_ERR_OOM, "allocating");
    if (err != CL_SUCCESS)
        return err;
    char *log = NULL;
    err = build_original(v, source, build_options, prog, orig, &log);
    if (!*prog)
        snprintf(v->res->message, sizeof v->res->message, "building the original kernel: %s\n%s",
                 nplus1_strerror(err), log ? log : "");
    free(log);
    if (!*prog)
        return err;
    return err == CL_SUCCESS ? err : vfail(v, err, "creating the original kernel");
}

/* Undoes setup_original. */
static void teardown_original(vctx *v, cl_program prog, cl_kernel orig)
{
    release_original(prog, orig);
    free_args(v);
}

cl_int nplus1rt_validate(cl_context ctx, cl_device_id dev, cl_command_queue q,
                         const nplus1rt_set_desc *desc, const char *original_source,
                         const char *build_options, nplus1rt_enqueue_fn gen, void *gen_ud,
                         const nplus1rt_validate_opts *opts, nplus1rt_validation *res)
{
    memset(res, 0, sizeof *res);
    res->nleaves = desc->nleaves;
    vctx v = {ctx, dev, q, desc, opts, res, NULL, NULL, 1};
    cl_program prog = NULL;
    cl_kernel orig = NULL;
    cl_int err = setup_original(&v, original_source, build_options, &prog, &orig);
    nplus1rt_set *set = NULL;
    cl_int *leaf_of = NULL;
    /* the split kernels are what needs proving: the own set always splits */
    nplus1rt_set_desc always = *desc;
    always.split = NPLUS1RT_SPLIT_ALWAYS;
    if (err == CL_SUCCESS) {
        char *msg = NULL;
        set = nplus1rt_set_create(ctx, dev, &always, build_options, &err, &msg);
        if (!set)
            snprintf(res->message, sizeof res->message, "%s", msg ? msg : "creating the set");
        free(msg);
    }
    /* generated first: its results go to result[], the original's to init[] */
    if (err == CL_SUCCESS && (err = upload(&v)) == CL_SUCCESS &&
        (err = run_generated(&v, set, gen, gen_ud)) == CL_SUCCESS)
        err = download(&v, 1);
    if (err == CL_SUCCESS && gen) { /* the driver ran it: classify again for attribution */
        if ((err = upload(&v)) == CL_SUCCESS)
            err = run_generated(&v, set, NULL, NULL);
    }
    /* the last launch ran the tile kernel in place (a TILE set's, or the tile candidate
     * forced by NPLUS1_CHOICE=tile) */
    if (err == CL_SUCCESS && set->tile_in_place && set->last_tile) {
        res->empty_items = NPLUS1RT_NOT_COUNTED; /* the original's body in place: no leaves */
    } else if (err == CL_SUCCESS) {
        leaf_of = malloc(v.items * sizeof *leaf_of);
        cl_uint counts[64] = {0};
        if (leaf_of && nplus1rt_set_item_leaves(set, leaf_of, v.items) == CL_SUCCESS &&
            nplus1rt_set_last_counts(set, counts, 64) == CL_SUCCESS) {
            size_t sum = 0;
            for (unsigned l = 0; l < desc->nleaves && l < 64; l++)
                sum += res->leaf_items[l] = counts[l];
            res->empty_items = v.items - sum;
            if (sum > v.items) { /* a loop kernel counts branch runs: the items with none */
                res->empty_items = 0;
                for (size_t i = 0; i < v.items; i++)
                    res->empty_items += leaf_of[i] < 0;
            }
        }
    }
    if (err == CL_SUCCESS && (err = upload(&v)) == CL_SUCCESS &&
        (err = run_original(&v, orig)) == CL_SUCCESS)
        err = download(&v, 0);
    if (err == CL_SUCCESS)
        diff_all(&v, leaf_of);
    if (err == CL_SUCCESS && res->mismatches)
        recheck_original(&v, orig);
    if (err == CL_SUCCESS && opts->reps > 0) {
        time_variants(&v, orig, original_source, desc, build_options, set, gen, gen_ud);
    }
    free(leaf_of);
    nplus1rt_set_release(set);
    teardown_original(&v, prog, orig);
    return err;
}

cl_int nplus1rt_run_original(cl_context ctx, cl_device_id dev, cl_command_queue q,
                             const nplus1rt_set_desc *desc, const char *original_source,
                             const char *build_options, const nplus1rt_validate_opts *opts,
                             nplus1rt_validation *res)
{
    memset(res, 0, sizeof *res);
    vctx v = {ctx, dev, q, desc, opts, res, NULL, NULL, 1};
    cl_program prog = NULL;
    cl_kernel orig = NULL;
    cl_int err = setup_original(&v, original_source, build_options, &prog, &orig);
    if (err == CL_SUCCESS && (err = upload(&v)) == CL_SUCCESS)
        err = run_original(&v, orig);
    teardown_original(&v, prog, orig);
    return err;
}

cl_int nplus1rt_run_original_outputs(cl_context ctx, cl_device_id dev, cl_command_queue q,
                                     const nplus1rt_set_desc *desc, const char *source,
                                     const char *build_options,
                                     const nplus1rt_validate_opts *opts, void **out,
                                     size_t *out_bytes, nplus1rt_validation *res)
{
    memset(res, 0, sizeof *res);
    vctx v = {ctx, dev, q, desc, opts, res, NULL, NULL, 1};
    cl_program prog = NULL;
    cl_kernel orig = NULL;
    cl_int err = setup_original(&v, source, build_options, &prog, &orig);
    if (err == CL_SUCCESS && (err = upload(&v)) == CL_SUCCESS &&
        (err = run_original(&v, orig)) == CL_SUCCESS)
        err = download(&v, 0);
    for (unsigned i = 0; i < desc->nargs; i++) {
        int mine = err == CL_SUCCESS && desc->args[i].writable &&
                   desc->args[i].kind == NPLUS1RT_ARG_BUFFER;
        out[i] = mine ? v.args[i].init : NULL; /* the caller owns it now */
        out_bytes[i] = mine ? v.args[i].bytes : 0;
        if (mine)
            v.args[i].init = NULL;
    }
    teardown_original(&v, prog, orig);
    return err;
}
