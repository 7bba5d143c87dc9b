/* SPDX-License-Identifier: Apache-2.0 */
/* diag.c - clang-style diagnostics with the source line and a caret. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *level_name(diag_level level)
{
    switch (level) {
    case DIAG_NOTE: return "note";
    case DIAG_WARNING: return "warning";
    default: return "error";
    }
}

void diag_init(diag_sink *d)
{
    memset(d, 0, sizeof *d);
}

static void count(diag_sink *d, diag_level level)
{
    if (level == DIAG_ERROR)
        d->errors++;
    else if (level == DIAG_WARNING)
        d->warnings++;
}

/* Length of the printable character at p (1-4 bytes of valid UTF-8), or 0. */
static size_t char_len(const unsigned char *p, size_t n)
{
    if (p[0] >= 0x20 && p[0] < 0x7f)
        return 1;
    size_t len = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
               : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0; /* overlong, surrogate, beyond U+10FFFF */
    return len;
}

/*
 * Writes s with control bytes and invalid UTF-8 shown as '?' (tabs kept): text
 * from a hostile input must not put escape sequences on the user's terminal.
 */
static void put_clean(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = char_len(p + i, n - i);
        if (len == 0) {
            fputc(p[i] == '\t' ? '\t' : '?', stderr);
            i++;
        } else {
            fwrite(p + i, 1, len, stderr);
            i += len;
        }
    }
}

#define LINE_WINDOW 400 /* longer source lines are shown around the column */

/* Prints the line of loc and a caret under its column (tabs kept). */
static void print_source_line(const diag_loc *loc)
{
    if (!loc || !loc->text || loc->line == 0)
        return;
    const char *p = loc->text, *end = loc->text + loc->text_len;
    for (unsigned line = 1; line < loc->line && p < end; p++)
        if (*p == '\n')
            line++;
    if (p >= end && loc->line > 1)
        return;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        eol = end;
    size_t n = (size_t)(eol - p);
    if (n > 0 && p[n - 1] == '\r')
        n--;
    size_t col = loc->col ? loc->col - 1 : 0, from = 0;
    if (n > LINE_WINDOW) {
        from = col > LINE_WINDOW / 2 ? col - LINE_WINDOW / 2 : 0;
        while (from < n && (p[from] & 0xc0) == 0x80)
            from++; /* not in the middle of a character */
        if (from > n)
            from = n;
        fputs(from ? "..." : "", stderr);
        put_clean(p + from, n - from < LINE_WINDOW ? n - from : LINE_WINDOW);
        fputs(n - from > LINE_WINDOW ? "...\n" : "\n", stderr);
    } else {
        put_clean(p, n);
        fputc('\n', stderr);
    }
    if (from)
        fputs("   ", stderr);
    for (size_t c = from; c < col && c < n && c < from + LINE_WINDOW; c++)
        fputc(p[c] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
}

/* Keeps the first error of d in d->first, when d asks for it. */
static void keep_first(diag_sink *d, diag_level level, const diag_loc *loc, const char *rule,
                       const char *msg)
{
    if (!d->first || d->first->set || level != DIAG_ERROR)
        return;
    d->first->set = 1;
    snprintf(d->first->rule, sizeof d->first->rule, "%s", rule ? rule : "");
    snprintf(d->first->message, sizeof d->first->message, "%s", msg ? msg : "");
    d->first->line = loc && loc->path ? loc->line : 0;
    d->first->col = loc && loc->path ? loc->col : 0;
}

/* Keeps a diagnostic of a recording sink (d->record) to print later. */
static void keep(diag_sink *d, diag_level level, const diag_loc *loc, const char *rule,
                 const char *msg)
{
    diag_recorded r;
    memset(&r, 0, sizeof r);
    r.level = level;
    if (loc)
        r.loc = *loc;
    r.rule = rule;
    r.msg = xstrdup(msg);
    VEC_PUSH(d->recorded, d->nrecorded, d->caprecorded, r);
}

void diag_report(diag_sink *d, diag_level level, const diag_loc *loc,
                 const char *rule, const char *fmt, ...)
{
    count(d, level);
    if (d->quiet && !d->first && !d->record)
        return;
    strbuf msg;
    sb_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&msg, fmt, ap);
    va_end(ap);
    keep_first(d, level, loc, rule, msg.data);
    if (d->quiet) {
        if (d->record)
            keep(d, level, loc, rule, msg.data ? msg.data : "");
        sb_free(&msg);
        return;
    }
    if (loc && loc->path) {
        put_clean(loc->path, strlen(loc->path));
        fprintf(stderr, ":%u:%u: ", loc->line, loc->col);
    } else {
        fputs("nplus1gen: ", stderr);
    }
    fprintf(stderr, "%s: ", level_name(level));
    put_clean(msg.data ? msg.data : "", msg.len);
    sb_free(&msg);
    if (rule)
        fprintf(stderr, " [%s]", rule);
    fputc('\n', stderr);
    print_source_line(loc);
}

void diag_report_raw(diag_sink *d, diag_level level, const char *formatted,
                     const diag_loc *loc)
{
    count(d, level);
    keep_first(d, level, loc, NULL, formatted);
    if (d->quiet)
        return;
    put_clean(formatted, strlen(formatted));
    fputc('\n', stderr);
    print_source_line(loc);
}

void diag_replay(const diag_sink *from, diag_sink *to)
{
    for (unsigned i = 0; i < from->nrecorded; i++) {
        const diag_recorded *r = &from->recorded[i];
        diag_report(to, r->level, r->loc.path ? &r->loc : NULL, r->rule, "%s", r->msg);
    }
}

void diag_free(diag_sink *d)
{
    for (unsigned i = 0; i < d->nrecorded; i++)
        free(d->recorded[i].msg);
    free(d->recorded);
    d->recorded = NULL;
    d->nrecorded = d->caprecorded = 0;
}
