/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analyze_int.h - shared inside the analyze stage (tool/analyze/) only:
 * analyze.c, cond_tree.c, effects.c, access.c, opencl_builtins.c,
 * legality.c, syntax.c, loop_tree.c, divergence_eval.c, reaching_defs.c,
 * cond_inputs.c. Later stages read the syntax layer through syntax.h.
 */
#ifndef NPLUS1_ANALYZE_INT_H
#define NPLUS1_ANALYZE_INT_H

#include "analyze.h"
#include "cursor_set.h"
#include "syntax.h"

/* ---- opencl_builtins.c: what a builtin call does ---- */

int analyze_starts_with(const char *s, const char *p);
unsigned analyze_builtin_effects(const char *name);
double analyze_builtin_cost(const char *name);
/* What a math builtin takes on a GPU, in FMA-equivalents (opencl_builtins.c's table); the
 * rough cost for any other builtin. */
double analyze_builtin_time(const char *name);
/* A math builtin whose call has no effect but its value (opencl_builtins.c). */
int analyze_builtin_pure_math(const char *name);

/* ---- effects.c: effects of statements and helpers ---- */

typedef struct scan_ctx {
    const analysis *an;
    effects *fx;
    CXCursor func;      /* the function whose locals we track */
    int depth_loops;
    int track_params;   /* a helper's summary: stores through its pointer parameters */
    CXCursor outer;     /* the member access (s[i].f) around the access being scanned, or null */
} scan_ctx;

/* The memoised effects of a helper's definition (the memo: an->summaries, made by
 * summaries_init when analyze_tu starts, freed by summaries_free). */
void analyze_summaries_init(analysis *an);
const effects *analyze_function_summary(const analysis *an, CXCursor def);
void analyze_summaries_free(analysis *an);

/* ---- math_once.c: a pure math builtin on the same values, computed once ---- */

/* The key of a call of the math builtin name (call: its CallExpr) scanned in sc: the name
 * and its arguments' values, or NULL when an argument is not a value fixed for the
 * work-item (see math_once.c). Owned by the caller. */
char *math_once_key(const scan_ctx *sc, const char *name, CXCursor call);
/* A call with the key (owned by the function) that added time to fx (its cost and math):
 * kept in fx->once the first time, its time taken back from fx->math after (0 / 1). */
int math_once_note(effects *fx, char *key, double time);
/* fx->once gains key (copied) unless it holds it; no cost moves (merge_effects). */
void math_once_add(effects *fx, const char *key, double time);
/* A loop of trips scanned into fx: the calls first noted inside it (from fx->once[from] on)
 * are computed once, not trips times. */
void math_once_loop(effects *fx, unsigned from, double trips);
/* The call of a helper whose summary is callee: its keys with their parameters replaced by
 * the call's arguments, noted in sc->fx (a key sc->fx holds: its cost taken back). */
void math_once_call(const scan_ctx *sc, const effects *callee, CXCursor call);

/* ---- fx.c: the effect set (effects_init, merge_effects, effects_free are in analyze.h) ---- */

void analyze_note_effect(effects *fx, unsigned bit, CXCursor at, CXCursor via);
void analyze_record_store(effects *fx, CXCursor access);
void analyze_record_load(effects *fx, CXCursor access);
void analyze_record_restrict_load(effects *fx, CXCursor access);

/* ---- access.c: where an access lands (accesses_may_alias is in analyze.h) ---- */

/* A private object of the function that the pointer expression base points into, or null. */
CXCursor analyze_private_target(const scan_ctx *sc, CXCursor base, int *param);
/* A store to the lvalue lv through the pointer base (memory, a parameter, a private object). */
void analyze_note_store(scan_ctx *sc, CXCursor base, CXCursor lv, CXCursor site);
/* A load of the expression site through the pointer base. */
void analyze_note_load(scan_ctx *sc, CXCursor base, CXCursor site);

/* ---- cond_tree.c: condition trees ---- */

typedef struct build_ctx {
    analysis *an;
    kernel_info *k;
    diag_sink *diag;
    int errors;
    int macro_decisions;    /* decisions refused because a macro wrote them */
    int in_switch;          /* building the body of a switch decision */
} build_ctx;

void analyze_report_at(build_ctx *bc, CXCursor at, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void analyze_note_at(build_ctx *bc, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends the items of a statement used as a branch body, or of a compound. */
void analyze_build_seq_from(build_ctx *bc, CXCursor stmt, seq *out, unsigned *cap);
/* Frees a sequence build_seq_from made (its items, decisions and effects). */
void analyze_seq_free(seq *s);

/* ---- legality.c: kernel-wide rules ---- */

void analyze_check_forbidden(build_ctx *bc);
void analyze_check_param_types(build_ctx *bc);
/* The line of the first if/switch inside a loop of the kernel (0: none). */
unsigned analyze_decision_in_loop(analysis *an, CXCursor kernel);
void analyze_report_no_decision(build_ctx *bc);

/* ---- loop_tree.c: the trees of the loops at a kernel's top level ---- */

/* Builds k->loops: each top-level loop's body tree, its top-level decisions classified. */
void analyze_loop_trees(analysis *an, kernel_info *k);
void analyze_loop_trees_free(kernel_info *k);


#endif
