/* Two kernels: one with a top-level decision, one whose only decision sits in a loop
 * that cannot be regrouped (an if nested in an inner block, not at the body's top). */
__kernel void classes(__global const float *in, __global float *out)
{
    const uint i = get_global_id(0);
    if (in[i] > 0.5f)
        out[i] = sqrt(in[i]) * 3.0f;
    else
        out[i] = in[i] * in[i];
}

__kernel void nested_only(__global const int *a, __global int *out)
{
    const uint i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < 8; k++) {
        {
            if (a[i] > k)
                s += k;
        }
    }
    out[i] = s;
}

/* Its loop holds a barrier, which every kernel of a set refuses. */
__kernel void with_barrier(__global int *a)
{
    const uint i = get_global_id(0);
    for (int k = 0; k < 4; k++) {
        if (a[i] > k)
            a[i] -= 1;
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}
