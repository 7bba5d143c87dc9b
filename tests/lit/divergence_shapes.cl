// The divergence analysis on the decision shapes most common in real
// kernels: bounds guards (1-D, 2-D, through a linear id split by % and /,
// on vector components, through a helper), tests of scalar arguments (a
// direction, a sign, a bit flag, a switch on a mode), and data decisions
// (a loaded value, a value derived from a load in a helper, an id that
// repeats inside a SIMD group). --report prints one line per decision, in
// source order; the manifest carries the same.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s --report | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t/out -q
// RUN: %FileCheck %s --check-prefix=MANIFEST --input-file %t/out/divergence_shapes.nplus1.json

// CHECK-LABEL: kernel guard_1d: {{.*}}
// CHECK:         divergence (one line per decision, in source order):
// CHECK-NEXT:      divergence: affine: compares get_global_id(0) with argument 'n'  [line {{[0-9]+}}: if (gid >= n)]
// CHECK-NEXT:        plan: split: an early-return guard, a free filter in the classifier (its returning path makes no leaf kernel)
// CHECK-NEXT:      divergence: data: reads 'in[...]' (global memory) through 'v'  [line {{[0-9]+}}: if (v > 0.5f)]
// CHECK-NEXT:        plan: split
__kernel void guard_1d(__global const float *in, __global float *out, const int n)
{
    const int gid = get_global_id(0);
    if (gid >= n)
        return;
    const float v = in[gid];
    if (v > 0.5f)
        out[gid] = sqrt(v);
    else
        out[gid] = v * v;
}

// CHECK-LABEL: kernel sobel_border: {{.*}}
// CHECK:         split: never: no decision depends on data {{.*}}
// CHECK:         divergence (one line per decision, in source order):
// CHECK-NEXT:      divergence: affine: compares get_global_id(0) and get_global_id(1) with arguments 'width', 'height'  [line {{[0-9]+}}: if (x < 1 || y < 1 || x >= width - 1 || y >=...)]
// CHECK-NEXT:        plan: stays in the leaf kernels (not split)
__kernel void sobel_border(__global const uchar *img, __global uchar *out, const int width,
                           const int height)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int i = y * width + x;
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
        out[i] = 0;
    } else {
        const int gx = img[i + 1] - img[i - 1];
        const int gy = img[i + width] - img[i - width];
        out[i] = (uchar)((gx * gx + gy * gy) >> 4);
    }
}

// CHECK-LABEL: kernel linear_edges: {{.*}}
// CHECK:         divergence (one line per decision, in source order):
// CHECK-NEXT:      divergence: data: 'gid % w' repeats with a period known only at run time, which may be shorter than a SIMD group (32 items) through 'x'  [line {{[0-9]+}}: if (x == 0 || x == w - 1)]
// CHECK-NEXT:        plan: split
// CHECK-NEXT:      divergence: uniform: depends only on argument 'direction'  [line {{[0-9]+}}: if (direction == 0)]
// CHECK-NEXT:        plan: stays in the leaf kernels (not split)
__kernel void linear_edges(__global float *field, const int w, const int direction)
{
    const int gid = get_global_id(0);
    const int x = gid % w, y = gid / w;
    if (x == 0 || x == w - 1) {
        field[gid] = 0.0f;
    } else {
        field[gid] = 0.5f * (field[gid - 1] + field[gid + 1]) + (float)y;
    }
    if (direction == 0)
        field[gid] = -field[gid];
}

static int inside(int2 p, int2 size)
{
    return p.x >= 0 && p.y >= 0 && p.x < size.x && p.y < size.y;
}

