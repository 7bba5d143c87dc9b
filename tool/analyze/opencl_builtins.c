/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opencl_builtins.c - what the analysis knows of OpenCL C's builtins: the
 * effect bits a call has (barriers, work-item and work-group queries,
 * atomics, printf, vector and image loads and stores) and a rough cost.
 */
#include "analyze_int.h"

#include <string.h>

int starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

unsigned builtin_effects(const char *name)
{
    /* mem_fence, read_mem_fence and write_mem_fence order one work-item's own
     * accesses: not barriers, they may stay in the leaves. A fence with a scope
     * (atomic_work_item_fence) orders them for a work-group: refused. */
    static const char *barriers[] = {"barrier", "work_group_barrier", "sub_group_barrier",
                                     "atomic_work_item_fence", NULL};
    static const char *local_ids[] = {"get_local_id", "get_group_id", "get_local_size",
                                      "get_num_groups", "get_enqueued_local_size",
                                      "get_local_linear_id", NULL};
    static const char *workitem[] = {"get_global_id", "get_global_size", "get_global_offset",
                                     "get_work_dim", "get_global_linear_id", NULL};
    for (int i = 0; barriers[i]; i++)
        if (!strcmp(name, barriers[i]))
            return EFF_BARRIER;
    for (int i = 0; local_ids[i]; i++)
        if (!strcmp(name, local_ids[i]))
            return EFF_LOCAL_ID;
    for (int i = 0; workitem[i]; i++)
        if (!strcmp(name, workitem[i]))
            return EFF_WORKITEM;
    /* work-group and sub-group builtins, extensions' too (intel_sub_group_shuffle,
     * qcom_sub_group_..., a prototype the kernel declares itself) */
    if (strstr(name, "work_group") || strstr(name, "sub_group") || strstr(name, "subgroup") ||
        strstr(name, "workgroup") || !strcmp(name, "wait_group_events"))
        return EFF_GROUP_FN;
    if (starts_with(name, "atomic_") || starts_with(name, "atom_"))
        return EFF_ATOMIC | EFF_MEM_READ;
    if (!strcmp(name, "printf"))
        return EFF_PRINTF;
    if (starts_with(name, "vstore") || starts_with(name, "write_image"))
        return EFF_MEM_WRITE;
    if (starts_with(name, "vload") || starts_with(name, "read_image"))
        return EFF_MEM_READ;
    return 0;
}

double builtin_cost(const char *name)
{
    static const char *cheap[] = {"min", "max", "clamp", "select", "abs", "fabs", "mad",
                                  "fma", "floor", "ceil", "round", "trunc", "sign", "mix",
                                  "as_", "convert_", NULL};
    for (int i = 0; cheap[i]; i++)
        if (starts_with(name, cheap[i]))
            return 1;
    return 8; /* transcendental and friends */
}
