/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timing.c - host and device timers, and the median of repeated runs.
 *
 * The module owns: the monotonic host clock, the duration of a profiled
 * OpenCL event, and the median used to summarise benchmark repetitions.
 * Failures are values: nplus1rt_event_ms returns -1 when the event carries
 * no profiling data, nplus1rt_median returns NaN for an empty list.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime; CMake defines it too */
#endif
#include "nplus1rt.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

double nplus1rt_now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

double nplus1rt_event_ms(cl_event ev)
{
    cl_ulong start = 0, end = 0;
    if (!ev ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) != CL_SUCCESS ||
        end < start)
        return -1.0;
    return (double)(end - start) * 1e-6;
}

/* Ascending, NaNs last, so the order is total and qsort stays well defined. */
static int compare_doubles(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b))
        return (isnan(a) != 0) - (isnan(b) != 0);
    return (a > b) - (a < b);
}

double nplus1rt_median(double *v, size_t n)
{
    if (!v || n == 0)
        return NAN;
    qsort(v, n, sizeof *v, compare_doubles);
    if (n % 2)
        return v[n / 2];
    return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}
