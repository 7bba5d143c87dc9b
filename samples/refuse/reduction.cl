/*
 * reduction.cl - the classic local-memory tree reduction. nplus1gen must
 * refuse it.
 *
 * Each work-group sums its items in __local memory, halving the number of
 * active items each step, with a barrier between steps; item 0 writes the
 * group's sum. The `if (lid < s)` inside the loop looks like a decision,
 * but the kernel cannot be split: the leaf kernels re-form work-groups
 * from the items of one leaf, so the barriers, the __local scratch
 * argument and get_local_id/get_group_id/get_local_size would all see
 * different groups than in the original.
 * Expected: exit 1, no output files, and the diagnostics
 *   error: kernel 'reduce' takes a __local argument [nplus1-local-memory]
 *   error: kernel 'reduce' calls 'barrier' [nplus1-barrier]
 *   error: kernel 'reduce' calls 'get_local_id' [nplus1-local-id]
 * each at its line, with a note saying why (the first use of each rule is
 * reported; tests/lit/sample_reduction_refused.test holds the exact text).
 */
__kernel void reduce(__global const float *in, __global float *partial,
                     __local float *scratch)
{
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0);
    scratch[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
