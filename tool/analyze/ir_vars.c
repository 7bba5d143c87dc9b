/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_vars.c - part of the IR's builder (ir.h): the variables table (scope,
 * type, size, array / struct / union / pointer flags, address taken), a
 * loop's parts and its constant trip count.
 */
#include "ir_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- variables ---------------------------------------------------------------------- */

/* Array, struct, union and pointer flags of t (an array's elements' too). */
static unsigned type_flags(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    switch (ct.kind) {
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
        return IR_VAR_ARRAY | type_flags(clang_getArrayElementType(ct));
    case CXType_Pointer:
        return IR_VAR_POINTER;
    case CXType_Record: {
        enum CXCursorKind k = clang_getCursorKind(clang_getTypeDeclaration(ct));
        return k == CXCursor_UnionDecl ? IR_VAR_UNION : IR_VAR_STRUCT;
    }
    default:
        return 0;
    }
}

unsigned ir_add_var(ir_ctx *c, const char *name, CXCursor decl, CXType type, unsigned flags)
{
    ir_var v;
    memset(&v, 0, sizeof v);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s%s", c->qual, name);
    v.name = sb_steal(&sb);
    v.decl = decl;
    v.scope = c->scope;
    v.frame = c->frame;
    CXString ts = clang_getTypeSpelling(type);
    v.type = xstrdup(clang_getCString(ts));
    clang_disposeString(ts);
    long long size = clang_Type_getSizeOf(type);
    v.size = size < 0 ? -1 : size;
    v.flags = flags | type_flags(type);
    if (!clang_Cursor_isNull(decl))
        cursor_range(c->an, decl, &v.range);
    unsigned index = c->ir->nvars;
    VEC_PUSH(c->ir->vars, c->ir->nvars, c->ir->capvars, v);
    if (!clang_Cursor_isNull(decl))
        cursor_map_put(&c->var_index, decl, c->frame, index);
    return index;
}

static void declare_one(ir_ctx *c, CXCursor decl, unsigned flags)
{
    char *name = cursor_spelling(decl);
    ir_add_var(c, name, decl, clang_getCursorType(decl), flags);
    free(name);
}

void ir_declare(ir_ctx *c, CXCursor decl_stmt)
{
    if (clang_getCursorKind(decl_stmt) != CXCursor_DeclStmt)
        return;
    cursor_list ch = children_of(decl_stmt);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_VarDecl)
            declare_one(c, ch.v[i], 0);
    free(ch.v);
}

void ir_declare_params(ir_ctx *c, CXCursor func, unsigned scope)
{
    unsigned saved = c->scope;
    c->scope = scope;
    int n = clang_Cursor_getNumArguments(func);
    for (int i = 0; i < n; i++)
        declare_one(c, clang_Cursor_getArgument(func, (unsigned)i), IR_VAR_PARAM);
    c->scope = saved;
}

int ir_var_of(const ir_ctx *c, CXCursor decl, unsigned frame)
{
    long v = cursor_map_get(&c->var_index, decl, frame);
    return v < 0 ? -1 : (int)v;
}

static void mark(ir_ctx *c, CXCursor decl, unsigned frame)
{
    int v = clang_Cursor_isNull(decl) ? -1 : ir_var_of(c, decl, frame);
    if (v >= 0)
        c->ir->vars[v].flags |= IR_VAR_ADDR_TAKEN;
}

static int is_local_array(CXCursor ref, CXCursor *decl)
{
    *decl = clang_getCursorReferenced(ref);
    if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr || !is_local_decl(*decl))
        return 0;
    return (type_flags(clang_getCursorType(*decl)) & IR_VAR_ARRAY) != 0;
}

static void walk_taken(ir_ctx *c, CXCursor e, unsigned frame);

static void walk_kids(ir_ctx *c, CXCursor e, unsigned frame, unsigned from)
{
    cursor_list ch = children_of(e);
    for (unsigned i = from; i < ch.n; i++)
        walk_taken(c, ch.v[i], frame);
    free(ch.v);
}

/* &x, and a local array that decays to a pointer (not under a subscript or sizeof). */
static void walk_taken(ir_ctx *c, CXCursor e, unsigned frame)
{
    CXCursor decl;
    switch (clang_getCursorKind(e)) {
    case CXCursor_UnaryExpr: /* sizeof, vec_step: nothing is read */
        return;
    case CXCursor_DeclRefExpr:
        if (is_local_array(e, &decl))
            mark(c, decl, frame);
        return;
    case CXCursor_ArraySubscriptExpr: {
        cursor_list ch = children_of(e);
        int local = ch.n == 2 && is_local_array(strip(ch.v[0]), &decl);
        free(ch.v);
        walk_kids(c, e, frame, local ? 1 : 0); /* a[i] of a private array: no decay */
        return;
    }
    case CXCursor_UnaryOperator: {
        cursor_list ch = children_of(e);
        char op[8] = "";
        if (ch.n == 1)
            unary_operator(c->an, e, ch.v[0], op, sizeof op);
        if (!strcmp(op, "&"))
            mark(c, local_root(ch.v[0]), frame);
        free(ch.v);
        break;
    }
    default:
        break;
    }
    walk_kids(c, e, frame, 0);
}

void ir_mark_taken(ir_ctx *c, CXCursor body, unsigned frame)
{
    walk_taken(c, body, frame);
}

/* ---- loops ---------------------------------------------------------------------------- */

