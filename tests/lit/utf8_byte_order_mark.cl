// This file starts with a UTF-8 byte-order mark (issue 26, item 1). The mark is
// skipped on input: the generated kernel file holds none (the copy of the original's
// first line starts with three spaces where the mark was, so columns stay clang's),
// and neither do the driver and the manifest.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --no-line
// RUN: %FileCheck %s --input-file %t/utf8_byte_order_mark.nplus1.cl
// RUN: not grep -l "$(printf '\357\273\277')" %t/utf8_byte_order_mark.nplus1.cl %t/utf8_byte_order_mark_nplus1.c %t/utf8_byte_order_mark_nplus1.h %t/utf8_byte_order_mark.nplus1.json
// with #line directives too
// RUN: %nplus1gen %s -o %t/lines -q
// RUN: not grep -l "$(printf '\357\273\277')" %t/lines/utf8_byte_order_mark.nplus1.cl

// CHECK:      /* ==== original source: {{.*}}utf8_byte_order_mark.cl ==== */
// CHECK-NEXT: {{^}}   // This file starts with a UTF-8 byte-order mark
// CHECK:      static void k__nplus1_leaf0_body(
// CHECK:      out[i] = in[i] * 2;
__kernel void k(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    if (in[i] > 512)
        out[i] = in[i] * 2;
    else
        out[i] = in[i] + 1;
}
