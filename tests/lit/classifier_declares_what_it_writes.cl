// The classifier declares every variable its conditions and its slice write: 'v',
// declared alone and assigned in the condition, and 't', written beside 'hits' by a
// branch statement whose 'hits' a later condition reads.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --no-line
// RUN: %strip %t/classifier_declares_what_it_writes.nplus1.cl | sed -n '/^.. ==== kernel assigned/,$p' > %t/set.cl
// RUN: %FileCheck %s --input-file %t/set.cl

// CHECK:      static int assigned__nplus1_classify(
// CHECK-NEXT: {
// CHECK-NEXT:     const int i = get_global_id(0);
// CHECK-NEXT:     int v;
// CHECK-NEXT:     if ((v = in[i]) > 3) {
// CHECK:      static int branch_writes__nplus1_classify(
// CHECK-NEXT: {
// CHECK-NEXT:     const int i = get_global_id(0);
// CHECK-NEXT:     float t = 0.0f;
// CHECK-NEXT:     int hits = 0;
// CHECK-NEXT:     if (in[i] > 3) {
// CHECK-NEXT:         t = in[i] * 2.0f, hits = 1;
__kernel void assigned(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    int v;
    if ((v = in[i]) > 3)
        out[i] = v * 2;
    else
        out[i] = -v;
}

__kernel void branch_writes(__global const int *in, __global float *out)
{
    const int i = get_global_id(0);
    float t = 0.0f;
    int hits = 0;
    if (in[i] > 3)
        t = in[i] * 2.0f, hits = 1;
    if (hits > 0)
        out[i] = t + 1.0f;
    else
        out[i] = t - 1.0f;
}
