// Rule nplus1-unknown-kernel: -k names a kernel the file does not define.
// A note lists the kernels there are. No source location.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -k nosuch -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -k nosuch -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: not %nplus1gen %s -k pick -k other -o %t 2>&1 | %FileCheck %s --check-prefix=MIXED --match-full-lines
// RUN: test ! -e %t

// CHECK:      nplus1gen: error: no kernel named 'nosuch' in {{.*}}unknown_kernel.cl [nplus1-unknown-kernel]
// CHECK-NEXT: nplus1gen: note: {{.*}}unknown_kernel.cl defines the kernels 'pick', 'skip'
// CHECK-NEXT: nplus1gen: 1 error; no files written
// CHECK-NOT:  {{.}}

// One good name and one bad: still refused, nothing written.
// MIXED:      nplus1gen: error: no kernel named 'other' in {{.*}}unknown_kernel.cl [nplus1-unknown-kernel]
// MIXED-NEXT: nplus1gen: note: {{.*}}unknown_kernel.cl defines the kernels 'pick', 'skip'
// MIXED-NEXT: nplus1gen: 1 error; no files written
// MIXED-NOT:  {{.}}
__kernel void pick(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    if (in[i] > 3)
        out[i] = 1;
}

__kernel void skip(__global int *out)
{
    out[get_global_id(0)] = 0;
}
