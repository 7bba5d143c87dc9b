/* SPDX-License-Identifier: Apache-2.0 */
/*
 * macro_deps.h - the macros the generated text depends on. Build options
 * given to a driver's _create may change them; the set then either follows
 * the run-time value (a case label written with a macro is emitted as
 * written) or refuses to build: every #if / #ifdef / #ifndef group that
 * overlaps a transformed kernel gets an `#error nplus1-macro: ...` line in
 * each branch the set was not cut from, in the original source's copy of
 * the kernel file, where the preprocessor evaluates the group as the
 * original does. libnplus1rt turns that error into NPLUS1_ERR_MACRO.
 */
#ifndef NPLUS1_MACRO_DEPS_H
#define NPLUS1_MACRO_DEPS_H

#include "plan.h"

typedef struct macro_dep {
    char *name;
    char *value;          /* replacement text when the set was generated; NULL: undefined */
    unsigned line;        /* its first use: the directive or the case label */
    int followed;         /* 1: the set follows its run-time value; 0: _create refuses a change */
} macro_dep;

/* Text inserted before byte offset of a loaded file (an #error line, or #else and one). */
typedef struct macro_insert {
    unsigned file, offset;
    char *text;
} macro_insert;

typedef struct macro_deps {
    macro_dep *deps;      /* sorted by name */
    unsigned ndeps, capdeps;
    macro_insert *ins;    /* sorted by (file, offset) */
    unsigned nins, capins;
} macro_deps;

/* Finds the macros pl's generated text depends on; defines are the generation's -D. */
void macro_deps_find(macro_deps *md, const plan *pl, const char **defines, unsigned ndefines);
void macro_deps_free(macro_deps *md);

#endif
