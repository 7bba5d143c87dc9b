// RUN: nplus1gen %s --validate --global 65536 --strategy tile --arg steps=5 --report
// RUN: nplus1gen %s --validate --global 65536 --split always --arg steps=5 --require-all-leaves \
// RUN: -D NPLUS1_LOOP_REGROUP=1 --report
// EXPECT: match
// OUTPUT: ^    left as written: line \d+, if .*: cheap against a round: its arms save about \d+ operations a visit
// OUTPUT: ^  state machine \(tile\): no regroup point: no decision pays for a round, nor does refilling: regrouping off
/* Issue 28, shape 8 (measured 0.90x forced, refill only, on an H200 when it was cut; the
 * cost rule now leaves it as written: pointer_to_private_variables_keeps_items_in_their_lanes.cl
 * is the same with a costlier arm): a pointer to a private variable lives across the regroup point (`p`
 * points at `lo` or `hi`): the context cannot move to another lane, so each item stays in
 * its lane (refill only), never a refusal.
 * Left as written for its cost, it is no refusal (it was nplus1-no-decision): the set's
 * tile kernel is its own body in place (regrouping off); forced to regroup, it has nothing
 * to regroup with and refills, each item in its lane. */
__kernel void private_pointer(__global const float *in, __global float *out, const int steps,
                              const uint n)
{
    const uint i = get_global_id(0);
    float lo = 0.0f, hi = 0.0f;
    float *p = in[i] > 0.5f ? &hi : &lo;
    for (int s = 0; s < steps; s++) {
        const float v = in[(i + 11u * (uint)s) % n];
        if (v > 0.5f) {
            float t = v;
            for (int k = 0; k < 20; k++)
                t = cos(t) * 1.25f + 0.125f * (float)k;
            *p += t;
        } else {
            *p -= v;
            p = p == &lo ? &hi : &lo;
        }
    }
    out[i] = lo * 2.0f + hi;
}
