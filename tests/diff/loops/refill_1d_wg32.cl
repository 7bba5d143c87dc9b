/* The reduced case of a POCL loopvec failure (docs/design.md, "Loops"): a 1-D launch of
 * 32-item work-groups, items with different trip counts, so lanes refill while
 * others still iterate; each item writes its trip count and its row. Items were
 * lost when the round loop and the refill loop shared a header. */
__kernel void refill_1d(__global const float *table, __global float2 *out, const int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w)
        return;
    float2 p = (float2)((float)x / (float)w - 0.5f, 0.25f);
    int k = 0;
    while (k < 64 && dot(p, p) < 4.0f) {
        const float t = table[(x * 7 + y * 13 + k) & 255];
        if (t > 0.0f)
            p = (float2)(p.x * 0.9f - p.y * 0.5f, p.x * 0.5f + p.y * 0.9f) * (1.0f + t);
        else
            p = p * 0.8f + (float2)(t, -t);
        k++;
    }
    out[y * w + x] = (float2)((float)y, (float)k);
}
