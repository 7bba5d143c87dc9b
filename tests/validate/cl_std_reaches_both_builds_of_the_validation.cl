// RUN: nplus1gen %s --cl-std=CL1.2 -DWANT=120 --validate --global 1024 --split always
// RUN: nplus1gen %s --cl-std=cl2.0 -DWANT=200 --validate --global 1024 --split always
// RUN: nplus1gen %s --cl-std=CL2.0 -DWANT=200 --build-options=-cl-std=CL2.0 --validate \
// RUN: --global 1024 --split always --strategy tile
// EXPECT: match
/*
 * --cl-std, the version the input is parsed as, reaches the device builds of
 * --validate (the original's and the generated set's) as -cl-std=, upper case, once
 * (a -cl-std= in --build-options is the only one then). Without it POCL builds as OpenCL C 3.0 whatever the
 * parse saw, and a kernel that tests __OPENCL_C_VERSION__ (here: the version its host
 * builds it with) stopped at its own #error: "could not run: building the original
 * kernel" (a gap session 6's public-kernel trial left open).
 */
#if __OPENCL_C_VERSION__ != WANT
#error "built as another OpenCL C version than the one it was parsed as"
#endif
__kernel void scale_by_version(__global const float *in, __global float *out)
{
    const size_t i = get_global_id(0);
    if (in[i] > 0.5f)
        out[i] = in[i] * 2.0f;
    else
        out[i] = -in[i];
}
