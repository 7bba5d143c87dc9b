/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check.h - how every unit test states an expectation: one line per check,
 * "PASS: <sentence>" or "FAIL: <sentence>" (with what was got on a failure),
 * then one summary line; the program exits 1 when a check failed. Include it
 * once, in the test's one C file.
 */
#ifndef NPLUS1_TEST_CHECK_H
#define NPLUS1_TEST_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int check_failures;

/* One check: ok, and the sentence it proves. Returns ok. */
static int check(int ok, const char *sentence)
{
    printf("%s: %s\n", ok ? "PASS" : "FAIL", sentence);
    check_failures += !ok;
    return ok;
}

/* A check whose sentence is formatted (printf), for values worth reading in the log. */
static int checkf(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static int checkf(int ok, const char *fmt, ...)
{
    char sentence[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, ap);
    va_end(ap);
    return check(ok, sentence);
}

/* got within 1e-9 of want; a failure prints both. */
static int check_near(double got, double want, const char *sentence) __attribute__((unused));
static int check_near(double got, double want, const char *sentence)
{
    int ok = fabs(got - want) <= 1e-9;
    if (!ok)
        printf("  got %.9g, want %.9g\n", got, want);
    return check(ok, sentence);
}

/* The summary line; the exit status for main. */
static int check_summary(const char *what)
{
    printf("%s: %s: %d check(s) failed\n", check_failures ? "FAILED" : "ok", what,
           check_failures);
    return check_failures != 0;
}

#endif
