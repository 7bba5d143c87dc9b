/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_analyze - unit tests of condition-tree extraction and planning:
 * each case parses a small kernel and checks the shape of its tree, its
 * leaves (and which are empty), its slice, or that it is refused.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "front_end.h"
#include "plan.h"

#include "check.h"
#include "text_input.h"

static int keep_first; /* plan with the kernel's first decision kept in the leaves (opt.keep) */

typedef struct result {
    int rc;              /* 0 ok, else refused */
    unsigned leaves, kernels, slice, decisions;
    unsigned errors;
    char first_leaf_condition[256];
    double paths;        /* counted without walking (keep_in_leaf.c) */
} result;

static result run(const char *src)
{
    result r;
    memset(&r, 0, sizeof r);
    text_input in;
    r.rc = text_input_run(&in, "test", src, NULL); /* planned below */
    if (r.rc < 0)
        return r;
    if (r.rc == 0) {
        analysis *an = &in.fe.an;
        r.rc = in.fe.bad;
        static const unsigned first[] = {0}; /* decision ids number the tree in pre-order */
        plan_options opt = {STRATEGY_ORDERED, 256, SPLIT_ALWAYS, 0, first,
                            keep_first ? 1u : 0u};
        r.rc |= plan_build(&in.fe.pl, an, &opt, &in.d);
        const plan *pl = &in.fe.pl;
        if (pl->nkernels) {
            r.leaves = pl->kernels[0].nleaves;
            r.kernels = pl->kernels[0].nkernels;
            r.slice = pl->kernels[0].nslice;
            r.paths = pl->kernels[0].paths;
            if (r.leaves)
                snprintf(r.first_leaf_condition, sizeof r.first_leaf_condition, "%s",
                         pl->kernels[0].leaves[0].condition);
        }
    }
    r.errors = in.d.errors;
    text_input_free(&in);
    return r;
}

/*
 * One analysis, two plans: --max-leaves 2 keeps the inner levels in the
 * leaves; a second plan of the same analysis with no limit must split them
 * all again (the plan writes its own data, not the analysis's).
 */
static void check_two_plans(void)
{
    const char *src = "__kernel void k(__global const int *a, __global int *o) {\n"
                      "  int g = get_global_id(0); int v = a[g];\n"
                      "  if (v & 1) o[g] = 1; else o[g] = 2;\n"
                      "  if (v & 2) o[g] += 3; else o[g] += 4;\n"
                      "  if (v & 4) o[g] += 5; else o[g] += 6;\n}\n";
    text_input in;
    int rc = text_input_run(&in, "test", src, NULL);
    if (rc < 0) {
        check(0, "one analysis planned twice (cannot write the input)");
        return;
    }
    unsigned leaves[3] = {0, 0, 0};
    if (rc == 0 && !in.fe.bad) {
        unsigned limits[3] = {0, 2, 0};
        for (unsigned i = 0; i < 3; i++) {
            plan pl;
            plan_options opt = {STRATEGY_ORDERED, 256, SPLIT_ALWAYS, limits[i],
                                NULL, 0};
            plan_build(&pl, &in.fe.an, &opt, &in.d);
            leaves[i] = pl.nkernels ? pl.kernels[0].nleaves : 0;
            plan_free(&pl);
        }
    }
    text_input_free(&in);
    check(leaves[0] == 8 && leaves[1] == 2 && leaves[2] == 8,
          "one analysis planned under --max-leaves 2 and then with no limit: 8, 2, 8 leaves");
}

