// Ray-sphere intersection written with small vector helpers, as ray tracers
// in C style do: the helpers take the caller's private vector by address
// ('&l', '&tca') and read the scene through '&sph[k].center'. Their stores go
// to private memory, so the statements are a side-effect-free slice; each
// miss writes its result and returns, so that store does not run before the
// next condition, which reads the scene again.
typedef struct { float x, y, z; } vec3;
typedef struct { vec3 center; float radius2; } sphere_t;
typedef struct { vec3 orig; vec3 dir; } ray_t;
static void v_cpy(vec3 *d, const __global vec3 *s) { d->x = s->x; d->y = s->y; d->z = s->z; }
static void v_sub(vec3 *d, const __global vec3 *s) { d->x -= s->x; d->y -= s->y; d->z -= s->z; }
static void v_dot(const vec3 *a, const __global vec3 *b, float *r) { *r = a->x * b->x + a->y * b->y + a->z * b->z; }
static void v_dotl(const vec3 *a, const vec3 *b, float *r) { *r = a->x * b->x + a->y * b->y + a->z * b->z; }
__kernel void sphere_hit(__global const sphere_t *sph, __global const ray_t *rays, __global float *res)
{
    const int i = get_global_id(0);
    float tca, d2, thc;
    vec3 l;
    v_cpy(&l, &sph[i & 7].center);
    v_sub(&l, &rays[i].orig);
    v_dot(&l, &rays[i].dir, &tca);
    if (tca < 0.0f) {
        res[i] = -1.0f;
        return;
    }
    v_dotl(&l, &l, &d2);
    d2 -= tca * tca;
    if (d2 > sph[i & 7].radius2) {
        res[i] = -2.0f;
        return;
    }
    thc = sqrt(sph[i & 7].radius2 - d2);
    res[i] = tca - thc < 0.0f ? tca + thc : tca - thc;
}
