/* A 2-D launch: each item steps a point until it leaves the disc or runs out
 * of steps; a data-dependent if picks a rotation or a contraction from a
 * table the point indexes. The launch has offsets. */
__kernel void grid_2d(__global const float *table, __global float2 *out, const int w,
                      const int h)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w + (int)get_global_offset(0) || y >= h + (int)get_global_offset(1))
        return;
    float2 p = (float2)((float)x / (float)w - 0.5f, (float)y / (float)h - 0.5f);
    int k = 0;
    while (k < 64 && dot(p, p) < 4.0f) {
        const float t = table[(x * 7 + y * 13 + k) & 255];
        if (t > 0.0f)
            p = (float2)(p.x * 0.9f - p.y * 0.5f, p.x * 0.5f + p.y * 0.9f) * (1.0f + t);
        else
            p = p * 0.8f + (float2)(t, -t);
        k++;
    }
    out[(y - get_global_offset(1)) * w + (x - get_global_offset(0))] = p + (float2)((float)k);
}
