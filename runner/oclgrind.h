/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oclgrind.h - oclgrind for nplus1gen-validate: when a run dies or
 * its queue fails, the original kernel alone is run under oclgrind, which
 * checks every memory access, and the first invalid one is named.
 */
#ifndef NPLUS1_RUNNER_OCLGRIND_H
#define NPLUS1_RUNNER_OCLGRIND_H

/* 1 when `oclgrind` is on the PATH. */
int oclgrind_available(void);

/* oclgrind preloads its OpenCL: a sanitizer build must not insist on coming first. */
void oclgrind_allow_preload(void);

/*
 * Runs `oclgrind SELF --original-only JOB` (at most 60 s) and prints the
 * first invalid access as an error naming the buffer, the index and the
 * line of INPUT (the user's file name). Returns 1 when it found one.
 */
int oclgrind_check(const char *self, const char *job, const char *input);

#endif
