/*
 * option_knockout.cl - Monte Carlo pricing of up-and-out barrier calls.
 *
 * Models the path-simulation kernels of OpenCL finance code (Monte Carlo
 * option pricers in vendor SDK samples and GPU finance libraries): one
 * work-item per option; each simulates `paths` geometric Brownian motion
 * paths of `steps` steps (Box-Muller normals from a per-item generator);
 * a path that touches the barrier is knocked out and leaves its step loop
 * with a break; a surviving path pays max(S - K, 0).
 *
 * Today: the affine guard is the only top-level decision; the knock-out
 * (a break in the inner loop) and the payoff test sit inside loops.
 * The barrier level is `barrier_at`, not `barrier`: a parameter named like
 * the builtin barrier() shadows it in the generated code, which then does
 * not compile (nplus1-internal; reported with this set).
 */
static uint lcg(uint *s)
{
    *s = *s * 747796405u + 2891336453u;
    const uint w = ((*s >> ((*s >> 28) + 4u)) ^ *s) * 277803737u;
    return (w >> 22) ^ w;
}

static float normal(uint *s)
{
    const float u1 = ((float)(lcg(s) >> 8) + 0.5f) * (1.0f / 16777216.0f);
    const float u2 = (float)(lcg(s) >> 8) * (1.0f / 16777216.0f);
    return sqrt(-2.0f * log(u1)) * cos(6.2831853f * u2);
}

__kernel void barrier_call(__global const float *strike, __global const float *barrier_at,
                           __global const float *vol, __global float *price,
                           const int paths, const int steps, const float rate,
                           const float maturity, const uint seed, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint s = seed ^ (i * 0x9e3779b9u);
    const float dt = maturity / (float)steps;
    const float sig = vol[i];
    const float drift = (rate - 0.5f * sig * sig) * dt;
    const float diff = sig * sqrt(dt);
    const float b = barrier_at[i];
    float sum = 0.0f;
    for (int p = 0; p < paths; p++) {
        float spot = 1.0f;
        int alive = 1;
        for (int k = 0; k < steps; k++) {
            spot *= exp(drift + diff * normal(&s));
            if (spot >= b) {
                alive = 0;
                break;
            }
        }
        if (alive)
            sum += fmax(spot - strike[i], 0.0f);
    }
    price[i] = exp(-rate * maturity) * sum / (float)paths;
}
