/* SPDX-License-Identifier: Apache-2.0 */
/*
 * divergence_eval.c - the lattice of divergence.c and how expressions
 * evaluate in it: literals and arguments, locals through their reaching
 * definitions (reaching_defs.h) and the conditions they depend on, the
 * operators, loads, builtins and helper calls (their returns evaluated with
 * the call's argument classes bound), memoised per variable or helper, mode
 * and argument signature, iterated to a fixed point over loops.
 */
#include "divergence_int.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "builtins.h"
#include "util.h"

static dval eval_var_value(dctx *x, const frame *f, CXCursor var);

/* ---- small helpers -------------------------------------------------------- */

static dval mk(vclass c, const char *why)
{
    dval v;
    v.c = c;
    snprintf(v.why, sizeof v.why, "%s", why ? why : "");
    return v;
}

static dval join(dval a, dval b)
{
    return b.c > a.c ? b : a;
}

/* At least varying: what an item-varying value becomes through a non-affine operation. */
static dval at_least_varying(dval v, const char *why)
{
    if (v.c >= V_VARYING || v.c == V_UNIFORM)
        return v;
    return mk(V_VARYING, why);
}

static void add_source(char (*set)[48], unsigned *n, int *more, const char *s)
{
    for (unsigned i = 0; i < *n; i++)
        if (!strcmp(set[i], s))
            return;
    if (*n == MAX_SOURCES) {
        if (more)
            *more = 1;
        return;
    }
    snprintf(set[(*n)++], 48, "%.47s", s); /* cut to the slot, as meant */
}

static int is_comparison(const char *op)
{
    return !strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
           !strcmp(op, "==") || !strcmp(op, "!=");
}

static int is_additive(const char *op)
{
    return !strcmp(op, "+") || !strcmp(op, "-");
}


/* ---- memo ----------------------------------------------------------------- */

static memo *memo_find(dctx *x, CXCursor key, int mode, unsigned sig)
{
    uint64_t tag = (uint64_t)sig << 32 | (uint32_t)mode;
    long found = cursor_map_get(&x->memo_index, key, tag);
    if (found >= 0)
        return &x->memos[found];
    cursor_map_put(&x->memo_index, key, tag, x->nmemos);
    memo m;
    memset(&m, 0, sizeof m);
    m.key = key;
    m.mode = mode;
    m.sig = sig;
    m.val = mk(V_UNIFORM, "");
    VEC_PUSH(x->memos, x->nmemos, x->capmemos, m);
    return &x->memos[x->nmemos - 1];
}

/* Evaluates through a memo entry: a cycle reads the current estimate. */
typedef dval (*memo_fn)(dctx *x, const frame *f, CXCursor key, int mode);

static dval memoised(dctx *x, const frame *f, CXCursor key, int mode, memo_fn fn)
{
    memo *m = memo_find(x, key, mode, f->sig);
    if (m->visiting || m->done)
        return m->val;
    m->visiting = 1;
    dval v = fn(x, f, key, mode);
    m = memo_find(x, key, mode, f->sig); /* the table may have moved */
    m->visiting = 0;
    m->done = 1;
    if (v.c > m->val.c) {
        m->val = v;
        x->changed = 1;
    }
    return m->val;
}

/* ---- variables ------------------------------------------------------------ */

static dval guard_class(dctx *x, const frame *f, const guard *g, int mode)
{
    dval c = div_eval(x, f, g->cond, 1);
    if (c.c == V_UNIFORM)
        return c;
    if (c.c >= V_VARYING)
        return c;
    char t[64], why[160];
    expr_text(x->an, g->cond, t, sizeof t);
    snprintf(why, sizeof why, "set under a condition that varies across items: '%s'", t);
    /* as a condition, a flag set under affine ifs is still an affine predicate */
    if (mode && !g->loop && c.c == V_AFFINE)
        return c;
    return at_least_varying(mk(c.c, why), why);
}

static dval binary_class(dctx *x, CXCursor c, const char *op, dval l, dval r, CXCursor rhs,
                         int cond);

static dval def_class(dctx *x, const frame *f, const def_site *d, int mode)
{
    char name[64], why[160];
    spelling_into(d->var, name, sizeof name);
    dval v = mk(V_UNIFORM, "");
    switch (d->kind) {
    case DEF_ESCAPE:
        snprintf(why, sizeof why, "the address of '%s' is taken, so a call or store may set it",
                 name);
        return mk(V_DATA, why);
    case DEF_INIT:
    case DEF_ASSIGN:
        v = div_eval(x, f, d->rhs, mode);
        break;
    case DEF_UPDATE: {
        dval self = eval_var_value(x, f, d->var);
        dval r = clang_Cursor_isNull(d->rhs) ? mk(V_UNIFORM, "") : div_eval(x, f, d->rhs, 0);
        v = binary_class(x, d->rhs, d->op, self, r, d->rhs, 0);
        break;
    }
    case DEF_ELEMENT:
        v = div_eval(x, f, d->rhs, 0);
        if (!clang_Cursor_isNull(d->index)) {
            dval i = div_eval(x, f, d->index, 0);
            snprintf(why, sizeof why, "'%s' is stored to at an index that varies", name);
            v = join(v, at_least_varying(i, why));
        }
        break;
    case DEF_RETURN:
        v = clang_Cursor_isNull(d->rhs) ? mk(V_UNIFORM, "") : div_eval(x, f, d->rhs, mode);
        break;
    }
    for (unsigned g = 0; g < d->nguards; g++)
        v = join(v, guard_class(x, f, &d->guards[g], mode));
    return v;
}

