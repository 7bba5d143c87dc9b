// Appends the ids of the selected items with atomic_inc: the order of out[]
// depends on scheduling, so out[] is compared as a multiset of its first
// count[0] elements (--unordered out --count count).
__kernel void select_items(__global const int *score, __global int *out,
                           __global int *count, int threshold)
{
    int i = get_global_id(0);
    if (score[i] > threshold) {
        int slot = atomic_inc(&count[0]);
        out[slot] = i * 2 + 1;
    } else if (score[i] < 16) {
        int slot = atomic_inc(&count[0]);
        out[slot] = -i;
    }
}
