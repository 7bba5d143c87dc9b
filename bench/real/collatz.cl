/*
 * collatz.cl - Collatz stopping times: a loop with two cheap arms.
 *
 * Models the Collatz-conjecture verification kernels found in GPU
 * programming tutorials and distributed-computing clients: one work-item
 * per start value, n/2 or 3n+1 until the value reaches 1 (capped), the
 * number of steps stored. Both arms are a couple of integer operations, so
 * regrouping them cannot pay: the target is that `auto` keeps the original.
 *
 * Today: the affine guard is the only top-level decision; the parity test
 * sits inside the loop.
 */
#define MAX_STEPS 2000

__kernel void stopping_time(__global const uint *start, __global uint *steps,
                            const ulong base, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    ulong v = base + start[i];
    uint s = 0;
    while (v > 1 && s < MAX_STEPS) {
        if (v & 1)
            v = 3 * v + 1;
        else
            v >>= 1;
        s++;
    }
    steps[i] = s;
}
