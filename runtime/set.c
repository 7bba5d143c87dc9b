/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set.c - the generic launcher of a generated kernel set: create, release,
 * enqueue, and the run-time configuration from the environment.
 *
 * The generated driver describes its kernels with a nplus1rt_set_desc; this
 * file builds them and decides the launch policy; set_passes.c enqueues
 * classifier -> (scan) -> scatter -> leaves exactly like the original kernel
 * would be enqueued, set_choice.c runs the measured choice, and
 * set_inspect.c reads back what validation and the benchmark look at.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "set_internal.h"

/* ---- configuration ------------------------------------------------------------ */

/*
 * Every NPLUS1_* environment variable the runtime honours. A set reads the
 * ones below once, in nplus1rt_set_create; device.c reads NPLUS1_PLATFORM
 * and NPLUS1_DEVICE when nplus1rt_pick_device selects a device. The
 * generated kernels' own macros (-DNPLUS1_WG, -DNPLUS1_IPT, -DNPLUS1_TILE_IPT,
 * -DNPLUS1_TILE_MATCH) are build options, set from this configuration.
 *
 *   NPLUS1_SPLIT            always|auto|adaptive|never: overrides a generated auto policy
 *   NPLUS1_PROBE_THRESHOLD  adaptive: the mixed-chunk share under which the original runs
 *                           (0.25); set, it also lets adaptive probe on a CPU
 *   NPLUS1_PROBE_PERIOD     adaptive: launches from one probe to the next (16)
 *   NPLUS1_IPT              items per work-item in the classifier passes, 1-64 (8)
 *   NPLUS1_TILE_IPT         items per work-item in a tile, 1-64 (from the local memory)
 *   NPLUS1_TILE_HALF        0: the top-level tile kernels never run their copy at half the
 *                           items a work-item (find_tile_half)
 *   NPLUS1_TILE_MATCH       0: no warp match in the tile kernel on NVIDIA sm_70+; 1: a match
 *                           whatever the leaf count (unset: by leaf count, rank_method)
 *   NPLUS1_LOOP_REGROUP     a regrouped loop's policy, 0-2, or off (-1: the tile kernel is
 *                           the original's body in place) (-DNPLUS1_LOOP_REGROUP; unset:
 *                           the tool's choice per loop, docs/design.md "Loops")
 *   NPLUS1_LOOP_REGROUP_EVERY  regroup at most every k-th round (-DNPLUS1_LOOP_REGROUP_EVERY)
 *   NPLUS1_TILE_REGROUP     the tile kernel with contexts: 0 in place, 1 or 2 regrouped;
 *                           off (-1): every tile kernel (plain too) is the original's body,
 *                           launched as the original (-DNPLUS1_TILE_REGROUP; unset: the
 *                           tool's choice)
 *   NPLUS1_CHOICE           auto, or a candidate (original|split|aggregated|tile or
 *                           "<strategy>/<dispatch>") that every launch runs
 *   NPLUS1_CHOICE_DELAY     launches before the measured choice's first trial
 *   NPLUS1_RECHECK_PERIOD   launches between the measured choice's re-checks (64)
 *   NPLUS1_CHOICE_START     lean (default): first launches timed, the split probed on a
 *                           sample beside the original; classic: the start before
 *   NPLUS1_TRIAL_CLOCK      wall (default): a trial is timed by the host's clock around
 *                           the launch, the queue drained before and after (what --reps
 *                           measures: host-side launch costs included); events: by its
 *                           kernels' profiling events where the queue has them
 *   NPLUS1_TRACE_CHOICE     1: each trial's time and each choice, to stderr
 *   NPLUS1_CACHE            0: no choice cache (set_cache.c reads it, and the next one)
 *   NPLUS1_CACHE_DIR        the choice cache's folder ($XDG_CACHE_HOME/nplus1, ~/.cache/nplus1)
 */
/* A regroup policy: 0-2, -1 for "off" or "-1" (the tile kernel in place), else -2 (unset). */
static int regroup_env(const char *name)
{
    const char *v = getenv(name);
    if (v && (!strcmp(v, "off") || !strcmp(v, "-1")))
        return -1;
    return v && *v >= '0' && *v <= '2' && !v[1] ? *v - '0' : -2;
}

