/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.h - what --check and --report print: the verdict per kernel,
 * and (--report) the condition tree, leaves, slice, costs and plan.
 */
#ifndef NPLUS1_REPORT_H
#define NPLUS1_REPORT_H

#include <stdio.h>

#include "emit.h"
#include "plan.h"

void report_print(FILE *f, const analysis *an, const plan *pl, dispatch d, int full);

#endif
