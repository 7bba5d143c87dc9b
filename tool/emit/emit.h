/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit.h - the emit stage: fills the templates from the plan and returns
 * the generated texts (kernel file, driver header and source, manifest).
 * Writes nothing to disk; main.c does that atomically.
 */
#ifndef NPLUS1_EMIT_H
#define NPLUS1_EMIT_H

#include "plan.h"

/* --skip-refused: a kernel left out of the set, and why (the manifest's "skipped"). */
typedef struct emit_skip {
    char *kernel;
    char *rule;               /* the refusal's rule ("nplus1-..."), or NULL (split never) */
    char *why;                /* the refusal's message, or the never verdict */
    unsigned line, col;       /* where: the refusal's, else the kernel's */
} emit_skip;

/* --dispatch: how the driver launches the leaf kernels (the runtime's values,
 * nplus1rt_format.h). Only emit reads it (the driver and the manifest); the plan
 * does not depend on it. */
#define EMIT_DISPATCH_(id, v, name) DISPATCH_##id = v,
typedef enum dispatch { NPLUS1RT_DISPATCHES(EMIT_DISPATCH_) } dispatch;
#undef EMIT_DISPATCH_
const char *dispatch_name(dispatch d);

typedef struct emit_options {
    const char *input;        /* the path as given on the command line */
    const char *stem;         /* output file stem */
    const char *template_dir; /* NULL: embedded templates */
    const char **defines;     /* -D values, embedded in the kernel file */
    unsigned ndefines;
    int no_line;              /* --no-line: no #line directives back to the user's text */
    const emit_skip *skipped; /* --skip-refused: the kernels left out (manifest "skipped") */
    unsigned nskipped;
    dispatch dispatch;        /* --dispatch (the driver's launch of the leaf kernels) */
} emit_options;

typedef struct emit_output {
    char *kernel_file;        /* <stem>.nplus1.cl */
    char *driver_h;           /* <stem>_nplus1.h */
    char *driver_c;           /* <stem>_nplus1.c */
    char *manifest;           /* <stem>.nplus1.json */
    char **deps;              /* every source file read (for --depfile) */
    unsigned ndeps;
} emit_output;

/* Returns 0, or -1 with a message in err (an internal error). */
int emit_all(const plan *pl, const emit_options *opt, emit_output *out, char *err,
             size_t errlen);
void emit_output_free(emit_output *out);

#endif
