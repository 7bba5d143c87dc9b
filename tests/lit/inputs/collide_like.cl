/* oclParticles' collide, reduced: a neighbour loop whose body has no braces (braced, it
 * would hold only an inner loop), its one data decision a `continue` cheap against a round,
 * loops of constant trip counts. Once refused (nplus1-no-decision) beside
 * refuse/loop_kernel_rules.cl's kernels; only cost declines it, so it gets a set whose tile
 * kernel runs in place (auto_loop_only_kernel_gets_a_set.test). */
__kernel void collide_like(__global const uint *cell_start, __global float4 *vel, const uint n)
{
    const uint index = get_global_id(0);
    float4 force = (float4)(0.0f);
    for (int z = -1; z <= 1; z++)
        for (int x = -1; x <= 1; x++) {
            const uint first = cell_start[(index + (uint)(z * 3 + x)) % n];
            if (first == 0xFFFFFFFFu)
                continue;
            force += (float4)((float)first);
        }
    vel[index] = force;
}
