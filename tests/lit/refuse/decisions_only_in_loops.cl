// Rule nplus1-no-decision, when the only decisions are inside loops: the
// message says so (nplus1gen splits the decisions at the kernel's top level
// and those nested in them, not those inside loops), and --check says why
// the kernel is skipped. It does not claim the kernel has no divergence. A loop whose body
// holds the decision at its top level is regrouped instead (auto_loop_only_kernel_gets_a_set
// .test), and a data decision that only the cost rule leaves as written gets a set too, its
// tile kernel in place (cheap_inner_loop_only.cl there); here the decision in the inner loop
// is uniform (no data decision at all), and the messages say why the loop is not regrouped.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -k march -o %t 2>&1 | %FileCheck %s --check-prefix=NAMED --match-full-lines
// RUN: test ! -e %t
// RUN: not %nplus1gen %s --check 2>/dev/null | %FileCheck %s --check-prefix=FILE --match-full-lines
// RUN: not %nplus1gen %s --check 2>&1 >/dev/null | %FileCheck %s --check-prefix=ERR --match-full-lines

// NAMED:      {{.*}}decisions_only_in_loops.cl:[[@LINE+11]]:15: error: kernel 'march' has decisions only inside loops (the first at line 33), and its loop is not regrouped: no data-dependent decision of the kernel's own text saves the work of a regrouping round [nplus1-no-decision]
// NAMED-NEXT: __kernel void march(__global const float *density, __global float *out, const int steps)
// NAMED-NEXT: ^
// NAMED-NEXT: nplus1gen: 1 error; no files written
// NAMED-NOT:  divergence

// FILE:      kernel march: skipped (its decisions are inside loops, from line 33, and its loop is not regrouped: no data-dependent decision of the kernel's own text saves the work of a regrouping round)
// FILE-NEXT: kernel copy: skipped (no decision to split)
// ERR:      nplus1gen: error: no kernel in {{.*}}decisions_only_in_loops.cl has a decision (an if or switch in its body) to split [nplus1-no-decision]
// ERR-NEXT: nplus1gen: note: kernel 'march' has decisions only inside loops (the first at line 33), and its loop is not regrouped: no data-dependent decision of the kernel's own text saves the work of a regrouping round
// ERR-NEXT: nplus1gen: 1 error; no files written
__kernel void march(__global const float *density, __global float *out, const int steps)
{
    const int i = get_global_id(0);
    float acc = 0.0f;
    for (int s = 0; s < steps; s++) {
        for (int t = 0; t < 2; t++) {
            const float d = density[i] * (float)(s + t);
            if ((s + t) % 3 == 0) /* uniform: every item takes the same arm */
                acc += d;
            else
                acc *= 0.5f;
        }
    }
    out[i] = acc;
}

__kernel void copy(__global const float *in, __global float *out)
{
    out[get_global_id(0)] = in[get_global_id(0)];
}
