// issue 16: an #ifdef inside a branch; -DFAST at run time must not give other results.
__kernel void fast_path(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    if (v > 512) {
#ifdef FAST
        out[i] = v * 2;
#else
        out[i] = v + 1;
#endif
    } else {
        out[i] = -v;
    }
}
