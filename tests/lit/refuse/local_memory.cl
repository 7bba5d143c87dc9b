// Rule nplus1-local-memory: a __local variable or a __local argument. The
// leaf kernels re-form work-groups, so __local memory would be shared with
// other neighbours. (A helper cannot declare __local variables; one that
// takes a __local pointer is reached only from a kernel that has one.)
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

static float stage(__local float *tile, int i, float v)
{
    tile[i & 63] = v;
    return tile[(i + 1) & 63];
}

// CHECK:      {{.*}}local_memory.cl:[[@LINE+8]]:19: error: kernel 'variable' uses __local memory ('tile') [nplus1-local-memory]
// CHECK-NEXT: __local float tile[64];
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_memory.cl:[[@LINE+5]]:19: note: __local memory is shared by a work-group, and the leaf kernels re-form work-groups, so items would share it with different neighbours
// CHECK-NEXT: __local float tile[64];
// CHECK-NEXT: ^
__kernel void variable(__global const float *in, __global float *out)
{
    __local float tile[64];
    const int i = get_global_id(0);
    if (in[i] > 0.5f)
        out[i] = stage(tile, i, in[i]);
}

// CHECK-NEXT: {{.*}}local_memory.cl:[[@LINE+7]]:39: error: kernel 'argument' takes a __local argument [nplus1-local-memory]
// CHECK-NEXT: __local float *scratch)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}local_memory.cl:[[@LINE+4]]:39: note: __local memory is shared by a work-group, and the leaf kernels re-form work-groups, so items would share it with different neighbours
// CHECK-NEXT: __local float *scratch)
// CHECK-NEXT: ^
__kernel void argument(__global const float *in, __global float *out,
                       __local float *scratch)
{
    const int i = get_global_id(0);
    if (in[i] > 0.5f)
        out[i] = stage(scratch, i, in[i]);
}
// CHECK-NEXT: nplus1gen: 2 errors; no files written
// CHECK-NOT:  {{.}}
