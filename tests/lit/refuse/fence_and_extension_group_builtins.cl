// A scoped fence (atomic_work_item_fence) orders memory for the items of a
// work-group: refused as nplus1-barrier, with a note about fences (not
// barriers). Sub-group builtins of extensions are group functions, declared
// by the kernel (a prototype) or not declared at all. mem_fence, read_mem_fence
// and write_mem_fence are fine: the kernel 'ordered' splits.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --cl-std=CL2.0 -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: test ! -e %t
// RUN: %nplus1gen %s --cl-std=CL2.0 -DONLY_ORDERED --check | %FileCheck %s --check-prefix=OK

// OK: kernel ordered: can be split: 2 leaves, 2 leaf kernels{{.*}}

// CHECK:      {{.*}}fence_and_extension_group_builtins.cl:[[@LINE+28]]:13: error: the kernel calls 'qcom_sub_group_shuffle', a work-group or sub-group builtin (of an extension this parser does not declare) [nplus1-group-function]
// CHECK-NEXT: v = qcom_sub_group_shuffle(v, 0u);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}fence_and_extension_group_builtins.cl:[[@LINE+25]]:13: note: work-group and sub-group functions combine the items of one group, and the leaf kernels re-form groups
// CHECK-NEXT: v = qcom_sub_group_shuffle(v, 0u);
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 1 error; no files written
// CHECK-NOT:  {{.}}
__kernel void ordered(__global const uint *in, __global uint *out)
{
    const int i = get_global_id(0);
    const uint v = in[i];
    if (v & 1) {
        out[i] = v;
        write_mem_fence(CLK_GLOBAL_MEM_FENCE);
        out[i] += 1u;
    } else {
        read_mem_fence(CLK_GLOBAL_MEM_FENCE);
        out[i] = 0u;
    }
}

#ifndef ONLY_ORDERED
__kernel void undeclared(__global const uint *in, __global uint *out)
{
    const int i = get_global_id(0);
    uint v = in[i];
    if (v & 1)
        v = qcom_sub_group_shuffle(v, 0u);
    out[i] = v;
}
#endif
