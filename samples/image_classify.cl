/*
 * image_classify.cl - per-pixel classification of an image, in 2-D.
 *
 * The image is a row-major uchar4 buffer of `width` pixels a row; the
 * launch covers a window of it given by the global offset and size, so
 * get_global_id already includes the offset. Each pixel is classified by
 * its luminance and local contrast (a 3x3 neighbourhood, clamped to the
 * launched window through get_global_offset/get_global_size):
 *   - dark pixels are set to black,
 *   - bright, flat pixels are clipped to white,
 *   - edges (high contrast) are sharpened,
 *   - everything else is tone-mapped.
 * A nested if splits the bright pixels by contrast.
 * Expected: 4 leaves, all non-empty. The test runs it with a non-zero
 * offset:
 *   nplus1gen samples/image_classify.cl --validate --global 96,64 \
 *       --offset 16,8 --arg width=112
 * (the buffers hold (16+96)*(8+64) pixels: the offset plus the size).
 */
static float luma(uchar4 p)
{
    return (0.299f * p.x + 0.587f * p.y + 0.114f * p.z) * (1.0f / 255.0f);
}

__kernel void classify_pixels(__global const uchar4 *src, __global uchar4 *dst,
                              __global uchar *label, const int width)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int x0 = get_global_offset(0), y0 = get_global_offset(1);
    const int x1 = x0 + get_global_size(0) - 1, y1 = y0 + get_global_size(1) - 1;
    const int i = y * width + x;
    const float l = luma(src[i]);
    float lo = l, hi = l;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            const float n = luma(src[clamp(y + dy, y0, y1) * width + clamp(x + dx, x0, x1)]);
            lo = fmin(lo, n);
            hi = fmax(hi, n);
        }
    const float contrast = hi - lo;

    if (l < 0.3f) {
        dst[i] = (uchar4)(0, 0, 0, 255);
        label[i] = 0;
    } else if (l > 0.6f) {
        if (contrast < 0.5f) {
            dst[i] = (uchar4)(255, 255, 255, 255);
            label[i] = 1;
        } else {
            const float4 c = convert_float4(src[i]);
            dst[i] = convert_uchar4_sat(c * (1.0f + contrast));
            label[i] = 2;
        }
    } else {
        const float4 c = convert_float4(src[i]) * (1.0f / 255.0f);
        dst[i] = convert_uchar4_sat(255.0f * c / (c + 0.25f));
        label[i] = 3;
    }
}
