// Rule nplus1-unsupported-arg: a kernel argument the generated driver and
// the validation cannot pass: images, samplers, structs by value, and
// pointers without an element size. (Enums pass as their integer type.)
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
typedef struct { float a; int b; } pair;

// CHECK:      {{.*}}unsupported_arg.cl:[[@LINE+6]]:43: error: parameter 'src' has type '__read_only image2d_t': only buffers, scalars and vectors are supported [nplus1-unsupported-arg]
// CHECK-NEXT: __kernel void image(__read_only image2d_t src, __global float *out)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+3]]:43: note: the generated driver passes __global and __constant pointers as cl_mem and scalars and vectors by value; images, samplers, pipes, events and structs passed by value have no host form there yet
// CHECK-NEXT: __kernel void image(__read_only image2d_t src, __global float *out)
// CHECK-NEXT: ^
__kernel void image(__read_only image2d_t src, __global float *out)
{
    const int i = get_global_id(0);
    if (i > 3)
        out[i] = 1.0f;
}

// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+6]]:33: error: parameter 's' has type 'sampler_t': only buffers, scalars and vectors are supported [nplus1-unsupported-arg]
// CHECK-NEXT: __kernel void sampler(sampler_t s, __global float *out)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+3]]:33: note: the generated driver passes {{.*}}
// CHECK-NEXT: __kernel void sampler(sampler_t s, __global float *out)
// CHECK-NEXT: ^
__kernel void sampler(sampler_t s, __global float *out)
{
    const int i = get_global_id(0);
    if (i > 3)
        out[i] = 1.0f;
}

// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+6]]:35: error: parameter 'p' has type 'const pair': only buffers, scalars and vectors are supported [nplus1-unsupported-arg]
// CHECK-NEXT: __kernel void by_value(const pair p, __global float *out)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported_arg.cl:[[@LINE+3]]:35: note: the generated driver passes {{.*}}
// CHECK-NEXT: __kernel void by_value(const pair p, __global float *out)
// CHECK-NEXT: ^
__kernel void by_value(const pair p, __global float *out)
{
    const int i = get_global_id(0);
    if (i > 3)
        out[i] = p.a;
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
// CHECK-NEXT: nplus1gen: 4 errors; no files written
// CHECK-NOT:  {{.}}
