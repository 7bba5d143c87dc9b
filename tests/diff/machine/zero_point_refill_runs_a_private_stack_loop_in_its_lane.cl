// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg nnodes=255
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg nnodes=255
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg nnodes=255
// EXPECT: match all-leaves
// OUTPUT: leaf 0 -> kernel 0: +65536 items, 0 mismatches +when loop at line 20: each item to its end \(no regroup point, refill only\)
/* Issue 28 item 3: a private-stack traversal (bench/real's bvh_stack in small) whose
 * decisions are cheap against a round, so no decision is a regroup point, while its
 * `while (sp > 0)` runs a data-dependent number of trips: the state machine runs without
 * regroup points, each lane taking the next item of the tile when its item ends. */
__kernel void stack_walk(__global const float4 *nodes, __global const float *ray,
                         __global float *hit, __global int *visited, const int nnodes)
{
    const int i = get_global_id(0);
    const float o = ray[i];
    int stack[16];
    int sp = 0;
    int nvis = 0;
    float best = 1e30f;
    stack[sp++] = 0;
    while (sp > 0) {
        const int node = stack[--sp];
        const float4 b = nodes[node];
        nvis++;
        if (b.x > o) {
            const float t = fabs(b.y - o) * b.z;
            if (t < best)
                best = t;
        } else if (sp < 14 && 2 * node + 2 < nnodes) {
            stack[sp++] = 2 * node + 1;
            stack[sp++] = 2 * node + 2;
        }
    }
    hit[i] = best;
    visited[i] = nvis;
}
