/* A bounce loop that accumulates its radiance in global memory at every bounce and reads it
 * back at the next (as path tracers that keep a per-pixel buffer do): the loop kernel
 * regroups at the material switch at the top of the body, so an item may read on another
 * work-item what it wrote on the last, and the barrier that moves its context fences global
 * memory too. */
__kernel void radiance_each_bounce(__global const uchar *mat_of, __global float *radiance,
                                   __global uint *bounces, const int max_depth, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    radiance[i] = 0.0f;
    bounces[i] = 0u;
    float w = 1.0f;
    for (int d = 0; d < max_depth; d++) {
        switch (mat_of[(i * 31u + (uint)d * 17u) % n] & 3) {
        case 0: {
            float t = radiance[i] + w;
            for (int k = 0; k < 32; k++)
                t = sin(t) * 0.75f + cos(t * 0.25f);
            radiance[i] += w * t;
            break;
        }
        case 1:
            radiance[i] += 0.5f * w * radiance[i];
            break;
        default:
            radiance[i] += 0.1f * w;
            break;
        }
        atomic_inc(&bounces[i]);
        w *= 0.5f;
        if (radiance[i] > 64.0f)
            break;
    }
}
