// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=5
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=5
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=5
// EXPECT: match all-leaves
/* Issue 28 item 2, liveness: each iteration fills a private array `tab[32]`, reduces it
 * to `m` and decides on `m` (in a nested block: the loop kernel declines, the state
 * machine regroups). The array's scope (the loop's body) holds the regroup point,
 * but it is dead there (refilled before any read), so the context keeps `m` and not its
 * 128 bytes: by scope the context would not fit local memory (in place, refill only);
 * by liveness it moves (tests/lit/machine_context_liveness.test checks the bytes). `seed`
 * is read only before the loop: dead at the point too. */
__kernel void dead_table(__global const float *in, __global float *out, const int steps,
                         const uint n)
{
    const uint i = get_global_id(0);
    const float seed = in[i];
    float acc = seed * 0.5f;
    for (int s = 0; s < steps; s++) {
        float tab[32];
        for (int k = 0; k < 32; k++)
            tab[k] = in[(i + (uint)(k * 7 + s)) % n];
        float m = tab[0];
        for (int k = 1; k < 32; k++)
            m = fmax(m, tab[k]) * 0.999f;
        {
            if (m > 0.9f) {
                float t = m;
                for (int k = 0; k < 48; k++)
                    t = sin(t) * 1.25f + cos(t * 0.5f);
                acc += t;
            } else {
                acc -= m * 0.25f;
            }
        }
    }
    out[i] = acc;
}
