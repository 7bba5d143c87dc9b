/* SPDX-License-Identifier: Apache-2.0 */
/*
 * syntax.c - cursors, source ranges and operators: what libclang 14 leaves
 * to the caller (statement extents with their ';', operator spellings, the
 * active text).
 */
#include "analyze_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor_map.h"
#include "util.h"

/* ---- cursors and ranges ------------------------------------------------ */

static enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cursor_list *l = data;
    VEC_PUSH(l->v, l->n, l->cap, c);
    return CXChildVisit_Continue;
}

cursor_list children_of(CXCursor c)
{
    cursor_list l = {0};
    clang_visitChildren(c, collect_cb, &l);
    return l;
}

const char *range_text(const analysis *an, src_range r, size_t *len)
{
    *len = r.end - r.begin;
    return an->pr->files[r.file].text + r.begin;
}

void put_active_range(const analysis *an, strbuf *sb, src_range r)
{
    parse_put_active(an->pr, sb, r.file, r.begin, r.end);
}

/* Skips whitespace and comments from offset; returns the new offset. */
unsigned skip_space(const char *t, size_t len, unsigned off)
{
    while (off < len) {
        if (isspace((unsigned char)t[off])) {
            off++;
        } else if (t[off] == '/' && off + 1 < len && t[off + 1] == '/') {
            while (off < len && t[off] != '\n')
                off++;
        } else if (t[off] == '/' && off + 1 < len && t[off + 1] == '*') {
            const char *e = strstr(t + off + 2, "*/");
            off = e ? (unsigned)(e - t) + 2 : (unsigned)len;
        } else {
            break;
        }
    }
    return off;
}

/* Skips whitespace, comments and inactive text (#if blocks not compiled, directive lines). */
unsigned skip_inactive(const analysis *an, unsigned file, unsigned off)
{
    const src_file *f = &an->pr->files[file];
    for (;;) {
        unsigned next = parse_skip_inactive(an->pr, file, skip_space(f->text, f->len, off));
        if (next == off)
            return off;
        off = next;
    }
}

/* Statement kinds whose source text ends with a ';' the extent may omit. */
static int needs_semicolon(enum CXCursorKind k)
{
    switch (k) {
    case CXCursor_CompoundStmt: case CXCursor_IfStmt: case CXCursor_SwitchStmt:
    case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: case CXCursor_LabelStmt:
        return 0;
    default:
        return 1;
    }
}

/* The extent of c in expansion coordinates; 0 on success. */
int cursor_range(const analysis *an, CXCursor c, src_range *r)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    src_pos b, e;
    if (parse_resolve(an->pr, clang_getRangeStart(ext), &b) != 0 ||
        parse_resolve(an->pr, clang_getRangeEnd(ext), &e) != 0 || b.file != e.file)
        return -1;
    r->file = b.file;
    r->begin = b.offset;
    r->end = e.offset < b.offset ? b.offset : e.offset;
    r->line = b.line;
    r->end_line = e.line;
    return 0;
}

/* stmt_range, computed. */
static int stmt_range_of(const analysis *an, CXCursor c, src_range *r)
{
    if (cursor_range(an, c, r) != 0)
        return -1;
    enum CXCursorKind k = clang_getCursorKind(c);
    const src_file *f = &an->pr->files[r->file];
    if (k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_SwitchStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt ||
        k == CXCursor_LabelStmt) {
        cursor_list ch = children_of(c);
        if (ch.n > 0) {
            src_range last;
            if (stmt_range(an, ch.v[ch.n - 1], &last) == 0 && last.file == r->file &&
                last.end > r->end) {
                r->end = last.end;
                r->end_line = last.end_line;
            }
        }
        free(ch.v);
        return 0;
    }
    if (!needs_semicolon(k) || (r->end > 0 && f->text[r->end - 1] == ';'))
        return 0;
    unsigned off = skip_inactive(an, r->file, r->end);
    if (off < f->len && f->text[off] == ';')
        r->end = off + 1;
    return 0;
}

