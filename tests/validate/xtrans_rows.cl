/* A buffer of arrays, in the shape of darktable's X-Trans demosaic kernels
 * (`__global const unsigned char (*const xtrans)[6]`): a 6x6 sensor pattern indexed by row
 * and column. */
__kernel void xtrans_gain(__global const float (*xtrans)[6], __global const float *in,
                          __global float *out, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    if (in[i] > 0.5f)
        out[i] = in[i] * xtrans[i % 6][(i / 6) % 6];
    else
        out[i] = 0.0f;
}
