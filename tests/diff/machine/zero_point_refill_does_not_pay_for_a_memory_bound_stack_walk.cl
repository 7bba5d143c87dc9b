// RUN: nplus1gen %s --validate --global 65536 --strategy tile --arg nnodes=255 --report
// EXPECT: match
// OUTPUT: policy: regroup NPLUS1_LOOP_REGROUP=-1: off \(the kernel's own body in place\) \(the default; -D sets it\): no regroup point: .*the loop at line \d+ runs a data-dependent number of trips, but a trip computes about \d+ operations for 1 global load
/* Issue 28 item 3: a private-stack traversal (bench/real's bvh_stack in small) whose
 * decisions are cheap against a round and whose `while (sp > 0)` runs a data-dependent
 * number of trips. Run refill only (the state machine without regroup points) it lost on
 * an H200 (0.84x forced, 1.01x with regrouping off; bvh_stack 0.93x): a trip computes about
 * 20 operations for its load of `nodes`, and the refilling tile runs a lane's items one
 * after the other in NPLUS1_TILE_IPT times fewer work-items, with fewer loads in flight.
 * The cost rule (regroup_rule.h) no longer refills it: no decision and no refill pays, so
 * the loop kernel runs it with regrouping off (-1, the kernel's own body in place: its
 * context, 128 bytes an item, stays in its lane), and --report says why in terms of cost.
 * Before issue 28 item 3 the context's size made the loop kernel decline and the kernel
 * was refused [nplus1-no-decision]. */
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
