// A switch sets a mode, a later decision tests it: of the 3 x 2 paths, only
// 3 can run (case 0 sets k = 1, which never passes k > 5). The impossible
// leaves are dropped (no kernel, no bucket; --report says why), and the
// others still validate with --require-all-leaves.
__kernel void shade_mode(__global const int *sel, __global const float *x, __global float *out)
{
    const int i = get_global_id(0);
    int k = 0;
    switch (sel[i] & 3) {
    case 0: k = 1; break;
    case 1: k = 7; break;
    default: k = 3; break;
    }
    if (k > 5)
        out[i] = x[i] * 2.0f;
    else if (k == 3)
        out[i] = x[i] + 1.0f;
    else
        out[i] = -x[i];
}