static int reaches(const frame *f, const def_site *d)
{
    return f->args || d->file != f->hfile || d->offset < f->horizon;
}

static dval var_uncached(dctx *x, const frame *f, CXCursor var, int mode)
{
    char name[64], src[64];
    spelling_into(var, name, sizeof name);
    dval v = mk(V_UNIFORM, "");
    if (clang_getCursorKind(var) == CXCursor_ParmDecl) {
        int idx = clang_Cursor_getNumArguments(f->func);
        for (int i = 0; f->args && i < idx && (unsigned)i < f->nargs; i++)
            if (clang_equalCursors(clang_Cursor_getArgument(f->func, (unsigned)i), var))
                v = f->args[i];
        int pointer = clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer;
        if (!f->args && !pointer) { /* a pointer argument shows as the load it makes */
            snprintf(src, sizeof src, "argument '%.40s'", name);
            add_source(x->uniforms, &x->nuniforms, &x->more_uniforms, src);
        }
    }
    const func_defs *fd = defs_of(&x->defs, f->func);
    for (unsigned i = 0; i < fd->n; i++) {
        const def_site *d = &fd->v[i];
        if (d->kind == DEF_RETURN || !clang_equalCursors(d->var, var) || !reaches(f, d))
            continue;
        v = join(v, def_class(x, f, d, mode));
    }
    char quoted[70];
    snprintf(quoted, sizeof quoted, "'%s'", name);
    if (v.c >= V_VARYING && !strstr(v.why, " through '") && !strstr(v.why, quoted)) {
        size_t n = strlen(v.why);
        snprintf(v.why + n, sizeof v.why - n, " through '%s'", name);
    }
    return v;
}

static dval eval_var(dctx *x, const frame *f, CXCursor var, int mode)
{
    return memoised(x, f, var, mode, var_uncached);
}

static dval eval_var_value(dctx *x, const frame *f, CXCursor var)
{
    return eval_var(x, f, var, 0);
}

/* ---- operators ------------------------------------------------------------- */

static int small_constant(CXCursor e)
{
    if (clang_Cursor_isNull(e))
        return 0;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    int small = 0;
    if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
        long long v = clang_EvalResult_getAsLongLong(r);
        small = v > 0 && v < 32;
    }
    if (r)
        clang_EvalResult_dispose(r);
    return small;
}

/* Does e fold to an integer constant (a literal, a macro, an enum, sizeof)? */
static int is_constant(CXCursor e)
{
    if (clang_Cursor_isNull(e))
        return 0;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    int known = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (r)
        clang_EvalResult_dispose(r);
    return known;
}

static void why_text(dctx *x, CXCursor c, const char *fmt, char *why, size_t n)
{
    char t[72];
    if (clang_Cursor_isNull(c))
        snprintf(t, sizeof t, "...");
    else
        expr_text(x->an, c, t, sizeof t);
    snprintf(why, n, fmt, t);
}

