/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_divergence - unit tests of the divergence analysis: each case parses
 * a small kernel and checks the class of every decision, in source order
 * ("uniform", "affine" or "data"), and where it matters the reason.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "divergence.h"
#include "front_end.h"
#include "plan.h"
#include "tree.h"

#include "check.h"
#include "text_input.h"

typedef struct result {
    char classes[256];   /* "affine,data" */
    char first_why[256]; /* the reason of the first decision */
    char last_why[256];  /* the reason of the last decision */
    char kept[64];       /* keep_in_leaf of each decision: "0,1" */
} result;

typedef struct visit {
    result *r;
    const decision_plan *dp; /* the plan's, or NULL: collect the classes */
} visit;

static tree_step collect(void *ud, const decision *d)
{
    const visit *v = ud;
    result *r = v->r;
    if (v->dp) {
        size_t n = strlen(r->kept);
        snprintf(r->kept + n, sizeof r->kept - n, "%s%d", n ? "," : "", decision_kept(v->dp, d));
        return TREE_RECURSE;
    }
    size_t n = strlen(r->classes);
    snprintf(r->classes + n, sizeof r->classes - n, "%s%s", n ? "," : "",
             div_class_name(d->divergence));
    if (!r->first_why[0])
        snprintf(r->first_why, sizeof r->first_why, "%s", d->divergence_why);
    snprintf(r->last_why, sizeof r->last_why, "%s", d->divergence_why);
    return TREE_RECURSE;
}

static result run(const char *src)
{
    result r;
    memset(&r, 0, sizeof r);
    text_input in;
    int rc = text_input_run(&in, "div", src, NULL);
    if (rc < 0) {
        snprintf(r.classes, sizeof r.classes, "(cannot write the input)");
        return r;
    }
    if (rc == 0) {
        analysis *an = &in.fe.an;
        visit v = {&r, NULL};
        if (an->nkernels) /* the classes are the analysis's: no plan needed */
            for_each_decision(&an->kernels[0].top, collect, &v);
        plan_options opt = {.strategy = STRATEGY_ORDERED, .wg = 256,
                            .split = SPLIT_AUTO};
        plan pl;
        plan_build(&pl, an, &opt, &in.d);
        v.dp = pl.nkernels ? pl.kernels[0].decisions : NULL;
        if (v.dp)
            for_each_decision(&an->kernels[0].top, collect, &v);
        plan_free(&pl);
    }
    text_input_free(&in);
    return r;
}

static void expect(const char *what, const char *src, const char *classes, const char *why_has)
{
    result r = run(src);
    int ok = !strcmp(r.classes, classes) && (!why_has || strstr(r.first_why, why_has));
    if (!ok)
        printf("  got [%s] (%s), want [%s] (%s)\n", r.classes, r.first_why, classes,
               why_has ? why_has : "-");
    check(ok, what);
}

static void expect_kept(const char *what, const char *src, const char *kept)
{
    result r = run(src);
    int ok = !strcmp(r.kept, kept);
    if (!ok)
        printf("  got keep_in_leaf [%s] (classes %s), want [%s]\n", r.kept, r.classes, kept);
    check(ok, what);
}

#define K(body) "__kernel void k(__global const float *in, __global float *out, " \
                "__global const int *lut, const int n, const int w, const int h, " \
                "const int mode) {\n" body "\n}\n"