/*
 * The statements' ranges (stmt_range), made by analyze_tu: a memo, so a const analysis may
 * fill it. An if's range takes its last statement's (for the ';'), and libclang's extent
 * of an if walks down its nested ifs: 1000 ifs nested without braces cost 1000^3 / 6 steps
 * without it.
 */
typedef struct range_memo {
    cursor_map index;   /* statement -> v */
    src_range *v;
    int *status;        /* stmt_range's result */
    unsigned n, cap, capstatus;
} range_memo;

void syntax_memo_init(analysis *an)
{
    an->stmt_ranges = xcalloc(1, sizeof(range_memo));
}

void syntax_memo_free(analysis *an)
{
    range_memo *m = an->stmt_ranges;
    if (!m)
        return;
    cursor_map_clear(&m->index);
    free(m->v);
    free(m->status);
    free(m);
    an->stmt_ranges = NULL;
}

/* Like cursor_range, for a statement: includes its ';'. */
int stmt_range(const analysis *an, CXCursor c, src_range *r)
{
    range_memo *m = an->stmt_ranges;
    if (!m)
        return stmt_range_of(an, c, r);
    long i = cursor_map_get(&m->index, c, 0);
    if (i >= 0) {
        if (m->status[i] == 0)
            *r = m->v[i];
        return m->status[i];
    }
    src_range got;
    memset(&got, 0, sizeof got);
    int status = stmt_range_of(an, c, &got);
    if (status == 0)
        *r = got;
    cursor_map_put(&m->index, c, 0, m->n);
    unsigned n = m->n;
    VEC_PUSH(m->status, n, m->capstatus, status);
    VEC_PUSH(m->v, m->n, m->cap, got);
    return status;
}

char *cursor_spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/* The body of a while, for or do statement (a do's first child, else the last), or null. */
CXCursor loop_body_of(CXCursor loop)
{
    enum CXCursorKind k = clang_getCursorKind(loop);
    if (k != CXCursor_WhileStmt && k != CXCursor_ForStmt && k != CXCursor_DoStmt)
        return clang_getNullCursor();
    cursor_list ch = children_of(loop);
    const unsigned kids = k == CXCursor_ForStmt ? 1 : 2; /* `for (;;)`: the body alone */
    CXCursor body = ch.n >= kids ? ch.v[k == CXCursor_DoStmt ? 0 : ch.n - 1]
                                 : clang_getNullCursor();
    free(ch.v);
    return body;
}

/* Strips implicit casts and parentheses. */
CXCursor strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return c;
        cursor_list ch = children_of(c);
        if (ch.n != 1) {
            free(ch.v);
            return c;
        }
        c = ch.v[0];
        free(ch.v);
    }
}

/*
 * Strips implicit casts, parentheses and C-style casts: the value an
 * expression is computed from ("(float)(x)" is x). A node is stripped when
 * it has exactly one expression child (a cast's type is not one).
 */
CXCursor cast_operand(CXCursor c)
{
    cursor_list ch = children_of(c);
    CXCursor next = clang_getNullCursor();
    unsigned nexpr = 0;
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_isExpression(clang_getCursorKind(ch.v[i]))) {
            next = ch.v[i];
            nexpr++;
        }
    free(ch.v);
    return nexpr == 1 ? next : clang_getNullCursor();
}

CXCursor strip_casts(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
            return c;
        CXCursor next = cast_operand(c);
        if (clang_Cursor_isNull(next))
            return c;
        c = next;
    }
}

int int_constant(CXCursor e, long long *v)
{
    if (clang_Cursor_isNull(e))
        return 0;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    return ok;
}

