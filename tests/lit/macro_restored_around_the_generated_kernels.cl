// The generated kernels follow the whole original text. A macro the kernel uses that the
// text #undefs or #defines again after the kernel is restored around the kernel's set: as
// it was at the kernel before it (a function-like macro over two lines kept as written, a
// macro it names too), as the text leaves it after it. A macro nobody changes (BIAS) and a
// kernel whose macros are not changed after it (harden) get no restore lines.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --no-line
// RUN: %strip %t/macro_restored_around_the_generated_kernels.nplus1.cl > %t/all.cl
// RUN: %FileCheck %s --input-file %t/all.cl
// RUN: %FileCheck %s --check-prefix=NONE --input-file %t/all.cl

// CHECK:      /* ==== kernel soften: 2 leaves, strategy {{[a-z]+}} ==== */
// CHECK-NEXT: /* Begin nplus1 macros of soften: as they were at its definition (the original text changes them after it) */
// CHECK-NEXT: #undef SOFT
// CHECK-NEXT: #define SOFT(v, l) ((l) + GAIN * \
// CHECK-NEXT:                     ((v) - (l)) * 0.5f)
// CHECK-NEXT: #undef GAIN
// CHECK-NEXT: #define GAIN 2.0f
// CHECK-NEXT: /* End nplus1 macros of soften */
// CHECK-NEXT: /* Begin nplus1 classifier of soften */
// CHECK:      /* Begin nplus1 macros after soften: as the original text leaves them */
// CHECK-NEXT: #undef SOFT
// CHECK-NEXT: #undef GAIN
// CHECK-NEXT: #define GAIN 3.0f
// CHECK-NEXT: /* End nplus1 macros after soften */
// CHECK-EMPTY:
// CHECK-NEXT: /* ==== kernel harden: 2 leaves, strategy {{[a-z]+}} ==== */
// CHECK-NEXT: /* Begin nplus1 classifier of harden */

// NONE-NOT: #undef BIAS
// NONE-NOT: macros of harden
// NONE-NOT: macros after harden
#define BIAS 0.25f
#define GAIN 2.0f
#define SOFT(v, l) ((l) + GAIN * \
                    ((v) - (l)) * 0.5f)
__kernel void soften(__global const float *in, __global float *out, const float lim)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (v > lim)
        v = SOFT(v, lim) + BIAS;
    out[i] = v;
}
#undef SOFT
#undef GAIN
#define GAIN 3.0f
__kernel void harden(__global const float *in, __global float *out, const float lim)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (v < lim)
        v = v * GAIN - BIAS;
    out[i] = v;
}
