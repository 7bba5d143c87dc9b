/* A step loop (`for`) with an else-if chain whose second condition draws a
 * random number (it writes the state: the head evaluates it once, in order),
 * then two ifs that break out (escape, roulette): decisions after the first
 * stay in the branch phase as written. */
static float rnd(uint *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) * (1.0f / 16777216.0f);
}

__kernel void photon_chain_breaks(__global const uint *seed, __global const float *mu,
                                  __global float2 *out, const int max_steps, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint s = seed[i] | 1u;
    float z = 0.0f, w = 1.0f;
    int l = 0, step;
    for (step = 0; step < max_steps; step++) {
        const float m = mu[l & 3];
        if (m < 0.1f) {
            z += 1.0f;
            l++;
        } else if (rnd(&s) < 0.3f) {
            l += (s & 1u) ? 1 : -1;
        } else {
            const float d = -log(rnd(&s) + 1e-6f) / m;
            z += d;
            w *= 0.9f;
        }
        if (l < 0 || l > 6)
            break;
        if (w < 0.2f) {
            if (rnd(&s) < 0.5f) {
                w *= 2.0f;
            } else {
                w = 0.0f;
                break;
            }
        }
    }
    out[i] = (float2)(z + (float)step, w + (float)l);
}
