// RUN: nplus1gen %s --validate --global 4096 --arg in=range:0:1 --strategy atomic,aggregated,ordered,chunked,tile
// EXPECT: match all-leaves
/*
 * macros_named_like_work_item_fields.cl - regression (issue 17, item 5): the
 * input's object-like macros are live in the generated file, whose prelude
 * comes after the original source. Macros named size, dim, id and off
 * (common names) turned the members of the prelude's work-item struct
 * (uint id[3], size[3], off[3]; uint dim;) into numbers: the generated set
 * did not compile (exit 3). Every member is nplus1_-prefixed now.
 */
#define size 64
#define dim 2
#define id 3
#define off 1

__kernel void scale(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float v = in[i] * size;
    if (v > 32.0f)
        out[i] = v / dim + id;
    else
        out[i] = v * off - get_work_dim();
}
