// Rule nplus1-too-many-leaves: more than 64 paths through the decisions.
// Seven independent ifs in a row make 2^7 = 128 paths, each a leaf.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t

// CHECK:      {{.*}}too_many_leaves.cl:[[@LINE+5]]:15: error: kernel 'flags' has more than 64 paths through its decisions (leaves); at most 64 are supported [nplus1-too-many-leaves]
// CHECK-NEXT: __kernel void flags(__global const int *in, __global int *out)
// CHECK-NEXT: ^
// CHECK-NEXT: nplus1gen: 1 error; no files written
// CHECK-NOT:  {{.}}
__kernel void flags(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    const int v = in[i];
    if (v & 1)
        out[i] += 1;
    if (v & 2)
        out[i] += 2;
    if (v & 4)
        out[i] += 4;
    if (v & 8)
        out[i] += 8;
    if (v & 16)
        out[i] += 16;
    if (v & 32)
        out[i] += 32;
    if (v & 64)
        out[i] += 64;
}
