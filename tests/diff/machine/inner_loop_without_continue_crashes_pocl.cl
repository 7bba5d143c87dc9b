// RUN: nplus1gen %s --validate --global 4096 --strategy tile --require-all-leaves --arg w=4096
// EXPECT: match all-leaves
// XFAIL: POCL on this machine (libpocl.so.2.10, LLVM 15) recurses until its stack overflows compiling this state machine (a regroup point in the inner of two counted loops, with no `continue` before it; with NPLUS1_LOOP_REGROUP=0 too); the same kernel with a `continue` (decision_in_an_inner_loop_of_a_5x5_filter_is_cheap_against_a_round.cl) compiles and matches. Not yet known whether the GPU compilers accept it.
/* Issue 28, shape 2 without the filter's `continue`: kept as a known failure of the
 * state machine on POCL (its costly arm runs 32 trips: it pays for a round).  */
__kernel void nf3(__global const float *img, __global float *out, const int w)
{
    const int x = get_global_id(0);
    float sum = 0.0f;
    const float c = img[x];
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            const int xx = clamp(x + dx, 0, w - 1);
            const float v = img[xx];
            if (fabs(v - c) < 0.25f) {
                float k = v;
                for (int it = 0; it < 32; it++)
                    k = exp(-k * k) + 0.5f * sin(k + (float)it);
                sum += k * v;
            } else {
                sum += 0.01f * v;
            }
        }
    }
    out[x] = sum;
}
