// Rule nplus1-side-effect, in the slice: the classifier runs the statements
// the conditions depend on, so they must not store, increment memory, call
// an atomic or printf, or call a helper that does: the classifier would
// repeat the effect. (Assigning local variables is what a slice does.)
// --split always: the rule of the multi-kernel strategies. Under --split auto a kernel
// that only a prologue statement stops splits with the context tile alone
// (../auto_tile_context_candidate.test).
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --split always -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --split always -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}side_effect_slice.cl:[[@LINE+9]]:20: error: a condition depends on a statement with a side effect [nplus1-side-effect]
// CHECK-NEXT: const int v = (out[i] = in[i]);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+6]]:5: note: the classifier must run this statement to evaluate a condition, and it would repeat its writes; move the side effect after the decision
// CHECK-NEXT: const int v = (out[i] = in[i]);
// CHECK-NEXT: ^
__kernel void store(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    const int v = (out[i] = in[i]);
    if (v > 3)
        out[i] += 1;
}

// CHECK-NEXT: {{.*}}side_effect_slice.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+9]]:19: error: a condition depends on a statement with a side effect [nplus1-side-effect]
// CHECK-NEXT: const int v = out[i]++;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+6]]:5: note: the classifier must run this statement {{.*}}
// CHECK-NEXT: const int v = out[i]++;
// CHECK-NEXT: ^
__kernel void increment(__global int *out)
{
    const int i = get_global_id(0);
    const int v = out[i]++;
    if (v > 3)
        out[i] = 0;
}

// CHECK-NEXT: {{.*}}side_effect_slice.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+9]]:24: error: a condition depends on a statement with a side effect [nplus1-side-effect]
// CHECK-NEXT: const int ticket = atomic_add(&counter[0], 2);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+6]]:5: note: the classifier must run this statement {{.*}}
// CHECK-NEXT: const int ticket = atomic_add(&counter[0], 2);
// CHECK-NEXT: ^
__kernel void atomic(__global int *counter, __global int *out)
{
    const int i = get_global_id(0);
    const int ticket = atomic_add(&counter[0], 2);
    if (ticket < 100)
        out[i] = ticket;
}

// CHECK-NEXT: {{.*}}side_effect_slice.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+9]]:19: error: a condition depends on a statement with a side effect [nplus1-side-effect]
// CHECK-NEXT: const int n = printf("%d\n", in[i]);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+6]]:5: note: the classifier must run this statement {{.*}}
// CHECK-NEXT: const int n = printf("%d\n", in[i]);
// CHECK-NEXT: ^
__kernel void print(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    const int n = printf("%d\n", in[i]);
    if (n > 2)
        out[i] = n;
}

// Through a helper: the error at the write, notes at the call and the statement.
// CHECK-NEXT: {{.*}}side_effect_slice.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+11]]:12: error: a condition depends on a statement with a side effect [nplus1-side-effect]
// CHECK-NEXT: return c[0]++;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+14]]:24: note: reached through this call
// CHECK-NEXT: const int ticket = take_ticket(counter);
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}side_effect_slice.cl:[[@LINE+11]]:5: note: the classifier must run this statement {{.*}}
// CHECK-NEXT: const int ticket = take_ticket(counter);
// CHECK-NEXT: ^
static int take_ticket(__global int *c)
{
    return c[0]++;
}

__kernel void via_helper(__global int *counter, __global int *out)
{
    const int i = get_global_id(0);
    const int ticket = take_ticket(counter);
    if (ticket < 100)
        out[i] = ticket;
}
// CHECK-NEXT: {{.*}}side_effect_slice.cl:{{[0-9]+:[0-9]+}}: note: --strategy tile allows this statement: its classify phase runs the prologue once per item and the leaves start from its values (docs/legality.md)
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 5 errors; no files written
// CHECK-NOT:  {{.}}