void expr_text(const analysis *an, CXCursor e, char *out, size_t n)
{
    out[0] = '\0';
    CXSourceRange r = clang_getCursorExtent(e);
    src_pos b, en;
    if (parse_in_macro(clang_getRangeStart(r)) ||
        parse_resolve(an->pr, clang_getRangeStart(r), &b) != 0 ||
        parse_resolve(an->pr, clang_getRangeEnd(r), &en) != 0 || b.file != en.file ||
        en.offset <= b.offset) {
        CXPrintingPolicy pol = clang_getCursorPrintingPolicy(e);
        CXString s = clang_getCursorPrettyPrinted(e, pol);
        snprintf(out, n, "%s", clang_getCString(s));
        clang_disposeString(s);
        clang_PrintingPolicy_dispose(pol);
    } else {
        const char *t = an->pr->files[b.file].text + b.offset;
        size_t len = en.offset - b.offset, w = 0;
        for (size_t i = 0; i < len && w + 1 < n; i++) {
            char ch = isspace((unsigned char)t[i]) ? ' ' : t[i];
            if (ch == ' ' && w > 0 && out[w - 1] == ' ')
                continue;
            out[w++] = ch;
        }
        out[w] = '\0';
    }
    size_t len = strlen(out);
    if (len + 1 >= n && n > 4)
        memcpy(out + n - 4, "...", 4);
}

void spelling_into(CXCursor c, char *out, size_t n)
{
    CXString s = clang_getCursorSpelling(c);
    snprintf(out, n, "%s", clang_getCString(s));
    clang_disposeString(s);
}

CXCursor referenced_decl(CXCursor e)
{
    CXCursor s = strip_casts(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(s);
}

int names_decl(CXCursor e, CXCursor decl)
{
    CXCursor s = strip(e);
    return clang_getCursorKind(s) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(s), decl);
}

int param_index(CXCursor func, CXCursor var)
{
    int n = clang_Cursor_getNumArguments(func);
    for (int i = 0; i < n; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(func, (unsigned)i), var))
            return i;
    return -1;
}

/* ---- operators (libclang 14 to 16 do not expose operator kinds) ------- */

static void trim_copy(const char *s, size_t n, char *out, size_t outlen)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= outlen)
        n = outlen - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

static char *pretty(CXCursor c)
{
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(c);
    CXString s = clang_getCursorPrettyPrinted(c, pol);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    clang_PrintingPolicy_dispose(pol);
    return d;
}

#ifdef NPLUS1_HAVE_CURSOR_OPERATOR_KINDS
/* libclang 17+ (detected at configure time): the operator from the cursor's
 * kind, exact inside macro expansions too. 0 when it could tell. */
static int operator_from_kind(CXString spelling, char *out, size_t outlen)
{
    const char *t = clang_getCString(spelling);
    int ok = t && *t && strlen(t) < outlen;
    if (ok)
        strcpy(out, t);
    clang_disposeString(spelling);
    return ok ? 0 : -1;
}
#endif

/*
 * Where the expression c ends. A binary operator ends where its right
 * operand does: followed down the right operands here, because
 * clang_getCursorExtent of a binary operator also finds its start, down all
 * its left operands, and did so once per level of a 25,000-term sum.
 */
static CXSourceLocation expr_end(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator)
            break;
        cursor_list ch = children_of(c);
        int two = ch.n == 2;
        if (two)
            c = ch.v[1];
        free(ch.v);
        if (!two)
            break;
    }
    return clang_getRangeEnd(clang_getCursorExtent(c));
}

/* The operator text between the two operands of a binary operator. */
/*
 * Is e an lvalue? In OpenCL every object lives in an address space, and
 * libclang 14 spells it on the type of an expression that designates one
 * (a variable, p[i], *p, s.f: "__private int", "__global float"); a value
 * read out of it (the implicit lvalue-to-rvalue conversion) has none.
 */
static int is_lvalue(CXCursor e)
{
    CXType t = clang_getCursorType(e);
    return t.kind != CXType_Invalid && clang_getAddressSpace(t) != 0;
}

/*
 * Inside a macro expansion the operator's text is the macro's, not at hand.
 * Its type still tells the forms the effects need: the only binary operators
 * whose left operand stays an lvalue are the assignments (compound ones have
 * a cursor kind of their own); a unary one on an lvalue is '&' (a pointer
 * out) or '++'/'--' (a value out); one giving an lvalue is '*'.
 */
/* An array parameter (`uchar p[16]`) is a pointer, and libclang 14 shows it, and what
 * `p + 4` gives, with the array type it was written with (an lvalue's address space
 * included): the type cannot tell `p + 4` from `p = q` there; the printer below can. */
