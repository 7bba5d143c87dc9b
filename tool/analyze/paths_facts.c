/* SPDX-License-Identifier: Apache-2.0 */
/*
 * paths_facts.c - what the plan's impossible paths (tool/plan/paths.c) read
 * of the source (plan_facts.h): a statement that assigns an integer
 * constant, whether its variable can be tracked, and a condition's value
 * from the values the path knows.
 */
#include "analyze_int.h"
#include "plan_facts.h"

#include <stdlib.h>
#include <string.h>

unsigned cursor_expansion_line(CXCursor c)
{
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    return line;
}


/* `k = C;` or `int k = C;`: the variable and the constant, 1 when it is one. */
static int constant_assignment(const analysis *an, CXCursor stmt, CXCursor *var, CXCursor *value)
{
    CXCursor s = strip(stmt);
    cursor_list ch = children_of(s);
    int found = 0;
    if (clang_getCursorKind(s) == CXCursor_DeclStmt && ch.n == 1 &&
        clang_getCursorKind(ch.v[0]) == CXCursor_VarDecl) {
        cursor_list in = children_of(ch.v[0]);
        if (in.n && clang_isExpression(clang_getCursorKind(in.v[in.n - 1]))) {
            *var = ch.v[0];
            *value = in.v[in.n - 1];
            found = 1;
        }
        free(in.v);
    } else if (clang_getCursorKind(s) == CXCursor_BinaryOperator && ch.n == 2) {
        char op[8] = "";
        binary_operator(an, s, ch.v[0], ch.v[1], op, sizeof op);
        CXCursor l = strip(ch.v[0]);
        if (!strcmp(op, "=") && clang_getCursorKind(l) == CXCursor_DeclRefExpr) {
            *var = clang_getCursorReferenced(l);
            *value = ch.v[1];
            found = 1;
        }
    }
    free(ch.v);
    return found;
}

int stmt_assigns_constant(const analysis *an, CXCursor stmt, CXCursor *var, long long *value)
{
    CXCursor e;
    return constant_assignment(an, stmt, var, &e) && int_constant(e, value);
}

typedef struct addr_scan {
    const analysis *an;
    CXCursor var;
    int taken;
} addr_scan;

static enum CXChildVisitResult addr_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    addr_scan *s = data;
    if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
        return CXChildVisit_Recurse;
    cursor_list ch = children_of(c);
    char op[8] = "";
    if (ch.n == 1)
        unary_operator(s->an, c, ch.v[0], op, sizeof op);
    if (ch.n == 1 && strcmp(op, "&") == 0) {
        CXCursor o = strip(ch.v[0]);
        if (clang_getCursorKind(o) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(o), s->var))
            s->taken = 1;
    }
    free(ch.v);
    return s->taken ? CXChildVisit_Break : CXChildVisit_Recurse;
}

int var_tracks_constant(const analysis *an, const kernel_info *k, CXCursor var, long long c)
{
    enum CXCursorKind kind = clang_getCursorKind(var);
    if ((kind != CXCursor_VarDecl && kind != CXCursor_ParmDecl) || !is_local_decl(var) ||
        !clang_equalCursors(clang_getCursorSemanticParent(var), k->cursor))
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    if (t.kind == CXType_Enum)
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    int is_signed = t.kind == CXType_Int || t.kind == CXType_Long || t.kind == CXType_Short ||
                    t.kind == CXType_SChar || t.kind == CXType_Char_S;
    int is_unsigned = t.kind == CXType_UInt || t.kind == CXType_ULong ||
                      t.kind == CXType_UShort || t.kind == CXType_UChar ||
                      t.kind == CXType_Char_U || t.kind == CXType_Bool;
    long long bits = clang_Type_getSizeOf(t) * 8;
    if ((!is_signed && !is_unsigned) || bits <= 0 || bits > 64)
        return 0;
    if (bits < 64) { /* the constant as stored: only when it fits */
        long long lo = is_signed ? -(1LL << (bits - 1)) : 0;
        long long hi = is_signed ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
        if (c < lo || c > hi)
            return 0;
    } else if (is_unsigned && c < 0) {
        return 0;
    }
    addr_scan s = {an, var, 0};
    clang_visitChildren(k->cursor, addr_cb, &s);
    return !s.taken;
}

/* What closed_cb carries: whether a name is open, and how deep into helpers it went. */
typedef struct closed_scan {
    int open;
    int depth;
} closed_scan;

/*
 * A name the condition uses that only the path's own statements can change? A helper
 * with a body is looked into (LBMCL's `is_moving(cell_type)`): its own parameters and
 * locals are the call's, and a program-scope variable it names is open like one the
 * condition names. What it loads, stores or calls with an effect the caller's effects
 * (outcome_reusable) already refuse.
 */
