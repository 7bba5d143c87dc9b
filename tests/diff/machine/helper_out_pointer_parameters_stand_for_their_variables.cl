// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=4 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=4 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=4 --report
// EXPECT: match all-leaves
// OUTPUT: state machine \(tile\): regrouped round by round in the work-group at 1 regroup point
// OUTPUT: regroup point: line 21 in helper 'intersect' called at line 46,
// OUTPUT-NOT: policy: in place
/* Issue 28, a loop in a helper: the helper returns nothing and writes its results through
 * out-pointers to the kernel's private variables (`&t`, `&hit`, an array `acc`), and reads
 * and writes a seed through one. Inlined, each such pointer parameter stands for its
 * argument (`*hit` is `*(&hit)`), so no pointer into private state sits in the context and
 * the contexts move between lanes. */
static void intersect(__global const float *obj, float o, const uint n, uint *seed, float *t,
                      int *hit, float acc[2])
{
    *hit = -1;
    for (int k = 0; k < 4; k++) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 17;
        const float r = obj[(*seed ^ (uint)k) % n];
        if (r > o) {
            float d = r - o;
            for (int j = 0; j < 128; j++)
                d = native_sqrt(d * d + 0.01f) * 0.9f;
            if (d < *t) {
                *t = d;
                *hit = k;
            }
            acc[0] += d;
        } else {
            acc[1] += r;
        }
    }
}

__kernel void nearest(__global const float *obj, __global float *out, __global int *ids,
                      const int steps, const uint n)
{
    const uint i = get_global_id(0);
    uint seed = i * 747796405u + 1u;
    float t = 1e9f, acc[2];
    int hit = -1, last = -1;
    acc[0] = 0.0f;
    acc[1] = 0.0f;
    for (int s = 0; s < steps; s++) {
        intersect(obj, (float)(s % 3) * 0.25f, n, &seed, &t, &hit, acc);
        last = hit >= 0 ? hit : last;
    }
    out[i] = t + acc[0] - acc[1];
    ids[i] = last;
}
