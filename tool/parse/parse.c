/* SPDX-License-Identifier: Apache-2.0 */
/* parse.c - libclang front end: one TU, loaded file texts, locations. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "big_stack.h"
#include "builtins.h"
#include "parse_facts.h"
#include "util.h"
#include "rules.h"
#include "progress.h"

static int add_file(parse_result *pr, const char *path, CXFile cx)
{
    char *text;
    size_t len;
    if (read_file(path, &text, &len) != 0)
        return -1;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        memset(text, ' ', 3); /* a UTF-8 byte-order mark, which clang skips: offsets and
                                 columns stay clang's, and no text cut from here carries it */
    src_file f = {xstrdup(path), text, len, cx, NULL, 0, 0, NULL, 0, NULL, 0, NULL, 0, 0};
    VEC_PUSH(pr->files, pr->nfiles, pr->capfiles, f);
    return (int)pr->nfiles - 1;
}

int parse_file_index(parse_result *pr, CXFile cx)
{
    if (!cx)
        return -1;
    for (unsigned i = 0; i < pr->nfiles; i++)
        if (pr->files[i].cxfile && clang_File_isEqual(pr->files[i].cxfile, cx))
            return (int)i;
    CXString name = clang_getFileName(cx);
    int idx = add_file(pr, clang_getCString(name), cx);
    clang_disposeString(name);
    return idx;
}

/* The lines as clang counts them: a line ends at '\n', '\r' or "\r\n". */
static const unsigned *line_starts(src_file *f)
{
    if (f->line_starts)
        return f->line_starts;
    unsigned cap = 0;
    VEC_PUSH(f->line_starts, f->nlines, cap, 0u);
    for (size_t i = 0; i < f->len; i++) {
        if (f->text[i] == '\r' && i + 1 < f->len && f->text[i + 1] == '\n')
            i++;
        if (f->text[i] == '\n' || f->text[i] == '\r')
            VEC_PUSH(f->line_starts, f->nlines, cap, (unsigned)(i + 1));
    }
    return f->line_starts;
}

unsigned parse_newline_line(parse_result *pr, unsigned file, unsigned off)
{
    src_file *f = &pr->files[file];
    if (!f->newlines_ready) {
        unsigned cap = 0;
        for (size_t i = 0; i < f->len; i++)
            if (f->text[i] == '\n')
                VEC_PUSH(f->newlines, f->nnewlines, cap, (unsigned)i);
        f->newlines_ready = 1;
    }
    unsigned lo = 0, hi = f->nnewlines; /* the newlines before off: [0, lo) */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (f->newlines[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 1 + lo;
}

/*
 * The column of offset off on line line, from the file's own line table.
 * clang's column lookup scans back to the start of the line unless it has
 * the line's end in its table, which it never has for a last line without
 * a final newline: 100,000 statements on such a line took minutes. Where
 * the table and clang disagree on the line (a file changed while read),
 * clang's column is taken.
 */
static unsigned column_of(src_file *f, CXSourceLocation loc, unsigned line, unsigned off)
{
    const unsigned *ls = line_starts(f);
    if (line >= 1 && line <= f->nlines && ls[line - 1] <= off && off <= f->len &&
        (line == f->nlines || off < ls[line]))
        return off - ls[line - 1] + 1;
    unsigned col;
    clang_getExpansionLocation(loc, NULL, NULL, &col, NULL);
    return col;
}

int parse_resolve(parse_result *pr, CXSourceLocation loc, src_pos *out)
{
    CXFile file;
    unsigned line, off;
    clang_getExpansionLocation(loc, &file, &line, NULL, &off); /* the column: column_of */
    int idx = parse_file_index(pr, file);
    if (idx < 0)
        return -1;
    out->file = (unsigned)idx;
    out->offset = off;
    out->line = line;
    out->col = column_of(&pr->files[idx], loc, line, off);
    return 0;
}

int parse_in_macro(CXSourceLocation loc)
{
    CXFile ef, sf;
    unsigned eoff, soff;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eoff);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
    return eoff != soff || !clang_File_isEqual(ef, sf);
}

diag_loc parse_diag_loc(parse_result *pr, CXSourceLocation loc)
{
    diag_loc d = {0};
    src_pos p;
    if (parse_resolve(pr, loc, &p) != 0)
        return d;
    src_file *f = &pr->files[p.file];
    d.path = f->path;
    d.line = p.line;
    d.col = p.col;
    d.text = f->text;
    d.text_len = f->len;
    return d;
}

static diag_level level_of(enum CXDiagnosticSeverity s)
{
    if (s >= CXDiagnostic_Error)
        return DIAG_ERROR;
    return s == CXDiagnostic_Warning ? DIAG_WARNING : DIAG_NOTE;
}

/*
 * A work-group or sub-group builtin of an extension (intel_sub_group_shuffle)
 * that this parser does not declare: clang 14 calls the call an implicit
 * declaration, clang 16 a use of an undeclared identifier. It is refused by
 * the rule that refuses every group builtin.
 */
static int report_group_builtin(parse_result *pr, CXDiagnostic dg)
{
    CXString sp = clang_getDiagnosticSpelling(dg);
    const char *m = clang_getCString(sp), *q1 = strchr(m, '\''), *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
    int group = 0;
    int undeclared = !strncmp(m, "implicit declaration of function", 32) ||
                     !strncmp(m, "use of undeclared identifier", 28);
    if (undeclared && q1 && q2) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(q2 - q1 - 1), q1 + 1);
        group = builtins_is_group_function(name);
        if (group) {
            diag_loc loc = parse_diag_loc(pr, clang_getDiagnosticLocation(dg));
            diag_report(pr->diag, DIAG_ERROR, &loc, rule_name(RULE_GROUP_FUNCTION),
                        "the kernel calls '%s', a work-group or sub-group builtin (of an "
                        "extension this parser does not declare)", name);
            diag_report(pr->diag, DIAG_NOTE, &loc, NULL,
                        "work-group and sub-group functions combine the items of one group, "
                        "and the leaf kernels re-form groups");
        }
    }
    clang_disposeString(sp);
    return group;
}

