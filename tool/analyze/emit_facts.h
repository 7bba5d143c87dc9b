/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_facts.h - facts about the analysed kernels that later stages need and
 * that are read from the translation unit: asked here, in the analyze stage,
 * so that emit calls no libclang function (tests/layout_check.py checks it).
 */
#ifndef NPLUS1_EMIT_FACTS_H
#define NPLUS1_EMIT_FACTS_H

#include "analyze.h"
#include "diag.h"

/* Does the switch d's controlling value have more than 32 bits (its case constants are
 * then written with an L suffix)? */
int emit_facts_switch_wide(const decision *d);

/* Where a diagnostic about kernel k points: its name in the declaration. */
diag_loc emit_facts_kernel_loc(const analysis *an, const kernel_info *k);

#endif
