/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parse_facts.h - what later stages read from the translation unit besides its
 * declarations, asked once here so that they call no libclang function: the
 * user's #include lines (entered or not), the blocks the preprocessor skipped,
 * the macro definitions in the order the text gives them. Emit (the inlined
 * headers, macro_deps.c) and the parse's own inactive ranges use them.
 */
#ifndef NPLUS1_PARSE_FACTS_H
#define NPLUS1_PARSE_FACTS_H

#include "parse.h"

/* One #include line of a user file (not a system header). */
typedef struct parse_inclusion {
    unsigned includer, offset, included;  /* files[] indexes; offset: the directive in includer */
    int skipped;        /* the preprocessor did not enter it here (a guard or #pragma once) */
} parse_inclusion;

/*
 * The user's #include lines: those the preprocessor entered, in its order, then
 * those it did not enter (one per logical line that has no entered one), the
 * whole list then sorted by (includer, offset). Returns the count; *out is the
 * list (caller frees; NULL when empty).
 */
unsigned parse_inclusions(parse_result *pr, parse_inclusion **out);

/* The logical line around f->text[off] (lines joined by a backslash): [*ls, *le), *le at
 * its '\n'. */
void parse_logical_line(const src_file *f, unsigned off, unsigned *ls, unsigned *le);


/* For each macro definition of the translation unit, in order, that want(ud, name)
 * asks for and whose location resolves to a file: fn(ud, name, where it is). (Only
 * those asked for are resolved: resolving a location adds its file to pr->files.) */
void parse_each_macro_definition(parse_result *pr, int (*want)(void *ud, const char *name),
                                 void (*fn)(void *ud, const char *name, const src_pos *at),
                                 void *ud);

#endif
