/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_src.h - part of the analyze stage: the source facts of the kernel IR
 * (ir.h) that a stage rewriting the input text needs and the IR does not
 * store: where a condition, a call, a helper's name and parameter list,
 * a kernel's last parameter and its body sit in the input file, and
 * whether a macro writes them; a loop's init and step costs; the cost the
 * cost model gives a call of a helper as a whole. The divergence profile
 * (tool/profile/profile_tree.c) builds its instrumented copy from them, so
 * that no libclang call is left outside the front end and the analysis.
 *
 * Offsets are bytes in the input file (parse_result.files[0]); a function
 * returns -1 where the text is not there as written: in another file, or
 * written by a macro.
 */
#ifndef NPLUS1_IR_SRC_H
#define NPLUS1_IR_SRC_H

#include "analyze.h"
#include "ir.h"

/*
 * k's IR: the one analyze_tu built, or (a kernel the split refuses, which the
 * profile still records) built now and kept on k->ir, freed by analyze_free.
 * NULL when k has no body.
 */
const ir_kernel *ir_ensure(analysis *an, kernel_info *k);

/* Has the IR_IF, IR_SWITCH or IR_LOOP a condition? (a for may have none) */
int ir_src_has_cond(const ir_node *n);

/* The text of an IR_IF's, IR_SWITCH's or IR_LOOP's condition, in the input file. */
int ir_src_cond(const analysis *an, const ir_node *n, src_range *r);

/* An if, switch or loop whose text does not start with its keyword: a macro writes it. */
int ir_src_macro_written(const analysis *an, const ir_node *n);

/* What an IR_STMT is when it is not a plain statement the IR reads (else 0). */
enum { IR_SRC_GOTO = 1, IR_SRC_LABEL = 2, IR_SRC_CASE = 3 };
int ir_src_stmt_kind(const analysis *an, const ir_node *n);

/* The profile's costs (the divergence profile is their one user): the cost model's
 * (effects.c) with math builtins at their time on a GPU (effects.math). */

/* The cost of the statement n as a whole (effects.c, in its function). */
double ir_src_stmt_cost(const analysis *an, const ir_node *n);
/* The part of its cost that math builtins add (effects.math). */
double ir_src_stmt_math(const analysis *an, const ir_node *n);
/* Its memory accesses (each load and store once, as written). */
double ir_src_stmt_accesses(const analysis *an, const ir_node *n);

/* A loop's init and step: their cost and text (has_* 0 where the loop has none). */
typedef struct ir_loop_src {
    int has_init, has_step;
    double init_cost, step_cost;
    src_range init, step;
} ir_loop_src;
void ir_src_loop(const analysis *an, const ir_node *n, ir_loop_src *out);

/* One case label of a switch arm: `case lo:` or GNU's `case lo ... hi:` (is_range). */
typedef struct ir_label_src {
    src_range lo, hi;
    int is_range;
    int plain;                /* both in the input file, not written by a macro */
} ir_label_src;
/*
 * The labels of arm `arm` of an IR_SWITCH (its `default` not among them); the caller
 * frees *out. -1 when the arm is not one of the body's written entries.
 */
int ir_src_case_labels(const analysis *an, const ir_node *sw, unsigned arm, ir_label_src **out,
                       unsigned *n);

/* An IR_CALL's call expression: the callee's name and the parentheses of its arguments. */
typedef struct ir_call_src {
    src_range call;
    unsigned name_begin, name_end;
    unsigned lparen, rparen;  /* offsets of '(' and ')' */
    unsigned nargs;
    int conditional;          /* under ?:'s arms or &&'s / ||'s right operand in its
                               * statement: it may not run when the statement does */
} ir_call_src;
int ir_src_call(const analysis *an, const ir_node *call, ir_call_src *out);

/* An inlined helper's definition (the callee of an IR_CALL). */
typedef struct ir_helper_src {
    src_range def;            /* the whole definition */
    unsigned name_begin, name_end;
    unsigned lparen, rparen;  /* its parameter list's parentheses */
    unsigned nparams;
    unsigned body_open;       /* its body's '{' */
    unsigned proto_end;       /* just past the ';' of an earlier prototype in the input
                               * file, 0 when there is none */
    unsigned proto_line;      /* that ';''s line */
} ir_helper_src;
int ir_src_helper(const analysis *an, const ir_node *call, ir_helper_src *out);

/* The cost counted for the call as a whole: its helper's summary, math at its time. */
double ir_src_call_cost(const analysis *an, const ir_node *call);

/* The kernel's last parameter's end and its body's '{'; 1 when it has no parameter. */
int ir_src_kernel_entry(const analysis *an, const kernel_info *k, unsigned *param_end,
                        unsigned *body_open);

#endif
