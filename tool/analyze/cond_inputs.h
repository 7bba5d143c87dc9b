/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cond_inputs.h - the inputs a decision's conditions read (analyze.h's
 * cond_input), named as --arg names them. Part of the analyze stage: run
 * with the divergence classes (divergence.c).
 */
#ifndef NPLUS1_COND_INPUTS_H
#define NPLUS1_COND_INPUTS_H

#include "analyze.h"
#include "reaching_defs.h"

/*
 * Fills d->inputs, d->ninputs and d->inputs_upto (per branch: the inputs
 * of the conditions before it and its own), replacing what was there.
 */
void cond_inputs_of(defs_cache *defs, const kernel_info *k, decision *d);

#endif