static dval binary_class(dctx *x, CXCursor c, const char *op, dval l, dval r, CXCursor rhs,
                         int cond)
{
    char why[160];
    dval j = join(l, r);
    if (!strcmp(op, "=") || !strcmp(op, ","))
        return r;
    if (!strcmp(op, "+") || !strcmp(op, "-"))
        return j;
    if (!strcmp(op, "&&") || !strcmp(op, "||") || is_comparison(op)) {
        if (cond || j.c == V_UNIFORM)
            return j;
        why_text(x, c, "'%s' is a comparison used as a number", why, sizeof why);
        return at_least_varying(j, why);
    }
    if (!strcmp(op, "*") && (l.c == V_UNIFORM || r.c == V_UNIFORM))
        return j;
    if ((!strcmp(op, "/") || !strcmp(op, "<<") || !strcmp(op, ">>")) && r.c == V_UNIFORM)
        return j;
    if (!strcmp(op, "%") && r.c == V_UNIFORM) {
        if (l.c == V_UNIFORM || (is_constant(rhs) && !small_constant(rhs)))
            return j;
        if (is_constant(rhs))
            why_text(x, c, "'%s' repeats with a period shorter than a SIMD group (32 items)",
                     why, sizeof why);
        else /* m = 2 at run time diverges inside every SIMD group */
            why_text(x, c, "'%s' repeats with a period known only at run time, which may be "
                     "shorter than a SIMD group (32 items)", why, sizeof why);
        return at_least_varying(j, why);
    }
    if ((!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^")) && j.c == V_UNIFORM)
        return j;
    why_text(x, c, "'%s' is not affine in the work-item ids", why, sizeof why);
    return at_least_varying(j, why);
}

/*
 * A left-nested chain (a && b && c ..., a + b - c ...) is a join of its
 * operands: walked down its left spine in a loop, so that a chain of a
 * thousand operands does not recurse a thousand deep.
 */
static dval eval_chain(dctx *x, const frame *f, CXCursor e, int logical, int cond)
{
    cursor_list rhs = {0}; /* the right operands, outermost first */
    CXCursor cur = e;
    while (clang_getCursorKind(cur) == CXCursor_BinaryOperator) {
        cursor_list ch = children_of(cur);
        char op[8] = "";
        if (ch.n == 2)
            binary_operator(x->an, cur, ch.v[0], ch.v[1], op, sizeof op);
        if (ch.n != 2 || !(logical ? is_logical_op(op) : is_additive(op))) {
            free(ch.v);
            break;
        }
        VEC_PUSH(rhs.v, rhs.n, rhs.cap, ch.v[1]);
        cur = strip_casts(ch.v[0]);
        free(ch.v);
    }
    dval j = div_eval(x, f, cur, logical); /* left to right, as written */
    for (unsigned i = rhs.n; i-- > 0;)
        j = join(j, div_eval(x, f, rhs.v[i], logical));
    free(rhs.v);
    if (!logical || cond || j.c == V_UNIFORM)
        return j;
    char why[160];
    why_text(x, e, "'%s' is a comparison used as a number", why, sizeof why);
    return at_least_varying(j, why);
}

static dval eval_binary(dctx *x, const frame *f, CXCursor e, int cond)
{
    cursor_list ch = children_of(e);
    if (ch.n != 2) {
        free(ch.v);
        return mk(V_DATA, "cannot read an operator");
    }
    char op[8];
    binary_operator(x->an, e, ch.v[0], ch.v[1], op, sizeof op);
    if (is_logical_op(op) || is_additive(op)) {
        free(ch.v);
        return eval_chain(x, f, e, is_logical_op(op), cond);
    }
    int sub_cond = !strcmp(op, "&&") || !strcmp(op, "||");
    dval l = div_eval(x, f, ch.v[0], sub_cond);
    dval r = div_eval(x, f, ch.v[1], sub_cond || (!strcmp(op, ",") && cond));
    dval v = binary_class(x, e, op, l, r, ch.v[1], cond);
    free(ch.v);
    return v;
}

/* x += y as an expression (a loop's increment): the class of x + y. */
static dval eval_compound(dctx *x, const frame *f, CXCursor e)
{
    cursor_list ch = children_of(e);
    if (ch.n != 2) {
        free(ch.v);
        return mk(V_DATA, "cannot read an assignment");
    }
    char op[8];
    binary_operator(x->an, e, ch.v[0], ch.v[1], op, sizeof op);
    size_t n = strlen(op);
    if (n > 1)
        op[n - 1] = '\0';
    dval v = binary_class(x, e, op, div_eval(x, f, ch.v[0], 0), div_eval(x, f, ch.v[1], 0), ch.v[1], 0);
    free(ch.v);
    return v;
}

static dval eval_load(dctx *x, CXCursor base, dval addr, CXCursor whole, int subscript);

static dval eval_unary(dctx *x, const frame *f, CXCursor e, int cond)
{
    cursor_list ch = children_of(e);
    if (ch.n != 1) {
        free(ch.v);
        return mk(V_UNIFORM, ""); /* sizeof and friends */
    }
    CXCursor a = ch.v[0];
    free(ch.v);
    char op[8], why[160];
    unary_operator(x->an, e, a, op, sizeof op);
    if (!strcmp(op, "!")) {
        dval v = div_eval(x, f, a, 1);
        if (cond || v.c == V_UNIFORM)
            return v;
        why_text(x, e, "'%s' is a comparison used as a number", why, sizeof why);
        return at_least_varying(v, why);
    }
    if (!strcmp(op, "-") || !strcmp(op, "+") || !strcmp(op, "~") || !strcmp(op, "++") ||
        !strcmp(op, "--"))
        return div_eval(x, f, a, cond);
    if (!strcmp(op, "*"))
        return eval_load(x, a, div_eval(x, f, a, 0), e, 0);
    why_text(x, e, "cannot follow '%s'", why, sizeof why);
    return mk(V_DATA, why);
}

/* ---- memory ----------------------------------------------------------------- */

static const char *space_of(CXType pointee)
{
    CXString s = clang_getTypeSpelling(pointee);
    const char *t = clang_getCString(s);
    const char *space = strstr(t, "__constant") ? "constant"
                        : strstr(t, "__global") ? "global"
                        : strstr(t, "__local")  ? "local"
                                                : "private";
    clang_disposeString(s);
    return space;
}

/* A load: uniform when the address is and the memory is __constant or const. */
static dval eval_load(dctx *x, CXCursor base, dval addr, CXCursor whole, int subscript)
{
    CXType pointee = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(base)));
    const char *space = space_of(pointee);
    int unwritten = !strcmp(space, "constant") || clang_isConstQualifiedType(pointee);
    char t[64], why[160];
    if (subscript) {
        expr_text(x->an, strip_casts(base), t, 40);
        strcat(t, "[...]");
    } else {
        expr_text(x->an, whole, t, sizeof t);
    }
    if (addr.c == V_UNIFORM && unwritten) {
        char src[48];
        expr_text(x->an, whole, src, 40);
        snprintf(t, sizeof t, "'%s'", src);
        add_source(x->uniforms, &x->nuniforms, &x->more_uniforms, t);
        return mk(V_UNIFORM, "");
    }
    snprintf(why, sizeof why, "reads '%s' (%s memory)", t, space);
    return mk(V_DATA, why);
}

