/* SPDX-License-Identifier: Apache-2.0 */
/*
 * outdir.h - the generated set written into -o DIR atomically (two runs
 * into one folder leave one run's set, a failure leaves every path as it
 * was), and the --depfile text.
 */
#ifndef NPLUS1_OUTDIR_H
#define NPLUS1_OUTDIR_H

typedef struct out_file {
    char *final;          /* where the file goes */
    const char *text;
    char *tmp, *backup;   /* hidden names beside final */
    int existed;          /* final was there before: backup holds it */
} out_file;

/* Creates dir (and its parents) if missing; *created says whether dir was made. 0, or -1. */
int outdir_make(const char *dir, int *created);

/* Writes files[0..n) (final and text set): 0, or 1 (exit 1) after a message. */
int outdir_write(out_file *files, unsigned n);

/* The --depfile text: the four outputs of OUTDIR/STEM, then each of deps (escaped for make). */
char *outdir_depfile(const char *outdir, const char *stem, const char *const *deps,
                     unsigned ndeps);

#endif
