// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --local 64 --arg n=1000 \
// RUN: --arg cdf=iota --arg u=range:0:1200 --arg w=range:0:1
// RUN: nplus1gen %s --validate --global 4096 --local 64 --arg n=1000 --arg cdf=iota \
// RUN: --arg u=range:0:1200 --arg w=range:0:1 --split always
// RUN: nplus1gen %s --validate --global 4096 --local 64 --arg n=1000 --arg cdf=iota \
// RUN: --arg u=range:0:1200 --arg w=range:0:1 --strategy tile
// RUN: nplus1gen %s --validate --global 4096 --local 64 --arg n=1000 --arg cdf=iota \
// RUN: --arg u=range:0:1200 --arg w=range:0:1 --strategy tile -D NPLUS1_LOOP_REGROUP=1
// EXPECT: match
// OUTPUT: kernel weigh_bin: \d+ values compared, 0 mismatches\n  leaf 0 -> kernel 0: +[1-9]\d* items, 0 mismatches
/*
 * Shape of: Rodinia's particle filter (opencl/particlefilter, find_index_kernel): each
 * item searches the cumulative distribution for the first bin at or above its draw,
 * writes the bin, and the kernel ends with a `barrier(CLK_GLOBAL_MEM_FENCE)` that orders
 * nothing (no statement follows it). It was refused like any barrier [nplus1-barrier];
 * now it is left out of every generated kernel, with a note, and the sets compute what the
 * original computes: `find_bin` (the search below a weight test: the loop kernel is its
 * split; the last run forces it to regroup) and `weigh_bin` (the search first, then a
 * data decision with costly arms: leaf kernels whose epilogue held the barrier). Launched
 * with a local size, as the original needs for its barrier.
 */
__kernel void find_bin(__global const float *cdf, __global const float *u,
                       __global const float *w, __global int *index, const int n)
{
    const int i = get_global_id(0);
    int found = -1;
    if (w[i] > 0.3f) {
        for (int x = 0; x < n; x++) {
            if (cdf[x] >= u[i]) {
                found = x;
                break;
            }
        }
    } else {
        found = (int)(w[i] * 10.0f);
    }
    if (found == -1)
        found = n - 1;
    index[i] = found;
    barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel void weigh_bin(__global const float *cdf, __global const float *u,
                        __global const float *w, __global int *index, const int n)
{
    const int i = get_global_id(0);
    int found = n - 1;
    for (int x = 0; x < n; x++) {
        if (cdf[x] >= u[i]) {
            found = x;
            break;
        }
    }
    float acc = w[i];
    if (acc > 0.5f) {
        for (int r = 0; r < 40; r++)
            acc = acc * 0.97f + sin(acc);
    } else {
        for (int r = 0; r < 40; r++)
            acc = acc * 0.91f + cos(acc);
    }
    index[i] = found + (int)(acc * 4.0f);
    barrier(CLK_GLOBAL_MEM_FENCE);
}
