// RUN: nplus1gen %s --validate --global 4096 -q
// RUN: nplus1gen %s --validate --global 4096 -q --no-line
// EXPECT: match all-leaves
/* Regression (issue 26, item 2; hashcat's OpenCL tree): a guarded header and
 * a #pragma once header included from the kernel file and again from an
 * included .cl file in another folder. The preprocessor does not enter them
 * the second time, and the generated file kept those second #include lines:
 * it built only with the header's folder on the include path (-o exit 3). */
#include "header_included_again/vendor.h"
#include "header_included_again/once.h"
#include "header_included_again/platform.cl"
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    if (v > 512)
        out[i] = pick(v);
    else
        out[i] = scaled(v) - bias(v);
}
