/* A loop in a case of a top-level switch: not regrouped (the loop kernel regroups a loop
 * in a branch of a top-level if only); the tile splits the switch and the loop runs in its
 * leaf, as written. */
__kernel void leaf_loop_switch_refused(__global const int *kind, __global const int *a,
                                       __global float *out)
{
    const uint i = get_global_id(0);
    float acc = 0.0f;
    switch (kind[i]) {
    case 0:
        acc = 1.0f;
        break;
    default:
        for (int s = 0; s < 16; s++) {
            if (a[(i + s) & 255] > 0)
                acc += sin((float)s);
            else
                acc -= 1.0f;
        }
        break;
    }
    out[i] = acc;
}
