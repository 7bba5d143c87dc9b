/* Four kernels for --skip-refused: one splits, one is refused (a barrier), one is
 * refused (it takes a local id), one is cheap (split: never). */
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

__kernel void with_local_id(__global int *a)
{
    const int i = get_global_id(0);
    if (a[i] > 3)
        a[i] = get_local_id(0);
}

__kernel void cheap(__global const int *in, __global int *out)
{
    int gid = get_global_id(0);
    if (in[gid] > 0)
        out[gid] = 1;
    else
        out[gid] = 2;
}
