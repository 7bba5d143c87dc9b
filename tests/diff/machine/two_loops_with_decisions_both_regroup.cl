// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=4
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=4
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=4
// EXPECT: match all-leaves
/* Issue 28, shape 5: two loops, each with a data decision (the second a switch); both
 * declare a counter `s`: the context keeps them apart (s and s_nplus1_N). */
__kernel void two_loops(__global const float *in, __global const int *kind,
                        __global float *out, const int steps, const uint n)
{
    const uint i = get_global_id(0);
    float a = in[i];
    for (int s = 0; s < steps; s++) {
        if (in[(i + (uint)s) % n] < 0.5f) {
            for (int k = 0; k < 64; k++)
                a = sin(a) * 1.5f + 0.25f;
        } else {
            a += 1.0f;
        }
    }
    float b = a;
    for (int s = 0; s < steps; s++) {
        switch (kind[(i + (uint)s) % n] & 3) {
        case 0:
            for (int k = 0; k < 64; k++)
                b = cos(b) * 1.25f + 0.5f;
            break;
        case 1:
        case 2:
            b *= 0.5f;
            break;
        default:
            for (int k = 0; k < 48; k++)
                b = sqrt(fabs(b) + 1.0f) + (float)k;
        }
    }
    out[i] = a + b;
}
