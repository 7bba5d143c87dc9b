/* parse.c - libclang front end: one TU, loaded file texts, locations. */
#include "parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

static int add_file(parse_result *pr, const char *path, CXFile cx)
{
    char *text;
    size_t len;
    if (read_file(path, &text, &len) != 0)
        return -1;
    src_file f = {xstrdup(path), text, len, cx};
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

int parse_resolve(parse_result *pr, CXSourceLocation loc, src_pos *out)
{
    CXFile file;
    unsigned line, col, off;
    clang_getExpansionLocation(loc, &file, &line, &col, &off);
    int idx = parse_file_index(pr, file);
    if (idx < 0)
        return -1;
    out->file = (unsigned)idx;
    out->offset = off;
    out->line = line;
    out->col = col;
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

/* Reports clang's own diagnostics as clang shows them; returns the error count. */
static unsigned report_clang_diagnostics(parse_result *pr)
{
    unsigned errors = 0, n = clang_getNumDiagnostics(pr->tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic dg = clang_getDiagnostic(pr->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev >= CXDiagnostic_Warning) {
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

void parse_free(parse_result *pr)
{
    for (unsigned i = 0; i < pr->nfiles; i++) {
        free(pr->files[i].path);
        free(pr->files[i].text);
    }
    free(pr->files);
    if (pr->tu)
        clang_disposeTranslationUnit(pr->tu);
    if (pr->index)
        clang_disposeIndex(pr->index);
    memset(pr, 0, sizeof *pr);
}
