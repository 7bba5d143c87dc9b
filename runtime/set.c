/*
 * set.c - the generic launcher of a generated kernel set.
 *
 * The generated driver describes its kernels with a nplus1rt_set_desc; this
 * file builds them, owns the bucket buffers (one index array of N entries,
 * 2 counters per leaf, and per-group counts for the ordered strategy), and
 * enqueues classifier -> (scan) -> scatter -> leaves exactly like the
 * original kernel would be enqueued. The launch protocol (hidden kernel
 * arguments, buffer layout) is the one templates/kernel.cl.tmpl defines.
 * The TILE strategy is one kernel (launch_tile): no buckets, no read-back.
 */
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choose.h"
#include "nplus1rt.h"

#define MAX_EVENTS 80
#define NPLUS1_IPT_DEFAULT 8 /* items per work-item in the classifier passes */

struct nplus1rt_set {
    const nplus1rt_set_desc *desc;  /* points to desc_copy */
    nplus1rt_set_desc desc_copy;
    cl_context ctx;
    cl_device_id dev;
    cl_program prog;
    cl_kernel count, scan, scatter, fused;
    cl_kernel chunk, fused_chunk;  /* CHUNKED */
    cl_kernel original;         /* the user's kernel (ADAPTIVE / NEVER splits) */
    cl_kernel *leaves;
    /* Counters, two sets used in turn: [0, L) leaf sizes, [L, 2L) fill
     * counters, [2L] mixed 32-item chunks. Each scatter zeroes the other set. */
    cl_mem ctrs[2];
    cl_mem ctr;                 /* the set this launch uses */
    int cur, clean[2];
    cl_mem idx;                 /* the buckets, concatenated, leaf after leaf */
    cl_mem counts;              /* ORDERED: per-group counts, leaf-major */
    cl_mem leafid;              /* one byte per item: its leaf (255: none) */
    size_t idx_cap, counts_cap, leafid_cap;
    size_t wg;
    size_t dev_max_wg;          /* CL_DEVICE_MAX_WORK_GROUP_SIZE, read once */
    unsigned ipt;               /* items per work-item in the classifier passes */
    nplus1rt_dispatch dispatch;
    nplus1rt_split split;       /* desc->split, after the environment and the device */
    cl_uint *last_counts;
    int counts_valid;
    cl_command_queue last_queue;
    int profiling;
    unsigned probe_period, until_probe; /* ADAPTIVE: launches until the next probe */
    int use_original;                   /* the last probe's verdict */
    double probe_threshold;
    int last_original;
    int last_chunked;           /* the last launch used the chunk layout */
    size_t last_positions;      /* CHUNKED: index entries the fused kernel covered */
    cl_event events[MAX_EVENTS];
    unsigned nevents;
    char *errmsg;
    chooser chooser;            /* MEASURED: which candidate runs (choose.c) */
    int timing;                 /* this launch is a timed trial: keep its events */
    int forced;                 /* a forced candidate (NPLUS1_CHOICE), -1: none */
    int no_chunk;               /* CHUNKED: this launch runs the aggregated passes */
    unsigned char *orig_args;   /* the original's arguments as last set (sizes, then bytes) */
    size_t orig_args_len;
    cl_kernel tile;             /* desc->tile_kernel, or NULL */
    unsigned tile_ipt;          /* items per work-item in a tile (-DNPLUS1_TILE_IPT) */
    int tile_match;             /* NVIDIA sm_70+: one warp match per item (-DNPLUS1_TILE_MATCH) */
    int record_leaves;          /* TILE: write each item's leaf (validation) */
    int last_tile;              /* the last launch was TILE: 1, 2 when it recorded the leaves */
    int last_uncounted;         /* ... and did not count its items (the fast path) */
    unsigned launches;          /* TILE launches so far (the first records the leaves) */
};

static void init_choice(nplus1rt_set *s);

/* ---- messages ------------------------------------------------------------ */

/* fmt formatted into a malloc'd string, or NULL. */
static char *format_msg(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (m)
        vsnprintf(m, (size_t)n + 1, fmt, again);
    va_end(again);
    return m;
}

static char *new_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = format_msg(fmt, ap);
    va_end(ap);
    return m;
}

static void set_msg(nplus1rt_set *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = format_msg(fmt, ap);
    va_end(ap);
    if (!m)
        return;
    free(s->errmsg);
    s->errmsg = m;
}

const char *nplus1rt_set_errmsg(const nplus1rt_set *s)
{
    return s && s->errmsg ? s->errmsg : "no error";
}

static cl_int fail(nplus1rt_set *s, cl_int err, const char *what)
{
    set_msg(s, "%s: %s (%d)", what, nplus1_strerror(err), (int)err);
    return err;
}

/* ---- create ---------------------------------------------------------------- */

static cl_kernel make_kernel(nplus1rt_set *s, const char *name, cl_int *err)
{
    if (!name)
        return NULL;
    cl_kernel k = clCreateKernel(s->prog, name, err);
    if (*err != CL_SUCCESS)
        set_msg(s, "kernel '%s' of the generated set: %s", name, nplus1_strerror(*err));
    return k;
}

static void release_kernels(nplus1rt_set *s)
{
    cl_kernel *all[] = {&s->count, &s->scan, &s->scatter, &s->fused, &s->original, &s->chunk,
                        &s->fused_chunk, &s->tile};
    for (unsigned i = 0; i < 8; i++)
        if (*all[i]) {
            clReleaseKernel(*all[i]);
            *all[i] = NULL;
        }
    for (unsigned l = 0; s->leaves && l < s->desc->nleaves; l++)
        if (s->leaves[l]) {
            clReleaseKernel(s->leaves[l]);
            s->leaves[l] = NULL;
        }
    if (s->prog) {
        clReleaseProgram(s->prog);
        s->prog = NULL;
    }
}

