// An image filter with the habits of real code: a local id left over from a
// tiled version and never used, a 3x3 weight table passed as an array
// parameter ('__constant float weight[9]' is a pointer), a flag buffer passed
// as '__global void *' (a byte buffer), and a write_mem_fence between two
// stores (it orders one work-item's own accesses: not a barrier). None of it
// is a reason to refuse.
__kernel void sharpen(__global const float *src, __constant float weight[9],
                      __global void *flags_raw, __global float *dst, const int width)
{
    const int i = get_global_id(0);
    const int lx = get_local_id(0); /* the tiled version's; unused here */
    __global uchar *flags = (__global uchar *)flags_raw;
    const int x = i % width;
    float acc = 0.0f;
    for (int k = 0; k < 9; k++)
        acc += weight[k] * src[i];
    if (x == 0 || x == width - 1) { /* border: copy */
        dst[i] = src[i];
        flags[i] = 1;
    } else if (acc > 2.0f) {
        dst[i] = acc;
        write_mem_fence(CLK_GLOBAL_MEM_FENCE);
        flags[i] = 2;
    } else {
        read_mem_fence(CLK_GLOBAL_MEM_FENCE);
        dst[i] = acc * 0.5f;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        flags[i] = 0;
    }
}
