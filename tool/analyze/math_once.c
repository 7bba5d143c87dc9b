/* SPDX-License-Identifier: Apache-2.0 */
/*
 * math_once.c - a pure math builtin called again on the same values is computed once, as an
 * optimizing compiler computes it: the builtins have no effect but their value, helpers are
 * inlined and loops of a constant trip count unrolled, so common-subexpression elimination
 * and loop-invariant code motion leave one call (bench/real's narrowphase: 228 cos and sin
 * calls a box-box pair as written, on 4 values; docs/performance.md, session 10). Only the
 * profile's figure moves: effects.math, the correction of the rough cost to the time on a GPU,
 * takes a call computed already back whole (its rough cost too), and a loop's calls on values
 * it does not change count once, not once an iteration (math_once_loop); effects.cost, the
 * plan's rough unit, counts every call as written. The figures are a statement's (and a
 * helper's, at each call): a loop the profile replays (a kernel's loop it records) runs its
 * statements each iteration, each with its calls once.
 *
 * A call's key is the builtin's name and its arguments' source, each variable in them named
 * by what fixes its value for the work-item:
 *   @p<i>  a kernel's parameter i, never assigned in the kernel
 *   @v<n>  a kernel's local declared const outside every loop (one value an item; n: its
 *          declaration's offset in its file)
 *   $<i>$  in a helper's summary, its parameter i, never assigned in the helper: a call site
 *          replaces it with the key of its argument i (math_once_call)
 * An argument with anything else (another variable, an array or pointer access, a call that
 * is not a pure math builtin, a local of a helper) has no key: the call is counted each time.
 */
#include "analyze_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct name_map {
    char *name[16], *id[16];
    unsigned n;
    int bad;
    const scan_ctx *sc;
} name_map;

static int is_kernel(CXCursor f)
{
    return clang_getCursorKind(f) == CXCursor_FunctionDecl &&
           clang_getFunctionTypeCallingConv(clang_getCursorType(f)) == CXCallingConv_Unexposed;
}

static unsigned offset_of(CXSourceLocation l)
{
    unsigned off = 0;
    clang_getSpellingLocation(l, NULL, NULL, NULL, &off);
    return off;
}

static int same_file(CXCursor a, CXCursor b)
{
    CXFile fa = NULL, fb = NULL;
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(a)), &fa, NULL, NULL,
                              NULL);
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(b)), &fb, NULL, NULL,
                              NULL);
    return fa && fb && clang_File_isEqual(fa, fb);
}

/* Does the extent of c hold the declaration var? */
static int holds(CXCursor c, CXCursor var)
{
    if (!same_file(c, var))
        return 0;
    CXSourceRange r = clang_getCursorExtent(c);
    unsigned at = offset_of(clang_getRangeStart(clang_getCursorExtent(var)));
    return offset_of(clang_getRangeStart(r)) <= at && at < offset_of(clang_getRangeEnd(r));
}

typedef struct var_use {
    const analysis *an;
    CXCursor var;
    int found; /* in a loop (declared), or written (assigned, stepped, its address taken) */
} var_use;

static enum CXChildVisitResult in_loop_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    var_use *u = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) &&
        holds(c, u->var)) {
        u->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Is c a write of u->var: x op= .., x = .., ++x, x++, --x, x--, &x? */
static int writes(const var_use *u, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_CompoundAssignOperator && k != CXCursor_BinaryOperator &&
        k != CXCursor_UnaryOperator)
        return 0;
    cursor_list ch = children_of(c);
    int target = ch.n >= 1 && names_decl(ch.v[0], u->var), w = 0;
    char op[8] = "";
    if (target && k == CXCursor_CompoundAssignOperator)
        w = 1;
    else if (target && k == CXCursor_BinaryOperator && ch.n == 2) {
        binary_operator(u->an, c, ch.v[0], ch.v[1], op, sizeof op);
        w = !strcmp(op, "=");
    } else if (target && k == CXCursor_UnaryOperator) {
        unary_operator(u->an, c, ch.v[0], op, sizeof op); /* prefix or postfix */
        w = !strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&");
    }
    free(ch.v);
    return w;
}

