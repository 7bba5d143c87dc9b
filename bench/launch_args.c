/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_args - what unused kernel arguments cost a short launch.
 *
 * The same one-line kernel body (b[i] = a[i] * 2 + 1 over n items) with no
 * extra argument, and with the extra arguments a tile kernel carries (the
 * item count, the launch's dimension, sizes and offsets, two counter
 * buffers, the probe flag, the leaf record and the flags: ten), and with ten
 * plain uints, two uint4s or three buffers. Each launch is enqueued and
 * finished (clFinish) as nplus1gen-validate --reps times one; the variants
 * are timed in interleaved rounds and the medians printed beside the plain
 * kernel's. Arguments are set once: the launch alone is timed.
 *
 * usage: launch_args [N] [ROUNDS]     (NPLUS1_PLATFORM / NPLUS1_DEVICE pick the device)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

#define BODY "{ uint i = get_global_id(0); if (i < n) b[i] = a[i] * 2.0f + 1.0f; }\n"
#define HEAD "__global const float *a, __global float *b, const uint n"

static const char *const names[] = {"plain", "tile hidden 10", "uint x10", "uint4 x2",
                                    "buffer x3"};
static const char *const src =
    "__kernel void plain(" HEAD ")" BODY
    "__kernel void hidden10(" HEAD ", const uint n2, const uint dim, const uint4 gsz,"
    " const uint4 goff, __global uint *ctr, __global uint *next, const uint probe,"
    " __global uchar *leafid, const uint flags)" BODY
    "__kernel void uint10(" HEAD ", uint u0, uint u1, uint u2, uint u3, uint u4, uint u5,"
    " uint u6, uint u7, uint u8, uint u9)" BODY
    "__kernel void uint4x2(" HEAD ", const uint4 p, const uint4 q)" BODY
    "__kernel void buf3(" HEAD ", __global uint *x, __global uint *y, __global uchar *z)" BODY;
static const char *const knames[] = {"plain", "hidden10", "uint10", "uint4x2", "buf3"};
#define NK 5

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Sets kernel k's arguments: the three of HEAD, then its extras. */
static cl_int set_args(cl_kernel k, int which, cl_mem a, cl_mem b, cl_mem c, cl_uint n)
{
    cl_int e = clSetKernelArg(k, 0, sizeof a, &a) | clSetKernelArg(k, 1, sizeof b, &b) |
               clSetKernelArg(k, 2, sizeof n, &n);
    cl_uint u = 1;
    cl_uint4 v = {{1, 1, 1, 0}};
    switch (which) {
    case 1:
        e |= clSetKernelArg(k, 3, sizeof u, &u) | clSetKernelArg(k, 4, sizeof u, &u) |
             clSetKernelArg(k, 5, sizeof v, &v) | clSetKernelArg(k, 6, sizeof v, &v) |
             clSetKernelArg(k, 7, sizeof c, &c) | clSetKernelArg(k, 8, sizeof c, &c) |
             clSetKernelArg(k, 9, sizeof u, &u) | clSetKernelArg(k, 10, sizeof c, &c) |
             clSetKernelArg(k, 11, sizeof u, &u);
        break;
    case 2:
        for (cl_uint i = 3; i < 13; i++)
            e |= clSetKernelArg(k, i, sizeof u, &u);
        break;
    case 3:
        e |= clSetKernelArg(k, 3, sizeof v, &v) | clSetKernelArg(k, 4, sizeof v, &v);
        break;
    case 4:
        e |= clSetKernelArg(k, 3, sizeof c, &c) | clSetKernelArg(k, 4, sizeof c, &c) |
             clSetKernelArg(k, 5, sizeof c, &c);
        break;
    }
    return e;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1048576;
    int rounds = argc > 2 ? atoi(argv[2]) : 201;
    if (n == 0 || rounds < 1) {
        fprintf(stderr, "usage: launch_args [N] [ROUNDS]\n");
        return 2;
    }
    char msg[512];
    nplus1rt_device dev;
    cl_context ctx;
    cl_command_queue q;
    if (nplus1rt_pick_device(&dev, msg, sizeof msg) != CL_SUCCESS) {
        fprintf(stderr, "launch_args: %s\n", msg);
        return 1;
    }
    if (nplus1rt_open(&dev, 0, &ctx, &q) != CL_SUCCESS) {
        fprintf(stderr, "launch_args: cannot open the device\n");
        return 1;
    }
    cl_int err;
    char *log = NULL;
    cl_program p = nplus1rt_build(ctx, dev.device, src, "", &log, &err);
    if (!p) {
        fprintf(stderr, "launch_args: build failed: %s\n", log ? log : "");
        return 1;
    }
    free(log);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_kernel k[NK];
    double *t = calloc((size_t)NK * (size_t)rounds, sizeof *t);
    for (int i = 0; i < NK; i++) {
        k[i] = clCreateKernel(p, knames[i], &err);
        if (err != CL_SUCCESS || set_args(k[i], i, a, b, c, (cl_uint)n) != CL_SUCCESS) {
            fprintf(stderr, "launch_args: kernel %s: error %d\n", knames[i], err);
            return 1;
        }
        clEnqueueNDRangeKernel(q, k[i], 1, NULL, &n, NULL, 0, NULL, NULL); /* warm up */
    }
    clFinish(q);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < NK; j++) {
            int i = (r + j) % NK;
            double t0 = nplus1rt_now_ms();
            clEnqueueNDRangeKernel(q, k[i], 1, NULL, &n, NULL, 0, NULL, NULL);
            clFinish(q);
            t[i * rounds + r] = nplus1rt_now_ms() - t0;
        }
    printf("launch_args on %s: %zu items, %d interleaved rounds, median wall per launch\n",
           dev.device_name, n, rounds);
    double base = 0;
    for (int i = 0; i < NK; i++) {
        qsort(t + i * rounds, (size_t)rounds, sizeof *t, cmp);
        double med = t[i * rounds + rounds / 2];
        if (i == 0)
            base = med;
        printf("  %-16s %8.4f ms  %.3fx of plain\n", names[i], med, base / med);
    }
    return 0;
}
