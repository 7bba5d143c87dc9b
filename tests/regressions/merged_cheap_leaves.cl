// RUN: nplus1gen %s --validate --global 10000 --strategy atomic,aggregated,ordered,chunked,tile --dispatch host -q
// RUN: nplus1gen %s --validate --global 10000 --strategy atomic,aggregated,ordered,chunked,tile --dispatch fused -q
// EXPECT: match all-leaves
/* Regression: three cheap leaves merged into one kernel beside an expensive one;
 * the aggregated scatter left its bucket offsets at zero on POCL 3.1 (a
 * strided per-leaf loop miscompiled). Found by the consumer test. */
__kernel void k(__global const int *in, __global float *out)
{
    int gid = get_global_id(0);
    int v = in[gid];
    if (v % 4 == 0) {
        out[gid] = 1.0f;
    } else if (v % 4 == 1) {
        out[gid] = 2.0f;
    } else if (v % 4 == 2) {
        out[gid] = 3.0f;
    } else {
        float a = (float)v;
        for (int i = 0; i < 200; i++)
            a = sin(a) * 1.5f + 0.1f;
        out[gid] = a;
    }
}
