/* SPDX-License-Identifier: Apache-2.0 */
/*
 * auto_first_launches - the measured choice is correct while it measures:
 * through the generated driver of samples/oneKernel.cl with NPLUS1_SPLIT=auto,
 * every one of the first launches (20 of each of two size classes), whichever
 * candidate the chooser runs, gives the original kernel's output. The output
 * buffer is poisoned (NaN) before each launch, so an unwritten element fails.
 * It also checks that both candidates ran (the chooser did try the split) and
 * that nplus1_oneKernel_last_choice names what ran.
 *
 * With a profile given at generation time (--profile-in), the fourth argument
 * says what the prior makes of it: "original" (a profile predicting no gain:
 * every launch runs the original, no trial), "split-first" (a clear gain:
 * each class's first launch is a split, not a probe that may fall back).
 *
 * With "cached" (a second process over a warm choice cache, NPLUS1_CACHE_DIR:
 * tests/diff/choice_cache.sh), each class runs one candidate through its first
 * 15 launches (the 16th is the chosen split's periodic probe): the stored
 * choice from the first launch, no trial.
 *
 * With "reuse", after the first set has chosen for both classes, a second set of the same
 * process must start each class on the choice the first stored (the choice cache's file is
 * written by the runtime's writer thread; a set's creation waits for it: set_cache.c), and
 * keep it through its first 15 launches.
 *
 * With "swap", each launch writes another output buffer than the launch before (two
 * buffers in turn): a set that keeps a kernel's arguments between launches (set_passes.c's
 * arg_memo) must see the change. Run with NPLUS1_CHOICE=original, or =tile with
 * NPLUS1_TILE_REGROUP=off (the tile kernel in place), to test those paths.
 *
 * usage: auto_first_launches samples/oneKernel.cl [N] [profiling 0|1]
 *                            [both|original|split-first|cached|any|swap|reuse]
 */
#include "oneKernel_nplus1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

#define LAUNCHES 20

typedef struct fixture {
    cl_context ctx;
    cl_command_queue q;
    cl_mem ia, fa, out, out2, cur; /* cur: out, or out2 in turn ("swap") */
    int swap;
    float *expect, *got, *poison;
    size_t n;
} fixture;

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "auto_first_launches: %s: %s (%d)\n", what, nplus1_strerror(err), (int)err);
    return 2;
}

static cl_int make_buffers(fixture *f)
{
    uint64_t seed = 7;
    int *ia = malloc(f->n * sizeof *ia);
    float *fa = malloc(f->n * sizeof *fa);
    f->expect = malloc(f->n * sizeof *f->expect);
    f->got = malloc(f->n * sizeof *f->got);
    f->poison = malloc(f->n * sizeof *f->poison);
    if (!ia || !fa || !f->expect || !f->got || !f->poison)
        return NPLUS1_ERR_OOM;
    nplus1rt_fill_random(ia, f->n, NPLUS1RT_I32, 0, &seed);
    nplus1rt_fill_random(fa, f->n, NPLUS1RT_F32, 0, &seed);
    nplus1rt_fill_poison(f->poison, f->n, NPLUS1RT_F32);
    cl_int err;
    cl_mem_flags ro = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    f->ia = clCreateBuffer(f->ctx, ro, f->n * 4, ia, &err);
    if (err == CL_SUCCESS)
        f->fa = clCreateBuffer(f->ctx, ro, f->n * 4, fa, &err);
    if (err == CL_SUCCESS)
        f->out = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, f->n * 4, NULL, &err);
    if (err == CL_SUCCESS)
        f->out2 = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, f->n * 4, NULL, &err);
    f->cur = f->out;
    free(ia);
    free(fa);
    return err;
}

static cl_int poison(fixture *f)
{
    return clEnqueueWriteBuffer(f->q, f->cur, CL_TRUE, 0, f->n * 4, f->poison, 0, NULL, NULL);
}

