// RUN: nplus1gen %s --validate --global 65536 --require-all-leaves --arg steps=5
// RUN: nplus1gen %s --validate --global 65536 --split always --require-all-leaves --arg steps=5
// RUN: nplus1gen %s --validate --global 65536 --strategy tile --require-all-leaves --arg steps=5
// EXPECT: match all-leaves
/* Issue 28, shape 9 with a costlier arm (96 rounds of the hash, so that it pays for a round): a union (a float seen as its bits, a password cracker's word and its
 * bytes) in the state across the regroup point, which sits in a nested block: it moves
 * as bytes. */
typedef union word {
    float f;
    uint u;
    uchar b[4];
} word;

__kernel void union_state(__global const float *in, __global uint *out, const int steps,
                          const uint n)
{
    const uint i = get_global_id(0);
    word w;
    w.f = in[i];
    for (int s = 0; s < steps; s++) {
        {
            const uchar m = w.b[0] ^ w.b[2];
            if (m & 1) {
                uint h = w.u;
                for (int k = 0; k < 96; k++)
                    h = (h ^ (h >> 7)) * 2654435761u + (uint)k;
                w.u ^= h;
            } else {
                w.f = w.f * 0.5f + in[(i + (uint)s) % n];
            }
        }
    }
    out[i] = w.u;
}
