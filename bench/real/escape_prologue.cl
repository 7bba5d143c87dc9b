/*
 * escape_prologue.cl - an expensive prologue (an escape-time loop), then a
 * decision on its result.
 *
 * Models the fractal renderers found in OpenCL tutorials and SDK samples
 * (Julia/Mandelbrot viewers with orbit-trap colouring): one work-item per
 * pixel; the prologue iterates a quadratic Julia map until escape, and the
 * colouring then depends on how the orbit ended: interior points get an
 * orbit-trap shade (a second, shorter orbit pass: the expensive leaf), fast
 * escapes a flat background, slow escapes smooth colouring with logs. The
 * view (centre, scale) moves the mix: the full set mixes all three; a view
 * on the background is skewed to fast escapes; a zoom on the boundary is
 * coherent in large regions.
 *
 * Today: the decision is at the top level and reads the prologue's result,
 * so it splits; every leaf (and the classifier) runs the escape loop, which
 * is the prologue recomputation issue 18's context work removes.
 */
#define MAX_ITER 200
#define FAST 6
#define TRAP_ITER 32

__kernel void julia_classes(__global const float *jitter, __global float4 *rgba,
                            const float cx, const float cy, const float scale)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int w = get_global_size(0), h = get_global_size(1);
    const int p = y * w + x;
    const float zr0 = cx + scale * (((float)x + jitter[p]) / (float)w - 0.5f);
    const float zi0 = cy + scale * (((float)y + jitter[p]) / (float)h - 0.5f) * (float)h / (float)w;
    const float kr = -0.8f, ki = 0.156f;
    float zr = zr0, zi = zi0;
    int it = 0;
    while (it < MAX_ITER && zr * zr + zi * zi <= 16.0f) {
        const float t = zr * zr - zi * zi + kr;
        zi = 2.0f * zr * zi + ki;
        zr = t;
        it++;
    }
    if (it == MAX_ITER) {
        /* interior: orbit trap over a second pass from the start point */
        float ar = zr0, ai = zi0, trap = 1e9f, ang = 0.0f;
        for (int k = 0; k < TRAP_ITER; k++) {
            const float t = ar * ar - ai * ai + kr;
            ai = 2.0f * ar * ai + ki;
            ar = t;
            const float d = fabs(sqrt(ar * ar + ai * ai) - 0.5f);
            if (d < trap) {
                trap = d;
                ang = atan2(ai, ar);
            }
        }
        rgba[p] = (float4)(0.2f + 0.5f * exp(-8.0f * trap), 0.1f + 0.2f * sin(ang),
                           0.4f + 0.3f * cos(ang), 1.0f);
    } else if (it < FAST) {
        rgba[p] = (float4)(0.02f, 0.02f, 0.05f, 1.0f);
    } else {
        const float nu = (float)it + 1.0f - log2(log(sqrt(zr * zr + zi * zi)));
        const float s = 3.0f * nu / (float)MAX_ITER;
        rgba[p] = (float4)(0.5f + 0.5f * cos(6.2831f * s), 0.5f + 0.5f * cos(6.2831f * (s + 0.33f)),
                           0.5f + 0.5f * cos(6.2831f * (s + 0.67f)), 1.0f);
    }
}
