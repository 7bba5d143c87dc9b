/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diag.h - diagnostics in clang's form:
 *
 *   file:line:col: error: message [nplus1-rule]
 *       source line
 *       ^
 *
 * The module owns the output stream for diagnostics and the error count.
 * Stages report through it; nothing else prints diagnostics.
 */
#ifndef NPLUS1_DIAG_H
#define NPLUS1_DIAG_H

#include <stddef.h>

typedef enum diag_level { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_level;

/* A resolved location: path, 1-based line and column, and the file text. */
typedef struct diag_loc {
    const char *path;        /* NULL: no location */
    unsigned line, col;
    const char *text;        /* the whole file, for the source line; may be NULL */
    size_t text_len;
} diag_loc;

/* The first error a sink saw (diag_sink.first): --skip-refused names it in a note. */
typedef struct diag_first {
    int set;
    char rule[64];            /* "" without a rule */
    char message[512];
    unsigned line, col;       /* 0: no location */
} diag_first;

/* A diagnostic kept by a recording sink, to print later (diag_replay). */
typedef struct diag_recorded {
    diag_level level;
    diag_loc loc;             /* path and text point into the parse (not owned) */
    const char *rule;         /* a rule name (static), or NULL */
    char *msg;
} diag_recorded;

typedef struct diag_sink {
    unsigned errors, warnings;
    int color;                /* reserved: plain text for now */
    int quiet;                /* count but do not print (fuzzing) */
    diag_first *first;        /* not NULL: keep the first error there (printed or not) */
    int record;               /* with quiet: keep each diagnostic in recorded[] */
    diag_recorded *recorded;
    unsigned nrecorded, caprecorded;
} diag_sink;

void diag_init(diag_sink *d);
/* Prints what the recording sink from kept into to (counted there); from is unchanged. */
void diag_replay(const diag_sink *from, diag_sink *to);
/* Frees what a recording sink kept. */
void diag_free(diag_sink *d);

/* Reports one diagnostic; rule may be NULL (no [rule] suffix). */
void diag_report(diag_sink *d, diag_level level, const diag_loc *loc,
                 const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Prints a line that clang already formatted ("file:l:c: error: ..."). */
void diag_report_raw(diag_sink *d, diag_level level, const char *formatted,
                     const diag_loc *loc);

#endif
