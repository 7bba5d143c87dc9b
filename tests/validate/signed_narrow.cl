// Default random inputs cover a char's and a short's whole range (issue 16,
// item 17): the `< 0` leaves of both buffers get items without any --arg.
__kernel void signed_narrow(__global const char *c, __global const short *s,
                            __global int *out)
{
    int i = get_global_id(0);
    if (c[i] < 0)
        out[i] = c[i] * 3;
    else if (s[i] < 0)
        out[i] = s[i] - 7;
    else
        out[i] = c[i] + s[i];
}
