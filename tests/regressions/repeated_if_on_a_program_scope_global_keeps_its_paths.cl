// RUN: nplus1gen %s --cl-std CL2.0 --report
// EXPECT: exit 0
// OUTPUT: kernel program_scope: can be split: 4 leaves, 4 leaf kernels
// OUTPUT: kernel through_helper: can be split: 4 leaves, 4 leaf kernels
// OUTPUT-NOT: dropped: impossible path
// The repeated-condition rule of impossible paths (tool/plan/paths.c; the kernels of
// repeated_if_on_an_unchanged_scalar_drops_the_contradicting_paths.cl) first took a
// condition on an OpenCL 2.0 program-scope __global variable for one only the path's
// own statements change: the analysis lists only local variables and parameters as
// what a condition reads, so `level = 3;` between the two ifs went unseen and the
// paths that take them differently were dropped (wrong code: an item taking them would
// do nothing). Likewise a condition that calls a helper, which may read such a variable.
// Now a condition that names a program-scope variable that is not const, itself or in a
// helper it calls, is never reused. (Report only: POCL builds the original as
// OpenCL 1.2, where a program-scope variable must be __constant.)
__global int level = 0;

static int shifted(int v)
{
    return v + level;
}

__kernel void program_scope(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const int v = (int)(in[i] > 0.5f);
    float x = in[i];
    if (level == v) {
        x = x * 2.0f;
    } else {
        x = x + 1.0f;
    }
    level = 3;
    if (level == v) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}

__kernel void through_helper(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    const int v = (int)(in[i] > 0.5f);
    float x = in[i];
    if (shifted(v) == 1) {
        x = x * 2.0f;
    } else {
        x = x + 1.0f;
    }
    level = 5;
    if (shifted(v) == 1) {
        for (int r = 0; r < 50; r++)
            x = x * 0.9f + sin(x);
    } else {
        for (int r = 0; r < 60; r++)
            x = x * 0.8f + cos(x);
    }
    out[i] = x;
}
