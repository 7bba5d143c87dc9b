// Rule nplus1-unsupported-arg: a kernel argument the generated driver and
// the validation cannot pass: structs by value the host cannot lay out (packed)
// or whose type is declared in the parameter list, and pointers without an
// element size. (Enums pass as their integer type, structs by value as a host
// struct.)
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
// A packed struct by value: the host's cl_float sits on a 4-byte boundary, the
// device's at offset 1.
typedef struct __attribute__((packed)) { char c; float x; } packed_t;

// CHECK:      {{.*}}unsupported_arg.cl:[[@LINE+6]]:31: error: parameter 'p' is a struct passed by value that the host cannot lay out as the device does: field 'x' [nplus1-unsupported-arg]
// CHECK-NEXT: __kernel void packed(packed_t p, __global float *out)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported_arg.cl:{{[0-9]+}}:56: note: the field is not aligned on the host as on the device (a packed struct?)
// CHECK-NEXT: typedef struct __attribute__((packed)) { char c; float x; } packed_t;
// CHECK-NEXT: ^
__kernel void packed(packed_t p, __global float *out)
{
    const int i = get_global_id(0);
    if (i > 3)
        out[i] = p.x;
}

// A struct declared in the parameter list: each generated kernel and helper
// would declare a type of its own.
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+6]]:52: error: parameter 'box' has a struct type declared in the parameter list [nplus1-unsupported-arg]
// CHECK-NEXT: __kernel void inline_struct(struct { int lo, hi; } box, __global float *out)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+3]]:52: note: the generated kernels pass the argument on to helper functions, which need one named type: declare it before the kernel (typedef struct { ... } Name;)
// CHECK-NEXT: __kernel void inline_struct(struct { int lo, hi; } box, __global float *out)
// CHECK-NEXT: ^
__kernel void inline_struct(struct { int lo, hi; } box, __global float *out)
{
    const int i = get_global_id(0);
    if (i > box.lo)
        out[i] = 1.0f;
}

// A pointer to a struct declared but never defined (a '__global void *' is a
// byte buffer and passes).
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+6]]:54: error: parameter 'raw' points to a type of unknown size [nplus1-unsupported-arg]
// CHECK-NEXT: __kernel void opaque_pointer(__global struct opaque *raw, __global float *out)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+3]]:54: note: the generated driver and the validation need the element size of every buffer: give the pointer an element type (for example __global uchar *)
// CHECK-NEXT: __kernel void opaque_pointer(__global struct opaque *raw, __global float *out)
// CHECK-NEXT: ^
__kernel void opaque_pointer(__global struct opaque *raw, __global float *out)
{
    const int i = get_global_id(0);
    if (i > 3)
        out[i] = 1.0f;
}
// CHECK-NEXT: nplus1gen: 3 errors; no files written
// CHECK-NOT:  {{.}}
