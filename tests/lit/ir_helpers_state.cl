// The kernel IR (--dump-ir) of helpers and private state (issue 28): a
// bounce loop in a helper, inlined at its call with its parameters bound and
// its return value a variable; a pointer to a private variable passed to a
// helper (address taken, "points to") and passed on to a second helper; a
// BVH-style private stack `int stack[16]` (64 bytes, an array); a union
// state; a switch with fall-through; a condition a loop carries from one
// iteration to the next (data) beside a carried counter that stays uniform.
// RUN: %nplus1gen %s --dump-ir -k radiance_kernel | %FileCheck %s --check-prefix=HELPER
// RUN: %nplus1gen %s --dump-ir -k bvh | %FileCheck %s --check-prefix=STACK
// RUN: %nplus1gen %s --dump-ir -k carried | %FileCheck %s --check-prefix=CARRIED

typedef struct { float x, y, z; } vec3;
typedef union { float f; uint u; } bits_t;

float radiance(vec3 o, int depth, __global const float *mat, int seed)
{
    float acc = 0.0f;
    for (int b = 0; b < depth; b++) {
        int m = (int)mat[seed + b] & 3;
        if (m == 0)
            return acc;
        acc += mat[seed + b] * o.x;
    }
    if (depth > 4) /* uniform: the argument bound to 'depth' is */
        acc *= 0.5f;
    return acc;
}

// HELPER-LABEL: kernel radiance_kernel: 18 nodes, 14 variables, 1 inlined calls
// HELPER:         #2 stmt line [[#]] cost {{.*}} fx mem-read
// HELPER-NEXT:      #3 call line [[#]] cost {{.*}} fx mem-read,local-write radiance return v10
// HELPER-NEXT:        bind v6 radiance#3.o <- 'o'
// HELPER-NEXT:        bind v7 radiance#3.depth <- 'depth'
// HELPER-NEXT:        bind v8 radiance#3.mat <- 'mat'
// HELPER-NEXT:        bind v9 radiance#3.seed <- 'gid'
// HELPER-NEXT:        #4 block line 16 cost {{.*}}
// HELPER-NEXT:          #5 stmt line 17 cost 0
// HELPER-NEXT:          #6 loop for line 18 cost {{.*}} data "reads 'mat[...]' (global memory) through 'm'" fx mem-read,local-write
// HELPER-NEXT:            #7 block line 18 cost {{.*}}
// HELPER-NEXT:              #8 stmt line 19 cost {{.*}} fx mem-read
// HELPER-NEXT:              #9 if line 20 cost 1 data "reads 'mat[...]' (global memory) through 'm'" arms then 0 else 0 (none)
// HELPER-NEXT:                #10 return line 21 cost 0 -> #3 (leaves the helper)
// HELPER-NEXT:              #11 stmt line 22 cost {{.*}} fx mem-read,local-write
// HELPER-NEXT:          #12 if line 24 cost 2 uniform "depends only on arguments 'o', 'depth'" fx local-write arms then 1 else 0 (none)
// HELPER-NEXT:            #13 stmt line 25 cost 1 fx local-write
// HELPER-NEXT:          #14 return line 26 cost 0 -> #3 (leaves the helper)
// HELPER-NEXT:    #15 if line [[#]] cost 1 affine "compares get_global_id(0) with argument 'depth'" arms then 0 else 0 (none)
// HELPER-NEXT:      #16 return line [[#]] cost 0 (ends the item)
// HELPER:       v6 radiance#3.o: __private vec3, 12 bytes, param, struct, scope #3, line 15
// HELPER-NEXT:  v7 radiance#3.depth: __private int, 4 bytes, param, scope #3, line 15
// HELPER-NEXT:  v8 radiance#3.mat: const __global float *__private, 8 bytes, param, pointer, scope #3, line 15
// HELPER-NEXT:  v9 radiance#3.seed: __private int, 4 bytes, param, scope #3, line 15
// HELPER-NEXT:  v10 radiance#3.return: float, 4 bytes, return, scope #3
// HELPER-NEXT:  v11 radiance#3.acc: __private float, 4 bytes, scope #4, line 17
// HELPER-NEXT:  v12 radiance#3.b: __private int, 4 bytes, scope #6, line 18
// HELPER-NEXT:  v13 radiance#3.m: __private int, 4 bytes, scope #7, line 19
__kernel void radiance_kernel(__global const float *mat, __global float *out, vec3 o, int depth)
{
    int gid = get_global_id(0);
    float r = radiance(o, depth, mat, gid);
    if (gid == depth)
        return;
    out[gid] = r;
}

void push(int *stack, int *sp, int node)
{
    if (node >= 0)
        stack[(*sp)++ & 15] = node;
}

