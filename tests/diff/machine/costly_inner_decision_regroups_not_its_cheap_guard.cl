// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=6
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=6
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=6
// EXPECT: match all-leaves
/* Issue 28, item 5: a ray marcher whose loop body is `if (inside) { if (density > t)
 * { costly } else { cheap } }`. The state machine regrouped at the costly inner decision
 * (measured 0.53x forced on an H200); with native_sin costed as one special-function
 * instruction and the arms weighed by how often the lanes wait for them, the inner
 * decision no longer pays for the machine's round, and the loop kernel (its own rule)
 * regroups at the outer guard: the file's name is the shape's, kept for the GPU runs. */
__kernel void ray_marcher(__global const float *density, __global float *out, const int steps,
                          const uint n)
{
    const uint i = get_global_id(0);
    float light = 0.0f;
    float pos = (float)(i % 97u) * 0.01f;
    for (int s = 0; s < steps; s++) {
        const float d = density[(i + 13u * (uint)s) % n];
        if (d > 0.2f) {
            if (d > 0.6f) {
                float l = d;
                for (int k = 0; k < 24; k++)
                    l = l * 0.9f + native_sin(l + pos) * 0.1f;
                light += l;
            } else {
                light += 0.01f;
            }
        }
        pos += 0.125f;
    }
    out[i] = light;
}
