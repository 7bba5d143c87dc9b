/* A guard, then a top-level if/else on data whose else branch holds a loop with a data
 * decision: the tile regroups the loop; an item that takes the if's branch runs it in the
 * loop kernel's prologue phase and ends, and its lane takes the next item. */
__kernel void leaf_loop_else(__global const int *kind, __global const int *a,
                             __global float *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const int k = kind[i];
    if (k == 0) {
        out[i] = -1.0f;
    } else {
        float acc = (float)k;
        int s = 0;
        while (s < 24) {
            if (a[(i + s) % n] > 0)
                acc += sin((float)s) * 0.5f;
            else
                acc -= 0.25f;
            s++;
        }
        out[i] = acc;
    }
}
