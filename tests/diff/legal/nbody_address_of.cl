// N-body integration step. The kernel takes the address of its body
// ('__global body *b = &bodies[i]') and of a field ('&b->vx'): an address
// is not a store, so the decision on the body's kind is split; the stores
// go through the pointers afterwards, in the leaves.
typedef struct body {
    float x, y, vx, vy, mass;
    int kind;
} body;

__kernel void integrate(__global body *bodies, __global float *energy, const float dt)
{
    const int i = get_global_id(0);
    __global body *b = &bodies[i];
    __global float *vx = &b->vx;
    const int kind = b->kind & 3;
    if (kind == 0) { /* pinned */
        energy[i] = 0.0f;
    } else if (kind == 1) { /* ballistic */
        b->x += *vx * dt;
        b->y += b->vy * dt;
        energy[i] = 0.5f * (*vx * *vx + b->vy * b->vy);
    } else { /* damped, under gravity */
        *vx *= 0.9f;
        b->vy = b->vy * 0.9f - 9.81f * dt;
        energy[i] = 9.81f * b->y;
    }
}