static int is_private_array(CXCursor base, CXCursor *decl)
{
    *decl = referenced_decl(base);
    if (clang_Cursor_isNull(*decl) || clang_getCursorKind(*decl) != CXCursor_VarDecl ||
        !is_local_decl(*decl))
        return 0;
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(*decl)).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray;
}

static int owns(const frame *f, CXCursor var)
{
    return clang_equalCursors(clang_getCursorSemanticParent(var), f->func);
}

static dval eval_subscript(dctx *x, const frame *f, CXCursor e)
{
    cursor_list ch = children_of(e);
    if (ch.n != 2) {
        free(ch.v);
        return mk(V_DATA, "cannot read a subscript");
    }
    CXCursor base = ch.v[0], index = ch.v[1], arr;
    free(ch.v);
    dval i = div_eval(x, f, index, 0);
    if (is_private_array(base, &arr) && owns(f, arr)) {
        char why[160];
        why_text(x, e, "'%s' reads a private array at an index that varies", why, sizeof why);
        return join(eval_var(x, f, arr, 0), at_least_varying(i, why));
    }
    return eval_load(x, base, join(div_eval(x, f, base, 0), i), e, 1);
}

static dval eval_member(dctx *x, const frame *f, CXCursor e)
{
    cursor_list ch = children_of(e);
    if (ch.n != 1) {
        free(ch.v);
        return mk(V_DATA, "cannot read a member");
    }
    CXCursor base = ch.v[0];
    free(ch.v);
    dval b = div_eval(x, f, base, 0);
    if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
        return eval_load(x, base, b, e, 0);
    return b;
}

/* ---- calls --------------------------------------------------------------------- */

static int name_is(const char *name, const char *const *set)
{
    for (int i = 0; set[i]; i++)
        if (!strcmp(name, set[i]))
            return 1;
    return 0;
}

static int starts(const char *s, const char *p)
{
    return builtins_starts(s, p);
}

static void builtin_source(dctx *x, CXCursor call, const char *name, int id)
{
    char t[48];
    expr_text(x->an, call, t, sizeof t);
    if (strlen(t) > 30)
        snprintf(t, sizeof t, "%.40s(...)", name);
    if (id)
        add_source(x->ids, &x->nids, NULL, t);
    else
        add_source(x->uniforms, &x->nuniforms, &x->more_uniforms, t);
}

typedef struct call_args {
    CXCursor *v;
    unsigned n;
    dval *cls;
} call_args;

static dval join_args(const call_args *a, unsigned from)
{
    dval j = mk(V_UNIFORM, "");
    for (unsigned i = from; i < a->n; i++)
        j = join(j, a->cls[i]);
    return j;
}

