// Rigid-body contact response: every body carries a word of contact flags,
// one bit per wall and per constraint, and each set flag adds its impulse.
// Nine independent ifs after the guard make 1 + 2^9 = 513 paths: nplus1gen
// splits the guard and the first five flags (33 leaves) and leaves the four
// inner ones in the leaf kernels, where they still branch. The last one may
// return, which a decision that stays in the leaves may do.
typedef struct body {
    float px, py, pz;
    float vx, vy, vz;
    float mass, restitution;
} body;

#define WALL_X0 0x001
#define WALL_X1 0x002
#define WALL_Y0 0x004
#define WALL_Y1 0x008
#define WALL_Z0 0x010
#define WALL_Z1 0x020
#define HINGE   0x040
#define SPRING  0x080
#define SLEEP   0x100

__kernel void contact_response(__global const int *flags, __global const float *impulse,
                               __global float *vel_out, __global float *energy, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const int f = flags[i];
    const float j = impulse[i];
    float vx = j, vy = 0.5f * j, vz = -j;
    if (f & WALL_X0)
        vx = fabs(vx) * 0.8f;
    if (f & WALL_X1)
        vx = -fabs(vx) * 0.8f;
    if (f & WALL_Y0)
        vy = fabs(vy) * 0.7f + 0.01f;
    if (f & WALL_Y1)
        vy = -fabs(vy) * 0.7f;
    if (f & WALL_Z0) {
        vz = fabs(vz) * 0.6f;
        vx *= 0.95f;
    }
    if (f & WALL_Z1)
        vz = -fabs(vz) * 0.6f;
    if (f & HINGE) {
        float t = vx;
        vx = -vy;
        vy = t;
    }
    if (f & SPRING)
        vz += sqrt(fabs(j)) * 0.1f;
    if (f & SLEEP) {
        if (j < 0.25f) {
            vel_out[3 * i] = 0.0f;
            vel_out[3 * i + 1] = 0.0f;
            vel_out[3 * i + 2] = 0.0f;
            energy[i] = 0.0f;
            return;
        }
        vx *= 0.5f;
    }
    vel_out[3 * i] = vx;
    vel_out[3 * i + 1] = vy;
    vel_out[3 * i + 2] = vz;
    energy[i] = 0.5f * (vx * vx + vy * vy + vz * vz);
}