/* Reports clang's own diagnostics as clang shows them; returns the error count. */
static unsigned report_clang_diagnostics(parse_result *pr)
{
    unsigned errors = 0, n = clang_getNumDiagnostics(pr->tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic dg = clang_getDiagnostic(pr->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev >= CXDiagnostic_Error && report_group_builtin(pr, dg)) {
            errors++;
        } else if (sev >= CXDiagnostic_Warning) {
            CXString s = clang_formatDiagnostic(dg, clang_defaultDiagnosticDisplayOptions());
            diag_loc loc = parse_diag_loc(pr, clang_getDiagnosticLocation(dg));
            diag_report_raw(pr->diag, level_of(sev), clang_getCString(s), &loc);
            clang_disposeString(s);
            errors += sev >= CXDiagnostic_Error;
        }
        clang_disposeDiagnostic(dg);
    }
    return errors;
}

/*
 * libclang parses on a thread of its own with an 8 MiB stack, under a crash
 * handler that cannot run once a stack has overflowed: a 25,000-term sum
 * killed the process. Parse on the caller's thread instead, whose stack
 * (big_stack.h) is large and whose fault handler reports an overflow.
 */
static void parse_on_this_thread(void)
{
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
}

static const char **build_args(const parse_options *opt, unsigned *nargs, strbuf *std)
{
    unsigned cap = 8 + 2 * (opt->ndefines + opt->nincludes);
    const char **args = xcalloc(cap, sizeof *args);
    unsigned n = 0;
    sb_printf(std, "-cl-std=%s", opt->cl_std ? opt->cl_std : "CL1.2");
    args[n++] = "-x";
    args[n++] = "cl";
    args[n++] = std->data;
    args[n++] = "-Xclang";
    args[n++] = "-finclude-default-header";
    args[n++] = "-Xclang";
    args[n++] = "-fdeclare-opencl-builtins";
    for (unsigned i = 0; i < opt->ndefines; i++) {
        args[n++] = "-D";
        args[n++] = opt->defines[i];
    }
    for (unsigned i = 0; i < opt->nincludes; i++) {
        args[n++] = "-I";
        args[n++] = opt->include_dirs[i];
    }
    *nargs = n;
    return args;
}

