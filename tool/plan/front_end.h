/* SPDX-License-Identifier: Apache-2.0 */
/*
 * front_end.h - the front end in one call: parse, analyze and (given plan
 * options) plan one input, as nplus1gen runs them. main, the unit tests and
 * the fuzzer share it, so none of them re-assembles the stages.
 */
#ifndef NPLUS1_FRONT_END_H
#define NPLUS1_FRONT_END_H

#include "analyze.h"
#include "diag.h"
#include "parse.h"
#include "plan.h"

typedef struct front_end {
    parse_result pr;
    analysis an;
    plan pl;     /* empty when front_end_run was given no plan options */
    int bad;     /* the analysis or the plan refused something (diagnostics say what) */
} front_end;

/*
 * Parses path with po, analyses kernels[0..nkernels) (every kernel with a
 * decision when nkernels is 0) and, when popt is not NULL, plans them.
 * Returns parse_input's status (0: parsed; then fe->bad says whether the
 * input can be transformed). front_end_free(fe) afterwards, in every case.
 */
int front_end_run(front_end *fe, const char *path, const parse_options *po,
                  const char **kernels, unsigned nkernels, const plan_options *popt,
                  diag_sink *diag);
/* front_end_run, leaving out the kernels named in skip[0..nskip) (analyze_tu_skip). */
int front_end_run_skip(front_end *fe, const char *path, const parse_options *po,
                       const char **kernels, unsigned nkernels, const char **skip,
                       unsigned nskip, const plan_options *popt, diag_sink *diag);
void front_end_free(front_end *fe);

#endif
