// RUN: nplus1gen %s --validate --global 65536 --strategy tile --arg steps=5 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --arg steps=5 --require-all-leaves \
// RUN: -D NPLUS1_LOOP_REGROUP=1 --report
// EXPECT: match
// OUTPUT: ^    left as written: line \d+, if .*: cheap against a round: its arms save about \d+ operations a visit
// OUTPUT: ^  state machine \(tile\): no regroup point: no decision pays for a round, nor does refilling: regrouping off
/* Issue 28, shape 9 (measured 0.53x forced on an H200 when it regrouped; the cost rule now
 * leaves it as written: union_in_the_state_moves_as_bytes.cl is the same with a costlier
 * arm): a union (a float seen as its bits, a password cracker's word and its
 * bytes) in the state across the regroup point, which sits in a nested block: it moves
 * as bytes.
 * Left as written for its cost, it is no refusal (it was nplus1-no-decision): the set's
 * tile kernel is its own body in place (regrouping off); forced to regroup, it has nothing
 * to regroup with and refills, each item in its lane. */
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
                for (int k = 0; k < 24; k++)
                    h = (h ^ (h >> 7)) * 2654435761u + (uint)k;
                w.u ^= h;
            } else {
                w.f = w.f * 0.5f + in[(i + (uint)s) % n];
            }
        }
    }
    out[i] = w.u;
}