/* The -D options of opts that name macro (name, name at its start), as written, in sb. */
static void macro_options(char *out, size_t n, const char *opts, const char *name, size_t len)
{
    out[0] = '\0';
    for (const char *p = opts ? strstr(opts, "-D") : NULL; p; p = strstr(p + 2, "-D")) {
        const char *q = p + 2;
        while (*q == ' ')
            q++;
        size_t w = strcspn(q, " \t");
        if (!strncmp(q, name, len) && (q[len] == '=' || w == len) && (p == opts || p[-1] == ' '))
            snprintf(out + strlen(out), n - strlen(out), "%s-D%.*s", out[0] ? " " : "", (int)w, q);
    }
}

/*
 * NPLUS1_ERR_MACRO's message, from the generated "#error nplus1-macro: NAMES:
 * line L (...) ... (FAST undefined)" line of the build log and the options.
 */
static void macro_msg(nplus1rt_set *s, const char *log, const char *opts)
{
    const char *m = strstr(log, "nplus1-macro: ") + 14, *colon = strchr(m, ':');
    size_t len = strcspn(m, "\r\n");
    char given[512] = "", one[256];
    for (const char *n = m; colon && n < colon;) {
        size_t w = strcspn(n, ",:");
        macro_options(one, sizeof one, opts, n, w);
        if (one[0])
            snprintf(given + strlen(given), sizeof given - strlen(given), "%s%s",
                     given[0] ? " " : "", one);
        n += w + (n[w] == ',');
    }
    set_msg(s, "the n+1 set of '%s' cannot be built with these build options (\"%s\"): %.*s; "
               "its kernels were cut from the other branch, and would compute other results "
               "than the original. Regenerate the set with the same macros (nplus1gen ... %s), "
               "or create it without %s", s->desc->kernel, opts ? opts : "", (int)len, m,
            given[0] ? given : "-D<the macro>=<value>", given[0] ? given : "that option");
}

static cl_int build(nplus1rt_set *s, const char *user_options)
{
    size_t n = strlen(user_options ? user_options : "") + 96;
    char *opts = malloc(n);
    if (!opts)
        return fail(s, NPLUS1_ERR_OOM, "building the generated set");
    snprintf(opts, n, "-DNPLUS1_WG=%zu -DNPLUS1_IPT=%u -DNPLUS1_TILE_IPT=%u%s %s", s->wg, s->ipt,
             s->tile_ipt, s->tile_match ? " -DNPLUS1_TILE_MATCH" : "",
             user_options ? user_options : "");
    char *log = NULL;
    cl_int err;
    s->prog = nplus1rt_build(s->ctx, s->dev, s->desc->source, opts, &log, &err);
    free(opts);
    if (!s->prog) {
        if (log && strstr(log, "nplus1-macro: ")) { /* a generated #error (tool/macro_deps.h) */
            err = NPLUS1_ERR_MACRO;
            macro_msg(s, log, user_options);
        } else {
            set_msg(s, "building the n+1 kernel set of '%s' failed (%s):\n%s", s->desc->kernel,
                    nplus1_strerror(err), log ? log : "(no build log)");
        }
        free(log);
        return err;
    }
    free(log);
    const nplus1rt_set_desc *d = s->desc;
    if (s->split != NPLUS1RT_SPLIT_ALWAYS && !(s->original = make_kernel(s, d->kernel, &err)))
        return err;
    if (d->tile_kernel && !(s->tile = make_kernel(s, d->tile_kernel, &err)))
        return err;
    if (d->strategy == NPLUS1RT_TILE) /* the set is the tile kernel alone */
        return s->tile ? CL_SUCCESS
                       : fail(s, CL_INVALID_KERNEL_NAME, "strategy tile without a tile kernel");
    if (!(s->count = make_kernel(s, d->count_kernel, &err)) ||
        !(s->scatter = make_kernel(s, d->scatter_kernel, &err)) ||
        !(s->fused = make_kernel(s, d->fused_kernel, &err)))
        return err;
    if (d->scan_kernel && !(s->scan = make_kernel(s, d->scan_kernel, &err)))
        return err;
    if (d->strategy == NPLUS1RT_CHUNKED) {
        char name[512];
        snprintf(name, sizeof name, "%s" NPLUS1RT_SUFFIX_CHUNK, d->kernel);
        if (!(s->chunk = make_kernel(s, name, &err)))
            return err;
        snprintf(name, sizeof name, "%s" NPLUS1RT_SUFFIX_FUSED_CHUNK, d->kernel);
        if (!(s->fused_chunk = make_kernel(s, name, &err)))
            return err;
    }
    for (unsigned l = 0; l < d->nleaves; l++)
        if (!(s->leaves[l] = make_kernel(s, d->leaf_kernels[l], &err)))
            return err;
    return CL_SUCCESS;
}

/* The largest work-group size every generated kernel accepts. */
static size_t kernel_limit(nplus1rt_set *s)
{
    size_t limit = s->wg;
    cl_kernel ks[7] = {s->count, s->scan, s->scatter, s->fused, s->chunk, s->fused_chunk, s->tile};
    for (unsigned i = 0; i < 7 + s->desc->nleaves; i++) {
        cl_kernel k = i < 7 ? ks[i] : s->leaves[i - 7];
        size_t w = 0;
        if (k && clGetKernelWorkGroupInfo(k, s->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof w, &w,
                                          NULL) == CL_SUCCESS && w && w < limit)
            limit = w;
    }
    return limit;
}

/*
 * Items per work-item in a tile: NPLUS1_TILE_IPT, else the largest power of
 * two up to 16 whose tile ids (4 bytes an item) take at most 1/12 of the
 * device's local memory: many resident work-groups hide the latency of the
 * tile's phases. On the H200 (48 KiB) that is 4 items at 256 work-items,
 * the fastest measured (docs/performance.md). A tile holds at most 65536
 * items (16-bit offsets).
 */
