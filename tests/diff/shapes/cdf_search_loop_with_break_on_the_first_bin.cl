// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 2048 --arg n=2000 \
// RUN: --arg cdf=iota --arg u=range:0:2000 --report
// RUN: nplus1gen %s --validate --global 2048 --arg n=2000 --arg cdf=iota \
// RUN: --arg u=range:0:2000 --split always --report
// RUN: nplus1gen %s --validate --global 2048 --arg n=2000 --arg cdf=iota \
// RUN: --arg u=range:0:2000 --split always \
// RUN: -D NPLUS1_LOOP_REGROUP=1 --require-all-leaves --report
// EXPECT: match
// OUTPUT: candidates: original and tile\+loop only
// OUTPUT: loop \(tile\): line \d+: no decision of the loop pays for a round, nor does refilling: regrouping off
// By the cost rule (tool/plan/regroup_rule.c) no decision of its loop pays for a round and
// refilling does not pay either: the set runs the loop kernel with regrouping off (its
// leaves not counted); the last run forces mixed rounds to check the regrouped loop.
/*
 * Shape of: Rodinia (yuhc/gpu-rodinia), opencl/particlefilter/particle_naive.cl,
 * particle_kernel: inside the guard `if (i < Nparticles)`, a linear search of the
 * cumulative distribution for the first bin at or above the item's uniform draw
 * (`if (CDF[x] >= u[i]) { index = x; break; }`), a fallback when none is found, then the
 * resampled particle copied from that bin. Trip counts differ per item (the draw decides
 * where the loop breaks), which is what the loop kernel's refill evens out.
 */
__kernel void resample(__global const double *x_in, __global const double *y_in,
                       __global const double *cdf, __global const double *u,
                       __global double *x_out, __global double *y_out, int n)
{
    const int i = get_global_id(0);
    if (i < n) {
        int index = -1;
        int x;
        for (x = 0; x < n; x++) {
            if (cdf[x] >= u[i]) {
                index = x;
                break;
            }
        }
        if (index == -1)
            index = n - 1;
        x_out[i] = x_in[index];
        y_out[i] = y_in[index];
    }
}
