/*
 * A prologue whose atomic_inc feeds the condition: each item takes a ticket
 * from its own visit counter (visits[i]: no two items share one, so the
 * result does not depend on the order the items run in) and the decision
 * branches on it. The classifier would repeat the atomic, so every strategy
 * but tile with contexts refuses it [nplus1-side-effect]; under --strategy
 * tile the classify phase runs the prologue once per item and the leaves
 * start from the ticket it kept.
 */
__kernel void ticket(__global const float *in, __global uint *visits, __global float *out)
{
    const int i = get_global_id(0);
    const uint t = atomic_inc(&visits[i]);
    const float v = in[i] * 2.0f - 1.0f;
    if (t % 3 == 0) {
        float acc = v;
        for (int k = 0; k < 32; k++)
            acc = acc * 0.97f + sin(acc + (float)k);
        out[i] = acc;
    } else if (t % 3 == 1) {
        out[i] = v * (float)(t % 17);
    } else {
        float acc = 0.0f;
        for (int k = 0; k < 16; k++)
            acc += cos(v * (float)k);
        out[i] = acc - (float)t;
    }
}
