/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cond_inputs.c - what a condition reads, named as --arg names it.
 *
 * A second walk over the definitions of reaching_defs.h (the first is the
 * divergence classes'): the buffers, fields, scalar arguments and images a
 * condition's value is made of. A load names its buffer's element and the
 * fields it selects ("shapes[].type"), and the inputs its index reads are
 * its "indexed_by" (pairs[].x in shapes[a].type with a = pairs[i].x).
 * Locals are followed through the definitions that reach the decision and
 * the conditions they are control dependent on; helpers through their
 * returns, their parameters read as the call's arguments. Work-item ids
 * and constants are no inputs.
 */
#include "cond_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "builtins.h"
#include "util.h"

static int starts(const char *s, const char *p)
{
    return builtins_starts(s, p);
}

typedef struct iframe {
    CXCursor func;
    const struct iframe *caller; /* a helper's: the frame its call's arguments are read in */
    CXCursor *args;
    unsigned nargs;
    unsigned hfile, horizon;     /* the kernel's: definitions before this point reach */
    int depth;
} iframe;

typedef struct in_list {
    cond_input *v;
    unsigned n;
} in_list;

#define IN_STACK 64

typedef struct ictx {
    analysis *an;
    defs_cache *defs;
    CXCursor stack[IN_STACK]; /* the variables being followed */
    unsigned nstack;
    unsigned budget;          /* steps left: the walk is bounded */
} ictx;

void cond_inputs_add(cond_input **v, unsigned *n, const char *name, const char *indexed_by)
{
    for (unsigned i = 0; i < *n; i++) {
        cond_input *c = &(*v)[i];
        if (strcmp(c->name, name))
            continue;
        if (indexed_by && !c->indexed_by)
            c->indexed_by = xstrdup(indexed_by);
        return;
    }
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[*n].name = xstrdup(name);
    (*v)[*n].indexed_by = indexed_by ? xstrdup(indexed_by) : NULL;
    (*n)++;
}

void cond_inputs_free(cond_input *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].indexed_by);
    }
    free(v);
}

/* name, indexed by what idx holds; idx's own inputs join out too. */
static void in_add(in_list *out, const char *name, const in_list *idx)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < idx->n; i++)
        sb_printf(&sb, "%s%s", i ? "," : "", idx->v[i].name);
    cond_inputs_add(&out->v, &out->n, name, sb.len ? sb.data : NULL);
    sb_free(&sb);
    for (unsigned i = 0; i < idx->n; i++)
        cond_inputs_add(&out->v, &out->n, idx->v[i].name, idx->v[i].indexed_by);
}

static void in_clear(in_list *l)
{
    cond_inputs_free(l->v, l->n);
    l->v = NULL;
    l->n = 0;
}

static void in_expr(ictx *c, const iframe *f, CXCursor e, in_list *out);
static int value_name(ictx *c, const iframe *f, CXCursor e, char *name, size_t n, in_list *idx);

static int pointer_typed(CXCursor e)
{
    return clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Pointer;
}

/* A helper's parameter: the call's argument, and the frame it is read in. */
static int bound_arg(const iframe *f, CXCursor var, const iframe **cf, CXCursor *arg)
{
    int i = f->caller && clang_getCursorKind(var) == CXCursor_ParmDecl
                ? param_index(f->func, var) : -1;
    if (i < 0 || (unsigned)i >= f->nargs)
        return 0;
    *cf = f->caller;
    *arg = f->args[i];
    return 1;
}

static int def_reaches(const iframe *f, const def_site *d)
{
    return f->caller || d->file != f->hfile || d->offset < f->horizon;
}

static int in_push(ictx *c, CXCursor var)
{
    for (unsigned i = 0; i < c->nstack; i++)
        if (clang_equalCursors(c->stack[i], var))
            return 0;
    if (c->nstack == IN_STACK)
        return 0;
    c->stack[c->nstack++] = var;
    return 1;
}

/* Appends ".field" or "[]" to name (cut at n). */
static void name_append(char *name, size_t n, const char *sep, const char *part)
{
    size_t len = strlen(name);
    snprintf(name + len, n - len, "%s%s", sep, part);
}

/*
 * The element a pointer expression points at, named from its kernel buffer
 * ("shapes[]", "shapes[].pos" for &shapes[a].pos); offsets and indices go to idx.
 */
