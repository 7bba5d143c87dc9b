/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_int.h - shared by the IR's builder files only: ir.c (statements,
 * decisions, effects and cost, and helpers inlined at their calls: the two
 * recurse, so they share a file), ir_vars.c (variables, address-taken, loop
 * parts and trip counts) and ir_refs.c.
 */
#ifndef NPLUS1_IR_INT_H
#define NPLUS1_IR_INT_H

#include "analyze_int.h"
#include "cursor_map.h"
#include "divergence.h"
#include "ir.h"

/* Calls inlined inside calls, at most (recursion cannot happen in OpenCL C: a guard). */
#define IR_MAX_INLINE 8

typedef struct ir_ctx {
    analysis *an;
    kernel_info *k;
    ir_kernel *ir;
    div_session *div;
    cursor_map var_index;     /* (declaration, frame) -> index in ir->vars */
    cursor_map inlinable;     /* helper definition -> 1 (holds a decision or loop) or 0 */
    /* the frame being built */
    unsigned frame;           /* 0: the kernel, else the call node's id */
    CXCursor func;            /* the function whose statements these are */
    ir_node *call;            /* the call node of the frame, or NULL */
    char qual[80];            /* "" or "trace#7.": prefix of the frame's variable names */
    unsigned scope;           /* the node that declares what is declared now */
    CXCursor chain[IR_MAX_INLINE];        /* the calls from the kernel to this frame */
    ir_node *chain_nodes[IR_MAX_INLINE];
    unsigned nchain;
    ir_node **targets;        /* the loops and switches around: break / continue */
    unsigned ntargets, captargets;
    unsigned target_base;     /* the first target of this frame's function */
    cursor_map tree_decisions; /* the condition tree's decisions (classified) by cursor */
    const decision **tree_list;
    unsigned ntree, captree;
} ir_ctx;

/* ---- ir.c ---- */
ir_node *ir_new_node(ir_ctx *c, ir_kind kind, CXCursor cur, ir_node *parent);
ir_node *ir_build_stmt(ir_ctx *c, CXCursor cur, ir_node *parent);
/* A function's body as a block node under parent (NULL when it has none). */
ir_node *ir_build_body(ir_ctx *c, CXCursor func, ir_node *parent);
/* A composite node's effects and cost, from its condition and kids. */
void ir_finish(ir_node *n);

/* ---- ir_vars.c ---- */
/* Registers the variables a declaration statement declares, in scope c->scope. */
void ir_declare(ir_ctx *c, CXCursor decl_stmt);
/* Registers func's parameters in frame c->frame, scope `scope`. */
void ir_declare_params(ir_ctx *c, CXCursor func, unsigned scope);
/* Adds a variable; returns its index. */
unsigned ir_add_var(ir_ctx *c, const char *name, CXCursor decl, CXType type, unsigned flags);
/* The variable of decl in frame, or -1. */
int ir_var_of(const ir_ctx *c, CXCursor decl, unsigned frame);
/* Marks the variables of frame whose address the statements below body take. */
void ir_mark_taken(ir_ctx *c, CXCursor body, unsigned frame);
/* A loop's parts (null where absent). */
void ir_loop_parts(const analysis *an, CXCursor loop, ir_loop_kind kind, CXCursor *init,
                   CXCursor *cond, CXCursor *step, CXCursor *body);
/* for (i = A; i < B; i += S) with A, B, S constants: the trip count, else -1. */
long long ir_trip_count(const analysis *an, CXCursor init, CXCursor cond, CXCursor step);

/* ---- ir_refs.c ---- */
/* The kernel's variables' references, declaration statements and initialisers (ir_var's
 * refs, decl_stmt, name_at, init) and the written flag, from the kernel's body. */
void ir_note_refs(ir_ctx *c, CXCursor body);

/* ---- ir.c: helpers inlined at their calls ---- */
/* The calls below e (post-order: arguments first) to helpers holding a decision or a
 * loop: each an IR_CALL node in owner->calls, its body built in a frame of its own. */
void ir_inline_calls(ir_ctx *c, CXCursor e, ir_node *owner);
/* The function of a frame: the kernel, or the helper its call node inlined. */
CXCursor ir_frame_func(const ir_ctx *c, unsigned frame);
void ir_ctx_free(ir_ctx *c);

#endif
