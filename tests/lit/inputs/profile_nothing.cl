/* tests/lit/profile_errors.test: no decision and no loop, nothing to profile. */
__kernel void copy(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = x[i];
}
