// Rule nplus1-group-function: work-group and sub-group functions (and the
// async work-group copies), in the kernel or in a helper it calls: they combine
// the work-items of one group, and the leaf kernels re-form groups.
// OpenCL C 2.0 for the work_group_* and sub_group_* functions.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --cl-std=CL2.0 -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --cl-std=CL2.0 -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

// CHECK:      {{.*}}group_function.cl:[[@LINE+8]]:21: error: kernel 'reduce' calls 'work_group_reduce_add' [nplus1-group-function]
// CHECK-NEXT: const int sum = work_group_reduce_add(in[get_global_id(0)]);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+5]]:21: note: work-group and sub-group functions combine the items of one group, and the leaf kernels re-form groups
// CHECK-NEXT: const int sum = work_group_reduce_add(in[get_global_id(0)]);
// CHECK-NEXT: ^
__kernel void reduce(__global const int *in, __global int *out)
{
    const int sum = work_group_reduce_add(in[get_global_id(0)]);
    if (sum > 3)
        out[get_global_id(0)] = sum;
}

// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+8]]:9: error: kernel 'vote' calls 'work_group_any' [nplus1-group-function]
// CHECK-NEXT: if (work_group_any(in[get_global_id(0)] > 3))
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+5]]:9: note: {{.*}}
// CHECK-NEXT: if (work_group_any(in[get_global_id(0)] > 3))
// CHECK-NEXT: ^
__kernel void vote(__global const int *in, __global int *out)
{
    if (work_group_any(in[get_global_id(0)] > 3))
        out[get_global_id(0)] = 1;
}

// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+9]]:33: error: kernel 'broadcast' calls 'sub_group_broadcast' [nplus1-group-function]
// CHECK-NEXT: out[get_global_id(0)] = sub_group_broadcast(in[0], 0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+6]]:33: note: {{.*}}
// CHECK-NEXT: out[get_global_id(0)] = sub_group_broadcast(in[0], 0);
// CHECK-NEXT: ^
__kernel void broadcast(__global const int *in, __global int *out)
{
    if (in[get_global_id(0)] > 3)
        out[get_global_id(0)] = sub_group_broadcast(in[0], 0);
}

// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+9]]:38: error: kernel 'lane' calls 'get_sub_group_local_id' [nplus1-group-function]
// CHECK-NEXT: out[get_global_id(0)] = (int)get_sub_group_local_id();
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+6]]:38: note: {{.*}}
// CHECK-NEXT: out[get_global_id(0)] = (int)get_sub_group_local_id();
// CHECK-NEXT: ^
__kernel void lane(__global const int *in, __global int *out)
{
    if (in[get_global_id(0)] > 3)
        out[get_global_id(0)] = (int)get_sub_group_local_id();
}

// Through a helper: the error at the function, a note at the call.
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+11]]:12: error: kernel 'via_helper' calls 'work_group_scan_inclusive_add' [nplus1-group-function]
// CHECK-NEXT: return work_group_scan_inclusive_add(v);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+8]]:12: note: {{.*}}
// CHECK-NEXT: return work_group_scan_inclusive_add(v);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}group_function.cl:[[@LINE+11]]:33: note: reached through this call to 'running_total'
// CHECK-NEXT: out[get_global_id(0)] = running_total(1);
// CHECK-NEXT: ^
static int running_total(int v)
{
    return work_group_scan_inclusive_add(v);
}

__kernel void via_helper(__global const int *in, __global int *out)
{
    if (in[get_global_id(0)] > 3)
        out[get_global_id(0)] = running_total(1);
}
// CHECK-NEXT: nplus1gen: 5 errors; no files written
// CHECK-NOT:  {{.}}
