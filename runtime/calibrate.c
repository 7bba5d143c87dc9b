/* SPDX-License-Identifier: Apache-2.0 */
/*
 * calibrate.c - the device's cost model, measured once and kept on disk
 * (docs/driver.md, "Calibration"). Micro-kernels time, per item and per
 * round of a 256-item work-group: the four barriers of a regrouping round,
 * ranking by per-item local atomics at 4 and 16 leaves, a warp match per item
 * where the device has one (NVIDIA compute capability 7.0 and later), moving
 * a 16-word context into local memory and back, and the launch of an empty
 * kernel; a chain of FMAs gives the unit. The figures (nplus1rt_format.h's
 * nplus1rt_calibration) go to calibration-<hash of the device>.txt in the
 * choice cache's folder (set_cache.c), written to a temporary file and
 * renamed; a set reads them when it is created (the tile's ranking method),
 * and the generator's static rule and the profile's predictions read the
 * same file. An entry that does not parse or names another device is
 * ignored with a note, never trusted.
 */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "set_internal.h"

#define CAL_WG 256
#define CAL_REPS 3

/* The micro-kernels: ROUND(name, words, rank) with rank 0 none, 1 atomics, 2 warp match. */
static const char *cal_source =
    "#define WG 256\n"
    "__kernel void cal_nop(__global float *o) { if (get_global_id(0) == 0xffffffffu) o[0] = 1.0f; }\n"
    "__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))\n"
    "void cal_fma(__global float *o, const uint iters, const float a)\n"
    "{\n"
    "    float x0 = get_global_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;\n"
    "    float x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;\n"
    "    for (uint i = 0; i < iters; i++) {\n"
    "        x0 = fma(x0, a, 0.5f); x1 = fma(x1, a, 0.5f); x2 = fma(x2, a, 0.5f);\n"
    "        x3 = fma(x3, a, 0.5f); x4 = fma(x4, a, 0.5f); x5 = fma(x5, a, 0.5f);\n"
    "        x6 = fma(x6, a, 0.5f); x7 = fma(x7, a, 0.5f);\n"
    "    }\n"
    "    float s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;\n"
    "    if (s == 12345.678f) o[get_global_id(0)] = s;\n"
    "}\n"
    "#ifdef CAL_MATCH\n"
    "static inline uint cal_match_any(int v) { uint r; asm volatile(\"match.any.sync.b32 %0, %1, "
    "0xffffffff;\" : \"=r\"(r) : \"r\"(v)); return r; }\n"
    "static inline uint cal_lanemask_lt(void) { uint r; asm volatile(\"mov.u32 %0, "
    "%%lanemask_lt;\" : \"=r\"(r)); return r; }\n"
    "static inline uint cal_shfl(uint v, uint l) { uint r; asm volatile(\"shfl.sync.idx.b32 %0, "
    "%1, %2, 0x1f, 0xffffffff;\" : \"=r\"(r) : \"r\"(v), \"r\"(l)); return r; }\n"
    "static inline uint cal_rank_match(int leaf, __local uint *cnt)\n"
    "{\n"
    "    uint m = cal_match_any(leaf), leader = popcount((m & (0u - m)) - 1u), b = 0;\n"
    "    if ((get_local_id(0) & 31) == leader) b = atomic_add(&cnt[leaf], popcount(m));\n"
    "    return cal_shfl(b, leader) + popcount(m & cal_lanemask_lt());\n"
    "}\n"
    "#else\n"
    "#define cal_rank_match(leaf, cnt) atomic_inc(&(cnt)[(leaf)])\n"
    "#endif\n"
    "#define ROUND(NAME, W, RANK)                                                         \\\n"
    "__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))                             \\\n"
    "void NAME(__global float *o, const uint rounds, const uint nleaves)                   \\\n"
    "{                                                                                    \\\n"
    "    __local float ctx[(W ? W : 1) * WG];                                              \\\n"
    "    __local uint cnt[32], base[32];                                                   \\\n"
    "    const uint lid = get_local_id(0);                                                 \\\n"
    "    float v[W ? W : 1];                                                               \\\n"
    "    for (uint w = 0; w < (W ? W : 1); w++) v[w] = lid + w;                            \\\n"
    "    uint key = (uint)get_global_id(0) * 2654435761u;                                  \\\n"
    "    float acc = 0;                                                                    \\\n"
    "    for (uint r = 0; r < rounds; r++) {                                               \\\n"
    "        key = key * 1664525u + 1013904223u;                                           \\\n"
    "        const int leaf = (int)((key >> 16) % nleaves);                                 \\\n"
    "        if (lid < 32) cnt[lid] = 0;                                                   \\\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                 \\\n"
    "        uint slot = lid;                                                              \\\n"
    "        if (RANK == 1) slot = atomic_inc(&cnt[leaf]);                                 \\\n"
    "        if (RANK == 2) slot = cal_rank_match(leaf, cnt);                              \\\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                 \\\n"
    "        if (RANK && lid == 0) {                                                       \\\n"
    "            uint s = 0;                                                               \\\n"
    "            for (uint l = 0; l < nleaves; l++) { base[l] = s; s += cnt[l]; }          \\\n"
    "        }                                                                             \\\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                 \\\n"
    "        if (RANK) slot += base[leaf];                                                 \\\n"
    "        for (uint w = 0; w < W; w++) ctx[w * WG + slot] = v[w];                       \\\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                 \\\n"
    "        for (uint w = 0; w < W; w++) v[w] = ctx[w * WG + lid] + 1.0f;                 \\\n"
    "        acc += v[0] + (float)slot;                                                    \\\n"
    "    }                                                                                 \\\n"
    "    if (acc == 12345.678f) o[get_global_id(0)] = acc;                                 \\\n"
    "}\n"
    "ROUND(cal_barriers, 0, 0)\n"
    "ROUND(cal_atomic, 0, 1)\n"
    "ROUND(cal_match, 0, 2)\n"
    "ROUND(cal_words, 16, 1)\n";