int main(void)
{
    expect("a bounds guard on get_global_id is affine",
           K("int gid = get_global_id(0); if (gid >= n) return; out[gid] = 1;"), "affine",
           "compares get_global_id(0) with argument 'n'");
    expect("a 2-D bounds guard through locals is affine",
           K("int x = get_global_id(0), y = get_global_id(1);\n"
             "if (x < w && y < h) out[y * w + x] = 1; else out[0] = 2;"),
           "affine", "get_global_id(0) and get_global_id(1)");
    expect("a border test x == 0 || x == w-1 is affine",
           K("int x = get_global_id(0); if (x == 0 || x == w - 1) out[x] = 0; else out[x] = 1;"),
           "affine", NULL);
    expect("a test of a scalar argument is uniform",
           K("int g = get_global_id(0); if (mode == 0) out[g] = 1; else out[g] = 2;"), "uniform",
           "depends only on argument 'mode'");
    expect("a switch on an argument is uniform",
           K("int g = get_global_id(0); switch (mode) { case 0: out[g] = 1; break; "
             "default: out[g] = 2; }"),
           "uniform", NULL);
    expect("x = gid % w with w an argument is data: w may be 2 at run time",
           K("int gid = get_global_id(0); int x = gid % w; int y = gid / w;\n"
             "if (x > 0 && x < w - 1 && y < h) out[gid] = 1; else out[gid] = 0;"),
           "data", "period known only at run time");
    expect("x = gid % 64 keeps a bounds guard affine",
           K("int gid = get_global_id(0); int x = gid % 64; int y = gid / w;\n"
             "if (x > 0 && x < 63 && y < h) out[gid] = 1; else out[gid] = 0;"),
           "affine", NULL);
    expect("gid % 2 repeats inside a SIMD group: data",
           K("int gid = get_global_id(0); if (gid % 2 == 0) out[gid] = 1; else out[gid] = 0;"),
           "data", "period shorter than a SIMD group");
    expect("gid * gid is not affine: data",
           K("int gid = get_global_id(0); if (gid * gid < n) out[gid] = 1; else out[gid] = 0;"),
           "data", "not affine");
    expect("a helper that computes an index keeps it affine",
           "static int at(int x, int y, int w) { return y * w + x; }\n"
           K("int x = get_global_id(0), y = get_global_id(1);\n"
             "if (at(x, y, w) < n) out[x] = 1; else out[x] = 0;"),
           "affine", NULL);
    expect("a helper that returns a border predicate is affine as a condition",
           "static bool edge(int v, int lo, int n) { return v == lo || v == lo + n - 1; }\n"
           K("int x = get_global_id(0); if (edge(x, 0, w)) out[x] = 1; else out[x] = 0;"),
           "affine", NULL);
    expect("a helper that reads memory at the id is data",
           "static float at(__global const float *p, int i) { return p[i]; }\n"
           K("int g = get_global_id(0); if (at(in, g) > 0.0f) out[g] = 1; else out[g] = 0;"),
           "data", "in helper 'at'");
    expect("vector components of a vector of ids are affine",
           K("int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
             "if (p.x < w && p.y < h) out[p.x] = 1; else out[0] = 0;"),
           "affine", NULL);
    expect("a load at a uniform index of const memory is uniform",
           K("int g = get_global_id(0); if (lut[mode] > 0) out[g] = 1; else out[g] = 0;"),
           "uniform", "'lut[mode]'");
    expect("a load at an affine index is data",
           K("int g = get_global_id(0); if (lut[g] > 0) out[g] = 1; else out[g] = 0;"), "data",
           "reads 'lut[...]' (global memory)");
    expect("a value loaded at the id, followed through a local, is data",
           K("int g = get_global_id(0); float v = in[g] * 2.0f; if (v > 1.0f) out[g] = v; "
             "else out[g] = 0;"),
           "data", "through 'v'");
    expect("a count under a data condition in a loop is data (control dependence)",
           K("int g = get_global_id(0); int c = 0;\n"
             "for (int i = 0; i < 4; i++) c += in[g + i] > 0.0f ? 1 : 0;\n"
             "if (c > 2) out[g] = 1; else out[g] = 0;"),
           "data", NULL);
    expect("a loop over uniform bounds leaves a sum uniform",
           K("int g = get_global_id(0); int s = 0;\n"
             "for (int i = 0; i < n; i++) s += i;\n"
             "if (s > w) out[g] = 1; else out[g] = 0;"),
           "uniform", NULL);
    expect("a value squared in a loop becomes data (fixed point)",
           K("int g = get_global_id(0); int v = g;\n"
             "for (int i = 0; i < 3; i++) v = v * v;\n"
             "if (v > n) out[g] = 1; else out[g] = 0;"),
           "data", NULL);
    expect("a ternary on get_work_dim() keeps get_global_id(2) affine",
           K("int z = get_work_dim() > 2 ? (int)get_global_id(2) : 0;\n"
             "if (z < h) out[z] = 1; else out[0] = 0;"),
           "affine", NULL);
    expect("a private array read at a uniform index is uniform, at the id data",
           K("int g = get_global_id(0); float wt[3] = {1.0f, 2.0f, 3.0f};\n"
             "if (wt[mode] > 1.5f) out[g] = 1; else out[g] = 0;\n"
             "if (wt[g % 3] > 1.5f) out[g] += 1; else out[g] += 2;"),
           "uniform,data", NULL);
    expect("a local whose address is taken is data",
           "static void set(int *p, int v) { *p = v; }\n"
           K("int g = get_global_id(0); int v = 0; set(&v, g);\n"
             "if (v < n) out[g] = 1; else out[g] = 0;"),
           "data", "address of 'v'");
    expect("a guard, a data decision and a uniform decision, in source order",
           K("int g = get_global_id(0); if (g >= n) return;\n"
             "float v = in[g];\n"
             "if (v > 0.0f) out[g] = v; else out[g] = -v;\n"
             "if (mode == 1) out[g] *= 2.0f;"),
           "affine,data,uniform", NULL);
    expect("a redefinition after the decision does not reach it",
           K("int g = get_global_id(0); int x = g;\n"
             "if (x < n) out[g] = 1; else out[g] = 0;\n"
             "x = (int)in[g];\n"
             "if (x < n) out[g] += 1; else out[g] += 2;"),
           "affine,data", NULL);
    expect("an atomic result is data",
           "__kernel void k(__global int *cnt, __global float *out, const int n) {\n"
           "  int g = get_global_id(0); int t = atomic_inc(cnt);\n"
           "  if (t < n) out[g] = 1; else out[g] = 0;\n}\n",
           "data", "atomic");
    expect("a float coordinate scaled by a uniform stays affine",
           K("int x = get_global_id(0); float u = (float)x / (float)w;\n"
             "if (u < 0.5f) out[x] = 1; else out[x] = 0;"),
           "affine", NULL);
    expect("a comparison of the id with a loaded value is data",
           K("int g = get_global_id(0); if (g < lut[g]) out[g] = 1; else out[g] = 0;"), "data",
           NULL);
    /* the operator a macro writes is read by syntax.c, as effects reads it: from the
     * cursor's kind on libclang 17+, not at all on 14 to 16 (then: data, the safe side) */
#ifdef NPLUS1_HAVE_CURSOR_OPERATOR_KINDS
    expect("a negated id inside a macro is affine (libclang 17+ operator kinds)",
           "#define NEG(v) (-(v))\n"
           K("int g = get_global_id(0); if (NEG(g) < -n) out[g] = 1; else out[g] = 0;"),
           "affine", NULL);
#else
    expect("a negated id inside a macro is data before libclang 17 (no operator read)",
           "#define NEG(v) (-(v))\n"
           K("int g = get_global_id(0); if (NEG(g) < -n) out[g] = 1; else out[g] = 0;"),
           "data", "cannot follow 'NEG(g)'");
#endif
    expect_kept("the plan keeps a uniform decision in the leaves, splits the guard and the data one",
                K("int g = get_global_id(0); if (g >= n) return;\n"
                  "float v = in[g];\n"
                  "if (v > 0.0f) out[g] = v; else out[g] = -v;\n"
                  "if (mode == 1) out[g] *= 2.0f;"),
                "0,0,1");
    expect_kept("an affine decision with a data decision inside stays split",
                K("int g = get_global_id(0);\n"
                  "if (g < n) { if (in[g] > 0.0f) out[g] = 1; else out[g] = 2; } else out[g] = 0;"),
                "0,0");
    expect_kept("a uniform decision that returns before a data decision stays split",
                K("int g = get_global_id(0);\n"
                  "if (mode == 3) { out[g] = 0; return; }\n"
                  "if (lut[g] > 0) out[g] = 1; else out[g] = 2;"),
                "0,0");
    expect_kept("a uniform decision that returns with no data decision after it is kept",
                K("int g = get_global_id(0);\n"
                  "if (lut[g] > 0) out[g] = 1; else out[g] = 2;\n"
                  "if (mode == 3) { out[g] = 0; return; }"),
                "0,1");
    expect_kept("a uniform decision that sets a local a later decision reads stays split",
                K("int g = get_global_id(0); int t = 0;\n"
                  "if (mode == 1) { t = 3; out[g] = 1; }\n"
                  "if (lut[g] > t) out[g] += 1; else out[g] += 2;"),
                "0,0");
    return check_summary("divergence classes");
}
