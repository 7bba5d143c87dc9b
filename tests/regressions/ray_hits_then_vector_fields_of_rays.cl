// RUN: nplus1gen %s --validate --global 4096 --arg numRays=4000 --strategy aggregated,atomic --split always
// EXPECT: match all-leaves
/*
 * ray_hits_then_vector_fields_of_rays.cl - regression (issue 26, item 7):
 * the shape of bullet3's rayCastKernel (Bullet3OpenCL/Raycast/kernels/
 * rayCastKernels.cl). It stores hitResults[i].m_hitFraction (a float field
 * of b3RayHit), then its condition reads rays[i].m_from and .m_to (float4
 * fields of b3RayInfo). The two buffers are not restrict, and the vector
 * field was refused as "may alias": a vector was never told apart. By C's
 * effective-type rule (C11 6.5p7) a float4 lvalue cannot read a float object,
 * and neither struct holds the other, so the store cannot feed the load.
 * (rayCastKernel itself stays refused: it also copies a whole Body, a struct
 * with float fields, which C lets read a float: tests/lit/refuse/
 * memory_order_types.cl.)
 */
typedef struct {
    float4 m_from;
    float4 m_to;
} b3RayInfo;

typedef struct {
    float m_hitFraction;
    int m_hitResult0;
    int m_hitResult1;
    int m_hitResult2;
    float4 m_hitPoint;
    float4 m_hitNormal;
} b3RayHit;

static int sphere_hit(float4 from, float4 to, float4 centre, float radius, float *t)
{
    const float4 d = to - from, m = from - centre;
    const float b = dot(m, d), c = dot(m, m) - radius * radius, a = dot(d, d);
    const float disc = b * b - a * c;
    if (disc < 0.f || a == 0.f)
        return 0;
    const float s = (-b - sqrt(disc)) / a;
    if (s < 0.f || s > *t)
        return 0;
    *t = s;
    return 1;
}

__kernel void rayCastLike(int numRays, const __global b3RayInfo *rays,
                          __global b3RayHit *hitResults)
{
    int i = get_global_id(0);
    if (i >= numRays)
        return;
    hitResults[i].m_hitFraction = 1.f;
    float4 rayFrom = rays[i].m_from;
    float4 rayTo = rays[i].m_to;
    rayFrom.w = 0.f;
    rayTo.w = 0.f;
    float hitFraction = 1.f;
    int hitBodyIndex = -1;
    for (int b = 0; b < 4; b++) {
        const float4 centre = (float4)(0.25f * (float)b, 0.5f, 0.5f, 0.f);
        if (sphere_hit(rayFrom, rayTo, centre, 0.3f, &hitFraction))
            hitBodyIndex = b;
    }
    if (hitBodyIndex >= 0) {
        const float4 hitPoint = mix(rayFrom, rayTo, hitFraction);
        hitResults[i].m_hitFraction = hitFraction;
        hitResults[i].m_hitPoint = hitPoint;
        hitResults[i].m_hitNormal = normalize(hitPoint - (float4)(0.5f, 0.5f, 0.5f, 0.f));
        hitResults[i].m_hitResult0 = hitBodyIndex;
    }
}
