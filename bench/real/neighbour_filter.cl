/*
 * neighbour_filter.cl - a 5x5 neighbour filter with a decision per neighbour.
 *
 * Models the edge-preserving filters of OpenCL image code (the 5x5
 * bilateral of UoB-HPC/opencl-training-code's Bilateral exercise, with the
 * edge stop of denoisers): one work-item per pixel of an RGBA8 image, two
 * nested loops over the 5x5 window (for dy { for dx { if (...) } }), and in
 * the inner body a decision per neighbour: one whose luminance is close to
 * the centre's is weighted (spatial and range Gaussians, a colour distance:
 * the costly arm), one across an edge only counted (cheap). Smooth regions
 * take the costly arm for all 25 neighbours, noisy texture splits per
 * neighbour: the random mix is divergent, the photo mostly coherent.
 *
 * Today: the only top-level decision is the bounds guard (affine); the
 * decision is in the inner loop of two nested loops, which the loop kernel
 * does not regroup (no decision at the top of the outer loop's body).
 */
static float luma(const uchar4 p)
{
    return (0.299f * p.x + 0.587f * p.y + 0.114f * p.z) * (1.0f / 255.0f);
}

__kernel void edge_stop_5x5(__global const uchar4 *img, __global uchar4 *out,
                            __global int *rejected, const int w, const int h,
                            const float range)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    const uchar4 cp = img[y * w + x];
    const float4 c = convert_float4(cp) * (1.0f / 255.0f);
    const float lc = luma(cp);
    float4 sum = (float4)(0.0f);
    float coeff = 0.0f;
    int nrej = 0;
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            const uchar4 pp = img[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)];
            const float d = fabs(luma(pp) - lc);
            if (d < range) {
                const float4 p = convert_float4(pp) * (1.0f / 255.0f);
                const float ds = sqrt((float)(dx * dx + dy * dy)) * 0.5f;
                const float dc = fast_distance(p.xyz, c.xyz) / range;
                const float wgt = exp(-0.5f * ds * ds) * exp(-0.5f * dc * dc)
                                  * pow(1.0f - d / range, 1.5f);
                sum += wgt * p;
                coeff += wgt;
            } else {
                nrej++;
            }
        }
    }
    const float4 r = coeff > 0.0f ? sum / coeff : c;
    out[y * w + x] = convert_uchar4_sat(r * 255.0f + 0.5f);
    rejected[y * w + x] = nrej;
}