typedef struct cal_run {
    cl_command_queue q;
    cl_program prog;
    cl_mem out;
    size_t items;
    char *err;
    size_t errlen;
} cal_run;

/* The fastest of CAL_REPS timed launches (after one untimed), ms; -1 after a message. */
static double time_kernel(cal_run *r, const char *name, cl_uint a1, cl_uint a2, int fma_arg)
{
    cl_int e;
    cl_kernel k = clCreateKernel(r->prog, name, &e);
    if (!k) {
        snprintf(r->err, r->errlen, "the calibration kernel %s: OpenCL error %d", name, (int)e);
        return -1;
    }
    float a = 0.999f;
    e = clSetKernelArg(k, 0, sizeof r->out, &r->out);
    e |= clSetKernelArg(k, 1, sizeof a1, &a1);
    e |= fma_arg ? clSetKernelArg(k, 2, sizeof a, &a) : clSetKernelArg(k, 2, sizeof a2, &a2);
    size_t lsz = CAL_WG;
    double best = -1;
    for (int rep = 0; e == CL_SUCCESS && rep <= CAL_REPS; rep++) {
        cl_event ev = NULL;
        e = clEnqueueNDRangeKernel(r->q, k, 1, NULL, &r->items, &lsz, 0, NULL, &ev);
        if (e == CL_SUCCESS)
            e = clWaitForEvents(1, &ev);
        double ms = e == CL_SUCCESS ? nplus1rt_event_ms(ev) : -1;
        if (ev)
            clReleaseEvent(ev);
        if (rep > 0 && ms > 0 && (best < 0 || ms < best))
            best = ms;
    }
    clReleaseKernel(k);
    if (e != CL_SUCCESS || best <= 0)
        snprintf(r->err, r->errlen, "timing the calibration kernel %s: OpenCL error %d", name,
                 (int)e);
    return e == CL_SUCCESS && best > 0 ? best : -1;
}

