/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reaching_defs.c - the definitions of a function's locals and the
 * conditions each is control dependent on (reaching_defs.h).
 */
#include "reaching_defs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "util.h"

typedef struct guard_stack {
    guard *v;
    unsigned n, cap;
} guard_stack;

/* The local variable at the root of an lvalue (x, x[i], x.y, x.s0), or null. */
static CXCursor lvalue_root(CXCursor e, CXCursor *index)
{
    CXCursor s = strip_casts(e);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        return is_local_decl(d) ? d : clang_getNullCursor();
    }
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr &&
        k != CXCursor_UnexposedExpr)
        return clang_getNullCursor();
    cursor_list ch = children_of(s);
    CXCursor root = clang_getNullCursor();
    if (ch.n >= 1) {
        CXCursor base = ch.v[0];
        CXType bt = clang_getCanonicalType(clang_getCursorType(strip_casts(base)));
        int through_pointer = bt.kind == CXType_Pointer;
        if (k == CXCursor_ArraySubscriptExpr && ch.n == 2 && index)
            *index = ch.v[1];
        if (!through_pointer)
            root = lvalue_root(base, index);
    }
    free(ch.v);
    return root;
}

static void pos_of(analysis *an, CXCursor c, unsigned *file, unsigned *offset)
{
    src_pos p;
    if (parse_resolve(an->pr, clang_getRangeStart(clang_getCursorExtent(c)), &p) == 0) {
        *file = p.file;
        *offset = p.offset;
    } else {
        *file = ~0u;
        *offset = 0;
    }
}

typedef struct def_walk {
    analysis *an;
    func_defs *fd;
    guard_stack gs;
} def_walk;

static void walk_defs(def_walk *w, CXCursor c);

static void push_guard(def_walk *w, CXCursor cond, int loop)
{
    guard g = {cond, loop};
    VEC_PUSH(w->gs.v, w->gs.n, w->gs.cap, g);
}

static void add_def(def_walk *w, def_kind kind, CXCursor var, CXCursor rhs, CXCursor index,
                    const char *op, CXCursor at)
{
    def_site d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.var = var;
    d.rhs = rhs;
    d.index = index;
    snprintf(d.op, sizeof d.op, "%s", op ? op : "");
    pos_of(w->an, at, &d.file, &d.offset);
    if (w->gs.n) {
        d.guards = xmalloc(w->gs.n * sizeof *d.guards);
        memcpy(d.guards, w->gs.v, w->gs.n * sizeof *d.guards);
        d.nguards = w->gs.n;
    }
    VEC_PUSH(w->fd->v, w->fd->n, w->fd->cap, d);
}

static void def_of_store(def_walk *w, CXCursor lhs, CXCursor rhs, const char *op, CXCursor at)
{
    CXCursor index = clang_getNullCursor();
    CXCursor root = lvalue_root(lhs, &index);
    if (clang_Cursor_isNull(root))
        return; /* a store to memory: not a local's value */
    int whole = clang_getCursorKind(strip_casts(lhs)) == CXCursor_DeclRefExpr;
    def_kind kind = !whole ? DEF_ELEMENT : op[0] ? DEF_UPDATE : DEF_ASSIGN;
    add_def(w, kind, root, rhs, index, op, at);
}

static void walk_children(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        walk_defs(w, ch.v[i]);
    free(ch.v);
}

typedef struct spine_node {
    CXCursor lhs, rhs;
    int shortcut;      /* && or ||: the rhs runs only as the lhs decides */
} spine_node;

/*
 * The left spine of nested non-assigning binary operators (a && b && c ...):
 * walked in a loop, deepest first, so that a chain of a thousand operands
 * does not recurse a thousand deep.
 */
static void walk_spine(def_walk *w, CXCursor c)
{
    spine_node *v = NULL;
    unsigned n = 0, cap = 0;
    CXCursor cur = c;
    while (clang_getCursorKind(cur) == CXCursor_BinaryOperator) {
        cursor_list ch = children_of(cur);
        char op[8] = "";
        if (ch.n == 2)
            binary_operator(w->an, cur, ch.v[0], ch.v[1], op, sizeof op);
        if (ch.n != 2 || !strcmp(op, "=")) {
            free(ch.v);
            break;
        }
        spine_node sn = {ch.v[0], ch.v[1], is_logical_op(op)};
        VEC_PUSH(v, n, cap, sn);
        cur = strip_casts(ch.v[0]);
        free(ch.v);
    }
    walk_defs(w, n ? v[n - 1].lhs : cur);
    for (unsigned i = n; i-- > 0;) {
        unsigned saved = w->gs.n;
        if (v[i].shortcut)
            push_guard(w, v[i].lhs, 0);
        walk_defs(w, v[i].rhs);
        w->gs.n = saved;
    }
    free(v);
}

