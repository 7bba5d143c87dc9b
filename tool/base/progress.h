/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.h - a line on stderr for each stage of a long run.
 *
 * A kernel of thousands of statements (hashcat's bitsliced DES) takes the
 * analysis several seconds. Once a run has lasted 2 seconds, each stage it
 * enters (parsing, analysing kernel K, planning, writing, checking,
 * validating) is named on stderr with the time so far, and a stage that
 * goes on is named again every 10 seconds; a short run prints nothing.
 * Only where stderr is a terminal, unless NPLUS1_PROGRESS=SECONDS asks for
 * it (the threshold: tests give 0), and never with NPLUS1_PROGRESS=never or
 * -q. stdout and the files written are the same either way (docs/cli.md,
 * "Progress").
 */
#ifndef NPLUS1_PROGRESS_H
#define NPLUS1_PROGRESS_H

/* The clock starts; a watcher thread when progress is on (quiet: off). */
void progress_start(int quiet);
/* The stage the run is in now ("analysing kernel 'k' (2 of 3)"). */
void progress_stage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the watcher: nothing is printed after it. */
void progress_stop(void);

#endif
