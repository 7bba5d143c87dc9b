/* A verify loop (`for`): a cheap test that skips the candidate with `continue`,
 * then an expensive check that breaks on a match. The continue still runs the
 * for loop's third part. */
static uint mix(uint x, uint k, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        x = (x ^ k) * 0x9e3779b1u;
        x = (x << 7) | (x >> 25);
    }
    return x;
}

__kernel void verify_continue_break(__global const uint *target, __global int *found,
                                    const int ncand, const uint mask, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const uint tg = target[i];
    int hit = -1, tried = 0;
    for (int c = 0; c < ncand; c++) {
        const uint h = mix(i * 64u + (uint)c, 17u, 2);
        if ((h & mask) != (tg & mask))
            continue;
        if ((mix(h, 5u, 16) & 3u) == (tg & 3u)) {
            hit = c;
            break;
        } else {
            tried++;
        }
    }
    found[i] = hit * 1000 + tried;
}
