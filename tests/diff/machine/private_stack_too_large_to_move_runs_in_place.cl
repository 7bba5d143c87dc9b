// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves
// EXPECT: match all-leaves
/* Issue 28, shape 7: BVH traversal with a short private stack (`int stack[16]`): the stack
 * and its pointer are the item's context and move as bytes. The leaf test is the costly arm
 * (the regroup point); the inner node's push stays as written. */
__kernel void private_stack(__global const float4 *nodes, __global const float *ray,
                            __global float *hit, const uint nnodes, const uint n)
{
    const uint i = get_global_id(0);
    const float o = ray[i];
    int stack[16];
    int sp = 0;
    stack[sp++] = 0;
    float best = 1e30f;
    int visits = 0;
    while (sp > 0 && visits < 24) {
        const int node = stack[--sp];
        const float4 b = nodes[(uint)node % nnodes];
        visits++;
        if (b.x > o) {
            float t = b.y - o;
            for (int k = 0; k < 64; k++)
                t = t * 0.75f + sin(t * b.z) * 0.125f;
            best = fmin(best, fabs(t));
        } else if (sp < 14) {
            stack[sp++] = 2 * node + 1;
            stack[sp++] = 2 * node + 2;
        }
    }
    hit[i] = best + (float)visits;
}
