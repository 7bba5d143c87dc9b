/*
 * mandelbrot.cl - escape-time classes of the Mandelbrot set, in 2-D.
 *
 * One work-item per pixel (get_global_id(0) is x, get_global_id(1) is y,
 * get_global_size(0) the row pitch; a helper without parameters computes
 * the pixel's index from them, in the classifier and in the leaves). The
 * prologue iterates z = z^2 + c until escape (the classifier's slice: it
 * needs the iteration count); the decision then colours the pixel by
 * class:
 *   - inside the set (never escaped): a cheap interior shade,
 *   - fast escape (few iterations): flat background,
 *   - otherwise: smooth colouring with logs, the expensive leaf.
 * Expected: 3 leaves, all non-empty over the default view. Validate with
 *   nplus1gen samples/mandelbrot.cl --validate --global 128,96
 * (the input buffer is unused except for a per-pixel jitter).
 */
#define MAX_ITER 96
#define FAST_ESCAPE 4

/* A helper without parameters that calls work-item builtins. */
static int pixel_index(void)
{
    return (int)(get_global_id(1) * get_global_size(0) + get_global_id(0));
}

__kernel void mandelbrot(__global const float *jitter, __global float4 *rgba)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int w = get_global_size(0), h = get_global_size(1);
    const int p = pixel_index();
    const float cr = -2.2f + 3.0f * ((float)x + 0.5f * jitter[p]) / (float)w;
    const float ci = -1.2f + 2.4f * ((float)y + 0.5f * jitter[p]) / (float)h;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < MAX_ITER && zr * zr + zi * zi <= 4.0f) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    if (it == MAX_ITER) {
        const float r = sqrt(zr * zr + zi * zi);
        rgba[p] = (float4)(0.0f, 0.0f, 0.1f + 0.2f * r, 1.0f);
    } else if (it < FAST_ESCAPE) {
        rgba[p] = (float4)(0.05f, 0.05f, 0.05f, 1.0f);
    } else {
        const float mod = sqrt(zr * zr + zi * zi);
        const float nu = (float)it + 1.0f - log2(log(mod));
        const float s = nu / (float)MAX_ITER;
        rgba[p] = (float4)(0.5f + 0.5f * cos(6.2831f * (s + 0.0f)),
                           0.5f + 0.5f * cos(6.2831f * (s + 0.33f)),
                           0.5f + 0.5f * cos(6.2831f * (s + 0.67f)), 1.0f);
    }
}
