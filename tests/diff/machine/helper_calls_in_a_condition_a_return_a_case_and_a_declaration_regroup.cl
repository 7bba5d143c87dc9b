// RUN: env NPLUS1_CALIBRATION=%S/round_of_a_thousandth.calibration nplus1gen %s --validate --global 16384 --arg n=4096 --report
// RUN: env NPLUS1_CALIBRATION=%S/round_of_a_thousandth.calibration nplus1gen %s --validate --global 16384 --arg n=4096 --split always --report
// RUN: env NPLUS1_CALIBRATION=%S/round_of_a_thousandth.calibration nplus1gen %s --validate --global 16384 --arg n=4096 --strategy tile --wg 64 --report
// EXPECT: match
// OUTPUT: state machine \(tile\): (regrouped round by round in the work-group|cut) at 6 regroup points
// OUTPUT: regroup point: line 23 in helper 'inner' called at line 35 in helper 'outer' called at line 68, if
// OUTPUT: regroup point: line 41 in helper 'bump' called at line 75, if
// OUTPUT: regroup point: line 55 in helper 'mk' called at line 78, if
// OUTPUT: regroup point: line 23 in helper 'inner' called at line 83, if
// OUTPUT: regroup point: line 68, if \(outer\(d, x, n\) > 0\.5f\)
/* Issue 28, a loop in a helper: helper calls in the places a statement can make them,
 * each cut at its helper's decision (a round of 0.001: every data decision saving a
 * little pays; the if too): in an if's condition (its text goes before the if, the condition reads
 * the result), in a helper's `return` (a helper inlined inside a helper), a void helper
 * that returns from inside its loop and writes through an out-pointer, in a declaration
 * of a struct in a switch's case, and one helper called at two places. */
typedef struct { float a; int b; } pair_t;

static float inner(__global const float *d, float x, const uint n)
{
    float y = x;
    for (int k = 0; k < 4; k++) {
        if (d[((uint)(y * 100.0f) + (uint)k) % n] > 0.4f)
            y = y * 0.9f + native_sin(y);
        else
            y += 0.1f;
    }
    return y;
}

static float outer(__global const float *d, float x, const uint n)
{
    if (x > 100.0f)
        return x;
    return inner(d, x * 0.5f, n);
}

static void bump(__global const float *d, float *acc, int x, const uint n)
{
    for (int k = 0; k < 3; k++) {
        if (d[(uint)(x + k) % n] > 0.7f) {
            *acc += 1.0f;
            return;
        }
        *acc -= 0.25f;
    }
}

static pair_t mk(__global const float *d, int i, const uint n)
{
    pair_t p;
    p.a = 0.0f;
    p.b = 0;
    for (int k = 0; k < 3; k++)
        if (d[(uint)(i * 3 + k) % n] > 0.5f) {
            p.a += d[(uint)k % n];
            p.b++;
        }
    return p;
}

__kernel void edge(__global const float *d, __global float *out, const uint n)
{
    const uint i = get_global_id(0);
    float x = d[i % n];
    float acc = 0.0f;
    for (int s = 0; s < 3; s++) {
        if (outer(d, x, n) > 0.5f) {
            acc += 1.0f;
        } else {
            acc -= 0.5f;
        }
        switch ((int)(i + s) & 3) {
        case 1:
            bump(d, &acc, (int)i + s, n);
            break;
        case 2: {
            const pair_t p = mk(d, (int)i + s, n);
            acc += p.a + (float)p.b;
            break;
        }
        default:
            x = inner(d, x, n);
        }
    }
    out[i] = acc + x;
}
