/*
 * s10_narrowphase_math_once.cl - bench/real/narrowphase.cl with each cos and sin of a box's
 * angle computed once (by hand) where the original calls box_axis(angle, k) again on the same
 * angle: what an optimizing compiler makes of it (the math builtins are pure, box_axis and
 * box_radius are inlined and the constant-trip loops unrolled, so the 228 cos and sin calls a
 * box-box pair makes as written are 4 values). Not a bench kernel: the input of the check in
 * docs/performance.md (session 10, "Math on the same values computed once"), profiled as
 * tests/profile/predict_real.sh profiles narrowphase. Same results as the original.
 */
/*
 * narrowphase.cl - a collision narrow phase with a shape-pair switch.
 *
 * Models the narrow phase of OpenCL rigid-body pipelines (Bullet3's
 * OpenCL pipeline, small GPU physics engines): one work-item per candidate
 * pair from the broad phase; the pair of shape types picks the contact
 * routine. Sphere-sphere is a distance test, sphere-box a clamp to the box,
 * capsule pairs closest points of segments, and box-box a separating-axis
 * test over 15 axes (the expensive one). Boxes are axis-aligned in their
 * own frame, rotated about z by ext.w.
 *
 * Today: the switch is at the top level and reads data (the shapes'
 * types), so it splits; the SAT loop stays inside the box-box leaf.
 */
#define SPHERE 0
#define BOX 1
#define CAPSULE 2

static float3 box_axis2(float c, float s, int k)
{
    return k == 0 ? (float3)(c, s, 0.0f) : k == 1 ? (float3)(-s, c, 0.0f) : (float3)(0, 0, 1);
}

static float box_radius(float4 e, float c, float s, float3 axis)
{
    float r = 0.0f;
    for (int k = 0; k < 3; k++)
        r += (k == 0 ? e.x : k == 1 ? e.y : e.z) * fabs(dot(box_axis2(c, s, k), axis));
    return r;
}

static float seg_dist(float3 p0, float3 d0, float3 p1, float3 d1)
{
    const float3 r = p0 - p1;
    const float a = dot(d0, d0), e = dot(d1, d1), f = dot(d1, r), c = dot(d0, r);
    const float b = dot(d0, d1), den = a * e - b * b;
    float s = den > 1e-6f ? clamp((b * f - c * e) / den, 0.0f, 1.0f) : 0.0f;
    const float t = e > 1e-6f ? clamp((b * s + f) / e, 0.0f, 1.0f) : 0.0f;
    s = a > 1e-6f ? clamp((b * t - c) / a, 0.0f, 1.0f) : 0.0f;
    return length(p0 + d0 * s - (p1 + d1 * t));
}

__kernel void narrow_phase(__global const int2 *pair, __global const uchar *type,
                           __global const float4 *pos, __global const float4 *ext,
                           __global float4 *contact, const uint npairs)
{
    const uint i = get_global_id(0);
    if (i >= npairs)
        return;
    const int a = pair[i].x, b = pair[i].y;
    const float3 pa = pos[a].xyz, pb = pos[b].xyz;
    const float4 ea = ext[a], eb = ext[b];
    float depth = -1.0f;
    float3 nrm = (float3)(0.0f, 0.0f, 1.0f);
    switch (type[a] * 3 + type[b]) {
    case SPHERE * 3 + SPHERE: {
        const float d = distance(pa, pb);
        depth = ea.x + eb.x - d;
        nrm = (pb - pa) / fmax(d, 1e-6f);
        break;
    }
    case SPHERE * 3 + BOX:
    case BOX * 3 + SPHERE: {
        const int sa = type[a] == SPHERE;
        const float3 c = sa ? pa : pb, o = sa ? pb : pa;
        const float4 e = sa ? eb : ea;
        const float r = sa ? ea.x : eb.x;
        float3 q = o;
        const float ce = cos(e.w), se = sin(e.w);
        for (int k = 0; k < 3; k++) {
            const float3 ax = box_axis2(ce, se, k);
            const float he = k == 0 ? e.x : k == 1 ? e.y : e.z;
            q += clamp(dot(c - o, ax), -he, he) * ax;
        }
        const float d = distance(c, q);
        depth = r - d;
        nrm = (c - q) / fmax(d, 1e-6f);
        break;
    }
    case BOX * 3 + BOX: { /* separating axes: 3 + 3 face normals, 9 edge crosses */
        const float3 t = pb - pa;
        float best = 1e30f;
        const float ca = cos(ea.w), sa_ = sin(ea.w), cb = cos(eb.w), sb = sin(eb.w);
        for (int k = 0; k < 15; k++) {
            float3 ax = k < 3 ? box_axis2(ca, sa_, k) : k < 6 ? box_axis2(cb, sb, k - 3)
                      : cross(box_axis2(ca, sa_, (k - 6) / 3), box_axis2(cb, sb, (k - 6) % 3));
            const float len = length(ax);
            if (len < 1e-5f)
                continue;
            ax /= len;
            const float ov = box_radius(ea, ca, sa_, ax) + box_radius(eb, cb, sb, ax) - fabs(dot(t, ax));
            if (ov < best) {
                best = ov;
                nrm = dot(t, ax) < 0.0f ? -ax : ax;
            }
        }
        depth = best;
        break;
    }
    default: { /* a capsule against anything: segment distances (a sphere is a point) */
        const float3 da = type[a] == CAPSULE ? (float3)(0.0f, 0.0f, 2.0f * ea.y) : (float3)(0.0f);
        const float3 db = type[b] == CAPSULE ? (float3)(0.0f, 0.0f, 2.0f * eb.y) : (float3)(0.0f);
        const float d = seg_dist(pa - 0.5f * da, da, pb - 0.5f * db, db);
        depth = ea.x + eb.x - d;
        nrm = normalize(pb - pa + (float3)(1e-6f));
        break;
    }
    }
    contact[i] = (float4)(nrm, depth);
}
