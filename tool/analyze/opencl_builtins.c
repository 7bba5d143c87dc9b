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
