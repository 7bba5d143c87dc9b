/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.h - nplus1gen-validate's parts, inside runner/: the job (job.h),
 * the inputs built from its values (inputs.c) and what is printed
 * (verdict.c); runner.c runs them.
 */
#ifndef NPLUS1_RUNNER_RUNNER_H
#define NPLUS1_RUNNER_RUNNER_H

#include "job.h"

#define EXIT_RUN_FAILED 4 /* child to parent: a kernel run failed (not a build) */
#define EXIT_UNPROVEN 5   /* child to parent: inconclusive, or a leaf without items (exit 1) */
#define EXIT_REFUSED 6    /* child to parent: the set refuses the build options (exit 1) */

/* ---- inputs.c ---------------------------------------------------------------------- */

typedef struct field_set {
    unsigned arg;
    char path[256];                 /* --arg NAME.PATH=VALUE */
    const char *value;
} field_set;

typedef struct values {
    size_t elems[MAX_ARGS];
    const void *ptr[MAX_ARGS];
    unsigned char storage[MAX_ARGS][128];
    const char *contents[MAX_ARGS]; /* file:PATH or a recipe, NULL: the default */
    void *init[MAX_ARGS];           /* buffers' initial contents, NULL: seeded random */
    int unordered[MAX_ARGS], count_arg[MAX_ARGS];
    field_set sets[MAX_ARGS];
    unsigned nsets;
    nplus1rt_image_spec images[MAX_ARGS];
    nplus1rt_sampler_spec samplers[MAX_ARGS];
} values;

/* The job's values for kernel k into *v: 0, or -1 after a message (a bad --arg). */
int inputs_setup(const job *j, const kdesc *k, values *v);
/* The buffers' initial contents: files, recipes, struct fields; else the runtime's random. */
int inputs_build(const job *j, const kdesc *k, values *v);
void inputs_free(values *v);
/* The elements of a buffer without size:N: the launch's items. */
size_t inputs_default_elems(const nplus1rt_validate_opts *o);

/* ---- verdict.c --------------------------------------------------------------------- */

/* One kernel's result: per leaf, mismatches, the side-by-side table of --reps. */
void verdict_result(const kdesc *k, const nplus1rt_validation *r);
/* 0: fine; 1: inconclusive, or a working leaf empty under --require-all-leaves. */
int verdict_coverage(job *j, const kdesc *k, const nplus1rt_validation *r);
/* The last line: passed, FAILED, inconclusive, refused (a job of sets: of them all). */
void verdict_print(const job *j, int rc);
/* A job of several sets: the verdict of the set j->set_label, tallied into j. */
void verdict_print_set(job *j, int rc);

#endif
