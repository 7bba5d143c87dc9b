// The cost model merges cheap leaves into one kernel that runs the original code only while
// their costs together stay under the cheap-leaf bar (cheapest first): here 8 + 85 of the
// three cheap leaves (less the prologue) share a kernel, and the third (215) gets its own,
// as 8 + 85 + 215 would pass 300. The tile beside the split regroups by these kernels: a
// merged group diverges inside it (narrowphase's random mix: 1.60x with its three cheap
// leaves merged, 1.80x with two; docs/performance.md, session 10).
// RUN: %nplus1gen %s --report | %FileCheck %s
// CHECK: merged: 2 cheap leaves share k__nplus1_leaf2, which runs the original code
// CHECK: leaf 0 -> k__nplus1_leaf2
// CHECK: leaf 1 -> k__nplus1_leaf2
// CHECK: leaf 2 -> k__nplus1_leaf0
// CHECK: leaf 3 -> k__nplus1_leaf1
__kernel void k(__global const int *in, __global float *out)
{
    int gid = get_global_id(0);
    int v = in[gid];
    float a = (float)v;
    if (v % 4 == 0) {
        out[gid] = a * 2.0f;
    } else if (v % 4 == 1) {
        for (int i = 0; i < 6; i++)
            a = sin(a) * 1.5f + 0.1f;
        out[gid] = a;
    } else if (v % 4 == 2) {
        for (int i = 0; i < 16; i++)
            a = sin(a) * 1.5f + 0.1f;
        out[gid] = a;
    } else {
        for (int i = 0; i < 200; i++)
            a = sin(a) * 1.5f + 0.1f;
        out[gid] = a;
    }
}
