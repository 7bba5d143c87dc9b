/*
 * particles.cl - particle collision responses.
 *
 * Each work-item advances one particle (float4 position and velocity; w of
 * the position holds the particle's material) by one time step under
 * gravity (a float4 passed by value), then
 * resolves collisions with an else-if chain (a particle's radius is its
 * material's w):
 *   - below the floor: bounce with the material's restitution and friction,
 *     read from a __constant table,
 *   - through the left or right wall: reflect x,
 *   - inside the spherical obstacle: push out along the normal and reflect,
 *   - otherwise: no contact, apply drag.
 * The table is a __constant argument: the conditions read it through the
 * classifier's slice.
 * Expected: 4 leaves, all non-empty. Validate with
 *   nplus1gen samples/particles.cl --validate --global 16384 \
 *       --arg materials=size:8 --arg gravity=0,-0.5,0,0 --arg dt=0.25
 */
#define FLOOR_Y 0.2f
#define WALL_LO 0.1f
#define WALL_HI 0.9f

__kernel void collide(__global float4 *pos, __global float4 *vel,
                      __constant float4 *materials, const float4 gravity, const float dt)
{
    const int i = get_global_id(0);
    float4 p = pos[i];
    float4 v = vel[i] - (float4)(0.5f, 0.5f, 0.5f, 0.0f) + gravity * dt;
    const float4 m = materials[(int)(p.w * 8.0f) & 7];
    const float4 obstacle = (float4)(0.5f, 0.6f, 0.5f, 0.15f);   /* centre, radius */
    const float r = 0.05f * m.w;
    float4 next = p + v * dt;

    if (next.y - r < FLOOR_Y) {
        next.y = FLOOR_Y + r + (FLOOR_Y + r - next.y) * m.x;
        v.y = -v.y * m.x;
        v.xz *= 1.0f - m.y;
    } else if (next.x - r < WALL_LO || next.x + r > WALL_HI) {
        next.x = clamp(next.x, WALL_LO + r, WALL_HI - r);
        v.x = -v.x * m.x;
    } else if (distance(next.xyz, obstacle.xyz) < obstacle.w + r) {
        const float3 n = normalize(next.xyz - obstacle.xyz);
        next.xyz = obstacle.xyz + n * (obstacle.w + r);
        v.xyz = v.xyz - (1.0f + m.x) * dot(v.xyz, n) * n;
    } else {
        v *= (float4)(1.0f - m.z * dt);
    }
    next.w = p.w;
    pos[i] = next;
    vel[i] = v;
}
