/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nplus1bench - side-by-side timing of the original kernel, the original on
 * input pre-sorted by leaf (the divergence-free floor), and every strategy
 * and dispatch of the generated set, in one run on one device.
 *
 * The kernel is samples/oneKernel.cl (3 leaves; ITERS iterations of
 * transcendental math per leaf). The generated sets are read from DIR:
 * oneKernel_atomic.nplus1.cl, oneKernel_aggregated.nplus1.cl,
 * oneKernel_ordered.nplus1.cl (bench/CMakeLists.txt generates them).
 *
 * usage: nplus1bench --dir DIR [--n N] [--iters 8,64,256] [--modes random,skewed,coherent]
 *                    [--reps R] [--csv FILE]
 * Prints a table of medians; "x" is the original's time over the variant's
 * (higher is faster), measured in the same run, the variants taking turns
 * launch by launch. The mean includes the adaptive policy's probe launches.
 * NPLUS1_BENCH_VARIANTS=name,name,... times only those (and the original).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

#define MAXV 12

typedef struct variant {
    const char *name;
    int strategy;      /* -1: the original kernel */
    int dispatch;
    int sorted;        /* the oracle: original on sorted input */
    int is_auto;       /* 1: the default set (--split auto), 2: a chunked auto set */
} variant;

static const variant variants[] = {
    {"original", -1, 0, 0, 0},
    {"oracle", -1, 0, 1, 0},
    {"atomic/host", NPLUS1RT_ATOMIC, NPLUS1RT_DISPATCH_HOST, 0, 0},
    {"aggregated/host", NPLUS1RT_AGGREGATED, NPLUS1RT_DISPATCH_HOST, 0, 0},
    {"aggregated/fused", NPLUS1RT_AGGREGATED, NPLUS1RT_DISPATCH_FUSED, 0, 0},
    {"ordered/host", NPLUS1RT_ORDERED, NPLUS1RT_DISPATCH_HOST, 0, 0},
    {"ordered/fused", NPLUS1RT_ORDERED, NPLUS1RT_DISPATCH_FUSED, 0, 0},
    {"chunked/fused", NPLUS1RT_CHUNKED, NPLUS1RT_DISPATCH_FUSED, 0, 0},
    {"tile", NPLUS1RT_TILE, NPLUS1RT_DISPATCH_FUSED, 0, 0},
    {"auto (default)", NPLUS1RT_AGGREGATED, NPLUS1RT_DISPATCH_AUTO, 0, 1},
    {"auto (chunked)", NPLUS1RT_CHUNKED, NPLUS1RT_DISPATCH_AUTO, 0, 2},
};
#define NVARIANTS (sizeof variants / sizeof *variants)

#define NSTRATEGIES 5 /* NPLUS1RT_ATOMIC ... NPLUS1RT_TILE */

typedef struct bench {
    char *auto_source;     /* the default (--split auto) set for the current ITERS */
    nplus1rt_split auto_split;
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue q;
    char *sources[NSTRATEGIES];
    nplus1rt_arg args[3];
    const char *leaf_names[3];
    char leafbuf[3][64];
    size_t n;
    int reps;
    FILE *csv;
    char device[256];
} bench;

static void die(const char *what, cl_int err)
{
    fprintf(stderr, "nplus1bench: %s: %s (%d)\n", what, nplus1_strerror(err), (int)err);
    exit(1);
}

static unsigned rng_state = 12345;
static unsigned rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* Leaf b of item i for a mode: random 1/3 each, skewed 90/5/5, coherent runs of 4096. */
static int leaf_for(const char *mode, size_t i)
{
    if (!strcmp(mode, "coherent"))
        return (int)((i / 4096) % 3);
    if (!strcmp(mode, "skewed"))
        return (rnd() % 100) < 90 ? 2 : (int)(rnd() % 2);
    return (int)(rnd() % 3);
}

typedef struct inputs {
    cl_mem ia, fa, sia, sfa, out;
    float *init, *expect, *got;
} inputs;

