/* A bounce loop (`for`) whose body first ends the path on an emitter (an if
 * whose branch breaks) and then switches on the material: the two decisions
 * are grouped as one (emitter, then the switch's cases). The rng state moves
 * through a helper that takes its address. */
static uint next_rand(uint *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

__kernel void bounce_emitter_break(__global const uint *seed, __global const uchar *mat_of,
                                   __global float4 *out, const int max_depth, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint rng = seed[i] | 1u;
    uint prim = rng & 255u;
    float3 thr = (float3)(1.0f);
    float3 sum = (float3)(0.0f);
    for (int depth = 0; depth < max_depth; depth++) {
        const int mat = mat_of[prim];
        if (mat == 3) {
            sum += thr * (float3)(4.0f, 3.0f, 2.0f);
            break;
        }
        switch (mat) {
        case 0:
            thr *= 0.5f + 0.25f * (float)(next_rand(&rng) & 3u);
            break;
        case 1: {
            float acc = 0.0f;
            for (int b = 0; b < 4; b++)
                acc += sqrt((float)(next_rand(&rng) & 255u) + (float)b);
            thr *= (float3)(0.01f * acc, 0.02f, 0.03f);
            break;
        }
        default:
            sum += thr * 0.125f;
            break;
        }
        prim = (prim + next_rand(&rng)) & 255u;
    }
    out[i] = (float4)(sum, (float)prim);
}
