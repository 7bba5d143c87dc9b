/* SPDX-License-Identifier: Apache-2.0 */
/*
 * macro_restore.h - the macros a kernel's generated text needs as they were at
 * the kernel. The generated kernels follow the whole original text in the kernel
 * file; a macro the kernel uses (directly, or through another macro it uses) that
 * its file #undefs or #defines again after the kernel would be gone, or different,
 * there. For each such macro the analysis records its definition at the kernel and
 * the state the original text leaves it in (kernel_info.restores), read from the
 * detailed preprocessing record (the definitions and expansions) and the file's
 * tokens (the #undef lines). Macros the text never changes after the kernel are not
 * listed: the generated text leaves them alone, so a -D given at build time reaches
 * them as it reaches the original.
 */
#ifndef NPLUS1_MACRO_RESTORE_H
#define NPLUS1_MACRO_RESTORE_H

#include "analyze.h"

/* Fills restores of every kernel of an and of every helper its copies are made of. */
void analyze_macro_restores(analysis *an);

/* Frees one list. */
void analyze_macro_restores_free(macro_restores *r);

#endif
