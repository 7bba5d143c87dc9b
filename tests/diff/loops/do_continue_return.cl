/* A `do` loop: the first pass runs before the test; a branch ends its
 * iteration with `continue` (the test still runs), another returns from the
 * kernel, and a break after the decision leaves the loop. */
__kernel void do_continue_return(__global const int *a, __global int *out, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    int v = (a[i] & 1023) + 2, s = 0, acc = 0;
    do {
        s++;
        if (v % 3 == 0) {
            v = v / 3 + 7;
            if (v == 13) {
                out[i] = -s;
                return;
            }
            continue;
        } else if (v & 1) {
            v = 3 * v + 1;
        } else {
            v >>= 1;
        }
        acc += v & 7;
        if (acc > 300)
            break;
    } while (v > 1 && s < 200);
    out[i] = acc * 256 + s;
}
