// RUN: nplus1gen %s --validate --global 10000 --strategy atomic,aggregated,ordered,chunked,tile --dispatch host -q
// RUN: nplus1gen %s --validate --global 10000 --strategy atomic,aggregated,ordered,chunked,tile --dispatch fused -q
// EXPECT: match all-leaves
/* Regression: two leaf kernels; the aggregated scatter wrote no bucket on
 * POCL 3.1 (same loop as merged_cheap_leaves.cl). */
__kernel void k(__global const int *in, __global float *out)
{
    int gid = get_global_id(0);
    int v = in[gid];
    if (v % 4 == 3) {
        float a = (float)v;
        for (int i = 0; i < 200; i++)
            a = sin(a) * 1.5f + 0.1f;
        out[gid] = a;
    } else {
        float a = (float)v;
        for (int i = 0; i < 100; i++)
            a = cos(a) * 1.5f + 0.1f;
        out[gid] = a;
    }
}