/*
 * What one more kernel adds to a launch: 17 empty kernels of one item back to back,
 * from the first's start to the last's end over 16 (the profiling events' view, as
 * the measured choice times a split's passes), microseconds; the best of three.
 */
static double time_launch(cal_run *r)
{
    cl_int e;
    cl_kernel k = clCreateKernel(r->prog, "cal_nop", &e);
    if (!k)
        return -1;
    clSetKernelArg(k, 0, sizeof r->out, &r->out);
    size_t one = 1;
    double best = -1;
    for (unsigned rep = 0; rep < 4 && e == CL_SUCCESS; rep++) {
        cl_event ev[17] = {NULL};
        for (unsigned i = 0; i < 17 && e == CL_SUCCESS; i++)
            e = clEnqueueNDRangeKernel(r->q, k, 1, NULL, &one, NULL, 0, NULL, &ev[i]);
        cl_ulong start = 0, end = 0;
        if (e == CL_SUCCESS && (e = clWaitForEvents(1, &ev[16])) == CL_SUCCESS) {
            clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
            clGetEventProfilingInfo(ev[16], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
        }
        for (unsigned i = 0; i < 17; i++)
            if (ev[i])
                clReleaseEvent(ev[i]);
        double us = end > start ? (double)(end - start) / 16.0 / 1000.0 : -1;
        if (rep > 0 && us > 0 && (best < 0 || us < best)) /* the first warms up */
            best = us;
    }
    clReleaseKernel(k);
    return best;
}

/* Per item and round, in FMA-equivalents: ms over items x rounds, in units of fma_ns. */
static double per_round(double ms, const cal_run *r, unsigned rounds, double fma_ns)
{
    return ms * 1e6 / ((double)r->items * rounds) / fma_ns;
}

static double positive(double x)
{
    return x > 0.01 ? x : 0.01;
}

/* The measurements; 0, or -1 with err set. */
static int measure(cal_run *r, cl_device_id dev, int match, nplus1rt_calibration *c)
{
    cl_device_type type = 0;
    cl_uint cus = 1;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    int gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    /* a GPU: 8 work-groups per compute unit; elsewhere (POCL) small, to stay short */
    r->items = (size_t)CAL_WG * (gpu ? 8u * cus : 2u);
    unsigned iters = gpu ? 256 : 64, rounds = gpu ? 32 : 4;
    double fma = time_kernel(r, "cal_fma", iters, 0, 1);
    double bar = fma > 0 ? time_kernel(r, "cal_barriers", rounds, 4, 0) : -1;
    double at4 = bar > 0 ? time_kernel(r, "cal_atomic", rounds, 4, 0) : -1;
    double at16 = at4 > 0 ? time_kernel(r, "cal_atomic", rounds, 16, 0) : -1;
    double words = at16 > 0 ? time_kernel(r, "cal_words", rounds, 4, 0) : -1;
    double m4 = words > 0 && match ? time_kernel(r, "cal_match", rounds, 4, 0) : 0;
    double m16 = m4 > 0 ? time_kernel(r, "cal_match", rounds, 16, 0) : 0;
    double launch = words > 0 ? time_launch(r) : -1;
    if (words <= 0 || m4 < 0 || m16 < 0 || launch <= 0)
        return -1;
    c->fma_ns = fma * 1e6 / ((double)r->items * 8.0 * iters);
    c->barriers = positive(per_round(bar, r, rounds, c->fma_ns));
    c->rank_atomic4 = positive(per_round(at4 - bar, r, rounds, c->fma_ns));
    c->rank_atomic16 = positive(per_round(at16 - bar, r, rounds, c->fma_ns));
    c->rank_match4 = match ? positive(per_round(m4 - bar, r, rounds, c->fma_ns)) : -1;
    c->rank_match16 = match ? positive(per_round(m16 - bar, r, rounds, c->fma_ns)) : -1;
    c->round = c->barriers + c->rank_atomic4;
    c->word = positive(per_round(words - at4, r, rounds, c->fma_ns) / 16.0);
    c->launch_us = launch;
    return 0;
}

/* The calibration's file for dev into path; 0 when the cache is off or has no folder. */
static int calibration_path(cl_device_id dev, char *device, size_t dn, char *path, size_t n)
{
    char dir[900];
    const char *own = getenv("NPLUS1_CALIBRATION_DIR"); /* the runner's: the user's folder */
    if (!set_cache_folder(dir, sizeof dir))
        return 0;
    if (own && *own && strlen(own) < sizeof dir)
        snprintf(dir, sizeof dir, "%s", own);
    set_cache_device_line(dev, device, dn);
    unsigned long long h = 14695981039346656037ULL;
    for (const char *p = device; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 1099511628211ULL;
    }
    int w = snprintf(path, n, "%s/calibration-%016llx.txt", dir, h);
    return w > 0 && (size_t)w < n;
}

static int store(const nplus1rt_calibration *c, const char *path)
{
    char text[2048], dir[1024], tmp[1100];
    nplus1rt_calibration_format(c, text, sizeof text);
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (set_cache_make_dirs(dir) != 0)
        return -1;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int bad = fputs(text, f) < 0;
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

cl_int nplus1rt_calibrate(cl_context ctx, cl_device_id dev, nplus1rt_calibration *out,
                          char *path, size_t pathlen, char *err, size_t errlen)
{
    char dummy[8];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = '\0';
    if (path && pathlen)
        path[0] = '\0';
    nplus1rt_calibration c;
    memset(&c, 0, sizeof c);
    cl_int e;
    cal_run r = {.err = err, .errlen = errlen};
    r.q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    if (!r.q) {
        snprintf(err, errlen, "cannot create a profiling queue: OpenCL error %d", (int)e);
        return e;
    }
    int match = set_device_has_match(dev);
    char *log = NULL;
    r.prog = nplus1rt_build(ctx, dev, cal_source, match ? "-DCAL_MATCH" : "", &log, &e);
    if (!r.prog)
        snprintf(err, errlen, "the calibration kernels do not build: %.300s", log ? log : "");
    free(log);
    r.out = r.prog ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * 4096 * 64, NULL, &e)
                   : NULL;
    int ok = r.out && measure(&r, dev, match, &c) == 0;
    if (r.out)
        clReleaseMemObject(r.out);
    if (r.prog)
        clReleaseProgram(r.prog);
    clReleaseCommandQueue(r.q);
    if (!ok)
        return e != CL_SUCCESS ? e : NPLUS1_ERR_BAD_LAUNCH;
    char file[1024];
    if (calibration_path(dev, c.device, sizeof c.device, file, sizeof file) &&
        store(&c, file) == 0 && path && pathlen)
        snprintf(path, pathlen, "%s", file);
    if (!c.device[0])
        set_cache_device_line(dev, c.device, sizeof c.device);
    if (out)
        *out = c;
    return CL_SUCCESS;
}

int nplus1rt_calibration_load(cl_device_id dev, nplus1rt_calibration *out, char *path,
                              size_t pathlen)
{
    char device[sizeof out->device], file[1024];
    nplus1rt_calibration_defaults(out);
    if (path && pathlen)
        path[0] = '\0';
    if (!calibration_path(dev, device, sizeof device, file, sizeof file))
        return 0;
    char *text = nplus1rt_read_file(file);
    if (!text)
        return 0; /* none stored */
    nplus1rt_calibration c;
    const char *why = "";
    int bad = nplus1rt_calibration_parse(text, &c, &why) != 0;
    free(text);
    if (!bad && strcmp(c.device, device)) {
        bad = 1;
        why = "it was written for another device";
    }
    if (bad) {
        fprintf(stderr, "nplus1rt: note: the calibration %s is ignored: %s\n", file, why);
        return 0;
    }
    *out = c;
    if (path && pathlen)
        snprintf(path, pathlen, "%s", file);
    return 1;
}
