// A masking kernel: the work happens only where mask[i] == 1.0f, which random
// floats in [0, 1) never are. Validated with defaults it is inconclusive;
// --arg mask=choice:0,1 reaches the working leaf.
__kernel void masked_scale(__global const float *mask, __global const float *x,
                           __global float *y, float gain)
{
    int i = get_global_id(0);
    if (mask[i] == 1.0f) {
        float v = x[i] * gain;
        y[i] = v * v + 1.0f;
    }
}
