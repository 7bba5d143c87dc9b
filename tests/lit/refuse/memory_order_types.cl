// Rule nplus1-memory-order and strict aliasing: the shapes C's effective-type
// rule does not keep apart stay refused: the same scalar type, int and uint (a
// signed and an unsigned type may alias), a char buffer (it may access any
// object), fields of a union, and a field of a struct that holds the other
// struct. (tests/diff/legal/strict_aliasing.cl: the shapes that split.)
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
// The last refusal's note on --strategy tile (issue 18: contexts).
// CHECK-NEXT: {{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
