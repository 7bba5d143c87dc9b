/*
 * bvh_skiplink.cl - stack-free BVH traversal with skip links.
 *
 * Models the traversal of OpenCL ray tracers that flatten their BVH in
 * depth-first order with a "skip" (escape/miss) link per node, so a ray
 * walks the tree with one index and no stack: when the ray hits a node's
 * box it enters (the next node in order) and, at a leaf, tests the leaf's
 * sphere; when it misses, it jumps to the node's skip link. One work-item
 * per pixel of a pinhole camera; jitter and spread bend the rays from
 * coherent primary rays (spread 0) to incoherent secondary rays (spread 1).
 *
 * Today: no top-level decision at all (the launch is exactly the image);
 * every decision is inside the traversal loop, which the loop kernel takes
 * without regrouping (no decision pays for a round: policy -1, the kernel's
 * own body in place), the set {original, tile+loop}.
 */
__kernel void trace_bvh(__global const float4 *node_min, __global const float4 *node_max,
                        __global const int *node_skip, __global const int *node_prim,
                        __global const float4 *sphere, __global const float4 *jitter,
                        __global float *depth, const int nnodes, const float spread)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int w = get_global_size(0), h = get_global_size(1);
    const int pix = y * w + x;
    const float4 j = jitter[pix];
    const float3 org = (float3)(0.0f, 0.0f, -3.0f) + spread * 0.5f * (float3)(j.x, j.y, 0.0f);
    const float3 dir = normalize((float3)(((float)x + 0.5f) / (float)w - 0.5f + spread * j.z,
                                          ((float)y + 0.5f) / (float)h - 0.5f + spread * j.w,
                                          1.0f));
    const float3 inv = 1.0f / dir;
    float tmin = 1e30f;
    int node = 0;
    while (node < nnodes) {
        const float3 t0 = (node_min[node].xyz - org) * inv;
        const float3 t1 = (node_max[node].xyz - org) * inv;
        const float3 lo = fmin(t0, t1), hi = fmax(t0, t1);
        const float tn = fmax(fmax(lo.x, lo.y), fmax(lo.z, 0.0f));
        const float tf = fmin(fmin(hi.x, hi.y), fmin(hi.z, tmin));
        if (tn <= tf) {
            const int prim = node_prim[node];
            if (prim >= 0) { /* a leaf: ray-sphere test */
                const float4 s = sphere[prim];
                const float3 oc = org - s.xyz;
                const float b = dot(oc, dir);
                const float disc = b * b - (dot(oc, oc) - s.w * s.w);
                if (disc > 0.0f) {
                    const float t = -b - sqrt(disc);
                    if (t > 1e-4f && t < tmin)
                        tmin = t;
                }
            }
            node++;
        } else {
            node = node_skip[node];
        }
    }
    depth[pix] = tmin < 1e30f ? tmin : -1.0f;
}
