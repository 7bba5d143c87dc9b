/* An else-if chain at the top level whose second branch holds a for loop with a data
 * trip count and a data decision, then code after the chain that every item runs: the
 * items of the other branches (the implicit else among them) run it in the prologue
 * phase, those of the loop's branch after the loop. */
__kernel void leaf_loop_epilogue(__global const int *kind, __global const float *w,
                                 __global float *out, __global int *tags)
{
    const uint i = get_global_id(0);
    float base = w[i];
    int tag = 0;
    if (kind[i] == 1) {
        tag = 1;
        base *= 2.0f;
    } else if (kind[i] >= 2) {
        const int steps = kind[i] * 4;
        float x = base;
        for (int s = 0; s < steps; s++) {
            if (x > 0.5f)
                x = x * 0.5f + 0.1f;
            else
                x = x * 1.7f + cos(x);
        }
        base = x;
        tag = 2;
    }
    out[i] = base + (float)tag;
    tags[i] = tag;
}
