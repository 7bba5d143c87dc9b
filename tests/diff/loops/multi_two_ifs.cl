/* Two data ifs in one body: the first is cheap, the second's branch is costly (a
 * bounded inner loop). The loop kernel regroups at the second (its costliest branch
 * costs most); the first runs as written in the head. */
__kernel void multi_two_ifs(__global const uint *seed, __global float *out, const uint n,
                            const int steps)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint s = seed[i] | 1u;
    float acc = 0.0f, w = 1.0f;
    int k = 0;
    while (k < steps) {
        s = s * 1664525u + 1013904223u;
        if (s & 0x10000u)
            w = w * 0.5f + 0.25f;
        else
            w += 0.125f;
        if ((s >> 24) < 96u) {
            float x = (float)(s & 1023u) * (1.0f / 1024.0f);
            for (int r = 0; r < 12; r++)
                x = x * (1.0f - x) * 3.7f;
            acc += x * w;
        } else {
            acc += w * 0.01f;
        }
        k++;
    }
    out[i] = acc + (float)k;
}
