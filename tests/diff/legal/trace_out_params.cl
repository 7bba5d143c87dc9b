// Ray tracing against a unit circle: the intersection helper returns the
// distance and the normal through out-parameters into the caller's private
// variables ('&t', '&n'). Those stores go to private memory: they are
// writes of local variables, not memory side effects. The first call is a
// statement the classifier's slice runs; the second is a condition, which
// the leaves evaluate again for its writes.
typedef struct ray {
    float ox, oy, dx, dy;
} ray;

static int hit_circle(const ray r, const float radius, float *t, float2 *n)
{
    const float b = r.ox * r.dx + r.oy * r.dy;
    const float c = r.ox * r.ox + r.oy * r.oy - radius * radius;
    const float disc = b * b - c * (r.dx * r.dx + r.dy * r.dy);
    if (disc < 0.0f)
        return 0;
    *t = (-b - sqrt(disc)) / (r.dx * r.dx + r.dy * r.dy);
    *n = (float2)(r.ox + *t * r.dx, r.oy + *t * r.dy) / radius;
    return *t > 0.0f;
}

static void shade_pixel(__global float *img, const int i, const float v)
{
    img[i] = v; /* a store through a pointer argument: memory, in the leaf */
}

__kernel void trace(__global const float4 *rays, __global float *image, __global int *hits)
{
    const int i = get_global_id(0);
    const float4 q = rays[i];
    const ray r = {q.x * 4.0f - 2.0f, q.y * 4.0f - 2.0f, q.z - 0.5f, q.w - 0.5f};
    float t = 0.0f, t2 = 0.0f;
    float2 n = (float2)(0.0f, 0.0f), n2 = (float2)(0.0f, 0.0f);
    const int outer = hit_circle(r, 1.5f, &t, &n);
    if (outer && t < 1.0f) {
        hits[i] = 2;
        shade_pixel(image, i, t * fabs(n.x));
    } else if (hit_circle(r, 1.0f, &t2, &n2)) {
        hits[i] = 1;
        shade_pixel(image, i, t2 * fabs(n2.y) + (outer ? 0.5f : 0.0f));
    } else {
        hits[i] = 0;
        shade_pixel(image, i, -1.0f);
    }
}
