/* 32 leaves: five nested decisions on loaded values; four of them compare with a
 * value that random inputs (0 .. N-1) never hit, so most leaves get no items. */
__kernel void many(__global const int *a, __global const int *b, __global const int *c,
                   __global const int *d, __global float *out)
{
    int i = get_global_id(0);
    float r = 0.0f;
    if (a[i] == -7) r += 1.0f; else r += 2.0f;
    if (b[i] == -7) r *= 3.0f; else r *= 4.0f;
    if (c[i] == -7) r -= 5.0f; else r -= 6.0f;
    if (d[i] == -7) r /= 7.0f; else r /= 8.0f;
    if (a[i] > b[i]) out[i] = r * sin(r) * cos(r) * sin(r * 2.0f) * cos(r * 3.0f);
    else out[i] = r * cos(r) * sin(r) * cos(r * 5.0f) * sin(r * 7.0f);
}
