// Helpers that call work-item builtins get a copy taking the original ids, but
// only those the split kernels reach (directly, or through other helpers):
// helpers nobody calls, and helpers only a kernel left alone calls, are never
// summarised nor copied (a file of 60,000 helpers costs what its kernels use).
// The copies still compute the original's results.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q
// RUN: %strip %t/helper_copies_only_for_reached_helpers.nplus1.cl | sed -n '/^.. Begin nplus1 helpers/,$p' > %t/copies.cl
// RUN: %FileCheck %s --input-file %t/copies.cl
// RUN: %FileCheck %s --check-prefix=NOT --input-file %t/copies.cl
// RUN: %nplus1gen %s -k k --validate --global 1024 -q | %FileCheck %s --check-prefix=VALID

// CHECK:      #define gid() gid__nplus1(nplus1_wi)
// CHECK-NEXT: #define row(...) row__nplus1(nplus1_wi, __VA_ARGS__)
// CHECK:      static int gid__nplus1(const nplus1_wi_t nplus1_wi)
// CHECK:      static int row__nplus1(const nplus1_wi_t nplus1_wi, int w)
// NOT-NOT:    unused_gid
// NOT-NOT:    other_gid
// NOT-NOT:    scale__nplus1
// VALID:      validation passed

static int gid(void)
{
    return (int)get_global_id(0);
}

static int row(int w)
{
    return gid() / w;
}

static int unused_gid(void)
{
    return (int)get_global_id(0) + 1;
}

static int other_gid(void)
{
    return (int)get_global_id(0) * 2;
}

static float scale(float x)
{
    return x * 2.0f;
}

__kernel void k(__global const int *a, __global float *o)
{
    int i = get_global_id(0);
    if (a[i] > 512)
        o[i] = scale((float)row(16));
    else
        o[i] = (float)a[i];
}

__kernel void other(__global float *o)
{
    o[other_gid()] = 1.0f;
}
// REQUIRES: opencl-device
// (it runs on POCL: ctest golden_lit_filecheck_of_validation_and_profile_runs_on_a_device)
