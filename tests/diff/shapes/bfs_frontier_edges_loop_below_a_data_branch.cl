// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg nnodes=4000 \
// RUN: --arg start=range:0:3900 --arg degree=range:0:24 --arg edges=size:4000 \
// RUN: --arg edges=range:0:4000 --arg mask=choice:0,0,0,1 --arg visited=choice:0,1 --report
// RUN: nplus1gen %s --validate --global 4096 --arg nnodes=4000 --arg start=range:0:3900 \
// RUN: --arg degree=range:0:24 --arg edges=size:4000 --arg edges=range:0:4000 \
// RUN: --arg mask=choice:0,0,0,1 --arg visited=choice:0,1 --split always --report
// EXPECT: match
// OUTPUT: ^    leaf 0 -> bfs_expand__nplus1_leaf0  lines 31-37  cost
/*
 * Shape of: Rodinia 3.1, opencl/bfs/Kernels.cl (BFS_1; in /work/corpus/rodinia/bfs.cl):
 * `if (tid < no_of_nodes && g_graph_mask[tid]) { for (i = starting; i < starting +
 * no_of_edges; i++) { id = g_graph_edges[i]; if (!g_graph_visited[id]) { ... } } }`:
 * the edge loop (data-dependent trip count) below a data branch, its decision inside.
 * Rodinia's kernel writes g_cost[id] of the neighbour (items race on a shared
 * neighbour); here each frontier node writes only its own outputs: how many unvisited
 * neighbours it found, and a checksum of them.
 */
__kernel void bfs_expand(__global const int *start, __global const int *degree,
                         __global const int *edges, __global const int *mask,
                         __global const int *visited, __global int *fresh,
                         __global uint *sum, const int nnodes)
{
    const int tid = get_global_id(0);
    if (tid < nnodes && mask[tid]) {
        int nfresh = 0;
        uint acc = 0u;
        const int first = start[tid];
        const int last = min(first + degree[tid], 4000);
        for (int i = first; i < last; i++) {
            const int id = edges[i] % nnodes;
            if (!visited[id]) {
                nfresh++;
                uint x = (uint)id;
                for (int r = 0; r < 12; r++)
                    x = x * 1664525u + 1013904223u;
                acc ^= x;
            }
        }
        fresh[tid] = nfresh;
        sum[tid] = acc;
    }
}