static unsigned tile_ipt_for(cl_device_id dev, size_t wg)
{
    const char *env = getenv("NPLUS1_TILE_IPT");
    if (env && atoi(env) > 0 && atoi(env) <= 64 && (size_t)atoi(env) * wg <= 65536)
        return (unsigned)atoi(env);
    cl_ulong local = 0;
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    unsigned ipt = 16;
    while (ipt > 1 && ((cl_ulong)ipt * wg * 4 > local / 12 || ipt * wg > 65536))
        ipt /= 2;
    return ipt;
}

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000 /* cl_nv_device_attribute_query */
#endif

/*
 * The tile kernel's slots from one warp match per item (PTX match.any, NVIDIA
 * compute capability 7.0 and later) instead of one ballot per leaf: 1.42x ->
 * 1.58x at 8 iterations on the H200 (docs/performance.md). NPLUS1_TILE_MATCH=0
 * turns it off.
 */
static int tile_match_for(cl_device_id dev)
{
    const char *env = getenv("NPLUS1_TILE_MATCH");
    if (env && !strcmp(env, "0"))
        return 0;
    char ext[4096] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    cl_uint major = 0;
    if (!strstr(ext, "cl_nv_device_attribute_query") ||
        clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) !=
            CL_SUCCESS)
        return 0;
    return major >= 7;
}

/*
 * NPLUS1_SPLIT=always|auto|adaptive|never overrides a generated auto policy.
 * auto (the default for a generated ADAPTIVE or NEVER set: the static model
 * is only the prior) times the candidates and keeps the fastest (choose.c).
 * adaptive, the probe-only policy, runs the original on a device that is not
 * a GPU unless NPLUS1_PROBE_THRESHOLD asks for probing there too.
 */
static nplus1rt_split split_policy(nplus1rt_split generated, int gpu)
{
    const char *env = generated == NPLUS1RT_SPLIT_ALWAYS ? NULL : getenv("NPLUS1_SPLIT");
    if (env && !strcmp(env, "always"))
        return NPLUS1RT_SPLIT_ALWAYS;
    if (env && !strcmp(env, "never"))
        return NPLUS1RT_SPLIT_NEVER;
    if (env && !strcmp(env, "adaptive"))
        return gpu || getenv("NPLUS1_PROBE_THRESHOLD") ? NPLUS1RT_SPLIT_ADAPTIVE
                                                       : NPLUS1RT_SPLIT_NEVER;
    (void)gpu; /* auto: the measured choice decides, on CPUs too */
    return generated == NPLUS1RT_SPLIT_ALWAYS ? generated : NPLUS1RT_SPLIT_MEASURED;
}

/* NPLUS1_ERR_FORMAT, with a message, when this runtime cannot run desc's format. */
static cl_int check_format(const nplus1rt_set_desc *desc, char **errmsg)
{
    unsigned v = desc->format_version ? desc->format_version : 1;
    if (v >= NPLUS1RT_FORMAT_OLDEST && v <= NPLUS1RT_FORMAT_VERSION)
        return CL_SUCCESS;
    if (errmsg) {
        const char *fmt = "the driver for kernel '%s' was generated for format version %u, but "
                          "this libnplus1rt %s runs format versions %d to %d: regenerate the "
                          "driver with the nplus1gen that matches this runtime "
                          "(nplus1gen --version prints its format version)";
        *errmsg = new_msg(fmt, desc->kernel ? desc->kernel : "?", v, NPLUS1RT_VERSION,
                          NPLUS1RT_FORMAT_OLDEST, NPLUS1RT_FORMAT_VERSION);
    }
    return NPLUS1_ERR_FORMAT;
}

/* A format-1 driver's desc ends at tile_kernel: the later fields stay 0. */
static void copy_desc(nplus1rt_set_desc *to, const nplus1rt_set_desc *from)
{
    memset(to, 0, sizeof *to);
    if (from->format_version >= 2)
        *to = *from;
    else
        memcpy(to, from, offsetof(nplus1rt_set_desc, predicted_split));
}

