// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 2048 --arg nelr=2000 \
// RUN: --arg neighbours=size:8192 --arg neighbours=range:-2:2000 --arg normals=size:8192 --report
// RUN: nplus1gen %s --validate --global 2048 --arg nelr=2000 --arg neighbours=size:8192 \
// RUN: --arg neighbours=range:-2:2000 --arg normals=size:8192 --strategy tile --split always --report
// EXPECT: match
// OUTPUT: loop \(tile\): line 42: not regrouped: the loop is written under a statement attribute \(`#pragma unroll` or `__attribute__\(\(\.\.\.\)\)`, line 41\), kept by running the loop in its leaf as written; without the attribute its decisions are weighed against a regrouping round
// OUTPUT-NOT: does not see through
// OUTPUT-NOT: this version
// OUTPUT-NOT: regrouped round by round
/*
 * Shape of: Rodinia (yuhc/gpu-rodinia), opencl/cfd/Kernels.cl, compute_flux: after an
 * early-return guard on the element index, `#pragma unroll` stands before the loop over
 * the NNB neighbours of the element; each neighbour index read from global memory picks
 * one of three arms (an interior neighbour: a costly flux from its state; -1: a wall;
 * -2: the far field), so the decision is data dependent. libclang wraps a loop under
 * `#pragma unroll` (or `__attribute__((opencl_unroll_hint))`) in an attributed
 * statement: the loop kernel does not see through it, the loop runs as written in the
 * guard's leaf, and --report names the pragma's line (it said, before, "the loop sits
 * inside the statement at line 40: this version regroups ..."). Without the pragma the
 * same loop is regrouped round by round (docs/legality.md). Each item writes its own
 * element only.
 */
#define NNB 4

static float flux_of(float self, float other, float nx)
{
    float f = 0.0f;
    for (int r = 0; r < 24; r++)
        f = f * 0.5f + native_sin(self * nx + other) * 0.25f + (float)r * 1e-3f;
    return f;
}

__kernel void compute_flux(__global const int *neighbours, __global const float *normals,
                           __global const float *state, __global float *fluxes, int nelr)
{
    const int i = get_global_id(0);
    if (i >= nelr)
        return;
    const float self = state[i];
    float acc = 0.0f;
    #pragma unroll
    for (int j = 0; j < NNB; j++) {
        const int nb = neighbours[i + j * nelr];
        const float nx = normals[i + j * nelr];
        if (nb >= 0) {
            acc += flux_of(self, state[nb], nx);
        } else if (nb == -1) {
            acc += self * nx;
        } else if (nb == -2) {
            acc -= 0.5f * nx;
        }
    }
    fluxes[i] = acc;
}
