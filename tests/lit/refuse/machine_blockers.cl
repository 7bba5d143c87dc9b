// The state machine cannot cut this kernel: every blocker is named at its place with its
// rule (a note each, before the kernel's error under --strategy tile; --report lists them
// in the skip reason under the default set), never "this version regroups ...".
// RUN: not %nplus1gen %s --check --strategy tile 2>&1 | %FileCheck %s --check-prefix=ERR
// RUN: not %nplus1gen %s --report 2>/dev/null | %FileCheck %s --check-prefix=REPORT
// ERR: machine_blockers.cl:[[@LINE+10]]:66: note: cannot regroup here: parameter 'steps' is assigned in the body: an item's copy of a parameter does not move with its context [nplus1-loop-state]
// ERR: machine_blockers.cl:[[@LINE+13]]:5: note: cannot regroup here: array 'tab' has an initialiser and shares its declaration statement: a declaration cannot become an assignment [nplus1-loop-state]
// ERR: error: kernel 'blk' has decisions only inside loops (the first at line {{[0-9]+}}), and its loop is not regrouped: it cannot be regrouped: {{.*}}machine_blockers.cl:[[@LINE+8]]:66: parameter 'steps'
// ERR-NOT: this version regroups
// REPORT: kernel blk: skipped (its decisions are inside loops, from line {{[0-9]+}}, and its loop is not regrouped: it cannot be regrouped: {{.*}}machine_blockers.cl:[[@LINE+6]]:66: parameter 'steps' is assigned in the body: an item's copy of a parameter does not move with its context [nplus1-loop-state]; {{.*}}machine_blockers.cl:[[@LINE+10]]:5: array 'tab' has an initialiser and shares its declaration statement
// REPORT-NOT: this version regroups
// The kernel:



__kernel void blk(__global const float *in, __global float *out, int steps)
{
    const uint i = get_global_id(0);
    float v = in[i];
    int tab[3] = {1, 2, 3}, tab2[1] = {0};
    while (steps-- > 0) {
        {
            if (in[(i + (uint)steps) % 64u] > 0.5f) {
                for (int k = 0; k < 24; k++)
                    v = sin(v) * 1.5f + (float)tab[k % 3] + (float)tab2[0];
            } else {
                v += 1.0f;
            }
        }
    }
    out[i] = v;
}