nplus1rt_set *nplus1rt_set_create(cl_context ctx, cl_device_id dev, const nplus1rt_set_desc *desc,
                                  const char *build_options, cl_int *err, char **errmsg)
{
    cl_int e = check_format(desc, errmsg);
    if (e != CL_SUCCESS) {
        if (err)
            *err = e;
        return NULL;
    }
    nplus1rt_set *s = calloc(1, sizeof *s);
    if (s)
        s->leaves = calloc(desc->nleaves ? desc->nleaves : 1, sizeof *s->leaves);
    if (!s || !s->leaves) {
        free(s);
        if (err)
            *err = NPLUS1_ERR_OOM;
        return NULL;
    }
    copy_desc(&s->desc_copy, desc);
    s->desc = &s->desc_copy;
    desc = s->desc;
    s->ctx = ctx;
    s->dev = dev;
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    int gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    s->dispatch = desc->dispatch;
    if (s->dispatch == NPLUS1RT_DISPATCH_AUTO)
        s->dispatch = gpu ? NPLUS1RT_DISPATCH_FUSED : NPLUS1RT_DISPATCH_HOST;
    s->split = split_policy(desc->split, gpu);
    s->wg = desc->wg ? desc->wg : 256;
    const char *ipt = getenv("NPLUS1_IPT");
    s->ipt = ipt && atoi(ipt) > 0 && atoi(ipt) <= 64 ? (unsigned)atoi(ipt) : NPLUS1_IPT_DEFAULT;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof s->dev_max_wg, &s->dev_max_wg, NULL);
    while (s->dev_max_wg && s->wg > s->dev_max_wg)
        s->wg /= 2;
    s->tile_ipt = tile_ipt_for(dev, s->wg);
    s->tile_match = tile_match_for(dev);
    e = build(s, build_options);
    if (e == CL_SUCCESS) {
        size_t limit = kernel_limit(s);
        if (limit < s->wg) { /* too many registers for this size: rebuild smaller */
            while (s->wg > limit)
                s->wg /= 2;
            release_kernels(s);
            e = build(s, build_options);
        }
    }
    if (e == CL_SUCCESS) {
        s->last_counts = calloc(2 * desc->nleaves + 1, sizeof *s->last_counts);
        for (int i = 0; i < 2 && e == CL_SUCCESS; i++)
            s->ctrs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE,
                                        sizeof(cl_uint) * (2 * desc->nleaves + 1), NULL, &e);
        if (e != CL_SUCCESS)
            fail(s, e, "allocating the leaf counters");
        else if (!s->last_counts)
            e = fail(s, NPLUS1_ERR_OOM, "allocating the leaf counters");
        const char *period = getenv("NPLUS1_PROBE_PERIOD"), *thr = getenv("NPLUS1_PROBE_THRESHOLD");
        s->probe_period = period ? (unsigned)atoi(period) : 16;
        s->probe_threshold = thr ? atof(thr) : 0.25;
        init_choice(s);
    }
    if (err)
        *err = e;
    if (e != CL_SUCCESS) {
        if (errmsg)
            *errmsg = s->errmsg ? strdup(s->errmsg) : NULL;
        nplus1rt_set_release(s);
        return NULL;
    }
    return s;
}

void nplus1rt_set_release(nplus1rt_set *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->nevents; i++)
        clReleaseEvent(s->events[i]);
    release_kernels(s);
    for (int i = 0; i < 2; i++)
        if (s->ctrs[i])
            clReleaseMemObject(s->ctrs[i]);
    if (s->idx)
        clReleaseMemObject(s->idx);
    if (s->counts)
        clReleaseMemObject(s->counts);
    if (s->leafid)
        clReleaseMemObject(s->leafid);
    free(s->leaves);
    free(s->orig_args);
    free(s->last_counts);
    free(s->errmsg);
    free(s);
}

void nplus1rt_set_dispatch(nplus1rt_set *s, nplus1rt_dispatch d)
{
    s->dispatch = d;
}

void nplus1rt_set_adaptive(nplus1rt_set *s, unsigned period, double threshold)
{
    s->probe_period = period;
    s->probe_threshold = threshold;
    s->until_probe = 0;
}

int nplus1rt_set_last_ran_original(const nplus1rt_set *s)
{
    return s->last_original;
}

/* ---- launch ----------------------------------------------------------------- */

typedef struct launch {
    cl_uint n, dim;
    cl_uint4 gsz, goff;
    size_t groups;
} launch;

static cl_int check_launch(nplus1rt_set *s, cl_uint dim, const size_t *off, const size_t *gsz,
                           const size_t *lsz, launch *L)
{
    if (dim < 1 || dim > 3)
        return fail(s, CL_INVALID_WORK_DIMENSION, "work_dim must be 1, 2 or 3");
    if (!gsz)
        return fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "global_size is NULL");
    unsigned long long n = 1;
    size_t local_total = 1;
    memset(L, 0, sizeof *L);
    for (cl_uint d = 0; d < 3; d++) {
        size_t g = d < dim ? gsz[d] : 1, o = d < dim && off ? off[d] : 0;
        if (g == 0)
            return fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "a global size is 0");
        if ((unsigned long long)g + o > UINT_MAX)
            return fail(s, CL_INVALID_GLOBAL_OFFSET, "global offset + size exceeds 2^32");
        n *= g;
        L->gsz.s[d] = (cl_uint)g;
        L->goff.s[d] = (cl_uint)o;
        if (d < dim && lsz) {
            if (lsz[d] == 0 || g % lsz[d])
                return fail(s, CL_INVALID_WORK_GROUP_SIZE,
                            "global size is not a multiple of the local size");
            local_total *= lsz[d];
        }
        size_t reqd = s->desc->reqd_local[d];
        if (reqd && d < dim && (!lsz || lsz[d] != reqd))
            return fail(s, CL_INVALID_WORK_GROUP_SIZE,
                        "the kernel's reqd_work_group_size does not match local_size");
    }
    if (lsz && s->dev_max_wg && local_total > s->dev_max_wg)
        return fail(s, CL_INVALID_WORK_GROUP_SIZE, "local size exceeds the device's maximum");
    if (n > UINT_MAX - s->wg)
        return fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "more than 2^32 work-items");
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
        return fail(s, err, "allocating the bucket buffer");
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
            return fail(s, e_, "setting a hidden argument");              \
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
    return &s->events[s->nevents++];
}

static cl_int run(nplus1rt_set *s, cl_command_queue q, cl_kernel k, size_t items, const char *what)
{
    size_t global = (items + s->wg - 1) / s->wg * s->wg;
    if (global == 0)
        return CL_SUCCESS;
    cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &s->wg, 0, NULL, next_event(s));
    return err == CL_SUCCESS ? err : fail(s, err, what);
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
            return fail(s, err, "clearing the leaf counters");
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
            return fail(s, err, "reading the leaf counts");
        err = run(s, q, s->scatter, L->groups * s->wg, "classifier (scatter)");
        if (err == CL_SUCCESS)
            err = clFlush(q);
        cl_int werr = clWaitForEvents(1, &read);
        clReleaseEvent(read);
        if (err != CL_SUCCESS)
            return err;
        if (werr != CL_SUCCESS)
            return fail(s, werr, "waiting for the leaf counts");
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
        if ((err = run(s, q, k, count, "leaf kernel")) != CL_SUCCESS)
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