void set_config_from_env(set_config *c)
{
    const char *v;
    memset(c, 0, sizeof *c);
    c->split = getenv("NPLUS1_SPLIT");
    v = getenv("NPLUS1_PROBE_THRESHOLD");
    c->has_probe_threshold = v != NULL;
    c->probe_threshold = v ? atof(v) : 0.25;
    v = getenv("NPLUS1_PROBE_PERIOD");
    c->probe_period = v ? (unsigned)atoi(v) : 16;
    v = getenv("NPLUS1_IPT");
    c->ipt = v && atoi(v) > 0 && atoi(v) <= 64 ? (unsigned)atoi(v) : NPLUS1_IPT_DEFAULT;
    v = getenv("NPLUS1_TILE_IPT");
    c->tile_ipt = v ? atoi(v) : 0;
    v = getenv("NPLUS1_TILE_MATCH");
    c->tile_match_off = v && !strcmp(v, "0");
    c->tile_match_on = v && !strcmp(v, "1");
    c->loop_regroup = regroup_env("NPLUS1_LOOP_REGROUP");
    c->tile_regroup = regroup_env("NPLUS1_TILE_REGROUP");
    v = getenv("NPLUS1_LOOP_REGROUP_EVERY");
    c->loop_every = v && atoi(v) > 0 ? (unsigned)atoi(v) : 0;
    v = getenv("NPLUS1_RECHECK_PERIOD");
    c->has_recheck_period = v != NULL;
    c->recheck_period = v ? (unsigned)atoi(v) : 0;
    v = getenv("NPLUS1_CHOICE_DELAY");
    c->has_choice_delay = v != NULL;
    c->choice_delay = v ? (unsigned)atoi(v) : 0;
    c->choice = getenv("NPLUS1_CHOICE");
    v = getenv("NPLUS1_CHOICE_START");
    c->choice_classic = v && !strcmp(v, "classic");
    v = getenv("NPLUS1_TRIAL_CLOCK");
    c->trial_events = v && !strcmp(v, "events");
    v = getenv("NPLUS1_TRACE_CHOICE");
    c->trace_choice = v && strcmp(v, "0");
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

/*
 * The top-level tile kernel at half the items a work-item (template section tile-half),
 * where the program has it: a launch of fewer than 8 full tiles a compute unit runs it,
 * twice the work-groups, which even out across the compute units (on an H200 at 1M items,
 * 7.75 tiles of 1024 items a compute unit: docs/performance.md, session 9).
 * NPLUS1_TILE_HALF=0 leaves it out.
 */
static void find_tile_half(nplus1rt_set *s, const char *tile)
{
    const char *v = getenv("NPLUS1_TILE_HALF");
    char name[512];
    cl_uint cus = 0;
    if ((v && !strcmp(v, "0")) || s->tile_ipt < 2 ||
        snprintf(name, sizeof name, "%s_half", tile) >= (int)sizeof name ||
        clGetDeviceInfo(s->dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL) !=
            CL_SUCCESS)
        return;
    cl_int err;
    s->tile_half = clCreateKernel(s->prog, name, &err);
    if (err != CL_SUCCESS)
        s->tile_half = NULL; /* a set of an older tool, or a loop kernel: none */
    s->half_below = (size_t)cus * 8;
}

static void release_kernels(nplus1rt_set *s)
{
    cl_kernel *all[] = {&s->count, &s->scan, &s->scatter, &s->fused, &s->original, &s->chunk,
                        &s->fused_chunk, &s->tile, &s->tile_half};
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
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
    size_t n = strlen(user_options ? user_options : "") + 200;
    char *opts = malloc(n);
    if (!opts)
        return set_fail(s, NPLUS1_ERR_OOM, "building the generated set");
    char loop[112] = "";
    if (s->config.loop_regroup >= -1)
        snprintf(loop, sizeof loop, " -DNPLUS1_LOOP_REGROUP=%d", s->config.loop_regroup);
    if (s->config.loop_every)
        snprintf(loop + strlen(loop), sizeof loop - strlen(loop),
                 " -DNPLUS1_LOOP_REGROUP_EVERY=%u", s->config.loop_every);
    if (s->config.tile_regroup >= -1)
        snprintf(loop + strlen(loop), sizeof loop - strlen(loop),
                 " -DNPLUS1_TILE_REGROUP=%d", s->config.tile_regroup);
    snprintf(opts, n, "-DNPLUS1_WG=%zu -DNPLUS1_IPT=%u -DNPLUS1_TILE_IPT=%u%s%s %s", s->wg,
             s->ipt, s->tile_ipt, s->tile_match    ? " -DNPLUS1_TILE_MATCH"
                                  : s->tile_atomic ? " -DNPLUS1_TILE_ATOMIC"
                                                   : "", loop,
             user_options ? user_options : "");
    char *log = NULL;
    cl_int err;
    s->prog = nplus1rt_build(s->ctx, s->dev, s->desc->source, opts, &log, &err);
    if (s->prog)
        set_cache_key(s, opts);
    free(opts);
    if (!s->prog) {
        if (log && strstr(log, "nplus1-macro: ")) { /* a generated #error (tool/emit/macro_deps.h) */
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
    /* every tile kernel requires NPLUS1_WG x 1 x 1 but the one built with regrouping off
     * (tile-in-place: the original's body, launched with the original's sizes) */
    size_t reqd[3] = {0, 0, 0};
    s->tile_in_place =
        s->tile && clGetKernelWorkGroupInfo(s->tile, s->dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                            sizeof reqd, reqd, NULL) == CL_SUCCESS &&
        reqd[0] == 0;
    if (s->tile && !s->tile_in_place)
        find_tile_half(s, d->tile_kernel);
    if (d->strategy == NPLUS1RT_TILE) /* the set is the tile kernel alone */
        return s->tile ? CL_SUCCESS
                       : set_fail(s, CL_INVALID_KERNEL_NAME,
                                  "strategy tile without a tile kernel");
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
static unsigned tile_ipt_for(cl_device_id dev, size_t wg, int given)
{
    if (given > 0 && given <= 64 && (size_t)given * wg <= 65536)
        return (unsigned)given;
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
int set_device_has_match(cl_device_id dev)
{
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
 * The tile's ranking method where the device has a warp match, by the set's
 * leaf count (costs.md: a match per item is best up to 8 leaves, per-item local
 * atomics at 16 and more, one ballot per leaf never): the device's calibration
 * (calibrate.c) when one is stored, else the defaults, decide
 * (nplus1rt_rank_by_match). NPLUS1_TILE_MATCH=0 never matches (the ballot per
 * leaf, as before), =1 always.
 */
static void rank_method(nplus1rt_set *s)
{
    s->has_cal = nplus1rt_calibration_load(s->dev, &s->cal, s->cal_path, sizeof s->cal_path);
    int match = set_device_has_match(s->dev);
    if (!match || s->config.tile_match_off)
        return;
    s->tile_match = s->config.tile_match_on || nplus1rt_rank_by_match(&s->cal, s->desc->nleaves);
    s->tile_atomic = !s->tile_match;
}

const char *nplus1rt_set_calibration(const nplus1rt_set *s)
{
    return s && s->has_cal ? s->cal_path : "";
}

/*
 * NPLUS1_SPLIT=always|auto|adaptive|never overrides a generated auto policy.
 * auto (the default for a generated ADAPTIVE or NEVER set: the static model
 * is only the prior) times the candidates and keeps the fastest (choose.c).
 * adaptive, the probe-only policy, runs the original on a device that is not
 * a GPU unless NPLUS1_PROBE_THRESHOLD asks for probing there too.
 */
static nplus1rt_split split_policy(nplus1rt_split generated, int gpu, const set_config *c)
{
    const char *env = generated == NPLUS1RT_SPLIT_ALWAYS ? NULL : c->split;
    if (env && !strcmp(env, "always"))
        return NPLUS1RT_SPLIT_ALWAYS;
    if (env && !strcmp(env, "never"))
        return NPLUS1RT_SPLIT_NEVER;
    if (env && !strcmp(env, "adaptive"))
        return gpu || c->has_probe_threshold ? NPLUS1RT_SPLIT_ADAPTIVE : NPLUS1RT_SPLIT_NEVER;
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
        *errmsg = set_new_msg(fmt, desc->kernel ? desc->kernel : "?", v, NPLUS1RT_VERSION,
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
    set_config_from_env(&s->config);
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    int gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    s->dispatch = desc->dispatch;
    if (s->dispatch == NPLUS1RT_DISPATCH_AUTO)
        s->dispatch = gpu ? NPLUS1RT_DISPATCH_FUSED : NPLUS1RT_DISPATCH_HOST;
    s->split = split_policy(desc->split, gpu, &s->config);
    s->wg = desc->wg ? desc->wg : 256;
    s->ipt = s->config.ipt;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof s->dev_max_wg, &s->dev_max_wg, NULL);
    while (s->dev_max_wg && s->wg > s->dev_max_wg)
        s->wg /= 2;
    s->tile_ipt = tile_ipt_for(dev, s->wg, s->config.tile_ipt);
    rank_method(s);
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
            set_fail(s, e, "allocating the leaf counters");
        else if (!s->last_counts)
            e = set_fail(s, NPLUS1_ERR_OOM, "allocating the leaf counters");
        s->probe_period = s->config.probe_period;
        s->probe_threshold = s->config.probe_threshold;
        set_init_choice(s);
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
    free(s->orig_args.bytes);
    free(s->in_place_user_args.bytes);
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

/* ---- enqueue ---------------------------------------------------------------- */

cl_int nplus1rt_set_enqueue(nplus1rt_set *s, cl_command_queue q, cl_uint work_dim,
                            const size_t *global_offset, const size_t *global_size,
                            const size_t *local_size, const nplus1rt_argval *args)
{
    if (!s || !q || (!args && s->desc->nargs))
        return CL_INVALID_VALUE;
    launch L;
    cl_int err = set_check_launch(s, work_dim, global_offset, global_size, local_size, &L);
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
        return set_run_candidate(s, &r, s->forced, 0);
    if (s->split == NPLUS1RT_SPLIT_MEASURED)
        return set_enqueue_measured(s, &r);
    int adaptive = s->split == NPLUS1RT_SPLIT_ADAPTIVE;
    int probing = adaptive && s->until_probe == 0;
    if (adaptive && !probing)
        s->until_probe--;
    if (s->split == NPLUS1RT_SPLIT_NEVER || (adaptive && !probing && s->use_original))
        return set_run_original(s, q, work_dim, global_offset, global_size, local_size, args);
    return set_launch_split(s, &r, probing);
}