/* The original kernel's output over all n items: the reference. */
static cl_int reference(fixture *f, const char *path, cl_device_id dev)
{
    char *src = nplus1rt_read_file(path), *log = NULL;
    if (!src)
        return CL_INVALID_VALUE;
    cl_int err;
    cl_program p = nplus1rt_build(f->ctx, dev, src, "", &log, &err);
    free(src);
    free(log);
    if (!p)
        return err;
    cl_kernel k = clCreateKernel(p, "oneKernel", &err);
    clReleaseProgram(p);
    if (err != CL_SUCCESS)
        return err;
    clSetKernelArg(k, 0, sizeof f->ia, &f->ia);
    clSetKernelArg(k, 1, sizeof f->fa, &f->fa);
    clSetKernelArg(k, 2, sizeof f->out, &f->out);
    if ((err = poison(f)) == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(f->q, k, 1, NULL, &f->n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(f->q, f->out, CL_TRUE, 0, f->n * 4, f->expect, 0, NULL, NULL);
    clReleaseKernel(k);
    return err;
}

/* LAUNCHES launches of `items` items; counts what ran. Returns the mismatching launches. */
static int launches(fixture *f, nplus1_oneKernel *set, size_t items, unsigned *originals,
                    unsigned *splits, const char **first, unsigned *switched)
{
    int bad = 0;
    for (int i = 0; i < LAUNCHES; i++) {
        f->cur = f->swap && i % 2 ? f->out2 : f->out;
        cl_int err = poison(f);
        if (err == CL_SUCCESS)
            err = nplus1_oneKernel_enqueue(set, f->q, 1, NULL, &items, NULL, f->ia, f->fa, f->cur);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(f->q, f->cur, CL_TRUE, 0, items * 4, f->got, 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            printf("launch %d of %zu items: %s (%s)\n", i, items, nplus1_strerror(err),
                   nplus1_oneKernel_errmsg(set));
            return LAUNCHES;
        }
        const char *choice = nplus1_oneKernel_last_choice(set);
        size_t mm = nplus1rt_diff(f->expect, f->got, items, NPLUS1RT_F32, 4, NULL, 0);
        printf("launch %2d of %zu items: ran %-18s %zu mismatches\n", i, items, choice, mm);
        if (i == 0)
            *first = choice;
        /* before launch 15: the periodic probe of a chosen split (choose.c's PROBE_PERIOD)
         * runs the original beside a classified sample */
        *switched += i < 15 && strcmp(choice, *first) != 0;
        bad += mm != 0;
        *originals += !strcmp(choice, "original");
        *splits += strcmp(choice, "original") != 0 && strcmp(choice, "none") != 0;
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s samples/oneKernel.cl [N] [profiling 0|1]\n", argv[0]);
        return 2;
    }
    setenv("NPLUS1_SPLIT", "auto", 1); /* the test env forces always; this tests auto */
    fixture f;
    memset(&f, 0, sizeof f);
    f.n = argc > 2 ? strtoul(argv[2], NULL, 10) : 30000;
    int profiling = argc > 3 && atoi(argv[3]);
    f.swap = argc > 4 && !strcmp(argv[4], "swap");
    char errbuf[512];
    nplus1rt_device dev;
    cl_int err = nplus1rt_pick_device(&dev, errbuf, sizeof errbuf);
    if (err != CL_SUCCESS)
        return fail(errbuf, err);
    if ((err = nplus1rt_open(&dev, profiling, &f.ctx, &f.q)) != CL_SUCCESS)
        return fail("opening the device", err);
    if ((err = make_buffers(&f)) != CL_SUCCESS || (err = reference(&f, argv[1], dev.device)))
        return fail("the reference run", err);
    nplus1_oneKernel *set = nplus1_oneKernel_create(f.ctx, dev.device, "", &err);
    if (!set)
        return fail("creating the set", err);
    printf("before any launch: last_choice %s\n", nplus1_oneKernel_last_choice(set));
    unsigned originals = 0, splits = 0, switched = 0;
    const char *first[2] = {"none", "none"};
    int bad = launches(&f, set, f.n, &originals, &splits, &first[0], &switched);
    /* another size class */
    bad += launches(&f, set, f.n / 3, &originals, &splits, &first[1], &switched);
    printf("auto (%s queue): %d launches, %d with mismatches; ran the original %u times, the "
           "split %u times\n", profiling ? "profiling" : "plain", 2 * LAUNCHES, bad, originals,
           splits);
    int rc = bad ? 1 : 0;
    const char *expect = argc > 4 ? argv[4] : "both";
    if (!strcmp(expect, "both") && (!originals || !splits)) {
        printf("FAIL: the measured choice did not try both candidates\n");
        rc = 1;
    }
    if (!strcmp(expect, "original") && splits) {
        printf("FAIL: a profile predicting no gain, and the set split %u launches\n", splits);
        rc = 1;
    }
    for (int c = 0; c < 2 && !strcmp(expect, "split-first"); c++)
        if (!strcmp(first[c], "original")) {
            printf("FAIL: a profile predicting a gain, and size class %d began with the "
                   "original\n", c);
            rc = 1;
        }
    if (!strcmp(expect, "cached") && switched) {
        printf("FAIL: a warm choice cache, and %u of the first 15 launches of a class ran "
               "another candidate than its first\n", switched);
        rc = 1;
    }
    printf("first launch of each size class: %s, %s\n", first[0], first[1]);
    if (!strcmp(expect, "reuse")) {
        nplus1_oneKernel *again = nplus1_oneKernel_create(f.ctx, dev.device, "", &err);
        if (!again)
            return fail("creating the second set", err);
        unsigned o2 = 0, s2 = 0, switched2 = 0;
        const char *first2[2] = {"none", "none"};
        bad = launches(&f, again, f.n, &o2, &s2, &first2[0], &switched2);
        bad += launches(&f, again, f.n / 3, &o2, &s2, &first2[1], &switched2);
        printf("second set: first launch of each size class: %s, %s\n", first2[0], first2[1]);
        if (bad || switched2) {
            printf("FAIL: a second set of the same process: %d launches with mismatches, %u "
                   "of its first 15 launches of a class ran another candidate than its first "
                   "(the first set's stored choices were not read)\n", bad, switched2);
            rc = 1;
        }
        nplus1_oneKernel_release(again);
    }
    nplus1_oneKernel_release(set);
    clReleaseMemObject(f.ia);
    clReleaseMemObject(f.fa);
    clReleaseMemObject(f.out);
    clReleaseMemObject(f.out2);
    free(f.expect);
    free(f.got);
    free(f.poison);
    nplus1rt_cache_clear();
    clReleaseCommandQueue(f.q);
    clReleaseContext(f.ctx);
    printf("%s\n", rc ? "FAILED" : "auto's first launches all match the original");
    return rc;
}
