// issue 16: a case label written with a macro; -DSEL=5 at run time must be followed.
#ifndef SEL
#define SEL 3
#endif
__kernel void sel(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int k = in[i] & 7;
    switch (k) {
    case SEL: out[i] = 1000 + k; break;
    case 0: out[i] = -1; break;
    default: out[i] = k * 2;
    }
}