static enum CXChildVisitResult written_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    var_use *u = data;
    u->found |= writes(u, c);
    return u->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int written_in(const analysis *an, CXCursor func, CXCursor var)
{
    var_use u = {an, var, 0};
    clang_visitChildren(func, written_cb, &u);
    return u.found;
}

static int declared_in_loop(CXCursor func, CXCursor var)
{
    var_use u = {NULL, var, 0};
    clang_visitChildren(func, in_loop_cb, &u);
    return u.found;
}

/* What fixes var's value for the work-item (the header's forms), or NULL. */
static char *var_id(const scan_ctx *sc, CXCursor var)
{
    CXType t = clang_getCursorType(var);
    if (type_is_pointer(t) || clang_getCanonicalType(t).kind == CXType_ConstantArray)
        return NULL;
    char buf[32];
    int kernel = is_kernel(sc->func);
    if (clang_getCursorKind(var) == CXCursor_ParmDecl) {
        int i = param_index(sc->func, var);
        if (i < 0 || (!kernel && !sc->track_params) || written_in(sc->an, sc->func, var))
            return NULL;
        snprintf(buf, sizeof buf, kernel ? "@p%d" : "$%d$", i);
        return xstrdup(buf);
    }
    if (clang_getCursorKind(var) != CXCursor_VarDecl || !kernel ||
        !clang_isConstQualifiedType(t) || !holds(sc->func, var) ||
        declared_in_loop(sc->func, var))
        return NULL;
    snprintf(buf, sizeof buf, "@v%u", offset_of(clang_getRangeStart(clang_getCursorExtent(var))));
    return xstrdup(buf);
}

static enum CXChildVisitResult names_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    name_map *m = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_CompoundAssignOperator) {
        m->bad = 1;
        return CXChildVisit_Break;
    }
    if (k != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    char *name = cursor_spelling(c);
    if (rk == CXCursor_FunctionDecl) {
        int pure = analyze_builtin_pure_math(name) &&
                   clang_Cursor_isNull(clang_getCursorDefinition(ref));
        free(name);
        m->bad |= !pure;
        return m->bad ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (rk == CXCursor_EnumConstantDecl) {
        free(name);
        return CXChildVisit_Continue;
    }
    char *id = rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl ? var_id(m->sc, ref) : NULL;
    for (unsigned i = 0; id && i < m->n; i++)
        if (!strcmp(m->name[i], name)) {
            m->bad |= strcmp(m->id[i], id) != 0; /* two variables of one name */
            free(id);
            free(name);
            return m->bad ? CXChildVisit_Break : CXChildVisit_Continue;
        }
    if (!id || m->n == 16) {
        free(id);
        free(name);
        m->bad = 1;
        return CXChildVisit_Break;
    }
    m->name[m->n] = name;
    m->id[m->n++] = id;
    return CXChildVisit_Continue;
}

/* tokens (source_text's: one space between two) with each variable's name replaced by its
 * id; a member's name (after '.' or '->') and a literal stay. */
static void rename_into(strbuf *out, char *tokens, const name_map *m)
{
    const char *prev = "";
    for (char *save = NULL, *t = strtok_r(tokens, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        const char *id = NULL;
        int name = (t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z') || t[0] == '_';
        for (unsigned i = 0; name && strcmp(prev, ".") && strcmp(prev, "->") && i < m->n; i++)
            if (!strcmp(m->name[i], t))
                id = m->id[i];
        sb_printf(out, "%s%s", out->len ? " " : "", id ? id : t);
        prev = t;
    }
}

/* e's tokens, a space between two (libclang prints no source of an implicit cast: the
 * tokens of its extent are what the user wrote). */
static void source_text(CXCursor e, strbuf *out)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *tok = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(e), &tok, &n);
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(tu, tok[i]);
        sb_printf(out, "%s%s", i ? " " : "", clang_getCString(s));
        clang_disposeString(s);
    }
    if (tok)
        clang_disposeTokens(tu, tok, n);
}

