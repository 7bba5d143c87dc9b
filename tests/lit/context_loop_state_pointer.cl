// Rule nplus1-loop-state (a warning): under --strategy tile, a pointer that
// the prologue declares and the rest of the kernel uses cannot move into the
// tile's local memory, so there is no context: the tile's leaves recompute
// the prologue, as without contexts, and the kernel still splits. A kernel
// legal only with the context (an atomic in the prologue feeds a condition)
// is then refused as every other strategy refuses it.
// RUN: %nplus1gen %s --check --strategy tile -k rows -k window > %t.out 2> %t.err
// RUN: %FileCheck %s --check-prefix=WARN --match-full-lines --input-file %t.err
// RUN: %FileCheck %s --check-prefix=VERDICT --input-file %t.out
// RUN: %nplus1gen %s --report --strategy tile -k rows 2>/dev/null | %FileCheck %s --check-prefix=REPORT
// RUN: not %nplus1gen %s --check --strategy tile -k claimed 2>&1 | %FileCheck %s --check-prefix=REFUSED
// RUN: %nplus1gen %s --check -k rows -k window 2>&1 | %FileCheck %s --check-prefix=OTHER

// WARN:      {{.*}}context_loop_state_pointer.cl:37:27: warning: pointer 'row' is used after the decision at line 39: it cannot move into the tile's local memory [nplus1-loop-state]
// WARN-NEXT:     __global const float *row = in + i * 4;
// WARN-NEXT:                           ^
// WARN-NEXT: {{.*}}context_loop_state_pointer.cl:37:27: note: only values move (scalars, vectors, structs, small arrays); the tile's leaves recompute the prologue (lines 36-38) instead
// WARN:      {{.*}}context_loop_state_pointer.cl:53:12: warning: pointer 'q' is used after the decision at line 55: it cannot move into the tile's local memory [nplus1-loop-state]
// WARN-NEXT:     float *q = &a[1];

// VERDICT: kernel rows: can be split: 2 leaves
// VERDICT: kernel window: can be split: 2 leaves

// REPORT: context (tile): none: pointer 'row' (line 37) is used after the decision [nplus1-loop-state]; the tile's leaves recompute the prologue

// REFUSED: warning: pointer 'slot' is used after the decision at line 68: it cannot move into the tile's local memory [nplus1-loop-state]
// REFUSED: error: a condition depends on a statement with a side effect [nplus1-side-effect]
// REFUSED: kernel claimed: refused (see the diagnostics)

// The other strategies compute no context: no warning.
// OTHER-NOT: nplus1-loop-state
// OTHER: kernel rows: can be split

__kernel void rows(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    __global const float *row = in + i * 4;
    const float s = row[0] + row[1];
    if (s > 1.0f) {
        out[i] = row[2] * s;
    } else {
        out[i] = row[3] - s;
    }
}

/* a pointer into a private array */
__kernel void window(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float a[4];
    for (int k = 0; k < 4; k++)
        a[k] = in[i] * (float)k;
    float *q = &a[1];
    const float s = a[0] + a[3];
    if (s > 1.0f) {
        out[i] = q[0] * s;
    } else {
        out[i] = q[1] - s;
    }
}

/* legal only with the context, which the pointer forbids */
__kernel void claimed(__global const float *in, __global uint *count, __global float *out)
{
    const int i = get_global_id(0);
    const uint t = atomic_inc(&count[i]);
    __global float *slot = out + i;
    if (t % 2) {
        *slot = in[i] * 2.0f;
    } else {
        *slot = in[i] - 1.0f;
    }
}
