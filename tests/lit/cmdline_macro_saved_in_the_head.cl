// A macro of the command line that the text #undefs and #defines again after the kernel
// using it: the head saves it once (#pragma push_macro) after its default, and each
// kernel's set takes it back (pop, then push again for the next one); after the set the
// macro is as the original text leaves it.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -DSCALE=2.0f -o %t -q --no-line
// RUN: %strip %t/cmdline_macro_saved_in_the_head.nplus1.cl > %t/all.cl
// RUN: %FileCheck %s --input-file %t/all.cl

// CHECK:      #ifndef SCALE
// CHECK-NEXT: #define SCALE 2.0f
// CHECK-NEXT: #endif
// CHECK-NEXT: #pragma push_macro("SCALE") /* a -D the text changes after a kernel that uses it: saved */
// CHECK-NEXT: /* End nplus1 head */
// CHECK:      /* Begin nplus1 macros of twice: as they were at its definition (the original text changes them after it) */
// CHECK-NEXT: #pragma pop_macro("SCALE") /* the -D as the head saved it, */
// CHECK-NEXT: #pragma push_macro("SCALE") /* and saved again for the next kernel */
// CHECK-NEXT: /* End nplus1 macros of twice */
// CHECK:      /* Begin nplus1 macros after twice: as the original text leaves them */
// CHECK-NEXT: #undef SCALE
// CHECK-NEXT: #define SCALE 3.0f
// CHECK-NEXT: /* End nplus1 macros after twice */
__kernel void twice(__global float *a)
{
    int i = get_global_id(0);
    if (a[i] > 0.0f)
        a[i] = SCALE * a[i];
}
#undef SCALE
#define SCALE 3.0f
