/* A kernel whose only decision sits in an inner loop: the outer loop's body has no
 * decision at its top level, so nothing is regrouped and, with no top-level decision
 * either, the kernel is refused under --strategy tile too (nplus1-no-decision). */
__kernel void refuse_loop_only(__global const int *a, __global int *out)
{
    const int i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < 4; k++) {
        for (int j = 0; j < 8; j++) {
            if (a[(i + j) & 255] > k)
                s++;
        }
    }
    out[i] = s;
}
