// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg nnodes=255
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg nnodes=255
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg nnodes=255
// EXPECT: match all-leaves
// OUTPUT: leaf 0 -> kernel 0: +65536 items, 0 mismatches +when loop at line 23: each item to its end \(no regroup point, refill only\)
/* Issue 28 item 3: a private-stack traversal whose decisions are cheap against a round,
 * while its `while (sp > 0)` runs a data-dependent number of trips and each trip shades
 * the node it pops (about 300 operations for its one load of `nodes`): the cost rule
 * (regroup_rule.h) runs the state machine without regroup points, each lane taking the
 * next item of the tile when its item ends (refill only). Its memory-bound twin, whose
 * trip computes about 20 operations a load, is not refilled
 * (zero_point_refill_does_not_pay_for_a_memory_bound_stack_walk.cl). */
__kernel void stack_walk(__global const float4 *nodes, __global const float *ray,
                         __global float *hit, __global int *visited, const int nnodes)
{
    const int i = get_global_id(0);
    const float o = ray[i];
    int stack[16];
    int sp = 0;
    int nvis = 0;
    float best = 1e30f, glow = 0.0f;
    stack[sp++] = 0;
    while (sp > 0) {
        const int node = stack[--sp];
        const float4 b = nodes[node];
        nvis++;
        float s = b.w;
        for (int k = 0; k < 24; k++)
            s = s * 0.75f + sin(s * b.z + o) * 0.125f;
        glow += s;
        if (b.x > o) {
            const float t = fabs(b.y - o) * b.z;
            if (t < best)
                best = t;
        } else if (sp < 14 && 2 * node + 2 < nnodes) {
            stack[sp++] = 2 * node + 1;
            stack[sp++] = 2 * node + 2;
        }
    }
    hit[i] = best + 1e-3f * glow;
    visited[i] = nvis;
}
