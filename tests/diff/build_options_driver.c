/* SPDX-License-Identifier: Apache-2.0 */
/*
 * build_options_driver - build options given to a driver's _create never give
 * other results than the original's (issue 16, item 1). The driver of
 * tests/validate/build_options_fast.cl (an #ifdef FAST inside a branch) is
 * created with OPTIONS. "refuse": _create must fail with NPLUS1_ERR_MACRO and
 * a message naming FAST, its value when the set was generated and the -D to
 * regenerate with; created without options it must still match the original.
 * "match" (the driver regenerated with -DFAST): created with OPTIONS, every
 * launch under --split auto (the measured choice's trials included) matches
 * the original built with OPTIONS.
 *
 * usage: build_options_driver build_options_fast.cl OPTIONS refuse|match
 */
#include "build_options_fast_nplus1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

#define N 4096
#define LAUNCHES 12

typedef struct fixture {
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev;
    cl_mem in, out;
    int expect[N], got[N];
} fixture;

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "build_options_driver: %s: %s (%d)\n", what, nplus1_strerror(err), (int)err);
    return 2;
}

static cl_int poison(fixture *f)
{
    int p[N];
    memset(p, 0xA5, sizeof p);
    return clEnqueueWriteBuffer(f->q, f->out, CL_TRUE, 0, sizeof p, p, 0, NULL, NULL);
}

/* The original kernel built with options, over all N items: the reference. */
static cl_int reference(fixture *f, const char *path, const char *options)
{
    char *src = nplus1rt_read_file(path), *log = NULL;
    if (!src)
        return CL_INVALID_VALUE;
    cl_int err;
    cl_program p = nplus1rt_build(f->ctx, f->dev, src, options, &log, &err);
    free(src);
    free(log);
    if (!p)
        return err;
    cl_kernel k = clCreateKernel(p, "fast_path", &err);
    clReleaseProgram(p);
    if (err != CL_SUCCESS)
        return err;
    size_t n = N;
    clSetKernelArg(k, 0, sizeof f->in, &f->in);
    clSetKernelArg(k, 1, sizeof f->out, &f->out);
    if ((err = poison(f)) == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(f->q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(f->q, f->out, CL_TRUE, 0, sizeof f->expect, f->expect, 0, NULL,
                                  NULL);
    clReleaseKernel(k);
    return err;
}

/* LAUNCHES launches of the set; returns the wrong elements over all of them (-1: an error). */
static long run_set(fixture *f, nplus1_fast_path *set)
{
    long wrong = 0;
    size_t n = N;
    for (int i = 0; i < LAUNCHES; i++) {
        cl_int err = poison(f);
        if (err == CL_SUCCESS)
            err = nplus1_fast_path_enqueue(set, f->q, 1, NULL, &n, NULL, f->in, f->out);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(f->q, f->out, CL_TRUE, 0, sizeof f->got, f->got, 0, NULL,
                                      NULL);
        if (err != CL_SUCCESS)
            return -1;
        for (size_t e = 0; e < N; e++)
            wrong += f->got[e] != f->expect[e];
        printf("launch %2d: ran %s\n", i, nplus1_fast_path_last_choice(set));
    }
    return wrong;
}

/* Created with options, the set refuses: the status and what its message names. */
static int expect_refusal(fixture *f, const char *options)
{
    cl_int err;
    char *msg = NULL;
    nplus1_fast_path *set = nplus1_fast_path_create_ex(f->ctx, f->dev, options, &err, &msg);
    printf("create with \"%s\": %s\n%s\n", options, nplus1_strerror(err), msg ? msg : "");
    int ok = !set && err == NPLUS1_ERR_MACRO && msg && strstr(msg, "FAST undefined") &&
             strstr(msg, "nplus1gen ... -DFAST");
    nplus1_fast_path_release(set);
    free(msg);
    return ok ? 0 : 1;
}

static int check(fixture *f, const char *path, const char *options, const char *create_options)
{
    cl_int err = reference(f, path, options);
    if (err != CL_SUCCESS)
        return fail("the reference run", err);
    nplus1_fast_path *set = nplus1_fast_path_create(f->ctx, f->dev, create_options, &err);
    if (!set)
        return fail("creating the set", err);
    long wrong = run_set(f, set);
    nplus1_fast_path_release(set);
    printf("options \"%s\": %ld wrong elements in %d launches\n", options, wrong, LAUNCHES);
    return wrong != 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s build_options_fast.cl OPTIONS refuse|match\n", argv[0]);
        return 2;
    }
    setenv("NPLUS1_SPLIT", "auto", 1); /* the measured choice's trial launches too */
    fixture f;
    memset(&f, 0, sizeof f);
    char errbuf[512];
    nplus1rt_device dev;
    cl_int err = nplus1rt_pick_device(&dev, errbuf, sizeof errbuf);
    if (err != CL_SUCCESS)
        return fail(errbuf, err);
    if ((err = nplus1rt_open(&dev, 0, &f.ctx, &f.q)) != CL_SUCCESS)
        return fail("opening the device", err);
    f.dev = dev.device;
    int in[N];
    uint64_t seed = 3;
    nplus1rt_fill_random(in, N, NPLUS1RT_I32, 0, &seed);
    f.in = clCreateBuffer(f.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    if (err == CL_SUCCESS)
        f.out = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, sizeof in, NULL, &err);
    if (err != CL_SUCCESS)
        return fail("buffers", err);
    int rc;
    if (!strcmp(argv[3], "refuse")) /* refused with the options; fine without them */
        rc = expect_refusal(&f, argv[2]) | check(&f, argv[1], "", "");
    else
        rc = check(&f, argv[1], argv[2], argv[2]);
    clReleaseMemObject(f.in);
    clReleaseMemObject(f.out);
    nplus1rt_cache_clear();
    clReleaseCommandQueue(f.q);
    clReleaseContext(f.ctx);
    printf("%s\n", rc ? "FAILED" : "build options: the set refused or matched, as expected");
    return rc;
}