int parse_input(parse_result *pr, const char *path, const parse_options *opt,
                diag_sink *diag)
{
    memset(pr, 0, sizeof *pr);
    pr->diag = diag;
    progress_stage("parsing %s", path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        /* a device or FIFO may never end, and clang reads the input a second time */
        diag_report(diag, DIAG_ERROR, NULL, NULL, "'%s' is not a regular file", path);
        return 1;
    }
    if (add_file(pr, path, NULL) < 0) {
        diag_report(diag, DIAG_ERROR, NULL, NULL, "cannot read '%s': %s", path,
                    strerror(errno));
        return 1;
    }
    if (memchr(pr->files[0].text, '\0', pr->files[0].len)) {
        diag_report(diag, DIAG_ERROR, NULL, NULL,
                    "'%s' contains NUL bytes: not an OpenCL C source file", path);
        return 1;
    }
    strbuf std;
    sb_init(&std);
    unsigned nargs;
    const char **args = build_args(opt, &nargs, &std);
    big_stack_note_input(path);
    parse_on_this_thread();
    pr->index = clang_createIndex(0, 0);
    enum CXErrorCode rc = clang_parseTranslationUnit2(
        pr->index, path, args, (int)nargs, NULL, 0,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &pr->tu);
    free(args);
    sb_free(&std);
    if (rc != CXError_Success || !pr->tu) {
        diag_report(diag, DIAG_ERROR, NULL, NULL, "libclang could not parse '%s' (error %d)",
                    path, (int)rc);
        return 3;
    }
    pr->files[0].cxfile = clang_getFile(pr->tu, path);
    return report_clang_diagnostics(pr) ? 1 : 0;
}

int parse_check_text(const char *name, const char *text, const parse_options *opt,
                     parse_error *first)
{
    memset(first, 0, sizeof *first);
    parse_options o = *opt;
    o.ndefines = 0; /* the generated file defines them itself */
    strbuf std;
    sb_init(&std);
    unsigned nargs;
    const char **args = build_args(&o, &nargs, &std);
    struct CXUnsavedFile file = {name, text, (unsigned long)strlen(text)};
    parse_on_this_thread();
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode rc = clang_parseTranslationUnit2(
        index, name, args, (int)nargs, &file, 1,
        CXTranslationUnit_KeepGoing, &tu);
    free(args);
    sb_free(&std);
    int errors = 0;
    if (rc != CXError_Success || !tu) {
        snprintf(first->message, sizeof first->message, "libclang could not parse it (error %d)",
                 (int)rc);
        errors = 1;
    }
    unsigned n = tu ? clang_getNumDiagnostics(tu) : 0;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error && errors++ == 0) {
            CXString s = clang_getDiagnosticSpelling(dg);
            snprintf(first->message, sizeof first->message, "%s", clang_getCString(s));
            clang_disposeString(s);
            CXFile f;
            clang_getExpansionLocation(clang_getDiagnosticLocation(dg), &f, &first->line,
                                       &first->col, &first->offset);
        }
        clang_disposeDiagnostic(dg);
    }
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return errors;
}

void parse_free(parse_result *pr)
{
    for (unsigned i = 0; i < pr->nfiles; i++) {
        free(pr->files[i].path);
        free(pr->files[i].text);
        free(pr->files[i].inactive);
        free(pr->files[i].dropped);
        free(pr->files[i].line_starts);
        free(pr->files[i].newlines);
    }
    free(pr->files);
    if (pr->tu)
        clang_disposeTranslationUnit(pr->tu);
    if (pr->index)
        clang_disposeIndex(pr->index);
    memset(pr, 0, sizeof *pr);
}

/* ---- inactive text ----------------------------------------------------- */

static const char *const directive_names[] = {"if", "ifdef", "ifndef", "elif", "elifdef",
                                              "elifndef", "else", "endif", NULL};

static int conditional_directive(const char *w, size_t n)
{
    for (int i = 0; directive_names[i]; i++)
        if (strlen(directive_names[i]) == n && !strncmp(w, directive_names[i], n))
            return i;
    return -1;
}