static void walk_binary(def_walk *w, CXCursor c, int compound)
{
    cursor_list ch = children_of(c);
    if (ch.n != 2) {
        free(ch.v);
        walk_children(w, c);
        return;
    }
    char op[8];
    binary_operator(w->an, c, ch.v[0], ch.v[1], op, sizeof op);
    if (!compound && strcmp(op, "=")) {
        free(ch.v);
        walk_spine(w, c);
        return;
    }
    size_t n = strlen(op);
    if (compound && n > 1) {
        op[n - 1] = '\0'; /* "+=" -> "+" */
        def_of_store(w, ch.v[0], ch.v[1], op, c);
    } else if (!strcmp(op, "=")) {
        def_of_store(w, ch.v[0], ch.v[1], "", c);
    }
    walk_defs(w, ch.v[0]);
    int shortcut = !strcmp(op, "&&") || !strcmp(op, "||");
    unsigned saved = w->gs.n;
    if (shortcut)
        push_guard(w, ch.v[0], 0);
    walk_defs(w, ch.v[1]);
    w->gs.n = saved;
    free(ch.v);
}

static void walk_unary(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    if (ch.n == 1) {
        char op[8];
        unary_operator(w->an, c, ch.v[0], op, sizeof op);
        if (!strcmp(op, "++") || !strcmp(op, "--")) {
            def_of_store(w, ch.v[0], clang_getNullCursor(), "+", c);
        } else if (!strcmp(op, "&")) {
            CXCursor root = lvalue_root(ch.v[0], NULL);
            if (!clang_Cursor_isNull(root))
                add_def(w, DEF_ESCAPE, root, clang_getNullCursor(), clang_getNullCursor(), "", c);
        }
    }
    free(ch.v);
    walk_children(w, c);
}

/* A local array passed by name (it decays to a pointer the callee may write through). */
static void walk_call(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    for (unsigned i = 1; i < ch.n; i++) {
        CXCursor d = referenced_decl(ch.v[i]);
        if (!clang_Cursor_isNull(d) && is_local_decl(d) &&
            clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_ConstantArray)
            add_def(w, DEF_ESCAPE, d, clang_getNullCursor(), clang_getNullCursor(), "", c);
    }
    free(ch.v);
    walk_children(w, c);
}

typedef struct exit_scan {
    int has_exit;
    cursor_list conds;
} exit_scan;

static enum CXChildVisitResult exit_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    exit_scan *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_ReturnStmt)
        s->has_exit = 1;
    if (k == CXCursor_IfStmt || k == CXCursor_SwitchStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_DoStmt) {
        cursor_list ch = children_of(c);
        if (ch.n)
            VEC_PUSH(s->conds.v, s->conds.n, s->conds.cap,
                     k == CXCursor_DoStmt ? ch.v[ch.n - 1] : ch.v[0]);
        free(ch.v);
    }
    return CXChildVisit_Recurse;
}

/*
 * A loop: its definitions depend on its condition (for: every part but the
 * body), and, when the body can leave early, on every condition inside.
 */
static void walk_loop(def_walk *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    cursor_list ch = children_of(c);
    if (ch.n == 0) {
        free(ch.v);
        return;
    }
    unsigned body = k == CXCursor_DoStmt ? 0 : ch.n - 1;
    unsigned saved = w->gs.n;
    for (unsigned i = 0; i < ch.n; i++)
        if (i != body && clang_isExpression(clang_getCursorKind(ch.v[i])))
            push_guard(w, ch.v[i], 1);
    exit_scan es = {0, {0}};
    clang_visitChildren(ch.v[body], exit_cb, &es);
    if (es.has_exit)
        for (unsigned i = 0; i < es.conds.n; i++)
            push_guard(w, es.conds.v[i], 1);
    free(es.conds.v);
    for (unsigned i = 0; i < ch.n; i++)
        walk_defs(w, ch.v[i]);
    w->gs.n = saved;
    free(ch.v);
}

