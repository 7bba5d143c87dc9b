/* A break a macro writes: its text cannot be rewritten, so the loop is not
 * regrouped (the kernel still splits at its top level under tile). */
#define LEAVE break
__kernel void refuse_macro_break(__global const int *a, __global int *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    int v = a[i], s = 0;
    while (s < 100) {
        if (v & 1) {
            v = 3 * v + 1;
        } else {
            v >>= 1;
            if (v == 1)
                LEAVE;
        }
        s++;
    }
    out[i] = s;
}