static cl_int run_original(nplus1rt_set *s, cl_command_queue q, cl_uint dim, const size_t *off,
                           const size_t *gsz, const size_t *lsz, const nplus1rt_argval *args);
static cl_int probe(nplus1rt_set *s, cl_command_queue q, const launch *L, int *low);

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
        if ((err = probe(s, q, L, &s->use_original)) != CL_SUCCESS)
            return err;
        s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
        if (s->use_original)
            return run_original(s, q, dim, off, gsz, lsz, args);
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

static int same_original_args(nplus1rt_set *s, const nplus1rt_argval *args)
{
    size_t need = packed_args_size(s, args);
    if (s->orig_args && s->orig_args_len == need) {
        const unsigned char *p = s->orig_args;
        unsigned i = 0;
        for (; i < s->desc->nargs; i++) {
            if (memcmp(p, &args[i].size, sizeof(size_t)) ||
                memcmp(p + sizeof(size_t), args[i].value, args[i].size))
                break;
            p += sizeof(size_t) + args[i].size;
        }
        if (i == s->desc->nargs)
            return 1;
    }
    return 0;
}

static void keep_original_args(nplus1rt_set *s, const nplus1rt_argval *args)
{
    size_t need = packed_args_size(s, args);
    unsigned char *p = realloc(s->orig_args, need ? need : 1);
    s->orig_args_len = 0;
    if (!p)
        return;
    s->orig_args = p;
    for (unsigned i = 0; i < s->desc->nargs; i++) {
        memcpy(p, &args[i].size, sizeof(size_t));
        memcpy(p + sizeof(size_t), args[i].value, args[i].size);
        p += sizeof(size_t) + args[i].size;
    }
    s->orig_args_len = need;
}

/*
 * TILE: one kernel; each work-group regroups its tile of NPLUS1_WG x tile_ipt
 * items by leaf in local memory and runs the leaves. It counts the items per
 * leaf (and, probing, the mixed chunks) into this launch's counter set, zeroes
 * the other set, and writes each item's leaf when recording. The seam for a
 * caller that picks the strategy per launch: it needs only s->tile.
 */
static cl_int launch_tile(nplus1rt_set *s, cl_command_queue q, const launch *L,
                          const nplus1rt_argval *args, cl_uint probing)
{
    size_t tile = s->wg * s->tile_ipt;
    if ((size_t)L->n + tile > UINT_MAX)
        return fail(s, CL_INVALID_GLOBAL_WORK_SIZE, "too many work-items for the tile kernel");
    cl_uint record = s->record_leaves || s->launches == 0, a;
    cl_uint flags = (record || probing ? (cl_uint)NPLUS1RT_TILE_COUNT : 0u) |
                    (record ? (cl_uint)NPLUS1RT_TILE_RECORD : 0u);
    cl_int err = take_counters(s, q);
    if (err == CL_SUCCESS && record)
        err = ensure(s, &s->leafid, &s->leafid_cap, (L->n + 3) / 4);
    if (err != CL_SUCCESS)
        return err;
    cl_mem leafid = record ? s->leafid : s->ctr; /* unused unless recording */
    if ((err = launch_args(s, s->tile, args, L, 1, &a)) != CL_SUCCESS)
        return err;
    SETARG(s->tile, a + NPLUS1RT_TILE_CTR, s->ctr);
    SETARG(s->tile, a + NPLUS1RT_TILE_NEXT_CTR, s->ctrs[!s->cur]);
    SETARG(s->tile, a + NPLUS1RT_TILE_PROBE, probing);
    SETARG(s->tile, a + NPLUS1RT_TILE_LEAFID, leafid);
    SETARG(s->tile, a + NPLUS1RT_TILE_FLAGS, flags);
    size_t groups = (L->n + tile - 1) / tile;
    if ((err = run(s, q, s->tile, groups * s->wg, "tile kernel")) != CL_SUCCESS)
        return err;
    s->clean[!s->cur] = 1; /* the tile kernel zeroed the other counter set */
    s->cur = !s->cur;
    s->last_tile = record ? 2 : 1;
    s->counts_valid = 0;
    s->last_uncounted = !(flags & NPLUS1RT_TILE_COUNT);
    return CL_SUCCESS;
}

/* TILE, probing or not: the probing launch has done the work already. */
static cl_int enqueue_tile(nplus1rt_set *s, cl_command_queue q, const launch *L,
                           const nplus1rt_argval *args, int probing)
{
    cl_int err = launch_tile(s, q, L, args, (cl_uint)probing);
    if (err != CL_SUCCESS || !probing)
        return err;
    s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
    return probe(s, q, L, &s->use_original);
}

/* The user's kernel, launched exactly as the user asked. */
static cl_int run_original(nplus1rt_set *s, cl_command_queue q, cl_uint dim, const size_t *off,
                           const size_t *gsz, const size_t *lsz, const nplus1rt_argval *args)
{
    cl_int err = CL_SUCCESS;
    if (!same_original_args(s, args)) {
        s->orig_args_len = 0;
        if ((err = set_user_args(s, s->original, args)) != CL_SUCCESS)
            return err;
        keep_original_args(s, args);
    }
    s->last_original = 1;
    err = clEnqueueNDRangeKernel(q, s->original, dim, off, gsz, lsz, 0, NULL, next_event(s));
    return err == CL_SUCCESS ? err : fail(s, err, "the original kernel");
}

