/*
 * Every image kind as an argument: 1-D, 1-D buffer, 1-D array and 2-D array
 * images read, a 1-D buffer image written (write_only images are written
 * only in the leaves).
 */
__kernel void mix_kinds(read_only image1d_t a, read_only image1d_buffer_t b,
                        read_only image1d_array_t c, read_only image2d_array_t d,
                        write_only image1d_buffer_t out)
{
    const int i = get_global_id(0);
    const sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                          CLK_FILTER_NEAREST;
    const float4 va = read_imagef(a, smp, i);
    if (va.x < 0.3f)
        write_imagef(out, i, read_imagef(b, i));
    else if (va.x < 0.6f)
        write_imagef(out, i, read_imagef(c, smp, (int2)(i, 1)));
    else
        write_imagef(out, i, read_imagef(d, smp, (int4)(i, 2, 1, 0)) * va);
}
