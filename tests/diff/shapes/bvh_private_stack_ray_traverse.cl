// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 2048 --arg nrays=2000 \
// RUN: --arg ninternal=255 --arg lo=size:511 --arg lo=range:-1:0.2 --arg hi=size:511 \
// RUN: --arg hi=range:-0.2:1 --arg org=range:-0.5:0.5 --arg dir=range:-1:1 --report
// RUN: nplus1gen %s --validate --global 2048 --arg nrays=2000 --arg ninternal=255 \
// RUN: --arg lo=size:511 --arg lo=range:-1:0.2 --arg hi=size:511 --arg hi=range:-0.2:1 \
// RUN: --arg org=range:-0.5:0.5 --arg dir=range:-1:1 --split always --report
// EXPECT: match
// OUTPUT: ^  loop \(tile\): line \d+: no decision of the loop pays for a round, nor does refilling: regrouping off
// OUTPUT: ^    in place: its context takes 160 bytes an item, 40960 bytes of local memory a work-group of 256: over the 24576-byte budget
// OUTPUT-NOT: regrouped round by round
/*
 * Shape of: bullet3, src/Bullet3OpenCL/BroadphaseCollision/kernels/parallelLinearBvh.cl,
 * plbvhRayTraverse: a ray walks the BVH with a private stack (`int stack[...]`,
 * stack[stackSize++] pushes the two children of an internal node it hits, the loop pops
 * until the stack is empty), and the body decides leaf or internal node, then whether
 * the box is hit. Here the tree is implicit (node k has children 2k+1 and 2k+2, nodes
 * from ninternal on are leaves), 511 nodes, at most 9 levels: the stack of 16 never
 * overflows. Each ray writes only its own hit count and nearest hit. Today (issue 28 item
 * 3) the loop kernel takes it, its context (160 bytes an item, the stack among it) in its
 * lane, with regrouping off: no decision pays for a round; before, its size kept the loop
 * in the guard's leaf (the split on the affine guard).
 */
static float slab(const float4 lo, const float4 hi, const float4 o, const float4 inv)
{
    const float4 t0 = (lo - o) * inv, t1 = (hi - o) * inv;
    const float4 a = fmin(t0, t1), b = fmax(t0, t1);
    const float tn = fmax(fmax(a.x, a.y), fmax(a.z, 0.0f));
    const float tf = fmin(fmin(b.x, b.y), b.z);
    return tn <= tf ? tn : -1.0f;
}

__kernel void ray_traverse(__global const float4 *lo, __global const float4 *hi,
                           __global const float4 *org, __global const float4 *dir,
                           __global int *hits, __global float *nearest, const int nrays,
                           const int ninternal)
{
    const int r = get_global_id(0);
    if (r >= nrays)
        return;
    const float4 o = org[r];
    const float4 d = dir[r];
    const float4 inv = (float4)(1.0f / (fabs(d.x) > 1e-3f ? d.x : 1e-3f),
                                1.0f / (fabs(d.y) > 1e-3f ? d.y : 1e-3f),
                                1.0f / (fabs(d.z) > 1e-3f ? d.z : 1e-3f), 0.0f);
    int stack[16];
    int sp = 1;
    stack[0] = 0;
    int nhit = 0;
    float best = 1e30f;
    while (sp > 0) {
        const int node = stack[--sp];
        const float t = slab(lo[node], hi[node], o, inv);
        if (t < 0.0f)
            continue;
        if (node >= ninternal) {
            nhit++;
            const float4 c = 0.5f * (lo[node] + hi[node]);
            const float4 oc = o - c;
            const float q = dot(oc.xyz, oc.xyz) - dot(oc.xyz, d.xyz) * dot(oc.xyz, d.xyz);
            if (q < 0.25f && t < best)
                best = t;
        } else if (sp < 15) {
            stack[sp++] = 2 * node + 1;
            stack[sp++] = 2 * node + 2;
        }
    }
    hits[r] = nhit;
    nearest[r] = best;
}
