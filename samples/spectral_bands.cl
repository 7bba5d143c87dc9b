/*
 * spectral_bands.cl - `#include` of a user header, and -D definitions.
 *
 * Each work-item takes one frequency sample and processes it by band. The
 * helpers and the BAND_OF macro come from samples/include/spectral.h, so
 * the tool needs -I samples/include; BAND_COUNT and HARMONICS are set with
 * -D (the header refuses to compile without BAND_COUNT). The generated
 * kernel file inlines the header and repeats the -D definitions, so it
 * builds on its own.
 * Expected with -DBAND_COUNT=4: 3 leaves (low band, high band, the rest),
 * all non-empty. Validate with
 *   nplus1gen samples/spectral_bands.cl -I samples/include -DBAND_COUNT=4 \
 *       -DHARMONICS=12 --validate --global 16384
 */
#include "spectral.h"

#ifndef HARMONICS
#define HARMONICS 4
#endif

__kernel void bands(__global const float *freq, __global float *out)
{
    const int i = get_global_id(0);
    const float f = freq[i];
    const int band = BAND_OF(f);

    if (band == 0) {
        out[i] = band_weight(band) * harmonic(f, HARMONICS);
    } else if (band == BAND_COUNT - 1) {
        out[i] = band_weight(band) * harmonic(f, 2 * HARMONICS);
    } else {
        out[i] = band_weight(band) * f;
    }
}
