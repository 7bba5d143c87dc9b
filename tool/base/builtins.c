/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins.c - the table of OpenCL C builtins known by name (builtins.h).
 */
#include "builtins.h"

#include <string.h>

/* mem_fence, read_mem_fence and write_mem_fence order one work-item's own accesses:
 * not barriers, they may stay in the leaves. A fence with a scope
 * (atomic_work_item_fence) orders them for a work-group: a barrier here. */
static const struct builtin_row {
    const char *name;
    builtin_kind kind;
    builtin_scope scope;
} table[] = {
    {"barrier", BUILTIN_BARRIER, BUILTIN_SCOPE_WORK_GROUP},
    {"work_group_barrier", BUILTIN_BARRIER, BUILTIN_SCOPE_WORK_GROUP},
    {"sub_group_barrier", BUILTIN_BARRIER, BUILTIN_SCOPE_SUB_GROUP},
    {"atomic_work_item_fence", BUILTIN_BARRIER, BUILTIN_SCOPE_NONE},
    {"get_local_id", BUILTIN_LOCAL_ID, BUILTIN_SCOPE_NONE},
    {"get_group_id", BUILTIN_LOCAL_ID, BUILTIN_SCOPE_NONE},
    {"get_local_size", BUILTIN_LOCAL_ID, BUILTIN_SCOPE_NONE},
    {"get_num_groups", BUILTIN_LOCAL_ID, BUILTIN_SCOPE_NONE},
    {"get_enqueued_local_size", BUILTIN_LOCAL_ID, BUILTIN_SCOPE_NONE},
    {"get_local_linear_id", BUILTIN_LOCAL_ID, BUILTIN_SCOPE_NONE},
    {"get_global_id", BUILTIN_GLOBAL_ID, BUILTIN_SCOPE_NONE},
    {"get_global_linear_id", BUILTIN_GLOBAL_ID, BUILTIN_SCOPE_NONE},
    {"get_global_size", BUILTIN_GLOBAL_SIZE, BUILTIN_SCOPE_NONE},
    {"get_global_offset", BUILTIN_GLOBAL_SIZE, BUILTIN_SCOPE_NONE},
    {"get_work_dim", BUILTIN_GLOBAL_SIZE, BUILTIN_SCOPE_NONE},
};

static const struct builtin_row *row_of(const char *name)
{
    for (unsigned i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(name, table[i].name))
            return &table[i];
    return NULL;
}

builtin_kind builtins_kind(const char *name)
{
    const struct builtin_row *r = row_of(name);
    return r ? r->kind : BUILTIN_OTHER;
}

builtin_scope builtins_barrier_scope(const char *name)
{
    const struct builtin_row *r = row_of(name);
    return r ? r->scope : BUILTIN_SCOPE_NONE;
}

int builtins_starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int builtins_is_atomic(const char *name)
{
    return builtins_starts(name, "atomic_") || builtins_starts(name, "atom_");
}

int builtins_is_group_function(const char *name)
{
    return strstr(name, "work_group") || strstr(name, "sub_group") || strstr(name, "subgroup") ||
           strstr(name, "workgroup");
}
