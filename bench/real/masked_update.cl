/*
 * masked_update.cl - a memory-bound masked update.
 *
 * Models the integration kernels of OpenCL particle/rigid-body codes that
 * keep a per-body state flag: sleeping bodies are left alone, kinematic
 * bodies move with their velocity, dynamic bodies also get gravity and
 * damping. A few flops per 32-64 bytes moved: memory-bound, so the
 * classification costs more than the divergence and `auto` must keep the
 * original.
 *
 * Today: the flag decisions are at the top level and read data, so they
 * split (sleeping is an empty leaf).
 */
#define SLEEPING 0
#define KINEMATIC 1
#define DYNAMIC 2

__kernel void integrate(__global const uchar *state, __global float4 *pos,
                        __global float4 *vel, const float4 gravity, const float dt,
                        const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const uchar st = state[i];
    if (st == SLEEPING)
        return;
    if (st == KINEMATIC) {
        pos[i] += vel[i] * dt;
    } else {
        const float4 v = (vel[i] + gravity * dt) * 0.999f;
        vel[i] = v;
        pos[i] += v * dt;
    }
}
