/*
 * bounce_materials.cl - a path tracer's bounce loop with a material switch.
 *
 * Models the megakernel of OpenCL path tracers (the bounce loop of
 * smallpt/LuxRender-style kernels): each work-item follows one path; each
 * bounce looks up the material of the primitive it hit and switches on it.
 * Four materials of unequal cost: an emitter ends the path (cheap), diffuse
 * samples a cosine lobe (cheap), metal a fuzzed reflection (medium), glass a
 * dispersive refraction over 8 wavelengths (expensive). The next primitive
 * stays inside the block of 256 primitives of the current one (scene
 * locality), so adjacent first hits in one block of one material keep a
 * SIMD group coherent.
 *
 * Today: the only top-level decision is the affine guard; the material
 * switch sits inside the loop and stays in the leaf ("decisions inside
 * loops"). Issue 18's regrouping is what would split it.
 */
#define NPRIM 4096
#define LOCALITY 256
#define MAT_DIFFUSE 0
#define MAT_METAL 1
#define MAT_GLASS 2
#define MAT_EMITTER 3

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

__kernel void trace_paths(__global const uint *seed, __global const uint *first_prim,
                          __global const uchar *prim_mat, __global float4 *radiance,
                          const int max_depth, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint rng = seed[i] | 1u;
    uint prim = first_prim[i] % NPRIM;
    float3 dir = (float3)(0.0f, 0.0f, 1.0f);
    float3 thr = (float3)(1.0f);
    float3 sum = (float3)(0.0f);
    for (int depth = 0; depth < max_depth; depth++) {
        const int mat = prim_mat[prim];
        if (mat == MAT_EMITTER) { /* the path ends on a light */
            sum += thr * (float3)(8.0f, 7.0f, 6.0f);
            break;
        }
        switch (mat) {
        case MAT_DIFFUSE: {
            const float u = unit_rand(&rng), v = unit_rand(&rng);
            const float r = sqrt(u), phi = 6.2831853f * v;
            dir = (float3)(r * cos(phi), r * sin(phi), sqrt(1.0f - u));
            thr *= (float3)(0.7f, 0.65f, 0.6f);
            break;
        }
        case MAT_METAL: {
            const float3 nrm = normalize((float3)(unit_rand(&rng) - 0.5f, 1.0f,
                                                  unit_rand(&rng) - 0.5f));
            dir = normalize(dir - 2.0f * dot(dir, nrm) * nrm
                            + 0.2f * (float3)(unit_rand(&rng), unit_rand(&rng), 0.0f));
            thr *= (float3)(0.9f, 0.85f, 0.8f) * pow(fabs(dir.y) + 0.05f, 0.3f);
            break;
        }
        default: { /* MAT_GLASS: dispersion, one refraction per wavelength band */
            float3 acc = (float3)(0.0f);
            const float cos_i = fabs(dir.z);
            for (int b = 0; b < 8; b++) {
                const float eta = 1.0f / (1.45f + 0.01f * (float)b);
                const float k = 1.0f - eta * eta * (1.0f - cos_i * cos_i);
                const float r0 = (1.0f - eta) * (1.0f - eta) / ((1.0f + eta) * (1.0f + eta));
                const float f = k < 0.0f ? 1.0f : r0 + (1.0f - r0) * pown(1.0f - cos_i, 5);
                const float w = exp(-0.5f * (float)(b - 4) * (float)(b - 4));
                acc += w * (1.0f - f) * (float3)(b < 3 ? 1.0f : 0.2f, b >= 3 && b < 6 ? 1.0f : 0.2f,
                                                  b >= 6 ? 1.0f : 0.2f);
            }
            thr *= acc * 0.4f;
            dir = normalize((float3)(dir.x * 0.7f, dir.y * 0.7f, -dir.z));
            break;
        }
        }
        prim = (prim & ~(uint)(LOCALITY - 1)) | (xorshift(&rng) & (LOCALITY - 1));
    }
    radiance[i] = (float4)(sum, 1.0f);
}
