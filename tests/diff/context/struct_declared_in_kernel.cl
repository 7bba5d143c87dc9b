// Issue 18 review: a context that was wrong (carried a dangling pointer, left a
// vstore'd array behind) or did not compile under --strategy tile. Now correct.
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    struct P { int a, b; };
    struct P p = { in[i], in[i] * 2 };
    if (in[i] & 1) { out[i] = p.a + 1; } else { out[i] = p.b - 1; }
}
