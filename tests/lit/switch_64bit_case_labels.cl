// A switch on a 64-bit value: each leaf gets its case value as a long literal, so its
// labels keep 64 bits (an int '(1)' made 0x100000001L and 0x1L both 1: "duplicate case
// value"). The classifier writes labels past int's range with an 'L'.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q
// RUN: %strip %t/switch_64bit_case_labels.nplus1.cl | sed -n '/^.. ==== kernel k/,$p' > %t/set.cl
// RUN: %FileCheck %s --input-file %t/set.cl

// CHECK:      static int k__nplus1_classify(
// CHECK:          case 4294967297L: {
// CHECK:          case 1: {
// CHECK:          case (-9223372036854775807L - 1): {
// CHECK:      static void k__nplus1_leaf0_body(
// CHECK:          switch ((4294967297L) /* nplus1: this leaf's case */) {
// CHECK:      static void k__nplus1_leaf1_body(
// CHECK:          switch ((1L) /* nplus1: this leaf's case */) {
// CHECK:      static void k__nplus1_leaf2_body(
// CHECK:          switch (((-9223372036854775807L - 1)) /* nplus1: this leaf's case */) {
// CHECK:      static void k__nplus1_leaf3_body(
// CHECK:          switch ((0L) /* nplus1: this leaf's case */) {
__kernel void k(__global const long *in, __global int *out)
{
    const int i = get_global_id(0);
    switch (in[i]) {
    case 0x100000001L: out[i] = 7; break;
    case 0x1L: out[i] = 3; break;
    case -0x7fffffffffffffffL - 1: out[i] = 5; break;
    default: out[i] = 0;
    }
}
