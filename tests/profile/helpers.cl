/*
 * Kernels whose decisions and loops sit in helpers they call
 * (tests/profile/helpers.sh, tests/lit/profile_helpers.test; issue 29):
 * the profile records them where the kernel calls them and reports them at
 * the helper's lines. heavy() holds no decision: straight-line work.
 */
float heavy(float x, float k)
{
    float a = x;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    return a;
}

/* Two equally heavy paths, by the item's parity: alternating at the call below. */
float pick(int sel, float x)
{
    if (sel)
        return heavy(x, 0.5f);
    else
        return heavy(x, 0.25f);
}

/* The alternating branch in a helper: 0.5 at any width from 2. */
__kernel void alt_helper(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = pick(i % 2 == 0, x[i]);
}

/* A loop in a helper whose trip count comes from the data: 0, 4, ..., 124 across each
 * 32 items (trips[] = iota), 62 of 124 iterations: 0.5. */
float repeat(float a, int n)
{
    for (int t = 0; t < n; t++)
        a = heavy(a, 0.5f);
    return a;
}

__kernel void trips_helper(__global const int *trips, __global const float *x,
                           __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = repeat(x[i], 4 * (trips[i] % 32));
}

/* One helper, two calls: alternating at the first (half the groups' work lost there),
 * in runs of 64 items at the second (no group of 32 diverges): 2 of 3 heavies, 0.67. */
__kernel void two_sites(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    float a = pick(i % 2 == 0, x[i]);
    float b = pick((i / 64) % 2 == 0, x[i]);
    y[i] = a + b;
}

/* A path tracer's shape (SmallptGPU: the bounce loop in radiance()): each path bounces
 * until it leaves the scene or the roulette ends it, at most 32 times. */
typedef struct Ray { float3 o, d; } Ray;

uint next_rand(uint *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

float3 radiance(Ray r, uint *seed, int max_depth)
{
    float3 acc = (float3)(0.0f), through = (float3)(1.0f);
    for (int depth = 0; depth < max_depth; depth++) {
        if ((next_rand(seed) & 255u) < 64u) /* missed every object: the path leaves */
            break;
        r.o = r.o + r.d;
        r.d = normalize((float3)(r.d.y, r.d.z, r.d.x) + (float3)(0.1f));
        through = through * 0.8f;
        acc = acc + through * (float3)(heavy(r.o.x, 0.5f), heavy(r.o.y, 0.5f), 0.0f);
    }
    return acc;
}

__kernel void bounce(__global const uint *seeds, __global float *out)
{
    size_t i = get_global_id(0);
    uint seed = seeds[i];
    Ray r = {(float3)(0.0f), (float3)(0.0f, 0.0f, 1.0f)};
    float3 c = radiance(r, &seed, 32);
    out[i] = c.x + c.y + c.z;
}
