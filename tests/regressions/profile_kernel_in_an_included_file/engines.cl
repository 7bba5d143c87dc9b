/* Kernels kept in a file another file includes (profile_of_a_kernel_in_an_included_file.cl). */
__kernel void average(__global const float *in, __global float *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (uint k = 0; k < 8u; k++)
        s += in[(i + k) % n];
    out[i] = s * 0.125f;
}
