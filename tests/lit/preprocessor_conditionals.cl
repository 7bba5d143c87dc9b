// #if / #ifdef inside and around decisions: the leaves and the classifier are
// cut from the active text under the -D set, the skipped blocks and the
// directive lines left out. Before, a leaf kept '#ifdef SOFT_KNEE' and lost
// its '#endif', and a condition holding an #if was refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -DSOFT_KNEE -q --no-line
// RUN: %strip %t/preprocessor_conditionals.nplus1.cl | sed -n '/^.. ==== kernel shade/,$p' > %t/set.cl
// RUN: %FileCheck %s --input-file %t/set.cl
// RUN: %nplus1gen %s --report | %FileCheck %s --check-prefix=OFF --match-full-lines

// CHECK-NOT:  #ifdef
// CHECK-NOT:  #endif
// CHECK:      static int shade__nplus1_classify(
// CHECK:          if (v < 0.25f
// CHECK-NOT:  || v > 0.99f
// CHECK:      ) {
// CHECK:          else if (v < 0.5f) {
// CHECK:      static void shade__nplus1_leaf0_body(
// CHECK:          /* nplus1: branch 0 of the if at line 34 */ {
// CHECK-NEXT:         out[i] = 0.0f;
// CHECK-EMPTY:
// CHECK-NEXT:     }{{$}}
// CHECK-NEXT: }

// without SOFT_KNEE the if has two branches, and the skipped one is not in the conditions
// OFF:      kernel shade: can be split: 2 leaves, 2 leaf kernels, classifier slice of 2 statements, strategy aggregated, dispatch auto
// OFF:          when (v < 0.25f )
// OFF:          when !(v < 0.25f )

__kernel void shade(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    float v = in[i];
    if (v < 0.25f
#ifdef CLIP_HIGH
        || v > 0.99f
#endif
       ) {
        out[i] = 0.0f;
#ifdef SOFT_KNEE
    } else if (v < 0.5f) {
        out[i] = v * v;
#endif
    } else {
        out[i] = v;
    }
}
