// The original reads out of bounds: values[idx[i] * 1000000] lies gigabytes past
// its end, so the run dies. Validation must blame the inputs, not the generated set.
__kernel void gather(__global const int *idx, __global const float *values,
                     __global float *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (idx[i] > 500)
        out[i] = values[idx[i] * 1000000];
    else
        out[i] = 1.0f;
}
