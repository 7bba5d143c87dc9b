// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 64,48 --arg w=64 --arg h=48 \
// RUN: --arg nnodes=255 --arg box=size:255 --arg box=range:-1:1 --arg skip=size:255 \
// RUN: --arg skip=range:1:255 --arg leaf=size:255 --arg leaf=choice:-1,-1,0,1,2 \
// RUN: --arg mask=choice:0,1,1,1 --arg tmax=range:-0.5:4 --report
// RUN: nplus1gen %s --validate --global 64,48 --arg w=64 --arg h=48 --arg nnodes=255 \
// RUN: --arg box=size:255 --arg box=range:-1:1 --arg skip=size:255 --arg skip=range:1:255 \
// RUN: --arg leaf=size:255 --arg leaf=choice:-1,-1,0,1,2 --arg mask=choice:0,1,1,1 \
// RUN: --arg tmax=range:-0.5:4 --split always --report
// EXPECT: match
// OUTPUT: ^    leaf 0 -> intersect__nplus1_leaf0  lines 34-58  cost
// OUTPUT-NOT: regrouped round by round
/*
 * Shape of: LuxCoreRender (LuxCore), the BVH traversal of bvh.cl (in
 * /work/corpus/luxcore/cl/bvh.cl): a flattened tree walked with one index, the node
 * entered when the ray hits its box (currentNode++) and skipped through its skip index
 * when it misses, a leaf testing its primitive. Here the traversal sits below two
 * branches, as an intersect kernel guards it (a ray still alive, then a ray with a
 * positive extent): the loop is at depth 2. The skip links are random but always move
 * forward (node + skip[node] with skip >= 1), so every walk ends. Today (the OUTPUT
 * lines): split at the two guards; the loop runs in its leaf (--report: the loop sits
 * below the top level of a branch).
 */
__kernel void intersect(__global const float4 *box, __global const int *skip,
                        __global const int *leaf, __global const int *mask,
                        __global const float *tmax, __global float *hit_t,
                        __global int *visits, const int w, const int h, const int nnodes)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int pix = y * w + x;
    float best = -1.0f;
    int nvis = 0;
    if (mask[pix] != 0) {
        const float tm = tmax[pix];
        if (tm > 0.0f) {
            const float3 o = (float3)((float)x / (float)w - 0.5f, (float)y / (float)h - 0.5f, -2.0f);
            const float3 d = normalize((float3)(0.1f * o.x, 0.1f * o.y, 1.0f));
            best = tm;
            int node = 0;
            while (node < nnodes) {
                nvis++;
                const float4 b = box[node];
                const float3 c = (float3)(b.x, b.y, 0.5f * (b.z + 1.0f));
                const float3 oc = o - c;
                const float bb = dot(oc, d);
                const float disc = bb * bb - dot(oc, oc) + 0.5f + 0.25f * b.w;
                if (disc > 0.0f) {
                    const int prim = leaf[node];
                    if (prim >= 0) {
                        const float t = -bb - sqrt(disc) + 0.1f * (float)prim;
                        if (t > 1e-3f && t < best)
                            best = t;
                    }
                    node++;
                } else {
                    node += skip[node];
                }
            }
        }
    }
    hit_t[pix] = best;
    visits[pix] = nvis;
}