static dval eval_builtin(dctx *x, const frame *f, CXCursor e, const char *name,
                         const call_args *a)
{
    static const char *const monotone[] = {"min", "max", "clamp", "abs", "fmin", "fmax",
                                           "add_sat", "sub_sat", NULL};
    static const char *const products[] = {"mad", "mad24", "mul24", "fma", "mad_sat", NULL};
    char why[160];
    if (builtins_kind(name) == BUILTIN_GLOBAL_ID || !strcmp(name, "get_local_id") ||
        !strcmp(name, "get_local_linear_id")) { /* sources of divergence: builtins.h */
        builtin_source(x, e, name, 1);
        return mk(V_AFFINE, "");
    }
    /* The same for the items of a work-group, and so of a SIMD group: the local ids
     * that pass legality.c are parts of get_group_id(d) * get_local_size(d) +
     * get_local_id(d), affine as the global id it is. */
    if (!strcmp(name, "get_group_id") || !strcmp(name, "get_local_size") ||
        !strcmp(name, "get_enqueued_local_size") || !strcmp(name, "get_num_groups")) {
        builtin_source(x, e, name, 0);
        return mk(V_UNIFORM, "");
    }
    if (builtins_kind(name) == BUILTIN_GLOBAL_SIZE) {
        builtin_source(x, e, name, 0);
        return mk(V_UNIFORM, "");
    }
    if (builtins_is_atomic(name)) {
        snprintf(why, sizeof why, "calls %s (an atomic: every item may see another value)", name);
        return mk(V_DATA, why);
    }
    if (starts(name, "vload") && a->n >= 2)
        return eval_load(x, a->v[a->n - 1], join_args(a, 0), e, 0);
    if (starts(name, "read_image") || builtins_kind(name) == BUILTIN_LOCAL_ID ||
        builtins_is_group_function(name) || !strcmp(name, "printf")) {
        snprintf(why, sizeof why, "calls %s", name);
        return mk(V_DATA, why);
    }
    if (name_is(name, monotone) || starts(name, "convert_"))
        return join_args(a, 0);
    if (name_is(name, products) && a->n >= 2) {
        dval p = a->cls[0].c == V_UNIFORM || a->cls[1].c == V_UNIFORM
                     ? join(a->cls[0], a->cls[1])
                     : at_least_varying(join(a->cls[0], a->cls[1]), "a product of two values that vary");
        return a->n > 2 ? join(p, a->cls[2]) : p;
    }
    if (!strcmp(name, "select") && a->n == 3) {
        dval c = div_eval(x, f, a->v[2], 1);
        why_text(x, e, "'%s' picks by a condition that varies", why, sizeof why);
        return join(join_args(a, 0), at_least_varying(c, why));
    }
    dval j = join_args(a, 0);
    why_text(x, e, "'%s' is not affine in the work-item ids", why, sizeof why);
    return at_least_varying(j, why);
}

static dval helper_uncached(dctx *x, const frame *hf, CXCursor def, int mode)
{
    const func_defs *fd = defs_of(&x->defs, def);
    dval v = mk(V_UNIFORM, "");
    for (unsigned i = 0; i < fd->n; i++)
        if (fd->v[i].kind == DEF_RETURN)
            v = join(v, def_class(x, hf, &fd->v[i], mode));
    return v;
}

static dval eval_helper(dctx *x, const frame *f, CXCursor def, const char *name,
                        const call_args *a, int cond)
{
    if (f->depth >= 16)
        return mk(V_DATA, "helper calls nest too deep to follow");
    frame hf = {def, a->cls, a->n, 0, ~0u, 0, f->depth + 1};
    for (unsigned i = 0; i < a->n && i < 16; i++)
        hf.sig |= (unsigned)a->cls[i].c << (2 * i);
    dval v = memoised(x, &hf, def, cond, helper_uncached);
    if (v.c >= V_VARYING && !strstr(v.why, "(in helper")) {
        size_t n = strlen(v.why);
        snprintf(v.why + n, sizeof v.why - n, " (in helper '%s')", name);
    }
    return v;
}

/*
 * An OpenCL builtin: declared in a system header, or (-fdeclare-opencl-builtins)
 * declared implicitly, at the call itself.
 */
static int is_builtin_decl(dctx *x, CXCursor ref, CXCursor call)
{
    CXSourceLocation loc = clang_getCursorLocation(ref);
    CXFile file;
    clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
    if (!file || clang_Location_isInSystemHeader(loc))
        return 1;
    src_pos d, b, e;
    CXSourceRange r = clang_getCursorExtent(call);
    return parse_resolve(x->an->pr, loc, &d) == 0 &&
           parse_resolve(x->an->pr, clang_getRangeStart(r), &b) == 0 &&
           parse_resolve(x->an->pr, clang_getRangeEnd(r), &e) == 0 && d.file == b.file &&
           d.offset >= b.offset && d.offset <= e.offset;
}

static dval eval_call(dctx *x, const frame *f, CXCursor e, int cond)
{
    char name[64], why[160];
    spelling_into(e, name, sizeof name);
    cursor_list ch = children_of(e);
    call_args a = {ch.n > 1 ? ch.v + 1 : NULL, ch.n > 1 ? ch.n - 1 : 0, NULL};
    a.cls = xcalloc(a.n ? a.n : 1, sizeof *a.cls);
    for (unsigned i = 0; i < a.n; i++)
        a.cls[i] = div_eval(x, f, a.v[i], 0);
    CXCursor ref = clang_getCursorReferenced(e);
    CXCursor def = clang_getCursorDefinition(ref);
    dval v;
    if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl) {
        v = eval_helper(x, f, def, name, &a, cond);
    } else if (clang_Cursor_isNull(ref) || is_builtin_decl(x, ref, e)) {
        v = eval_builtin(x, f, e, name, &a);
    } else {
        snprintf(why, sizeof why, "calls '%s', whose body nplus1gen cannot see", name);
        v = mk(V_DATA, why);
    }
    free(a.cls);
    free(ch.v);
    return v;
}

/* ---- expressions ------------------------------------------------------------------ */

