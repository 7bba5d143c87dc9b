// RUN: nplus1gen %s --validate --global 4096 --skip-refused --strategy atomic,tile --dispatch auto,host -q
// EXPECT: match all-leaves
/* --validate with several strategy/dispatch pairs analyses the file once and plans
 * that one analysis per pair: the pairs after the first see the same kernels as the
 * first, so --skip-refused's refused kernel stays left out in every pair (when each
 * pair analysed the file again, the second pair re-analysed it without the skip list
 * and refused the barrier kernel: "the input cannot be planned"). */
__kernel void heavy(__global const int *in, __global float *out)
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

__kernel void with_barrier(__global int *a)
{
    const int i = get_global_id(0);
    a[i] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (a[i ^ 1] > 3)
        a[i] = 2;
}
