/*
 * bvh_stack.cl - BVH traversal with a short private stack.
 *
 * Models the stack traversal of OpenCL ray casters and collision code
 * (bullet3's parallelLinearBvh.cl plbvhRayTraverse: `int stack[...]`, push
 * both children of an internal node the ray hits, pop until empty): one
 * work-item per pixel of a pinhole camera, a private `int stack[16]`; the
 * loop body decides whether the ray hits the node's box, then whether the
 * node is a leaf (a ray-sphere test) or an internal node (push the two
 * children). The tree is the one of bvh_skiplink.cl (the same files: nodes
 * in depth-first order, so an internal node's children are node + 1 and the
 * skip link of node + 1); jitter and spread bend the rays from coherent
 * primary rays (spread 0) to incoherent ones (spread 1).
 *
 * Today: every decision inside the loop; {original, tile+loop} as bvh_skiplink, regrouping
 * off (no round, no refill pays); its context (160 bytes an item with the stack) is over
 * the local budget: each item stays in its lane, a forced 1 or 2 runs as 0 (issue 28).
 */
__kernel void trace_bvh_stack(__global const float4 *node_min, __global const float4 *node_max,
                              __global const int *node_skip, __global const int *node_prim,
                              __global const float4 *sphere, __global const float4 *jitter,
                              __global float *depth, __global int *visited, const int nnodes,
                              const float spread)
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
    int stack[16];
    int sp = 0;
    int nvis = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const int node = stack[--sp];
        nvis++;
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
            } else if (sp < 15 && node + 1 < nnodes) { /* internal: both children */
                const int right = node_skip[node + 1];
                if (right < nnodes)
                    stack[sp++] = right;
                stack[sp++] = node + 1;
            }
        }
    }
    depth[pix] = tmin < 1e30f ? tmin : -1.0f;
    visited[pix] = nvis;
}
