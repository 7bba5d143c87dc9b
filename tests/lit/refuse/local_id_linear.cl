// Rule nplus1-local-id, the one use kept: get_group_id(d) * get_local_size(d) +
// get_local_id(d), the original's global id less its offset, which the generated
// kernels compute from the global id they carry. Each refused kernel here is a near
// form of it that is not that sum: a constant block size with no reqd_work_group_size
// (Rodinia's srad writes bx * NUMBER_THREADS + tx so), a constant that is not the
// reqd_work_group_size, a part also read alone, dimensions that differ, a part cast
// to 16 bits, a part assigned twice. The last kernel is kept: its constant is its
// reqd_work_group_size, and --check says it computes the sum.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
// RUN: %nplus1gen %s --check -k block_constant | %FileCheck %s --check-prefix=KEPT --match-full-lines
// KEPT:      kernel block_constant: can be split: {{.*}}
// KEPT:        local ids: 1 sum get_group_id(d) * get_local_size(d) + get_local_id(d) (the first at line 71), computed in the generated kernels from the original's global id less its offset

#define BLOCK 64
__kernel void near_miss(__global const float *in, __global float *out, int n)
{
    int bx = get_group_id(0);
    int tx = get_local_id(0);
    int i = bx * BLOCK + tx;
    if (i < n && in[i] > 0.0f)
        out[i] = in[i];
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void other_size(__global const float *in, __global float *out, int n)
{
    int i = get_group_id(0) * 32 + get_local_id(0);
    if (i < n && in[i] > 0.0f)
        out[i] = in[i];
}

__kernel void part_read_alone(__global const float *in, __global float *out, int n)
{
    int tx = get_local_id(0);
    int i = get_group_id(0) * get_local_size(0) + tx;
    if (tx == 0 && in[i] > 0.0f)
        out[i] = in[i];
}

__kernel void mixed_dims(__global const float *in, __global float *out, int n)
{
    int i = get_group_id(0) * get_local_size(1) + get_local_id(0);
    if (in[i] > 0.0f)
        out[i] = in[i];
}

__kernel void narrowed(__global const float *in, __global float *out, int n)
{
    int i = (ushort)get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (in[i] > 0.0f)
        out[i] = in[i];
}

__kernel void set_twice(__global const float *in, __global float *out, int n)
{
    int bx = get_group_id(0);
    if (n > 4)
        bx = 0;
    int i = bx * get_local_size(0) + get_local_id(0);
    if (in[i] > 0.0f)
        out[i] = in[i];
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void block_constant(__global const float *in, __global float *out, int n)
{
    const uint bx = get_group_id(0), tx = get_local_id(0);
    const uint i = tx + BLOCK * bx;
    if (i < n && in[i] > 0.0f)
        out[i] = in[i];
}

// CHECK:      {{.*}}local_id_linear.cl:20:14: error: kernel 'near_miss' calls 'get_group_id' [nplus1-local-id]
// CHECK-NEXT: int bx = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:20:14: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: int bx = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:22:13: note: a group id times 64 is the original's global id only when 64 is the local size in dimension 0, which nplus1gen cannot know: write get_local_size(0) there, or give the kernel __attribute__((reqd_work_group_size(...))) with 64 in dimension 0
// CHECK-NEXT: int i = bx * BLOCK + tx;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:20:14: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) (the original's global id less its offset, which the generated kernels compute), each part a call or a variable its initialiser sets once, or in a value nobody reads
// CHECK-NEXT: int bx = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:30:13: error: kernel 'other_size' calls 'get_group_id' [nplus1-local-id]
// CHECK-NEXT: int i = get_group_id(0) * 32 + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:30:13: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: int i = get_group_id(0) * 32 + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:30:13: note: a group id times 32 is not the original's global id: the kernel's reqd_work_group_size is 64 in dimension 0
// CHECK-NEXT: int i = get_group_id(0) * 32 + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:30:13: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) (the original's global id less its offset, which the generated kernels compute), each part a call or a variable its initialiser sets once, or in a value nobody reads
// CHECK-NEXT: int i = get_group_id(0) * 32 + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:37:14: error: kernel 'part_read_alone' calls 'get_local_id' [nplus1-local-id]
// CHECK-NEXT: int tx = get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:37:14: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: int tx = get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:37:14: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) (the original's global id less its offset, which the generated kernels compute), each part a call or a variable its initialiser sets once, or in a value nobody reads
// CHECK-NEXT: int tx = get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:45:13: error: kernel 'mixed_dims' calls 'get_group_id' [nplus1-local-id]
// CHECK-NEXT: int i = get_group_id(0) * get_local_size(1) + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:45:13: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: int i = get_group_id(0) * get_local_size(1) + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:45:13: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) (the original's global id less its offset, which the generated kernels compute), each part a call or a variable its initialiser sets once, or in a value nobody reads
// CHECK-NEXT: int i = get_group_id(0) * get_local_size(1) + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:52:21: error: kernel 'narrowed' calls 'get_group_id' [nplus1-local-id]
// CHECK-NEXT: int i = (ushort)get_group_id(0) * get_local_size(0) + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:52:21: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: int i = (ushort)get_group_id(0) * get_local_size(0) + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:52:21: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) (the original's global id less its offset, which the generated kernels compute), each part a call or a variable its initialiser sets once, or in a value nobody reads
// CHECK-NEXT: int i = (ushort)get_group_id(0) * get_local_size(0) + get_local_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:59:14: error: kernel 'set_twice' calls 'get_group_id' [nplus1-local-id]
// CHECK-NEXT: int bx = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:59:14: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
// CHECK-NEXT: int bx = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_id_linear.cl:59:14: note: nplus1gen keeps a local id only in get_group_id(d) * get_local_size(d) + get_local_id(d) (the original's global id less its offset, which the generated kernels compute), each part a call or a variable its initialiser sets once, or in a value nobody reads
// CHECK-NEXT: int bx = get_group_id(0);
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 6 errors; no files written
// CHECK-NEXT: nplus1gen: note: 1 of the 7 kernels with a decision can be split, with 'split: never' (the driver would run the original); -k NAME writes the set of the kernels it names
// CHECK-NOT:  {{.}}
