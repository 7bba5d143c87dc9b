/* A data decision at the top level (with a store and a return) before a loop whose
 * body decides on data: the tile splits the top decision; the loop runs in its leaf as
 * written, and --report says why it is not regrouped. */
__kernel void k(__global const int *kind, __global const int *a, __global float *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    float acc = 0.0f;
    if (kind[i] == 0) {
        out[i] = 1.0f;
        return;
    }
    int s = 0;
    while (s < 32) {
        if (a[(i + s) % n] > 0)
            acc += sin((float)s);
        else
            acc += 1.0f;
        s++;
    }
    out[i] = acc;
}
