/* SPDX-License-Identifier: Apache-2.0 */
/*
 * race_scan.c - the buffers a kernel's items may race on (race_scan.h).
 *
 * Two passes over the kernel's body. The first marks the locals whose
 * value may come from memory: a definition (initialiser or assignment)
 * that loads through a pointer parameter or reads a marked local, to a
 * fixed point. The second finds, per pointer parameter, a store whose
 * index reads a load or a marked local (`p[id] = ...`, `p[id] += ...`,
 * `p[id].f++`), and a load of the same parameter at any index. Helpers'
 * bodies are not followed: a race they hide is not named.
 */
#include "race_scan.h"

#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "util.h"

typedef struct rscan {
    const analysis *an;
    const kernel_info *k;
    CXCursor *marked;           /* locals whose value may come from memory */
    unsigned nmarked, capmarked;
    int changed;
    CXCursor *stores;           /* the left sides of plain `=` (a store, not a load) */
    unsigned nstores, capstores;
    unsigned char *store_dd, *loads;
} rscan;

/* The pointer parameter of k that e's base names (through subscripts, members, casts). */
static int base_param(const rscan *s, CXCursor e)
{
    for (int depth = 0; depth < 16; depth++) {
        e = strip_casts(e);
        enum CXCursorKind kind = clang_getCursorKind(e);
        if (kind == CXCursor_ArraySubscriptExpr || kind == CXCursor_MemberRefExpr) {
            cursor_list ch = children_of(e);
            if (!ch.n) {
                free(ch.v);
                return -1;
            }
            e = ch.v[0];
            free(ch.v);
            continue;
        }
        if (kind != CXCursor_DeclRefExpr)
            return -1;
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) != CXCursor_ParmDecl)
            return -1;
        for (unsigned p = 0; p < s->k->nparams; p++)
            if (s->k->params[p].is_pointer && !s->k->params[p].is_constant_space) {
                CXString n = clang_getCursorSpelling(d);
                int same = !strcmp(clang_getCString(n), s->k->params[p].name);
                clang_disposeString(n);
                if (same)
                    return (int)p;
            }
        return -1;
    }
    return -1;
}

/* One declaration or expression reached by two walks (their parents may differ). */
static int same_expr(CXCursor a, CXCursor b)
{
    return clang_getCursorKind(a) == clang_getCursorKind(b) &&
           clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

static int is_marked(const rscan *s, CXCursor d)
{
    for (unsigned i = 0; i < s->nmarked; i++)
        if (same_expr(s->marked[i], d))
            return 1;
    return 0;
}

static void mark(rscan *s, CXCursor d)
{
    if (clang_getCursorKind(d) != CXCursor_VarDecl || is_marked(s, d))
        return;
    VEC_PUSH(s->marked, s->nmarked, s->capmarked, d);
    s->changed = 1;
}

typedef struct from_mem {
    const rscan *s;
    int found;
} from_mem;

static enum CXChildVisitResult from_memory_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    from_mem *f = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_ArraySubscriptExpr && base_param(f->s, c) >= 0)
        f->found = 1;
    else if (kind == CXCursor_DeclRefExpr && is_marked(f->s, clang_getCursorReferenced(c)))
        f->found = 1;
    return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Does e load through a pointer parameter or read a marked local? */
static int from_memory(const rscan *s, CXCursor e)
{
    from_mem f = {s, 0};
    enum CXCursorKind kind = clang_getCursorKind(e);
    if (kind == CXCursor_DeclRefExpr && is_marked(s, clang_getCursorReferenced(e)))
        return 1;
    if (kind == CXCursor_ArraySubscriptExpr && base_param(s, e) >= 0)
        return 1;
    clang_visitChildren(e, from_memory_cb, &f);
    return f.found;
}

