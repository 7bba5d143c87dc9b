/*
 * shade_switch.cl - a ray tracer's shading switch (real-shaped benchmark).
 *
 * Models the shape of the shading kernels of small OpenCL path/ray tracers
 * (smallpt-style GPU ports, "ray tracer in OpenCL" tutorials): one work-item
 * per primary hit, a hit record with a material id, and a switch over the
 * material that picks the BSDF. The arms differ in cost: emissive and sky
 * are a constant, Lambert one dot product, Phong a pow, mirror a reflection
 * and a pow, dielectric Schlick's Fresnel with a refraction.
 *
 * Today: the switch is at the top level and reads data (hit_mat), so it
 * splits into one leaf per material.
 */
#define MAT_LAMBERT 0
#define MAT_PHONG 1
#define MAT_MIRROR 2
#define MAT_DIELECTRIC 3
#define MAT_EMISSIVE 4
#define MAT_SKY 5

static float3 reflect_dir(float3 d, float3 n)
{
    return d - 2.0f * dot(d, n) * n;
}

static float fresnel_schlick(float cos_i, float eta)
{
    float r0 = (1.0f - eta) / (1.0f + eta);
    r0 *= r0;
    return r0 + (1.0f - r0) * pown(1.0f - cos_i, 5);
}

__kernel void shade_hits(__global const int *hit_mat, __global const float4 *hit_normal,
                         __global const float4 *ray_dir, __global float4 *radiance)
{
    const size_t i = get_global_id(0);
    const float3 n = normalize(hit_normal[i].xyz - (float3)(0.5f));
    const float3 d = normalize(ray_dir[i].xyz - (float3)(0.5f, 0.5f, 0.25f));
    const float3 light = normalize((float3)(0.3f, 1.0f, 0.6f));
    float3 c;
    switch (hit_mat[i]) {
    case MAT_LAMBERT:
        c = (float3)(0.7f, 0.6f, 0.5f) * fmax(dot(n, light), 0.0f);
        break;
    case MAT_PHONG: {
        const float spec = pow(fmax(dot(reflect_dir(d, n), light), 0.0f), 24.0f);
        c = (float3)(0.4f, 0.5f, 0.7f) * fmax(dot(n, light), 0.0f) + spec;
        break;
    }
    case MAT_MIRROR: {
        const float3 r = reflect_dir(d, n);
        const float sky = 0.5f + 0.5f * r.y;
        c = (float3)(0.9f) * (sky + pow(fmax(dot(r, light), 0.0f), 128.0f));
        break;
    }
    case MAT_DIELECTRIC: {
        const float cos_i = fabs(dot(d, n));
        const float eta = dot(d, n) < 0.0f ? 1.0f / 1.5f : 1.5f;
        const float k = 1.0f - eta * eta * (1.0f - cos_i * cos_i);
        const float f = k < 0.0f ? 1.0f : fresnel_schlick(cos_i, 1.5f);
        const float3 t = eta * d + (eta * cos_i - sqrt(fmax(k, 0.0f))) * n;
        c = f * (float3)(0.5f + 0.5f * reflect_dir(d, n).y)
            + (1.0f - f) * (float3)(0.2f, 0.3f, 0.35f) * exp(-2.0f * fabs(t.z));
        break;
    }
    case MAT_EMISSIVE:
        c = (float3)(6.0f, 5.0f, 4.0f);
        break;
    default: /* MAT_SKY and ids out of range: the environment */
        c = (float3)(0.3f, 0.4f, 0.6f) * (0.5f + 0.5f * d.y);
        break;
    }
    radiance[i] = (float4)(c, 1.0f);
}