/* The end of the line at off (the '\n' or the end), following backslash continuations. */
static size_t line_end(const char *t, size_t len, size_t off)
{
    while (off < len && t[off] != '\n')
        off++;
    while (off < len && off > 0 && t[off - 1] == '\\') {
        off++;
        while (off < len && t[off] != '\n')
            off++;
    }
    return off;
}

static void add_inactive(src_file *f, unsigned *cap, size_t begin, size_t end)
{
    inactive_range r = {(unsigned)begin, (unsigned)end};
    VEC_PUSH(f->inactive, f->ninactive, *cap, r);
}

/* The directive at a line's first non-blank character p, if a conditional one. */
static int directive_at(const char *t, size_t p, size_t end, pp_directive *d)
{
    if (p >= end || t[p] != '#')
        return 0;
    size_t w = p + 1;
    while (w < end && (t[w] == ' ' || t[w] == '\t'))
        w++;
    size_t we = w;
    while (we < end && (isalpha((unsigned char)t[we]) || t[we] == '_'))
        we++;
    int kind = conditional_directive(t + w, we - w);
    if (kind < 0)
        return 0;
    d->kind = (pp_kind)kind;
    d->hash = (unsigned)p;
    d->cond = (unsigned)we;
    return 1;
}

unsigned parse_directives(const src_file *f, pp_directive **out)
{
    const char *t = f->text;
    size_t len = f->len, i = 0;
    unsigned n = 0, cap = 0;
    int in_comment = 0;
    *out = NULL;
    while (i < len) {
        size_t end = line_end(t, len, i), p = i;
        while (!in_comment && p < end && (t[p] == ' ' || t[p] == '\t'))
            p++;
        pp_directive d;
        if (!in_comment && directive_at(t, p, end, &d)) {
            d.begin = (unsigned)i;
            d.end = (unsigned)end;
            VEC_PUSH(*out, n, cap, d);
        }
        for (size_t q = i; q + 1 < end; q++) { /* comments that continue past this line */
            if (!in_comment && t[q] == '/' && t[q + 1] == '/')
                break;
            if (!in_comment && t[q] == '/' && t[q + 1] == '*')
                in_comment = 1, q++;
            else if (in_comment && t[q] == '*' && t[q + 1] == '/')
                in_comment = 0, q++;
        }
        i = end + 1;
    }
    return n;
}

/* Conditional directive lines outside comments (a rough scanner: directives sit on their own lines). */
static void find_directive_lines(src_file *f, unsigned *cap)
{
    pp_directive *d;
    unsigned n = parse_directives(f, &d);
    for (unsigned i = 0; i < n; i++)
        add_inactive(f, cap, d[i].begin, d[i].end);
    free(d);
}

unsigned parse_skipped_ranges(parse_result *pr, unsigned file, unsigned **out)
{
    const src_file *f = &pr->files[file];
    CXSourceRangeList *l = pr->tu && f->cxfile ? clang_getSkippedRanges(pr->tu, f->cxfile) : NULL;
    unsigned n = l ? l->count : 0;
    *out = xcalloc(n ? 2 * n : 1, sizeof **out);
    for (unsigned i = 0; i < n; i++) {
        clang_getExpansionLocation(clang_getRangeStart(l->ranges[i]), NULL, NULL, NULL,
                                   &(*out)[2 * i]);
        clang_getExpansionLocation(clang_getRangeEnd(l->ranges[i]), NULL, NULL, NULL,
                                   &(*out)[2 * i + 1]);
    }
    if (l)
        clang_disposeSourceRangeList(l);
    return n;
}

/* The blocks libclang skipped (parse_skipped_ranges), widened to whole lines. */
static void find_skipped_blocks(parse_result *pr, unsigned file, unsigned *cap)
{
    src_file *f = &pr->files[file];
    unsigned *r;
    unsigned n = parse_skipped_ranges(pr, file, &r);
    for (unsigned i = 0; i < n; i++) {
        unsigned b = r[2 * i], e = r[2 * i + 1];
        if (b > e || e > f->len)
            continue;
        size_t lb = b;
        while (lb > 0 && (f->text[lb - 1] == ' ' || f->text[lb - 1] == '\t'))
            lb--;
        if (lb == 0 || f->text[lb - 1] == '\n')
            b = (unsigned)lb;
        add_inactive(f, cap, b, line_end(f->text, f->len, e));
    }
    free(r);
}

