/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins.h - the one table of OpenCL C builtins the tool knows by name:
 * barriers and their scope, the work-item queries (the ids, which vary over
 * the items, and the sizes, which do not), the local and group queries, the
 * atomics and the work-group / sub-group functions. The parse (an extension's
 * group function it does not declare), the effects (opencl_builtins.c), the
 * divergence evaluator, the condition inputs and the legality notes ask it,
 * so that no builtin name is spelled in two places.
 */
#ifndef NPLUS1_BUILTINS_H
#define NPLUS1_BUILTINS_H

typedef enum builtin_kind {
    BUILTIN_OTHER,            /* not in the table */
    BUILTIN_BARRIER,          /* a barrier or a scoped fence (builtins_barrier_scope) */
    BUILTIN_LOCAL_ID,         /* a local or group id or size */
    BUILTIN_GLOBAL_ID,        /* a global id: varies over the items, affinely */
    BUILTIN_GLOBAL_SIZE       /* a global size, offset or the dimension: uniform */
} builtin_kind;

typedef enum builtin_scope {
    BUILTIN_SCOPE_NONE,       /* not a barrier, or a fence (atomic_work_item_fence) */
    BUILTIN_SCOPE_WORK_GROUP, /* barrier, work_group_barrier */
    BUILTIN_SCOPE_SUB_GROUP   /* sub_group_barrier */
} builtin_scope;

/* The kind of the builtin called name (exact names). */
builtin_kind builtins_kind(const char *name);
/* The scope a barrier named name synchronises. */
builtin_scope builtins_barrier_scope(const char *name);
/* An atomic: atomic_* (OpenCL 1.1+ and 2.0) or atom_* (the 1.0 extensions). */
int builtins_is_atomic(const char *name);
/* A work-group or sub-group function, extensions' too (intel_sub_group_shuffle,
 * qcom_sub_group_..., a prototype the kernel declares itself): the name holds
 * work_group, sub_group, subgroup or workgroup. */
int builtins_is_group_function(const char *name);
/* Does s start with prefix? */
int builtins_starts(const char *s, const char *prefix);

#endif
