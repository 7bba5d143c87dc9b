// Rule nplus1-memory-order: a condition (or its slice) reads memory after
// the kernel wrote memory. The classifier runs before every leaf kernel, so
// it would read the value from before the write. A 'restrict' or
// '__constant' read pointer cannot alias the write, and passes; so do a
// store on a path that returns before the condition, and a store to another
// field of the struct the condition reads.
// --split always: the rule of the multi-kernel strategies. Under --split auto a kernel
// that only a prologue statement stops splits with the context tile alone
// (../auto_tile_context_candidate.test).
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --split always -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --split always -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}memory_order.cl:[[@LINE+10]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: if (buf[i] > 1.0f)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order.cl:[[@LINE+6]]:5: note: this write runs before the condition; the classifier runs before any leaf kernel and would read the old value (declare the read pointer 'restrict' or '__constant' if it never aliases the written one)
// CHECK-NEXT: buf[i] = 2.0f * buf[i];
// CHECK-NEXT: ^
__kernel void direct(__global float *buf, __global float *out)
{
    const int i = get_global_id(0);
    buf[i] = 2.0f * buf[i];
    if (buf[i] > 1.0f)
        out[i] = 1.0f;
}

// Through a helper: the read is in the slice, the write in the helper.
// CHECK-NEXT: {{.*}}memory_order.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order.cl:[[@LINE+18]]:21: error: a condition reads memory after the kernel wrote memory, through this statement of its slice (the classifier runs it to compute the condition) [nplus1-memory-order]
// CHECK-NEXT: const float v = buf[i];
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order.cl:[[@LINE+8]]:5: note: this write runs before the condition; {{.*}}
// CHECK-NEXT: b[i] = v;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order.cl:[[@LINE+11]]:5: note: reached through this call
// CHECK-NEXT: stash(buf, i, 0.5f);
// CHECK-NEXT: ^
static void stash(__global float *b, int i, float v)
{
    b[i] = v;
}

__kernel void via_helper(__global float *buf, __global float *out)
{
    const int i = get_global_id(0);
    stash(buf, i, 0.5f);
    const float v = buf[i];
    if (v > 1.0f)
        out[i] = 1.0f;
}

// No diagnostic: the read pointer is restrict.
__kernel void restricted(__global const float *restrict in, __global float *out)
{
    const int i = get_global_id(0);
    out[i] = 0.0f;
    if (in[i] > 0.5f)
        out[i] = 1.0f;
}

// An address is not a store: the note points at the store through the pointer.
// CHECK-NEXT: {{.*}}memory_order.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order.cl:[[@LINE+11]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: if (grid[i] > 0.25f)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}memory_order.cl:[[@LINE+7]]:5: note: this write runs before the condition; {{.*}}
// CHECK-NEXT: *cell = 0.5f * (*cell);
// CHECK-NEXT: ^
__kernel void relax(__global float *grid, __global float *out)
{
    const int i = get_global_id(0);
    __global float *cell = &grid[i];
    *cell = 0.5f * (*cell);
    if (grid[i] > 0.25f)
        out[i] = 1.0f;
}

// No diagnostic: the store is on a path that returns before the condition
// (the masked voxel writes zeros and returns).
__kernel void masked(__global const int *mask, __global float *vox, __global float *out)
{
    const int i = get_global_id(0);
    if (mask[i] == 0) {
        vox[i] = 0.0f;
        return;
    }
    if (vox[i] > 0.5f)
        out[i] = 1.0f;
    else
        out[i] = 0.0f;
}

// No diagnostic: the store writes field 'v', the condition reads field 'kind'.
typedef struct particle {
    float v;
    int kind;
} particle;

__kernel void fields(__global particle *p, __global float *out)
{
    const int i = get_global_id(0);
    p[i].v = 0.0f;
    if (p[i].kind > 2)
        out[i] = 1.0f;
}
// CHECK-NEXT: {{.*}}memory_order.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 3 errors; no files written
// CHECK-NEXT: nplus1gen: note: 3 of the 6 kernels with a decision can be split; --skip-refused writes their set and leaves the 3 refused ones out
// CHECK-NOT:  {{.}}
