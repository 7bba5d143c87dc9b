// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg inum=4096 \
// RUN: --arg neigh_count=16 --arg neigh=size:65536 --arg neigh=range:0:4096 --arg cutsq=0.05 \
// RUN: --arg lj1=1.5 --arg lj2=2.0 --report
// RUN: nplus1gen %s --validate --global 4096 --arg inum=4096 --arg neigh_count=16 \
// RUN: --arg neigh=size:65536 --arg neigh=range:0:4096 --arg cutsq=0.05 --arg lj1=1.5 \
// RUN: --arg lj2=2.0 --split always --report
// RUN: nplus1gen %s --validate --global 4096 --arg inum=4096 --arg neigh_count=16 \
// RUN: --arg neigh=size:65536 --arg neigh=range:0:4096 --arg cutsq=0.05 --arg lj1=1.5 \
// RUN: --arg lj2=2.0 --split always \
// RUN: -D NPLUS1_LOOP_REGROUP=1 --require-all-leaves --report
// EXPECT: match
// OUTPUT: candidates: original and tile\+loop only
// OUTPUT: loop \(tile\): line \d+: no decision of the loop pays for a round, nor does refilling: regrouping off
// By the cost rule (tool/plan/regroup_rule.c) no decision of its loop pays for a round and
// refilling does not pay either: the set runs the loop kernel with regrouping off (its
// leaves not counted); the last run forces mixed rounds to check the regrouped loop.
/*
 * Shape of: SHOC (vetter/shoc), src/opencl/level1/md/md.cl, compute_lj_force: no
 * decision at the top level; a `while (j < neighCount)` loop walks the atom's neighbour
 * list (stored neighbour-major: neighList[j * inum + idx], an uncoalesced gather of the
 * neighbour's position), computes the squared distance and only inside the cutoff
 * (`if (r2inv < cutsq)`) the Lennard-Jones force terms. The cutoff test is the loop's
 * data decision; the force is written after the loop.
 */
__kernel void lj_force(__global float4 *force, __global const float4 *position,
                       const int neigh_count, __global const int *neigh, const float cutsq,
                       const float lj1, const float lj2, const int inum)
{
    const uint idx = get_global_id(0);
    const float4 ipos = position[idx];
    float4 f = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
    int j = 0;
    while (j < neigh_count) {
        const int jidx = neigh[j * inum + idx];
        const float4 jpos = position[jidx];
        const float dx = ipos.x - jpos.x, dy = ipos.y - jpos.y, dz = ipos.z - jpos.z;
        const float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < cutsq) {
            const float r2inv = 1.0f / (r2 + 1e-3f);
            const float r6inv = r2inv * r2inv * r2inv;
            const float fs = r2inv * r6inv * (lj1 * r6inv - lj2);
            f.x += dx * fs;
            f.y += dy * fs;
            f.z += dz * fs;
        }
        j++;
    }
    force[idx] = f;
}
