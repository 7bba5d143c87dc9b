// Rule nplus1-side-effect, in a condition: the classifier evaluates the
// conditions and the leaf kernels do not, so a condition must not assign,
// increment, store, call an atomic, or call a helper that does any of these.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}side_effect_condition.cl:[[@LINE+10]]:10: error: this condition has a side effect (it writes a variable or memory, or calls something that does) [nplus1-side-effect]
// CHECK-NEXT: if ((v = in[i]) > 3)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+7]]:5: note: the classifier evaluates the condition and the leaf kernels do not, so the side effect would happen in the wrong kernel; compute the value in a statement before the decision
// CHECK-NEXT: if ((v = in[i]) > 3)
// CHECK-NEXT: ^
__kernel void assignment(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    int v;
    if ((v = in[i]) > 3)
        out[i] = v;
}

// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+10]]:9: error: this condition has a side effect {{.*}} [nplus1-side-effect]
// CHECK-NEXT: if (v++ > 3)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+7]]:5: note: the classifier evaluates the condition {{.*}}
// CHECK-NEXT: if (v++ > 3)
// CHECK-NEXT: ^
__kernel void increment(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    int v = in[i];
    if (v++ > 3)
        out[i] = v;
}

// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+9]]:9: error: this condition has a side effect {{.*}} [nplus1-side-effect]
// CHECK-NEXT: if (atomic_inc(&counter[0]) < 100)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+6]]:5: note: the classifier evaluates the condition {{.*}}
// CHECK-NEXT: if (atomic_inc(&counter[0]) < 100)
// CHECK-NEXT: ^
__kernel void atomic(__global int *counter, __global int *out)
{
    const int i = get_global_id(0);
    if (atomic_inc(&counter[0]) < 100)
        out[i] = 1;
}

// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+9]]:10: error: this condition has a side effect {{.*}} [nplus1-side-effect]
// CHECK-NEXT: if ((out[i] = in[i]) > 3)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+6]]:5: note: the classifier evaluates the condition {{.*}}
// CHECK-NEXT: if ((out[i] = in[i]) > 3)
// CHECK-NEXT: ^
__kernel void store(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    if ((out[i] = in[i]) > 3)
        out[i] += 1;
}

// Through a helper: the error at the write, notes at the call and the if.
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+11]]:12: error: this condition has a side effect {{.*}} [nplus1-side-effect]
// CHECK-NEXT: return c[0]++;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+14]]:9: note: reached through this call
// CHECK-NEXT: if (take_ticket(counter) < 100)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+11]]:5: note: the classifier evaluates the condition {{.*}}
// CHECK-NEXT: if (take_ticket(counter) < 100)
// CHECK-NEXT: ^
static int take_ticket(__global int *c)
{
    return c[0]++;
}

__kernel void via_helper(__global int *counter, __global int *out)
{
    const int i = get_global_id(0);
    if (take_ticket(counter) < 100)
        out[i] = 1;
}
// CHECK-NEXT: nplus1gen: 5 errors; no files written
// CHECK-NOT:  {{.}}
