// RUN: nplus1gen %s --validate --global 64,48 --local 8,4 --arg w=60 --arg h=40 \
// RUN: --arg in=size:3072 --arg in=range:-1:1 --arg out=size:3072 --split always \
// RUN: --require-all-leaves --report
// RUN: nplus1gen %s --validate --global 64,48 --offset 16,8 --local 16,8 --arg w=72 --arg h=50 \
// RUN: --arg in=size:4096 --arg in=range:-1:1 --arg out=size:4096 --split always \
// RUN: --strategy %{every_strategy} --dispatch host,fused
// RUN: nplus1gen %s --validate --global 64,48 --arg w=60 --arg h=40 --arg in=size:3072 \
// RUN: --arg in=range:-1:1 --arg out=size:3072 --split always --strategy tile --wg 64
// EXPECT: match all-leaves
/*
 * The original's global id spelled with local ids, as SHOC- and Rodinia-style kernels
 * write it, in two dimensions, in three operand orders, through variables set once
 * (a group id, a local size, a local id) and as calls, with no reqd_work_group_size:
 * get_group_id(d) * get_local_size(d) + get_local_id(d) is the original's global id
 * less its offset whatever the local size, which the generated kernels compute from the
 * global id they carry. The launches differ in local size (8x4, 16x8, none) and offset.
 * The leaf kernels read the sums' values, not the parts'.
 */
__kernel void linear_ids_2d(__global const float *in, __global float *out, int w, int h)
{
    const size_t lsy = get_local_size(1);
    const int by = get_group_id(1), tx = get_local_id(0);
    const int x = get_local_size(0) * get_group_id(0) + tx;
    const int y = get_local_id(1) + by * lsy;
    if (x >= w || y >= h)
        return;
    const float v = in[y * w + x];
    if (v > 0.5f)
        out[y * w + x] = v * v + (float)x;
    else if (v < -0.5f)
        out[y * w + x] = -v - (float)y;
    else
        out[y * w + x] = 0.0f;
}
