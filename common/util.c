/* SPDX-License-Identifier: Apache-2.0 */
/* util.c - string buffers, checked allocation, file reading. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void out_of_memory(void)
{
    fputs("nplus1gen: internal error: out of memory\n", stderr);
    exit(3);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void sb_init(strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    sb_init(sb);
}

static void sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
}

void sb_putn(strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s)
{
    sb_putn(sb, s, strlen(s));
}

void sb_putc(strbuf *sb, char c)
{
    sb_putn(sb, &c, 1);
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_put_c_string(strbuf *sb, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\\': sb_puts(sb, "\\\\"); break;
        case '"': sb_puts(sb, "\\\""); break;
        case '\n': sb_puts(sb, "\\n\"\n    \""); break;
        case '\t': sb_puts(sb, "\\t"); break;
        case '\r': sb_puts(sb, "\\r"); break;
        case '?': sb_puts(sb, "\\?"); break; /* no trigraphs */
        default:
            if (c < 0x20 || c >= 0x7f)
                sb_printf(sb, "\\%03o", c);
            else
                sb_putc(sb, (char)c);
        }
    }
}

void sb_put_json_string(strbuf *sb, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            sb_printf(sb, "\\%c", c);
        else if (c == '\n')
            sb_puts(sb, "\\n");
        else if (c < 0x20 || c >= 0x7f)
            sb_printf(sb, "\\u%04x", c);
        else
            sb_putc(sb, (char)c);
    }
}

char *sb_steal(strbuf *sb)
{
    char *d = sb->data ? sb->data : xstrdup("");
    sb_init(sb);
    return d;
}

int read_file(const char *path, char **text, size_t *len)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) { /* /dev/zero never ends; a FIFO may never be written */
        errno = EINVAL;
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    strbuf sb;
    sb_init(&sb);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_putn(&sb, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sb_free(&sb);
        errno = EIO;
        return -1;
    }
    *len = sb.len;
    *text = sb_steal(&sb);
    return 0;
}
