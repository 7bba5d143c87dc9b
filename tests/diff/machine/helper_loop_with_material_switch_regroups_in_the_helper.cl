// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg bounces=6 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg bounces=6 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg bounces=6 --report
// EXPECT: match all-leaves
// OUTPUT: state machine \(tile\): regrouped round by round in the work-group at 1 regroup point
// OUTPUT: regroup point: line 25 in helper 'trace' called at line 53, switch
/* Issue 28, a loop in a helper: the bounce loop and its material switch live in a helper
 * the kernel calls; the seed goes in and out through a pointer to the kernel's private
 * variable, the colour through a return value. The state machine inlines the helper at its
 * call and regroups at the switch inside it (the costly arms: a loop of 24 steps). */
static float scatter(float x, int k)
{
    float l = x;
    for (int j = 0; j < 24; j++)
        l = l * 0.93f + native_sin(l + (float)k) * 0.07f;
    return l;
}

static float trace(__global const int *mat, float x, int bounces, uint *seed, const uint n)
{
    float acc = 0.0f;
    for (int b = 0; b < bounces; b++) {
        *seed = *seed * 1664525u + 1013904223u;
        const int m = mat[(*seed >> 8) % n];
        switch (m & 3) {
        case 0:
            acc += scatter(x + acc, b);
            break;
        case 1: {
            float t = x;
            for (int k = 0; k < 20; k++)
                t = native_cos(t * 1.1f + acc) * 0.5f + t * 0.5f;
            acc += t;
            break;
        }
        case 2:
            acc *= 0.5f;
            break;
        default:
            if (acc > 4.0f)
                return acc * 2.0f;
            acc += 0.25f;
        }
    }
    return acc;
}

__kernel void bounce_helper(__global const int *mat, __global const float *in,
                            __global float *out, const int bounces, const uint n)
{
    const uint i = get_global_id(0);
    uint seed = i * 2654435761u + 7u;
    const float c = trace(mat, in[i % n], bounces, &seed, n);
    out[i] = c + (float)(seed & 15u);
}