static void make_inputs(bench *b, const char *mode, inputs *in)
{
    size_t n = b->n;
    int *ia = malloc(n * sizeof *ia), *sia = malloc(n * sizeof *sia);
    float *fa = malloc(n * sizeof *fa), *sfa = malloc(n * sizeof *sfa);
    in->init = malloc(n * sizeof(float));
    in->expect = malloc(n * sizeof(float));
    in->got = malloc(n * sizeof(float));
    rng_state = 12345;
    for (size_t i = 0; i < n; i++) {
        int leaf = leaf_for(mode, i);
        ia[i] = (int)(rnd() % 1000) * 3 + leaf;
        fa[i] = (float)(rnd() % 10000) / 10000.0f;
        in->init[i] = 1.0f;
    }
    size_t pos = 0;
    for (int leaf = 0; leaf < 3; leaf++) /* stable sort by leaf: the oracle's input */
        for (size_t i = 0; i < n; i++)
            if (ia[i] % 3 == leaf) {
                sia[pos] = ia[i];
                sfa[pos++] = fa[i];
            }
    cl_int err;
    cl_mem_flags ro = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    in->ia = clCreateBuffer(b->ctx, ro, n * 4, ia, &err);
    if (err == CL_SUCCESS)
        in->fa = clCreateBuffer(b->ctx, ro, n * 4, fa, &err);
    if (err == CL_SUCCESS)
        in->sia = clCreateBuffer(b->ctx, ro, n * 4, sia, &err);
    if (err == CL_SUCCESS)
        in->sfa = clCreateBuffer(b->ctx, ro, n * 4, sfa, &err);
    if (err == CL_SUCCESS)
        in->out = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    if (err != CL_SUCCESS)
        die("allocating buffers", err);
    free(ia);
    free(fa);
    free(sia);
    free(sfa);
}

static void free_inputs(inputs *in)
{
    cl_mem m[5] = {in->ia, in->fa, in->sia, in->sfa, in->out};
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(m[i]);
    free(in->init);
    free(in->expect);
    free(in->got);
}

static nplus1rt_set_desc desc_for(bench *b, int strategy, int dispatch, int is_auto)
{
    const char *wg = getenv("NPLUS1_BENCH_WG");
    nplus1rt_set_desc d = {
        .kernel = "oneKernel",
        .source = is_auto == 1 ? b->auto_source : b->sources[strategy],
        .nargs = 3,
        .args = b->args,
        .nleaves = 3,
        .leaf_kernels = b->leaf_names,
        .count_kernel = "oneKernel" NPLUS1RT_SUFFIX_COUNT,
        .scan_kernel = strategy == NPLUS1RT_ORDERED ? "oneKernel" NPLUS1RT_SUFFIX_SCAN : NULL,
        .scatter_kernel = "oneKernel" NPLUS1RT_SUFFIX_SCATTER,
        .fused_kernel = "oneKernel" NPLUS1RT_SUFFIX_FUSED,
        .strategy = (nplus1rt_strategy)strategy,
        .dispatch = (nplus1rt_dispatch)dispatch,
        .wg = wg ? (unsigned)atoi(wg) : 256,
        .split = is_auto ? b->auto_split : NPLUS1RT_SPLIT_ALWAYS,
        .format_version = NPLUS1RT_FORMAT_VERSION,
        .tile_kernel = strategy == NPLUS1RT_TILE || is_auto == 1 ? "oneKernel" NPLUS1RT_SUFFIX_TILE
                                                                 : NULL,
    };
    return d;
}

typedef struct timing {
    double wall, mean, kernel;
    size_t mismatches;
} timing;

/* One variant being timed: the original kernel or a generated set. */
typedef struct runner {
    const variant *v;
    cl_kernel orig;
    nplus1rt_set *set;
    double walls[128], kernels[128];
    timing t;
    const char *chose;   /* auto: what its last launch ran */
} runner;

static void runner_open(bench *b, runner *r, const variant *v, inputs *in, const char *opts)
{
    cl_int err;
    memset(r, 0, sizeof *r);
    r->v = v;
    if (v->strategy < 0) {
        char *log = NULL;
        cl_program p = nplus1rt_build(b->ctx, b->dev, b->sources[0], opts, &log, &err);
        if (!p) {
            fprintf(stderr, "%s\n", log ? log : "");
            die("building the original", err);
        }
        r->orig = clCreateKernel(p, "oneKernel", &err);
        clReleaseProgram(p);
        if (err != CL_SUCCESS)
            die("creating the original kernel", err);
        cl_mem a0 = v->sorted ? in->sia : in->ia, a1 = v->sorted ? in->sfa : in->fa;
        clSetKernelArg(r->orig, 0, sizeof a0, &a0);
        clSetKernelArg(r->orig, 1, sizeof a1, &a1);
        clSetKernelArg(r->orig, 2, sizeof in->out, &in->out);
        return;
    }
    nplus1rt_set_desc d = desc_for(b, v->strategy, v->dispatch, v->is_auto);
    char *msg = NULL;
    r->set = nplus1rt_set_create(b->ctx, b->dev, &d, opts, &err, &msg);
    if (!r->set) {
        fprintf(stderr, "%s\n", msg ? msg : "");
        die("creating the set", err);
    }
    nplus1rt_set_profiling(r->set, 1);
}

