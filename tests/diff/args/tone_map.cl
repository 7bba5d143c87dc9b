/*
 * Tone mapping, image to image, through a __constant file-scope sampler:
 * dark pixels are lifted linearly, pixels past the white point burn to
 * white, the rest follow Reinhard's curve.
 */
__constant sampler_t nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void tone_map(read_only image2d_t src, write_only image2d_t dst, const float exposure,
                       const float white)
{
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x >= get_image_width(dst) || p.y >= get_image_height(dst))
        return;
    float4 c = read_imagef(src, nearest, p) * exposure;
    const float lum = dot(c.xyz, (float3)(0.2126f, 0.7152f, 0.0722f));
    if (lum < 0.2f) {
        c.xyz = c.xyz * 1.5f;
    } else if (lum > white) {
        c.xyz = (float3)(1.0f);
    } else {
        c.xyz = c.xyz * (1.0f + lum / (white * white)) / (1.0f + lum);
    }
    write_imagef(dst, p, c);
}
