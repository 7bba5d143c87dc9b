// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg lanes=1 --arg chunk=2 \
// RUN: --arg nvert=4096 --arg curr=2 --arg levels=size:8193 --arg levels=choice:0,1,2,3,4294967295 \
// RUN: --arg offsets=size:8193 --arg offsets=iota --arg edges=size:8193 --arg edges=range:0:8192 \
// RUN: --arg next=size:8193 --report
// RUN: nplus1gen %s --validate --global 4096 --arg lanes=1 --arg chunk=2 --arg nvert=4096 \
// RUN: --arg curr=2 --arg levels=size:8193 --arg levels=choice:0,1,2,3,4294967295 \
// RUN: --arg offsets=size:8193 --arg offsets=iota --arg edges=size:8193 \
// RUN: --arg edges=range:0:8192 --arg next=size:8193 --split always --report
// RUN: nplus1gen %s --validate --global 4096 --arg lanes=1 --arg chunk=2 --arg nvert=4096 \
// RUN: --arg curr=2 --arg levels=size:8193 --arg levels=choice:0,1,2,3,4294967295 \
// RUN: --arg offsets=size:8193 --arg offsets=iota --arg edges=size:8193 \
// RUN: --arg edges=range:0:8192 --arg next=size:8193 --split always \
// RUN: -D NPLUS1_LOOP_REGROUP=1 --require-all-leaves --report
// EXPECT: match
// OUTPUT: candidates: original and tile\+loop only
// OUTPUT: loop \(tile\): line \d+: no decision of the loop pays for a round, nor does refilling: regrouping off
// By the cost rule (tool/plan/regroup_rule.c) no decision of its loop pays for a round and
// refilling does not pay either: the set runs the loop kernel with regrouping off (its
// leaves not counted); the last run forces mixed rounds to check the regrouped loop.
/*
 * Shape of: SHOC (vetter/shoc), src/opencl/level1/bfs/bfs_iiit.cl, BFS_kernel_warp:
 * each item owns a chunk of CHUNK_SZ vertices (clipped at the end of the graph by a
 * top-level if), walks them one by one, and for a vertex on the current level
 * (`if (levels[v] == curr)`, the data decision) visits its neighbours with a loop strided
 * by the warp width (W_OFF, W_SZ), marking the unvisited ones for the next level. Here
 * each vertex counts its unvisited neighbours into its own slot of `next` instead of
 * marking them (SHOC's marks race between items on a real graph, which a comparison
 * with the original cannot tell from a wrong result), with one item a vertex chunk.
 */
__kernel void bfs_chunks(__global const uint *levels, __global const uint *offsets,
                         __global const uint *edges, __global uint *next, int lanes, int chunk,
                         uint nvert, int curr)
{
    const int tid = get_global_id(0);
    const int w_off = tid % lanes;
    const int w_id = tid / lanes;
    const int v1 = w_id * chunk;
    int size = chunk + 1;
    if ((uint)(v1 + chunk) >= nvert) {
        size = (int)nvert - v1 + 1;
        if (size < 0)
            size = 0;
    }
    for (int v = v1; v < size - 1 + v1; v++) {
        if (levels[v] == (uint)curr) {
            const uint nbr_count = offsets[v + 1] - offsets[v];
            const uint nbr_off = offsets[v];
            uint unvisited = 0;
            for (uint i = (uint)w_off; i < nbr_count + 6u; i += (uint)lanes) {
                const uint u = edges[(i + nbr_off) & 8191u];
                if (levels[u] == 0xffffffffu)
                    unvisited += u & 7u;
            }
            next[v] = unvisited * 4u + (uint)curr;
        }
    }
}
