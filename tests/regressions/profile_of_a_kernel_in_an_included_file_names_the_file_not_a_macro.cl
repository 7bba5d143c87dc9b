// RUN: nplus1gen %s --profile --global 256 --arg n=256
// EXPECT: exit 0
// OUTPUT: ^nplus1gen: note: kernel 'average' left out: line 2: the kernel is written in an included file, and the profile instruments the input file's text only
// OUTPUT: ^kernel walk: SIMT efficiency
// OUTPUT-NOT: written by a macro
// Found by the public-kernel trial: Discrete-Asian-Option-Pricing keeps its kernels in
// engines/*.cl and utilityFunctions.cl, which the host concatenates; a file that
// #includes them got "cannot profile kernel 'averageKernel': line 89: a condition written
// by a macro cannot be instrumented" and exit 1 for the whole file. The profile edits the
// input file's text only: a kernel in an included file is now named as such, and without
// -k it is left out (as any kernel the profile cannot run) while the others are profiled.
#include "profile_kernel_in_an_included_file/engines.cl"

__kernel void walk(__global const uint *steps, __global float *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = 1.0f;
    for (uint s = 0; s < steps[i] % 24u; s++) {
        if (((s ^ i) & 3u) == 0u)
            x = x * 1.01f + 0.5f;
        else
            x = x * 0.99f;
    }
    out[i] = x;
}
