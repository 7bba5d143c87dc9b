/* SPDX-License-Identifier: Apache-2.0 */
/*
 * big_stack.h - runs the tool's work on a thread with a large stack.
 *
 * libclang's parser and the analyze stage's visitors recurse once per level
 * of an expression or a statement: a 25,000-term sum overflowed the 8 MiB
 * of a default stack (SIGSEGV). The work runs on a thread of its own whose
 * stack is large (address space, touched only as deep as it goes), with a
 * guard below it. Should even that stack run out, the process ends with
 * exit code 1 and a message naming the input (big_stack_note_input), never
 * with a signal; another crash on that thread ends it with exit code 3
 * (or goes to the handler installed before, a sanitizer's).
 */
#ifndef NPLUS1_BIG_STACK_H
#define NPLUS1_BIG_STACK_H

#include <stddef.h>

/* The stack big_stack_run gives: 1 GiB of address space on 64-bit hosts. */
size_t big_stack_size(void);

/*
 * Runs fn(arg) on a thread with a stack of size bytes and returns what fn
 * returned. When the thread cannot be made, runs fn on the caller's stack.
 */
int big_stack_run(int (*fn)(void *), void *arg, size_t size);

/* The input file an overflow is reported against (copied; NULL: none). */
void big_stack_note_input(const char *path);

#endif
