// Rule nplus1-no-decision: nothing to split. Three forms:
//  - a kernel named with -k that has no top-level if or switch,
//  - a kernel whose every path does nothing observable,
//  - (in no_decision_in_file.cl) a file where no kernel has a decision.
// By default, kernels without a decision are skipped, not refused; --check
// says which.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -k copy -o %t 2>&1 | %FileCheck %s --check-prefix=NAMED --match-full-lines
// RUN: %nplus1gen %s -k copy -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: not %nplus1gen %s -k unobservable -o %t 2>&1 | %FileCheck %s --check-prefix=QUIET --match-full-lines
// RUN: test ! -e %t
// RUN: %nplus1gen %s -k useful --check | %FileCheck %s --check-prefix=PICKED --match-full-lines
// RUN: not %nplus1gen %s --check 2>/dev/null | %FileCheck %s --check-prefix=VERDICT --match-full-lines

// NAMED:      {{.*}}no_decision.cl:[[@LINE+8]]:15: error: kernel 'copy' has no decision (a top-level if or switch) to split [nplus1-no-decision]
// NAMED-NEXT: __kernel void copy(__global const int *in, __global int *out)
// NAMED-NEXT: ^
// NAMED-NEXT: {{.*}}no_decision.cl:[[@LINE+5]]:15: note: nplus1gen splits the if and switch statements at the kernel's top level and those nested in them, and this kernel has none; leave it as it is
// NAMED-NEXT: __kernel void copy(__global const int *in, __global int *out)
// NAMED-NEXT: ^
// NAMED-NEXT: nplus1gen: 1 error; no files written
// NAMED-NOT:  {{.}}
__kernel void copy(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    out[i] = in[i];
}

// QUIET:      {{.*}}no_decision.cl:[[@LINE+5]]:15: error: kernel 'unobservable' has no leaf that does anything observable [nplus1-no-decision]
// QUIET-NEXT: __kernel void unobservable(__global const int *in, __global int *out)
// QUIET-NEXT: ^
// QUIET-NEXT: nplus1gen: 1 error; no files written
// QUIET-NOT:  {{.}}
__kernel void unobservable(__global const int *in, __global int *out)
{
    int v = in[get_global_id(0)];
    if (v > 3)
        v = 1;
    else
        v = 2;
}

__kernel void useful(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    if (in[i] > 3)
        out[i] = 1;
}

// PICKED:    kernel useful: can be split: 2 leaves, 1 leaf kernels, {{.*}}
// VERDICT:      kernel unobservable: refused (see the diagnostics)
// VERDICT:      kernel useful: can be split: {{.*}}
// VERDICT:      kernel copy: skipped (no decision to split)
