/* An original that really crashes the runner: items with flag set write far
 * past the end of out (1 << 30 elements on), the generated set and the
 * original alone alike. Validation must blame the original (its out-of-bounds
 * write, named by oclgrind when installed: exit 2; without it, the original
 * alone dies too: exit 1), never the generated set (exit 3). */
__kernel void scatter_far(__global const int *flag, __global int *out)
{
    int i = get_global_id(0);
    if (flag[i])
        out[(long)i + (1L << 30)] = i;
    else
        out[i] = -i;
}
