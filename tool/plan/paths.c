/* SPDX-License-Identifier: Apache-2.0 */
/*
 * paths.c - impossible paths (see paths.h). Only the simplest integer facts
 * count, so that a dropped leaf is certainly dead: `k = C;` or `int k = C;`
 * for a private integer scalar k whose address the kernel never takes, with
 * no other write of k between that statement and the decision, and a
 * decision that compares k with a constant (k OP C, C OP k, k, !k, && and
 * || of those) or switches on k.
 */
#include "paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syntax.h"
#include "util.h"

typedef struct fact {
    CXCursor var;
    long long value;
    unsigned line;
} fact;

typedef struct facts {
    fact v[32];
    unsigned n;
    const kernel_info *k;
    const analysis *an;
} facts;

static const fact *fact_of(const facts *fs, CXCursor var)
{
    for (unsigned i = 0; i < fs->n; i++)
        if (clang_equalCursors(fs->v[i].var, var))
            return &fs->v[i];
    return NULL;
}

static void forget(facts *fs, CXCursor var)
{
    for (unsigned i = 0; i < fs->n; i++)
        if (clang_equalCursors(fs->v[i].var, var)) {
            fs->v[i] = fs->v[--fs->n];
            return;
        }
}

static int constant_of(CXCursor e, long long *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    int known = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (known)
        *v = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    return known;
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

/* A private integer scalar of the kernel whose address is never taken, and c fits its type. */
static int trackable(facts *fs, CXCursor var, long long c)
{
    enum CXCursorKind k = clang_getCursorKind(var);
    if ((k != CXCursor_VarDecl && k != CXCursor_ParmDecl) || !is_local_decl(var) ||
        !clang_equalCursors(clang_getCursorSemanticParent(var), fs->k->cursor))
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
    addr_scan s = {fs->an, var, 0};
    clang_visitChildren(fs->k->cursor, addr_cb, &s);
    return !s.taken;
}

static unsigned line_of(CXCursor c)
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

static void run_stmt(facts *fs, const seq_item *it)
{
    CXCursor var, value;
    long long c;
    int assigns = constant_assignment(fs->an, it->cursor, &var, &value) &&
                  constant_of(value, &c);
    for (unsigned w = 0; w < it->fx.nwrites; w++)
        forget(fs, it->fx.writes[w]);
    if (!assigns || fs->n == 32 || !trackable(fs, var, c))
        return;
    forget(fs, var);
    fs->v[fs->n++] = (fact){var, c, line_of(it->cursor)};
}

/* ---- conditions ---------------------------------------------------------- */

typedef struct verdict {
    int value;             /* 0 false, 1 true, -1 unknown */
    const fact *used;      /* the fact that decided it */
} verdict;

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

static const fact *fact_named(const facts *fs, CXCursor e)
{
    CXCursor s = strip(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return NULL;
    return fact_of(fs, clang_getCursorReferenced(s));
}

static verdict eval_cond(const facts *fs, CXCursor e);

static verdict eval_binary(const facts *fs, CXCursor s, CXCursor l, CXCursor r)
{
    verdict v = {-1, NULL};
    char op[8] = "";
    binary_operator(fs->an, s, l, r, op, sizeof op);
    if (!strcmp(op, "&&") || !strcmp(op, "||")) {
        verdict a = eval_cond(fs, l), b = eval_cond(fs, r);
        int shortcut = op[0] == '|'; /* the value that decides alone */
        if (a.value == shortcut)
            return a;
        if (b.value == shortcut && a.value >= 0)
            return b;
        if (a.value == !shortcut && b.value == !shortcut)
            return (verdict){!shortcut, a.used ? a.used : b.used};
        return v;
    }
    const fact *fl = fact_named(fs, l), *fr = fact_named(fs, r);
    long long c;
    if (fl && !fr && constant_of(r, &c))
        v = (verdict){compare(op, fl->value, c), fl};
    else if (fr && !fl && constant_of(l, &c))
        v = (verdict){compare(op, c, fr->value), fr};
    if (v.value < 0)
        v.used = NULL;
    return v;
}

static verdict eval_cond(const facts *fs, CXCursor e)
{
    verdict v = {-1, NULL};
    CXCursor s = strip(e);
    const fact *f = fact_named(fs, s);
    if (f)
        return (verdict){f->value != 0, f};
    cursor_list ch = children_of(s);
    if (clang_getCursorKind(s) == CXCursor_BinaryOperator && ch.n == 2) {
        v = eval_binary(fs, s, ch.v[0], ch.v[1]);
    } else if (clang_getCursorKind(s) == CXCursor_UnaryOperator && ch.n == 1) {
        char op[8] = "";
        unary_operator(fs->an, s, ch.v[0], op, sizeof op);
        if (!strcmp(op, "!")) {
            v = eval_cond(fs, ch.v[0]);
            if (v.value >= 0)
                v.value = !v.value;
        }
    }
    free(ch.v);
    return v;
}

/* ---- the path ------------------------------------------------------------ */

static void put_text(const analysis *an, src_range r, char *out, size_t len)
{
    size_t n;
    const char *t = range_text(an, r, &n);
    char buf[96];
    size_t w = 0;
    for (size_t i = 0; i < n && w + 1 < sizeof buf; i++) { /* one line, single spaces */
        char ch = t[i] == '\n' || t[i] == '\t' || t[i] == '\r' ? ' ' : t[i];
        if (ch == ' ' && (w == 0 || buf[w - 1] == ' '))
            continue;
        buf[w++] = ch;
    }
    while (w && buf[w - 1] == ' ')
        w--;
    buf[w] = '\0';
    snprintf(out, len, "%s", buf);
}

static void say_why(const analysis *an, const fact *f, const char *test, unsigned line, char *why,
                    size_t len)
{
    char *name = cursor_spelling(f->var);
    snprintf(why, len, "%s = %lld on line %u, %s on line %u", name, f->value, f->line, test,
             line);
    free(name);
    (void)an;
}

/* The if's branch b: earlier conditions false, its own true. 1 when a fact rules it out. */
static int if_impossible(facts *fs, const decision *d, unsigned b, char *why, size_t len)
{
    for (unsigned i = 0; i <= b && i < d->nbranches; i++) {
        const branch *br = &d->branches[i];
        if (br->kind != BR_IF)
            continue;
        verdict v = eval_cond(fs, br->cond_cursor);
        int want = i == b;
        if (v.value < 0 || v.value == want || !v.used)
            continue;
        char text[96], test[112];
        put_text(fs->an, br->cond, text, sizeof text);
        snprintf(test, sizeof test, want ? "%s" : "!(%s)", text);
        say_why(fs->an, v.used, test, br->cond.line, why, len);
        return 1;
    }
    return 0;
}

static int case_has(const branch *br, long long v)
{
    for (unsigned i = 0; i < br->nvalues; i++)
        if (br->values[i] == v)
            return 1;
    return 0;
}

static int switch_impossible(facts *fs, const decision *d, unsigned b, char *why, size_t len)
{
    const fact *f = fact_named(fs, d->cond_cursor);
    if (!f || d->macro_labels || b >= d->nbranches)
        return 0;
    const branch *br = &d->branches[b];
    int possible;
    if (br->kind == BR_CASE) {
        possible = case_has(br, f->value);
    } else {
        possible = 1;
        for (unsigned i = 0; i < d->nbranches; i++)
            if (d->branches[i].kind == BR_CASE && case_has(&d->branches[i], f->value))
                possible = 0;
    }
    if (possible)
        return 0;
    char text[96], test[140];
    put_text(fs->an, d->cond, text, sizeof text);
    if (br->kind == BR_CASE && br->nvalues)
        snprintf(test, sizeof test, "switch (%s) enters case %lld", text, br->values[0]);
    else
        snprintf(test, sizeof test, "switch (%s) matches no case", text);
    say_why(fs->an, f, test, d->range.line, why, len);
    return 1;
}

int path_impossible(const analysis *an, const kernel_info *k, const path_event *ev, unsigned n,
                    char *why, size_t len)
{
    facts fs;
    memset(&fs, 0, sizeof fs);
    fs.k = k;
    fs.an = an;
    for (unsigned i = 0; i < n; i++) {
        if (ev[i].stmt) {
            run_stmt(&fs, ev[i].stmt);
            continue;
        }
        const decision *d = ev[i].d;
        for (unsigned w = 0; w < d->cond_fx.nwrites; w++) /* (v = ...) > 3: v is not known */
            forget(&fs, d->cond_fx.writes[w]);
        int dead = d->kind == DEC_IF ? if_impossible(&fs, d, ev[i].branch, why, len)
                                     : switch_impossible(&fs, d, ev[i].branch, why, len);
        if (dead)
            return 1;
    }
    return 0;
}
