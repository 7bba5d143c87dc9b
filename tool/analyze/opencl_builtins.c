/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opencl_builtins.c - what the analysis knows of OpenCL C's builtins: the
 * effect bits a call has (barriers, work-item and work-group queries,
 * atomics, printf, vector and image loads and stores) and a rough cost.
 */
#include "analyze_int.h"

#include <string.h>

#include "builtins.h"

int analyze_starts_with(const char *s, const char *p)
{
    return builtins_starts(s, p);
}

unsigned analyze_builtin_effects(const char *name)
{
    switch (builtins_kind(name)) { /* the table: builtins.h */
    case BUILTIN_BARRIER:
        return EFF_BARRIER;
    case BUILTIN_LOCAL_ID:
        return EFF_LOCAL_ID;
    case BUILTIN_GLOBAL_ID:
    case BUILTIN_GLOBAL_SIZE:
        return EFF_WORKITEM;
    case BUILTIN_OTHER:
        break;
    }
    if (builtins_is_group_function(name) || !strcmp(name, "wait_group_events"))
        return EFF_GROUP_FN;
    if (builtins_is_atomic(name))
        return EFF_ATOMIC | EFF_MEM_READ;
    if (!strcmp(name, "printf"))
        return EFF_PRINTF;
    if (analyze_starts_with(name, "vstore") || analyze_starts_with(name, "write_image"))
        return EFF_MEM_WRITE;
    if (analyze_starts_with(name, "vload") || analyze_starts_with(name, "read_image"))
        return EFF_MEM_READ;
    return 0;
}

double analyze_builtin_cost(const char *name)
{
    static const char *cheap[] = {"min", "max", "clamp", "select", "abs", "fabs", "mad",
                                  "fma", "floor", "ceil", "round", "trunc", "sign", "mix",
                                  "as_", "convert_", NULL};
    for (int i = 0; cheap[i]; i++)
        if (analyze_starts_with(name, cheap[i]))
            return 1;
    if (analyze_starts_with(name, "native_"))
        return 2; /* one special-function instruction on a GPU, and a scale */
    return 8; /* transcendental and friends (sin: range reduction and a polynomial) */
}

/*
 * What a math builtin takes on a GPU, in FMA-equivalents (issue slots of an FP32 FMA), for
 * the profile's predictions (the plan's rules keep analyze_builtin_cost). The reasoning: an
 * NVIDIA SM since Volta issues 128 FP32 FMAs a clock against 16 special-function (MUFU)
 * operations (ex2, lg2, rsqrt, rcp, sin, cos: 1/8 the rate, so one is 8 here; Hopper's SM,
 * the H200's, keeps both numbers), and OpenCL C's full-precision functions (exp within 3
 * ulp, pow 16, sin 4: the spec's table 7.1) are not one MUFU operation but a range
 * reduction, a polynomial or a MUFU operation with corrections and special cases: about
 * 10-40 instructions in the vendors' math libraries (CUDA's expf/logf/sinf/powf, which
 * NVIDIA's OpenCL compiles the same functions to). Each entry below is such a count,
 * rounded: a MUFU operation 8, the FMAs and selects around it 1 each. Approximate by
 * nature (the slow path of sin for huge arguments, double precision at half the FP32 rate
 * on an H200, vector widths: a float4's exp is four, counted once), but of the right
 * order where the rough cost counts 8 for each. native_ and half_ functions: one MUFU
 * operation and a scale (9). A few cheap ones the rough cost counts 8 (fmax, the
 * work-item queries: a special register read and an index) at their instructions. A name
 * not here keeps its rough cost.
 */
typedef struct builtin_time {
    const char *name;
    double fma;
} builtin_time;

static const builtin_time times[] = {
    {"exp", 18},   {"exp2", 12},  {"exp10", 18}, {"expm1", 24}, {"log", 20},   {"log2", 16},
    {"log10", 20}, {"log1p", 24}, {"pow", 40},   {"powr", 40},  {"pown", 20},  {"rootn", 40},
    {"sqrt", 16},  {"rsqrt", 12}, {"cbrt", 24},  {"sin", 18},   {"cos", 18},   {"tan", 28},
    {"sincos", 24}, {"sinpi", 20}, {"cospi", 20}, {"tanpi", 32}, {"asin", 24},  {"acos", 24},
    {"atan", 24},  {"atan2", 32}, {"atanpi", 24}, {"atan2pi", 32}, {"asinpi", 24},
    {"acospi", 24}, {"sinh", 28},  {"cosh", 28},  {"tanh", 28},  {"asinh", 28}, {"acosh", 28},
    {"atanh", 28}, {"erf", 24},   {"erfc", 24},  {"tgamma", 60}, {"lgamma", 60}, {"fmod", 24},
    {"remainder", 24}, {"hypot", 16}, {"normalize", 20}, {"length", 20}, {"distance", 24},
    {"fast_normalize", 12}, {"fast_length", 12}, {"fast_distance", 14}, {"dot", 4},
    {"cross", 6},
    /* not transcendental, but 8 in the rough cost: one instruction or two */
    {"fmax", 1}, {"fmin", 1}, {"fdim", 1}, {"copysign", 1}, {"isnan", 1}, {"isinf", 1},
    {"isfinite", 1}, {"signbit", 1}, {"step", 1}, {"smoothstep", 6},
    {"get_global_id", 2}, {"get_local_id", 1}, {"get_group_id", 1}, {"get_global_size", 2},
    {"get_local_size", 1}, {"get_num_groups", 1}, {"get_global_offset", 1},
    {"get_work_dim", 1}, {NULL, 0}};

double analyze_builtin_time(const char *name)
{
    for (int i = 0; times[i].name; i++)
        if (!strcmp(name, times[i].name))
            return times[i].fma;
    if (analyze_starts_with(name, "native_") || analyze_starts_with(name, "half_"))
        return 9;
    return analyze_builtin_cost(name);
}

/*
 * A math builtin with no effect but its value (math_once.c: the compiler computes one call on
 * the same values once): the table's entries but the work-item queries, and the native_ and
 * half_ functions.
 */
int analyze_builtin_pure_math(const char *name)
{
    if (analyze_starts_with(name, "native_") || analyze_starts_with(name, "half_"))
        return 1;
    if (analyze_starts_with(name, "get_"))
        return 0;
    for (int i = 0; times[i].name; i++)
        if (!strcmp(name, times[i].name))
            return 1;
    return 0;
}
