/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_rt_device.c - proves device selection, the program cache and build
 * failures on a real OpenCL implementation: POCL must be installed (it is
 * the CPU platform the tests run on). Sets POCL_CACHE_DIR to a fresh
 * temporary folder when it is unset, and removes that folder at the end.
 *
 * Prints one line per check, "PASS: <sentence>" or "FAIL: <sentence>";
 * exits non-zero when any check fails.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv, nftw */
#include "nplus1rt.h"

#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"


static const char *const good_source =
    "__kernel void add_one(__global int *p) {\n"
    "    size_t i = get_global_id(0);\n"
    "    p[i] = p[i] + 1;\n"
    "}\n";

static const char *const broken_source =
    "__kernel void broken(__global int *p) {\n"
    "    p[0] = nplus1_undeclared_identifier;\n"
    "}\n";

/* ---- environment ------------------------------------------------------- */

static char cache_dir[64];

static void use_private_pocl_cache(void)
{
    if (getenv("POCL_CACHE_DIR"))
        return;
    strcpy(cache_dir, "/tmp/nplus1-test-pocl-XXXXXX");
    if (mkdtemp(cache_dir))
        setenv("POCL_CACHE_DIR", cache_dir, 1);
    else
        cache_dir[0] = '\0';
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

static void remove_private_pocl_cache(void)
{
    if (cache_dir[0])
        nftw(cache_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Sets or (for NULL) unsets the two selection variables. */
static void select_env(const char *platform, const char *device)
{
    if (platform) setenv("NPLUS1_PLATFORM", platform, 1); else unsetenv("NPLUS1_PLATFORM");
    if (device) setenv("NPLUS1_DEVICE", device, 1); else unsetenv("NPLUS1_DEVICE");
}

static int is_pocl(const nplus1rt_device *d)
{
    return strstr(d->platform_name, "Portable Computing Language") != NULL;
}

/* The index of the POCL platform in the loader's order, or -1. */
static int pocl_platform_index(void)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
        return -1;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, "Portable Computing Language"))
            return (int)i;
    }
    return -1;
}

/* ---- device selection -------------------------------------------------- */

static void test_default_pick(void)
{
    nplus1rt_device d;
    char err[1024];
    select_env(NULL, NULL);
    cl_int st = nplus1rt_pick_device(&d, err, sizeof err);
    check(st == CL_SUCCESS && d.device && d.platform && d.device_name[0],
          "the default selection finds a device");
    check(st == CL_SUCCESS && ((d.type & CL_DEVICE_TYPE_GPU) || is_pocl(&d)),
          "the default selection prefers a GPU, else POCL");
}

static void test_pick_by_name_and_index(nplus1rt_device *pocl)
{
    char err[1024], index[16];
    nplus1rt_device d;
    select_env("pocl", NULL);
    check(nplus1rt_pick_device(pocl, err, sizeof err) == CL_SUCCESS && is_pocl(pocl),
          "NPLUS1_PLATFORM=pocl finds POCL through its vendor name");
    select_env("portable COMPUTING", NULL);
    check(nplus1rt_pick_device(&d, err, sizeof err) == CL_SUCCESS && d.device == pocl->device,
          "NPLUS1_PLATFORM matches a platform name substring case-insensitively");
    snprintf(index, sizeof index, "%d", pocl_platform_index());
    select_env(index, "0");
    check(nplus1rt_pick_device(&d, err, sizeof err) == CL_SUCCESS && d.device == pocl->device,
          "NPLUS1_PLATFORM and NPLUS1_DEVICE select by decimal index");
    select_env("pocl", pocl->device_name + 2); /* a substring from inside the name */
    check(nplus1rt_pick_device(&d, err, sizeof err) == CL_SUCCESS && d.device == pocl->device,
          "NPLUS1_DEVICE selects by device name substring");
}

