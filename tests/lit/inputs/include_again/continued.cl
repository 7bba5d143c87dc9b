#include \
    "inc/vendor.h"
#include "inc/platform.cl"
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    if (in[i] > 512)
        out[i] = pick(in[i]);
    else
        out[i] = scaled(in[i]);
}
