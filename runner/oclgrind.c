/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oclgrind.c - nplus1gen-validate's use of oclgrind (see
 * oclgrind.h): run the original kernel alone under oclgrind and
 * turn its first invalid-access report into the user's input problem,
 * "the original kernel reads nodes[183746] past its 1024 elements at
 * bfs.cl:14: give --arg nodes=size:N or other values".
 *
 * oclgrind numbers buffers 1, 2, ... in creation order and puts the number
 * in the top 16 bits of an address; `nplus1gen-validate --original-only`
 * creates the kernel's buffers in argument order and prints one
 * "nplus1-buffer NAME ELEMENTS ELEMENT_SIZE" line for each first.
 */
#define _DEFAULT_SOURCE
#include "oclgrind.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_BUFFERS 128

typedef struct oob_buffer {
    char name[128];
    size_t elems, size;
} oob_buffer;

/* Reads oclgrind's report; prints the first invalid access. 1 when it found one. */
static int explain_oob(const char *text, const char *file)
{
    oob_buffer b[MAX_BUFFERS];
    unsigned nb = 0;
    for (const char *p = strstr(text, "nplus1-buffer "); p && nb < MAX_BUFFERS;
         p = strstr(p + 1, "nplus1-buffer "))
        if (sscanf(p, "nplus1-buffer %127s %zu %zu", b[nb].name, &b[nb].elems, &b[nb].size) == 3)
            nb++;
    const char *hit = strstr(text, "Invalid read");
    const char *w = strstr(text, "Invalid write");
    if (!hit || (w && w < hit))
        hit = w;
    unsigned long long addr;
    char verb[8];
    if (!hit || sscanf(hit, "Invalid %7s of size %*u at global memory address %llx", verb,
                       &addr) != 2)
        return 0;
    /* oclgrind's address: the buffer's number in the top 16 bits, the byte offset below */
    unsigned id = (unsigned)(addr >> 48), line = 0;
    long long offset = (long long)(addr & ((1ULL << 48) - 1));
    if (offset >= 1LL << 47) { /* below the start of the next buffer: a negative index */
        offset -= 1LL << 48;
        id++;
    }
    const char *at = strstr(hit, "At line ");
    if (at)
        sscanf(at, "At line %u", &line);
    const char *does = verb[0] == 'w' ? "writes" : "reads";
    if (id == 0 || id > nb) {
        fprintf(stderr, "nplus1gen: error: the original kernel %s out of bounds at %s:%u (oclgrind): "
                        "give the buffers other sizes (--arg NAME=size:N) or other values\n",
                does, file, line);
        return 1;
    }
    const oob_buffer *o = &b[id - 1];
    long long sz = (long long)(o->size ? o->size : 1);
    long long index = offset / sz - (offset < 0 && offset % sz ? 1 : 0); /* floor */
    fprintf(stderr, "nplus1gen: error: the original kernel %s %s[%lld] %s %zu elements at %s:%u: "
                    "give --arg %s=size:N or other values\n",
            does, o->name, index, index < 0 ? "before the first of its" : "past its",
            o->elems, file, line, o->name);
    return 1;
}

/* oclgrind preloads its OpenCL: a sanitizer build must not insist on coming first. */
void oclgrind_allow_preload(void)
{
    const char *old = getenv("ASAN_OPTIONS");
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%sverify_asan_link_order=0", old ? old : "",
             old && *old ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
}

/* Runs cmd (argv) with stdout+stderr into a malloc'd string; kills it after limit_s. */
static char *capture(char *const cmd[], unsigned limit_s)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        alarm(limit_s); /* oclgrind is an interpreter: slow on big launches */
        oclgrind_allow_preload();
        execvp(cmd[0], cmd);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    ssize_t r;
    while (buf && (r = read(fd[0], buf + n, cap - n - 1)) > 0) {
        n += (size_t)r;
        buf[n] = '\0';
        const char *hit = strstr(buf, "Invalid ");
        if (hit && strstr(hit, "At line ")) /* the first report is all we need */
            break;
        if (n + 1 == cap && cap >= (16u << 20))
            break;
        if (n + 1 == cap) {
            char *t = realloc(buf, cap *= 2);
            if (!t)
                free(buf);
            buf = t;
        }
    }
    close(fd[0]);
    if (pid > 0) {
        kill(pid, SIGKILL); /* done reading: it may still be running */
        waitpid(pid, NULL, 0);
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

int oclgrind_available(void)
{
    return system("command -v oclgrind >/dev/null 2>&1") == 0;
}

/* 1 when oclgrind named an invalid access of the original (message printed). */
int oclgrind_check(const char *self, const char *path, const char *input)
{
    if (!oclgrind_available()) {
        fprintf(stderr, "nplus1gen: note: install oclgrind to find out whether the original "
                        "kernel reads or writes out of bounds on these inputs\n");
        return 0;
    }
    char *cmd[] = {"oclgrind", "--max-errors", "1", (char *)self, "--original-only",
                   (char *)path, NULL};
    char *text = capture(cmd, 60);
    int found = text ? explain_oob(text, input) : 0;
    free(text);
    return found;
}