static void test_pick_failures(const nplus1rt_device *pocl)
{
    char err[2048], tiny[8];
    nplus1rt_device d;
    select_env(NULL, "no-such-device-xyz");
    cl_int st = nplus1rt_pick_device(&d, err, sizeof err);
    check(st == NPLUS1_ERR_NO_DEVICE, "an unmatched NPLUS1_DEVICE gives NPLUS1_ERR_NO_DEVICE");
    check(strstr(err, "Portable Computing Language") && strstr(err, pocl->device_name) &&
          strstr(err, "no-such-device-xyz"),
          "the failure message names the selection and lists the platforms and devices seen");
    select_env("99", NULL);
    check(nplus1rt_pick_device(&d, err, sizeof err) == NPLUS1_ERR_NO_DEVICE,
          "an out-of-range NPLUS1_PLATFORM index gives NPLUS1_ERR_NO_DEVICE");
    memset(tiny, 'x', sizeof tiny);
    st = nplus1rt_pick_device(&d, tiny, sizeof tiny);
    check(st == NPLUS1_ERR_NO_DEVICE && memchr(tiny, '\0', sizeof tiny) != NULL,
          "a short error buffer is truncated and stays NUL-terminated");
    check(nplus1rt_pick_device(&d, NULL, 0) == NPLUS1_ERR_NO_DEVICE,
          "the error buffer is optional");
    select_env(NULL, NULL);
}

/* ---- program builds ---------------------------------------------------- */

static void test_cache_hit(cl_context ctx, cl_device_id dev)
{
    cl_int err1 = -1, err2 = -1, err3 = -1;
    char *log = (char *)"untouched";
    cl_program p1 = nplus1rt_build(ctx, dev, good_source, "-cl-std=CL1.2", &log, &err1);
    check(p1 && err1 == CL_SUCCESS && log == NULL, "a good source builds, with no log returned");
    cl_program p2 = nplus1rt_build(ctx, dev, good_source, "-cl-std=CL1.2", NULL, &err2);
    check(p2 == p1 && err2 == CL_SUCCESS, "the second build of the same source comes from the cache");
    cl_program p3 = nplus1rt_build(ctx, dev, good_source, "-cl-std=CL1.2 -DX=1", NULL, &err3);
    check(p3 && p3 != p1 && err3 == CL_SUCCESS, "different build options give a different program");
    cl_uint refs = 0;
    clGetProgramInfo(p1, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    check(refs == 3, "each build retains the program for its caller (cache + two callers)");
    if (p1) clReleaseProgram(p1);
    if (p2) clReleaseProgram(p2);
    if (p3) clReleaseProgram(p3);
}

static void test_build_failure(cl_context ctx, cl_device_id dev)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        char *log = NULL;
        cl_int err = CL_SUCCESS;
        cl_program p = nplus1rt_build(ctx, dev, broken_source, NULL, &log, &err);
        check(p == NULL && err == NPLUS1_ERR_BUILD,
              attempt ? "a broken source fails again on a second build (failures are not cached)"
                      : "a broken source gives NULL and NPLUS1_ERR_BUILD");
        check(log && log[0] && strstr(log, "nplus1_undeclared_identifier"),
              "the build log is returned and names the offending identifier");
        free(log);
    }
    cl_int err = CL_SUCCESS;
    check(nplus1rt_build(ctx, dev, broken_source, NULL, NULL, &err) == NULL && err == NPLUS1_ERR_BUILD,
          "the build log is optional");
}

/* ---- running a cached program ------------------------------------------ */

static void test_run(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    enum { N = 64 };
    int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_int err;
    cl_program p = nplus1rt_build(ctx, dev, good_source, "-cl-std=CL1.2", NULL, &err);
    cl_kernel k = p ? clCreateKernel(p, "add_one", &err) : NULL;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    cl_event ev = NULL;
    size_t global = N;
    int ok = k && buf && clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS &&
             clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &ev) == CL_SUCCESS &&
             clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL) == CL_SUCCESS;
    for (int i = 0; ok && i < N; i++)
        ok = host[i] == i + 1;
    check(ok, "a cached program runs and computes the right values");
    check(ev && nplus1rt_event_ms(ev) >= 0.0, "a profiling queue gives the kernel's duration");
    if (ev) clReleaseEvent(ev);
    if (buf) clReleaseMemObject(buf);
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
}

/* ---- concurrency and clearing ------------------------------------------ */

typedef struct build_job {
    cl_context ctx;
    cl_device_id dev;
    cl_program program;
    cl_int err;
} build_job;

static void *build_thread(void *arg)
{
    build_job *job = arg;
    static const char *const src = "__kernel void twice(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n";
    job->program = nplus1rt_build(job->ctx, job->dev, src, NULL, NULL, &job->err);
    return NULL;
}

