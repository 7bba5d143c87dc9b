/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_msg.c - a set's error message: the one readable message of the last
 * failure (nplus1rt_set_errmsg), set by the launcher (set.c), the passes
 * (set_passes.c) and the measured choice (set_choice.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "set_internal.h"

/* fmt formatted into a malloc'd string, or NULL. */
static char *format_msg(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (m)
        vsnprintf(m, (size_t)n + 1, fmt, again);
    va_end(again);
    return m;
}

char *set_new_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = format_msg(fmt, ap);
    va_end(ap);
    return m;
}

void set_msg(nplus1rt_set *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = format_msg(fmt, ap);
    va_end(ap);
    if (!m)
        return;
    free(s->errmsg);
    s->errmsg = m;
}

const char *nplus1rt_set_errmsg(const nplus1rt_set *s)
{
    return s && s->errmsg ? s->errmsg : "no error";
}

cl_int set_fail(nplus1rt_set *s, cl_int err, const char *what)
{
    set_msg(s, "%s: %s (%d)", what, nplus1_strerror(err), (int)err);
    return err;
}
