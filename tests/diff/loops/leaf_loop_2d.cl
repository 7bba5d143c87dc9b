/* A 2-D guard, then a top-level if/else whose else branch iterates an escape loop with
 * a data decision: launched in 2-D with offsets, the loop kernel's items keep their ids. */
__kernel void leaf_loop_2d(__global const float *img, __global float *out, const int w,
                           const int h)
{
    const int x = get_global_id(0) - get_global_offset(0);
    const int y = get_global_id(1) - get_global_offset(1);
    if (x >= w || y >= h)
        return;
    const int p = y * w + x;
    const float v = img[p];
    if (v < 0.3f) {
        out[p] = v + (float)get_global_id(1);
    } else {
        float z = v;
        int it = 0;
        while (it < 40 && z < 4.0f) {
            if (z > 1.0f)
                z = z * 0.9f + 0.3f * sin(z) + 0.2f;
            else
                z = z * z + v;
            it++;
        }
        out[p] = z + (float)it + (float)get_global_id(0);
    }
}