static int pointee_name(ictx *c, const iframe *f, CXCursor e, char *name, size_t n, in_list *idx)
{
    CXCursor s = strip_casts(e), arg;
    const iframe *cf;
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        if (bound_arg(f, d, &cf, &arg))
            return pointee_name(c, cf, arg, name, n, idx);
        if (!pointer_typed(d) || !is_local_decl(d))
            return 0;
        if (clang_getCursorKind(d) == CXCursor_ParmDecl && !f->caller) {
            spelling_into(d, name, n > 2 ? n - 2 : n);
            name_append(name, n, "", "[]");
            return 1;
        }
        if (!in_push(c, d))
            return 0;
        int found = 0;
        const func_defs *fd = defs_of(c->defs, f->func);
        for (unsigned i = 0; i < fd->n && !found; i++) {
            const def_site *ds = &fd->v[i];
            if (!clang_equalCursors(ds->var, d) || !def_reaches(f, ds) || ds->kind == DEF_RETURN)
                continue;
            if (ds->kind == DEF_UPDATE)
                in_expr(c, f, ds->rhs, idx);
            else if (ds->kind == DEF_INIT || ds->kind == DEF_ASSIGN)
                found = pointee_name(c, f, ds->rhs, name, n, idx);
        }
        c->nstack--;
        return found;
    }
    if (k == CXCursor_UnaryOperator) {
        char op[8];
        cursor_list ch = children_of(s);
        int ok = 0;
        if (ch.n == 1) {
            unary_operator(c->an, s, ch.v[0], op, sizeof op);
            ok = !strcmp(op, "&") && value_name(c, f, ch.v[0], name, n, idx);
        }
        free(ch.v);
        return ok;
    }
    if (k == CXCursor_BinaryOperator) {
        cursor_list ch = children_of(s);
        int ok = 0;
        if (ch.n == 2) {
            unsigned p = pointer_typed(strip_casts(ch.v[0])) ? 0 : 1;
            ok = pointee_name(c, f, ch.v[p], name, n, idx);
            if (ok)
                in_expr(c, f, ch.v[1 - p], idx);
        }
        free(ch.v);
        return ok;
    }
    if (k == CXCursor_MemberRefExpr && /* an array field, decayed */
        clang_getCanonicalType(clang_getCursorType(s)).kind == CXType_ConstantArray)
        return value_name(c, f, s, name, n, idx);
    return 0;
}

/*
 * An lvalue read from an input: a load (p[i], p->f, *p, p[i].f.g) named from
 * its buffer, or a struct value argument's field ("cam.clip.near"). Indices to idx.
 */
static int value_name(ictx *c, const iframe *f, CXCursor e, char *name, size_t n, in_list *idx)
{
    CXCursor s = strip_casts(e), arg;
    const iframe *cf;
    enum CXCursorKind k = clang_getCursorKind(s);
    cursor_list ch = children_of(s);
    int ok = 0;
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        if (bound_arg(f, d, &cf, &arg))
            ok = value_name(c, cf, arg, name, n, idx);
        else if (clang_getCursorKind(d) == CXCursor_ParmDecl && !f->caller && !pointer_typed(d)) {
            spelling_into(d, name, n);
            ok = 1;
        }
    } else if (k == CXCursor_MemberRefExpr && ch.n == 1) {
        ok = pointer_typed(strip_casts(ch.v[0])) ? pointee_name(c, f, ch.v[0], name, n, idx)
                                           : value_name(c, f, ch.v[0], name, n, idx);
        if (ok) {
            char field[64];
            spelling_into(s, field, sizeof field);
            name_append(name, n, ".", field);
        }
    } else if (k == CXCursor_ArraySubscriptExpr && ch.n == 2) {
        ok = pointer_typed(strip_casts(ch.v[0])) ? pointee_name(c, f, ch.v[0], name, n, idx)
                                           : value_name(c, f, ch.v[0], name, n, idx);
        size_t len = strlen(name);
        if (ok && (len < 2 || strcmp(name + len - 2, "[]")))
            name_append(name, n, "", "[]");
        if (ok)
            in_expr(c, f, ch.v[1], idx);
    } else if (k == CXCursor_UnaryOperator && ch.n == 1) {
        char op[8];
        unary_operator(c->an, s, ch.v[0], op, sizeof op);
        ok = !strcmp(op, "*") && pointee_name(c, f, ch.v[0], name, n, idx);
    }
    free(ch.v);
    return ok;
}

static void in_children(ictx *c, const iframe *f, CXCursor e, in_list *out)
{
    cursor_list ch = children_of(e);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_isExpression(clang_getCursorKind(ch.v[i])))
            in_expr(c, f, ch.v[i], out);
    free(ch.v);
}

/* A local (or a parameter given a new value): every definition that reaches, and its guards. */
static void in_var(ictx *c, const iframe *f, CXCursor var, in_list *out)
{
    CXCursor arg;
    const iframe *cf;
    if (bound_arg(f, var, &cf, &arg)) {
        in_expr(c, cf, arg, out);
        return;
    }
    if (clang_getCursorKind(var) == CXCursor_ParmDecl && !f->caller && !pointer_typed(var)) {
        char name[64];
        spelling_into(var, name, sizeof name);
        cond_inputs_add(&out->v, &out->n, name, NULL);
    }
    if (!is_local_decl(var) || !in_push(c, var))
        return;
    const func_defs *fd = defs_of(c->defs, f->func);
    for (unsigned i = 0; i < fd->n; i++) {
        const def_site *d = &fd->v[i];
        if (d->kind == DEF_RETURN || !clang_equalCursors(d->var, var) || !def_reaches(f, d))
            continue;
        in_expr(c, f, d->rhs, out);
        in_expr(c, f, d->index, out);
        for (unsigned g = 0; g < d->nguards; g++)
            in_expr(c, f, d->guards[g].cond, out);
    }
    c->nstack--;
}

