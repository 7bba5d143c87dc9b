/* Two decisions with an exit between: a cheap data if (with a continue), an if whose
 * branch breaks the loop, then a costly data if. The loop kernel regroups at the exit and
 * the if after it (one regroup point of 1 + 2 groups, the costliest); the first if runs as
 * written in the head, its continue ending the iteration there. */
__kernel void multi_break_between(__global const uint *seed, __global uint *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint s = seed[i] | 1u, acc = 0u;
    int it = 0;
    do {
        it++;
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        if ((s & 7u) == 0u) {
            acc += 1u;
            continue;
        }
        if ((s & 0xff00u) < 0x0c00u)
            break;
        if ((s >> 28) < 6u) {
            uint x = s;
            for (int r = 0; r < 16; r++)
                x = x * 2654435761u + (uint)r;
            acc ^= x;
        } else {
            acc += s >> 20;
        }
    } while (it < 64);
    out[i] = acc + (uint)it * 7u;
}
