/*
 * option_payoffs.cl - Monte-Carlo payoffs of a book of options.
 *
 * Each work-item prices one option by simulating `paths` price paths of
 * `steps` steps (a small LCG random generator seeded per work-item by a
 * helper that calls get_global_id). The option's kind picks the payoff:
 * European call, European put, digital call, or an Asian (average-price)
 * call for everything else.
 *
 * What it exercises:
 *   - a guard `if (gid >= n) return;` before the decision (an empty leaf:
 *     no kernel, no bucket),
 *   - scalar arguments of several types (uint, ushort, char, int, ulong,
 *     float, double),
 *   - a helper function that calls get_global_id (the generated code
 *     gives it the original launch's ids),
 *   - an else-if chain whose leaves loop.
 * Expected: 5 paths; the guard's leaf is empty, the other 4 are leaf
 * kernels. Validate with
 *   nplus1gen samples/option_payoffs.cl --validate --global 8192 \
 *       --arg n=8000 --arg paths=16 --arg steps=8 --arg kind_bias=1 \
 *       --arg seed=12345 --arg strike=0.5 --arg rate=0.03 --arg skip=3
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

static uint rng_seed(ulong seed)
{
    return (uint)(seed ^ (get_global_id(0) * 2654435761UL)) | 1u;
}

static float rng_next(uint *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) * (1.0f / 16777216.0f);
}

static float gbm_step(float s, float drift, float vol, uint *state)
{
    /* a crude normal from the sum of four uniforms */
    float z = rng_next(state) + rng_next(state) + rng_next(state) + rng_next(state) - 2.0f;
    return s * exp(drift + vol * z);
}

__kernel void option_payoffs(__global const int *kind, __global const float *spot,
                             __global const float *vol, __global float *payoff,
                             const uint n, const ushort paths, const char kind_bias,
                             const int steps, const ulong seed, const float strike,
                             const double rate, const uchar skip)
{
    const size_t gid = get_global_id(0);
    if (gid >= n)
        return;
    const int k = (kind[gid] + kind_bias) % 5;
    const float s0 = 0.5f + spot[gid];
    const float sigma = 0.1f + 0.3f * vol[gid];
    const float dt = 1.0f / (float)steps;
    const float drift = ((float)rate - 0.5f * sigma * sigma) * dt;
    const float sv = sigma * sqrt(dt);
    const float discount = (float)exp(-rate);
    uint state = rng_seed(seed) + skip;
    float sum = 0.0f;

    if (k == 0) {
        for (ushort p = 0; p < paths; p++) {
            float s = s0;
            for (int t = 0; t < steps; t++)
                s = gbm_step(s, drift, sv, &state);
            sum += fmax(s - strike, 0.0f);
        }
    } else if (k == 1) {
        for (ushort p = 0; p < paths; p++) {
            float s = s0;
            for (int t = 0; t < steps; t++)
                s = gbm_step(s, drift, sv, &state);
            sum += fmax(strike - s, 0.0f);
        }
    } else if (k == 2) {
        for (ushort p = 0; p < paths; p++) {
            float s = s0;
            for (int t = 0; t < steps; t++)
                s = gbm_step(s, drift, sv, &state);
            sum += s > strike ? 1.0f : 0.0f;
        }
    } else {
        for (ushort p = 0; p < paths; p++) {
            float s = s0, avg = 0.0f;
            for (int t = 0; t < steps; t++) {
                s = gbm_step(s, drift, sv, &state);
                avg += s;
            }
            sum += fmax(avg / (float)steps - strike, 0.0f);
        }
    }
    payoff[gid] = discount * sum / (float)paths;
}
