/* A private pointer live across the iterations: nplus1-loop-state. */
__kernel void refuse_pointer(__global const int *a, __global int *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    int acc[2] = {0, 0};
    int *cur = &acc[0];
    int s = 0;
    while (s < 16) {
        if (a[(i + s) % n] > 0)
            *cur += 1;
        else
            *cur += 2;
        s++;
    }
    out[i] = acc[0] + acc[1];
}
