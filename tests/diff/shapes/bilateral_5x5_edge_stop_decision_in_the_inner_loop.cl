// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 104,72 --arg w=100 --arg h=70 \
// RUN: --arg range=0.3 --report
// RUN: nplus1gen %s --validate --global 104,72 --arg w=100 --arg h=70 --arg range=0.3 \
// RUN: --split always --report
// EXPECT: match
// OUTPUT: ^    leaf 1 -> bilateral5__nplus1_leaf0  lines 26-49  cost
// OUTPUT-NOT: regrouped round by round
/*
 * Shape of: UoB-HPC/opencl-training-code, solutions/Bilateral/bilateral.cl (a 5x5
 * window, `for (j = -2..2) for (i = -2..2)`, weights from the spatial and the range
 * distance), with the edge-stop decision of edge-preserving filters: a neighbour whose
 * value is too far from the centre is rejected (cheap) instead of weighted (two exp).
 * The decision sits in the inner loop of two nested loops (for dy { for dx { if } }).
 * Today (the OUTPUT lines): split at the bounds guard only; the whole loop nest runs
 * in one leaf, no loop regrouped (--strategy tile says: the body of the loop at line 30
 * holds no decision at its top level).
 */
__kernel void bilateral5(__global const float *img, __global float *out,
                         __global int *rejected, const int w, const int h,
                         const float range)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    const float c = img[y * w + x];
    float sum = 0.0f;
    float coeff = 0.0f;
    int nrej = 0;
    for (int j = -2; j <= 2; j++) {
        for (int i = -2; i <= 2; i++) {
            const int xx = clamp(x + i, 0, w - 1);
            const int yy = clamp(y + j, 0, h - 1);
            const float p = img[yy * w + xx];
            const float d = fabs(p - c);
            if (d < range) {
                const float dn = sqrt((float)(i * i + j * j)) * 0.5f;
                const float dr = d / range;
                const float wgt = exp(-0.5f * dn * dn) * exp(-0.5f * dr * dr);
                sum += wgt * p;
                coeff += wgt;
            } else {
                nrej++;
            }
        }
    }
    out[y * w + x] = coeff > 0.0f ? sum / coeff : c;
    rejected[y * w + x] = nrej;
}