/* The offsets of a for's two ';' inside its parentheses, from the text. */
static int for_semicolons(const analysis *an, CXCursor loop, unsigned semi[2])
{
    src_range r;
    if (cursor_range(an, loop, &r) != 0)
        return -1;
    const src_file *f = &an->pr->files[r.file];
    if (r.begin + 3 > f->len || strncmp(f->text + r.begin, "for", 3) != 0)
        return -1;
    unsigned depth = 0, found = 0;
    for (unsigned p = r.begin + 3; p < r.end && p < f->len && found < 2; p++) {
        char ch = f->text[p];
        if (ch == '(')
            depth++;
        else if (ch == ')' && depth-- <= 1)
            return -1;
        else if (ch == ';' && depth == 1)
            semi[found++] = p;
    }
    return found == 2 ? 0 : -1;
}

/* A for's children without all four parts: placed by where they start. */
static void place_for_parts(const analysis *an, CXCursor loop, const cursor_list *ch,
                            CXCursor *init, CXCursor *cond, CXCursor *step)
{
    unsigned semi[2];
    if (for_semicolons(an, loop, semi) != 0)
        return;
    for (unsigned i = 0; i + 1 < ch->n; i++) {
        src_range r;
        if (cursor_range(an, ch->v[i], &r) != 0)
            continue;
        *(r.begin < semi[0] ? init : r.begin < semi[1] ? cond : step) = ch->v[i];
    }
}

void ir_loop_parts(const analysis *an, CXCursor loop, ir_loop_kind kind, CXCursor *init,
                   CXCursor *cond, CXCursor *step, CXCursor *body)
{
    *init = *cond = *step = *body = clang_getNullCursor();
    cursor_list ch = children_of(loop);
    if (ch.n == 0) {
        free(ch.v);
        return;
    }
    if (kind == IR_DO) {
        *body = ch.v[0];
        if (ch.n >= 2)
            *cond = ch.v[1];
    } else if (kind == IR_WHILE) {
        *body = ch.v[ch.n - 1];
        if (ch.n >= 2)
            *cond = ch.v[0];
    } else {
        *body = ch.v[ch.n - 1];
        if (ch.n == 4) {
            *init = ch.v[0];
            *cond = ch.v[1];
            *step = ch.v[2];
        } else {
            place_for_parts(an, loop, &ch, init, cond, step);
        }
    }
    free(ch.v);
}


/* The variable and constant start of `int i = A` or `i = A`. */
static int loop_start(const analysis *an, CXCursor init, CXCursor *var, long long *a)
{
    cursor_list ch = children_of(init);
    int ok = 0;
    if (clang_getCursorKind(init) == CXCursor_DeclStmt && ch.n == 1) {
        cursor_list vc = children_of(ch.v[0]);
        *var = ch.v[0];
        ok = vc.n >= 1 && int_constant(vc.v[vc.n - 1], a);
        free(vc.v);
    } else if (clang_getCursorKind(init) == CXCursor_BinaryOperator && ch.n == 2) {
        char op[8];
        binary_operator(an, init, ch.v[0], ch.v[1], op, sizeof op);
        *var = referenced_decl(ch.v[0]);
        ok = !strcmp(op, "=") && int_constant(ch.v[1], a);
    }
    free(ch.v);
    return ok;
}

/* The signed stride of `i++`, `--i`, `i += S`, `i -= S` on var, or 0. */
static long long loop_stride(const analysis *an, CXCursor step, CXCursor var)
{
    cursor_list ch = children_of(step);
    long long s = 0;
    char op[8] = "";
    if (ch.n == 1 && clang_getCursorKind(step) == CXCursor_UnaryOperator &&
        clang_equalCursors(referenced_decl(ch.v[0]), var)) {
        unary_operator(an, step, ch.v[0], op, sizeof op);
        s = !strcmp(op, "++") ? 1 : !strcmp(op, "--") ? -1 : 0;
    } else if (ch.n == 2 && clang_getCursorKind(step) == CXCursor_CompoundAssignOperator &&
               clang_equalCursors(referenced_decl(ch.v[0]), var) && int_constant(ch.v[1], &s)) {
        src_range r, l;
        if (cursor_range(an, step, &r) == 0 && cursor_range(an, ch.v[0], &l) == 0) {
            const src_file *f = &an->pr->files[r.file];
            unsigned p = skip_space(f->text, f->len, l.end);
            s = p < f->len && f->text[p] == '-' ? -s : p < f->len && f->text[p] == '+' ? s : 0;
        } else {
            s = 0;
        }
    }
    free(ch.v);
    return s;
}

long long ir_trip_count(const analysis *an, CXCursor init, CXCursor cond, CXCursor step)
{
    CXCursor var = clang_getNullCursor();
    long long a, b;
    if (clang_Cursor_isNull(init) || clang_Cursor_isNull(step) || clang_Cursor_isNull(cond) ||
        !loop_start(an, init, &var, &a) || clang_Cursor_isNull(var))
        return -1;
    long long s = loop_stride(an, step, var);
    CXCursor c = strip(cond);
    cursor_list ch = children_of(c);
    char op[8] = "";
    int ok = clang_getCursorKind(c) == CXCursor_BinaryOperator && ch.n == 2 && s != 0 &&
             clang_equalCursors(referenced_decl(ch.v[0]), var) && int_constant(ch.v[1], &b);
    if (ok)
        binary_operator(an, c, ch.v[0], ch.v[1], op, sizeof op);
    free(ch.v);
    if (!ok)
        return -1;
    long long span = s > 0 ? b - a : a - b, st = s > 0 ? s : -s;
    int up = s > 0;
    if ((up && !strcmp(op, "<")) || (!up && !strcmp(op, ">")))
        return span <= 0 ? 0 : (span + st - 1) / st;
    if ((up && !strcmp(op, "<=")) || (!up && !strcmp(op, ">=")))
        return span < 0 ? 0 : span / st + 1;
    if (!strcmp(op, "!=") && span >= 0 && span % st == 0)
        return span / st;
    return -1;
}
