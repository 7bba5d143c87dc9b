/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text_input.h - the unit tests' input: kernel source text written to a temporary
 * .cl file (the front end parses files) and run through the front end with its
 * diagnostics quiet. Include it once, in the test's one C file.
 */
#ifndef NPLUS1_TEST_TEXT_INPUT_H
#define NPLUS1_TEST_TEXT_INPUT_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "front_end.h"

typedef struct text_input {
    char path[64];
    diag_sink d;   /* the run's diagnostics (quiet); plan_build may report to it too */
    front_end fe;
} text_input;

/*
 * Writes src to a fresh /tmp/nplus1_<tag>_XXXXXX.cl and runs the front end on it (with
 * the plan of popt, or none when NULL): front_end_run's status, or -1 when the file
 * cannot be written (nothing to free then). Otherwise text_input_free() undoes it.
 */
static int text_input_run(text_input *in, const char *tag, const char *src,
                          const plan_options *popt)
{
    snprintf(in->path, sizeof in->path, "/tmp/nplus1_%s_XXXXXX.cl", tag);
    int fd = mkstemps(in->path, 3);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, src, strlen(src));
    close(fd);
    if (n != (ssize_t)strlen(src)) {
        unlink(in->path);
        return -1;
    }
    diag_init(&in->d);
    in->d.quiet = 1;
    parse_options po = {0};
    return front_end_run(&in->fe, in->path, &po, NULL, 0, popt, &in->d);
}

static void text_input_free(text_input *in)
{
    front_end_free(&in->fe);
    unlink(in->path);
}

#endif
