/*
 * bitonic_mirror.cl - a bitonic-like mirrored compare-exchange.
 *
 * Models one global step of the bitonic sorts in OpenCL SDK samples and
 * GPU sort libraries, in the "mirrored" form of the merge's first step:
 * work-item i owns one pair of a block of `block` keys, the element `off`
 * from the block's start and the one `off` from its end; when they are out
 * of order the keys and their payloads swap. Every leaf is one or two
 * memory operations: a memory-bound kernel where splitting cannot pay and
 * `auto` must keep the original.
 *
 * Today: the compare is a top-level decision that reads data, so it splits
 * (a swap leaf and an empty one).
 */
__kernel void mirror_step(__global uint *key, __global uint *val, const uint block)
{
    const uint i = get_global_id(0);
    const uint half_block = block >> 1;
    const uint base = (i / half_block) * block;
    const uint off = i % half_block;
    const uint l = base + off, r = base + block - 1u - off;
    const uint a = key[l], b = key[r];
    if (a > b) {
        key[l] = b;
        key[r] = a;
        const uint v = val[l];
        val[l] = val[r];
        val[r] = v;
    }
}