/* A load, or a struct value's field: its name; else what its parts read. */
static void in_access(ictx *c, const iframe *f, CXCursor s, in_list *out)
{
    char name[160] = "";
    in_list idx = {0};
    if (value_name(c, f, s, name, sizeof name, &idx))
        in_add(out, name, &idx);
    else
        in_children(c, f, s, out);
    in_clear(&idx);
}

static void in_helper(ictx *c, const iframe *f, CXCursor def, CXCursor *args, unsigned nargs,
                      in_list *out)
{
    if (f->depth >= 8)
        return;
    iframe hf = {def, f, args, nargs, ~0u, 0, f->depth + 1};
    const func_defs *fd = defs_of(c->defs, def);
    for (unsigned i = 0; i < fd->n; i++) {
        const def_site *d = &fd->v[i];
        if (d->kind != DEF_RETURN)
            continue;
        in_expr(c, &hf, d->rhs, out);
        for (unsigned g = 0; g < d->nguards; g++)
            in_expr(c, &hf, d->guards[g].cond, out);
    }
}

/* read_image*(img, ...): the image, indexed by its coordinates; vload/atomics: the load. */
static int in_builtin_load(ictx *c, const iframe *f, const char *fn, CXCursor *args,
                           unsigned nargs, in_list *out)
{
    char name[160] = "";
    in_list idx = {0};
    int ok = 0;
    if (starts(fn, "read_image") && nargs >= 2) {
        ok = value_name(c, f, args[0], name, sizeof name, &idx);
        for (unsigned i = 1; ok && i < nargs; i++)
            in_expr(c, f, args[i], &idx);
    } else if (starts(fn, "vload") && nargs >= 2) {
        ok = pointee_name(c, f, args[nargs - 1], name, sizeof name, &idx);
        if (ok)
            in_expr(c, f, args[0], &idx);
    } else if (builtins_is_atomic(fn) && nargs >= 1) {
        ok = pointee_name(c, f, args[0], name, sizeof name, &idx);
        for (unsigned i = 1; ok && i < nargs; i++)
            in_expr(c, f, args[i], out);
    }
    if (ok)
        in_add(out, name, &idx);
    in_clear(&idx);
    return ok;
}

static void in_call(ictx *c, const iframe *f, CXCursor s, in_list *out)
{
    char fn[64];
    spelling_into(s, fn, sizeof fn);
    cursor_list ch = children_of(s);
    CXCursor *args = ch.n > 1 ? ch.v + 1 : NULL;
    unsigned nargs = ch.n > 1 ? ch.n - 1 : 0;
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(s));
    if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl)
        in_helper(c, f, def, args, nargs, out);
    else if (!in_builtin_load(c, f, fn, args, nargs, out))
        for (unsigned i = 0; i < nargs; i++)
            in_expr(c, f, args[i], out);
    free(ch.v);
}

static void in_expr(ictx *c, const iframe *f, CXCursor e, in_list *out)
{
    if (clang_Cursor_isNull(e) || !c->budget)
        return;
    c->budget--;
    CXCursor s = strip_casts(e);
    switch (clang_getCursorKind(s)) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(s);
        enum CXCursorKind dk = clang_getCursorKind(d);
        if (dk == CXCursor_ParmDecl || (dk == CXCursor_VarDecl && is_local_decl(d)))
            in_var(c, f, d, out);
        return;
    }
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
        in_access(c, f, s, out);
        return;
    case CXCursor_CallExpr:
        in_call(c, f, s, out);
        return;
    default:
        in_children(c, f, s, out);
    }
}

/* Fills d->inputs: what its condition(s) read. */
void cond_inputs_of(defs_cache *defs, const kernel_info *k, decision *d)
{
    ictx c;
    memset(&c, 0, sizeof c);
    c.an = defs->an;
    c.defs = defs;
    c.budget = 20000;
    iframe f = {k->cursor, NULL, NULL, 0, d->range.file, d->range.begin, 0};
    in_list out = {0};
    cond_inputs_free(d->inputs, d->ninputs);
    free(d->inputs_upto);
    d->inputs_upto = xcalloc(d->nbranches ? d->nbranches : 1, sizeof *d->inputs_upto);
    if (d->kind == DEC_SWITCH)
        in_expr(&c, &f, d->cond_cursor, &out);
    for (unsigned b = 0; b < d->nbranches; b++) {
        if (d->kind == DEC_IF && d->branches[b].kind == BR_IF)
            in_expr(&c, &f, d->branches[b].cond_cursor, &out);
        d->inputs_upto[b] = out.n;
    }
    d->inputs = out.v;
    d->ninputs = out.n;
}

