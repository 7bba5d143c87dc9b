// BFS-like expansion over a graph held in struct buffers: the fields
// first_edge and num_edges index the edges buffer. Filled field by field
// (integers in [0, elements)), the indices are valid by default.
typedef struct {
    int first_edge;
    int num_edges;
} node_t;

typedef struct {
    float weight;
    int target;
    struct { short lo, hi; } tag;
    float pad[2];
} edge_t;

__kernel void expand(__global const node_t *nodes, __global const edge_t *edges,
                     __global const int *frontier, __global const int *dist,
                     __global int *next, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (frontier[i] > 511) {
        int first = nodes[i].first_edge;
        int count = nodes[i].num_edges % 4;
        int best = dist[i];
        for (int e = 0; e < count && first + e < n; e++) {
            int t = edges[first + e].target;
            best = min(best, dist[t] + (int)(edges[first + e].weight * 16.0f) + edges[first + e].tag.hi);
        }
        next[i] = best;
    } else {
        next[i] = dist[i] + 1;
    }
}