/* The index of the store p[index] (under members: p[i].f), or a null cursor. */
static CXCursor store_index(CXCursor lhs)
{
    CXCursor e = strip_casts(lhs);
    while (clang_getCursorKind(e) == CXCursor_MemberRefExpr) {
        cursor_list ch = children_of(e);
        if (!ch.n) {
            free(ch.v);
            return clang_getNullCursor();
        }
        e = strip_casts(ch.v[0]);
        free(ch.v);
    }
    if (clang_getCursorKind(e) != CXCursor_ArraySubscriptExpr)
        return clang_getNullCursor();
    cursor_list ch = children_of(e);
    CXCursor idx = ch.n == 2 ? ch.v[1] : clang_getNullCursor();
    free(ch.v);
    return idx;
}

/* A store to lhs: its parameter, when the index comes from memory. */
static void note_store_at(rscan *s, CXCursor lhs)
{
    int p = base_param(s, lhs);
    CXCursor idx = store_index(lhs);
    if (p >= 0 && !clang_Cursor_isNull(idx) && from_memory(s, idx))
        s->store_dd[p] = 1;
}

static enum CXChildVisitResult pass_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    rscan *s = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_VarDecl) {
        cursor_list ch = children_of(c);
        for (unsigned i = 0; i < ch.n; i++)
            if (clang_isExpression(clang_getCursorKind(ch.v[i])) && from_memory(s, ch.v[i]))
                mark(s, c);
        free(ch.v);
    } else if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) {
        cursor_list ch = children_of(c);
        if (ch.n == 2) {
            char op[8];
            binary_operator(s->an, c, ch.v[0], ch.v[1], op, sizeof op);
            if (is_assignment_op(op)) {
                CXCursor lhs = strip_casts(ch.v[0]);
                if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr && from_memory(s, ch.v[1]))
                    mark(s, clang_getCursorReferenced(lhs));
                note_store_at(s, ch.v[0]);
                for (CXCursor e = lhs; !strcmp(op, "=");) { /* p[i].f = v: p[i] is no load */
                    VEC_PUSH(s->stores, s->nstores, s->capstores, e);
                    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
                        break;
                    cursor_list m = children_of(e);
                    int more = m.n > 0;
                    if (more)
                        e = strip_casts(m.v[0]);
                    free(m.v);
                    if (!more)
                        break;
                }
            }
        }
        free(ch.v);
    } else if (kind == CXCursor_UnaryOperator) {
        cursor_list ch = children_of(c);
        if (ch.n == 1) {
            char op[8];
            unary_operator(s->an, c, ch.v[0], op, sizeof op);
            if (!strcmp(op, "++") || !strcmp(op, "--"))
                note_store_at(s, ch.v[0]);
        }
        free(ch.v);
    }
    return CXChildVisit_Recurse;
}

static int is_plain_store(const rscan *s, CXCursor e)
{
    for (unsigned i = 0; i < s->nstores; i++)
        if (same_expr(s->stores[i], e))
            return 1;
    return 0;
}

static enum CXChildVisitResult loads_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    rscan *s = data;
    if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr && !is_plain_store(s, c)) {
        int p = base_param(s, c);
        if (p >= 0)
            s->loads[p] = 1;
    }
    return CXChildVisit_Recurse;
}

unsigned race_scan(const analysis *an, const kernel_info *k, unsigned char *racy)
{
    rscan s;
    memset(&s, 0, sizeof s);
    s.an = an;
    s.k = k;
    s.store_dd = xcalloc(k->nparams + 1, 1);
    s.loads = xcalloc(k->nparams + 1, 1);
    memset(racy, 0, k->nparams);
    for (int round = 0; round < 8; round++) { /* the locals: to a fixed point */
        s.changed = 0;
        s.nstores = 0;
        memset(s.store_dd, 0, k->nparams + 1);
        clang_visitChildren(k->cursor, pass_cb, &s);
        if (!s.changed)
            break;
    }
    clang_visitChildren(k->cursor, loads_cb, &s);
    unsigned n = 0;
    for (unsigned p = 0; p < k->nparams; p++)
        if (s.store_dd[p] && s.loads[p]) {
            racy[p] = 1;
            n++;
        }
    free(s.marked);
    free(s.stores);
    free(s.store_dd);
    free(s.loads);
    return n;
}
