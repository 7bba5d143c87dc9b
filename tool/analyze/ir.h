/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir.h - the kernel IR (part of the analyze stage): each selected legal
 * kernel's body as a tree of structured statements (blocks, plain
 * statements, if, switch, loops, break / continue / return), helpers that
 * hold a decision or a loop inlined at their call sites, and a table of the
 * variables with their scope, type, size and flags. Every node carries its
 * source range (expansion coordinates, for #line), its effects and a rough
 * cost; every decision (an if's, a switch's or a loop's condition, at any
 * depth, inlined helpers included) its divergence class and reason.
 *
 * analyze_tu builds it once (ir_build, in ir.c) and stores it on
 * kernel_info.ir; it is read-only afterwards, like the rest of the analysis,
 * and freed by analyze_free (ir_free). See docs/design.md, "The kernel IR".
 */
#ifndef NPLUS1_IR_H
#define NPLUS1_IR_H

#include "analyze.h"
#include "traffic.h"
#include "util.h"

/* The trips a loop whose count is not constant is taken to run (its cost, the plan's rules). */
#define IR_UNKNOWN_TRIPS 16

typedef enum ir_kind {
    IR_BLOCK,    /* { ... }: kids in order; declares variables (ir_var.scope) */
    IR_STMT,     /* a plain statement: an expression, a declaration, ';' */
    IR_IF,       /* kids[0] the then-statement, kids[1] the else-statement (absent: nkids 1);
                  * an else-if chain is an if nested in the else arm */
    IR_SWITCH,   /* kids[0] the body (a block); arms[] the entries by their case labels */
    IR_LOOP,     /* for / while / do: kids[0] the body */
    IR_BREAK,    /* leaves the loop or switch node `target` */
    IR_CONTINUE, /* next iteration of the loop node `target` */
    IR_RETURN,   /* in the kernel: the item ends; in an inlined helper: leaves the helper
                  * (the call node `target`), its value into the call's return variable */
    IR_CALL      /* an inlined helper: kids[0] its body (a block); see ir_call (below) */
} ir_kind;

typedef enum ir_loop_kind { IR_FOR, IR_WHILE, IR_DO } ir_loop_kind;

/* One arm of an if (0: then, 1: else, implicit when the if has none) or a switch entry. */
typedef struct ir_arm {
    char *labels;            /* switch: its labels as written, "1, 2" or "default"; if: NULL */
    int is_default;          /* switch: `default:` (or the implicit one: no node runs) */
    int implicit;            /* no statement written: an if without else, a switch
                              * without default */
    unsigned first;          /* switch: index in the body's kids where the arm starts */
    int falls_through;       /* switch: runs on into the next arm (no break/return/continue
                              * before the next label) */
    double cost;             /* what the arm runs, up to its break (through fall-through) */
} ir_arm;

/* A decision: the condition of an if or loop, or a switch's controlling expression. */
typedef struct ir_cond {
    CXCursor cursor;         /* null: a for without a condition */
    src_range range;
    effects fx;              /* the condition's effects (its cost included) */
    access_traffic traffic;  /* how fx's accesses coalesce (traffic.h) */
    div_class divergence;    /* divergence.h, at this point of the kernel (inlined
                              * helpers: with the call's arguments bound) */
    char why[200];           /* the reason text, as --report words it */
} ir_cond;

/* A parameter of an inlined helper bound to the call's argument. */
typedef struct ir_binding {
    unsigned var;            /* the parameter's variable (ir_kernel.vars) */
    CXCursor arg;            /* the argument expression at the call */
    src_range arg_range;
    int points_to;           /* a pointer to a private object of the caller (&x, an array,
                              * p + k, or a pointer parameter that points to one): that
                              * object's variable; -1 otherwise */
} ir_binding;

typedef struct ir_call {
    CXCursor expr;           /* the call expression */
    CXCursor callee;         /* the helper's definition */
    char *name;              /* the helper's name */
    ir_binding *binds;       /* one per parameter, in order */
    unsigned nbinds;
    int ret_var;             /* the variable the return value goes into; -1: void */
    int guarded;             /* evaluated only on a condition or in a sequence of its
                              * statement: an arm of ?:, the right of && || or ',' */
} ir_call;

typedef struct ir_node {
    ir_kind kind;
    unsigned id;             /* pre-order number: node, its calls, then its kids */
    CXCursor cursor;         /* the statement (the call expression for IR_CALL) */
    src_range range;         /* stmt_range: expansion coordinates, a statement's ';' included */
    unsigned line;
    unsigned frame;          /* the function it is part of: 0 the kernel, else the id of
                              * the IR_CALL node that inlined it */
    struct ir_node *parent;  /* NULL for the root (the kernel's body) */
    struct ir_node **kids;   /* see ir_kind */
    unsigned nkids;
    struct ir_node **calls;  /* IR_CALL nodes of the inlined helpers its own expressions
                              * call (a statement's, a condition's, a for's init and step),
                              * in evaluation order; their cost is in this node's */
    unsigned ncalls;
    effects fx;              /* the node's effects, every nested statement's merged;
                              * fx.cost is the node's cost below */
    access_traffic traffic;  /* a statement's (IR_STMT, IR_RETURN): how fx's accesses
                              * coalesce (traffic.h); zeros elsewhere */
    double cost;             /* rough operations to run it once: a decision's condition
                              * and its costliest arm; a loop's init and
                              * trips x (condition + body + step) */
    ir_cond cond;            /* IR_IF, IR_SWITCH, IR_LOOP */
    ir_arm *arms;            /* IR_IF (2), IR_SWITCH (its entries, default last) */
    unsigned narms;
    /* IR_LOOP */
    ir_loop_kind loop;
    CXCursor init, step;     /* a for's, or null */
    long long trips;         /* the trip count when constant, else -1 (cost assumes
                              * IR_UNKNOWN_TRIPS) */
    /* IR_BREAK, IR_CONTINUE, IR_RETURN (in a helper): the node it leaves, or NULL */
    struct ir_node *target;
    int in_helper;           /* IR_RETURN: leaves the helper, not the kernel's item */
    ir_call call;            /* IR_CALL */
    src_range init_range;    /* IR_LOOP, a for's init: its text without the ';' (a declaration
                              * included); zeros when it has none */
} ir_node;

enum {
    IR_VAR_PARAM = 1u << 0,   /* a parameter (of the kernel, or of an inlined helper) */
    IR_VAR_RETURN = 1u << 1,  /* an inlined helper's return value */
    IR_VAR_ARRAY = 1u << 2,
    IR_VAR_STRUCT = 1u << 3,
    IR_VAR_UNION = 1u << 4,
    IR_VAR_POINTER = 1u << 5,
    IR_VAR_ADDR_TAKEN = 1u << 6, /* &x, or an array that decays to a pointer (a call's
                                  * argument, an initialiser): a store through a pointer
                                  * may change it */
    IR_VAR_WRITTEN = 1u << 7     /* ir_refs.c: assigned or declared in its function's body
                                  * (a parameter the body changes) */
};

typedef struct ir_var {
    char *name;              /* as written; in an inlined helper qualified by its call:
                              * "trace#7.t" (#7: the IR_CALL node) */
    CXCursor decl;           /* the declaration (null for a return variable) */
    unsigned scope;          /* the node that declares it: a block, a for (its init),
                              * the call node (a helper's parameters and return value) */
    unsigned frame;          /* 0 the kernel, else the call node's id */
    char *type;              /* the type's spelling */
    long long size;          /* bytes (clang_Type_getSizeOf), -1 when unknown */
    unsigned flags;          /* IR_VAR_* */
    src_range range;         /* the declaration (zeros for a return variable) */
    /* ir_refs.c, the kernel's variables (frame 0) in its text, an inlined helper's (its
     * frame) in the helper's text: where the text names them, so a
     * later stage can rename a variable or turn its declaration into an assignment
     * without libclang (the state machine, tool/plan/machine.c) */
    unsigned *refs;          /* file offsets of each reference's name, in text order */
    unsigned nrefs;
    int refs_hidden;         /* a reference sits inside a macro's own text (not renamable) */
    int macro_own;           /* declared and named only inside macros' own text, its name
                              * no other variable's: a macro's temporary (`{ float k = (a);
                              * ... }`), inlined as written, never renamed, never live
                              * where the user's text is cut */
    src_range decl_stmt;     /* the declaration statement that declares it (a for's init
                              * included), ';' included when it has one; zeros: a param */
    unsigned name_at;        /* offset of its name in its declaration */
    src_range init;          /* its initialiser; end == begin: none */
    int init_list;           /* the initialiser is a braced list ({1, 2}) */
} ir_var;

typedef struct ir_kernel {
    ir_node *root;           /* the kernel's body (an IR_BLOCK) */
    ir_node **nodes;         /* every node, by id */
    unsigned nnodes, capnodes;
    ir_var *vars;
    unsigned nvars, capvars;
    unsigned ncalls;         /* IR_CALL nodes (inlined helpers) */
    int truncated;           /* a helper was left plain: calls nested too deep */
} ir_kernel;

/* Builds k's IR (k's body must be found: k->body). The caller frees it with ir_free. */
ir_kernel *ir_build(analysis *an, kernel_info *k);
void ir_free(ir_kernel *ir);

/* The IR as an indented tree and the variables table, deterministic text (--dump-ir). */
void ir_dump(const analysis *an, const kernel_info *k, strbuf *out);

/* "block", "stmt", "if", ... */
const char *ir_kind_name(ir_kind kind);

/* Whether a is n or one of n's ancestors. */
int ir_holds(const ir_node *a, const ir_node *n);

/* The node of the kernel's own text (frame 0) that begins at offset `begin` of file
 * `file`: its loop (loop 1) or its if or switch (loop 0); NULL when none (ir NULL too). */
const ir_node *ir_node_at(const ir_kernel *ir, unsigned file, unsigned begin, int loop);

#endif
