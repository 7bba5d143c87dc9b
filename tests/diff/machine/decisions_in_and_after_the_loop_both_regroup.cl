// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=4
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=4
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=4 -D NPLUS1_TILE_REGROUP=1
// EXPECT: match all-leaves
/* Issue 28, shape 4: a decision in the loop and a second one after the loop, both costly:
 * two regroup points, the one after the loop at the kernel's top level. The loop's `break`
 * leaves it early for some items. */
__kernel void after_loop(__global const float *in, __global float *out, const int steps,
                         const uint n)
{
    const uint i = get_global_id(0);
    float v = in[i], t = 0.0f;
    int s;
    for (s = 0; s < steps; s++) {
        if (in[(i + 3u * (uint)s) % n] > 0.5f) {
            for (int k = 0; k < 16; k++)
                t = sin(t + v) * 1.5f + (float)k * 0.01f;
        } else {
            t += 0.25f;
            if (t > 1.5f)
                break;
        }
    }
    if (t > 2.0f * in[(i * 5u) % n]) {
        float u = t;
        for (int k = 0; k < 16; k++)
            u = cos(u) * 1.25f + 0.5f;
        v += u;
    } else {
        v -= t;
    }
    out[i] = v + (float)s;
}