/* if / switch / ternary: what follows the first child depends on it. */
static void walk_guarded(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    if (ch.n == 0) {
        free(ch.v);
        return;
    }
    walk_defs(w, ch.v[0]);
    unsigned saved = w->gs.n;
    push_guard(w, ch.v[0], 0);
    for (unsigned i = 1; i < ch.n; i++)
        walk_defs(w, ch.v[i]);
    w->gs.n = saved;
    free(ch.v);
}

static void walk_var_decl(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_isExpression(clang_getCursorKind(ch.v[i])) && i + 1 == ch.n)
            add_def(w, DEF_INIT, c, ch.v[i], clang_getNullCursor(), "", c);
    free(ch.v);
    walk_children(w, c);
}

static void walk_return(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    add_def(w, DEF_RETURN, clang_getNullCursor(), ch.n ? ch.v[0] : clang_getNullCursor(),
            clang_getNullCursor(), "", c);
    free(ch.v);
    walk_children(w, c);
}

/*
 * A private array (or one inside a private struct) that decays to a pointer
 * other than to be indexed: a store through the pointer (W + k, a helper's
 * parameter, a macro's temporary) may set it, so it escapes.
 */
static void walk_decay(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    CXCursor inner = ch.n == 1 ? strip_casts(ch.v[0]) : clang_getNullCursor();
    free(ch.v);
    if (clang_Cursor_isNull(inner) ||
        clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer ||
        clang_getCanonicalType(clang_getCursorType(inner)).kind != CXType_ConstantArray)
        return;
    CXCursor root = lvalue_root(inner, NULL);
    if (!clang_Cursor_isNull(root))
        add_def(w, DEF_ESCAPE, root, clang_getNullCursor(), clang_getNullCursor(), "", c);
}

/* a[i]: a private array indexed in place does not escape; its index is walked. */
static void walk_subscript(def_walk *w, CXCursor c)
{
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++) {
        CXCursor base = ch.v[i];
        if (i == 0 && clang_getCursorKind(base) == CXCursor_UnexposedExpr) {
            cursor_list in = children_of(base); /* skip the decay of the indexed array */
            for (unsigned j = 0; j < in.n; j++)
                walk_defs(w, in.v[j]);
            free(in.v);
        } else {
            walk_defs(w, base);
        }
    }
    free(ch.v);
}

static void walk_defs(def_walk *w, CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnexposedExpr:
        walk_decay(w, c);
        walk_children(w, c);
        return;
    case CXCursor_ArraySubscriptExpr:
        walk_subscript(w, c);
        return;
    case CXCursor_VarDecl:
        walk_var_decl(w, c);
        return;
    case CXCursor_BinaryOperator:
        walk_binary(w, c, 0);
        return;
    case CXCursor_CompoundAssignOperator:
        walk_binary(w, c, 1);
        return;
    case CXCursor_UnaryOperator:
        walk_unary(w, c);
        return;
    case CXCursor_CallExpr:
        walk_call(w, c);
        return;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        walk_loop(w, c);
        return;
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_ConditionalOperator:
        walk_guarded(w, c);
        return;
    case CXCursor_ReturnStmt:
        walk_return(w, c);
        return;
    default:
        walk_children(w, c);
    }
}

const func_defs *defs_of(defs_cache *c, CXCursor func)
{
    long found = cursor_map_get(&c->by_func, func, 0);
    if (found >= 0)
        return c->v[found];
    func_defs *fd = xcalloc(1, sizeof *fd);
    fd->func = func;
    cursor_map_put(&c->by_func, func, 0, c->n);
    VEC_PUSH(c->v, c->n, c->cap, fd);
    def_walk w = {c->an, fd, {0}};
    walk_children(&w, func);
    free(w.gs.v);
    return fd;
}

void defs_cache_free(defs_cache *c)
{
    for (unsigned d = 0; d < c->n; d++) {
        func_defs *fd = c->v[d];
        for (unsigned i = 0; i < fd->n; i++)
            free(fd->v[i].guards);
        free(fd->v);
        free(fd);
    }
    free(c->v);
    cursor_map_clear(&c->by_func);
    c->v = NULL;
    c->n = c->cap = 0;
}
