/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_int.h - shared inside the emit stage; nothing outside it includes
 * this. Who calls whom: emit.c (the entry and the kernel file's assembly)
 * calls emit_kernel.c, loop_emit.c, emit_driver.c and emit_manifest.c; they
 * all call emit_text.c and text_edits.c, which call none of them.
 */
#ifndef NPLUS1_EMIT_INT_H
#define NPLUS1_EMIT_INT_H

#include "emit.h"
#include "macro_deps.h"
#include "parse_facts.h"
#include "template.h"
#include "util.h"
#include "version.h"

#ifndef NPLUS1_VERSION
#define NPLUS1_VERSION "0.0.0"
#endif

typedef struct emitter {
    const plan *pl;
    const analysis *an;
    const emit_options *opt;
    tmpl_file kt, dh, dc, mf;
    char *err;
    size_t errlen;
    int failed;
    char wg[16];
    macro_deps md;    /* the macros the text depends on, and the #error lines for them */
} emitter;

#define NV(a) (sizeof(a) / sizeof *(a))

/* ---- emit_text.c: the text helpers of every emit file (it calls none of them) ---- */

/* Expands fragment frag of t into out; a failure sets e->failed (and e->err). */
void emit_expand(emitter *e, strbuf *out, const tmpl_file *t, const char *frag,
                 const tmpl_var *vars, unsigned nvars);
/* The same for a fragment of kernel.cl.tmpl that is a piece of a line: without its newline. */
void emit_expand_inline(emitter *e, strbuf *out, const char *frag, const tmpl_var *vars,
                        unsigned nvars);
/* Strategy tile (--strategy tile, or the only split under --split auto, auto_tile.h): the
 * set is the tile kernel alone (no passes, no leaf kernels). */
int emit_tile_only(const kernel_plan *kp);
/* The set carries a tile kernel: --strategy tile, or beside the chosen strategy's
 * kernels under --split auto (auto_tile.h: plain, with the context, or the loop's). */
int emit_carries_tile(const kernel_plan *kp);
/* "#line line "file"" before a piece of the user's text (unless --no-line). */
void emit_put_line(strbuf *sb, const emitter *e, unsigned file, unsigned line);
/* LINE_BACK after a piece of the user's text: the generated file's numbering again. */
void emit_put_line_back(strbuf *sb, const emitter *e);
/* The same at the end of a leaf body (its closing brace last): a newline, then LINE_BACK. */
void emit_put_line_back_after_body(strbuf *sb, const emitter *e);
/* The path #line names for file (NULL under --no-line). */
const char *emit_line_path(const emitter *e, unsigned file);
/* "K<suffix>" quoted (NPLUS1RT_SUFFIX_*), or none (NULL in C, null in JSON), in n bytes. */
void emit_quoted_kernel(char *out, size_t n, int present, const char *k, const char *suffix,
                        const char *none);
/* Comment-safe copy of a condition (no "*" "/" sequence). */
char *emit_comment_safe(const char *s);
/* The first leaf of leaf kernel kn. */
const leaf *emit_kernel_leaf(const kernel_plan *kp, int kn);
/* The merged kernel's condition, as its comments and the driver name it. */
char *emit_merged_condition(const kernel_plan *kp);
/* Drops sb's last newline: a list of fragments as the value of a ${NAME} on its own line. */
void emit_text_chomp(strbuf *sb);

/* ---- text_edits.c: the user's text with edits spliced in by offset ---- */

typedef struct edit {
    unsigned begin, end;
    char *text;
} edit;

typedef struct edits {
    edit *v;
    unsigned n, cap;
    /* Non-NULL: the text's file, as #line names it. An edit whose text has
     * another number of lines than the text it replaces is followed by a
     * #line directive, so the user's lines after it keep their numbers. */
    const char *line_path;
} edits;

/* "#line N" back into the generated file: text_lines_resolved() numbers it. */
#define LINE_BACK "#line 0 \"\001nplus1\""

void emit_add_edit(edits *es, unsigned begin, unsigned end, const char *text);
void emit_edits_free(edits *es);
/* Appends text[begin, end) with the edits applied (the active text of file, given an). */
void emit_put_edited_in(strbuf *sb, const analysis *an, unsigned file, const char *text,
                        unsigned begin, unsigned end, edits *es);
void emit_put_edited(strbuf *sb, const char *text, unsigned begin, unsigned end, edits *es);
/* The line of offset off in text (1-based). */
unsigned emit_text_line_at(const char *text, unsigned off);
/* A line "#line N "path"" (path escaped as a C string), ending in a newline. */
void emit_put_line_directive(strbuf *sb, unsigned line, const char *path);
/* text with each LINE_BACK line made "#line N "generated"" (the generated file's own
 * numbering from there on; one line for one, so no line moves); text is freed. */
char *emit_text_lines_resolved(char *text, const char *generated);

/* ---- emit.c: the macros the original text changes after a kernel or helper ---- */

/* Before the generated text of who: #undef and #define each macro of r as it was at who;
 * after it: as the original text leaves it. Nothing when r is empty. */
void emit_macro_restore(emitter *e, strbuf *sb, const macro_restores *r, const char *who);
void emit_macro_after(emitter *e, strbuf *sb, const macro_restores *r, const char *who);

/* ---- emit_kernel.c: the pieces made from the user's text ---- */

typedef struct inclusions {
    const analysis *an;
    const macro_deps *md;
    parse_inclusion *v; /* the user's #include lines, entered or not (parse_inclusions) */
    unsigned n;
    int lines;          /* #line directives before each file's text (not --no-line) */
    emitter *e;         /* the template of the markers */
} inclusions;
/* The text of file with its user headers inlined between nplus1gen markers. */
void emit_file_inlined(strbuf *sb, const inclusions *inc, unsigned file, unsigned depth);
/* Copies of the helpers that call work-item builtins, taking the original ids. */
void emit_helpers(emitter *e, strbuf *sb);
/* The classifier's body; with cx, it runs the whole prologue and keeps the context. */
char *emit_classifier_body(emitter *e, const kernel_plan *kp, const kernel_context *cx);
/* The edits that turn the kernel's body into leaf lf's (each decision on its path). */
void emit_path_edits(emitter *e, const leaf *lf, edits *es);
char *emit_leaf_body(emitter *e, const kernel_plan *kp, const leaf *lf);
/* The merged kernel runs the original body: its cheap leaves diverge cheaply. */
char *emit_leaf_body_merged(emitter *e, const kernel_plan *kp);
char *emit_in_place_body(emitter *e, const kernel_plan *kp);

/* ---- loop_emit.c: the loop shape (loop.h) ---- */

/* Appends kp's loop set (kp->loop.active): the loop functions and the tile kernel. */
void loop_emit_set(emitter *e, const kernel_plan *kp, strbuf *sb);

/* ---- machine_emit.c: the state machine (machine.h) ---- */

/* Appends kp's state machine (kp->machine.active): the context, the resumable body and the
 * tile kernel, between machine-begin and machine-end. */
void machine_emit_set(emitter *e, const kernel_plan *kp, strbuf *sb);

/* ---- emit_driver.c: <stem>_nplus1.h and <stem>_nplus1.c ---- */

char *emit_driver_h(emitter *e);
char *emit_driver_c(emitter *e, const char *source);
/* The kernel's nplus1rt_set_desc as a JSON object (the manifest's "set_desc"). */
char *emit_set_desc_json(const emitter *e, const kernel_plan *kp);

/* ---- emit_manifest.c: <stem>.nplus1.json ---- */

char *emit_manifest(emitter *e);

#endif
