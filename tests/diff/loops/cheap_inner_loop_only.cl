/* A kernel whose only decision sits in an inner loop and is cheap against a regrouping
 * round (its arms save about nothing a visit), in loops of constant trip counts (refilling
 * does not pay either): a cost verdict, not a legality rule. The outer loop's body has no
 * decision at its top level (not the loop kernel's shape) and the state machine has no
 * regroup point, so the set's tile kernel is the state machine without one, regrouping
 * off: the kernel's own body in place (was refused nplus1-no-decision). */
__kernel void cheap_inner_loop_only(__global const int *a, __global int *out)
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
