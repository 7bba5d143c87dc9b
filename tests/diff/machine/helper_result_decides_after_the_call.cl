// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=5 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=5 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=5 --report
// EXPECT: match all-leaves
// OUTPUT: regroup point: line 16 in helper 'march' called at line 36,
// OUTPUT: regroup point: line 37, if \(h > 0\.5f\)
/* Issue 28, a loop in a helper: the helper's value (a return from inside its loop, or
 * after it) decides a costly branch of the kernel after the call (in a block of the loop's
 * body: the loop kernel declines). Both regroup: the helper's decision (inlined at the
 * call) and the kernel's own, on the helper's result. */
static float march(__global const float *field, float x, const uint n)
{
    float h = x;
    for (int k = 0; k < 6; k++) {
        const float d = field[((uint)(h * 977.0f) + (uint)k) % n];
        if (d > 0.7f) {
            for (int j = 0; j < 64; j++)
                h = native_cos(h * 1.3f + d) * 0.5f + h * 0.5f;
        } else {
            h += d * 0.1f;
        }
        if (h > 0.9f) /* not in the costly arm, which would leave the loop: 1/6 a visit */
            return h;
    }
    return h * 0.5f;
}

__kernel void march_then_decide(__global const float *field, __global const float *in,
                                __global float *out, const int steps, const uint n)
{
    const uint i = get_global_id(0);
    float acc = in[i % n];
    for (int s = 0; s < steps; s++) {
        acc += 0.01f;
        {
            const float h = march(field, acc, n);
            if (h > 0.5f) {
                float t = h;
                for (int j = 0; j < 64; j++)
                    t = native_sin(t * 0.9f + acc) * 0.7f + t * 0.3f;
                acc = acc * 0.5f + t;
            } else {
                acc = acc * 0.75f + h;
            }
        }
    }
    out[i] = acc;
}
