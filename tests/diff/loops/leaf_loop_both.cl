/* Both branches of a top-level if hold a loop with a data decision: the tile regroups
 * the costlier (the else branch's); the other runs as written in the prologue phase. */
__kernel void leaf_loop_both(__global const int *a, __global float *out)
{
    const uint i = get_global_id(0);
    const int v = a[i];
    float acc = 0.0f;
    if (v > 0) {
        for (int s = 0; s < 8; s++) {
            if (((v + s) & 3) == 0)
                acc += 1.0f;
            else
                acc -= 0.5f;
        }
    } else {
        for (int s = 0; s < 16; s++) {
            if (((v - s) & 1) == 0)
                acc += sin((float)s) * cos(acc) + exp(acc * 0.01f);
            else
                acc *= 0.75f;
        }
    }
    out[i] = acc;
}
