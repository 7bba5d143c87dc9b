/* Helpers whose decisions the state machine cannot cut (tests/lit/machine_report_helpers.test):
 * one called in a loop's condition, one called in an arm of ?: (evaluated on a condition). */
static float step(__global const float *d, uint *s, const uint n)
{
    *s = *s * 1664525u + 1013904223u;
    float v = d[(*s >> 8) % n];
    if (v > 0.5f) {
        for (int j = 0; j < 64; j++)
            v = native_sin(v * 1.3f) * 0.5f + v * 0.5f;
    }
    return v;
}

__kernel void cannot_inline(__global const float *d, __global float *out, const uint n)
{
    const uint i = get_global_id(0);
    if (d[i % n] > 0.9f) {
        out[i] = 0.0f;
        return;
    }
    uint s = i + 1u;
    float acc = 0.0f;
    while (step(d, &s, n) < 0.8f && acc < 8.0f)
        acc += 1.0f;
    for (int k = 0; k < 4; k++)
        acc += (s & 1u) ? step(d, &s, n) : 0.0f;
    out[i] = acc;
}
