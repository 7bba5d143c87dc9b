// RUN: nplus1gen %s --validate --global 4096 --arg in=range:0:8 --strategy aggregated,atomic --split always
// EXPECT: match all-leaves
/*
 * array_param_writes_the_callers_array.cl - regression (issue 26, item 7): a
 * helper parameter written as an array (`int p[4]`) is a pointer, but
 * libclang 14 shows it with its array type, and the effects scan took
 * `p[0] = v` for a write of the helper's own private array. So `fill(w, ...)`
 * did not write the caller's `w`, the classifier's slice left it out, and
 * the classifier decided on a `w` it never filled: `validation FAILED:
 * outputs differ` (every item in leaf 1). The store now goes through the
 * parameter to the caller's array, and the call is in the slice.
 */
static void fill(int p[4], int v)
{
    p[0] = v;
    p[1] = v + 1;
}

__kernel void fill_then_decide(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    int w[4] = {0, 0, 0, 0};
    fill(w, in[i]);
    if (w[0] > 3)
        out[i] = w[1];
    else
        out[i] = -w[1];
}
