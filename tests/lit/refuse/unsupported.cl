// Rule nplus1-unsupported: constructs nplus1gen cannot carry into the split
// kernels: goto and labels, recursion (direct or through helpers), and GNU
// case ranges of more than 256 values.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s --cl-std=CL2.0 -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s --cl-std=CL2.0 -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}unsupported.cl:[[@LINE+10]]:9: error: kernel 'jump' cannot be split: it uses goto or labels [nplus1-unsupported]
// CHECK-NEXT: goto done;
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported.cl:[[@LINE+7]]:9: note: nplus1gen cannot preserve its meaning in the split kernels
// CHECK-NEXT: goto done;
// CHECK-NEXT: ^
__kernel void jump(__global int *a)
{
    const int i = get_global_id(0);
    if (a[i] > 3)
        goto done;
    a[i] = 0;
done:
    a[i] += 1;
}

// Mutual recursion through helpers: the error at the helper the cycle
// enters, a note at the call in the kernel.
// CHECK-NEXT: {{.*}}unsupported.cl:[[@LINE+10]]:12: error: kernel 'recursive' cannot be split: it uses recursion [nplus1-unsupported]
// CHECK-NEXT: static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported.cl:[[@LINE+7]]:12: note: nplus1gen cannot preserve its meaning in the split kernels
// CHECK-NEXT: static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported.cl:[[@LINE+10]]:9: note: reached through this call to 'is_even'
// CHECK-NEXT: if (is_even(a[i] & 7))
// CHECK-NEXT: ^
static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

__kernel void recursive(__global int *a)
{
    const int i = get_global_id(0);
    if (is_even(a[i] & 7))
        a[i] = 1;
}

// CHECK-NEXT: {{.*}}unsupported.cl:[[@LINE+10]]:5: error: this case range holds 1000 values; at most 256 are supported [nplus1-unsupported]
// CHECK-NEXT: case 0 ... 999:
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}unsupported.cl:[[@LINE+7]]:5: note: the classifier lists every value of a range as a case of its own; write a wide range as an if with two comparisons
// CHECK-NEXT: case 0 ... 999:
// CHECK-NEXT: ^
__kernel void wide_range(__global int *a)
{
    const int i = get_global_id(0);
    switch (a[i]) {
    case 0 ... 999:
        a[i] = 1;
        break;
    default:
        a[i] = 2;
    }
}
// CHECK-NEXT: nplus1gen: 3 errors; no files written
// CHECK-NOT:  {{.}}
