/*
 * prologue_epilogue.cl - statements before and after the decision, and
 * conditions written with &&, ||, ?: and macros.
 *
 * A toy audio effect: each work-item processes one sample.
 *   - The prologue loads the sample and its neighbours and computes values
 *     some of which the conditions need (the classifier's slice) and some
 *     of which only the leaves use (left out of the slice).
 *   - The decision is an if / else-if chain whose conditions use &&, ||,
 *     the ?: operator and function-like macros (IS_LOUD, IN_BAND).
 *   - Leaves use macros too (SOFT_CLIP, GAIN).
 *   - The epilogue (after the decision) runs in every leaf: it mixes the
 *     processed sample with the dry one and writes both outputs.
 * `restrict` on the input lets the classifier read it even though the
 * kernel writes `out`; `volatile` on the meter argument is carried along.
 * Expected: 4 leaves, all non-empty; the slice leaves out `wet_mix` and
 * `neighbours`. Validate with
 *   nplus1gen samples/prologue_epilogue.cl --validate --global 16384 \
 *       --arg threshold=0.6 --arg mode=1
 */
#define IS_LOUD(s, t) (fabs(s) > (t))
#define IN_BAND(v, lo, hi) ((v) >= (lo) && (v) < (hi))
#define SOFT_CLIP(s) ((s) / (1.0f + fabs(s)))
#define GAIN 1.5f

__kernel void effect(__global const float *restrict in, __global float *out,
                     volatile __global float *meter, const float threshold, const int mode)
{
    const int i = get_global_id(0);
    const int n = get_global_size(0);
    const float s = 2.0f * in[i] - 1.0f;
    const float prev = i > 0 ? 2.0f * in[i - 1] - 1.0f : 0.0f;
    const float neighbours = 0.5f * (prev + (i + 1 < n ? 2.0f * in[i + 1] - 1.0f : 0.0f));
    const float slope = s - prev;
    const float wet_mix = 0.25f + 0.5f * in[(i * 7) % n];
    float y;

    if (IS_LOUD(s, threshold) && (mode == 1 || slope > 0.0f)) {
        y = SOFT_CLIP(s * GAIN);
    } else if ((mode ? slope : -slope) > 0.5f || IN_BAND(s, -0.1f, 0.1f)) {
        y = s * 0.5f + neighbours * 0.5f;
    } else if (IN_BAND(slope, -0.2f, 0.2f) && !(s < 0.0f)) {
        y = s * GAIN;
        for (int k = 0; k < 8; k++)
            y = y - 0.05f * y * y * y;
    } else {
        y = s;
    }

    const float mixed = wet_mix * y + (1.0f - wet_mix) * s;
    out[2 * i] = mixed;
    out[2 * i + 1] = y;
    meter[i] = fabs(mixed);
}
