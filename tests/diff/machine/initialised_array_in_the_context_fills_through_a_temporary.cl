// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=6 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=6 --report
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=6 --report
// EXPECT: match all-leaves
// OUTPUT: state machine \(tile\): regrouped round by round in the work-group at 1 regroup point
// OUTPUT: int tab\[3\], 12 bytes
// OUTPUT-NOT: has an initialiser
/* Issue 28: a private array declared alone with an initialiser sits in the item's context
 * (its scope holds the regroup point). Its declaration cannot become an assignment, so the
 * initialiser fills a temporary that the member copies byte by byte (it was a blocker). */
__kernel void tabled(__global const float *in, __global float *out, const int steps,
                     const uint n)
{
    const uint i = get_global_id(0);
    float v = in[i % n];
    int tab[3] = {1, 2, 3};
    for (int s = 0; s < steps; s++) {
        {
            if (in[(i + (uint)s) % n] > 0.5f) {
                for (int k = 0; k < 64; k++)
                    v = native_sin(v) * 0.5f + (float)tab[k % 3] * 0.1f;
                tab[s % 3] += 1;
            } else {
                v += 1.0f;
            }
        }
    }
    out[i] = v + (float)(tab[0] + tab[1] + tab[2]);
}
