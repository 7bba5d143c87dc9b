// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 2048 --arg width=128 \
// RUN: --arg height=64 --arg scale=3 --arg offsetX=-0.5 --arg offsetY=0 --arg maxIter=200 --report
// RUN: nplus1gen %s --validate --global 2048 --arg width=128 --arg height=64 --arg scale=3 \
// RUN: --arg offsetX=-0.5 --arg offsetY=0 --arg maxIter=200 --strategy tile --report
// RUN: nplus1gen %s --validate --global 2048 --local 64 --arg width=128 --arg height=64 \
// RUN: --arg scale=3 --arg offsetX=-0.5 --arg offsetY=0 --arg maxIter=200 --strategy tile \
// RUN: --split always -D NPLUS1_LOOP_REGROUP=1 --report
// EXPECT: match
// OUTPUT: loop \(tile\): line 34: no decision of the loop pays for a round
// OUTPUT-NOT: cannot be taken apart
/* Issue 28, an escape loop written `for (;;)`: OCLToys' mandelgpu
 * (mandelgpu/rendering_kernel_float4.cl) iterates four pixels a work-item as float4 lanes in
 * a `for (;;)` loop left by `if (!any(...)) break;`. A `for` with no init, test or step has
 * its body as its only child: the loop kernel read that as a loop without a body ("cannot
 * be taken apart: its body cannot be read"); it is now taken apart like any loop, and runs
 * in place, or regrouped round by round when forced. */
__kernel void mandel4(__global int *pixels, const int width, const int height,
                      const float scale, const float offsetX, const float offsetY,
                      const int maxIter)
{
    const int gid = get_global_id(0);
    const int4 tid = (int4)(4 * gid) + (int4)(0, 1, 2, 3);
    const int4 sx = tid % (int4)width;
    const int4 sy = tid / (int4)width;
    if (sy.s0 >= height)
        return;
    const float side = (float)max(width, height);
    const float4 x0 = (convert_float4(sx) * scale - 0.5f * scale * width) / side + offsetX;
    const float4 y0 = (convert_float4(sy) * scale - 0.5f * scale * height) / side + offsetY;
    float4 x = x0, y = y0;
    float4 x2 = x * x, y2 = y * y;
    int4 iter = (int4)0;
    const int4 limit = (int4)maxIter;
    for (;;) {
        y = 2.0f * x * y + y0;
        x = x2 - y2 + x0;
        x2 = x * x;
        y2 = y * y;
        const int4 going = (x2 + y2 <= (float4)4.0f) && (iter < limit);
        if (!any(going))
            break;
        iter += (int4)1 & going;
    }
    const int4 shade = iter % (int4)256;
    pixels[gid] = shade.s0 | (shade.s1 << 8) | (shade.s2 << 16) | (shade.s3 << 24);
}
