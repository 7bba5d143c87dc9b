/* Nested loops: the outer loop over paths regroups at its `if (alive)`; the
 * inner loop, whose break knocks a path out, stays inside the head phase. */
static float step_rand(uint *s)
{
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 9) & 1023u) * (1.0f / 1024.0f) - 0.5f;
}

__kernel void knockout_nested(__global const float *level, __global float *price,
                              const int paths, const int steps, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint s = i * 2654435761u + 1u;
    const float b = level[i];
    float sum = 0.0f;
    for (int p = 0; p < paths; p++) {
        float spot = 1.0f;
        int alive = 1;
        for (int k = 0; k < steps; k++) {
            spot *= 1.0f + 0.2f * step_rand(&s);
            if (spot >= b) {
                alive = 0;
                break;
            }
        }
        if (alive)
            sum += fmax(spot - 0.9f, 0.0f);
        else
            sum -= 0.001f;
    }
    price[i] = sum / (float)paths;
}
