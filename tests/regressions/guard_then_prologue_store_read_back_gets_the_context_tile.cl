// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 2048 --arg nrays=2000 \
// RUN: --arg nbodies=6 --arg shape=size:6 --arg shape=choice:0,1,2 --report
// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 2048 --arg nrays=2000 \
// RUN: --arg nbodies=2 --arg shape=size:2 --arg shape=choice:1 --arg ray_to=range:0:8 \
// RUN: --require-all-leaves --report -D NPLUS1_TILE_REGROUP=1
// EXPECT: match
// OUTPUT: candidates: original and tile\+context only
// OUTPUT: context \(tile\): at the decision at line 63
/*
 * Shape of: Bullet3 (bulletphysics/bullet3), src/Bullet3OpenCL/Raycast/kernels/
 * rayCastKernels.cl, rayCastKernel: `if (i >= numRays) return;`, then the item's result
 * is initialised in global memory (`hitResults[i].m_hitFraction = 1.f`), then a loop over
 * the bodies reads the result buffer and the bodies and branches on each body's shape
 * type (a convex hull: a costly test; a sphere: a cheap one), and after the loop a
 * decision on whether anything was hit writes the hit. The read after the write is what
 * nplus1-memory-order refuses for the classifier; the context tile runs the prologue
 * (the store, then the loop) once per item in order, which docs/legality.md allows
 * ("Allowed under --strategy tile with a context"). The guard before the store once put
 * the context at the guard (context.c's first_decision), so the store was outside the
 * prologue and nplus1-memory-order refused the kernel; now an early-return guard
 * followed by a prologue that writes memory is taken by the classify phase before the
 * prologue, and the context sits at the decision after the loop. Found by the
 * public-kernel trial (docs/testing.md); the reduced form is the guard, a store to
 * out[i], a read of in[i], and a decision on it. The second run reaches both leaves
 * (one hull body: some rays miss it).
 */
static float hull_test(float from, float to, int b)
{
    float t = from;
    for (int f = 0; f < 24; f++)
        t = t * 0.93f + native_sin(to * (float)(f + b));
    return fabs(t);
}

__kernel void ray_cast(int nrays, __global const float *ray_from, __global const float *ray_to,
                       __global float *hit_frac, __global int *hit_body, int nbodies,
                       __global const int *shape, __global const float *radius)
{
    const int i = get_global_id(0);
    if (i >= nrays)
        return;
    hit_frac[i] = 1.0f;
    const float from = ray_from[i];
    const float to = ray_to[i];
    float best = hit_frac[i];
    int hit = -1;
    for (int b = 0; b < nbodies; b++) {
        const int s = shape[b];
        if (s == 1) {
            const float t = hull_test(from, to, b);
            if (t < best) {
                best = t;
                hit = b;
            }
        } else if (s == 2) {
            const float t = fabs(from - radius[b]);
            if (t < best) {
                best = t;
                hit = b;
            }
        }
    }
    if (hit >= 0) {
        hit_frac[i] = best;
        hit_body[i] = hit;
    }
}
