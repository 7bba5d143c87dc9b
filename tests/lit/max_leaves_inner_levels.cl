// More paths than --max-leaves: nplus1gen splits the outer levels of the
// condition tree that fit and leaves the inner decisions in the leaf kernels,
// as written, where they still branch. Seven flag tests in a row make 128
// paths: by default (64) the first six are split and the seventh stays;
// with --max-leaves 4 the first two are split and five stay.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s --report | %FileCheck %s --check-prefix=DEFAULT --match-full-lines
// RUN: %nplus1gen %s --report --max-leaves 4 | %FileCheck %s --check-prefix=FOUR --match-full-lines
// RUN: %nplus1gen %s -o %t --max-leaves 4 -q --no-line
// RUN: %strip %t/max_leaves_inner_levels.nplus1.cl | %FileCheck %s --check-prefix=LEAF
// RUN: not %nplus1gen %s --check --max-leaves 65 2>&1 | %FileCheck %s --check-prefix=USAGE

// DEFAULT:      kernel flags: can be split: 64 leaves, 64 leaf kernels, classifier slice of 2 statements, strategy aggregated, dispatch auto
// DEFAULT:        decisions: 6 split, 1 stay in the leaf kernels and branch there (line 57); 128 paths if every decision were split, at most 64 leaves
// DEFAULT:          if (v & 32)  [line 55]
// DEFAULT-NEXT:     (no else: falls through)
// DEFAULT-NEXT:     if (v & 64)  [line 57]  (stays in the leaf kernels)

// FOUR:      kernel flags: can be split: 4 leaves, 4 leaf kernels, classifier slice of 2 statements, strategy aggregated, dispatch auto
// FOUR:        decisions: 2 split, 5 stay in the leaf kernels and branch there (lines 49, 51, 53, 55, 57); 128 paths if every decision were split, at most 4 leaves
// FOUR:          if (v & 2)  [line 47]
// FOUR-NEXT:     (no else: falls through)
// FOUR-NEXT:     if (v & 4)  [line 49]  (stays in the leaf kernels)
// FOUR:        leaves:
// FOUR-NEXT:     leaf 0 -> flags__nplus1_leaf0  lines {{.*}}
// FOUR-NEXT:       when (v & 1) && (v & 2)
// a leaf without a branch of its own (no else: falls through) is the code after its
// decision, to the end of the kernel:
// FOUR:          leaf 3 -> flags__nplus1_leaf3  lines 49-59  cost ~{{[0-9]+}}
// FOUR-NEXT:       when !(v & 1) && !(v & 2)

// the leaf keeps the inner decisions as written; the classifier does not evaluate them
// LEAF:     static int flags__nplus1_classify(
// LEAF-NOT: v & 4
// LEAF:     static void flags__nplus1_leaf0_body(
// LEAF:     /* nplus1: branch 0 of the if at line 45 */ out[i] += 1;{{$}}
// LEAF:     if (v & 4)
// LEAF-NEXT:        out[i] += 4;

// USAGE: nplus1gen: error: --max-leaves takes a number from 1 to 64 (got '65')
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
