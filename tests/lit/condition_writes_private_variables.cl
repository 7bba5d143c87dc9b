// An if's condition may write private variables: a helper's out-parameters
// '&t', '&nx' (its stores go to the caller's private memory), or '(v = ...)'.
// The classifier evaluates the condition; each leaf evaluates the conditions
// of its path again, in order, for those writes, then runs its branch.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --no-line
// RUN: %strip %t/condition_writes_private_variables.nplus1.cl | sed -n '/^.. ==== kernel trace/,$p' > %t/set.cl
// RUN: %FileCheck %s --input-file %t/set.cl

// CHECK:      static int trace__nplus1_classify(
// CHECK:          if (intersect(r, &t, &nx) && t < 4.0f) {
// CHECK:      static void trace__nplus1_leaf0_body(
// CHECK:          /* nplus1: branch 0 of the if at line 35 */ (void)(intersect(r, &t, &nx) && t < 4.0f); shade[i] = t * fabs(nx);{{$}}
// CHECK:      static void trace__nplus1_leaf1_body(
// CHECK:          /* nplus1: branch 1 of the if at line 35 */ (void)(intersect(r, &t, &nx) && t < 4.0f); (void)((v = q.z * t) > 0.5f); shade[i] = v;{{$}}
// CHECK:      static void trace__nplus1_leaf2_body(
// CHECK:          /* nplus1: branch 2 of the if at line 35 */ (void)(intersect(r, &t, &nx) && t < 4.0f); (void)((v = q.z * t) > 0.5f); shade[i] = -v;{{$}}
static int intersect(const float4 r, float *t, float *nx)
{
    const float b = r.x * r.z + r.y * r.w;
    const float c = r.x * r.x + r.y * r.y - 1.0f;
    if (b * b - c < 0.0f)
        return 0;
    *t = -b - sqrt(b * b - c);
    *nx = r.x + *t * r.z;
    return 1;
}

__kernel void trace(__global const float4 *rays, __global float *shade)
{
    const int i = get_global_id(0);
    const float4 q = rays[i];
    const float4 r = (float4)(q.x * 4.0f - 2.0f, q.y * 4.0f - 2.0f, q.z - 0.5f, q.w - 0.5f);
    float t = 0.0f, nx = 0.0f, v = 0.0f;
    if (intersect(r, &t, &nx) && t < 4.0f)
        shade[i] = t * fabs(nx);
    else if ((v = q.z * t) > 0.5f)
        shade[i] = v;
    else
        shade[i] = -v;
}
