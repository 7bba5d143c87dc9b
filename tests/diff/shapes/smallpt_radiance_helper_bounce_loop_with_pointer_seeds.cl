// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg n=4000 \
// RUN: --arg seed=range:1:2147483647 --arg jitter=range:-1:1 --report
// RUN: nplus1gen %s --validate --global 4096 --arg n=4000 --arg seed=range:1:2147483647 \
// RUN: --arg jitter=range:-1:1 --split always --report
// RUN: nplus1gen %s --validate --global 4096 --arg n=4000 --arg seed=range:1:2147483647 \
// RUN: --arg jitter=range:-1:1 --strategy tile --report
// EXPECT: match
// OUTPUT: ^    leaf 1 -> radiance_gpu__nplus1_leaf0  lines 128-137  cost
// OUTPUT-NOT: regrouped round by round
// OUTPUT-NOT: regroups the kernel's own text, not a helper's
/*
 * Shape of: SmallptGPU (David Bucciarelli), geomfunc.h, RadiancePathTracing() called by
 * rendering_kernel.cl's RadianceGPU kernel: the bounce loop lives in a helper, which
 * takes the ray by value and the two seeds and the result through pointers to the
 * kernel's private variables; each bounce intersects every sphere (a loop of its own),
 * returns on a miss, and decides on the material of the sphere hit: diffuse (a cosine
 * sample), specular (a mirror) or glass (Fresnel, then reflect or refract by a coin).
 * Six spheres in a constant table; the seeds come from the input. Today (the OUTPUT
 * lines; tests/lit/machine_report_helpers.test has the report): the state machine would
 * inline the helper (its decisions are candidates, its seed and result pointers stand
 * for the kernel's variables), but by the cost rule none pays: the costliest material
 * arm takes about 116 operations (its arms save about 110 a visit), the round its context
 * of about 160 bytes makes about 726 (the helper's ray, throughput, hit and normals, the
 * kernel's seeds and result: liveness only drops the caller's variables dead during the
 * call). So the split is at the bounds guard only, and the helper's loop runs in the leaf.
 */
#define NSPH 6
#define DIFF 0
#define SPEC 1
#define REFR 2

typedef struct {
    float4 pos_rad;   /* centre, radius */
    float4 emit;
    float4 color;
    int refl;
} sphere_t;

__constant sphere_t scene[NSPH] = {
    {(float4)(0.0f, -100.5f, 0.0f, 100.0f), (float4)(0.0f), (float4)(0.75f, 0.75f, 0.75f, 0.0f), DIFF},
    {(float4)(-1.0f, 0.0f, 3.0f, 0.5f), (float4)(0.0f), (float4)(0.9f, 0.3f, 0.3f, 0.0f), DIFF},
    {(float4)(0.0f, 0.0f, 3.0f, 0.5f), (float4)(0.0f), (float4)(0.95f, 0.95f, 0.95f, 0.0f), SPEC},
    {(float4)(1.0f, 0.0f, 3.0f, 0.5f), (float4)(0.0f), (float4)(0.95f, 0.95f, 0.95f, 0.0f), REFR},
    {(float4)(0.0f, 3.0f, 3.0f, 1.5f), (float4)(4.0f, 4.0f, 4.0f, 0.0f), (float4)(0.0f), DIFF},
    {(float4)(0.0f, 0.0f, 106.0f, 100.0f), (float4)(0.0f), (float4)(0.3f, 0.3f, 0.9f, 0.0f), DIFF},
};

static float rnd(uint *s0, uint *s1)
{
    *s0 = 36969u * (*s0 & 65535u) + (*s0 >> 16);
    *s1 = 18000u * (*s1 & 65535u) + (*s1 >> 16);
    const uint ires = (*s0 << 16) + *s1;
    return (float)(ires & 0xffffu) * (1.0f / 65536.0f);
}

static void radiance(float3 o, float3 d, uint *s0, uint *s1, float3 *result, int *bounces)
{
    float3 acc = (float3)(0.0f), thr = (float3)(1.0f);
    for (int depth = 0; depth < 8; depth++) {
        float t = 1e20f;
        int id = -1;
        for (int s = 0; s < NSPH; s++) {
            const float3 op = scene[s].pos_rad.xyz - o;
            const float b = dot(op, d);
            float det = b * b - dot(op, op) + scene[s].pos_rad.w * scene[s].pos_rad.w;
            if (det < 0.0f)
                continue;
            det = sqrt(det);
            const float t1 = b - det, t2 = b + det;
            const float tt = t1 > 1e-3f ? t1 : (t2 > 1e-3f ? t2 : 1e20f);
            if (tt < t) {
                t = tt;
                id = s;
            }
        }
        *bounces = depth + 1;
        if (id < 0) {
            *result = acc + thr * (float3)(0.05f, 0.05f, 0.08f);
            return;
        }
        const float3 hp = o + d * t;
        const float3 nrm = normalize(hp - scene[id].pos_rad.xyz);
        const float3 nl = dot(nrm, d) < 0.0f ? nrm : -nrm;
        acc += thr * scene[id].emit.xyz;
        thr *= scene[id].color.xyz;
        o = hp;
        if (scene[id].refl == DIFF) {
            const float r1 = 6.2831853f * rnd(s0, s1), r2 = rnd(s0, s1);
            const float r2s = sqrt(r2);
            const float3 u = normalize(fabs(nl.x) > 0.1f ? (float3)(-nl.z, 0.0f, nl.x)
                                                          : (float3)(0.0f, nl.z, -nl.y));
            const float3 v = cross(nl, u);
            d = normalize(u * cos(r1) * r2s + v * sin(r1) * r2s + nl * sqrt(1.0f - r2));
        } else if (scene[id].refl == SPEC) {
            d = d - nrm * 2.0f * dot(nrm, d);
        } else {
            const int into = dot(nrm, nl) > 0.0f;
            const float nnt = into ? 1.0f / 1.5f : 1.5f;
            const float ddn = dot(d, nl);
            const float cos2t = 1.0f - nnt * nnt * (1.0f - ddn * ddn);
            const float3 refl = d - nrm * 2.0f * dot(nrm, d);
            if (cos2t < 0.0f) {
                d = refl;
            } else {
                const float3 tdir = normalize(d * nnt - nrm * ((into ? 1.0f : -1.0f) *
                                                             (ddn * nnt + sqrt(cos2t))));
                const float c = 1.0f - (into ? -ddn : dot(tdir, nrm));
                const float re = 0.04f + 0.96f * c * c * c * c * c;
                if (rnd(s0, s1) < re) {
                    d = refl;
                    thr *= re * 2.0f;
                } else {
                    d = tdir;
                    thr *= (1.0f - re) * 2.0f;
                }
            }
        }
    }
    *result = acc;
}

__kernel void radiance_gpu(__global const uint *seed, __global const float4 *jitter,
                           __global float4 *color, __global int *depth_out, const int n)
{
    const int gid = get_global_id(0);
    if (gid >= n)
        return;
    uint s0 = seed[gid] | 1u, s1 = (seed[gid] >> 7) | 3u;
    const float4 j = jitter[gid];
    const float3 o = (float3)(j.x * 0.5f, j.y * 0.5f, 0.0f);
    const float3 d = normalize((float3)(j.z * 0.6f, j.w * 0.4f, 1.0f));
    float3 r;
    int bounces = 0;
    radiance(o, d, &s0, &s1, &r, &bounces);
    color[gid] = (float4)(r, 1.0f);
    depth_out[gid] = bounces;
}
