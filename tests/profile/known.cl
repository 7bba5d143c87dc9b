/*
 * Kernels whose SIMT efficiency is known by hand (tests/profile/known.sh,
 * docs/cli.md "--profile"). heavy() is the same work on every path: a
 * helper the profile does not look into, so each path costs the same.
 */
float heavy(float x, float k)
{
    float a = x;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f; a = a * k + 1.0f;
    return a;
}

/* Two equally heavy paths alternating item by item: 0.5 at any width from 2. */
__kernel void alternating(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    if (i % 2 == 0)
        y[i] = heavy(x[i], 0.5f);
    else
        y[i] = heavy(x[i], 0.25f);
}

/* The same paths in runs of 64 items: no group of 32 or 64 mixes them, 1.0. */
__kernel void runs64(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    if ((i / 64) % 2 == 0)
        y[i] = heavy(x[i], 0.5f);
    else
        y[i] = heavy(x[i], 0.25f);
}

/* Trip counts 0, 4, ..., 124 across each 32 items: 62 of 124 iterations, 0.5. */
__kernel void trips(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    float a = x[i];
    for (int t = 0; t < 4 * (int)(i % 32); t++)
        a = heavy(a, 0.5f);
    y[i] = a;
}

/* Three equally heavy paths picked by random data (sel in 0..2): about 1/3 at width 32. */
__kernel void three_ways(__global const int *sel, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    switch (sel[i]) {
    case 0:
        y[i] = heavy(x[i], 0.5f);
        break;
    case 1:
        y[i] = heavy(x[i], 0.25f);
        break;
    default:
        y[i] = heavy(x[i], 0.125f);
        break;
    }
}
