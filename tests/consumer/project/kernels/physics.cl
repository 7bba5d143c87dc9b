/*
 * physics.cl - a 1-D kernel: a guard for the tail of the launch, a switch
 * on the kind of body, and an epilogue every body runs. Each kind is
 * integrated in STEPS small steps (common.h).
 */
#include "common.h"

__kernel void physics(__global float *pos, __global float *vel, __global const int *kind,
                      float dt, int n)
{
    int gid = get_global_id(0);
    if (gid >= n)
        return;
    float p = pos[gid];
    float v = vel[gid];
    const float h = dt / (float)STEPS;
    switch (kind[gid] % 3) {
    case 0: /* free flight in a wobbling field */
        for (int k = 0; k < STEPS; k++) {
            v += 0.1f * sin(p * 6.0f) * h;
            p += v * h;
        }
        break;
    case 1: /* falls, bounces off the floor */
        for (int k = 0; k < STEPS; k++) {
            v -= 9.81f * h;
            p += v * h;
            v = p < FLOOR_LEVEL ? -v * 0.8f : v;
            p = p < FLOOR_LEVEL ? 2.0f * FLOOR_LEVEL - p : p;
        }
        break;
    default: /* quadratic drag */
        for (int k = 0; k < STEPS; k++) {
            v -= v * fabs(v) * 0.05f * h;
            p += v * h + 0.001f * cos(v);
        }
        break;
    }
    pos[gid] = p;
    vel[gid] = v;
}
