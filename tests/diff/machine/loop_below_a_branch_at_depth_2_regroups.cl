// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg mode=1 --arg steps=5
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg mode=1 --arg steps=5
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg mode=1 --arg steps=5
// EXPECT: match all-leaves
/* Issue 28, shape 3: the loop sits below a branch at depth 2 (a uniform mode, then a data
 * test); its decision is the regroup point. The outer decisions run as written; an item
 * of another branch runs to its end without ever yielding. */
__kernel void branch_depth2(__global const float *in, __global float *out, const int mode,
                            const int steps, const uint n)
{
    const uint i = get_global_id(0);
    float v = in[i];
    if (mode > 0) {
        if (v > 0.25f) {
            for (int s = 0; s < steps; s++) {
                if (in[(i * 7u + (uint)s) % n] > 0.5f) {
                    float t = v;
                    for (int k = 0; k < 20; k++)
                        t = cos(t) * 1.5f + sin(t * 0.25f);
                    v += t * 0.125f;
                } else {
                    v *= 0.5f;
                }
            }
        } else {
            v = -v;
        }
    }
    out[i] = v;
}
