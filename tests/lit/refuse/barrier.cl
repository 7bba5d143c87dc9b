// Rule nplus1-barrier: barrier, work_group_barrier and friends anywhere in the kernel
// or in a helper it calls. A barrier inside a branch gets a second note: the
// original is already invalid OpenCL unless the branch is uniform per group.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
// A refused run leaves an existing output directory as it was:
// RUN: rm -rf %t.keep && mkdir %t.keep && echo old > %t.keep/barrier.nplus1.cl
// RUN: not %nplus1gen %s -o %t.keep 2>/dev/null
// RUN: test "$(cat %t.keep/barrier.nplus1.cl)" = old && test "$(ls -A %t.keep)" = barrier.nplus1.cl

// CHECK:      {{.*}}barrier.cl:[[@LINE+11]]:5: error: kernel 'plain' calls 'barrier' [nplus1-barrier]
// CHECK-NEXT: barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}barrier.cl:[[@LINE+8]]:5: note: the leaf kernels re-form work-groups from the items of one leaf, so a barrier would synchronise a different set of work-items than in the original
// CHECK-NEXT: barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT: ^
// CHECK-NOT:  inside a branch
__kernel void plain(__global int *a)
{
    const int i = get_global_id(0);
    a[i] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (a[i ^ 1] > 3)
        a[i] = 2;
}

// CHECK:      {{.*}}barrier.cl:[[@LINE+14]]:9: error: kernel 'in_branch' calls 'barrier' [nplus1-barrier]
// CHECK-NEXT: barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}barrier.cl:[[@LINE+11]]:9: note: the leaf kernels re-form work-groups from the items of one leaf, so a barrier would synchronise a different set of work-items than in the original
// CHECK-NEXT: barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}barrier.cl:[[@LINE+8]]:9: note: this barrier is inside a branch: unless every work-item of the work-group takes the same branch, the kernel is already invalid OpenCL (all of them must reach the barrier, or none)
// CHECK-NEXT: barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT: ^
__kernel void in_branch(__global int *a)
{
    const int i = get_global_id(0);
    if (a[i] > 3) {
        a[i] = 1;
        barrier(CLK_GLOBAL_MEM_FENCE);
        a[i] += a[i ^ 1];
    }
}

// Through a helper: the error and the first note point into the helper,
// the branch note and the last note at the call in the kernel.
// CHECK:      {{.*}}barrier.cl:[[@LINE+12]]:30: error: kernel 'via_helper' calls 'barrier' [nplus1-barrier]
// CHECK-NEXT: static void sync_all(void) { barrier(CLK_LOCAL_MEM_FENCE); }
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}barrier.cl:[[@LINE+9]]:30: note: the leaf kernels re-form work-groups from the items of one leaf, so a barrier would synchronise a different set of work-items than in the original
// CHECK-NEXT: static void sync_all(void) { barrier(CLK_LOCAL_MEM_FENCE); }
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}barrier.cl:[[@LINE+12]]:9: note: this call, which reaches a barrier, is inside a branch: unless every work-item of the work-group takes the same branch, the kernel is already invalid OpenCL (all of them must reach the barrier, or none)
// CHECK-NEXT: sync_all();
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}barrier.cl:[[@LINE+9]]:9: note: reached through this call to 'sync_all'
// CHECK-NEXT: sync_all();
// CHECK-NEXT: ^
static void sync_all(void) { barrier(CLK_LOCAL_MEM_FENCE); }

__kernel void via_helper(__global int *a)
{
    const int i = get_global_id(0);
    if (a[i] > 3)
        sync_all();
    else
        a[i] = 0;
}

// No diagnostic: mem_fence orders one work-item's own accesses; it is not a
// barrier and stays in the leaf (fence_in_leaf.cl; a scoped fence is refused there).
__kernel void fence(__global int *a)
{
    const int i = get_global_id(0);
    if (a[i] > 3) {
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        a[i] = 1;
    }
}
// CHECK-NEXT: nplus1gen: 3 errors; no files written
// CHECK-NEXT: nplus1gen: note: 1 of the 4 kernels with a decision can be split, with 'split: never' (the driver would run the original); -k NAME writes the set of the kernels it names
// CHECK-NOT:  {{.}}
