/*
 * histogram.cl - a histogram with atomics inside the leaves.
 *
 * Each work-item reads one value (0..1023) and counts it in a 64-bin
 * histogram with atomic_inc / atomic_add; its class decides how:
 *   - values below `split` are folded into the lower half of the bins,
 *   - values just past a bin edge are counted in both neighbouring bins,
 *   - everything else is counted in its bin with a weight of 1 to 4.
 * Atomics inside a leaf are legal: every item still does exactly its own
 * increments, only in another kernel. (In a condition or in the slice they
 * would be refused: the classifier would repeat them.) The result does not
 * depend on the order of the increments, so the diff is exact.
 * Expected: 3 leaves, all non-empty. Validate with
 *   nplus1gen samples/histogram.cl --validate --global 32768 \
 *       --arg hist=size:64 --arg split=300
 */
#define NBINS 64

__kernel void histogram(__global const uint *values, volatile __global uint *hist,
                        const uint split)
{
    const uint v = values[get_global_id(0)];
    const uint bin = (v * NBINS) / 1024u;
    const uint edge = (v * NBINS) % 1024u;

    if (v < split) {
        atomic_inc(&hist[bin / 2]);
    } else if (edge < 64u && bin > 0) {
        atomic_inc(&hist[bin - 1]);
        atomic_inc(&hist[bin]);
    } else {
        atomic_add(&hist[bin], 1u + (v & 3u));
    }
}