/* Reads the counters after the counting pass: is divergence below the threshold? */
static cl_int probe(nplus1rt_set *s, cl_command_queue q, const launch *L, int *low)
{
    cl_uint nl = s->desc->nleaves;
    cl_int err = clEnqueueReadBuffer(q, s->ctr, CL_TRUE, 0, (2 * nl + 1) * sizeof(cl_uint),
                                     s->last_counts, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail(s, err, "reading the divergence probe");
    s->counts_valid = 1;
    double chunks = (double)((L->n + 31) / 32);
    *low = s->last_counts[2 * nl] < s->probe_threshold * chunks;
    if (s->split == NPLUS1RT_SPLIT_MEASURED)
        *low = !chooser_probe(&s->chooser, chooser_class_of(L->n), s->last_counts[2 * nl] / chunks);
    return CL_SUCCESS;
}

/* ---- the measured choice (--split auto; the decisions are choose.c's) -------- */

/* One launch request, as the user gave it and as check_launch read it. */
typedef struct request {
    cl_command_queue q;
    cl_uint dim;
    const size_t *off, *gsz, *lsz;
    const nplus1rt_argval *args;
    launch L;
} request;

static cl_int launch_split(nplus1rt_set *s, const request *r, int probing);

static cl_int cand_original(nplus1rt_set *s, const request *r, int probing)
{
    (void)probing;
    return run_original(s, r->q, r->dim, r->off, r->gsz, r->lsz, r->args);
}

static int has_original(const nplus1rt_set *s)
{
    return s->original != NULL;
}

static int has_split(const nplus1rt_set *s)
{
    (void)s;
    return 1;
}

/* CHUNKED sets carry the aggregated passes too: a second split to measure. */
static int has_aggregated(const nplus1rt_set *s)
{
    return s->chunk && s->dispatch == NPLUS1RT_DISPATCH_FUSED;
}

/* The one-kernel tile beside the set's own strategy (a TILE set's split is the tile). */
static int has_tile(const nplus1rt_set *s)
{
    return s->tile && s->desc->strategy != NPLUS1RT_TILE;
}

static cl_int cand_tile(nplus1rt_set *s, const request *r, int probing)
{
    cl_int err = enqueue_tile(s, r->q, &r->L, r->args, probing);
    s->launches++;
    return err;
}

static cl_int cand_aggregated(nplus1rt_set *s, const request *r, int probing)
{
    s->no_chunk = 1;
    cl_int err = launch_split(s, r, probing);
    s->no_chunk = 0;
    return err;
}

/* What a set can run. Adding a candidate is one entry (and its launch). */
typedef struct candidate {
    const char *name;      /* NPLUS1_CHOICE and nplus1rt_set_force_choice take it */
    int needs_divergence;  /* pays only when the items of a SIMD group diverge */
    int (*carried)(const nplus1rt_set *s);
    cl_int (*run)(nplus1rt_set *s, const request *r, int probing);
} candidate;

enum {
    CAND_ORIGINAL = NPLUS1RT_CAND_ORIGINAL,
    CAND_SPLIT = NPLUS1RT_CAND_SPLIT,
    CAND_AGGREGATED = NPLUS1RT_CAND_AGGREGATED,
    CAND_TILE = NPLUS1RT_CAND_TILE
};

/* Named and ordered by NPLUS1RT_CANDIDATES (nplus1rt_format.h): the manifest lists the same. */
#define CANDIDATE_(id, v, name, needs) [v] = {name, needs, has_##id, cand_##id},
#define has_ORIGINAL has_original
#define has_SPLIT has_split
#define has_AGGREGATED has_aggregated
#define has_TILE has_tile
#define cand_ORIGINAL cand_original
#define cand_SPLIT launch_split
#define cand_AGGREGATED cand_aggregated
#define cand_TILE cand_tile
static const candidate candidates[] = {NPLUS1RT_CANDIDATES(CANDIDATE_)};
#define NCANDIDATES (sizeof candidates / sizeof *candidates)

/* "<strategy>/<dispatch>", e.g. "aggregated/fused" ("tile": one kernel, no dispatch). */
#define PASS_NAME_(id, v, name) {name "/host", name "/fused"},
static const char *pass_name(nplus1rt_strategy st, nplus1rt_dispatch d)
{
    static const char *names[][2] = {NPLUS1RT_STRATEGIES(PASS_NAME_)};
    if (st == NPLUS1RT_TILE)
        return "tile";
    return (unsigned)st < sizeof names / sizeof *names ? names[st][d == NPLUS1RT_DISPATCH_FUSED]
                                                       : "split";
}

/* The split the last launch ran: a chunk layout that did not fit ran the aggregated passes. */
static const char *split_name(const nplus1rt_set *s)
{
    nplus1rt_strategy st = s->desc->strategy;
    if (st == NPLUS1RT_CHUNKED && !s->last_chunked)
        st = NPLUS1RT_AGGREGATED;
    return pass_name(st, s->dispatch);
}

/* A candidate by name (or the split by "<strategy>/<dispatch>"); -1 when not carried. */
static int candidate_named(const nplus1rt_set *s, const char *name)
{
    for (unsigned c = 0; c < NCANDIDATES; c++) {
        const char *full = c == CAND_SPLIT        ? pass_name(s->desc->strategy, s->dispatch)
                           : c == CAND_AGGREGATED ? pass_name(NPLUS1RT_AGGREGATED, s->dispatch)
                                                  : candidates[c].name;
        if (candidates[c].carried(s) && (!strcmp(name, candidates[c].name) || !strcmp(name, full)))
            return (int)c;
    }
    return -1;
}

/*
 * The profile's prior (format 2, nplus1gen --profile-in): every carried
 * candidate's predicted speed-up bound under PRIOR_NO_GAIN runs the original
 * first, trials after PRIOR_NO_GAIN_DELAY launches; one over PRIOR_GAIN is
 * tried first, without the probe of the first round. 0: no profile.
 */
#define PRIOR_NO_GAIN 1.05
#define PRIOR_NO_GAIN_DELAY 64
#define PRIOR_GAIN 1.25

/* The candidate the prior puts first: CAND_ORIGINAL, the split, the tile, or -1 (none). */
static int prior_first(const nplus1rt_set *s, int *no_gain, int *gain)
{
    double split = has_split(s) ? s->desc->predicted_split : 0;
    double tile = has_tile(s) ? s->desc->predicted_tile : 0;
    double best = split > tile ? split : tile;
    *no_gain = best > 0 && best < PRIOR_NO_GAIN;
    *gain = best >= PRIOR_GAIN;
    if (*gain)
        return tile > split ? CAND_TILE : CAND_SPLIT;
    return *no_gain || s->desc->split == NPLUS1RT_SPLIT_NEVER ? CAND_ORIGINAL : -1;
}

/*
 * The chooser's candidates, in the prior's order: the original first when
 * the static model said never or the profile predicts no gain, the
 * profile's favourite first when it predicts a clear one.
 */
static void init_choice(nplus1rt_set *s)
{
    int order[CHOOSER_MAX_CANDIDATES], needs[CHOOSER_MAX_CANDIDATES] = {0};
    unsigned n = 0;
    int no_gain, gain, first = prior_first(s, &no_gain, &gain);
    if (first >= 0 && candidates[first].carried(s))
        order[n++] = first;
    for (unsigned c = 0; c < NCANDIDATES && n < CHOOSER_MAX_CANDIDATES; c++) {
        needs[c] = candidates[c].needs_divergence;
        if (candidates[c].carried(s) && (int)c != first)
            order[n++] = (int)c;
    }
    chooser_init(&s->chooser, n, order, needs, has_original(s) ? CAND_ORIGINAL : -1);
    s->chooser.probe_threshold = s->probe_threshold;
    s->chooser.trust_divergence = gain;
    const char *period = getenv("NPLUS1_RECHECK_PERIOD"), *force = getenv("NPLUS1_CHOICE");
    const char *delay = getenv("NPLUS1_CHOICE_DELAY");
    if (period)
        s->chooser.recheck_period = (unsigned)atoi(period);
    /* when the original goes first the split is unlikely to pay: its trials (and
     * the fixed costs of a split's first launch) wait until 16 (64) launches ran */
    s->chooser.delay = delay             ? (unsigned)atoi(delay)
                       : no_gain         ? PRIOR_NO_GAIN_DELAY
                       : first == CAND_ORIGINAL ? 16
                                                : 0;
    s->forced = force && strcmp(force, "auto") ? candidate_named(s, force) : -1;
}

static int queue_profiles(cl_command_queue q)
{
    cl_command_queue_properties p = 0;
    return clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL) == CL_SUCCESS &&
           (p & CL_QUEUE_PROFILING_ENABLE);
}

