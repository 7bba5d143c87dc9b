/*
 * analyze_int.h - shared inside the analyze stage (analyze.c, cond_tree.c,
 * effects.c, access.c, opencl_builtins.c, legality.c, syntax.c, loop_tree.c,
 * divergence_eval.c, reaching_defs.c, cond_inputs.c). Outside it, loop.c,
 * paths.c and profile_*.c include it for the syntax layer (children_of,
 * cursor_range, ...) and the const effects scan; they write no analysis.
 */
#ifndef NPLUS1_ANALYZE_INT_H
#define NPLUS1_ANALYZE_INT_H

#include "analyze.h"
#include "cursor_set.h"

/* ---- syntax.c: cursors, ranges, operators ---- */

typedef struct cursor_list {
    CXCursor *v;
    unsigned n, cap;
} cursor_list;

cursor_list children_of(CXCursor c);
/* Skips whitespace and comments from offset; returns the new offset. */
unsigned skip_space(const char *t, size_t len, unsigned off);
/* Skips whitespace, comments and inactive text (#if blocks not compiled, directive lines). */
unsigned skip_inactive(const analysis *an, unsigned file, unsigned off);
/* The extent of c in expansion coordinates; 0 on success. */
int cursor_range(const analysis *an, CXCursor c, src_range *r);
/* Like cursor_range, for a statement: includes its ';'. */
int stmt_range(const analysis *an, CXCursor c, src_range *r);
char *cursor_spelling(CXCursor c);
/* The body of a while, for or do statement (a do's first child, else the last), or null. */
CXCursor loop_body_of(CXCursor loop);
/* Strips implicit casts and parentheses. */
CXCursor strip(CXCursor c);
/* Strips implicit casts, parentheses and C-style casts too. */
CXCursor strip_casts(CXCursor c);
/* The source text of e on one line (at most n-1 bytes, "..." when cut; printed in a macro). */
void expr_text(const analysis *an, CXCursor e, char *out, size_t n);
/* The spelling of c into out (cut to n-1 bytes). */
void spelling_into(CXCursor c, char *out, size_t n);
/* The declaration a name refers to (through casts and parentheses), or null. */
CXCursor referenced_decl(CXCursor e);
/* The operator text of a binary / unary operator (libclang 14 does not expose the kind). */
void binary_operator(const analysis *an, CXCursor c, CXCursor lhs, CXCursor rhs, char *out,
                     size_t outlen);
void unary_operator(const analysis *an, CXCursor c, CXCursor operand, char *out,
                    size_t outlen);
int is_assignment_op(const char *op);
int is_logical_op(const char *op); /* && or || */

/* ---- opencl_builtins.c: what a builtin call does ---- */

int starts_with(const char *s, const char *p);
unsigned builtin_effects(const char *name);
double builtin_cost(const char *name);

/* ---- effects.c: effects of statements and helpers ---- */

typedef struct scan_ctx {
    const analysis *an;
    effects *fx;
    CXCursor func;      /* the function whose locals we track */
    int depth_loops;
    int track_params;   /* a helper's summary: stores through its pointer parameters */
    CXCursor outer;     /* the member access (s[i].f) around the access being scanned, or null */
} scan_ctx;

void note_effect(effects *fx, unsigned bit, CXCursor at, CXCursor via);
/*
 * The local variable whose own storage the lvalue e is part of (x, x.f,
 * x[i] of a local array), or the null cursor when e is in memory.
 */
CXCursor local_root(CXCursor e);
int is_local_decl(CXCursor decl);
int type_is_pointer(CXType t);
/* A parameter declared as an array (`uchar p[16]`): a pointer, which libclang shows with
 * the array type it was written with. */
int is_array_param(CXCursor decl);
/* Is the expression e (parentheses and implicit casts stripped) a pointer: of pointer type,
 * or an array parameter? */
int expr_is_pointer(CXCursor e);
int spelling_has(CXType t, const char *word);
/* The effects of c, part of function func (whose locals are tracked). */
void effects_of(const analysis *an, CXCursor func, CXCursor c, effects *fx);
/* The memoised effects of a helper's definition (the memo: an->summaries, made by
 * summaries_init when analyze_tu starts, freed by summaries_free). */
void summaries_init(analysis *an);
const effects *function_summary(const analysis *an, CXCursor def);
void summaries_free(analysis *an);

/* ---- access.c: where an access lands (accesses_may_alias is in analyze.h) ---- */

/* A private object of the function that the pointer expression base points into, or null. */
CXCursor private_target(const scan_ctx *sc, CXCursor base, int *param);
void record_store(effects *fx, CXCursor access);
void record_load(effects *fx, CXCursor access);
/* A store to the lvalue lv through the pointer base (memory, a parameter, a private object). */
void note_store(scan_ctx *sc, CXCursor base, CXCursor lv, CXCursor site);
/* A load of the expression site through the pointer base. */
void note_load(scan_ctx *sc, CXCursor base, CXCursor site);

/* ---- cond_tree.c: condition trees ---- */

typedef struct build_ctx {
    analysis *an;
    kernel_info *k;
    diag_sink *diag;
    int errors;
    int macro_decisions;    /* decisions refused because a macro wrote them */
    int in_switch;          /* building the body of a switch decision */
} build_ctx;

void report_at(build_ctx *bc, CXCursor at, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void note_at(build_ctx *bc, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends the items of a statement used as a branch body, or of a compound. */
void build_seq_from(build_ctx *bc, CXCursor stmt, seq *out, unsigned *cap);
/* Frees a sequence build_seq_from made (its items, decisions and effects). */
void analyze_seq_free(seq *s);

/* ---- legality.c: kernel-wide rules ---- */

void check_forbidden(build_ctx *bc);
void check_param_types(build_ctx *bc);
/* The line of the first if/switch inside a loop of the kernel (0: none). */
unsigned decision_in_loop(analysis *an, CXCursor kernel);
void report_no_decision(build_ctx *bc);

/* ---- loop_tree.c: the trees of the loops at a kernel's top level ---- */

/* Builds k->loops: each top-level loop's body tree, its top-level decisions classified. */
void analyze_loop_trees(analysis *an, kernel_info *k);
void loop_trees_free(kernel_info *k);

/* params.c */
int analyze_params(const analysis *an, kernel_info *k, diag_sink *diag);

#endif
