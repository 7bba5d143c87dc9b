// Issue 18 review: a context that was wrong (carried a dangling pointer, left a
// vstore'd array behind) or did not compile under --strategy tile. Now correct.
__kernel void k(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float w[4];
    vstore4((float4)(in[i], 1.0f, 2.0f, 3.0f), 0, w);
    if (in[i] > 0.5f) {
        out[i] = w[0] + w[1];
    } else {
        out[i] = w[0] - w[3];
    }
}
