/* A path tracer's bounce loop: the head looks up the material the path hit
 * and a switch on it picks the bounce (four materials of unequal cost). The
 * state is a float3, a float4, a struct and two counters; an emitter ends the
 * path by setting its depth, a black body returns early. */
typedef struct path_state {
    uint rng;
    uint prim;
    float pdf;
} path_state;

static uint next_rand(path_state *p)
{
    uint x = p->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p->rng = x;
    return x;
}

static float unit(path_state *p)
{
    return (float)(next_rand(p) >> 8) * (1.0f / 16777216.0f);
}

__kernel void bounce_switch(__global const uint *seed, __global const uchar *mat_of,
                            __global float4 *radiance, __global int *depths, const int max_depth,
                            const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    path_state ps;
    ps.rng = seed[i] | 1u;
    ps.prim = seed[i] % 1024u;
    ps.pdf = 1.0f;
    float3 dir = (float3)(0.0f, 0.0f, 1.0f);
    float4 thr = (float4)(1.0f);
    int depth = 0;
    while (depth < max_depth) {
        const int mat = mat_of[ps.prim];
        switch (mat) {
        case 0: { /* diffuse */
            const float u = unit(&ps), w = unit(&ps);
            dir = (float3)(sqrt(u) * cos(6.2831853f * w), sqrt(u) * sin(6.2831853f * w),
                           sqrt(1.0f - u));
            thr *= (float4)(0.7f, 0.65f, 0.6f, 1.0f);
            break;
        }
        case 1: /* metal */
            dir = normalize(dir + 0.2f * (float3)(unit(&ps) - 0.5f, unit(&ps) - 0.5f, 0.1f));
            thr *= (float4)(0.9f, 0.85f, 0.8f, 1.0f) * pow(fabs(dir.y) + 0.05f, 0.3f);
            ps.pdf *= 0.5f;
            break;
        case 2: { /* glass: dispersion over 8 bands */
            float3 acc = (float3)(0.0f);
            for (int b = 0; b < 8; b++) {
                const float eta = 1.0f / (1.45f + 0.01f * (float)b);
                acc += exp(-0.5f * (float)(b - 4) * (float)(b - 4)) * eta * dir;
            }
            thr.xyz *= fabs(acc) * 0.2f;
            dir = normalize((float3)(dir.x * 0.7f, dir.y * 0.7f, -dir.z));
            break;
        }
        case 3: /* emitter: the path ends */
            thr *= (float4)(8.0f, 7.0f, 6.0f, 1.0f);
            depth = max_depth;
            break;
        default: /* black body: nothing comes back */
            radiance[i] = (float4)(0.0f);
            depths[i] = -depth;
            return;
        }
        ps.prim = (ps.prim & ~63u) | (next_rand(&ps) & 63u);
        depth++;
    }
    radiance[i] = thr * ps.pdf;
    depths[i] = depth;
}
