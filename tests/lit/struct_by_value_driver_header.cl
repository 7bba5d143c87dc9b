// A struct passed by value: the driver's header declares its host struct in
// cl_ types with explicit padding members where the device leaves holes (the
// offsets are libclang's), checks its size at compile time, and enqueue takes
// a pointer to it and its size. A struct two kernels share is declared once.
// RUN: rm -rf %t && %nplus1gen %s -o %t -q
// RUN: %strip %t/struct_by_value_driver_header_nplus1.h | %FileCheck %s --match-full-lines
// RUN: %strip %t/struct_by_value_driver_header_nplus1.c | %FileCheck %s --check-prefix=ARGS --match-full-lines
typedef struct {
    float gain;
    int mode;
    float4 tint;
} Tone;

struct Inner { float2 uv; short s[3]; };
typedef struct Outer {
    char c;
    struct Inner in;
    double d;
    union { int i; float f; } bits;
    float w[3];
} Outer;

// CHECK:      /* p of tone, passed by value: the device's layout (offsets, padding) in cl_ types. */
// CHECK-NEXT: struct nplus1_Tone {
// CHECK-NEXT:     cl_float gain;
// CHECK-NEXT:     cl_int mode;
// CHECK-NEXT:     cl_uchar nplus1_pad0[8];
// CHECK-NEXT:     cl_float4 tint;
// CHECK-NEXT: };
// CHECK-NEXT: #ifdef __cplusplus
// CHECK-NEXT: static_assert(sizeof(struct nplus1_Tone) == 32, "nplus1_Tone: not the device's layout");
// CHECK-NEXT: #else
// CHECK-NEXT: _Static_assert(sizeof(struct nplus1_Tone) == 32, "nplus1_Tone: not the device's layout");
// CHECK-NEXT: #endif
// CHECK:      /* o of tone, passed by value: the device's layout (offsets, padding) in cl_ types. */
// CHECK-NEXT: struct nplus1_Outer {
// CHECK-NEXT:     cl_char c;
// CHECK-NEXT:     cl_uchar nplus1_pad0[7];
// CHECK-NEXT:     struct {
// CHECK-NEXT:         cl_float2 uv;
// CHECK-NEXT:         cl_short s[3];
// CHECK-NEXT:         cl_uchar nplus1_pad1[2];
// CHECK-NEXT:     } in;
// CHECK-NEXT:     cl_double d;
// CHECK-NEXT:     union {
// CHECK-NEXT:         cl_int i;
// CHECK-NEXT:         cl_float f;
// CHECK-NEXT:     } bits;
// CHECK-NEXT:     cl_float w[3];
// CHECK-NEXT: };
// CHECK-NEXT: #ifdef __cplusplus
// CHECK-NEXT: static_assert(sizeof(struct nplus1_Outer) == 48, "nplus1_Outer: not the device's layout");
// CHECK:      cl_int nplus1_tone_enqueue(nplus1_tone *s, cl_command_queue q, cl_uint work_dim,
// CHECK-NEXT:                           const size_t *global_offset, const size_t *global_size,
// CHECK-NEXT:                           const size_t *local_size,
// CHECK-NEXT:                           cl_mem out,
// CHECK-NEXT:                           const struct nplus1_Tone *p, size_t p_size,
// CHECK-NEXT:                           const struct nplus1_Outer *o, size_t o_size,
// CHECK-NEXT:                           cl_int n);
__kernel void tone(__global float *out, Tone p, Outer o, const int n)
{
    const int i = get_global_id(0);
    if (out[i] > p.gain)
        out[i] = p.gain * o.in.uv.x + o.w[1];
    else
        out[i] = o.d + p.tint.y + o.bits.f;
}

typedef struct { int lo, hi; } Box;

// Outer is declared once.
// CHECK-NOT:  struct nplus1_Outer {
// CHECK:      /* box of scale, passed by value: the device's layout (offsets, padding) in cl_ types. */
// CHECK-NEXT: struct nplus1_Box {
// CHECK-NEXT:     cl_int lo;
// CHECK-NEXT:     cl_int hi;
// CHECK-NEXT: };
// CHECK:                                const struct nplus1_Outer *o, size_t o_size,
// CHECK-NEXT:                           const struct nplus1_Box *box, size_t box_size);
__kernel void scale(__global float *out, Outer o, const Box box)
{
    const int i = get_global_id(0);
    if (out[i] > o.d)
        out[i] = box.lo;
}

// ARGS:      static const nplus1rt_arg nplus1_tone_args[] = {
// ARGS-NEXT:     {"out", "float *", NPLUS1RT_ARG_BUFFER, 1, 0, NPLUS1RT_F32, 1, 4},
// ARGS-NEXT:     {"p", "Tone", NPLUS1RT_ARG_VALUE, 0, 0, NPLUS1RT_U8, 32, 32},
// ARGS-NEXT:     {"o", "struct Outer", NPLUS1RT_ARG_VALUE, 0, 0, NPLUS1RT_U8, 48, 48},
// ARGS:          {p_size, p},
// ARGS-NEXT:         {o_size, o},
