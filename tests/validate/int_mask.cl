// A frontier update in the shape of Rodinia's BFS_2 (opencl/bfs/Kernels.cl): the work
// happens where the char mask is 1. `--arg mask=range:0:1` fills it with 0 (the range
// is half-open), so no item reaches the working leaf; choice:0,1 draws both values.
__kernel void frontier(__global char *mask, __global char *visited, __global int *next,
                       const int n)
{
    const int i = get_global_id(0);
    if (i < n && mask[i]) {
        mask[i] = 0;
        visited[i] = 1;
        next[i] = i * 3 + 1;
    }
}
