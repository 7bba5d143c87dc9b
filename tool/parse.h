/*
 * parse.h - the parse stage: one libclang translation unit for the input,
 * the text of every file the later stages cut ranges from, and resolution
 * of libclang locations to (file, offset, line, column).
 */
#ifndef NPLUS1_PARSE_H
#define NPLUS1_PARSE_H

#include <clang-c/Index.h>

#include "diag.h"

typedef struct parse_options {
    const char *cl_std;          /* "CL1.2" unless given */
    const char **defines;        /* -D values ("N=4") */
    unsigned ndefines;
    const char **include_dirs;   /* -I values */
    unsigned nincludes;
} parse_options;

typedef struct src_file {
    char *path;
    char *text;
    size_t len;
    CXFile cxfile;
} src_file;

typedef struct parse_result {
    CXIndex index;
    CXTranslationUnit tu;
    src_file *files;     /* [0] is the main file */
    unsigned nfiles, capfiles;
    diag_sink *diag;
} parse_result;

/* A position in one of the loaded files. */
typedef struct src_pos {
    unsigned file;       /* index into files */
    unsigned offset;
    unsigned line, col;
} src_pos;

/*
 * Parses path. Returns 0 on success, 1 when the input has errors (clang's
 * diagnostics were reported, or the file cannot be read), 3 on an internal
 * failure. On success the caller calls parse_free.
 */
int parse_input(parse_result *pr, const char *path, const parse_options *opt,
                diag_sink *diag);
void parse_free(parse_result *pr);

/* The loaded file for cx (loads its text on first use); -1 if unreadable. */
int parse_file_index(parse_result *pr, CXFile cx);

/*
 * Resolves loc to its expansion position (where a macro was invoked, not
 * where it was defined). Returns 0, or -1 for locations outside any file.
 */
int parse_resolve(parse_result *pr, CXSourceLocation loc, src_pos *out);

/* True when loc's spelling is inside a macro definition (not in the file text). */
int parse_in_macro(CXSourceLocation loc);

/* A diagnostic location for loc (path NULL when it has none). */
diag_loc parse_diag_loc(parse_result *pr, CXSourceLocation loc);

#endif
