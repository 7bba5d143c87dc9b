/* tests/lit/profile_errors.test: 1000 loop tests an item, 4 MB for 4096 items' paths. */
__kernel void long_loop(__global float *y)
{
    size_t i = get_global_id(0);
    float a = 0.0f;
    for (int t = 0; t < 1000; t++)
        a += (float)t;
    y[i] = a;
}
