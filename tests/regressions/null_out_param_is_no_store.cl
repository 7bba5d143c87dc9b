// RUN: nplus1gen %s --validate --global 4096 --arg flags=range:0:5 --strategy aggregated,atomic --split always
// EXPECT: match all-leaves
/*
 * null_out_param_is_no_store.cl - regression (issue 26, item 7): the shape
 * of LuxCore's texture mappings (UVRandomMapping2D_Map calls
 * UVRandomMapping2D_MapImpl(mapping, hitPoint, NULL, NULL), whose
 * `if (ds && dt) { *ds = ...; }` stores through the out-parameters). A NULL
 * argument points to no object, and a store through it would be undefined,
 * so the call writes nothing; it counted as a store to memory, and the
 * kernel was refused twice (the slice's side effect, then the read of
 * flags[i] after a "write").
 */
#define NULL 0

static float2 map_impl(__global const float *uv, int i, float2 *ds)
{
    const float2 p = (float2)(uv[2 * i], uv[2 * i + 1]);
    if (ds)
        *ds = p * 2.0f;
    return p;
}

static float2 map(__global const float *uv, int i)
{
    return map_impl(uv, i, NULL);
}

static float2 map_duv(__global const float *uv, int i, float2 *ds)
{
    return map_impl(uv, i, ds);
}

__kernel void shade(__global const float *uv, __global const int *flags, __global float *out)
{
    const int i = get_global_id(0) % 2048;
    const float2 p = map(uv, i);
    float2 d;
    const float2 q = map_duv(uv, i, &d);
    if (p.x > 0.5f && flags[get_global_id(0)] > 2)
        out[get_global_id(0)] = q.y + d.x;
    else if (d.y > 0.5f)
        out[get_global_id(0)] = p.y;
    else
        out[get_global_id(0)] = -1.0f;
}
