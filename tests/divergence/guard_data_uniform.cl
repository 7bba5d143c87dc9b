/*
 * A kernel with the three classes of decision: an affine bounds guard, a data
 * decision (on a loaded value), and a uniform one (on a scalar argument).
 * The divergence analysis does not change what the generated set computes:
 * validated against the original under every strategy.
 */
__kernel void blend(__global const float *in, __global float *out, const int n,
                    const int mode)
{
    const int gid = get_global_id(0);
    if (gid >= n)
        return;
    const float v = in[gid];
    float r;
    if (v > 0.25f) {
        r = sqrt(v) * 3.0f;
    } else {
        r = v * v - 1.0f;
    }
    if (mode == 1) {
        r = -r;
    }
    out[gid] = r;
}
