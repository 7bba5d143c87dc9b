/*
 * Contexts of every value type: a struct, a float4 and a small private array
 * declared and set in the prologue, used by the leaves; a variable declared
 * there and set only by the branches (declared in the leaves, not carried);
 * and one the rest never uses (not in the context).
 */
typedef struct body {
    float3 pos;
    float mass;
    int kind;
} body_t;

__kernel void types(__global const float4 *in, __global float4 *out, __global int *tag)
{
    const int i = get_global_id(0);
    const float4 v = in[i];
    body_t b;
    b.pos = v.xyz;
    b.mass = v.w * 2.0f;
    b.kind = (int)(fabs(v.x) * 3.0f) % 3;
    float w[4];
    for (int k = 0; k < 4; k++)
        w[k] = v.x * (float)k + v.y;
    const float unused = v.z * v.w;
    int t;
    (void)unused;
    if (b.kind == 0) {
        out[i] = v * w[0] + w[2];
        t = 10;
    } else if (b.kind == 1) {
        out[i] = (float4)(b.pos, b.mass) + w[3];
        t = 11;
    } else {
        float acc = 0.0f;
        for (int k = 0; k < 4; k++)
            acc += w[k] * w[k];
        out[i] = v.wzyx * acc + (float4)(b.pos * b.mass, 1.0f);
        t = 12;
    }
    tag[i] = t + b.kind;
}
