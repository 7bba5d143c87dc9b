// Rule nplus1-memory-order and strict aliasing: the shapes C's effective-type
// rule does not keep apart stay refused: the same scalar type, int and uint (a
// signed and an unsigned type may alias), a char buffer (it may access any
// object), fields of a union, a field of a struct that holds the other
// struct, a whole struct with a member of the stored type, and a vector buffer. (tests/diff/legal/strict_aliasing.cl: the shapes that split.)
// --split always: the rule of the multi-kernel strategies. Under --split auto a kernel
// that only a prologue statement stops splits with the context tile alone
// (../auto_tile_context_candidate.test).
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --split always -o %t 2>&1 | grep -E 'error:|note:' | sed 's/^.*memory_order_types.cl://' | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --split always -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
typedef union { float f; int n; } U;
typedef struct { float y; } Inner;
typedef struct { Inner in; float f; } Outer;

// CHECK:      [[@LINE+5]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+3]]:5: note: this write runs before the condition; {{.*}}
__kernel void same_type(__global float *a, __global float *b, __global float *out)
{
    a[get_global_id(0)] = 1.f;
    if (b[get_global_id(0)] > 0.5f) out[0] = 1.f; else out[1] = 2.f;
}

// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: [[@LINE+5]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+3]]:5: note: this write runs before the condition; {{.*}}
__kernel void signed_unsigned(__global int *a, __global uint *b, __global float *out)
{
    a[get_global_id(0)] = 1;
    if (b[get_global_id(0)] > 5) out[0] = 1.f; else out[1] = 2.f;
}

// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: [[@LINE+5]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+3]]:5: note: this write runs before the condition; {{.*}}
__kernel void char_buffer(__global uchar *bytes, __global float *b, __global float *out)
{
    bytes[get_global_id(0)] = 0;
    if (b[get_global_id(0)] > 0.5f) out[0] = 1.f; else out[1] = 2.f;
}

// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: [[@LINE+5]]:29: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+3]]:25: note: this write runs before the condition; {{.*}}
__kernel void union_fields(__global U *u, __global U *v, __global float *out)
{
    u[get_global_id(0)].n = 1;
    if (v[get_global_id(0)].f > 0.5f) out[0] = 1.f; else out[1] = 2.f;
}

// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: [[@LINE+5]]:29: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+3]]:25: note: this write runs before the condition; {{.*}}
__kernel void nested_struct(__global Outer *o, __global Inner *p, __global float *out)
{
    o[get_global_id(0)].f = 1.f;
    if (p[get_global_id(0)].y > 0.5f) out[0] = 1.f; else out[1] = 2.f;
}

// A whole struct read (bullet3's rayCastKernel copies `Body body = bodies[b]` after
// storing hitResults[i].m_hitFraction): C lets an aggregate with a float member read a
// float object. Two items, bodies and hitResults one buffer: item 0 stores 1.0f at byte
// 0, which is bodies[0].pos.x; the original reads 1.0f there, the classifier the old
// value, and the condition on pos.x takes another branch.
typedef struct { float4 pos; float inv_mass; } Body;
typedef struct { float fraction; int result0; } Hit;
// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: [[@LINE+6]]:17: error: a condition reads memory after the kernel wrote memory, through this statement of its slice (the classifier runs it to compute the condition) [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+4]]:13: note: this write runs before the condition; {{.*}}
__kernel void whole_struct(__global Hit *hits, __global Body *bodies, __global float *out)
{
    const int i = get_global_id(0);
    hits[i].fraction = 1.f;
    Body body = bodies[0];
    if (body.pos.x > 0.5f) out[i] = 1.f; else out[i] = 2.f;
}

// A vector buffer after a store through its element type, outside struct fields: clang's
// alias analysis treats a vector like char, and OpenCL code reads float buffers as float4.
// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: [[@LINE+5]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
// CHECK-NEXT: [[@LINE+3]]:5: note: this write runs before the condition; {{.*}}
__kernel void vector_buffer(__global float *a, __global const float4 *v, __global float *out)
{
    a[get_global_id(0)] = 1.f;
    if (v[get_global_id(0)].x > 0.5f) out[0] = 1.f; else out[1] = 2.f;
}
// The last refusal's note on --strategy tile (issue 18: contexts).
// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
