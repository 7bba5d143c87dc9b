// Build options given to a driver's _create may change macros the set was cut
// with (issue 16, item 1). A case label written with a macro is emitted as
// written, so the classifier and the leaves follow the run-time value; an
// #ifdef inside a branch gets an '#error nplus1-macro:' line in the branch the
// set was not cut from, so that _create refuses (NPLUS1_ERR_MACRO) instead of
// computing other results. The manifest and the driver list both macros.
// RUN: rm -rf %t && mkdir %t
// RUN: %nplus1gen %s -o %t -q --no-line
// RUN: %strip %t/build_options_macro_dependencies.nplus1.cl > %t/all.cl
// RUN: %FileCheck %s --check-prefix=GUARD --input-file %t/all.cl
// RUN: sed -n '/^.. ==== kernel pick/,$p' %t/all.cl > %t/set.cl
// RUN: %FileCheck %s --check-prefix=SET --input-file %t/set.cl
// RUN: %FileCheck %s --check-prefix=JSON --input-file %t/build_options_macro_dependencies.nplus1.json
// RUN: %FileCheck %s --check-prefix=DRV --input-file %t/build_options_macro_dependencies_nplus1.c

// the original's copy: the #error sits in the skipped branch only
// GUARD:      #ifdef FAST
// GUARD-NEXT: #error nplus1-macro: FAST: line {{[0-9]+}} ('#ifdef FAST') takes another branch than when the n+1 set was generated (FAST undefined)
// GUARD-NEXT:         out[i] = v * 2;
// GUARD-NEXT: #else
// GUARD-NEXT:         out[i] = v + 1;
// GUARD-NEXT: #endif
// the #ifndef SEL outside the kernels is no choice the set was cut from
// GUARD-NOT:  #error

// SET:      static int pick__nplus1_classify(
// SET:              case SEL: {
// SET:              case 0: {
// SET:      static void pick__nplus1_leaf0_body(
// SET:          switch ((SEL) /* nplus1: this leaf's case */) {
// the default leaf keeps the controlling value: no label matches it, whatever SEL is
// SET:      static void pick__nplus1_leaf2_body(
// SET:          switch (k) {

// JSON:      "macro_dependencies": [
// JSON-NEXT:     {"name": "FAST", "defined": false, "line": {{[0-9]+}}, "on_change": "refuses"},
// JSON-NEXT:     {"name": "SEL", "defined": true, "value": "3", "line": {{[0-9]+}}, "on_change": "follows"}
// JSON-NEXT:   ],

// DRV: static const char nplus1_macro_dependencies[] = "FAST undefined refuses, SEL=3 follows";
// DRV: const char *nplus1_pick_macro_dependencies(void)

#ifndef SEL
#define SEL 3
#endif

__kernel void pick(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    int k = v & 7;
    if (v > 512) {
#ifdef FAST
        out[i] = v * 2;
#else
        out[i] = v + 1;
#endif
        return;
    }
    switch (k) {
    case SEL: out[i] = 1000 + k; break;
    case 0: out[i] = -1; break;
    default: out[i] = k * 2;
    }
}