static void binary_operator_by_type(CXCursor lhs, char *out, size_t outlen)
{
    CXCursor l = strip(lhs);
    if (clang_getCursorKind(l) == CXCursor_DeclRefExpr &&
        is_array_param(clang_getCursorReferenced(l)))
        return;
    if (is_lvalue(lhs))
        snprintf(out, outlen, "=");
}

static void unary_operator_by_type(CXCursor c, CXCursor operand, char *out, size_t outlen)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (is_lvalue(operand))
        snprintf(out, outlen, "%s", t.kind == CXType_Pointer ? "&" : "++");
    else if (is_lvalue(c) && type_is_pointer(clang_getCursorType(strip(operand))))
        snprintf(out, outlen, "*");
}

void binary_operator(const analysis *an, CXCursor c, CXCursor lhs, CXCursor rhs, char *out,
                     size_t outlen)
{
    out[0] = '\0';
#ifdef NPLUS1_HAVE_CURSOR_OPERATOR_KINDS
    enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
    if (bk != CXBinaryOperator_Invalid &&
        operator_from_kind(clang_getBinaryOperatorKindSpelling(bk), out, outlen) == 0)
        return;
#endif
    CXSourceLocation le = expr_end(lhs);
    CXSourceLocation rb = clang_getRangeStart(clang_getCursorExtent(rhs));
    src_pos a, b;
    if (!parse_in_macro(le) && !parse_in_macro(rb) && parse_resolve(an->pr, le, &a) == 0 &&
        parse_resolve(an->pr, rb, &b) == 0 && a.file == b.file && a.offset < b.offset &&
        b.offset - a.offset < 64) {
        trim_copy(an->pr->files[a.file].text + a.offset, b.offset - a.offset, out, outlen);
        if (out[0])
            return;
    }
    binary_operator_by_type(lhs, out, outlen);
    if (out[0])
        return;
    char *whole = pretty(c), *left = pretty(lhs);
    size_t ll = strlen(left);
    if (strncmp(whole, left, ll) == 0) {
        const char *p = whole + ll;
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        trim_copy(p, n, out, outlen);
    }
    free(whole);
    free(left);
}

void unary_operator(const analysis *an, CXCursor c, CXCursor operand, char *out,
                    size_t outlen)
{
    out[0] = '\0';
#ifdef NPLUS1_HAVE_CURSOR_OPERATOR_KINDS
    enum CXUnaryOperatorKind uk = clang_getCursorUnaryOperatorKind(c);
    if (uk != CXUnaryOperator_Invalid &&
        operator_from_kind(clang_getUnaryOperatorKindSpelling(uk), out, outlen) == 0)
        return;
#endif
    src_range u, o;
    CXSourceLocation ub = clang_getRangeStart(clang_getCursorExtent(c));
    if (!parse_in_macro(ub) && cursor_range(an, c, &u) == 0 && cursor_range(an, operand, &o) == 0) {
        const char *t = an->pr->files[u.file].text;
        if (u.begin < o.begin)
            trim_copy(t + u.begin, o.begin - u.begin, out, outlen);
        else if (o.end < u.end)
            trim_copy(t + o.end, u.end - o.end, out, outlen);
        if (out[0])
            return;
    }
    unary_operator_by_type(c, operand, out, outlen);
    if (out[0])
        return;
    char *whole = pretty(c), *inner = pretty(operand);
    size_t wl = strlen(whole), il = strlen(inner);
    if (il < wl && strncmp(whole, inner, il) == 0)
        trim_copy(whole + il, wl - il, out, outlen);
    else if (il < wl)
        trim_copy(whole, wl - il, out, outlen);
    free(whole);
    free(inner);
}

int is_assignment_op(const char *op)
{
    size_t n = strlen(op);
    if (n == 0 || op[n - 1] != '=')
        return 0;
    return strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") && strcmp(op, ">=");
}

int is_logical_op(const char *op)
{
    return !strcmp(op, "&&") || !strcmp(op, "||");
}

