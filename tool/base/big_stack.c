/* SPDX-License-Identifier: Apache-2.0 */
/*
 * big_stack.c - a thread with a large stack, a guard region below it, and a
 * SIGSEGV / SIGBUS handler on an alternate stack that tells an overflow of
 * that stack (a fault inside the guard) from any other crash.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, MAP_STACK */
#include "big_stack.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0
#endif
#ifndef MAP_STACK
#define MAP_STACK 0
#endif

enum { GUARD = 1 << 20, ALT_STACK = 1 << 16, EXIT_INPUT = 1, EXIT_INTERNAL = 3 };

typedef struct job {
    int (*fn)(void *);
    void *arg;
    int result;
} job;

/* Read by the signal handler: set before the thread starts, or by note_input. */
static uintptr_t guard_lo, stack_lo;
static size_t stack_size; /* as mapped */
static struct sigaction previous[2];
static char overflow_msg[1024];
static char crash_msg[1024];
static const int signals[2] = {SIGSEGV, SIGBUS};

size_t big_stack_size(void)
{
    const char *mb = getenv("NPLUS1_STACK_MB"); /* tests: a small stack overflows sooner */
    if (mb && atoi(mb) >= 1 && atoi(mb) <= 1 << 16)
        return (size_t)atoi(mb) << 20;
    return sizeof(void *) >= 8 ? (size_t)1 << 30 : (size_t)256 << 20;
}

void big_stack_note_input(const char *path)
{
    snprintf(overflow_msg, sizeof overflow_msg,
             "nplus1gen: error: %s nests too deeply: parsing and analysing it ran out of the "
             "%zu MiB stack nplus1gen gives them (an expression of hundreds of thousands of "
             "terms, or as many nested parentheses, blocks or calls); split it into smaller "
             "expressions or statements (intermediate variables) and run nplus1gen again\n",
             path ? path : "the input", (stack_size ? stack_size : big_stack_size()) >> 20);
    snprintf(crash_msg, sizeof crash_msg,
             "nplus1gen: internal error: crashed while working on %s (a bug in nplus1gen or "
             "libclang); please report it with the input\n", path ? path : "the input");
}

static void put(const char *msg)
{
    size_t n = strlen(msg);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, msg, n);
        if (w <= 0)
            return;
        msg += w;
        n -= (size_t)w;
    }
}

static void on_fault(int sig, siginfo_t *info, void *ctx)
{
    uintptr_t at = (uintptr_t)info->si_addr;
    if (stack_lo && at >= guard_lo && at < stack_lo) {
        put(overflow_msg);
        _exit(EXIT_INPUT);
    }
    unsigned i = sig == SIGBUS;
    if (previous[i].sa_flags & SA_SIGINFO) { /* a sanitizer's: it reports */
        previous[i].sa_sigaction(sig, info, ctx);
        return;
    }
    if (previous[i].sa_handler != SIG_DFL && previous[i].sa_handler != SIG_IGN) {
        previous[i].sa_handler(sig);
        return;
    }
    put(crash_msg);
    _exit(EXIT_INTERNAL);
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i < 2; i++)
        sigaction(signals[i], &sa, &previous[i]);
}

static void restore_handler(void)
{
    for (unsigned i = 0; i < 2; i++)
        sigaction(signals[i], &previous[i], NULL);
}

static void *thread_main(void *p)
{
    job *j = p;
    static char alt[ALT_STACK]; /* the handler's stack: the thread's own is exhausted */
    stack_t ss, old;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    /* a sanitizer gives each thread an alternate stack (and frees it itself): keep it */
    int ours = sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE) &&
               sigaltstack(&ss, NULL) == 0;
    j->result = j->fn(j->arg);
    if (ours)
        sigaltstack(&old, NULL);
    return NULL;
}

/* Starts the thread on stack [base + GUARD, base + GUARD + size); 0 on success. */
static int start(pthread_t *t, job *j, char *base, size_t size)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    int rc = pthread_attr_setstack(&attr, base + GUARD, size);
    if (rc == 0)
        rc = pthread_create(t, &attr, thread_main, j);
    pthread_attr_destroy(&attr);
    return rc;
}

/* size bytes of stack and a guard below them, or NULL; halves size while address space lacks. */
static char *map_stack(size_t *size)
{
    for (;;) {
        char *base = mmap(NULL, *size + GUARD, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (base != MAP_FAILED)
            return base;
        if (*size < (size_t)32 << 20)
            return NULL;
        *size /= 2;
    }
}

int big_stack_run(int (*fn)(void *), void *arg, size_t size)
{
    job j = {fn, arg, 0};
    if (!overflow_msg[0])
        big_stack_note_input(NULL);
    char *base = map_stack(&size);
    if (!base)
        return fn(arg);
    stack_size = size;
    pthread_t t;
    if (mprotect(base, GUARD, PROT_NONE) != 0) {
        munmap(base, size + GUARD);
        return fn(arg);
    }
    guard_lo = (uintptr_t)base;
    stack_lo = (uintptr_t)base + GUARD;
    install_handler();
    if (start(&t, &j, base, size) != 0) {
        restore_handler();
        stack_lo = 0;
        munmap(base, size + GUARD);
        return fn(arg);
    }
    pthread_join(t, NULL);
    restore_handler();
    stack_lo = 0;
    munmap(base, size + GUARD);
    return j.result;
}
