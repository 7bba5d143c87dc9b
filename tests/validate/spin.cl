// A kernel whose validation runs for minutes on POCL (n = 2000000000 trips an item on the
// positive side): interrupt.sh stops nplus1gen while its runner runs it.
__kernel void spin(__global uint *out, const uint n)
{
    const size_t i = get_global_id(0);
    uint acc = 1u;
    if (out[i] > 5u) {
        for (uint k = 0; k < n; k++)
            acc = acc * 3u + (k ^ acc);
    } else {
        acc = out[i] + 7u;
    }
    out[i] = acc;
}
