/* The shape of Rodinia's BFS_1: each item relaxes a neighbour's cost, read at
 * an index that comes from memory (next[tid]), from its own (cost[tid]).
 * Items that share a neighbour race on cost[id]: the last writer wins, and
 * which one is last is the schedule's choice. In one work-group POCL runs
 * the items in order; the split runs one leaf's items, then the other's, so
 * another item writes last, and both results are legal. */
__kernel void relax(__global const int *next, __global const int *mask, __global int *cost)
{
    int tid = get_global_id(0);
    int id = next[tid];
    if (mask[tid])
        cost[id] = cost[tid] + 1;
    else
        cost[id] = cost[tid] + 2;
}
