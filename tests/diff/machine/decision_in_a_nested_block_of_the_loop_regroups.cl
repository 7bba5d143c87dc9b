// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=6
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=6
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=6
// EXPECT: match all-leaves
/* Issue 28, shape 1: the data decision sits in a nested block of the loop's body (the loop
 * kernel regroups only at the body's top level). The state machine regroups at it; the
 * block's own variable `w` is in the item's context. */
__kernel void nested_block(__global const float *in, __global float *out, const int steps,
                           const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    float acc = in[i];
    for (int s = 0; s < steps; s++) {
        {
            const float w = acc * 0.5f + (float)s;
            if (in[(i + (uint)s) % n] > 0.5f) {
                float t = w;
                for (int k = 0; k < 24; k++)
                    t = sin(t) * 1.25f + cos(t * 0.5f);
                acc += t;
            } else {
                acc -= w * 0.125f;
            }
        }
        acc *= 0.75f;
    }
    out[i] = acc;
}
