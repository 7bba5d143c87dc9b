// Rule nplus1-macro-decision: an if or switch that a macro expands to. The
// leaf kernels are cut from the source text, and a macro body is one piece
// of text. Macros inside a condition or a branch are fine (see
// samples/prologue_epilogue.cl); a condition whose parentheses come from a
// macro cannot be found in the text.
// RUN: rm -rf %t
// RUN: not %nplus1gen %s -o %t 2>&1 | %FileCheck %s --match-full-lines
// RUN: %nplus1gen %s -o %t >/dev/null 2>&1; test $? -eq 1
// RUN: test ! -e %t
#define SELECT(c, a, b) if (c) a; else b;
#define WHEN_POSITIVE(x) if ((x) > 0)
#define CHOOSE(v) switch (v) { case 0: out[i] = 1; break; default: out[i] = 2; }
#define IS_BIG (in[i] > 100)

// CHECK:      {{.*}}macro_decision.cl:[[@LINE+9]]:5: error: this decision comes from a macro expansion; nplus1gen cannot rewrite it [nplus1-macro-decision]
// CHECK-NEXT: SELECT(in[i] > 3, out[i] = 1, out[i] = 2)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+6]]:5: note: the leaf kernels are cut from the source text, and a macro body is one piece of text: write the if/switch in the kernel, or move it into a function
// CHECK-NEXT: SELECT(in[i] > 3, out[i] = 1, out[i] = 2)
// CHECK-NEXT: ^
__kernel void whole_if(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    SELECT(in[i] > 3, out[i] = 1, out[i] = 2)
}

// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+9]]:5: error: this decision comes from a macro expansion; nplus1gen cannot rewrite it [nplus1-macro-decision]
// CHECK-NEXT: WHEN_POSITIVE(in[i])
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+6]]:5: note: the leaf kernels are cut from the source text, {{.*}}
// CHECK-NEXT: WHEN_POSITIVE(in[i])
// CHECK-NEXT: ^
__kernel void if_head(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    WHEN_POSITIVE(in[i])
        out[i] = 1;
}

// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+9]]:5: error: this decision comes from a macro expansion; nplus1gen cannot rewrite it [nplus1-macro-decision]
// CHECK-NEXT: CHOOSE(in[i] & 1)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+6]]:5: note: the leaf kernels are cut from the source text, {{.*}}
// CHECK-NEXT: CHOOSE(in[i] & 1)
// CHECK-NEXT: ^
__kernel void whole_switch(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    CHOOSE(in[i] & 1)
}

// A macro if at the head of a branch is a nested decision: refused too.
// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+10]]:9: error: this decision comes from a macro expansion; nplus1gen cannot rewrite it [nplus1-macro-decision]
// CHECK-NEXT: SELECT(in[i] > 5, out[i] = 1, out[i] = 2)
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+7]]:9: note: the leaf kernels are cut from the source text, {{.*}}
// CHECK-NEXT: SELECT(in[i] > 5, out[i] = 1, out[i] = 2)
// CHECK-NEXT: ^
__kernel void nested(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    if (in[i] > 3)
        SELECT(in[i] > 5, out[i] = 1, out[i] = 2)
    else
        out[i] = 0;
}

// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+9]]:5: error: cannot find the condition of this if in the source text [nplus1-macro-decision]
// CHECK-NEXT: if IS_BIG
// CHECK-NEXT: ^
// CHECK-NEXT: {{.*}}macro_decision.cl:[[@LINE+6]]:5: note: the classifier copies the condition from between the parentheses in the source text: write them in the kernel, as in 'if (MACRO)'
// CHECK-NEXT: if IS_BIG
// CHECK-NEXT: ^
__kernel void condition_parentheses(__global const int *in, __global int *out)
{
    const int i = get_global_id(0);
    if IS_BIG
        out[i] = 1;
}
// CHECK-NEXT: nplus1gen: 5 errors; no files written
// CHECK-NOT:  {{.}}
