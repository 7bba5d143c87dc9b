/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.c - a line on stderr for each stage of a long run (progress.h).
 * A stage entered after the threshold is named at once, by the thread doing
 * the work; a watcher thread names the stage that crosses the threshold,
 * and one that goes on, while it runs.
 */
#include "progress.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_AFTER 2.0  /* seconds before the first line */
#define PROGRESS_AGAIN 10.0 /* seconds before a stage still running is named again */

static struct {
    int on;                 /* the watcher runs */
    double after;           /* seconds before the first line */
    struct timespec start;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t watcher;
    char stage[160];
    unsigned seq;           /* stages entered */
    unsigned printed;       /* the stage last named */
    double printed_at;
    int stop;
} pg = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static double elapsed(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - pg.start.tv_sec) + (now.tv_nsec - pg.start.tv_nsec) / 1e9;
}

/* Names the stage when it is due; under the lock. */
static void name_stage(void)
{
    double t = elapsed();
    if (t < pg.after || !pg.seq)
        return;
    if (pg.seq != pg.printed || t - pg.printed_at >= PROGRESS_AGAIN) {
        fprintf(stderr, "nplus1gen: %.1f s: %s\n", t, pg.stage);
        fflush(stderr);
        pg.printed = pg.seq;
        pg.printed_at = t;
    }
}

static void *watch(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&pg.lock);
    while (!pg.stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&pg.wake, &pg.lock, &until);
        if (!pg.stop)
            name_stage();
    }
    pthread_mutex_unlock(&pg.lock);
    return NULL;
}

void progress_start(int quiet)
{
    clock_gettime(CLOCK_MONOTONIC, &pg.start);
    const char *env = getenv("NPLUS1_PROGRESS");
    char *end = NULL;
    double after = env ? strtod(env, &end) : PROGRESS_AFTER;
    if (quiet || (env && !strcmp(env, "never")))
        return;
    if (env && (end == env || *end || after < 0))
        return; /* not a number of seconds: off */
    if (!env && !isatty(STDERR_FILENO))
        return;
    pg.after = after;
    pg.stop = 0;
    pg.on = pthread_create(&pg.watcher, NULL, watch, NULL) == 0;
}

void progress_stage(const char *fmt, ...)
{
    if (!pg.on)
        return;
    pthread_mutex_lock(&pg.lock);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pg.stage, sizeof pg.stage, fmt, ap);
    va_end(ap);
    pg.seq++;
    name_stage();
    pthread_mutex_unlock(&pg.lock);
}

void progress_stop(void)
{
    if (!pg.on)
        return;
    pthread_mutex_lock(&pg.lock);
    pg.stop = 1;
    pthread_cond_signal(&pg.wake);
    pthread_mutex_unlock(&pg.lock);
    pthread_join(pg.watcher, NULL);
    pg.on = 0;
}
