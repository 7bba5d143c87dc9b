/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util.h - small pieces every stage uses: a growable string buffer, a
 * growable pointer vector, checked allocation, and file reading.
 */
#ifndef NPLUS1_UTIL_H
#define NPLUS1_UTIL_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;

void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
void sb_putn(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Appends s as the body of a C string literal (escapes quotes, newlines). */
void sb_put_c_string(strbuf *sb, const char *s, size_t n);
/* Appends s as the body of a JSON string. */
void sb_put_json_string(strbuf *sb, const char *s, size_t n);
char *sb_steal(strbuf *sb); /* returns the NUL-terminated text; sb is reset */

/* Allocation that aborts the run with exit code 3 on out-of-memory. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Appends p to a growable array of pointers. */
#define VEC_PUSH(arr, n, cap, item)                                     \
    do {                                                                \
        if ((n) == (cap)) {                                             \
            (cap) = (cap) ? 2 * (cap) : 8;                              \
            (arr) = xrealloc((arr), (cap) * sizeof *(arr));             \
        }                                                               \
        (arr)[(n)++] = (item);                                          \
    } while (0)

/* VEC_PUSH for an array that keeps no capacity: it holds the next power of two of its
 * count, so it doubles when the count is 0 or a power of two (full). */
#define VEC_PUSH_POW2(arr, n, item)                                     \
    do {                                                                \
        if (((n) & ((n) - 1)) == 0)                                     \
            (arr) = xrealloc((arr), ((n) ? 2 * (n) : 1) * sizeof *(arr)); \
        (arr)[(n)++] = (item);                                          \
    } while (0)

/*
 * Reads a whole file. Returns 0 and a malloc'd NUL-terminated buffer, or
 * -1 with errno set (a directory gives EISDIR, any other file that is not a
 * regular file EINVAL).
 */
int read_file(const char *path, char **text, size_t *len);

#endif