static dval eval_ref(dctx *x, const frame *f, CXCursor e, int cond)
{
    CXCursor d = clang_getCursorReferenced(e);
    char name[64], why[160];
    spelling_into(d, name, sizeof name);
    switch (clang_getCursorKind(d)) {
    case CXCursor_EnumConstantDecl:
    case CXCursor_FunctionDecl:
        add_source(x->uniforms, &x->nuniforms, &x->more_uniforms, "constants");
        return mk(V_UNIFORM, "");
    case CXCursor_ParmDecl:
    case CXCursor_VarDecl:
        break;
    default:
        snprintf(why, sizeof why, "cannot follow '%s'", name);
        return mk(V_DATA, why);
    }
    if (is_local_decl(d)) {
        if (!owns(f, d)) {
            snprintf(why, sizeof why, "cannot follow '%s'", name);
            return mk(V_DATA, why);
        }
        return eval_var(x, f, d, cond);
    }
    CXType t = clang_getCursorType(d);
    CXString s = clang_getTypeSpelling(t);
    int constant = strstr(clang_getCString(s), "__constant") != NULL ||
                   clang_isConstQualifiedType(t);
    clang_disposeString(s);
    if (constant) {
        snprintf(why, sizeof why, "constant '%s'", name);
        add_source(x->uniforms, &x->nuniforms, &x->more_uniforms, why);
        return mk(V_UNIFORM, "");
    }
    snprintf(why, sizeof why, "reads the program-scope variable '%s'", name);
    return mk(V_DATA, why);
}

static dval eval_children(dctx *x, const frame *f, CXCursor e, int cond)
{
    cursor_list ch = children_of(e);
    dval v = mk(V_UNIFORM, "");
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_isExpression(clang_getCursorKind(ch.v[i])))
            v = join(v, div_eval(x, f, ch.v[i], cond));
    free(ch.v);
    return v;
}

static dval eval_ternary(dctx *x, const frame *f, CXCursor e, int cond)
{
    cursor_list ch = children_of(e);
    if (ch.n != 3) {
        free(ch.v);
        return mk(V_DATA, "cannot read a conditional operator");
    }
    dval c = div_eval(x, f, ch.v[0], 1);
    dval v = join(c, join(div_eval(x, f, ch.v[1], cond), div_eval(x, f, ch.v[2], cond)));
    free(ch.v);
    if (cond || c.c == V_UNIFORM)
        return v;
    char why[160];
    why_text(x, e, "'%s' picks by a condition that varies", why, sizeof why);
    return at_least_varying(v, why);
}

dval div_eval(dctx *x, const frame *f, CXCursor e, int cond)
{
    char why[160];
    switch (clang_getCursorKind(e)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_StringLiteral:
    case CXCursor_CXXBoolLiteralExpr:
        add_source(x->uniforms, &x->nuniforms, &x->more_uniforms, "constants");
        return mk(V_UNIFORM, "");
    case CXCursor_UnaryExpr:
        return mk(V_UNIFORM, ""); /* sizeof, vec_step */
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
        return eval_children(x, f, e, cond);
    case CXCursor_CompoundLiteralExpr:
    case CXCursor_InitListExpr:
        return eval_children(x, f, e, 0);
    case CXCursor_DeclRefExpr:
        return eval_ref(x, f, e, cond);
    case CXCursor_BinaryOperator:
        return eval_binary(x, f, e, cond);
    case CXCursor_CompoundAssignOperator:
        return eval_compound(x, f, e);
    case CXCursor_UnaryOperator:
        return eval_unary(x, f, e, cond);
    case CXCursor_ArraySubscriptExpr:
        return eval_subscript(x, f, e);
    case CXCursor_MemberRefExpr:
        return eval_member(x, f, e);
    case CXCursor_CallExpr:
        return eval_call(x, f, e, cond);
    case CXCursor_ConditionalOperator:
        return eval_ternary(x, f, e, cond);
    default:
        why_text(x, e, "cannot follow '%s'", why, sizeof why);
        return mk(V_DATA, why);
    }
}

/* ---- strides: how an affine value steps from one item to the next -------------------- */

#define STRIDE_CYCLE (LONG_MIN + 1) /* a variable being followed: no say of its own */

static long stride_of(dctx *x, const frame *f, CXCursor e);

static long stride_join(long a, long b)
{
    if (a == STRIDE_CYCLE)
        return b;
    if (b == STRIDE_CYCLE)
        return a;
    return a == b ? a : DIV_STRIDE_UNKNOWN;
}

/* a + sign * b; a cycle plus a step keeps no constant stride */
static long stride_add(long a, long b, int sign)
{
    if (a == DIV_STRIDE_UNKNOWN || b == DIV_STRIDE_UNKNOWN)
        return DIV_STRIDE_UNKNOWN;
    if (a == STRIDE_CYCLE || b == STRIDE_CYCLE)
        return (a == STRIDE_CYCLE ? b : a) == 0 ? STRIDE_CYCLE : DIV_STRIDE_UNKNOWN;
    return a + sign * b;
}

