/* SPDX-License-Identifier: Apache-2.0 */
/*
 * divergence_int.h - shared by divergence.c (the classes of the decisions)
 * and divergence_eval.c (the lattice and how expressions evaluate in it).
 */
#ifndef NPLUS1_DIVERGENCE_INT_H
#define NPLUS1_DIVERGENCE_INT_H

#include "analyze.h"
#include "divergence.h"
#include "cursor_map.h"
#include "reaching_defs.h"

typedef enum vclass { V_UNIFORM, V_AFFINE, V_VARYING, V_DATA } vclass;

/* A class and, for varying/data, the value that makes it so. */
typedef struct dval {
    vclass c;
    char why[160];
} dval;

/* The analysis context of one kernel. */
typedef struct memo {
    CXCursor key;      /* a variable, or a helper function */
    int mode;          /* 1: as a condition */
    unsigned sig;      /* the argument classes of the frame */
    int visiting;
    int done;          /* computed in this round */
    dval val;
} memo;

#define MAX_SOURCES 4

typedef struct dctx {
    analysis *an;
    kernel_info *k;
    defs_cache defs;            /* the definitions of the functions walked */
    memo *memos;
    unsigned nmemos, capmemos;
    cursor_map memo_index;      /* (key, mode and sig) -> index in memos */
    int changed;       /* a memo grew in this round */
    char ids[MAX_SOURCES][48];       /* the id builtins the condition reads */
    unsigned nids;
    char uniforms[MAX_SOURCES][48];  /* the uniform values it reads */
    unsigned nuniforms;
    int more_uniforms;
    CXCursor striding[16];           /* div_stride: the variables being followed */
    unsigned nstriding;
    const long *stride_args[17];     /* div_stride: a helper frame's argument strides, by its
                                      * depth (NULL: not known) */
} dctx;

/* One function being evaluated: the kernel, or a helper with bound arguments. */
typedef struct frame {
    CXCursor func;
    const dval *args;  /* helper: the classes of the call's arguments */
    unsigned nargs;
    unsigned sig;
    unsigned hfile, horizon;  /* kernel: definitions before this point reach */
    int depth;
} frame;


/* The class of e in frame f, as a value or (cond) as a condition. */
dval div_eval(dctx *x, const frame *f, CXCursor e, int cond);
/*
 * How e steps from one item to the next along dimension 0, in its own units (an index's
 * elements): the coefficient of get_global_id(0) in e, 0 for a value every item of a row
 * agrees on, DIV_STRIDE_UNKNOWN where no constant says (divergence.h). Read after the
 * site's fixed point (the memos hold its classes).
 */
long div_stride(dctx *x, const frame *f, CXCursor e);
/* Frees the memo and the definitions; x is empty again (x->an, x->k kept). */
void dctx_free(dctx *x);

#endif
