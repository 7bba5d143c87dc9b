// A file whose kernels have decisions only inside loops, under the default strategy
// (issue 26, item 6): the loop kernel is each one's split, and a kernel that breaks a
// kernel-wide rule gets every blocker at file:line:col with its rule, before the file's
// nplus1-no-decision error, whose note names the rules and lines again. --check names them
// too. (A kernel declined on cost alone, oclParticles' collide once here, is no refusal: it
// gets a set whose tile kernel runs in place, inputs/collide_like.cl.)
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: test ! -e %t
// RUN: not %nplus1gen %s --check 2>/dev/null | %FileCheck %s --check-prefix=CHECKED --match-full-lines

// CHECK:      {{.*}}loop_kernel_rules.cl:[[@LINE+15]]:9: error: kernel 'barrier_in_loop' calls 'barrier' [nplus1-barrier]
// CHECK-NEXT:         barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:         ^
// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+12]]:9: note: the leaf kernels re-form work-groups from the items of one leaf, so a barrier would synchronise a different set of work-items than in the original
// CHECK-NEXT:         barrier(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:         ^
__kernel void barrier_in_loop(__global const float *in, __global float *out, const int steps)
{
    const int i = get_global_id(0);
    float acc = 0.0f;
    for (int s = 0; s < steps; s++) {
        if (in[i] > (float)s)
            acc += in[i];
        else
            acc *= 0.5f;
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    out[i] = acc;
}

// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+7]]:45: error: kernel 'local_argument' takes a __local argument [nplus1-local-memory]
// CHECK-NEXT:                              __local float *scratch)
// CHECK-NEXT:                                        ^
// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+4]]:45: note: __local memory is shared by a work-group, and the leaf kernels re-form work-groups, so items would share it with different neighbours
// CHECK-NEXT:                              __local float *scratch)
// CHECK-NEXT:                                        ^
__kernel void local_argument(__global const float *in, __global float *out, const int steps,
                             __local float *scratch)
{
    const int i = get_global_id(0);
    float acc = 0.0f;
    for (int s = 0; s < steps; s++) {
        if (in[i] > (float)s)
            acc += in[i];
        else
            acc *= 0.5f;
    }
    out[i] = acc;
}

// Three rules at once, each at its line (findCellBoundsAndReorder's shape, in a loop).
// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+12]]:41: error: kernel 'three_rules' takes a __local argument [nplus1-local-memory]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{.*}}^
// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+9]]:41: note: __local memory {{.*}}
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{.*}}^
// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+11]]:9: error: kernel 'three_rules' calls 'barrier' [nplus1-barrier]
// CHECK:      {{.*}}loop_kernel_rules.cl:[[@LINE+8]]:17: error: kernel 'three_rules' calls 'get_local_id' [nplus1-local-id]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{.*}}^
// CHECK-NEXT: {{.*}}loop_kernel_rules.cl:[[@LINE+5]]:17: note: the leaf kernels re-form work-groups, so local ids, group ids and local sizes would differ from the original launch
__kernel void three_rules(__global const uint *hash, __global uint *start, const int n,
                          __local uint *shared_hash)
{
    const uint i = get_global_id(0);
    shared_hash[get_local_id(0)] = hash[i];
    for (int s = 0; s < n; s++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (hash[i] != shared_hash[0])
            start[hash[i]] = i;
    }
}

// CHECK:      nplus1gen: error: no kernel in {{.*}}loop_kernel_rules.cl has a decision (an if or switch in its body) to split [nplus1-no-decision]
// CHECK-NEXT: nplus1gen: note: kernel 'barrier_in_loop' has decisions only inside loops (the first at line 23), and its loop is not regrouped: it breaks a rule of the loop kernel: nplus1-barrier (line 27)
// CHECK-NEXT: nplus1gen: note: kernel 'local_argument' has decisions only inside loops (the first at line 44), and its loop is not regrouped: it breaks a rule of the loop kernel: nplus1-local-memory (line 39)
// CHECK-NEXT: nplus1gen: note: kernel 'three_rules' has decisions only inside loops (the first at line 71), and its loop is not regrouped: it breaks rules of the loop kernel: nplus1-local-memory (line 65), nplus1-barrier (line 70), nplus1-local-id (line 68)
// CHECK-NEXT: nplus1gen: 6 errors; no files written

// CHECKED:      kernel barrier_in_loop: skipped (its decisions are inside loops, from line 23, and its loop is not regrouped: it breaks a rule of the loop kernel: nplus1-barrier (line 27))
// CHECKED-NEXT: kernel local_argument: skipped (its decisions are inside loops, from line 44, and its loop is not regrouped: it breaks a rule of the loop kernel: nplus1-local-memory (line 39))
// CHECKED-NEXT: kernel three_rules: skipped (its decisions are inside loops, from line 71, and its loop is not regrouped: it breaks rules of the loop kernel: nplus1-local-memory (line 65), nplus1-barrier (line 70), nplus1-local-id (line 68))
