/* One file, two kernels: 'heavy' splits, 'with_barrier' is refused (nplus1-barrier).
 * nplus1_generate(... SKIP_REFUSED) writes heavy's set and leaves with_barrier out. */
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
