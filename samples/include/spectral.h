/*
 * spectral.h - helpers for samples/spectral_bands.cl, found through -I.
 * BAND_COUNT must be defined on the command line (-DBAND_COUNT=N).
 */
#ifndef SPECTRAL_H
#define SPECTRAL_H

#ifndef BAND_COUNT
#error "define BAND_COUNT (-DBAND_COUNT=N)"
#endif

#define BAND_OF(f) min((int)((f) * BAND_COUNT), BAND_COUNT - 1)

static inline float band_weight(int band)
{
    return 1.0f / (1.0f + (float)band);
}

static inline float harmonic(float f, int n)
{
    float acc = 0.0f;
    for (int k = 1; k <= n; k++)
        acc += sin(f * (float)k) / (float)k;
    return acc;
}

#endif
