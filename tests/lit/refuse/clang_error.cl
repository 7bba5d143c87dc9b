// Errors in the input are clang's own, shown as clang shows them (with the
// source line and a caret), and stop the run: exit 1, no output files.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}clang_error.cl:[[@LINE+11]]:17: error: use of undeclared identifier 'undeclared'
// CHECK-NEXT: if (in[i] > undeclared)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}clang_error.cl:[[@LINE+9]]:22: error: expected ';' after expression
// CHECK-NEXT: out[i] = 1.0f
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 2 errors; no files written
// CHECK-NOT:  {{.}}
__kernel void broken(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    if (in[i] > undeclared)
        out[i] = 1.0f
    else
        out[i] = 0.0f;
}
