// A macro group whose arms are all skipped (issue 26, item 3; OMEGA's projector
// kernels): `#if A ///// banner` .. `#elif B` .. `#endif` with A and B false is one
// block that libclang skips from the #if to the #endif. Each arm gets its #error, no
// #else is added (taking no arm is what the set was cut with), a group nested in an arm
// not taken gets none of its own, and the quoted condition leaves the banner out. A
// banner comment that goes on past the directive's line gets the #error after it.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --no-line
// RUN: %strip %t/macro_guard_arms_all_skipped.nplus1.cl | sed -n '/==== original source/,/==== end of original source/p' > %t/orig.cl
// RUN: %FileCheck %s --input-file %t/orig.cl
// RUN: %FileCheck %s --check-prefix=JSON --input-file %t/macro_guard_arms_all_skipped.nplus1.json

// CHECK:      __kernel void project(__global const float *in,
// CHECK-NEXT: #if !defined(CT) && defined(ATN) && !defined(ATNM) ///////// PET ATTENUATION CORRECTION /////////
// CHECK-NEXT: #error nplus1-macro: CT,ATN,ATNM: line {{[0-9]+}} ('#if !defined(CT) && defined(ATN) && !defined(ATNM)') takes another branch than when the n+1 set was generated (CT undefined, ATN undefined, ATNM undefined)
// CHECK-NEXT: #ifdef USEIMAGES
// CHECK-NEXT:         __read_only image2d_t atten,
// CHECK-NEXT: #else
// CHECK-NEXT:         __global const float *atten,
// CHECK-NEXT: #endif
// CHECK-NEXT: #elif !defined(CT) && !defined(ATN) && defined(ATNM) /* banner */
// CHECK-NEXT: #error nplus1-macro: CT,ATN,ATNM: line {{[0-9]+}} ('#if !defined(CT) && defined(ATN) && !defined(ATNM)') takes another
// CHECK-NEXT:         __global const float *atten,
// CHECK-NEXT: #endif ///////// END PET ATTENUATION CORRECTION /////////
// CHECK-NEXT:         __global float *out)
// CHECK-NOT:  #else
// CHECK:      #if defined(FAST) /* banner */ && defined(EXACT) // banner
// CHECK-NEXT: #error nplus1-macro: FAST,EXACT: line {{[0-9]+}} ('#if defined(FAST) && defined(EXACT)') takes another
// CHECK-NEXT:         v = v * 2.0f;
// CHECK-NEXT: #elif defined(FAST) ///////// FAST ONLY /////////
// CHECK-NEXT: #error nplus1-macro: FAST,EXACT: line
// CHECK-NEXT:         v = v + 2.0f;
// CHECK-NEXT: #else ///////// NEITHER /////////
// CHECK-NEXT:         v = v + 1.0f;
// CHECK-NEXT: #endif
// a block comment that goes on past the directive's line: the #error comes after it
// CHECK:      #ifdef SLOW /* a banner
// CHECK-NEXT:                that goes on */
// CHECK-NEXT: #error nplus1-macro: SLOW: line {{[0-9]+}} ('#ifdef SLOW') takes another
// CHECK-NEXT:         out[i] = 0.0f;
// CHECK-NEXT: #endif
// CHECK-NOT:  #error

// JSON:      "macro_dependencies": [
// JSON-NEXT:     {"name": "ATN", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"},
// JSON-NEXT:     {"name": "ATNM", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"},
// JSON-NEXT:     {"name": "CT", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"},
// JSON-NEXT:     {"name": "EXACT", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"},
// JSON-NEXT:     {"name": "FAST", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"},
// JSON-NEXT:     {"name": "SLOW", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"}
// JSON-NEXT:   ],

__kernel void project(__global const float *in,
#if !defined(CT) && defined(ATN) && !defined(ATNM) ///////// PET ATTENUATION CORRECTION /////////
#ifdef USEIMAGES
        __read_only image2d_t atten,
#else
        __global const float *atten,
#endif
#elif !defined(CT) && !defined(ATN) && defined(ATNM) /* banner */
        __global const float *atten,
#endif ///////// END PET ATTENUATION CORRECTION /////////
        __global float *out)
{
    int i = get_global_id(0);
    float v = in[i];
    if (v > 0.5f) {
#if defined(FAST) /* banner */ && defined(EXACT) // banner
        v = v * 2.0f;
#elif defined(FAST) ///////// FAST ONLY /////////
        v = v + 2.0f;
#else ///////// NEITHER /////////
        v = v + 1.0f;
#endif
        out[i] = v;
    } else {
        out[i] = v * v;
#ifdef SLOW /* a banner
               that goes on */
        out[i] = 0.0f;
#endif
    }
}
