// Rule nplus1-side-effect, in a condition: the classifier evaluates the
// conditions and the leaf kernels do not, so a condition must not store to
// memory, call an atomic, or call a helper that does either. (An if's
// condition may write private variables, '(v = in[i]) > 3' or a helper's
// out-parameter '&t': the leaves evaluate it again for those writes; see
// condition_writes_private_variables.cl.)
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}side_effect_condition.cl:[[@LINE+9]]:9: error: this condition has a side effect {{.*}} [nplus1-side-effect]
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

// A switch's controlling expression may not write even a private variable.
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+10]]:13: error: this condition has a side effect {{.*}} [nplus1-side-effect]
// CHECK-NEXT: switch (v++ & 3) {
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_condition.cl:[[@LINE+7]]:5: note: the classifier evaluates the condition {{.*}}
// CHECK-NEXT: switch (v++ & 3) {
// CHECK-NEXT: ^
__kernel void switch_write(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    int v = in[i];
    switch (v++ & 3) {
    case 0:
        out[i] = v;
        break;
    default:
        out[i] = -v;
        break;
    }
}
// CHECK-NEXT: nplus1gen: 4 errors; no files written
// CHECK-NOT:  {{.}}
