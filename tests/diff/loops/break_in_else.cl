/* A while loop that leaves with a break nested in its decision's else branch:
 * the item runs the code after the loop and its lane takes the next item. */
__kernel void break_in_else(__global const int *a, __global int *out, const uint n)
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
                break;
        }
        s++;
    }
    out[i] = s * 1000 + v;
}
