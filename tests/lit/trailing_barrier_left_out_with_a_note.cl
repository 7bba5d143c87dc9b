// A barrier that is a kernel's last statement orders nothing (no statement follows it;
// __local memory, which it could order, is refused): the kernel is split, a note says
// the barrier is left out, and no generated kernel has it. A barrier with a statement
// after it, one inside a branch at the end, one that ends a helper called last, and a
// trailing barrier beside __local memory are still refused (docs/legality.md,
// "A barrier that ends the kernel").
// RUN: rm -rf %t
// RUN: %nplus1gen %s -k cdf_search -o %t 2>&1 | %FileCheck %s --check-prefix=NOTE --match-full-lines
// RUN: %FileCheck %s --check-prefix=GEN < %t/trailing_barrier_left_out_with_a_note.nplus1.cl
// RUN: not %nplus1gen %s -k followed -k in_branch -k via_helper -k with_local --check 2>&1 | %FileCheck %s --check-prefix=REFUSED

// NOTE:      {{.*}}trailing_barrier_left_out_with_a_note.cl:[[@LINE+22]]:5: note: the barrier that ends kernel 'cdf_search' orders nothing (no statement follows it) and is left out of the generated kernels
// NOTE-NEXT: barrier(CLK_GLOBAL_MEM_FENCE);
// NOTE-NEXT: ^
// GEN:     {{^}}/* Begin nplus1 classifier of cdf_search */
// GEN-NOT: {{^[[:space:]]+barrier\(CLK_GLOBAL_MEM_FENCE\);$}}
// GEN:     {{^}}/* Begin nplus1 leaf 0 body of cdf_search */
// GEN-NOT: {{^[[:space:]]+barrier\(CLK_GLOBAL_MEM_FENCE\);$}}
// GEN:     {{^[[:space:]]+}}(void)0 /* nplus1gen: left out, a barrier that ends the kernel orders nothing */;
// GEN-NOT: {{^[[:space:]]+barrier\(CLK_GLOBAL_MEM_FENCE\);$}}
__kernel void cdf_search(__global const float *cdf, __global const float *u,
                         __global int *index, const int n)
{
    const int i = get_global_id(0);
    int found = n - 1;
    if (u[i] > 0.25f) {
        for (int x = 0; x < n; x++)
            if (cdf[x] >= u[i]) {
                found = x;
                break;
            }
    }
    index[i] = found;
    barrier(CLK_GLOBAL_MEM_FENCE);
    ;
}

// REFUSED: {{.*}}.cl:[[@LINE+8]]:5: error: kernel 'followed' calls 'barrier' [nplus1-barrier]
__kernel void followed(__global const float *u, __global int *index)
{
    const int i = get_global_id(0);
    if (u[i] > 0.5f)
        index[i] = 1;
    else
        index[i] = 2;
    barrier(CLK_GLOBAL_MEM_FENCE);
    index[i] += index[i ^ 1];
}

// REFUSED: {{.*}}.cl:[[@LINE+8]]:9: error: kernel 'in_branch' calls 'barrier' [nplus1-barrier]
__kernel void in_branch(__global const float *u, __global int *index)
{
    const int i = get_global_id(0);
    if (u[i] > 0.5f) {
        index[i] = 1;
    } else {
        index[i] = 2;
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

static void sync_all(void)
{
    barrier(CLK_GLOBAL_MEM_FENCE);
}

// REFUSED: {{.*}}.cl:[[@LINE-3]]:5: error: kernel 'via_helper' calls 'barrier' [nplus1-barrier]
__kernel void via_helper(__global const float *u, __global int *index)
{
    const int i = get_global_id(0);
    if (u[i] > 0.5f)
        index[i] = 1;
    else
        index[i] = 2;
    sync_all();
}

// REFUSED: {{.*}}.cl:[[@LINE+3]]:17: error: kernel 'with_local' uses __local memory ('tile') [nplus1-local-memory]
__kernel void with_local(__global const float *u, __global int *index)
{
    __local int tile[64];
    const int i = get_global_id(0);
    tile[i & 63] = (int)(u[i] * 8.0f);
    if (u[i] > 0.5f)
        index[i] = tile[i & 63];
    else
        index[i] = 2;
    barrier(CLK_LOCAL_MEM_FENCE);
}
// REFUSED-NOT: note: the barrier that ends kernel
