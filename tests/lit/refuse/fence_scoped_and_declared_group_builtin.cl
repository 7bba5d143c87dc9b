// Refused: a fence with a memory scope (its note is about fences, not
// barriers), and a sub-group builtin of an extension that the kernel
// declares itself. See fence_and_extension_group_builtins.cl for the rest.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --cl-std=CL2.0 -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: test ! -e %t

// CHECK:      {{.*}}fence_scoped_and_declared_group_builtin.cl:[[@LINE+12]]:9: error: kernel 'publish' calls 'atomic_work_item_fence' [nplus1-barrier]
// CHECK-NEXT: atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}fence_scoped_and_declared_group_builtin.cl:[[@LINE+9]]:9: note: a fence with a memory scope orders memory for the work-items of that scope (a work-group or sub-group), and the leaf kernels re-form work-groups; mem_fence, read_mem_fence and write_mem_fence, which order one work-item's own accesses, may stay
// CHECK-NEXT: atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
// CHECK-NEXT: ^
// CHECK-NOT:  barrier would
__kernel void publish(__global uint *data, __global uint *flags)
{
    const int i = get_global_id(0);
    if (data[i] & 1) {
        data[i] = 7u;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
        flags[i] = 1u;
    }
}

// CHECK:      {{.*}}fence_scoped_and_declared_group_builtin.cl:[[@LINE+15]]:13: error: kernel 'shuffle' calls 'intel_sub_group_shuffle' [nplus1-group-function]
// CHECK-NEXT: v = intel_sub_group_shuffle(v, 0u);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}fence_scoped_and_declared_group_builtin.cl:[[@LINE+12]]:13: note: work-group and sub-group functions combine the items of one group, and the leaf kernels re-form groups
// CHECK-NEXT: v = intel_sub_group_shuffle(v, 0u);
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 2 errors; no files written
// CHECK-NOT:  {{.}}
uint intel_sub_group_shuffle(uint x, uint c);

__kernel void shuffle(__global const uint *in, __global uint *out)
{
    const int i = get_global_id(0);
    uint v = in[i];
    if (v & 1)
        v = intel_sub_group_shuffle(v, 0u);
    out[i] = v;
}
