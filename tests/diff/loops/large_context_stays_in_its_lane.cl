/* A context of 64 floats an item: over the local memory a work-group may give (288 bytes
 * an item, 73728 a work-group of 256). The loop kernel is still built: each item stays in
 * its lane, and a policy that moves contexts (1, 2) builds as 0, refill only. */
__kernel void large_context(__global const float *a, __global float *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    float h[64];
    for (int k = 0; k < 64; k++)
        h[k] = a[(i + k) % n];
    int s = 0;
    while (s < 64) {
        if (h[s] > 0.0f)
            h[(s + 1) & 63] += h[s];
        else
            h[(s + 3) & 63] -= 1.0f;
        s++;
    }
    out[i] = h[0];
}
