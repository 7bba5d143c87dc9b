// The kernel IR (--dump-ir) of the loop shapes real kernels have and the
// loop kernel of this version does not regroup (issue 28): a decision in a
// nested block, a decision in an inner loop (a 5x5 neighbour test), a loop
// below a branch at depth 2, a decision after a loop, two loops with
// decisions. Every decision gets its divergence class where it sits.
// RUN: %nplus1gen %s --dump-ir | %FileCheck %s

// CHECK-LABEL: kernel nested_block: 9 nodes, 6 variables, 0 inlined calls
// CHECK-NEXT:   #0 block line [[#]] cost 137 fx mem-write,mem-read,local-write,work-item
// CHECK-NEXT:     #1 stmt line [[#]] cost 8 fx work-item
// CHECK-NEXT:     #2 stmt line [[#]] cost 0
// CHECK-NEXT:     #3 loop for line [[#]] cost 128 uniform "depends only on argument 'n'" fx mem-read,local-write
// CHECK-NEXT:       #4 block line [[#]] cost 6 fx mem-read,local-write
// CHECK-NEXT:         #5 block line [[#]] cost 6 fx mem-read,local-write
// CHECK-NEXT:           #6 if line [[#]] cost 6 data "reads 'in[...]' (global memory)" fx mem-read,local-write arms then 1 else 0 (none)
// CHECK-NEXT:             #7 stmt line [[#]] cost 1 fx local-write
// CHECK-NEXT:     #8 stmt line [[#]] cost 1 fx mem-write
// CHECK-NEXT: variables:
// CHECK-NEXT:   v0 in: const __global float *__private, 8 bytes, param, pointer, scope #0, line [[#]]
// CHECK:        v5 i: __private int, 4 bytes, scope #3, line [[#]]
__kernel void nested_block(__global const float *in, __global float *out, int n)
{
    int gid = get_global_id(0);
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        {
            if (in[gid * n + i] > 0.5f)
                acc += 1.0f;
        }
    }
    out[gid] = acc;
}

// A 5x5 neighbour test: the decision sits in the inner loop; both loops have
// constant trip counts.
// CHECK-LABEL: kernel neighbours: 11 nodes, 9 variables, 0 inlined calls
// CHECK:          #3 loop for line [[#]] cost 366 trips 5 uniform "depends only on constants" fx mem-read,local-write
// CHECK-NEXT:       #4 block line [[#]] cost 71 fx mem-read,local-write
// CHECK-NEXT:         #5 loop for line [[#]] cost 71 trips 5 uniform "depends only on constants" fx mem-read,local-write
// CHECK-NEXT:           #6 block line [[#]] cost 12 fx mem-read,local-write
// CHECK-NEXT:             #7 stmt line [[#]] cost 6 fx mem-read
// CHECK-NEXT:             #8 if line [[#]] cost 6 data "reads 'img[...]' (global memory) through 'v'" fx mem-read,local-write arms then 1 else 0 (none)
// CHECK:        v7 dx: __private int, 4 bytes, scope #5, line [[#]]
// CHECK-NEXT:   v8 v: __private float, 4 bytes, scope #6, line [[#]]
__kernel void neighbours(__global const float *img, __global float *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            float v = img[(y + dy) * w + x + dx];
            if (v > img[y * w + x])
                sum += v;
        }
    }
    out[y * w + x] = sum;
}

// A loop below a branch at depth 2, then a decision after the loop.
// CHECK-LABEL: kernel deep_loop: 12 nodes, 6 variables, 0 inlined calls
// CHECK:          #3 if line [[#]] cost 98 uniform "depends only on argument 'mode'" fx local-write arms then 97 else 0 (none)
// CHECK-NEXT:       #4 block line [[#]] cost 97 fx local-write
// CHECK-NEXT:         #5 if line [[#]] cost 97 affine "compares get_global_id(0) with argument 'n'" fx local-write arms then 96 else 0 (none)
// CHECK-NEXT:           #6 block line [[#]] cost 96 fx local-write
// CHECK-NEXT:             #7 loop while line [[#]] cost 96 data "reads 'in[...]' (global memory) through 'x'" fx local-write
// CHECK-NEXT:               #8 stmt line [[#]] cost 5 fx local-write
// CHECK-NEXT:     #9 if line [[#]] cost 3 data "reads 'in[...]' (global memory) through 'x'" fx mem-write arms then 1 else 2
__kernel void deep_loop(__global const int *in, __global int *out, int n, int mode)
{
    int gid = get_global_id(0);
    int x = in[gid];
    if (mode == 1) {
        if (gid < n) {
            while (x > 1)
                x = (x & 1) ? 3 * x + 1 : x / 2;
        }
    }
    if (x > 0)
        out[gid] = x;
    else
        out[gid] = -x;
}

// Two loops, each with a decision; a break leaves the first.
// The first loop's condition is data too: the loop may leave early under a data
// decision, so whether an item still runs it varies.
// CHECK-LABEL: kernel two_loops: 16 nodes, 6 variables, 0 inlined calls
// CHECK:          #3 loop for line [[#]] cost 80 trips 8 data "reads 'in[...]' (global memory) through 'i'" fx mem-read,local-write
// CHECK-NEXT:       #4 block line [[#]] cost 8 fx mem-read,local-write
// CHECK-NEXT:         #5 if line [[#]] cost 4 data "reads 'in[...]' (global memory)" fx mem-read arms then 0 else 0 (none)
// CHECK-NEXT:           #6 break line [[#]] cost 0 -> #3
// CHECK:          #9 loop do line [[#]] cost 96 data "reads 'in[...]' (global memory) through 'a'" fx local-write
// CHECK-NEXT:       #10 block line [[#]] cost 3 fx local-write
// CHECK-NEXT:         #11 if line [[#]] cost 2 data "reads 'in[...]' (global memory) through 'a'" fx local-write arms then 1 else 1
__kernel void two_loops(__global const float *in, __global float *out)
{
    int gid = get_global_id(0);
    float a = 0.0f;
    for (int i = 0; i < 8; i++) {
        if (in[gid + i] < 0.0f)
            break;
        a += in[gid + i];
    }
    int k = 0;
    do {
        if (a > 4.0f)
            a *= 0.5f;
        else
            a += 1.0f;
        k++;
    } while (a < 100.0f && k < 16);
    out[gid] = a;
}
