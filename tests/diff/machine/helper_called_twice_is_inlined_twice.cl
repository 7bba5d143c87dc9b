// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=4 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=4 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=4 --report
// EXPECT: match all-leaves
// OUTPUT: regroup point: line 17 in helper 'shade' called at line 35,
// OUTPUT: regroup point: line 17 in helper 'shade' called at line 36,
/* Issue 28, a loop in a helper: one helper called twice in the kernel's loop. Each call
 * is its own frame: the helper's text is inlined twice, each copy with its own labels,
 * its own renamed locals and its own regroup point (two points, four arms). */
static float shade(__global const float *tex, float u, const uint n, uint *seed)
{
    float c = 0.0f;
    for (int k = 0; k < 3; k++) {
        *seed = *seed * 1103515245u + 12345u;
        const float s = tex[(*seed >> 4) % n];
        float w = u * 0.5f;
        if (s > 0.5f) {
            for (int j = 0; j < 128; j++)
                w = native_sin(w + s) * 0.6f + w * 0.4f;
        } else {
            w += s;
        }
        c += w;
    }
    return c;
}

__kernel void shade_twice(__global const float *tex, __global float *out, const int steps,
                          const uint n)
{
    const uint i = get_global_id(0);
    uint seed = i + 17u;
    float a = 0.0f, b = 0.0f;
    for (int s = 0; s < steps; s++) {
        a += shade(tex, (float)s, n, &seed);
        b -= shade(tex, a * 0.25f, n, &seed);
    }
    out[i] = a + b;
}
