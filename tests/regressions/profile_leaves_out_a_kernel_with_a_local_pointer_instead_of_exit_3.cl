// RUN: nplus1gen %s --profile --global 256 --arg n=256
// EXPECT: exit 0
// OUTPUT: ^nplus1gen: note: kernel 'with_scratch' left out: its parameter 'scratch' is a __local pointer, which the profile run does not set
// OUTPUT: ^kernel plain: SIMT efficiency
// OUTPUT-NOT: CL_INVALID_ARG_VALUE
// Found by the public-kernel trial: --profile on Rodinia's backprop_kernel.cl, whose
// bpnn_layerforward_ocl takes `__local float *input_node`, stopped with "profiling ...
// could not run: setting an argument of the original kernel: CL_INVALID_ARG_VALUE" and
// exit 3 (an internal error): the profile run gives every pointer a buffer. A kernel with
// a __local pointer parameter is now left out with a note (named with -k: an error,
// exit 1), and the file's other kernels are profiled.
__kernel void with_scratch(__global const float *in, __global float *out,
                           __local float *scratch, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (in[i] > 0.5f)
        out[i] = in[i] * 2.0f;
    else
        out[i] = in[i];
}

__kernel void plain(__global const float *in, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (in[i] > 0.5f)
        out[i] = in[i] * 2.0f;
    else
        out[i] = in[i] + 1.0f;
}