int is_local_decl(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_ParmDecl)
        return 1;
    if (k != CXCursor_VarDecl)
        return 0;
    return clang_Cursor_getStorageClass(decl) != CX_SC_Static &&
           clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_FunctionDecl;
}

int type_is_pointer(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer;
}

int spelling_has(CXType t, const char *word)
{
    CXString s = clang_getTypeSpelling(t);
    int has = strstr(clang_getCString(s), word) != NULL;
    clang_disposeString(s);
    return has;
}

/*
 * The local variable whose own storage the lvalue e is part of (x, x.f,
 * x[i] of a local array), or the null cursor when e is in memory.
 */
CXCursor local_root(CXCursor e)
{
    CXCursor s = strip(e);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        return is_local_decl(d) ? d : clang_getNullCursor();
    }
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    cursor_list ch = children_of(s);
    CXCursor r = clang_getNullCursor();
    if (ch.n >= 1 && !expr_is_pointer(ch.v[0]))
        r = local_root(ch.v[0]);
    free(ch.v);
    return r;
}

int is_array_param(CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_ParmDecl)
        return 0;
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(decl)).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

int expr_is_pointer(CXCursor e)
{
    CXCursor s = strip(e);
    CXType t = clang_getCanonicalType(clang_getCursorType(s));
    if (t.kind == CXType_Pointer)
        return 1;
    if (t.kind != CXType_ConstantArray && t.kind != CXType_IncompleteArray &&
        t.kind != CXType_VariableArray && t.kind != CXType_DependentSizedArray)
        return 0;
    switch (clang_getCursorKind(s)) { /* those that name an array object */
    case CXCursor_DeclRefExpr: return is_array_param(clang_getCursorReferenced(s));
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_CompoundLiteralExpr:
    case CXCursor_StringLiteral:
    case CXCursor_InitListExpr:
    case CXCursor_UnaryOperator: /* *pp of a pointer to an array */
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr: return 0;
    default: return 1; /* p + 4 of an array parameter p: a pointer shown as p's array type */
    }
}

CXCursor last_child_of_kind(CXCursor parent, enum CXCursorKind kind)
{
    cursor_list ch = children_of(parent);
    CXCursor last = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == kind)
            last = ch.v[i];
    free(ch.v);
    return last;
}

/*
 * A kernel's last statement when it is a work-group barrier written as such (docs/legality.md,
 * "A barrier that ends the kernel"): `barrier(...)` or `work_group_barrier(...)`, a top-level
 * statement of the kernel's body with nothing but empty statements after it, its callee's
 * name at the start of its text (not a macro's expansion). Else the null cursor.
 */
CXCursor kernel_trailing_barrier(const analysis *an, CXCursor func)
{
    if (clang_getCursorKind(func) != CXCursor_FunctionDecl ||
        clang_getFunctionTypeCallingConv(clang_getCursorType(func)) != CXCallingConv_Unexposed)
        return clang_getNullCursor();
    CXCursor body = last_child_of_kind(func, CXCursor_CompoundStmt);
    cursor_list ch = children_of(body);
    CXCursor last = clang_getNullCursor();
    for (unsigned i = ch.n; i-- > 0 && clang_Cursor_isNull(last);)
        if (clang_getCursorKind(ch.v[i]) != CXCursor_NullStmt)
            last = ch.v[i];
    free(ch.v);
    if (clang_Cursor_isNull(last) || clang_getCursorKind(last) != CXCursor_CallExpr)
        return clang_getNullCursor();
    char *name = cursor_spelling(last);
    src_range r;
    int ok = (!strcmp(name, "barrier") || !strcmp(name, "work_group_barrier")) &&
             cursor_range(an, last, &r) == 0;
    if (ok) {
        size_t n = strlen(name);
        const src_file *f = &an->pr->files[r.file];
        ok = r.end - r.begin > n && !strncmp(f->text + r.begin, name, n) &&
             f->text[r.end - 1] == ')';
    }
    free(name);
    return ok ? last : clang_getNullCursor();
}
