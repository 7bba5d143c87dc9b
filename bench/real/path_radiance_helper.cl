/*
 * path_radiance_helper.cl - a path tracer whose bounce loop lives in a helper.
 *
 * Models SmallptGPU (David Bucciarelli; geomfunc.h's RadiancePathTracing(),
 * called by rendering_kernel.cl's kernel): the kernel sets up a camera ray
 * and calls radiance(), which holds the bounce loop and takes the random
 * state and the result through pointers to the kernel's private variables.
 * Each bounce intersects a handful of spheres (a loop of its own, the cost
 * every material pays), then decides on the material of the primitive hit:
 * an emitter ends the path (cheap), diffuse samples a cosine lobe (cheap),
 * a mirror reflects (cheap), glossy metal samples a Phong lobe (medium), and
 * glass takes the Fresnel coin and refracts over 8 wavelength bands
 * (expensive). The primitive hit next stays in the block of 256 of the
 * current one (scene locality), as in bounce_materials.cl, so a coherent
 * material table keeps a SIMD group on one material for whole paths.
 *
 * Today: the only top-level decision is the affine guard; the material
 * decision sits in the helper's loop, and the tool sees no data decision
 * ("split: never"), the SmallptGPU case of issue 28.
 */
#define NPRIM 4096
#define LOCALITY 256
#define MAT_DIFFUSE 0
#define MAT_METAL 1
#define MAT_GLASS 2
#define MAT_EMITTER 3
#define MAT_MIRROR 4

static uint xorshift(uint *s)
{
    uint x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

static float unit_rand(uint *s)
{
    return (float)(xorshift(s) >> 8) * (1.0f / 16777216.0f);
}

/* The nearest of four spheres around the ray's origin: the intersection every bounce
 * pays, whatever the material. */
static float nearest_hit(float3 o, float3 d, uint prim)
{
    float t = 1e20f;
    for (int s = 0; s < 4; s++) {
        const float3 c = (float3)((float)((prim >> s) & 3u) - 1.5f, (float)s - 1.5f, 3.0f);
        const float3 op = c - o;
        const float b = dot(op, d);
        const float det = b * b - dot(op, op) + 0.81f;
        if (det > 0.0f) {
            const float tt = b - sqrt(det);
            t = tt > 1e-3f && tt < t ? tt : t;
        }
    }
    return t;
}

static void radiance(__global const uchar *prim_mat, uint prim, float3 dir, int max_depth,
                     uint *rng, float3 *result, int *bounces)
{
    float3 thr = (float3)(1.0f), sum = (float3)(0.0f), org = (float3)(0.0f);
    int depth = 0;
    for (; depth < max_depth; depth++) {
        const float t = nearest_hit(org, dir, prim);
        org += dir * fmin(t, 10.0f) * 0.01f;
        const int mat = prim_mat[prim];
        if (mat == MAT_EMITTER) { /* the path ends on a light */
            sum += thr * (float3)(8.0f, 7.0f, 6.0f);
            break;
        } else if (mat == MAT_DIFFUSE) {
            const float u = unit_rand(rng), v = unit_rand(rng);
            const float r = sqrt(u), phi = 6.2831853f * v;
            dir = (float3)(r * cos(phi), r * sin(phi), sqrt(1.0f - u));
            thr *= (float3)(0.7f, 0.65f, 0.6f);
        } else if (mat == MAT_MIRROR) {
            dir = (float3)(dir.x, -dir.y, dir.z);
            thr *= 0.95f;
        } else if (mat == MAT_METAL) {
            const float3 nrm = normalize((float3)(unit_rand(rng) - 0.5f, 1.0f,
                                                  unit_rand(rng) - 0.5f));
            const float3 refl = dir - 2.0f * dot(dir, nrm) * nrm;
            const float e = pow(unit_rand(rng), 1.0f / 33.0f);
            dir = normalize(refl + (1.0f - e) * (float3)(unit_rand(rng) - 0.5f,
                                                         unit_rand(rng) - 0.5f, 0.0f));
            thr *= (float3)(0.9f, 0.85f, 0.8f) * pow(fabs(dir.y) + 0.05f, 0.3f);
        } else { /* MAT_GLASS: Fresnel coin, dispersion over 8 wavelength bands */
            float3 acc = (float3)(0.0f);
            const float cos_i = fabs(dir.z);
            for (int b = 0; b < 8; b++) {
                const float eta = 1.0f / (1.45f + 0.01f * (float)b);
                const float k = 1.0f - eta * eta * (1.0f - cos_i * cos_i);
                const float r0 = (1.0f - eta) * (1.0f - eta) / ((1.0f + eta) * (1.0f + eta));
                const float f = k < 0.0f ? 1.0f : r0 + (1.0f - r0) * pown(1.0f - cos_i, 5);
                const float w = exp(-0.5f * (float)(b - 4) * (float)(b - 4));
                acc += w * (1.0f - f) * (float3)(b < 3 ? 1.0f : 0.2f,
                                                 b >= 3 && b < 6 ? 1.0f : 0.2f,
                                                 b >= 6 ? 1.0f : 0.2f);
            }
            if (unit_rand(rng) < 0.1f)
                dir = (float3)(dir.x, dir.y, -dir.z);
            else
                dir = normalize((float3)(dir.x * 0.7f, dir.y * 0.7f, -dir.z));
            thr *= acc * 0.4f;
        }
        prim = (prim & ~(uint)(LOCALITY - 1)) | (xorshift(rng) & (LOCALITY - 1));
    }
    *result = sum;
    *bounces = depth;
}

__kernel void radiance_paths(__global const uint *seed, __global const uint *first_prim,
                             __global const uchar *prim_mat, __global float4 *color,
                             const int max_depth, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint rng = seed[i] | 1u;
    float3 result;
    int bounces = 0;
    const float3 dir = normalize((float3)(((float)(i & 1023u) - 512.0f) / 1024.0f,
                                          ((float)(i >> 10 & 1023u) - 512.0f) / 1024.0f, 1.0f));
    radiance(prim_mat, first_prim[i] % NPRIM, dir, max_depth, &rng, &result, &bounces);
    color[i] = (float4)(result, (float)bounces);
}
