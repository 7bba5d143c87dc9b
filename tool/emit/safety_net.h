/* SPDX-License-Identifier: Apache-2.0 */
/*
 * safety_net.h - the generated kernel file must compile. Before anything is
 * written or built, it is parsed with libclang like the input; an error is
 * a bug in nplus1gen (or in the -T templates), reported with clang's message,
 * the generated line and the input kernel it came from.
 */
#ifndef NPLUS1_SAFETY_NET_H
#define NPLUS1_SAFETY_NET_H

#include "parse.h"
#include "plan.h"

/*
 * Parses text, the generated kernel file of input, with po's -cl-std, as
 * the driver builds it: from a folder of its own, without -I (with -T
 * templates: named stem.nplus1.cl beside the input, with po's -I). Returns 0
 * when it compiles, else -1 (reported).
 */
int safety_net_check(const plan *pl, const parse_options *po, const char *input,
                     const char *stem, const char *text, int user_templates);

#endif
