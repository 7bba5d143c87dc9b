/* diag.c - clang-style diagnostics with the source line and a caret. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
    fprintf(stderr, "%.*s\n", (int)n, p);
    for (unsigned c = 1; c < loc->col && c - 1 < n; c++)
        fputc(p[c - 1] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
}

void diag_report(diag_sink *d, diag_level level, const diag_loc *loc,
                 const char *rule, const char *fmt, ...)
{
    count(d, level);
    if (d->quiet)
        return;
    if (loc && loc->path)
        fprintf(stderr, "%s:%u:%u: ", loc->path, loc->line, loc->col);
    else
        fputs("nplus1gen: ", stderr);
    fprintf(stderr, "%s: ", level_name(level));
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (rule)
        fprintf(stderr, " [%s]", rule);
    fputc('\n', stderr);
    print_source_line(loc);
}

void diag_report_raw(diag_sink *d, diag_level level, const char *formatted,
                     const diag_loc *loc)
{
    count(d, level);
    if (d->quiet)
        return;
    fprintf(stderr, "%s\n", formatted);
    print_source_line(loc);
}
