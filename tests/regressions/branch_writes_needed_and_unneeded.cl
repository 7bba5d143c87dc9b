// RUN: nplus1gen %s --validate --global 4096 --arg in=range:0:1
// EXPECT: match all-leaves
/*
 * branch_writes_needed_and_unneeded.cl - regression (issue 16, item 3): a
 * branch statement writes one variable a later condition reads ('hits') and
 * one it does not ('t', read only by the leaves).
 *
 * The statement belongs to the classifier's slice for 'hits', but the
 * declaration of 't' did not, so the classifier assigned an undeclared 't'
 * (exit 3). The classifier now declares every variable the slice writes.
 */
static float scaled_hit(float x, int *h)
{
    *h += 1;
    return x * 2.0f;
}

__kernel void through_helper(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float t = 0.0f;
    int hits = (in[i] < 0.2f) - (in[i] > 0.9f);
    if (in[i] > 0.5f)
        t = scaled_hit(in[i], &hits);
    if (hits > 0)
        out[i] = t + 1.0f;
    else
        out[i] = t - 1.0f;
}

__kernel void comma_expression(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float t = in[i];
    int hits = in[i] < 0.2f;
    if (in[i] > 0.5f)
        t = in[i] * 2.0f, hits = in[i] < 0.9f;
    if (hits > 0)
        out[i] = t + 1.0f;
    else
        out[i] = t - 1.0f;
}