// CHECK-LABEL: kernel vector_guard: {{.*}}
// CHECK:         divergence (one line per decision, in source order):
// CHECK-NEXT:      divergence: affine: compares get_global_id(0) and get_global_id(1) with argument 'size'  [line {{[0-9]+}}: if (!inside(p, size))]
// CHECK-NEXT:        plan: split: an early-return guard, a free filter in the classifier (its returning path makes no leaf kernel)
// CHECK-NEXT:      divergence: uniform: depends only on argument 'x_diff'  [line {{[0-9]+}}: if (x_diff > 0)]
// CHECK-NEXT:        plan: stays in the leaf kernels (not split)
__kernel void vector_guard(__global float *dst, const int2 size, const int x_diff)
{
    const int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
    if (!inside(p, size))
        return;
    if (x_diff > 0) {
        dst[p.y * size.x + p.x] += 1.0f;
    } else {
        dst[p.y * size.x + p.x] -= 1.0f;
    }
}

// CHECK-LABEL: kernel flags_and_modes: {{.*}}
// CHECK:         divergence (one line per decision, in source order):
// CHECK-NEXT:      divergence: uniform: depends only on argument 'flags'  [line {{[0-9]+}}: if (flags & 2)]
// CHECK-NEXT:        plan: stays in the leaf kernels (not split)
// CHECK-NEXT:      divergence: uniform: depends only on argument 'mode'  [line {{[0-9]+}}: switch (mode)]
// CHECK-NEXT:        plan: stays in the leaf kernels (not split)
// CHECK-NEXT:      divergence: data: 'i % 2' repeats with a period shorter than a SIMD group (32 items)  [line {{[0-9]+}}: if (i % 2 == 0)]
// CHECK-NEXT:        plan: split
__kernel void flags_and_modes(__global float *a, const uint flags, const int mode)
{
    const int i = get_global_id(0);
    if (flags & 2)
        a[i] *= 2.0f;
    switch (mode) {
    case 0:
        a[i] += 1.0f;
        break;
    default:
        a[i] -= 1.0f;
        break;
    }
    if (i % 2 == 0)
        a[i] = -a[i];
}

// MANIFEST:      "name": "guard_1d",
// MANIFEST:      "decisions": [
// MANIFEST-NEXT:   {"line": {{[0-9]+}}, "kind": "if", "condition": "gid >= n", "divergence": "affine", "reason": "compares get_global_id(0) with argument 'n'", "keep_in_leaf": false},
// MANIFEST-NEXT:   {"line": {{[0-9]+}}, "kind": "if", "condition": "v > 0.5f", "divergence": "data", "reason": "reads 'in[...]' (global memory) through 'v'", "keep_in_leaf": false}
// MANIFEST-NEXT: ],
// MANIFEST:      "name": "sobel_border",
// MANIFEST:      "split": "never",
// MANIFEST:      "decisions": [
// MANIFEST-NEXT:   {"line": {{[0-9]+}}, "kind": "if", "condition": "x < 1 || y < 1 || x >= width - 1 || y >= height - 1", "divergence": "affine", "reason": "compares get_global_id(0) and get_global_id(1) with arguments 'width', 'height'", "keep_in_leaf": true}

// A uniform decision with a data decision inside stays split; so does one
// that may return while a data decision follows (keeping it in the leaves
// would keep that one too).
// CHECK-LABEL: kernel nested_data: {{.*}}
// CHECK:         divergence (one line per decision, in source order):
// CHECK-NEXT:      divergence: uniform: depends only on argument 'mode'  [line {{[0-9]+}}: if (mode == 2)]
// CHECK-NEXT:        plan: split: it may return or break, and a data decision follows
// CHECK-NEXT:      divergence: uniform: depends only on argument 'mode'  [line {{[0-9]+}}: if (mode > 0)]
// CHECK-NEXT:        plan: split: a data decision is nested in it
// CHECK-NEXT:      divergence: data: reads 'in[...]' (global memory)  [line {{[0-9]+}}: if (in[i] > 0.0f)]
// CHECK-NEXT:        plan: split
__kernel void nested_data(__global const float *restrict in, __global float *out, const int mode)
{
    const int i = get_global_id(0);
    if (mode == 2) {
        out[i] = 0.0f;
        return;
    }
    if (mode > 0) {
        if (in[i] > 0.0f)
            out[i] = in[i];
        else
            out[i] = -in[i];
    }
}
