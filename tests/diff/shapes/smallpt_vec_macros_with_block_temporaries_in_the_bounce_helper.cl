// RUN: env NPLUS1_SPLIT=auto nplus1gen %s --validate --global 4096 --arg n=4000 \
// RUN: --arg seed=range:1:2147483647 --report
// RUN: nplus1gen %s --validate --global 4096 --arg n=4000 --arg seed=range:1:2147483647 \
// RUN: --strategy tile --report
// RUN: nplus1gen %s --validate --global 4096 --local 64 --arg n=4000 \
// RUN: --arg seed=range:1:2147483647 --strategy tile --split always -D NPLUS1_LOOP_REGROUP=1 --report
// RUN: nplus1gen %s --validate --global 4096 --local 64 --arg n=4000 \
// RUN: --arg seed=range:1:2147483647 --strategy tile --split always -D NPLUS1_LOOP_REGROUP=2 --report
// EXPECT: match
// OUTPUT: state machine \(tile\): cut at 1 regroup point
// OUTPUT: regroup point: line \d+ in helper 'radiance' called at line \d+, if \(mat\[id\] == DIFF\)
// OUTPUT-NOT: named inside a macro's own text
/*
 * Shape of: SmallptGPU (David Bucciarelli), vec.h and geomfunc.h: the vector macros
 * declare their own temporaries inside their braces (`vsmul` a `float k`, `vnorm` a
 * `float l`), and the bounce loop lives in a helper, radiance(), that uses them. The
 * state machine inlines the helper at its call and renames the helper's variables; a
 * macro's temporary is declared and named only inside the macro's own text, so it cannot
 * be renamed, and the helper was left uninlined ("its variable 'k' is named inside a
 * macro's own text"): no regroup point in the bounce loop. Such a temporary needs no
 * renaming (the macro's braces scope it, its name is no other variable's): the helper is
 * inlined with the macros as written and the material decision in its loop regroups.
 */
#define DIFF 0
#define SPEC 1
#define NSPH 8

typedef struct { float x, y, z; } Vec;

#define vinit(v, a, b, c) { (v).x = a; (v).y = b; (v).z = c; }
#define vadd(v, a, b) vinit(v, (a).x + (b).x, (a).y + (b).y, (a).z + (b).z)
#define vsub(v, a, b) vinit(v, (a).x - (b).x, (a).y - (b).y, (a).z - (b).z)
#define vdot(a, b) ((a).x * (b).x + (a).y * (b).y + (a).z * (b).z)
#define vsmul(v, a, b) { float k = (a); vinit(v, k * (b).x, k * (b).y, k * (b).z) }
#define vnorm(v) { float l = 1.f / sqrt(vdot(v, v)); vsmul(v, l, v); }

static float rnd(uint *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (float)((*seed >> 8) & 0xffff) / 65536.0f;
}

static float radiance(__constant const int *mat, __constant const float *cen, Vec d,
                      uint *seed)
{
    Vec o;
    vinit(o, 0.f, 0.f, 0.f);
    float acc = 0.f, w = 1.f;
    for (int depth = 0; depth < 6; depth++) {
        int id = -1;
        float best = 1e20f;
        for (int s = 0; s < NSPH; s++) {
            Vec p;
            vinit(p, cen[3 * s] - o.x, cen[3 * s + 1] - o.y, cen[3 * s + 2] - o.z);
            const float b = vdot(p, d);
            const float det = b * b - vdot(p, p) + 0.25f;
            if (det > 0.f && b - sqrt(det) > 1e-3f && b - sqrt(det) < best) {
                best = b - sqrt(det);
                id = s;
            }
        }
        if (id < 0)
            break;
        Vec hit;
        vsmul(hit, best, d);
        vadd(o, o, hit);
        Vec nrm;
        vinit(nrm, o.x - cen[3 * id], o.y - cen[3 * id + 1], o.z - cen[3 * id + 2]);
        vnorm(nrm);
        if (mat[id] == DIFF) {
            float light = 0.f;
            for (int j = 0; j < 64; j++) /* a costly arm: sampling the lights */
                light += native_sin(light + rnd(seed) * (float)j) * 0.05f;
            acc += w * fabs(light);
            Vec r;
            vinit(r, rnd(seed) - 0.5f, rnd(seed) - 0.5f, rnd(seed));
            vnorm(r);
            d = r;
            w *= 0.6f;
        } else {
            Vec refl;
            vsmul(refl, 2.f * vdot(nrm, d), nrm);
            vsub(d, d, refl);
            vnorm(d);
            w *= 0.9f;
        }
    }
    return acc;
}

__constant int materials[NSPH] = {DIFF, SPEC, DIFF, DIFF, SPEC, DIFF, SPEC, DIFF};
__constant float centres[3 * NSPH] = {0.f, 0.f, 3.f, 1.f, 0.5f, 4.f, -1.f, 0.f, 4.f,
                                      0.f, 1.f, 5.f, 0.5f, -1.f, 3.5f, -0.5f, -0.5f, 2.5f,
                                      1.f, -0.5f, 2.f, -1.f, 1.f, 3.f};

__kernel void radiance_gpu(__global const uint *seed, __global float *out, const int n)
{
    const int gid = get_global_id(0);
    if (gid >= n)
        return;
    uint s = seed[gid];
    Vec d;
    vinit(d, (float)(gid % 64) / 64.f - 0.5f, (float)(gid / 64) / 64.f - 0.5f, 1.f);
    vnorm(d);
    out[gid] = radiance(materials, centres, d, &s);
}
