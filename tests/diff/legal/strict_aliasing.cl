/* Issue 19 item 5: C's effective-type rule (C11 6.5p7, kept by OpenCL C from
 * C99): a store through one type cannot change what a load through an
 * incompatible type reads. Each kernel stores before a condition that loads from
 * another, non-restrict buffer: of another scalar type, or a field of another
 * struct type (the same scalar type in both). */
typedef struct { float fraction; int result2; } Hit;
typedef struct { float tmax; int depth; } Ray;
typedef struct { int rayCount; int state; float weight; } Sample;

__kernel void other_scalar_type(__global int *count, __global const float *val,
                                __global float *out)
{
    int i = get_global_id(0);
    count[i] = 0;
    if (val[i] > 0.5f)
        out[i] = val[i] * 2.0f;
    else
        out[i] = -val[i];
}

__kernel void other_struct_type(__global Hit *hit, __global Ray *rays, __global float *out)
{
    int i = get_global_id(0);
    hit[i].fraction = 1.f;
    if (rays[i].tmax > 0.5f)
        out[i] = rays[i].tmax;
    else
        out[i] = hit[i].fraction + (float)rays[i].depth;
}

__kernel void state_machine(__global Sample *samples, __global Ray *rays, __global float *out)
{
    int i = get_global_id(0);
    __global Sample *sample = &samples[i];
    sample->rayCount += 1;
    if (rays[i].depth > 512)
        out[i] = (float)sample->rayCount;
    else
        out[i] = sample->weight;
}
