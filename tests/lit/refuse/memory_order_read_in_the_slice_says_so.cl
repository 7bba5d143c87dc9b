// Rule nplus1-memory-order, the read in a statement the condition needs: a ray tracer's
// pass moves each ray's origin along its direction (a store to origin[i]), loads the
// moved origin to intersect, and tests the hit. The read is in no condition's text but
// in the classifier's slice; the error said "a condition reads memory" at a line with
// no condition on it. It now says the read is in a statement of the condition's slice.
// A read in the condition's own text keeps the short message.
// RUN: not %nplus1gen %s --split always --check 2>&1 | %FileCheck %s --match-full-lines

// CHECK:      {{.*}}memory_order_read_in_the_slice_says_so.cl:[[@LINE+13]]:34: error: a condition reads memory after the kernel wrote memory, through this statement of its slice (the classifier runs it to compute the condition) [nplus1-memory-order]
// CHECK-NEXT: const float t = hit_distance(origin[i], dir[i]);
// CHECK-NEXT: ^
static float hit_distance(float3 o, float3 d)
{
    return dot(o, d) - 0.5f;
}

__kernel void advance_and_hit(__global float3 *origin, __global const float3 *dir,
                              __global float *depth)
{
    const int i = get_global_id(0);
    origin[i] = origin[i] + dir[i] * 0.001f;
    const float t = hit_distance(origin[i], dir[i]);
    if (t > 0.0f)
        depth[i] = t;
    else
        depth[i] = -1.0f;
}

// CHECK:      {{.*}}memory_order_read_in_the_slice_says_so.cl:[[@LINE+5]]:9: error: a condition reads memory after the kernel wrote memory [nplus1-memory-order]
__kernel void in_the_condition(__global float *buf, __global float *depth)
{
    const int i = get_global_id(0);
    buf[i] = 2.0f * buf[i];
    if (buf[i] > 1.0f)
        depth[i] = 1.0f;
    else
        depth[i] = 0.0f;
}