int main(void)
{
    check_two_plans();
    result r = run("__kernel void k(__global const int *a, __global float *o) {\n"
                   "  int g = get_global_id(0); int v = a[g]; float unused = 2.0f;\n"
                   "  if (v > 0) { if (v > 5) o[g] = 1; else o[g] = 2; } else o[g] += 3;\n}\n");
    check(r.rc == 0 && r.leaves == 3 && r.kernels == 3,
          "a nested if inside an if/else gives three leaves, all with kernels");
    check(r.slice == 2, "the slice keeps the two statements the conditions need, not the unused one");
    check(!strcmp(r.first_leaf_condition, "(v > 0) && (v > 5)"),
          "a leaf's condition path is the conjunction of the source conditions");

    r = run("__kernel void k(__global const float *a, __global float *o, int n) {\n"
            "  int g = get_global_id(0);\n  if (g >= n) return;\n"
            "  if (a[g] > 0.5f) o[g] = 1; else o[g] = 2;\n}\n");
    check(r.rc == 0 && r.leaves == 3 && r.kernels == 2,
          "an early-return guard is a leaf with no kernel and no bucket");

    r = run("__kernel void k(__global const int *m, __global int *o) {\n"
            "  int g = get_global_id(0);\n  switch (m[g] & 3) {\n"
            "  case 0: o[g] = 10; break;\n  case 1: o[g] = 11;\n  case 2: o[g] += 12; break;\n"
            "  default: o[g] = 13;\n  }\n}\n");
    check(r.rc == 0 && r.leaves == 4 && r.kernels == 4,
          "a switch gives one leaf per case entry, fall-through and default included");

    r = run("__kernel void k(__global const int *m, __global int *o) {\n"
            "  int g = get_global_id(0);\n  switch (m[g]) {\n  case 0: case 1: o[g] = 1; break;\n"
            "  case 7: o[g] = 2; break;\n  }\n}\n");
    check(r.rc == 0 && r.leaves == 3 && r.kernels == 2,
          "grouped case labels share a leaf; a switch without default gets an empty leaf");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  if (a[g] == 0) o[g] = 0;\n"
            "  else if (a[g] == 1) o[g] = 1;\n  else if (a[g] == 2) o[g] = 4;\n  else o[g] = 9;\n}\n");
    check(r.rc == 0 && r.leaves == 4 && r.kernels == 4, "an else-if chain of four gives four leaves");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  if (a[g] > 3) o[g] = 1;\n  o[g] += 1;\n}\n");
    check(r.rc == 0 && r.leaves == 2 && r.kernels == 2,
          "an if without else gives two leaves when the epilogue writes memory");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  if (a[g] > 3) o[g] = 1;\n}\n");
    check(r.rc == 0 && r.leaves == 2 && r.kernels == 1,
          "an if without else and no epilogue leaves the fall-through path empty");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  if (a[g] > 3) o[g] = 1; else o[g] = 2;\n"
            "  barrier(CLK_GLOBAL_MEM_FENCE);\n  o[g] += o[g ^ 1];\n}\n");
    check(r.rc != 0 && r.errors >= 1, "a kernel with a barrier is refused");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  if (a[g] > 3) o[g] = 1; else o[g] = 2;\n"
            "  barrier(CLK_GLOBAL_MEM_FENCE);\n}\n");
    check(r.rc == 0 && r.errors == 0,
          "a barrier that ends the kernel orders nothing: the kernel is split");

    r = run("__kernel void k(__global int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  if (a[g]++ > 3) o[g] = 1; else o[g] = 2;\n}\n");
    check(r.rc != 0, "a condition with a side effect is refused");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0); int s = 0;\n"
            "  for (int i = 0; i < 4; i++) { s += a[g + i]; o[g] = s; }\n"
            "  if (s > 3) o[g] = 1; else o[g] = 2;\n}\n");
    check(r.rc != 0, "a slice statement that writes memory is refused");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0);\n  o[g] = 0;\n  if (a[g] > 3) o[g] = 1; else o[g] = 2;\n}\n");
    check(r.rc != 0, "a condition reading memory after a store (possible alias) is refused");

    r = run("__kernel void k(__global const int * restrict a, __global int * restrict o) {\n"
            "  int g = get_global_id(0);\n  o[g] = 0;\n  if (a[g] > 3) o[g] = 1; else o[g] = 2;\n}\n");
    check(r.rc == 0, "the same read through a restrict pointer is accepted");

    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0); o[g] = a[g];\n}\n");
    check(r.rc != 0, "a file whose only kernel has no decision is refused");

    r = run("int f(int x) { return x * 2; }\n__kernel void k(__global const int *a, __global int *o) {\n"
            "  __local int t[4];\n  int g = get_global_id(0);\n  if (a[g]) o[g] = f(1); else o[g] = 2;\n}\n");
    check(r.rc != 0, "a __local variable is refused");

    r = run("__kernel void k(__global const int *a, __global int *c, __global int *o) {\n"
            "  int g = get_global_id(0); int v = a[g];\n"
            "  if (v > 3) o[g] = 1; else o[g] = 2;\n"
            "  v = atomic_inc(&c[0]);\n"
            "  if (g > 7) o[g] += 1;\n  o[g] += v;\n}\n");
    check(r.rc == 0 && r.slice == 2,
          "a write after the last read of a variable is not in the slice (no false refusal)");

    /* the path count that drives --max-leaves agrees with the walk that makes the leaves */
    r = run("__kernel void k(__global const int *m, __global int *o) {\n"
            "  int g = get_global_id(0); int v = m[g];\n"
            "  if (g > 100000) return;\n"
            "  switch (v & 7) {\n"
            "  case 0: o[g] = 1;\n"
            "  case 1: if (v > 50) { o[g] += 2; break; } o[g] += 3;\n"
            "  case 2: { o[g] = 4; break; }\n"
            "  case 3: if (v > 9) return; else o[g] = 5; break;\n"
            "  default: o[g] = 6;\n  }\n"
            "  if (v & 8) o[g] *= 2; else o[g] -= 1;\n}\n");
    check(r.rc == 0 && r.paths == (double)r.leaves && r.leaves > 8,
          "paths counted without walking = leaves walked (switch fall-through, break, return)");
    r = run("__kernel void k(__global const int *m, __global int *o) {\n"
            "  int g = get_global_id(0); int v = m[g];\n"
            "  if (v & 1) { if (v & 2) o[g] = 1; else if (v & 4) return; } else o[g] = 2;\n"
            "  if (v & 8) o[g] += 1;\n  if (v & 16) o[g] += 2;\n}\n");
    check(r.rc == 0 && r.paths == (double)r.leaves,
          "paths counted without walking = leaves walked (nested ifs, a return, ifs in a row)");

    keep_first = 1;
    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0); int v = a[g];\n"
            "  if (v == 7) o[g] = 0;\n"
            "  if (v > 3) o[g] += 1; else o[g] -= 2;\n}\n");
    check(r.rc == 0 && r.leaves == 2 && r.slice == 2,
          "a kept decision is a plain statement: the next one is split (2 leaves)");
    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0); int v = a[g];\n"
            "  if (v == 7) { o[g] = 0; return; }\n"
            "  if (v > 3) o[g] += 1; else o[g] -= 2;\n}\n");
    check(r.rc == 0 && r.leaves == 1,
          "nothing after a kept decision that may return is split (1 leaf)");
    r = run("__kernel void k(__global const int *a, __global int *o) {\n"
            "  int g = get_global_id(0); int v = a[g]; int w = 0;\n"
            "  if (v == 7) w = 5; else w = v;\n"
            "  if (w > 3) o[g] += 1; else o[g] -= 2;\n}\n");
    check(r.rc == 0 && r.leaves == 2 && r.slice == 4,
          "the classifier runs a kept decision when a later condition reads what it writes");
    keep_first = 0;

    return check_summary("condition trees");
}
