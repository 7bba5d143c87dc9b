/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reaching_defs.h - the definitions of the locals of a function, each with
 * the conditions it is control dependent on: every initialisation,
 * assignment, update (+=, ++), element store, escape (&x passed on) and
 * return, in text order, with the enclosing ifs, loops, ternaries and
 * && / || as guards. A dataflow utility of the analyze stage: the
 * divergence classes (divergence.c) and the condition inputs
 * (cond_inputs.c) follow values through it; context liveness could too.
 */
#ifndef NPLUS1_REACHING_DEFS_H
#define NPLUS1_REACHING_DEFS_H

#include "analyze.h"
#include "cursor_map.h"

typedef enum def_kind {
    DEF_INIT, DEF_ASSIGN, DEF_UPDATE, DEF_ELEMENT, DEF_ESCAPE, DEF_RETURN
} def_kind;

typedef struct guard {
    CXCursor cond;
    int loop;          /* a loop's condition (or a condition that can leave a loop) */
} guard;

typedef struct def_site {
    def_kind kind;
    CXCursor var;      /* VarDecl / ParmDecl; null for DEF_RETURN */
    CXCursor rhs;      /* the value stored (or returned), or null */
    CXCursor index;    /* DEF_ELEMENT: the element's index, or null */
    char op[4];        /* DEF_UPDATE: "+", "*", ... ("+" for ++ and --) */
    unsigned file, offset;
    guard *guards;
    unsigned nguards;
} def_site;

typedef struct func_defs {
    CXCursor func;
    def_site *v;
    unsigned n, cap;
} func_defs;

/* The functions walked so far, each walked once. */
typedef struct defs_cache {
    analysis *an;
    func_defs **v;               /* each allocated apart: pointers stay valid */
    unsigned n, cap;
    cursor_map by_func;          /* function -> index in v */
} defs_cache;

/* The definitions of func's locals (walked on first use); c->an must be set. */
const func_defs *defs_of(defs_cache *c, CXCursor func);
/* Frees every walk; c is empty (c->an kept). */
void defs_cache_free(defs_cache *c);

#endif
