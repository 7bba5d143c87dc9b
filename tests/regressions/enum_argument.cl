// RUN: nplus1gen %s --validate --global 8192 --arg mode=1
// EXPECT: match all-leaves
/*
 * enum_argument.cl - regression: a scalar argument of enum type.
 *
 * nplus1gen used to refuse enum parameters ("only buffers, scalars and
 * vectors are supported"); an enum is passed as its underlying integer
 * type (cl_uint here). 3 leaves, all non-empty with --arg mode=1.
 */
enum blend_mode { BLEND_ADD = 1, BLEND_MUL = 2 };

__kernel void blend(const enum blend_mode mode, __global const float *a,
                    __global const float *b, __global float *out)
{
    const int i = get_global_id(0);
    if (mode == BLEND_ADD && a[i] > 0.5f)
        out[i] = a[i] + b[i];
    else if (b[i] > 0.5f)
        out[i] = a[i] * b[i];
    else
        out[i] = a[i];
}
