// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=6 --arg n=65536
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=6 --arg n=65536
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=6 --arg n=65536 -D NPLUS1_LOOP_REGROUP=2
// EXPECT: match all-leaves
/* An item writes its running sum into global memory in every trip, regroups at the costly
 * decision in a nested block (the state machine's regroup point), and reads the sum back on
 * the work-item it moved to: the barrier that hands its context over fences global memory
 * too (tests/lit/move_barrier_fences_global_memory_where_an_item_wrote.test checks the
 * text). Policy 2 regroups every round, so every item moves. */
__kernel void accumulate(__global const float *in, __global float *sum, __global int *hits,
                         const int steps, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    sum[i] = in[i];
    hits[i] = 0;
    for (int s = 0; s < steps; s++) {
        {
            const float w = sum[i] * 0.5f + (float)s;
            if (in[(i * 7u + (uint)s * 13u) % n] > 0.5f) {
                float t = w;
                for (int k = 0; k < 24; k++)
                    t = sin(t) * 1.25f + cos(t * 0.5f);
                sum[i] += t;
                atomic_inc(&hits[i]);
            } else {
                sum[i] -= w * 0.125f;
            }
        }
        sum[i] *= 0.75f;
    }
}