/* From the start of the launch's first kernel to the end of its last. */
static double events_span(nplus1rt_set *s, unsigned first)
{
    if (s->nevents <= first || clWaitForEvents(1, &s->events[s->nevents - 1]) != CL_SUCCESS)
        return -1;
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(s->events[first], CL_PROFILING_COMMAND_START, sizeof start, &start,
                                NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(s->events[s->nevents - 1], CL_PROFILING_COMMAND_END, sizeof end,
                                &end, NULL) != CL_SUCCESS || end <= start)
        return -1;
    return (double)(end - start) * 1e-6;
}

/*
 * A timed trial: profiling events where the queue has them, else wall time
 * with the queue drained before and after. A probe that switched the launch
 * to the original leaves nothing to record.
 */
static cl_int timed_trial(nplus1rt_set *s, const request *r, chooser_pick p, unsigned cls)
{
    int events = queue_profiles(r->q);
    unsigned first = s->nevents;
    cl_int err = CL_SUCCESS;
    if (!events && (err = clFinish(r->q)) != CL_SUCCESS)
        return fail(s, err, "timing a candidate");
    s->timing = events;
    double t0 = nplus1rt_now_ms();
    err = candidates[p.cand].run(s, r, p.probe);
    s->timing = 0;
    if (err != CL_SUCCESS)
        return err;
    if (p.cand != CAND_ORIGINAL && s->last_original)
        return CL_SUCCESS; /* the probe found the input coherent */
    double ms = events ? events_span(s, first) : -1;
    if (!events) {
        if ((err = clFinish(r->q)) != CL_SUCCESS)
            return fail(s, err, "timing a candidate");
        ms = nplus1rt_now_ms() - t0;
    }
    chooser_record(&s->chooser, cls, p.cand, ms);
    return CL_SUCCESS;
}

static cl_int enqueue_measured(nplus1rt_set *s, const request *r)
{
    unsigned cls = chooser_class_of(r->L.n);
    chooser_pick p = chooser_next(&s->chooser, cls);
    if (p.timed)
        return timed_trial(s, r, p, cls);
    return candidates[p.cand].run(s, r, p.probe);
}

cl_int nplus1rt_set_force_choice(nplus1rt_set *s, const char *name)
{
    if (!s)
        return CL_INVALID_VALUE;
    int c = !name || !strcmp(name, "auto") ? -1 : candidate_named(s, name);
    if (name && strcmp(name, "auto") && c < 0)
        return fail(s, CL_INVALID_VALUE, "no such candidate in this set");
    s->forced = c;
    return CL_SUCCESS;
}

int nplus1rt_set_measuring(const nplus1rt_set *s, size_t items)
{
    if (!s || s->forced >= 0 || s->split != NPLUS1RT_SPLIT_MEASURED)
        return 0;
    return !chooser_settled(&s->chooser, chooser_class_of(items));
}

const char *nplus1rt_set_last_choice(const nplus1rt_set *s)
{
    if (!s || !s->last_queue)
        return "none";
    if (s->last_original)
        return "original";
    if (s->last_tile)
        return "tile";
    return split_name(s);
}