void visit(int *stack, int *sp, int node, bits_t *hit)
{
    if (node & 1)
        push(stack, sp, node >> 1);
    else
        hit->u = node;
}

// STACK-LABEL: kernel bvh: 26 nodes, 14 variables, 2 inlined calls
// STACK:          #7 loop while line [[#]] cost {{.*}} data "reads 'nodes[...]' (global memory) through 'node'" fx local-write
// STACK:              #10 call line [[#]] cost {{.*}} visit
// STACK-NEXT:           bind v7 visit#10.stack <- 'stack' points to v3 stack
// STACK-NEXT:           bind v8 visit#10.sp <- '&sp' points to v4 sp
// STACK-NEXT:           bind v9 visit#10.node <- 'node'
// STACK-NEXT:           bind v10 visit#10.hit <- '&hit' points to v5 hit
// STACK-NEXT:           #11 block line [[#]] cost {{.*}}
// STACK-NEXT:             #12 if line [[#]] cost {{.*}} data "reads 'nodes[...]' (global memory) through 'node'" {{.*}}
// STACK-NEXT:               #13 stmt line [[#]] cost {{.*}}
// STACK-NEXT:                 #14 call line [[#]] cost {{.*}} push
// STACK-NEXT:                   bind v11 push#14.stack <- 'stack' points to v3 stack
// STACK-NEXT:                   bind v12 push#14.sp <- 'sp' points to v4 sp
// STACK-NEXT:                   bind v13 push#14.node <- 'node >> 1'
// STACK:          #20 switch line [[#]] cost 3 data "the address of 'hit' is taken, so a call or store may set it" fx local-write
// STACK-NEXT:       arm '0, 1' at 0 cost 2 falls-through
// STACK-NEXT:       arm '2' at 1 cost 1
// STACK-NEXT:       arm 'default' implicit
// STACK-NEXT:       #21 block line [[#]] cost 2 fx local-write
// STACK-NEXT:         #22 stmt line [[#]] cost 1 fx local-write
// STACK-NEXT:         #23 stmt line [[#]] cost 1 fx local-write
// STACK-NEXT:         #24 break line [[#]] cost 0 -> #20
// STACK:        variables:
// STACK:          v3 stack: __private int[16], 64 bytes, array, addr-taken, scope #0, line [[#]]
// STACK-NEXT:     v4 sp: __private int, 4 bytes, addr-taken, scope #0, line [[#]]
// STACK-NEXT:     v5 hit: __private bits_t, 4 bytes, union, addr-taken, scope #0, line [[#]]
// STACK-NEXT:     v6 node: __private int, 4 bytes, scope #0, line [[#]]
// STACK-NEXT:     v7 visit#10.stack: __private int *__private, 8 bytes, param, pointer, scope #10, line [[#]]
__kernel void bvh(__global const int *nodes, __global uint *out)
{
    int gid = get_global_id(0);
    int stack[16];
    int sp = 0;
    bits_t hit;
    int node = nodes[gid];
    hit.u = 0;
    while (node > 0) {
        visit(stack, &sp, node, &hit);
        node = sp > 0 ? stack[--sp & 15] : 0;
    }
    switch (hit.u & 3) {
    case 0:
    case 1:
        hit.u += 1;
    case 2:
        hit.u *= 2;
        break;
    }
    out[gid] = hit.u;
}

// The first decision reads 't', which the loop carries and sets from memory
// after it: data. The second reads 'k', carried too, but only counted under
// the loop's uniform condition: uniform.
// CARRIED-LABEL: kernel carried: 13 nodes, 8 variables, 0 inlined calls
// CARRIED:          #4 loop for line [[#]] cost 192 uniform "depends only on argument 'n'" fx mem-read,local-write
// CARRIED-NEXT:       #5 block line [[#]] cost 10 fx mem-read,local-write
// CARRIED-NEXT:         #6 if line [[#]] cost 2 data "reads 'in[...]' (global memory) through 't'" fx local-write arms then 1 else 0 (none)
// CARRIED-NEXT:           #7 stmt line [[#]] cost 1 fx local-write
// CARRIED-NEXT:         #8 if line [[#]] cost 2 uniform "depends only on argument 'n'" fx local-write arms then 1 else 0 (none)
__kernel void carried(__global const float *in, __global float *out, int n)
{
    int gid = get_global_id(0);
    float t = 0.0f, v = 0.0f;
    int k = 0;
    for (int j = 0; j < n; j++) {
        if (t > 1.0f)
            v += t;
        if (k == 3)
            v += 1.0f;
        t = in[gid * n + j];
        k++;
    }
    out[gid] = v;
}
