/*
 * shade_materials.cl - ray-material shading: a switch over material ids.
 *
 * Each work-item shades one ray hit. The hit's material id picks the
 * shading model; the switch has
 *   - cases that share a body (case MAT_METAL / MAT_CHROME),
 *   - a fall-through (MAT_VARNISH adds a clear coat, then falls into the
 *     diffuse case),
 *   - a default for unknown ids (shaded magenta),
 *   - break in every other case.
 * Expected: nplus1gen splits it into 6 leaves (one per case group and the
 * default), every one of them non-empty. Validate with
 *   nplus1gen samples/shade_materials.cl --validate --global 16384
 * (random ids 0..1023 are taken modulo 8, so every leaf is hit).
 */
#define MAT_DIFFUSE 0
#define MAT_VARNISH 1
#define MAT_METAL 2
#define MAT_CHROME 3
#define MAT_GLASS 4
#define MAT_EMISSIVE 5
#define NUM_MATERIALS 8

static float3 reflect3(float3 d, float3 n)
{
    return d - 2.0f * dot(d, n) * n;
}

static float schlick(float cosine, float ior)
{
    float r0 = (1.0f - ior) / (1.0f + ior);
    r0 = r0 * r0;
    return r0 + (1.0f - r0) * pown(1.0f - cosine, 5);
}

__kernel void shade(__global const int *material,
                    __global const float4 *normal,
                    __global const float4 *dir,
                    __global float4 *color)
{
    const size_t i = get_global_id(0);
    const int mat = material[i] % NUM_MATERIALS;
    const float3 n = normalize(normal[i].xyz + (float3)(0.1f, 0.2f, 0.3f));
    const float3 d = normalize(dir[i].xyz - (float3)(0.5f, 0.5f, 0.5f));
    const float3 light = normalize((float3)(1.0f, 1.0f, 0.5f));
    float3 c = (float3)(0.0f);
    float coat = 0.0f;

    switch (mat) {
    case MAT_VARNISH:
        coat = 0.25f * pow(fmax(dot(reflect3(d, n), light), 0.0f), 32.0f);
        /* fall through: varnished surfaces are diffuse underneath */
    case MAT_DIFFUSE:
        c = (float3)(0.8f, 0.6f, 0.4f) * fmax(dot(n, light), 0.0f) + coat;
        break;
    case MAT_METAL:
    case MAT_CHROME: {
        float3 r = reflect3(d, n);
        float spec = pow(fmax(dot(r, light), 0.0f), mat == MAT_CHROME ? 64.0f : 16.0f);
        c = (float3)(0.9f, 0.9f, 0.95f) * spec;
        break;
    }
    case MAT_GLASS: {
        float cosine = fabs(dot(d, n));
        float f = schlick(cosine, 1.5f);
        c = (float3)(f) + (1.0f - f) * (float3)(0.2f, 0.3f, 0.35f);
        break;
    }
    case MAT_EMISSIVE:
        c = (float3)(4.0f, 3.5f, 3.0f);
        break;
    default:
        c = (float3)(1.0f, 0.0f, 1.0f);
        break;
    }
    color[i] = (float4)(c, 1.0f);
}
