/*
 * image_classes.cl - an image filter with per-pixel classes.
 *
 * Models the content-adaptive filters of OpenCL image-processing code
 * (adaptive sharpening/denoising, tone mappers): one work-item per pixel of
 * an RGBA8 image; a 3x3 Sobel on the luminance classifies the pixel, and
 * each class gets its own filter: highlights are tone-mapped, flat pixels
 * copied, edges sharpened with a 3x3 unsharp mask, and textured pixels
 * smoothed with a 5x5 bilateral filter (the expensive class).
 *
 * Today: the class chain is at the top level and reads data (the Sobel on
 * the image), so it splits into 4 leaves; the classifier's slice is the
 * Sobel.
 */
#define T_FLAT 0.04f
#define T_EDGE 0.5f
#define T_HIGH 0.92f

static float luma(__global const uchar4 *img, int x, int y, int w, int h)
{
    const uchar4 p = img[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)];
    return (0.299f * p.x + 0.587f * p.y + 0.114f * p.z) * (1.0f / 255.0f);
}

static float4 texel(__global const uchar4 *img, int x, int y, int w, int h)
{
    return convert_float4(img[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)]) * (1.0f / 255.0f);
}

__kernel void adaptive_filter(__global const uchar4 *img, __global uchar4 *out,
                              const int w, const int h)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int p = y * w + x;
    const float gx = luma(img, x + 1, y - 1, w, h) + 2.0f * luma(img, x + 1, y, w, h)
                     + luma(img, x + 1, y + 1, w, h) - luma(img, x - 1, y - 1, w, h)
                     - 2.0f * luma(img, x - 1, y, w, h) - luma(img, x - 1, y + 1, w, h);
    const float gy = luma(img, x - 1, y + 1, w, h) + 2.0f * luma(img, x, y + 1, w, h)
                     + luma(img, x + 1, y + 1, w, h) - luma(img, x - 1, y - 1, w, h)
                     - 2.0f * luma(img, x, y - 1, w, h) - luma(img, x + 1, y - 1, w, h);
    const float grad = sqrt(gx * gx + gy * gy);
    const float lum = luma(img, x, y, w, h);
    float4 c;
    if (lum > T_HIGH) {
        /* highlight: Reinhard tone map with a soft knee */
        const float4 t = texel(img, x, y, w, h);
        c = t / (1.0f + 0.6f * t) * 1.6f;
    } else if (grad < T_FLAT) {
        c = texel(img, x, y, w, h);
    } else if (grad > T_EDGE) {
        /* edge: 3x3 unsharp mask */
        float4 blur = (float4)(0.0f);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                blur += texel(img, x + dx, y + dy, w, h);
        const float4 t = texel(img, x, y, w, h);
        c = t + 0.8f * (t - blur * (1.0f / 9.0f));
    } else {
        /* texture: 5x5 bilateral */
        const float4 t = texel(img, x, y, w, h);
        float4 acc = (float4)(0.0f);
        float wsum = 0.0f;
        for (int dy = -2; dy <= 2; dy++) {
            for (int dx = -2; dx <= 2; dx++) {
                const float4 q = texel(img, x + dx, y + dy, w, h);
                const float4 d = q - t;
                const float wt = exp(-(float)(dx * dx + dy * dy) * 0.125f
                                     - dot(d.xyz, d.xyz) * 12.0f);
                acc += wt * q;
                wsum += wt;
            }
        }
        c = acc / wsum;
    }
    out[p] = convert_uchar4_sat_rte(clamp(c, 0.0f, 1.0f) * 255.0f);
}
