/* The shape of Rodinia's BFS_1: g_cost[id] written at an index read from the edges */
typedef struct {
    int starting;
    int no_of_edges;
} Node;

__kernel void bfs_step(const __global Node *g_graph_nodes, const __global int *g_graph_edges,
                       __global int *g_graph_mask, __global int *g_updating_graph_mask,
                       __global int *g_graph_visited, __global int *g_cost, const int no_of_nodes)
{
    int tid = get_global_id(0);
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting;
             i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}
