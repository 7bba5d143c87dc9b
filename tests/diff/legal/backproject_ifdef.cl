// CT back-projection weights: the guard, one branch of an else-if chain and
// part of a condition are chosen by the preprocessor, as the host program's
// -D options say. Leaves and the classifier are cut from the active text:
// the skipped blocks and the directive lines are left out, so no leaf holds
// half of an #if.
#ifndef RAMP_START
#define RAMP_START 0.25f
#endif

__kernel void backproject(__global const float *sino, __global const int *mask,
                          __global float *image, const int n, const int n_meas)
{
    const int i = get_global_id(0);
#ifdef FAST_GUARD
    if (n_meas < 0)
        return;
#else
    if (i >= n)
        return;
#endif
    const float s = sino[i];
    const int m = mask[i] & 7;
    if (m == 0
#ifdef SKIP_NEGATIVE
        || s < 0.05f
#endif
       ) {
        image[i] = 0.0f; /* masked voxel */
        return;
    }
    float w;
    if (s < RAMP_START) {
        w = s * 4.0f;
#if USE_RAMP
    } else if (s < 0.5f) {
        w = 1.0f - (s - RAMP_START) * 2.0f;
#endif
    } else {
        w = 0.5f + s * s;
    }
#if defined(SMOOTH)
    w = w * 0.5f + 0.25f;
#endif
    image[i] = w * (float)m;
}
