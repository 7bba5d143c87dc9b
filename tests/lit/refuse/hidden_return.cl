// Rule nplus1-hidden-return: a return (or a break out of the kernel's
// control flow) nested inside a statement that comes before a decision.
// The classifier cannot tell which items leave early; an early exit must be
// a top-level guard `if (...) return;`, which is fine.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}hidden_return.cl:[[@LINE+11]]:13: error: a return or break inside this statement comes before a decision [nplus1-hidden-return]
// CHECK-NEXT: return;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}hidden_return.cl:[[@LINE+6]]:5: note: the classifier cannot tell which items leave early here; write the early exit as a top-level guard 'if (...) return;'
// CHECK-NEXT: for (int k = 0; k < 4; k++)
// CHECK-NEXT: ^
__kernel void in_loop(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    for (int k = 0; k < 4; k++)
        if (in[i + k] < 0)
            return;
    if (in[i] > 3)
        out[i] = 1;
}

// CHECK-NEXT: {{.*}}hidden_return.cl:[[@LINE+12]]:13: error: a return or break inside this statement comes before a decision [nplus1-hidden-return]
// CHECK-NEXT: return;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}hidden_return.cl:[[@LINE+6]]:5: note: the classifier cannot tell {{.*}}
// CHECK-NEXT: {
// CHECK-NEXT: ^
__kernel void in_block(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    {
        const int v = in[i];
        while (v > 1000)
            return;
    }
    if (in[i] > 3)
        out[i] = 1;
}

// No diagnostic: a top-level guard.
__kernel void guard(__global const int *in, __global int *out, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    if (in[i] > 3)
        out[i] = 1;
}
// CHECK-NEXT: nplus1gen: 2 errors; no files written
// CHECK-NEXT: nplus1gen: note: 1 of the 3 kernels with a decision can be split, with 'split: never' (the driver would run the original); -k NAME writes the set of the kernels it names
// CHECK-NOT:  {{.}}
