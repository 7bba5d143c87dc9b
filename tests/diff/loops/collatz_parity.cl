/* Collatz stopping times: a while loop whose body is one parity if/else
 * (data-dependent), with the loop state (a ulong and a uint) carried across
 * iterations and an epilogue that stores the count. */
__kernel void collatz_parity(__global const uint *start, __global uint *steps, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    ulong v = start[i];
    uint s = 0;
    while (v > 1 && s < 400) {
        if (v & 1)
            v = 3 * v + 1;
        else
            v >>= 1;
        s++;
    }
    steps[i] = s;
}