/* s times the integer constant c (a stride of 0 stays 0; a cycle times 1 stays one) */
static long stride_scale(long s, long long c)
{
    if (s == DIV_STRIDE_UNKNOWN || c > 1024 || c < -1024)
        return s == 0 ? 0 : DIV_STRIDE_UNKNOWN;
    if (s == STRIDE_CYCLE)
        return c == 1 ? STRIDE_CYCLE : DIV_STRIDE_UNKNOWN;
    return s * (long)c;
}

static long stride_binary(dctx *x, const frame *f, CXCursor e)
{
    cursor_list ch = children_of(e);
    long out = DIV_STRIDE_UNKNOWN;
    if (ch.n == 2) {
        char op[8];
        long long c;
        binary_operator(x->an, e, ch.v[0], ch.v[1], op, sizeof op);
        long l = stride_of(x, f, ch.v[0]), r = stride_of(x, f, ch.v[1]);
        if (!strcmp(op, "+") || !strcmp(op, "-"))
            out = stride_add(l, r, op[0] == '+' ? 1 : -1);
        else if (!strcmp(op, "*") && r == 0 && int_constant(ch.v[1], &c))
            out = stride_scale(l, c);
        else if (!strcmp(op, "*") && l == 0 && int_constant(ch.v[0], &c))
            out = stride_scale(r, c);
        else if (!strcmp(op, "<<") && r == 0 && int_constant(ch.v[1], &c) && c >= 0 && c < 10)
            out = stride_scale(l, 1LL << c);
        else if (!strcmp(op, "%") && int_constant(ch.v[1], &c) && c >= 32) /* wraps past a
                                                                             * SIMD group */
            out = l;
        else if (!strcmp(op, ",") || !strcmp(op, "="))
            out = r;
        else
            out = l == 0 && r == 0 ? 0 : DIV_STRIDE_UNKNOWN;
    }
    free(ch.v);
    return out;
}

static long stride_def(dctx *x, const frame *f, const def_site *d)
{
    switch (d->kind) {
    case DEF_INIT:
    case DEF_ASSIGN:
        return stride_of(x, f, d->rhs);
    case DEF_UPDATE: { /* i += k: i's stride, where k is the same for every item */
        long r = clang_Cursor_isNull(d->rhs) ? 0 : stride_of(x, f, d->rhs);
        int additive = !strcmp(d->op, "+") || !strcmp(d->op, "-");
        if (r != 0 || !additive)
            return DIV_STRIDE_UNKNOWN;
        return STRIDE_CYCLE; /* the variable's other definitions say */
    }
    default:
        return DIV_STRIDE_UNKNOWN;
    }
}

/* A helper's parameter: its argument's stride, where the call's frame knows it. */
static long stride_param(dctx *x, const frame *f, CXCursor var)
{
    const long *args = f->args && f->depth >= 0 && f->depth < 17 ? x->stride_args[f->depth]
                                                                  : NULL;
    int n = clang_Cursor_getNumArguments(f->func);
    for (int i = 0; args && i < n && (unsigned)i < f->nargs; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(f->func, (unsigned)i), var))
            return args[i];
    return DIV_STRIDE_UNKNOWN;
}

static long stride_var(dctx *x, const frame *f, CXCursor var)
{
    for (unsigned i = 0; i < x->nstriding; i++)
        if (clang_equalCursors(x->striding[i], var))
            return STRIDE_CYCLE;
    if (x->nstriding == sizeof x->striding / sizeof x->striding[0] || !owns(f, var))
        return DIV_STRIDE_UNKNOWN;
    if (clang_getCursorKind(var) == CXCursor_ParmDecl && f->args)
        return stride_param(x, f, var);
    if (clang_getCursorKind(var) == CXCursor_ParmDecl) /* the kernel's: uniform, above */
        return DIV_STRIDE_UNKNOWN;
    x->striding[x->nstriding++] = var;
    long s = STRIDE_CYCLE;
    const func_defs *fd = defs_of(&x->defs, f->func);
    for (unsigned i = 0; i < fd->n && s != DIV_STRIDE_UNKNOWN; i++) {
        const def_site *d = &fd->v[i];
        if (d->kind != DEF_RETURN && clang_equalCursors(d->var, var) && reaches(f, d))
            s = stride_join(s, stride_def(x, f, d));
    }
    x->nstriding--;
    return s;
}

