// A loop whose only decision sits in a nested block and is uniform (the trip counter's
// parity): --report says why it is not regrouped in terms of uniformity, not which shapes
// the loop kernel takes.
// RUN: %nplus1gen %s --report | %FileCheck %s --implicit-check-not="the loop kernel regroups"
// CHECK: loop (tile): line [[@LINE+9]]: not regrouped: no decision inside the kernel's loops depends on data (the items of a SIMD group agree at each): nothing to regroup
__kernel void parity_steps(__global const float *in, __global float *out, const int steps)
{
    const uint i = get_global_id(0);
    if (in[i] > 0.5f) {
        out[i] = 1.0f;
        return;
    }
    float acc = in[i];
    for (int s = 0; s < steps; s++) {
        {
            if (s & 1)
                acc = sin(acc) * 2.0f;
            else
                acc += 1.0f;
        }
    }
    out[i] = acc;
}