static void test_threads(cl_context ctx, cl_device_id dev)
{
    enum { T = 4 };
    build_job jobs[T];
    pthread_t threads[T];
    int started = 0;
    for (int i = 0; i < T; i++) {
        jobs[i] = (build_job){ ctx, dev, NULL, -1 };
        started += pthread_create(&threads[i], NULL, build_thread, &jobs[i]) == 0;
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    int same = started == T;
    for (int i = 0; i < started; i++)
        same &= jobs[i].err == CL_SUCCESS && jobs[i].program == jobs[0].program;
    check(same, "threads building the same source at once all get the one cached program");
    for (int i = 0; i < started; i++)
        if (jobs[i].program)
            clReleaseProgram(jobs[i].program);
}

static void test_cache_clear(cl_context ctx, cl_device_id dev)
{
    cl_int err;
    cl_program kept = nplus1rt_build(ctx, dev, good_source, "-cl-std=CL1.2", NULL, &err);
    nplus1rt_cache_clear();
    cl_uint refs = 0;
    clGetProgramInfo(kept, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    cl_kernel k = clCreateKernel(kept, "add_one", &err);
    check(refs == 1 && k != NULL, "clearing the cache drops its reference and leaves the caller's program usable");
    if (k) clReleaseKernel(k);
    cl_program again = nplus1rt_build(ctx, dev, good_source, "-cl-std=CL1.2", NULL, &err);
    check(again && err == CL_SUCCESS, "a build after clearing the cache succeeds");
    if (again) clReleaseProgram(again);
    if (kept) clReleaseProgram(kept);
    nplus1rt_cache_clear();
}

static void test_bad_arguments(cl_context ctx, cl_device_id dev)
{
    cl_int err = CL_SUCCESS;
    check(nplus1rt_build(ctx, dev, NULL, NULL, NULL, &err) == NULL && err == CL_INVALID_VALUE,
          "a NULL source gives CL_INVALID_VALUE");
    char *log = NULL;
    cl_program p = nplus1rt_build(ctx, dev, good_source, "-cl-no-such-option", &log, &err);
    check(p == NULL && err != CL_SUCCESS && log && log[0],
          "an invalid build option fails with a status and a non-empty log");
    free(log);
}

static void test_strerror(void)
{
    check(strcmp(nplus1_strerror(CL_SUCCESS), "CL_SUCCESS") == 0 &&
          strcmp(nplus1_strerror(CL_INVALID_VALUE), "CL_INVALID_VALUE") == 0 &&
          strcmp(nplus1_strerror(CL_INVALID_DEVICE_PARTITION_COUNT), "CL_INVALID_DEVICE_PARTITION_COUNT") == 0 &&
          strcmp(nplus1_strerror(CL_KERNEL_ARG_INFO_NOT_AVAILABLE), "CL_KERNEL_ARG_INFO_NOT_AVAILABLE") == 0,
          "nplus1_strerror names OpenCL statuses");
    check(strcmp(nplus1_strerror(NPLUS1_ERR_BUILD), "NPLUS1_ERR_BUILD") == 0 &&
          strcmp(nplus1_strerror(NPLUS1_ERR_BAD_LAUNCH), "NPLUS1_ERR_BAD_LAUNCH") == 0,
          "nplus1_strerror names nplus1 statuses");
    check(strcmp(nplus1_strerror(-12345), "CL_UNKNOWN_ERROR") == 0,
          "nplus1_strerror gives CL_UNKNOWN_ERROR for an unknown status");
}

int main(void)
{
    use_private_pocl_cache();
    test_strerror();
    test_default_pick();
    nplus1rt_device pocl;
    memset(&pocl, 0, sizeof pocl);
    test_pick_by_name_and_index(&pocl);
    test_pick_failures(&pocl);

    cl_context ctx = NULL;
    cl_command_queue q = NULL;
    cl_int st = pocl.device ? nplus1rt_open(&pocl, 1, &ctx, &q) : NPLUS1_ERR_NO_DEVICE;
    check(st == CL_SUCCESS && ctx && q, "a context and a profiling queue open on POCL");
    if (st == CL_SUCCESS) {
        test_cache_hit(ctx, pocl.device);
        test_build_failure(ctx, pocl.device);
        test_run(ctx, pocl.device, q);
        test_threads(ctx, pocl.device);
        test_bad_arguments(ctx, pocl.device);
        test_cache_clear(ctx, pocl.device);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    nplus1rt_cache_clear();
    remove_private_pocl_cache();
    return check_summary("runtime device");
}
