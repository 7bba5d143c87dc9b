// Rule nplus1-no-decision, when the only decisions are inside loops: the
// message says so (nplus1gen splits the decisions at the kernel's top level
// and those nested in them, not those inside loops), and --check says why
// the kernel is skipped. It does not claim the kernel has no divergence. A loop whose body
// holds the decision at its top level is regrouped instead (auto_loop_only_kernel_gets_a_set
// .test); here the decision sits in an inner loop, and the messages say why the outer loop
// is not regrouped.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -k march -o %t 2>&1 | %FileCheck %s --check-prefix=NAMED --match-full-lines
// RUN: test ! -e %t
// RUN: not %nplus1gen %s --check 2>/dev/null | %FileCheck %s --check-prefix=FILE --match-full-lines
// RUN: not %nplus1gen %s --check 2>&1 >/dev/null | %FileCheck %s --check-prefix=ERR --match-full-lines

// NAMED:      {{.*}}decisions_only_in_loops.cl:[[@LINE+11]]:15: error: kernel 'march' has decisions only inside loops (the first at line 32), and its loop is not regrouped: no data-dependent decision of the kernel's own text saves the work of a regrouping round (the decision at line 32: cheap against a round: its arms save about {{[0-9]+}} operations a visit (its costliest arm about {{[0-9]+}}, which the lanes of the other 1 arm wait for), a regrouping round about {{[0-9]+}}) [nplus1-no-decision]
// NAMED-NEXT: __kernel void march(__global const float *density, __global float *out, const int steps)
// NAMED-NEXT: ^
// NAMED-NEXT: nplus1gen: 1 error; no files written
// NAMED-NOT:  divergence

// FILE:      kernel march: skipped (its decisions are inside loops, from line 32, and its loop is not regrouped: no data-dependent decision of the kernel's own text saves the work of a regrouping round (the decision at line 32: cheap against a round: its arms save about {{[0-9]+}} operations a visit (its costliest arm about {{[0-9]+}}, which the lanes of the other 1 arm wait for), a regrouping round about {{[0-9]+}}))
// FILE-NEXT: kernel copy: skipped (no decision to split)
// ERR:      nplus1gen: error: no kernel in {{.*}}decisions_only_in_loops.cl has a decision (an if or switch in its body) to split [nplus1-no-decision]
// ERR-NEXT: nplus1gen: note: kernel 'march' has decisions only inside loops (the first at line 32), and its loop is not regrouped: no data-dependent decision of the kernel's own text saves the work of a regrouping round (the decision at line 32: cheap against a round: its arms save about {{[0-9]+}} operations a visit (its costliest arm about {{[0-9]+}}, which the lanes of the other 1 arm wait for), a regrouping round about {{[0-9]+}})
// ERR-NEXT: nplus1gen: 1 error; no files written
__kernel void march(__global const float *density, __global float *out, const int steps)
{
    const int i = get_global_id(0);
    float acc = 0.0f;
    for (int s = 0; s < steps; s++) {
        for (int t = 0; t < 2; t++) {
            const float d = density[i] * (float)(s + t);
            if (d > 0.5f)
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