static enum CXChildVisitResult closed_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    closed_scan *s = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_CallExpr) {
        CXCursor f = clang_getCursorReferenced(c);
        CXCursor def = clang_Cursor_isNull(f) ? f : clang_getCursorDefinition(f);
        if (clang_Cursor_isNull(f) || (!clang_Cursor_isNull(def) && s->depth >= 8)) {
            s->open = 1;
        } else if (!clang_Cursor_isNull(def)) {
            s->depth++;
            clang_visitChildren(def, closed_cb, s);
            s->depth--;
        }
    } else if (kind == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);
        enum CXCursorKind dk = clang_getCursorKind(d);
        if (dk == CXCursor_VarDecl && !is_local_decl(d) &&
            !clang_isConstQualifiedType(clang_getCursorType(d)))
            s->open = 1; /* a program-scope variable (OpenCL 2.0 __global) another item writes */
    }
    return s->open ? CXChildVisit_Break : CXChildVisit_Recurse;
}

int cond_reads_only_locals(CXCursor cond)
{
    closed_scan s = {0, 0};
    if (clang_Cursor_isNull(cond))
        return 0;
    closed_cb(cond, clang_getNullCursor(), &s);
    if (!s.open)
        clang_visitChildren(cond, closed_cb, &s);
    return !s.open;
}

int var_is_constant_pointer_param(const kernel_info *k, CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_ParmDecl ||
        !clang_equalCursors(clang_getCursorSemanticParent(var), k->cursor))
        return 0;
    CXString name = clang_getCursorSpelling(var);
    const char *n = clang_getCString(name);
    int constant = 0;
    for (unsigned i = 0; i < k->nparams && n; i++)
        if (!strcmp(k->params[i].name, n))
            constant = k->params[i].is_pointer && k->params[i].is_constant_space;
    clang_disposeString(name);
    return constant;
}

CXCursor named_var(CXCursor e)
{
    CXCursor s = strip(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(s);
}

/* ---- conditions ---------------------------------------------------------- */

typedef struct cond_eval {
    const analysis *an;
    known_value_fn known;
    const void *ud;
} cond_eval;

static const void *known_named(const cond_eval *ce, CXCursor e, long long *v)
{
    CXCursor var = named_var(e);
    return clang_Cursor_isNull(var) ? NULL : ce->known(ce->ud, var, v);
}

static int compare(const char *op, long long a, long long b)
{
    if (!strcmp(op, "<"))
        return a < b;
    if (!strcmp(op, "<="))
        return a <= b;
    if (!strcmp(op, ">"))
        return a > b;
    if (!strcmp(op, ">="))
        return a >= b;
    if (!strcmp(op, "=="))
        return a == b;
    if (!strcmp(op, "!="))
        return a != b;
    return -1;
}

static cond_value eval_cond(const cond_eval *ce, CXCursor e);

static cond_value eval_binary(const cond_eval *ce, CXCursor s, CXCursor l, CXCursor r)
{
    cond_value v = {-1, NULL};
    char op[8] = "";
    binary_operator(ce->an, s, l, r, op, sizeof op);
    if (!strcmp(op, "&&") || !strcmp(op, "||")) {
        cond_value a = eval_cond(ce, l), b = eval_cond(ce, r);
        int shortcut = op[0] == '|'; /* the value that decides alone */
        if (a.value == shortcut)
            return a;
        if (b.value == shortcut && a.value >= 0)
            return b;
        if (a.value == !shortcut && b.value == !shortcut)
            return (cond_value){!shortcut, a.used ? a.used : b.used};
        return v;
    }
    long long vl = 0, vr = 0, c;
    const void *fl = known_named(ce, l, &vl), *fr = known_named(ce, r, &vr);
    if (fl && !fr && int_constant(r, &c))
        v = (cond_value){compare(op, vl, c), fl};
    else if (fr && !fl && int_constant(l, &c))
        v = (cond_value){compare(op, c, vr), fr};
    if (v.value < 0)
        v.used = NULL;
    return v;
}

static cond_value eval_cond(const cond_eval *ce, CXCursor e)
{
    cond_value v = {-1, NULL};
    CXCursor s = strip(e);
    long long val = 0;
    const void *f = known_named(ce, s, &val);
    if (f)
        return (cond_value){val != 0, f};
    cursor_list ch = children_of(s);
    if (clang_getCursorKind(s) == CXCursor_BinaryOperator && ch.n == 2) {
        v = eval_binary(ce, s, ch.v[0], ch.v[1]);
    } else if (clang_getCursorKind(s) == CXCursor_UnaryOperator && ch.n == 1) {
        char op[8] = "";
        unary_operator(ce->an, s, ch.v[0], op, sizeof op);
        if (!strcmp(op, "!")) {
            v = eval_cond(ce, ch.v[0]);
            if (v.value >= 0)
                v.value = !v.value;
        }
    }
    free(ch.v);
    return v;
}

cond_value cond_evaluate(const analysis *an, CXCursor e, known_value_fn known, const void *ud)
{
    cond_eval ce = {an, known, ud};
    return eval_cond(&ce, e);
}
