// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg depth=5 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg depth=5 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg depth=5 --report
// EXPECT: match all-leaves
// OUTPUT: regroup point: line 13 in helper 'material' called at line 31 in helper 'path' called at line 44,
/* Issue 28, a loop in a helper: the kernel calls a path helper whose loop calls a material
 * helper that holds the costly decision (helpers nested two deep). Both are inlined: the
 * material helper's text inside the path helper's, inside the kernel's; the seed passes
 * through both by pointer, the material's result by return. */
static float material(__global const int *kind, uint *seed, float x, const uint n)
{
    *seed = *seed * 1664525u + 1013904223u;
    if (kind[(*seed >> 9) % n] & 1) {
        float v = x;
        for (int j = 0; j < 64; j++)
            v = native_sin(v * 1.7f) * 0.5f + v * 0.5f;
        return v;
    }
    return x * 0.5f;
}

static float path(__global const int *kind, uint *seed, float x, int depth, const uint n)
{
    float sum = 0.0f, thr = 1.0f;
    for (int b = 0; b < depth; b++) {
        if ((*seed & 7u) == 0u) {
            sum += thr;
            break;
        }
        float m;
        m = material(kind, seed, x + sum, n);
        thr *= 0.8f;
        sum += m * thr;
    }
    return sum;
}

__kernel void nested_paths(__global const int *kind, __global float *out, const int depth,
                           const uint n)
{
    const uint i = get_global_id(0);
    uint seed = i * 2891336453u + 3u;
    float r;
    r = path(kind, &seed, (float)(i & 255u) * 0.01f, depth, n);
    out[i] = r;
}
