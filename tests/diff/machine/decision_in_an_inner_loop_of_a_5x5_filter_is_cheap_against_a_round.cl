// RUN: nplus1gen %s --validate --global 256,256 --strategy tile --arg w=256 --arg h=256 --report
// RUN: nplus1gen %s --validate --global 256,256 --strategy tile --arg w=256 --arg h=256 \
// RUN: --require-all-leaves -D NPLUS1_LOOP_REGROUP=2 --report
// EXPECT: match
// OUTPUT: ^    left as written: line \d+, if .*: cheap against a round: its arms save about \d+ operations a visit
// OUTPUT: ^  state machine \(tile\): no regroup point: no decision pays for a round, nor does refilling: regrouping off
/* Issue 28, shape 2 (measured 0.70x forced on an H200 when it regrouped; issue 28's cost
 * rule now leaves it as written: its arms save about half its costly arm a visit, less than
 * a round): a 5x5 neighbour filter, `for dy { for dx { if (...) } }`: the data
 * decision sits in an inner loop. Both loop counters and the sums are the item's context;
 * `continue` of the inner loop keeps its meaning in the resumable body.
 * Left as written for its cost, it is no refusal (it was nplus1-no-decision): the set's
 * tile kernel is its own body in place (regrouping off); forced to regroup, it has nothing
 * to regroup with and refills, each item in its lane. */
__kernel void neighbour_filter(__global const float *img, __global float *out, const int w,
                               const int h)
{
    const int x = get_global_id(0), y = get_global_id(1);
    float sum = 0.0f, wsum = 0.0f;
    const float c = img[y * w + x];
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            const int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);
            const float v = img[yy * w + xx];
            if (v == c)
                continue;
            if (fabs(v - c) < 0.25f) {
                float k = v;
                for (int it = 0; it < 12; it++)
                    k = native_exp(-k * k) + 0.5f * sin(k + (float)it);
                sum += k * v;
                wsum += k;
            } else {
                sum += 0.01f * v;
            }
        }
    }
    out[y * w + x] = wsum > 0.0f ? sum / wsum : sum;
}
