/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parse.h - the parse stage: one libclang translation unit for the input,
 * the text of every file the later stages cut ranges from, and resolution
 * of libclang locations to (file, offset, line, column).
 */
#ifndef NPLUS1_PARSE_H
#define NPLUS1_PARSE_H

#include <clang-c/Index.h>

#include "diag.h"
#include "util.h"

typedef struct parse_options {
    const char *cl_std;          /* "CL1.2" unless given */
    const char **defines;        /* -D values ("N=4") */
    unsigned ndefines;
    const char **include_dirs;   /* -I values */
    unsigned nincludes;
} parse_options;

/* Text the compiler does not see: a skipped #if block, or a conditional directive line. */
typedef struct inactive_range {
    unsigned begin, end;
} inactive_range;

typedef struct src_file {
    char *path;
    char *text;
    size_t len;
    CXFile cxfile;
    inactive_range *inactive;    /* sorted, disjoint; see parse_inactive */
    unsigned ninactive;
    int inactive_ready;
    unsigned *line_starts;       /* offset of each line's first byte; made on first use */
    unsigned nlines;
    inactive_range *dropped;     /* sorted: text the generated kernels leave out (a kernel's
                                  * trailing barrier, parse_drop_text) */
    unsigned ndropped;
    unsigned *newlines;          /* offset of each '\n'; made on first use (parse_newline_line) */
    unsigned nnewlines;
    int newlines_ready;
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

/*
 * The inactive text of a loaded file: the blocks the preprocessor skipped
 * under the -D set, and every conditional directive line (#if, #ifdef,
 * #ifndef, #elif, #else, #endif). Leaves and the classifier are cut from
 * the active text, so they never hold half of an #if. Computed on first use.
 */
const src_file *parse_inactive(parse_result *pr, unsigned file);

/* A conditional directive line of a file's text (outside comments). */
typedef enum pp_kind {
    PP_IF, PP_IFDEF, PP_IFNDEF, PP_ELIF, PP_ELIFDEF, PP_ELIFNDEF, PP_ELSE, PP_ENDIF
} pp_kind;

typedef struct pp_directive {
    pp_kind kind;
    unsigned begin, end;  /* the line: its start, and its '\n' (or the end of the text) */
    unsigned hash;        /* the '#' */
    unsigned cond;        /* just after the directive's name: where its condition starts */
} pp_directive;

/* The conditional directives of f in text order, malloc'd in *out; returns the count. */
unsigned parse_directives(const src_file *f, pp_directive **out);

/* off, or the end of the inactive range that holds it. */
unsigned parse_skip_inactive(parse_result *pr, unsigned file, unsigned off);

/*
 * 1 + the '\n' bytes of file's text before off: the line the generated #line directives
 * name (a '\r' alone ends no line there). A binary search in a table made on first use, so
 * that 10,000 kernels' copies do not each count from the file's start.
 */
unsigned parse_newline_line(parse_result *pr, unsigned file, unsigned off);

/* Appends the active text of file[begin, end): inactive text is dropped, its newlines kept;
 * a range parse_drop_text names becomes `(void)0` and a comment, its newlines kept. */
void parse_put_active(parse_result *pr, strbuf *sb, unsigned file, unsigned begin,
                      unsigned end);
/* Leaves file[begin, end) out of the text parse_put_active gives: the analysis names a
 * kernel's trailing barrier (docs/legality.md), which every generated kernel leaves out.
 * The main file's copy of the user's source keeps it. Naming a range again does nothing. */
void parse_drop_text(parse_result *pr, unsigned file, unsigned begin, unsigned end);

/* The first error clang finds in a text (line 0: no location). */
typedef struct parse_error {
    unsigned line, col, offset;
    char message[512];
} parse_error;

/*
 * Parses text (an in-memory file called name) with opt's -cl-std and -I,
 * as the input was (its -D are not passed: the text defines them). Returns
 * the number of errors, the first in *first.
 */
int parse_check_text(const char *name, const char *text, const parse_options *opt,
                     parse_error *first);

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

/*
 * The blocks libclang skipped in files[file] (inactive #if arms), as it reports
 * them: (*out)[2i] and (*out)[2i+1] are the begin and end offsets of block i.
 * Returns the number of blocks; *out is never NULL (caller frees).
 */
unsigned parse_skipped_ranges(parse_result *pr, unsigned file, unsigned **out);

#endif
