/* Issue 28 item 3: a walk of an implicit binary tree (node k has children 2k+1 and 2k+2)
 * with a private stack of 16 node indices, one query an item, no guard: every decision
 * sits inside the loop. A node whose interval [lo, hi] holds the query is entered: a leaf
 * adds its weight (a few steps of work), an inner node pushes its two children. The stack,
 * the query, the sums and the head's node and x make a context of 128 bytes an item, 32768
 * bytes a work-group of 256: over the loop kernel's 24576-byte budget of local memory, so
 * each item stays in its lane. 255 nodes are 8 levels: the stack holds at most 9 entries (the test `sp < 15`
 * keeps any input in bounds). */
__kernel void stack16_walk(__global const float *lo, __global const float *hi,
                           __global const float4 *query, __global float *sum,
                           __global int *entered, const int nnodes)
{
    const int gid = get_global_id(0);
    const float4 q = query[gid];
    int stack[16];
    int sp = 0;
    float acc = 0.0f;
    int count = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const int node = stack[--sp];
        const float x = q.x + 0.25f * q.y * (float)(node & 3);
        if (x >= lo[node] && x <= hi[node]) {
            count++;
            if (2 * node + 1 >= nnodes) { /* a leaf: its weight */
                float w = hi[node] - x;
                for (int k = 0; k < 6; k++)
                    w = w * 0.5f + q.z * (x - lo[node]) * 0.125f;
                acc += w + q.w;
            } else if (sp < 15) { /* an inner node: both children */
                stack[sp++] = 2 * node + 2;
                stack[sp++] = 2 * node + 1;
            }
        }
    }
    sum[gid] = acc;
    entered[gid] = count;
}
