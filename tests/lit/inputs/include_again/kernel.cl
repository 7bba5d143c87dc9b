#include "inc/vendor.h"
#include "inc/once.h"
#include "inc/platform.cl"
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    if (v > 512)
        out[i] = pick(v);
    else
        out[i] = scaled(v) - bias(v);
}
