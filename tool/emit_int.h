/*
 * emit_int.h - shared inside the emit stage (emit.c, emit_kernel.c,
 * emit_driver.c, emit_manifest.c, text_edits.c); nothing outside it
 * includes this.
 */
#ifndef NPLUS1_EMIT_INT_H
#define NPLUS1_EMIT_INT_H

#include "emit.h"
#include "macro_deps.h"
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

/* ---- emit.c: the entry and the kernel file's assembly ---- */

/* Expands fragment frag of t into out; a failure sets e->failed (and e->err). */
void expand(emitter *e, strbuf *out, const tmpl_file *t, const char *frag,
            const tmpl_var *vars, unsigned nvars);
/* Strategy tile: the set is the tile kernel alone (no passes, no leaf kernels). */
int tile_only(const plan *pl);
/* The tile kernel comes with --strategy tile, and beside the chosen strategy's
 * kernels under --split auto. */
int emits_tile(const plan *pl);
/* The classify phase keeps the carried variables at nplus1_slot. */
void ctx_stores(strbuf *sb, const kernel_context *cx);

/* ---- text_edits.c: the user's text with edits spliced in by offset ---- */

typedef struct edit {
    unsigned begin, end;
    char *text;
} edit;

typedef struct edits {
    edit *v;
    unsigned n, cap;
} edits;

void add_edit(edits *es, unsigned begin, unsigned end, const char *text);
void edits_free(edits *es);
/* Appends text[begin, end) with the edits applied (the active text of file, given an). */
void put_edited_in(strbuf *sb, const analysis *an, unsigned file, const char *text,
                   unsigned begin, unsigned end, edits *es);
void put_edited(strbuf *sb, const char *text, unsigned begin, unsigned end, edits *es);

/* ---- emit_kernel.c: the pieces made from the user's text ---- */

typedef struct inclusion {
    unsigned includer, offset, included;
} inclusion;

typedef struct inclusions {
    const analysis *an;
    const macro_deps *md;
    inclusion *v;
    unsigned n, cap;
} inclusions;

/* clang_getInclusions' visitor: collects the user's #include lines into an inclusions. */
void inclusion_cb(CXFile included, CXSourceLocation *stack, unsigned len, CXClientData data);
/* The text of file with its user headers inlined between nplus1gen markers. */
void emit_file_inlined(strbuf *sb, const inclusions *inc, unsigned file, unsigned depth);
/* Copies of the helpers that call work-item builtins, taking the original ids. */
void emit_helpers(emitter *e, strbuf *sb);
/* The classifier's body; with cx, it runs the whole prologue and keeps the context. */
char *classifier_body(emitter *e, const kernel_plan *kp, const kernel_context *cx);
/* The edits that turn the kernel's body into leaf lf's (each decision on its path). */
void path_edits(const analysis *an, const leaf *lf, edits *es);
char *leaf_body(emitter *e, const kernel_plan *kp, const leaf *lf);
/* Comment-safe copy of a condition (no "*" "/" sequence). */
char *comment_safe(const char *s);
/* The first leaf of leaf kernel kn. */
const leaf *kernel_leaf(const kernel_plan *kp, int kn);
/* The merged kernel runs the original body: its cheap leaves diverge cheaply. */
char *leaf_body_merged(emitter *e, const kernel_plan *kp);
char *merged_condition(const kernel_plan *kp);

/* ---- emit_driver.c: <stem>_nplus1.h and <stem>_nplus1.c ---- */

char *driver_h(emitter *e);
char *driver_c(emitter *e, const char *source);
/* "K<suffix>" quoted (NPLUS1RT_SUFFIX_*), or none (NULL in C, null in JSON), in n bytes. */
void quoted_kernel(char *out, size_t n, int present, const char *k, const char *suffix,
                   const char *none);

/* ---- emit_manifest.c: <stem>.nplus1.json ---- */

char *manifest(emitter *e);

#endif
