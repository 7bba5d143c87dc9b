/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.cl - the cost terms of --profile's predictions (tests/profile/model.sh): two
 * kernels alike but for their costly leaf (exp and log against a multiply and an add, the
 * same count of operations as written), and an else-if chain of four leaves.
 */
__kernel void exp_leaf(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float x = in[i];
    if (x > 0.5f) {
        for (int k = 0; k < 64; k++)
            x = exp(x) * 0.25f + log(x + 2.0f);
    } else {
        x = x * 0.5f;
    }
    out[i] = x;
}

__kernel void plain_leaf(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float x = in[i];
    if (x > 0.5f) {
        for (int k = 0; k < 64; k++)
            x = fma(x, 0.25f, 0.5f) * 0.25f + fma(x, 0.5f, 2.0f);
    } else {
        x = x * 0.5f;
    }
    out[i] = x;
}

__kernel void chain(__global const int *kind, __global float *out)
{
    const int i = get_global_id(0);
    const int k = kind[i];
    float s = (float)i;
    if (k == 0) {
        for (int t = 0; t < 256; t++)
            s = s * 0.9f + 1.0f;
    } else if (k == 1) {
        for (int t = 0; t < 256; t++)
            s = s * 0.8f + 2.0f;
    } else if (k == 2) {
        for (int t = 0; t < 256; t++)
            s = s * 0.7f + 3.0f;
    } else {
        for (int t = 0; t < 256; t++)
            s = s * 0.6f + 4.0f;
    }
    out[i] = s;
}

/* Two kernels alike but for `restrict` on the input: no store reaches what its loads read,
 * so the memory-order rule needs no record of them, yet they move memory all the same and
 * the profile counts them (the tree's accesses, the classifier's reads, the bytes). */
__kernel void load_plain(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const int n = get_global_size(0);
    const float x = in[i];
    const float far = in[(i * 7) % n];
    float y;
    if (x > 0.5f)
        y = x * far;
    else
        y = x + far;
    out[i] = y;
}

__kernel void load_restrict(__global const float *restrict in, __global float *out)
{
    const int i = get_global_id(0);
    const int n = get_global_size(0);
    const float x = in[i];
    const float far = in[(i * 7) % n];
    float y;
    if (x > 0.5f)
        y = x * far;
    else
        y = x + far;
    out[i] = y;
}

/* Three loads of one buffer, one of each coalescing class (tools/analyze/traffic.h): a[i]
 * consecutive items at consecutive addresses (coalesced, 4 bytes an item), a[idx[i]] at
 * addresses the data picks (a sector an item), a[0] one address for every item (broadcast);
 * idx[i] and out[i] coalesce too. The top statement before the decision holds all three. */
__kernel void three_classes(__global const float *a, __global const int *idx,
                            __global float *out)
{
    const int i = get_global_id(0);
    const float v = a[i] + a[idx[i]] + a[0];
    float y;
    if (v > 1.5f)
        y = v * 0.5f;
    else
        y = v + 1.0f;
    out[i] = y;
}

/* A pure math builtin called again on the same value is computed once (tool/analyze/
 * math_once.c): turns() calls turn() three times in a loop, each a cos and a sin of its
 * parameter (once for the three), and math_once calls turns() twice on its item's angle (once
 * for both); math_every's second call is on another value (a * 0.5f: computed again). */
static float turn(float angle, int k)
{
    return cos(angle) * (float)k + sin(angle);
}

static float turns(float angle)
{
    float r = 0.0f;
    for (int k = 0; k < 3; k++)
        r += turn(angle, k);
    return r;
}

__kernel void math_once(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const float a = in[i];
    float r = 0.0f;
    if (a > 0.5f)
        r = turns(a) + turns(a);
    out[i] = r;
}

__kernel void math_every(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const float a = in[i];
    float r = 0.0f;
    if (a > 0.5f)
        r = turns(a) + turns(a * 0.5f);
    out[i] = r;
}
