// RUN: nplus1gen %s --validate --global 65536 --arg steps=6 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --arg steps=6 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --arg steps=6 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves \
// RUN: --arg steps=6 -D NPLUS1_LOOP_REGROUP=1 --report
// EXPECT: match
// OUTPUT: left as written: line \d+, if \(d > 0.6f\): cheap against a round: its arms save about \d+ operations a visit
/* Issue 28, item 5: a ray marcher whose loop body is `if (inside) { if (density > t)
 * { costly } else { cheap } }`. The state machine regrouped at the costly inner decision
 * (measured 0.53x forced on an H200); the loop kernel's own older rule regrouped at the
 * cheap outer guard (0.40x; 1.02x with regrouping off). Under the one cost rule
 * (tool/plan/regroup_rule.c: arms weighed by how often the lanes wait for them, native_sin
 * one special-function instruction) neither decision pays for a round, and the loop's
 * trip count is the same for every item, so refilling evens out nothing: the loop kernel
 * runs with regrouping off, and --report says why for each decision. The last run forces
 * mixed rounds at the guard to keep the regrouped form checked. The file's name is the
 * shape's, kept for the GPU runs (scripts/gpu-shapes.sh). */
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