cl_int nplus1rt_set_enqueue(nplus1rt_set *s, cl_command_queue q, cl_uint work_dim,
                            const size_t *global_offset, const size_t *global_size,
                            const size_t *local_size, const nplus1rt_argval *args)
{
    if (!s || !q || (!args && s->desc->nargs))
        return CL_INVALID_VALUE;
    launch L;
    cl_int err = check_launch(s, work_dim, global_offset, global_size, local_size, &L);
    if (err != CL_SUCCESS)
        return err;
    for (unsigned i = 0; i < s->nevents; i++)
        clReleaseEvent(s->events[i]);
    s->nevents = 0;
    s->last_queue = q;
    s->counts_valid = 0;
    s->last_original = 0;
    s->last_chunked = 0;
    s->last_tile = 0;
    s->last_uncounted = 0;
    request r = {q, work_dim, global_offset, global_size, local_size, args, L};
    if (s->forced >= 0)
        return candidates[s->forced].run(s, &r, 0);
    if (s->split == NPLUS1RT_SPLIT_MEASURED)
        return enqueue_measured(s, &r);
    int adaptive = s->split == NPLUS1RT_SPLIT_ADAPTIVE;
    int probing = adaptive && s->until_probe == 0;
    if (adaptive && !probing)
        s->until_probe--;
    if (s->split == NPLUS1RT_SPLIT_NEVER || (adaptive && !probing && s->use_original))
        return run_original(s, q, work_dim, global_offset, global_size, local_size, args);
    return launch_split(s, &r, probing);
}

/* The classifier and the leaves (or, when a probe finds little divergence, the original). */
static cl_int launch_split(nplus1rt_set *s, const request *r, int probing)
{
    cl_command_queue q = r->q;
    const launch *L = &r->L;
    const nplus1rt_argval *args = r->args;
    cl_int err;
    if (s->desc->strategy == NPLUS1RT_TILE)
        return cand_tile(s, r, probing);
    if (chunk_layout_fits(s, L))
        return launch_chunked(s, q, L, args, probing, r->dim, r->off, r->gsz, r->lsz);
    /* a probe needs no buckets yet: one that finds the input coherent allocates none */
    if ((!probing && (err = ensure(s, &s->idx, &s->idx_cap, L->n)) != CL_SUCCESS) ||
        (err = ensure(s, &s->leafid, &s->leafid_cap, (L->n + 3) / 4)) != CL_SUCCESS)
        return err;
    if ((err = classify(s, q, L, args, (cl_uint)probing)) != CL_SUCCESS)
        return err;
    if (probing) {
        if ((err = probe(s, q, L, &s->use_original)) != CL_SUCCESS)
            return err;
        s->until_probe = s->probe_period ? s->probe_period - 1 : 0;
        if (s->use_original)
            return run_original(s, q, r->dim, r->off, r->gsz, r->lsz, args);
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

cl_int nplus1rt_set_last_counts(nplus1rt_set *s, cl_uint *counts, unsigned n)
{
    if (!s || !counts)
        return CL_INVALID_VALUE;
    unsigned nl = s->desc->nleaves;
    if (!s->counts_valid) {
        if (!s->last_queue)
            return fail(s, CL_INVALID_OPERATION, "no launch yet");
        if (s->last_tile && s->last_uncounted)
            return fail(s, CL_INVALID_OPERATION, "the last tile launch did not count its items "
                                                 "(nplus1rt_set_record_leaves)");
        if (s->last_original) { /* no buckets this time */
            for (unsigned i = 0; i < n; i++)
                counts[i] = 0;
            return CL_SUCCESS;
        }
        cl_int err = clEnqueueReadBuffer(s->last_queue, s->ctr, CL_TRUE, 0, nl * sizeof(cl_uint),
                                         s->last_counts, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return fail(s, err, "reading the leaf counts");
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

double nplus1rt_set_last_kernel_ms(nplus1rt_set *s)
{
    double total = 0;
    for (unsigned i = 0; i < s->nevents; i++) {
        double ms = nplus1rt_event_ms(s->events[i]);
        if (ms > 0)
            total += ms;
    }
    return total;
}

/* The chunk layout: entries are (leaf << 26 | id), padding 0xffffffff. */
static cl_int chunk_item_leaves(nplus1rt_set *s, cl_int *leaf_of, size_t n)
{
    for (size_t i = 0; i < n; i++)
        leaf_of[i] = -1;
    cl_uint *idx = malloc(s->last_positions * sizeof *idx);
    if (!idx)
        return fail(s, NPLUS1_ERR_OOM, "reading the buckets");
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
    return err == CL_SUCCESS ? err : fail(s, err, "reading the buckets");
}

/* TILE: the recorded byte per item (255: none). */
static cl_int tile_item_leaves(nplus1rt_set *s, cl_int *leaf_of, size_t n)
{
    if (s->last_tile != 2)
        return fail(s, CL_INVALID_OPERATION, "the last tile launch did not record the leaves");
    unsigned char *b = malloc(n ? n : 1);
    if (!b)
        return fail(s, NPLUS1_ERR_OOM, "reading the item leaves");
    cl_int err = clEnqueueReadBuffer(s->last_queue, s->leafid, CL_TRUE, 0, n, b, 0, NULL, NULL);
    for (size_t i = 0; err == CL_SUCCESS && i < n; i++)
        leaf_of[i] = b[i] == 255 ? -1 : (cl_int)b[i];
    free(b);
    return err == CL_SUCCESS ? err : fail(s, err, "reading the item leaves");
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
        return fail(s, NPLUS1_ERR_OOM, "reading the buckets");
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
    return err == CL_SUCCESS ? err : fail(s, err, "reading the buckets");
}