/* Launch rep (0: warm-up and result check, not timed). */
static void runner_step(bench *b, runner *r, inputs *in, int rep)
{
    const variant *v = r->v;
    cl_int err = clEnqueueWriteBuffer(b->q, in->out, CL_TRUE, 0, b->n * 4, in->init, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        die("resetting the output", err);
    cl_event ev = NULL;
    double t0 = nplus1rt_now_ms();
    if (r->orig) {
        err = clEnqueueNDRangeKernel(b->q, r->orig, 1, NULL, &b->n, NULL, 0, NULL, &ev);
    } else {
        nplus1rt_argval av[3] = {{sizeof(cl_mem), &in->ia}, {sizeof(cl_mem), &in->fa},
                                 {sizeof(cl_mem), &in->out}};
        err = nplus1rt_set_enqueue(r->set, b->q, 1, NULL, &b->n, NULL, av);
    }
    if (err == CL_SUCCESS)
        err = clFinish(b->q);
    if (err != CL_SUCCESS)
        die(v->name, err);
    double t1 = nplus1rt_now_ms();
    double k = r->orig ? nplus1rt_event_ms(ev) : nplus1rt_set_last_kernel_ms(r->set);
    if (ev)
        clReleaseEvent(ev);
    if (rep == 0 && r->set && v->is_auto) {
        /* auto's timed launches are its steady state: its trials run first (at most 64
         * launches; the first 16 launches of a fresh set are timed apart, first_launches) */
        nplus1rt_argval av[3] = {{sizeof(cl_mem), &in->ia}, {sizeof(cl_mem), &in->fa},
                                 {sizeof(cl_mem), &in->out}};
        for (int i = 0; i < 64 && nplus1rt_set_measuring(r->set, b->n); i++)
            if (nplus1rt_set_enqueue(r->set, b->q, 1, NULL, &b->n, NULL, av) != CL_SUCCESS ||
                clFinish(b->q) != CL_SUCCESS)
                die(v->name, CL_INVALID_OPERATION);
        clEnqueueWriteBuffer(b->q, in->out, CL_TRUE, 0, b->n * 4, in->init, 0, NULL, NULL);
        nplus1rt_set_enqueue(r->set, b->q, 1, NULL, &b->n, NULL, av);
        clFinish(b->q);
    }
    if (rep == 0) {
        float *dst = v->strategy < 0 && !v->sorted ? in->expect : in->got;
        clEnqueueReadBuffer(b->q, in->out, CL_TRUE, 0, b->n * 4, dst, 0, NULL, NULL);
        if (v->strategy >= 0)
            r->t.mismatches = nplus1rt_diff(in->expect, in->got, b->n, NPLUS1RT_F32, 4, NULL, 0);
        return;
    }
    r->walls[rep - 1] = t1 - t0;
    r->kernels[rep - 1] = k;
    if (r->set && rep == b->reps && getenv("NPLUS1_BENCH_BREAKDOWN")) {
        double ks[16];
        unsigned nk = nplus1rt_set_last_kernel_times(r->set, ks, 16);
        printf("      %s kernels (ms):", v->name);
        for (unsigned i = 0; i < nk; i++)
            printf(" %.3f", ks[i]);
        printf("\n");
    }
}

static void runner_close(bench *b, runner *r)
{
    double sum = 0;
    for (int i = 0; i < b->reps; i++)
        sum += r->walls[i];
    r->t.mean = sum / b->reps;
    r->t.wall = nplus1rt_median(r->walls, (size_t)b->reps);
    r->t.kernel = nplus1rt_median(r->kernels, (size_t)b->reps);
    r->chose = r->set ? nplus1rt_set_last_choice(r->set) : "";
    if (r->orig)
        clReleaseKernel(r->orig);
    nplus1rt_set_release(r->set);
}

/*
 * The first FIRST launches of a fresh auto set (its trials included) against
 * the first FIRST launches of a fresh original kernel object, taking turns:
 * the sums' ratio. NPLUS1_BENCH_TRACE prints every launch.
 */
#define FIRST 16
static void first_launches(bench *b, const variant *v, inputs *in, const char *opts, int iters,
                           const char *mode)
{
    runner o, a;
    runner_open(b, &o, &variants[0], in, opts);
    runner_open(b, &a, v, in, opts);
    int reps = b->reps;
    b->reps = FIRST; /* runner_step times reps 1..FIRST */
    double to = 0, ta = 0;
    unsigned originals = 0;
    for (int rep = 1; rep <= FIRST; rep++) {
        runner_step(b, &o, in, rep);
        runner_step(b, &a, in, rep);
        to += o.walls[rep - 1];
        ta += a.walls[rep - 1];
        originals += nplus1rt_set_last_ran_original(a.set);
        if (getenv("NPLUS1_BENCH_TRACE"))
            printf("      launch %2d: original %.3f ms, auto %.3f ms (%s)\n", rep,
                   o.walls[rep - 1], a.walls[rep - 1], nplus1rt_set_last_choice(a.set));
    }
    b->reps = reps;
    printf("  %-18s first %d launches: original %.3f ms, auto %.3f ms, %.2fx (ran the original "
           "%u times; then chose %s)\n", v->name, FIRST, to, ta, to / ta, originals,
           nplus1rt_set_last_choice(a.set));
    if (b->csv)
        fprintf(b->csv, "\"%s\",%zu,%d,%s,%s first %d,%.4f,%.4f,%.4f,%.4f,%d\n", b->device, b->n,
                iters, mode, v->name, FIRST, ta, ta / FIRST, ta / FIRST, to / ta, 0);
    clReleaseKernel(o.orig);
    nplus1rt_set_release(a.set);
}

/* The --split auto set generated for this ITERS, and the split it chose. */
static void load_auto(bench *b, const char *dir, int iters)
{
    char path[4096];
    free(b->auto_source);
    snprintf(path, sizeof path, "%s/oneKernel_auto_%d.nplus1.cl", dir, iters);
    b->auto_source = nplus1rt_read_file(path);
    snprintf(path, sizeof path, "%s/oneKernel_auto_%d.nplus1.json", dir, iters);
    char *manifest = nplus1rt_read_file(path);
    b->auto_split = !manifest ? NPLUS1RT_SPLIT_ALWAYS
                    : strstr(manifest, "\"split\": \"never\"") ? NPLUS1RT_SPLIT_NEVER
                    : strstr(manifest, "\"split\": \"adaptive\"") ? NPLUS1RT_SPLIT_ADAPTIVE
                                                                 : NPLUS1RT_SPLIT_ALWAYS;
    free(manifest);
}

/*
 * Each case (iterations and input) measures with a choice cache of its own, as
 * nplus1gen-validate's runs do: otherwise a set starts on the choice stored by the case
 * before it on other data (the random input's split on the coherent input) and runs it
 * until its first periodic probe; the H200 read auto at 0.78x on coherent input at 8
 * iterations that way, where a fresh cache reads 0.96x. NPLUS1_CACHE=0: no cache.
 */
static char case_cache[64];

static void bench_case(bench *b, int iters, const char *mode)
{
    char opts[512];
    const char *extra = getenv("NPLUS1_BENCH_OPTS");
    snprintf(opts, sizeof opts, "-DITERS=%d %s", iters, extra ? extra : "");
    inputs in;
    make_inputs(b, mode, &in);
    printf("\nN=%zu ITERS=%d input=%s (median of %d; x = original wall / variant wall)\n", b->n,
           iters, mode, b->reps);
    printf("  %-18s %10s %10s %10s %8s %s\n", "variant", "wall ms", "mean ms", "kernel ms", "x",
           "check");
    /* variants take turns, launch by launch, so drift hits them all alike */
    static runner rs[NVARIANTS];
    size_t nr = 0;
    const char *only = getenv("NPLUS1_BENCH_VARIANTS"); /* e.g. "oracle,tile" */
    for (size_t i = 0; i < NVARIANTS; i++)
        if ((!variants[i].is_auto || b->auto_source) &&
            (i == 0 || !only || strstr(only, variants[i].name)))
            runner_open(b, &rs[nr++], &variants[i], &in, opts);
    for (int rep = 0; rep <= b->reps; rep++)
        for (size_t i = 0; i < nr; i++) /* the original first: rep 0 keeps its result */
            runner_step(b, &rs[i], &in, rep);
    double base = 0;
    for (size_t i = 0; i < nr; i++) {
        runner *r = &rs[i];
        runner_close(b, r);
        const variant *v = r->v;
        if (i == 0)
            base = r->t.wall;
        printf("  %-18s %10.3f %10.3f %10.3f %7.2fx %s%s%s%s%s\n", v->name, r->t.wall, r->t.mean,
               r->t.kernel, base / r->t.wall,
               v->strategy < 0 ? "" : (r->t.mismatches ? "MISMATCH" : "ok"),
               !v->is_auto ? "" : b->auto_split == NPLUS1RT_SPLIT_NEVER ? " (prior: never"
                                                                         : " (prior: adaptive",
               v->is_auto ? ", chose " : "", v->is_auto ? r->chose : "", v->is_auto ? ")" : "");
        if (b->csv)
            fprintf(b->csv, "\"%s\",%zu,%d,%s,%s,%.4f,%.4f,%.4f,%.4f,%zu\n", b->device, b->n,
                    iters, mode, v->name, r->t.wall, r->t.mean, r->t.kernel, base / r->t.wall,
                    r->t.mismatches);
    }
    for (size_t i = 0; i < nr; i++)
        if (rs[i].v->is_auto)
            first_launches(b, rs[i].v, &in, opts, iters, mode);
    fflush(stdout);
    free_inputs(&in);
}

static void load_sources(bench *b, const char *dir)
{
    for (int s = 0; s < NSTRATEGIES; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/oneKernel_%s.nplus1.cl", dir,
                 nplus1rt_strategy_text(s));
        if (!(b->sources[s] = nplus1rt_read_file(path))) {
            fprintf(stderr, "nplus1bench: cannot read %s (generate it with bench/CMakeLists.txt)\n",
                    path);
            exit(1);
        }
    }
    nplus1rt_arg a[3] = {{"intArray", "const int *", NPLUS1RT_ARG_BUFFER, 0, 0, NPLUS1RT_I32, 1, 4},
                         {"floatArray", "const float *", NPLUS1RT_ARG_BUFFER, 0, 0, NPLUS1RT_F32, 1, 4},
                         {"out", "float *", NPLUS1RT_ARG_BUFFER, 1, 0, NPLUS1RT_F32, 1, 4}};
    memcpy(b->args, a, sizeof a);
    for (int l = 0; l < 3; l++) {
        snprintf(b->leafbuf[l], sizeof b->leafbuf[l], "oneKernel" NPLUS1RT_SUFFIX_LEAF "%d", l);
        b->leaf_names[l] = b->leafbuf[l];
    }
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *csv = NULL, *iters = "8,64,256", *modes = "random,skewed,coherent";
    bench b;
    memset(&b, 0, sizeof b);
    b.n = 1 << 22;
    b.reps = 9;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--dir"))
            dir = argv[i + 1];
        else if (!strcmp(argv[i], "--n"))
            b.n = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--iters"))
            iters = argv[i + 1];
        else if (!strcmp(argv[i], "--modes"))
            modes = argv[i + 1];
        else if (!strcmp(argv[i], "--reps"))
            b.reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--csv"))
            csv = argv[i + 1];
        else {
            fprintf(stderr, "nplus1bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (b.reps > 127)
        b.reps = 127;
    if (!dir || b.n == 0 || b.reps < 1) {
        fprintf(stderr, "usage: nplus1bench --dir DIR [--n N] [--iters 8,64,256] "
                        "[--modes random,skewed,coherent] [--reps R] [--csv FILE]\n");
        return 2;
    }
    load_sources(&b, dir);
    char err[512];
    nplus1rt_device dev;
    if (nplus1rt_pick_device(&dev, err, sizeof err) != CL_SUCCESS) {
        fprintf(stderr, "nplus1bench: %s\n", err);
        return 1;
    }
    if (nplus1rt_open(&dev, 1, &b.ctx, &b.q) != CL_SUCCESS)
        return 1;
    b.dev = dev.device;
    snprintf(b.device, sizeof b.device, "%s", dev.device_name);
    printf("device: %s (%s)\n", dev.device_name, dev.platform_name);
    if (csv && !(b.csv = fopen(csv, "w"))) {
        perror(csv);
        return 1;
    }
    if (b.csv)
        fprintf(b.csv, "device,n,iters,input,variant,wall_ms,mean_wall_ms,kernel_ms,speedup,mismatches\n");
    char *il = strdup(iters), *isave = NULL;
    for (char *it = strtok_r(il, ",", &isave); it; it = strtok_r(NULL, ",", &isave)) {
        char *ml = strdup(modes), *save = NULL;
        load_auto(&b, dir, atoi(it));
        for (char *m = strtok_r(ml, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
            nplus1rt_private_cache_open(case_cache, sizeof case_cache);
            bench_case(&b, atoi(it), m);
            nplus1rt_private_cache_remove(case_cache);
        }
        free(ml);
    }
    free(il);
    if (b.csv)
        fclose(b.csv);
    for (int s = 0; s < NSTRATEGIES; s++)
        free(b.sources[s]);
    free(b.auto_source);
    nplus1rt_cache_clear();
    clReleaseCommandQueue(b.q);
    clReleaseContext(b.ctx);
    return 0;
}
