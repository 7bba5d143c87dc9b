/* --profile on the shapes of real kernels (issue 26, item 8): a float as an
 * if's condition (bullet3's writeBackVelocitiesKernel), a header found through
 * -I only (processCompoundPairsPrimitivesKernel), loops a macro opens and
 * closes with a continue inside and early returns before them (Gepe3D's
 * FOREACH_NEIGHBOUR_j in calc_solid_corrections). */
#include "Shapes/shared/body.h"

#define FOREACH_NEIGHBOUR_j                                      \
    int cell = cells[i];                                         \
    for (int nc = 0; nc < 3; nc++) {                             \
        for (int g = starts[cell + nc]; g < starts[cell + nc + 1]; g++) { \
            int j = sorted[g];
#define END_FOREACH_NEIGHBOUR_j }}

__kernel void write_back(__global Body *bodies, __global const float4 *delta, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (bodies[i].inv_mass) {
        bodies[i].lin_vel += delta[i];
    }
}

__kernel void solid_corrections(__global const float *pos, __global const float *imass,
                                __global float *corr, __global const int *cells,
                                __global const int *starts, __global const int *sorted,
                                __global const int *phase)
{
    int i = get_global_id(0);
    if (phase[i] != 1) return;
    float m1 = imass[i];
    if (m1 == 0) return;
    float c = 0;
    FOREACH_NEIGHBOUR_j
        if (i == j) continue;
        float d = pos[i] - pos[j];
        if (d < 0.2f) {
            c -= m1 / (m1 + imass[j]) * d;
        }
    END_FOREACH_NEIGHBOUR_j
    corr[i] = c;
}

#define GUARD(x) if (x) return;
__kernel void macro_return(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    for (int k = 0; k < 4; k++) {
        GUARD(in[i] == k)
        out[i] += k;
    }
}

__kernel void case_range(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    switch (in[i] & 7) {
    case 0 ... 2:
        out[i] = 1;
        break;
    case 3:
        out[i] = 2;
        break;
    default:
        out[i] = 3;
    }
}