/* The key of the value of the expression e in sc, or NULL. */
static char *value_key(const scan_ctx *sc, CXCursor e)
{
    name_map m;
    memset(&m, 0, sizeof m);
    m.sc = sc;
    if (clang_getCursorKind(strip(e)) == CXCursor_DeclRefExpr)
        names_cb(strip(e), e, &m);
    else
        clang_visitChildren(e, names_cb, &m);
    char *key = NULL;
    if (!m.bad) {
        strbuf text;
        sb_init(&text);
        source_text(e, &text);
        if (text.len) {
            strbuf sb;
            sb_init(&sb);
            rename_into(&sb, text.data, &m);
            key = sb_steal(&sb);
            sb_free(&sb);
        }
        sb_free(&text);
    }
    for (unsigned i = 0; i < m.n; i++) {
        free(m.name[i]);
        free(m.id[i]);
    }
    return key;
}

char *math_once_key(const scan_ctx *sc, const char *name, CXCursor call)
{
    cursor_list ch = children_of(call);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s(", name);
    int ok = ch.n >= 1;
    for (unsigned i = 1; ok && i < ch.n; i++) { /* child 0 is the callee */
        char *k = value_key(sc, ch.v[i]);
        ok = k != NULL;
        if (k)
            sb_printf(&sb, "%s%s", i > 1 ? "," : "", k);
        free(k);
    }
    free(ch.v);
    sb_printf(&sb, ")");
    char *key = ok ? sb_steal(&sb) : NULL;
    sb_free(&sb);
    return key;
}

static int find(const effects *fx, const char *key)
{
    for (unsigned i = 0; i < fx->nonce; i++)
        if (!strcmp(fx->once[i].key, key))
            return (int)i;
    return -1;
}

int math_once_note(effects *fx, char *key, double time)
{
    if (find(fx, key) >= 0) {
        fx->math -= time;
        free(key);
        return 1;
    }
    math_call c = {key, time};
    VEC_PUSH(fx->once, fx->nonce, fx->caponce, c);
    return 0;
}

void math_once_add(effects *fx, const char *key, double time)
{
    if (find(fx, key) < 0) {
        math_call c = {xstrdup(key), time};
        VEC_PUSH(fx->once, fx->nonce, fx->caponce, c);
    }
}

void math_once_loop(effects *fx, unsigned from, double trips)
{
    if (!(trips > 1))
        return;
    for (unsigned i = from; i < fx->nonce; i++)
        fx->math -= (trips - 1) * fx->once[i].time;
}

/* key with each $i$ replaced by args[i] (NULL where one is missing). */
static char *instantiate(const char *key, char **args, unsigned nargs)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *p = key; *p;) {
        if (*p != '$') {
            sb_printf(&sb, "%c", *p++);
            continue;
        }
        char *end = NULL;
        long i = strtol(p + 1, &end, 10);
        if (!end || *end != '$' || i < 0 || (unsigned long)i >= nargs || !args[i]) {
            sb_free(&sb);
            return NULL;
        }
        sb_printf(&sb, "%s", args[i]);
        p = end + 1;
    }
    char *out = sb_steal(&sb);
    sb_free(&sb);
    return out;
}

void math_once_call(const scan_ctx *sc, const effects *callee, CXCursor call)
{
    if (!callee->nonce)
        return;
    cursor_list ch = children_of(call);
    unsigned nargs = ch.n > 1 ? ch.n - 1 : 0;
    char **args = xcalloc(nargs ? nargs : 1, sizeof *args);
    for (unsigned i = 0; i < nargs; i++)
        args[i] = value_key(sc, ch.v[i + 1]);
    free(ch.v);
    for (unsigned i = 0; i < callee->nonce; i++) {
        char *key = instantiate(callee->once[i].key, args, nargs);
        if (key)
            math_once_note(sc->fx, key, callee->once[i].time);
    }
    for (unsigned i = 0; i < nargs; i++)
        free(args[i]);
    free(args);
}