static int inactive_cmp(const void *a, const void *b)
{
    const inactive_range *x = a, *y = b;
    return (x->begin > y->begin) - (x->begin < y->begin);
}

static void merge_inactive(src_file *f)
{
    if (f->ninactive == 0)
        return;
    qsort(f->inactive, f->ninactive, sizeof *f->inactive, inactive_cmp);
    unsigned n = 0;
    for (unsigned i = 0; i < f->ninactive; i++) {
        if (n && f->inactive[i].begin <= f->inactive[n - 1].end) {
            if (f->inactive[i].end > f->inactive[n - 1].end)
                f->inactive[n - 1].end = f->inactive[i].end;
        } else {
            f->inactive[n++] = f->inactive[i];
        }
    }
    f->ninactive = n;
}

const src_file *parse_inactive(parse_result *pr, unsigned file)
{
    src_file *f = &pr->files[file];
    if (f->inactive_ready)
        return f;
    unsigned cap = 0;
    find_directive_lines(f, &cap);
    find_skipped_blocks(pr, file, &cap);
    merge_inactive(f);
    f->inactive_ready = 1;
    return f;
}

unsigned parse_skip_inactive(parse_result *pr, unsigned file, unsigned off)
{
    const src_file *f = parse_inactive(pr, file);
    for (unsigned i = 0; i < f->ninactive && f->inactive[i].begin <= off; i++)
        if (off < f->inactive[i].end)
            return f->inactive[i].end;
    return off;
}

static void put_active_piece(parse_result *pr, strbuf *sb, unsigned file, unsigned begin,
                             unsigned end)
{
    const src_file *f = parse_inactive(pr, file);
    unsigned pos = begin;
    for (unsigned i = 0; i < f->ninactive && pos < end; i++) {
        const inactive_range *r = &f->inactive[i];
        if (r->end <= pos || r->begin >= end)
            continue;
        if (r->begin > pos)
            sb_putn(sb, f->text + pos, r->begin - pos);
        unsigned stop = r->end < end ? r->end : end;
        for (unsigned j = r->begin > pos ? r->begin : pos; j < stop; j++)
            if (f->text[j] == '\n')
                sb_putc(sb, '\n');
        pos = stop;
    }
    if (pos < end)
        sb_putn(sb, f->text + pos, end - pos);
}

void parse_put_active(parse_result *pr, strbuf *sb, unsigned file, unsigned begin, unsigned end)
{
    const src_file *f = &pr->files[file];
    unsigned pos = begin;
    for (unsigned i = 0; i < f->ndropped; i++) {
        const inactive_range *d = &f->dropped[i];
        if (d->begin < pos || d->end > end)
            continue; /* only a range that lies whole in the text asked for */
        put_active_piece(pr, sb, file, pos, d->begin);
        sb_puts(sb, "(void)0 /* nplus1gen: left out, a barrier that ends the kernel orders "
                    "nothing */");
        for (unsigned j = d->begin; j < d->end; j++)
            if (f->text[j] == '\n')
                sb_putc(sb, '\n');
        pos = d->end;
    }
    put_active_piece(pr, sb, file, pos, end);
}

void parse_drop_text(parse_result *pr, unsigned file, unsigned begin, unsigned end)
{
    src_file *f = &pr->files[file];
    unsigned at = 0;
    while (at < f->ndropped && f->dropped[at].begin < begin)
        at++;
    if (at < f->ndropped && f->dropped[at].begin == begin)
        return;
    f->dropped = xrealloc(f->dropped, (f->ndropped + 1) * sizeof *f->dropped);
    memmove(&f->dropped[at + 1], &f->dropped[at], (f->ndropped - at) * sizeof *f->dropped);
    f->dropped[at] = (inactive_range){begin, end};
    f->ndropped++;
}
