/*
 * multi_kernel.cl - several kernels in one file; -k picks.
 *
 *   scale      no decision: left alone by default (and refused with -k)
 *   threshold  an if / else: 2 leaves
 *   quantize   a switch over a computed level with a default: 4 leaves
 * Without -k, nplus1gen transforms every kernel that has a decision
 * (threshold and quantize) and says which it skipped. With -k it
 * transforms just those named. Validate one with
 *   nplus1gen samples/multi_kernel.cl -k quantize --validate --global 16384
 * or both with
 *   nplus1gen samples/multi_kernel.cl --validate --global 16384
 */
static float level_value(int level)
{
    return (float)level / 3.0f;
}

__kernel void scale(__global float *data, const float factor)
{
    data[get_global_id(0)] *= factor;
}

__kernel void threshold(__global const float *in, __global int *mask, const float cut)
{
    const int i = get_global_id(0);
    if (in[i] > cut)
        mask[i] = 1;
    else
        mask[i] = -1;
}

__kernel void quantize(__global const float *in, __global float *out, __global int *level)
{
    const int i = get_global_id(0);
    const int q = (int)(in[i] * 5.0f);
    switch (q) {
    case 0:
        out[i] = 0.0f;
        level[i] = 0;
        break;
    case 1:
    case 2:
        out[i] = level_value(q);
        level[i] = q;
        break;
    case 3:
        out[i] = level_value(3) + 0.5f * (in[i] * 5.0f - 3.0f);
        level[i] = 3;
        break;
    default:
        out[i] = 1.0f;
        level[i] = 4;
    }
}