/* A helper's return: its returns' stride, its parameters bound to the arguments' */
static long stride_helper(dctx *x, const frame *f, CXCursor e, CXCursor def)
{
    if (f->depth >= 16)
        return DIV_STRIDE_UNKNOWN;
    cursor_list ch = children_of(e);
    unsigned nargs = ch.n > 1 ? ch.n - 1 : 0;
    dval *cls = xcalloc(nargs ? nargs : 1, sizeof *cls);
    long *strides = xcalloc(nargs ? nargs : 1, sizeof *strides);
    frame hf = {def, cls, nargs, 0, ~0u, 0, f->depth + 1};
    for (unsigned a = 0; a < nargs; a++) {
        cls[a] = div_eval(x, f, ch.v[a + 1], 0);
        strides[a] = stride_of(x, f, ch.v[a + 1]);
        if (a < 16) /* eval_helper's signature */
            hf.sig |= (unsigned)cls[a].c << (2 * a);
    }
    free(ch.v);
    const long *saved = x->stride_args[hf.depth];
    x->stride_args[hf.depth] = strides;
    long s = STRIDE_CYCLE;
    const func_defs *fd = defs_of(&x->defs, def);
    for (unsigned i = 0; i < fd->n && s != DIV_STRIDE_UNKNOWN; i++)
        if (fd->v[i].kind == DEF_RETURN)
            s = stride_join(s, clang_Cursor_isNull(fd->v[i].rhs)
                                   ? DIV_STRIDE_UNKNOWN
                                   : stride_of(x, &hf, fd->v[i].rhs));
    x->stride_args[hf.depth] = saved;
    free(strides);
    free(cls);
    return s;
}

/* get_global_id(0) and the linear ids step by one; get_global_id(1) and (2) by none */
static long stride_call(dctx *x, const frame *f, CXCursor e)
{
    char name[64];
    spelling_into(e, name, sizeof name);
    CXCursor ref = clang_getCursorReferenced(e);
    CXCursor def = clang_getCursorDefinition(ref);
    if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl)
        return stride_helper(x, f, e, def);
    if (!clang_Cursor_isNull(ref) && !is_builtin_decl(x, ref, e))
        return DIV_STRIDE_UNKNOWN;
    cursor_list ch = children_of(e);
    long long dim = -1;
    long out = DIV_STRIDE_UNKNOWN;
    if (!strcmp(name, "get_global_linear_id") || !strcmp(name, "get_local_linear_id"))
        out = 1;
    else if ((!strcmp(name, "get_global_id") || !strcmp(name, "get_local_id")) && ch.n == 2 &&
             int_constant(ch.v[1], &dim))
        out = dim == 0 ? 1 : 0;
    else if ((!strcmp(name, "mad24") || !strcmp(name, "mad") || !strcmp(name, "mul24")) &&
             ch.n >= 3) { /* a * b (+ c) */
        long long c;
        long a = stride_of(x, f, ch.v[1]), b = stride_of(x, f, ch.v[2]);
        out = b == 0 && int_constant(ch.v[2], &c)   ? stride_scale(a, c)
              : a == 0 && int_constant(ch.v[1], &c) ? stride_scale(b, c)
                                                    : DIV_STRIDE_UNKNOWN;
        if (ch.n == 4)
            out = stride_add(out, stride_of(x, f, ch.v[3]), 1);
    }
    free(ch.v);
    return out;
}

static long stride_of(dctx *x, const frame *f, CXCursor e)
{
    if (clang_Cursor_isNull(e))
        return DIV_STRIDE_UNKNOWN;
    if (div_eval(x, f, e, 0).c == V_UNIFORM)
        return 0;
    switch (clang_getCursorKind(e)) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr: {
        cursor_list ch = children_of(e);
        long s = DIV_STRIDE_UNKNOWN;
        for (unsigned i = 0; i < ch.n; i++)
            if (clang_isExpression(clang_getCursorKind(ch.v[i])))
                s = stride_of(x, f, ch.v[i]);
        free(ch.v);
        return s;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        return clang_getCursorKind(d) == CXCursor_VarDecl && is_local_decl(d)
                   ? stride_var(x, f, d)
                   : DIV_STRIDE_UNKNOWN;
    }
    case CXCursor_BinaryOperator:
        return stride_binary(x, f, e);
    case CXCursor_UnaryOperator: {
        cursor_list ch = children_of(e);
        char op[8] = "";
        if (ch.n == 1)
            unary_operator(x->an, e, ch.v[0], op, sizeof op);
        long s = ch.n == 1 ? stride_of(x, f, ch.v[0]) : DIV_STRIDE_UNKNOWN;
        free(ch.v);
        if (!strcmp(op, "-"))
            return stride_scale(s, -1);
        return !strcmp(op, "+") || !strcmp(op, "++") || !strcmp(op, "--") ? s
                                                                           : DIV_STRIDE_UNKNOWN;
    }
    case CXCursor_CallExpr:
        return stride_call(x, f, e);
    default:
        return DIV_STRIDE_UNKNOWN;
    }
}

long div_stride(dctx *x, const frame *f, CXCursor e)
{
    long s = stride_of(x, f, e);
    return s == STRIDE_CYCLE ? DIV_STRIDE_UNKNOWN : s;
}

void dctx_free(dctx *x)
{
    defs_cache_free(&x->defs);
    free(x->memos);
    x->memos = NULL;
    x->nmemos = x->capmemos = 0;
    cursor_map_clear(&x->memo_index);
}
