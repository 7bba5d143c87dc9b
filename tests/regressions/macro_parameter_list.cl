// RUN: nplus1gen %s --validate --global 4096 --arg n=4000 --arg in=range:0:1
// EXPECT: match all-leaves
/*
 * macro_parameter_list.cl - regression (issue 16, item 6): a kernel whose
 * parameter list is one macro, as every hashcat kernel is declared, and one
 * whose parameter is a macro that does not spell its name in the kernel.
 *
 * The generated kernels repeated each parameter's text, the whole macro
 * call, once per parameter ("redefinition of parameter 'in'", exit 3). A
 * parameter whose text is another's too, or does not hold its name, is now
 * declared as clang expanded it: "const __global float *in".
 */
#define KERN_ATTR(T) __global const T *in, __global T *out, const unsigned n
#define OUT_BUF __global int *flags

__kernel void whole_list(KERN_ATTR(float))
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    if (in[i] > 0.5f)
        out[i] = in[i] * 2.0f;
    else
        out[i] = -in[i];
}

__kernel void one_parameter(__global const int *v, OUT_BUF)
{
    const int i = get_global_id(0);
    if (v[i] & 1)
        flags[i] = v[i] * 3;
    else
        flags[i] = 1 - v[i];
}
