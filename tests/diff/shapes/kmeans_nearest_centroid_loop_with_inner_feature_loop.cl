// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg npoints=4000 \
// RUN: --arg nclusters=12 --arg nfeatures=8 --arg feature=size:32768 --arg clusters=size:96 --report
// RUN: nplus1gen %s --validate --global 4096 --arg npoints=4000 --arg nclusters=12 \
// RUN: --arg nfeatures=8 --arg feature=size:32768 --arg clusters=size:96 --split always --report
// RUN: nplus1gen %s --validate --global 4096 --arg npoints=4000 --arg nclusters=12 \
// RUN: --arg nfeatures=8 --arg feature=size:32768 --arg clusters=size:96 --split always \
// RUN: -D NPLUS1_LOOP_REGROUP=1 --require-all-leaves --report
// EXPECT: match
// OUTPUT: candidates: original and tile\+loop only
// OUTPUT: loop \(tile\): line \d+: no decision of the loop pays for a round, nor does refilling: regrouping off
// By the cost rule (tool/plan/regroup_rule.c) no decision of its loop pays for a round and
// refilling does not pay either: the set runs the loop kernel with regrouping off (its
// leaves not counted); the last run forces mixed rounds to check the regrouped loop.
/*
 * Shape of: Rodinia (yuhc/gpu-rodinia), opencl/kmeans/kmeans.cl, kmeans_kernel_c: a
 * point's guard `if (point_id < npoints)` holds the loop over the clusters; each cluster's
 * squared distance is an inner loop over the features (column-major: feature[l * npoints
 * + point]), and `if (dist < min_dist)` keeps the nearest. The loop sits at the top level
 * of the guard's branch, so the loop kernel regroups it at the distance test (the top-
 * level if runs in its prologue). The membership is written after the loop. Here the
 * new nearest also costs a small refinement (a running second-nearest gap) so both arms
 * do work.
 */
#define FLT_BIG 3.0e38f

__kernel void nearest_centroid(__global const float *feature, __global const float *clusters,
                               __global int *membership, __global float *gap, int npoints,
                               int nclusters, int nfeatures)
{
    const int p = get_global_id(0);
    if (p < npoints) {
        float best = FLT_BIG, second = FLT_BIG;
        int index = 0;
        for (int c = 0; c < nclusters; c++) {
            float d = 0.0f;
            for (int l = 0; l < nfeatures; l++) {
                const float t = feature[l * npoints + p] - clusters[c * nfeatures + l];
                d += t * t;
            }
            if (d < best) {
                second = best;
                best = d;
                index = c;
            } else {
                second = fmin(second, d);
            }
        }
        membership[p] = index;
        gap[p] = second - best;
    }
}
