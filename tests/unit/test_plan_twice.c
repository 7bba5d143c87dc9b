/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_plan_twice - the plan reads the analysis and never writes it: one
 * analysis is planned under one set of options, then under others, then
 * under the first again, and the first and the last plans print the same
 * --report and emit the same files. The loop the tile kernel regroups is
 * the analysis's tree (built and classified by the analyze stage), which a
 * plan borrows and plan_free leaves alone.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "emit.h"
#include "front_end.h"
#include "plan.h"
#include "report.h"

#include "check.h"
#include "text_input.h"

static const char *const SRC =
    "__kernel void shade(__global const int *kind, __global float *out, const int n)\n"
    "{\n"
    "    int gid = get_global_id(0);\n"
    "    if (gid >= n)\n"
    "        return;\n"
    "    int k = kind[gid];\n"
    "    if (k == 0) {\n"
    "        out[gid] = 1.0f;\n"
    "    } else if (k == 1) {\n"
    "        out[gid] = sqrt((float)gid) * 2.0f + 1.0f;\n"
    "    } else {\n"
    "        out[gid] = sin((float)gid) * cos((float)k);\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void walk(__global const int *steps, __global float *out, const int n)\n"
    "{\n"
    "    int gid = get_global_id(0);\n"
    "    if (gid >= n)\n"
    "        return;\n"
    "    float acc = 0.0f;\n"
    "    int s = 0;\n"
    "    while (s < steps[gid]) {\n"
    "        if (s % 3 == 0) {\n"
    "            acc += sin(acc) * 2.0f + cos(acc) * exp(acc);\n"
    "        } else {\n"
    "            acc = acc * 0.5f + 1.0f;\n"
    "        }\n"
    "        s++;\n"
    "    }\n"
    "    out[gid] = acc;\n"
    "}\n";

/* What a plan shows: its --report, then the four emitted files (caller frees). */
static char *plan_text(const analysis *an, const plan *pl, dispatch d, const char *path)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    report_print(f, an, pl, d, 1);
    emit_options eo = {.input = path, .stem = "twice", .dispatch = d};
    emit_output out;
    memset(&out, 0, sizeof out);
    char err[256] = "";
    if (emit_all(pl, &eo, &out, err, sizeof err) == 0)
        fprintf(f, "%s\n%s\n%s\n%s\n", out.kernel_file, out.driver_h, out.driver_c,
                out.manifest);
    else
        fprintf(f, "emit failed: %s\n", err);
    emit_output_free(&out);
    fclose(f);
    return buf;
}

static const kernel_info *kernel_named(const analysis *an, const char *name)
{
    for (unsigned i = 0; i < an->nkernels; i++)
        if (!strcmp(an->kernels[i].name, name))
            return &an->kernels[i];
    return NULL;
}

static const kernel_plan *planned(const plan *pl, const kernel_info *k)
{
    for (unsigned i = 0; i < pl->nkernels; i++)
        if (pl->kernels[i].k == k)
            return &pl->kernels[i];
    return NULL;
}

/* The analysis's own view of walk's loop: its tree, the decision in it classified. */
static void check_loop_tree(const analysis *an)
{
    const kernel_info *walk = kernel_named(an, "walk");
    const loop_tree *lt = walk && walk->nloops == 1 ? &walk->loops[0] : NULL;
    check(lt && lt->ok && kernel_loop_tree(walk, lt->item) == lt,
          "analyze builds the tree of walk's top-level loop");
    const decision *d = NULL;
    for (unsigned i = 0; lt && i < lt->body.n && !d; i++)
        d = lt->body.items[i].decision;
    check(d && d->divergence == DIV_DATA && strstr(d->divergence_why, "the loop carries"),
          "analyze classifies the loop body's decision: data, since it reads the carried 's'");
}

static void check_borrowed(const analysis *an, const plan *pl)
{
    const kernel_info *walk = kernel_named(an, "walk");
    const kernel_plan *kp = walk ? planned(pl, walk) : NULL;
    check(kp && kp->loop.active && walk->nloops == 1 &&
              kp->loop.bodyseq.items == walk->loops[0].body.items,
          "the plan's regrouped loop is the analysis's tree, not a copy the plan built");
}

int main(void)
{
    plan_options tile = {.strategy = STRATEGY_TILE, .wg = 256,
                         .split = SPLIT_AUTO};
    plan_options other = {.strategy = STRATEGY_AGGREGATED, .wg = 64,
                          .split = SPLIT_ALWAYS, .max_leaves = 2};
    text_input in;
    int rc = text_input_run(&in, "twice", SRC, &tile);
    if (rc < 0) {
        check(0, "the input can be written");
        return check_summary("plan twice");
    }
    if (check(rc == 0 && !in.fe.bad && in.fe.an.nkernels == 2, "both kernels analyse and plan")) {
        const analysis *an = &in.fe.an;
        check_loop_tree(an);
        check_borrowed(an, &in.fe.pl);
        char *first = plan_text(an, &in.fe.pl, DISPATCH_AUTO, in.path);
        plan p2, p3;
        plan_build(&p2, an, &other, &in.d);
        char *second = plan_text(an, &p2, DISPATCH_HOST, in.path);
        plan_free(&p2);
        plan_free(&in.fe.pl); /* the analysis's loop tree outlives the plans that borrowed it */
        plan_build(&p3, an, &tile, &in.d);
        char *third = plan_text(an, &p3, DISPATCH_AUTO, in.path);
        /* its decision is cheap against a round (regroup_rule.h): the loop kernel is the
         * split, with regrouping off; what matters here is that it is planned */
        check(first && strstr(first, "loop (tile): line 23: ") &&
                  !strstr(first, "loop (tile): line 23: not"),
              "the first plan takes walk's loop into the loop kernel");
        check(second && third && strcmp(first, second) != 0,
              "other options make another plan (the comparison below can fail)");
        int same = first && third && !strcmp(first, third);
        if (!same)
            printf("  first:\n%s\n  again:\n%s\n", first ? first : "", third ? third : "");
        check(same, "planned again under the first options after another plan, the analysis "
                    "gives the same report and the same files");
        check_borrowed(an, &p3);
        check_loop_tree(an);
        plan_free(&p3);
        free(first);
        free(second);
        free(third);
    }
    text_input_free(&in);
    return check_summary("one analysis, planned twice");
}
