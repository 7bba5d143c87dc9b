/* SPDX-License-Identifier: Apache-2.0 */
/*
 * front_end.c - parse, analyze, plan in one call (front_end.h).
 */
#include "front_end.h"

#include <string.h>

int front_end_run(front_end *fe, const char *path, const parse_options *po,
                  const char **kernels, unsigned nkernels, const plan_options *popt,
                  diag_sink *diag)
{
    return front_end_run_skip(fe, path, po, kernels, nkernels, NULL, 0, popt, diag);
}

int front_end_run_skip(front_end *fe, const char *path, const parse_options *po,
                       const char **kernels, unsigned nkernels, const char **skip,
                       unsigned nskip, const plan_options *popt, diag_sink *diag)
{
    memset(fe, 0, sizeof *fe);
    int rc = parse_input(&fe->pr, path, po, diag);
    if (rc != 0)
        return rc;
    /* a kernel whose only decisions sit in a loop is kept for loop.c when there is a plan:
     * the plan decides (plan_loop_lenient) whether its refusals are errors */
    fe->bad = analyze_tu_skip(&fe->an, &fe->pr, kernels, nkernels, skip, nskip, popt != NULL,
                              diag) != 0;
    if (popt)
        fe->bad |= plan_build(&fe->pl, &fe->an, popt, diag) != 0;
    return 0;
}

void front_end_free(front_end *fe)
{
    plan_free(&fe->pl);
    analyze_free(&fe->an);
    parse_free(&fe->pr);
    memset(fe, 0, sizeof *fe);
}
