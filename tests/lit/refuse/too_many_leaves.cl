// Rule nplus1-too-many-leaves: even the outermost decision alone has more
// paths than --max-leaves allows. (More paths in all are fine: nplus1gen
// then splits only the outer levels that fit; see max_leaves_inner_levels.cl.)
// A four-way material switch with --max-leaves 3 cannot be cut smaller.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t --max-leaves 3 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t --max-leaves 3 >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
// RUN: %nplus1gen %s -o %t --max-leaves 4 -q

// CHECK:      {{.*}}too_many_leaves.cl:[[@LINE+8]]:15: error: kernel 'shade' has 8 paths through its decisions (leaves), 4 with only its outermost decisions split; at most 3 are allowed [nplus1-too-many-leaves]
// CHECK-NEXT: __kernel void shade(__global const int *material, __global const float *cosine,
// CHECK-NEXT:               ^
// CHECK-NEXT: {{.*}}too_many_leaves.cl:[[@LINE+5]]:15: note: nplus1gen splits the outer levels of the condition tree that fit and leaves the inner ones in the leaf kernels, but one decision alone has more branches than that; raise --max-leaves (at most 64)
// CHECK-NEXT: __kernel void shade(__global const int *material, __global const float *cosine,
// CHECK-NEXT:               ^
// CHECK-NEXT: nplus1gen: 1 error; no files written
// CHECK-NOT:  {{.}}
__kernel void shade(__global const int *material, __global const float *cosine,
                    __global float *radiance)
{
    const int i = get_global_id(0);
    const float c = cosine[i];
    float r;
    switch (material[i] & 3) {
    case 0: /* diffuse */
        r = c * 0.318f;
        break;
    case 1: /* mirror */
        r = c > 0.99f ? 1.0f : 0.0f;
        break;
    case 2: /* glossy */
        r = pow(c, 32.0f);
        break;
    default: /* emissive */
        r = 4.0f;
        break;
    }
    if (c < 0.0f)
        r = 0.0f;
    radiance[i] = r;
}
