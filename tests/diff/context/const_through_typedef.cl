// Issue 18 review: a context that was wrong (carried a dangling pointer, left a
// vstore'd array behind) or did not compile under --strategy tile. Now correct.
typedef const int cint;
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    cint x = in[i] * 5;
    if (in[i] & 1) { out[i] = x + 1; } else { out[i] = x - 1; }
}
