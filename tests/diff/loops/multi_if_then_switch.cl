/* A data if with an else (not an exit guard), then a switch on data later in the body:
 * the if's branch is the costlier, so the loop kernel regroups at the if and the switch
 * runs as written in the rest of the iteration (its break leaves the switch only; the
 * case that breaks the loop does so through a flag). */
__kernel void multi_if_then_switch(__global const int *a, __global int *out, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    int v = a[i], h = 0, done = 0;
    for (int t = 0; t < 40 && !done; t++) {
        const int c = (v ^ (v >> 5)) & 15;
        if (c < 5) {
            for (int r = 0; r < 10; r++)
                h = (h * 31 + v + r) % 100003;
        } else {
            h = (h + c) % 100003;
        }
        switch (v & 3) {
        case 0:
            v = v / 2 + 7;
            break;
        case 1:
            v = (v * 3 + 1) % 65536;
            break;
        default:
            if (h % 13 == 0)
                done = 1;
            v = (v + t) % 65536;
            break;
        }
    }
    out[i] = h * 2 + done;
}
