/* A loop with a break and a return inside the branch of a top-level if, the rest of the
 * branch after the loop, an else branch, and code after the if: a break runs the rest of
 * the branch and the code after the if; a return ends the item. */
__kernel void leaf_loop_break_return(__global const int *a, __global const int *mode,
                                     __global int *out)
{
    const uint i = get_global_id(0);
    int v = a[i];
    int r = 0;
    if (mode[i] != 0) {
        int steps = 0;
        while (steps < 200) {
            if (v & 1) {
                v = 3 * v + 1;
                if (v > 1000000) {
                    out[i] = -steps;
                    return;
                }
            } else {
                v >>= 1;
                if (v <= 1)
                    break;
            }
            steps++;
        }
        r = steps;
    } else {
        r = -1;
    }
    out[i] = r + v;
}
