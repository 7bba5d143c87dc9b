// A parameter list written by one macro (hashcat's KERN_ATTR): the generated kernels
// declare the parameters clang expanded, once each, not the macro call once per
// parameter. A parameter whose text is its own keeps it as written.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q
// RUN: %strip %t/macro_parameter_list.nplus1.cl | sed -n '/^.. ==== kernel k/,$p' > %t/set.cl
// RUN: %FileCheck %s --input-file %t/set.cl

// CHECK:      static int k__nplus1_classify(const __global float *in, __global float *out, const unsigned int n, __global int *restrict extra, const nplus1_wi_t nplus1_wi)
// CHECK:      void k__nplus1_leaf0(const __global float *in, __global float *out, const unsigned int n, __global int *restrict extra,
#define KERN_ATTR(T) __global const T *in, __global T *out, const unsigned n
__kernel void k(KERN_ATTR(float), __global int *restrict extra)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    if (in[i] > 0.5f)
        out[i] = in[i] * 2.0f;
    else
        extra[i] = 1;
}
