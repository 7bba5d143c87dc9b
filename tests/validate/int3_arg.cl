// A 3-component vector argument (issue 16, item 18): --arg N=30,30,4 gives
// its three lanes (the fourth is padding, not the user's); the leaves
// compare the input with N.x and N.x + N.y and use N.z.
__kernel void int3_bounds(__global const int *cell, __global int *out, const int3 N)
{
    int i = get_global_id(0);
    int c = cell[i];
    if (c < N.x)
        out[i] = c * N.z;
    else if (c < N.x + N.y)
        out[i] = c + N.z;
    else
        out[i] = -N.z;
}
