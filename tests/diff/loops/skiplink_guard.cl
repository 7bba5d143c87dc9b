/* A stack-free traversal with skip links (the shape of bench/real/bvh_skiplink.cl)
 * behind a guard: a node either is entered (node + 1, a leaf test inside) or
 * skipped (its skip link). 2-D launch. */
__kernel void skiplink_guard(__global const float2 *box, __global const int *skip,
                             __global const float *leaf_t, __global float *hit, const int w,
                             const int h, const int nnodes)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    const float px = ((float)x + 0.5f) / (float)w, py = ((float)y + 0.5f) / (float)h;
    float best = 1e30f;
    int node = 0, visited = 0;
    while (node < nnodes) {
        const float2 b = box[node];
        const float lo = fmin(b.x, b.y), hi = fmax(b.x, b.y);
        visited++;
        if (px >= lo && px <= hi) {
            const float t = leaf_t[node];
            if (t > 0.0f && t * (1.0f + py) < best)
                best = t * (1.0f + py);
            node++;
        } else {
            node += 1 + (skip[node] & 7); /* past the subtree */
        }
    }
    hit[y * w + x] = (best < 1e30f ? best : -1.0f) + (float)visited * 1000.0f;
}
