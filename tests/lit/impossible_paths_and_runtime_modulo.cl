// A leaf whose path contradicts a constant assigned on it is dropped, and
// --report says why; `i % m` with m an argument is data (m can be 2 at run
// time), `i % 64` stays affine.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --report > %t/report.txt
// RUN: %FileCheck %s --input-file %t/report.txt
// RUN: %FileCheck %s --check-prefix=MANIFEST --input-file %t/impossible_paths_and_runtime_modulo.nplus1.json

// CHECK:      leaf 0 dropped: impossible path (k = 1 on line 23, k > 5 on line 26)  lines 27-27
// CHECK-NEXT:   when (sel[i] & 3) == 0 && (k > 5)
// CHECK:      leaf 1 -> dead__nplus1_leaf0
// CHECK:      leaf 2 -> dead__nplus1_leaf1
// CHECK:      leaf 3 dropped: impossible path (k = 7 on line 24, !(k > 5) on line 26)  lines 29-29
// CHECK:      divergence: data: 'i % m' repeats with a period known only at run time, which may be shorter than a SIMD group (32 items)  [line 36: if (i % m == 0)]
// CHECK:      divergence: affine: {{.*}}[line 38: if (i % 64 == 0)]
// MANIFEST: {"id": 0, "kernel": null, "empty": true, "condition": "(sel[i] & 3) == 0 && (k > 5)"
// MANIFEST: {"id": 3, "kernel": null, "empty": true, "condition": "(sel[i] & 3) matches no case && !(k > 5)"
__kernel void dead(__global const int *sel, __global float *out)
{
    const int i = get_global_id(0);
    int k = 0;
    switch (sel[i] & 3) {
    case 0: k = 1; break;
    default: k = 7; break;
    }
    if (k > 5)
        out[i] = 1.0f;
    else
        out[i] = 2.0f;
}

__kernel void modulo(__global const float *in, __global float *out, int m)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (i % m == 0)
        v *= 2.0f;
    if (i % 64 == 0)
        v += 1.0f;
    if (v > 0.5f)
        out[i] = v;
}
