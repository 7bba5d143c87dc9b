// Rule nplus1-no-kernel: the file defines no __kernel function at all.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      nplus1gen: error: {{.*}}no_kernel.cl defines no __kernel function [nplus1-no-kernel]
// CHECK-NEXT: nplus1gen: 1 error; no files written
// CHECK-NOT:  {{.}}
float helper(float x)
{
    return x > 0.0f ? x : -x;
}
