/* Issue 19 item 5: a write_image to a write_only image before a condition that
 * reads a read_only image. One kernel cannot read and write the same image
 * unless it is read_write, so the write cannot feed the read: it splits. */
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                           CLK_FILTER_NEAREST;

__kernel void tone_clear_first(read_only image2d_t in, write_only image2d_t out,
                               __global float *sum)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(out, p, (float4)(0.0f));
    float4 v = read_imagef(in, smp, p);
    if (v.x > 0.5f) {
        write_imagef(out, p, v * 0.5f);
        sum[p.y * get_global_size(0) + p.x] = v.x;
    } else {
        write_imagef(out, p, v * 2.0f);
        sum[p.y * get_global_size(0) + p.x] = -v.x;
    }
}
