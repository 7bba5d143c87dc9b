// Rule nplus1-no-decision, for a whole file: no kernel in it has an if or a
// switch in its body, so there is nothing to transform. No source location.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      nplus1gen: error: no kernel in {{.*}}no_decision_in_file.cl has a decision (an if or switch in its body) to split [nplus1-no-decision]
// CHECK-NEXT: nplus1gen: 1 error; no files written
// CHECK-NOT:  {{.}}
__kernel void scale(__global float *data, const float factor)
{
    data[get_global_id(0)] *= factor;
}

__kernel void offset(__global float *data, const float by)
{
    data[get_global_id(0)] += by > 0.0f ? by : -by;
}
