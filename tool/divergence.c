/*
 * divergence.c - how each decision's condition varies across work-items.
 *
 * An abstract interpretation over the libclang AST, in the spirit of LLVM's
 * UniformityAnalysis and of the affine divergence analyses of Karrenberg &
 * Hack and Sampaio et al. Every expression gets a class in the lattice
 *
 *     uniform < affine < varying < data
 *
 * where varying is an item-varying value no affine form describes (x * y,
 * x & 1, sqrt(x)); it is reported as data. An expression is read in one of
 * two modes: as a value, or as a condition (its truth). A comparison of
 * affine values is an affine *condition* but a varying *value*.
 *
 * Locals are followed through every definition that reaches the decision
 * (in the kernel: the definitions before it in the text, since decisions
 * never sit inside loops; in helpers: all of them), joined with the
 * conditions the definition is control dependent on (enclosing ifs, loops,
 * ternaries, && / ||). Cycles (loops) are solved by iterating to a fixed
 * point from uniform upwards. Helper calls are evaluated with the call's
 * argument classes bound to the helper's parameters.
 */
#include "divergence.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "cursor_map.h"
#include "leaf_limit.h"
#include "tree.h"
#include "util.h"

typedef enum vclass { V_UNIFORM, V_AFFINE, V_VARYING, V_DATA } vclass;

/* A class and, for varying/data, the value that makes it so. */
typedef struct dval {
    vclass c;
    char why[160];
} dval;

const char *div_class_name(div_class c)
{
    static const char *names[] = {"uniform", "affine", "data"};
    return names[c];
}

/* ---- definitions of locals, per function -------------------------------- */

typedef enum def_kind { DEF_INIT, DEF_ASSIGN, DEF_UPDATE, DEF_ELEMENT, DEF_ESCAPE, DEF_RETURN } def_kind;

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

typedef struct guard_stack {
    guard *v;
    unsigned n, cap;
} guard_stack;

/* ---- the analysis context ------------------------------------------------ */

typedef struct memo {
    CXCursor key;      /* a variable, or a helper function */
    int mode;          /* 1: as a condition */
    unsigned sig;      /* the argument classes of the frame */
    int visiting;
    int done;          /* computed in this round */
    dval val;
} memo;

#define MAX_SOURCES 4

typedef struct dctx {
    analysis *an;
    kernel_info *k;
    func_defs **defs;           /* the functions walked, each allocated apart */
    unsigned ndefs, capdefs;
    cursor_map defs_by_func;    /* function -> index in defs */
    memo *memos;
    unsigned nmemos, capmemos;
    cursor_map memo_index;      /* (key, mode and sig) -> index in memos */
    int changed;       /* a memo grew in this round */
    char ids[MAX_SOURCES][48];       /* the id builtins the condition reads */
    unsigned nids;
    char uniforms[MAX_SOURCES][48];  /* the uniform values it reads */
    unsigned nuniforms;
    int more_uniforms;
} dctx;

/* One function being evaluated: the kernel, or a helper with bound arguments. */
typedef struct frame {
    CXCursor func;
    const dval *args;  /* helper: the classes of the call's arguments */
    unsigned nargs;
    unsigned sig;
    unsigned hfile, horizon;  /* kernel: definitions before this point reach */
    int depth;
} frame;

static dval eval(dctx *x, const frame *f, CXCursor e, int cond);
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

static void spelling(CXCursor c, char *out, size_t n)
{
    CXString s = clang_getCursorSpelling(c);
    snprintf(out, n, "%s", clang_getCString(s));
    clang_disposeString(s);
}

static int is_comparison(const char *op)
{
    return !strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
           !strcmp(op, "==") || !strcmp(op, "!=");
}

static int is_logical(const char *op)
{
    return !strcmp(op, "&&") || !strcmp(op, "||");
}

static int is_additive(const char *op)
{
    return !strcmp(op, "+") || !strcmp(op, "-");
}

static CXCursor ref_of(CXCursor e)
{
    CXCursor s = strip_casts(e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(s);
}

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

static void pos_of(dctx *x, CXCursor c, unsigned *file, unsigned *offset)
{
    src_pos p;
    if (parse_resolve(x->an->pr, clang_getRangeStart(clang_getCursorExtent(c)), &p) == 0) {
        *file = p.file;
        *offset = p.offset;
    } else {
        *file = ~0u;
        *offset = 0;
    }
}

/* ---- collecting definitions ---------------------------------------------- */

typedef struct def_walk {
    dctx *x;
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
    pos_of(w->x, at, &d.file, &d.offset);
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
            binary_operator(w->x->an, cur, ch.v[0], ch.v[1], op, sizeof op);
        if (ch.n != 2 || !strcmp(op, "=")) {
            free(ch.v);
            break;
        }
        spine_node sn = {ch.v[0], ch.v[1], is_logical(op)};
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
    binary_operator(w->x->an, c, ch.v[0], ch.v[1], op, sizeof op);
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
        unary_operator(w->x->an, c, ch.v[0], op, sizeof op);
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
        CXCursor d = ref_of(ch.v[i]);
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

static func_defs *defs_of(dctx *x, CXCursor func)
{
    long found = cursor_map_get(&x->defs_by_func, func, 0);
    if (found >= 0)
        return x->defs[found];
    func_defs *fd = xcalloc(1, sizeof *fd);
    fd->func = func;
    cursor_map_put(&x->defs_by_func, func, 0, x->ndefs);
    VEC_PUSH(x->defs, x->ndefs, x->capdefs, fd);
    def_walk w = {x, fd, {0}};
    walk_children(&w, func);
    free(w.gs.v);
    return fd;
}

static void defs_free(dctx *x)
{
    for (unsigned d = 0; d < x->ndefs; d++) {
        func_defs *fd = x->defs[d];
        for (unsigned i = 0; i < fd->n; i++)
            free(fd->v[i].guards);
        free(fd->v);
        free(fd);
    }
    free(x->defs);
    cursor_map_clear(&x->defs_by_func);
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
    dval c = eval(x, f, g->cond, 1);
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
    spelling(d->var, name, sizeof name);
    dval v = mk(V_UNIFORM, "");
    switch (d->kind) {
    case DEF_ESCAPE:
        snprintf(why, sizeof why, "the address of '%s' is taken, so a call or store may set it",
                 name);
        return mk(V_DATA, why);
    case DEF_INIT:
    case DEF_ASSIGN:
        v = eval(x, f, d->rhs, mode);
        break;
    case DEF_UPDATE: {
        dval self = eval_var_value(x, f, d->var);
        dval r = clang_Cursor_isNull(d->rhs) ? mk(V_UNIFORM, "") : eval(x, f, d->rhs, 0);
        v = binary_class(x, d->rhs, d->op, self, r, d->rhs, 0);
        break;
    }
    case DEF_ELEMENT:
        v = eval(x, f, d->rhs, 0);
        if (!clang_Cursor_isNull(d->index)) {
            dval i = eval(x, f, d->index, 0);
            snprintf(why, sizeof why, "'%s' is stored to at an index that varies", name);
            v = join(v, at_least_varying(i, why));
        }
        break;
    case DEF_RETURN:
        v = clang_Cursor_isNull(d->rhs) ? mk(V_UNIFORM, "") : eval(x, f, d->rhs, mode);
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
    spelling(var, name, sizeof name);
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
    func_defs *fd = defs_of(x, f->func);
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
        if (ch.n != 2 || !(logical ? is_logical(op) : is_additive(op))) {
            free(ch.v);
            break;
        }
        VEC_PUSH(rhs.v, rhs.n, rhs.cap, ch.v[1]);
        cur = strip_casts(ch.v[0]);
        free(ch.v);
    }
    dval j = eval(x, f, cur, logical); /* left to right, as written */
    for (unsigned i = rhs.n; i-- > 0;)
        j = join(j, eval(x, f, rhs.v[i], logical));
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
    if (is_logical(op) || is_additive(op)) {
        free(ch.v);
        return eval_chain(x, f, e, is_logical(op), cond);
    }
    int sub_cond = !strcmp(op, "&&") || !strcmp(op, "||");
    dval l = eval(x, f, ch.v[0], sub_cond);
    dval r = eval(x, f, ch.v[1], sub_cond || (!strcmp(op, ",") && cond));
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
    dval v = binary_class(x, e, op, eval(x, f, ch.v[0], 0), eval(x, f, ch.v[1], 0), ch.v[1], 0);
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
        dval v = eval(x, f, a, 1);
        if (cond || v.c == V_UNIFORM)
            return v;
        why_text(x, e, "'%s' is a comparison used as a number", why, sizeof why);
        return at_least_varying(v, why);
    }
    if (!strcmp(op, "-") || !strcmp(op, "+") || !strcmp(op, "~") || !strcmp(op, "++") ||
        !strcmp(op, "--"))
        return eval(x, f, a, cond);
    if (!strcmp(op, "*"))
        return eval_load(x, a, eval(x, f, a, 0), e, 0);
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
    *decl = ref_of(base);
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
    dval i = eval(x, f, index, 0);
    if (is_private_array(base, &arr) && owns(f, arr)) {
        char why[160];
        why_text(x, e, "'%s' reads a private array at an index that varies", why, sizeof why);
        return join(eval_var(x, f, arr, 0), at_least_varying(i, why));
    }
    return eval_load(x, base, join(eval(x, f, base, 0), i), e, 1);
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
    dval b = eval(x, f, base, 0);
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
    return strncmp(s, p, strlen(p)) == 0;
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
    static const char *const ids[] = {"get_global_id", "get_global_linear_id", NULL};
    static const char *const sizes[] = {"get_global_size", "get_global_offset", "get_work_dim",
                                        NULL};
    static const char *const monotone[] = {"min", "max", "clamp", "abs", "fmin", "fmax",
                                           "add_sat", "sub_sat", NULL};
    static const char *const products[] = {"mad", "mad24", "mul24", "fma", "mad_sat", NULL};
    char why[160];
    if (name_is(name, ids)) {
        builtin_source(x, e, name, 1);
        return mk(V_AFFINE, "");
    }
    if (name_is(name, sizes)) {
        builtin_source(x, e, name, 0);
        return mk(V_UNIFORM, "");
    }
    if (starts(name, "atomic_") || starts(name, "atom_")) {
        snprintf(why, sizeof why, "calls %s (an atomic: every item may see another value)", name);
        return mk(V_DATA, why);
    }
    if (starts(name, "vload") && a->n >= 2)
        return eval_load(x, a->v[a->n - 1], join_args(a, 0), e, 0);
    if (starts(name, "read_image") || starts(name, "get_local") || starts(name, "get_group") ||
        starts(name, "get_num_groups") || starts(name, "work_group") || starts(name, "sub_group") ||
        !strcmp(name, "printf")) {
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
        dval c = eval(x, f, a->v[2], 1);
        why_text(x, e, "'%s' picks by a condition that varies", why, sizeof why);
        return join(join_args(a, 0), at_least_varying(c, why));
    }
    dval j = join_args(a, 0);
    why_text(x, e, "'%s' is not affine in the work-item ids", why, sizeof why);
    return at_least_varying(j, why);
}

static dval helper_uncached(dctx *x, const frame *hf, CXCursor def, int mode)
{
    func_defs *fd = defs_of(x, def);
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
    spelling(e, name, sizeof name);
    cursor_list ch = children_of(e);
    call_args a = {ch.n > 1 ? ch.v + 1 : NULL, ch.n > 1 ? ch.n - 1 : 0, NULL};
    a.cls = xcalloc(a.n ? a.n : 1, sizeof *a.cls);
    for (unsigned i = 0; i < a.n; i++)
        a.cls[i] = eval(x, f, a.v[i], 0);
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
    spelling(d, name, sizeof name);
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
            v = join(v, eval(x, f, ch.v[i], cond));
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
    dval c = eval(x, f, ch.v[0], 1);
    dval v = join(c, join(eval(x, f, ch.v[1], cond), eval(x, f, ch.v[2], cond)));
    free(ch.v);
    if (cond || c.c == V_UNIFORM)
        return v;
    char why[160];
    why_text(x, e, "'%s' picks by a condition that varies", why, sizeof why);
    return at_least_varying(v, why);
}

static dval eval(dctx *x, const frame *f, CXCursor e, int cond)
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

/* ---- inputs: what a condition reads, named as --arg names it ------------------- */

/*
 * A second walk over the same definitions: the buffers, fields, scalar
 * arguments and images a condition's value is made of. A load names its
 * buffer's element and the fields it selects ("shapes[].type"), and the
 * inputs its index reads are its "indexed_by" (pairs[].x in shapes[a].type
 * with a = pairs[i].x). Locals are followed through the definitions that
 * reach the decision and the conditions they are control dependent on;
 * helpers through their returns, their parameters read as the call's
 * arguments. Work-item ids and constants are no inputs.
 */

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
    dctx *x;
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

/* The position of parameter var among func's, or -1. */
static int param_index(CXCursor func, CXCursor var)
{
    int n = clang_Cursor_getNumArguments(func);
    for (int i = 0; i < n; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(func, (unsigned)i), var))
            return i;
    return -1;
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
            spelling(d, name, n > 2 ? n - 2 : n);
            name_append(name, n, "", "[]");
            return 1;
        }
        if (!in_push(c, d))
            return 0;
        int found = 0;
        func_defs *fd = defs_of(c->x, f->func);
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
            unary_operator(c->x->an, s, ch.v[0], op, sizeof op);
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
            spelling(d, name, n);
            ok = 1;
        }
    } else if (k == CXCursor_MemberRefExpr && ch.n == 1) {
        ok = pointer_typed(strip_casts(ch.v[0])) ? pointee_name(c, f, ch.v[0], name, n, idx)
                                           : value_name(c, f, ch.v[0], name, n, idx);
        if (ok) {
            char field[64];
            spelling(s, field, sizeof field);
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
        unary_operator(c->x->an, s, ch.v[0], op, sizeof op);
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
        spelling(var, name, sizeof name);
        cond_inputs_add(&out->v, &out->n, name, NULL);
    }
    if (!is_local_decl(var) || !in_push(c, var))
        return;
    func_defs *fd = defs_of(c->x, f->func);
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
    func_defs *fd = defs_of(c->x, def);
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
    } else if ((starts(fn, "atomic_") || starts(fn, "atom_")) && nargs >= 1) {
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
    spelling(s, fn, sizeof fn);
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
static void decision_inputs(dctx *x, decision *d)
{
    ictx c;
    memset(&c, 0, sizeof c);
    c.x = x;
    c.budget = 20000;
    iframe f = {x->k->cursor, NULL, NULL, 0, d->range.file, d->range.begin, 0};
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

/* ---- decisions -------------------------------------------------------------------- */

static void put_list(strbuf *sb, char (*set)[48], unsigned n, int more)
{
    for (unsigned i = 0; i < n; i++)
        sb_printf(sb, "%s%s", i == 0 ? "" : i + 1 == n && !more ? " and " : ", ", set[i]);
    if (more)
        sb_puts(sb, " and more");
}

/* "argument 'n'", "arguments 'w', 'h' and get_global_size(0)", "constants". */
static void put_uniforms(strbuf *sb, dctx *x)
{
    char set[MAX_SOURCES][48];
    unsigned n = 0, nargs = 0;
    strbuf args;
    sb_init(&args);
    for (unsigned i = 0; i < x->nuniforms; i++)
        if (starts(x->uniforms[i], "argument '")) {
            sb_printf(&args, "%s%s", nargs ? ", " : "", x->uniforms[i] + strlen("argument "));
            nargs++;
        }
    if (nargs)
        snprintf(set[n++], 48, "%s %s", nargs > 1 ? "arguments" : "argument", args.data);
    for (unsigned i = 0; i < x->nuniforms; i++)
        if (!starts(x->uniforms[i], "argument '") && strcmp(x->uniforms[i], "constants"))
            snprintf(set[n++], 48, "%s", x->uniforms[i]);
    if (n == 0)
        snprintf(set[n++], 48, "constants");
    put_list(sb, set, n, x->more_uniforms);
    sb_free(&args);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

static dval classify_condition(dctx *x, const frame *f, const decision *d)
{
    if (d->kind == DEC_SWITCH)
        return eval(x, f, d->cond_cursor, 0);
    dval v = mk(V_UNIFORM, "");
    for (unsigned b = 0; b < d->nbranches; b++)
        if (d->branches[b].kind == BR_IF)
            v = join(v, eval(x, f, d->branches[b].cond_cursor, 1));
    return v;
}

static void classify_decision(dctx *x, decision *d)
{
    frame f = {x->k->cursor, NULL, 0, ~0u, d->range.file, d->range.begin, 0};
    x->nmemos = 0;
    cursor_map_clear(&x->memo_index);
    dval v = mk(V_UNIFORM, "");
    for (int round = 0; round < 32; round++) {
        x->changed = 0;
        x->nids = x->nuniforms = 0;
        x->more_uniforms = 0;
        for (unsigned i = 0; i < x->nmemos; i++)
            x->memos[i].done = 0;
        v = classify_condition(x, &f, d);
        if (!x->changed)
            break;
    }
    strbuf sb;
    sb_init(&sb);
    if (v.c == V_UNIFORM) {
        d->divergence = DIV_UNIFORM;
        sb_puts(&sb, "depends only on ");
        put_uniforms(&sb, x);
    } else if (v.c == V_AFFINE) {
        d->divergence = DIV_AFFINE;
        qsort(x->ids, x->nids, sizeof x->ids[0], compare_names);
        sb_puts(&sb, "compares ");
        put_list(&sb, x->ids, x->nids, 0);
        sb_puts(&sb, " with ");
        put_uniforms(&sb, x);
    } else {
        d->divergence = DIV_DATA;
        sb_puts(&sb, v.why[0] ? v.why : "cannot follow the condition");
    }
    snprintf(d->divergence_why, sizeof d->divergence_why, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
}

static tree_step classify_one(void *ud, decision *d)
{
    classify_decision(ud, d);
    decision_inputs(ud, d);
    return TREE_RECURSE;
}

void divergence_classify(analysis *an, kernel_info *k)
{
    dctx x;
    memset(&x, 0, sizeof x);
    x.an = an;
    x.k = k;
    for_each_decision(&k->top, classify_one, &x);
    defs_free(&x);
    free(x.memos);
    cursor_map_clear(&x.memo_index);
}

void divergence_classify_one(analysis *an, kernel_info *k, decision *d)
{
    dctx x;
    memset(&x, 0, sizeof x);
    x.an = an;
    x.k = k;
    classify_decision(&x, d);
    defs_free(&x);
    free(x.memos);
    cursor_map_clear(&x.memo_index);
}

/* ---- the plan's use of the classes ------------------------------------------------ */

static tree_step stop_at_data(void *ud, decision *d)
{
    (void)ud;
    return d->divergence == DIV_DATA ? TREE_STOP : TREE_RECURSE;
}

/* Is a decision nested in d data dependent? */
static int has_data_inside(const decision *d)
{
    return for_each_decision_in(d, stop_at_data, NULL);
}

static tree_step stop_at_exit(void *ud, seq_item *it);

/* A return, or a break that leaves no switch inside d: the path ends there. */
static int exits_in(const decision *d, int in_switch)
{
    in_switch |= d->kind == DEC_SWITCH;
    return for_each_item_in(d, stop_at_exit, &in_switch);
}

static tree_step stop_at_exit(void *ud, seq_item *it)
{
    int in_switch = *(const int *)ud;
    if (it->kind == ITEM_RETURN || (it->kind == ITEM_BREAK && !in_switch))
        return TREE_STOP;
    if (it->kind != ITEM_DECISION || !it->decision)
        return TREE_CONTINUE;
    return exits_in(it->decision, in_switch) ? TREE_STOP : TREE_CONTINUE;
}

static int may_exit(const decision *d)
{
    return exits_in(d, 0);
}

/* `if (gid >= n) return;`: a branch that only returns, doing nothing observable. */
static int is_guard(const decision *d)
{
    if (d->kind != DEC_IF)
        return 0;
    for (unsigned b = 0; b < d->nbranches; b++) {
        const seq *s = &d->branches[b].seq;
        int empty = s->n > 0 && s->items[s->n - 1].kind == ITEM_RETURN;
        for (unsigned i = 0; empty && i + 1 < s->n; i++)
            empty = s->items[i].kind == ITEM_STMT && !(s->items[i].fx.bits & EFF_OBSERVABLE);
        if (empty)
            return 1;
    }
    return 0;
}

typedef struct after_query {
    unsigned end;
    int only_data;
} after_query;

static tree_step stop_after(void *ud, decision *d)
{
    const after_query *q = ud;
    return d->range.begin >= q->end && (!q->only_data || d->divergence == DIV_DATA)
               ? TREE_STOP
               : TREE_RECURSE;
}

/* A decision after offset `end` in the kernel: a data one when only_data, else any. */
static int decision_after(const seq *s, unsigned end, int only_data)
{
    after_query q = {end, only_data};
    return for_each_decision(s, stop_after, &q);
}

typedef struct outer_query {
    const decision *d;
    const analysis *an;
} outer_query;

static int declared_inside(CXCursor var, const decision *d, const analysis *an)
{
    CXFile file;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(var), &file, NULL, NULL, &off);
    return file == an->pr->files[d->range.file].cxfile && off >= d->range.begin &&
           off < d->range.end;
}

static tree_step stop_at_outer_write(void *ud, seq_item *it)
{
    const outer_query *q = ud;
    for (unsigned w = 0; w < it->fx.nwrites; w++)
        if (!declared_inside(it->fx.writes[w], q->d, q->an))
            return TREE_STOP;
    return TREE_RECURSE;
}

/* Does d assign a local declared before it? */
static int sets_outer(const decision *d, const analysis *an)
{
    outer_query q = {d, an};
    return for_each_item_in(d, stop_at_outer_write, &q);
}

static tree_step mark_nested(void *ud, decision *d)
{
    (void)ud;
    d->divergence_plan = KEEP_INSIDE_KEPT;
    return TREE_RECURSE;
}

typedef struct keep_ctx {
    const analysis *an;
    const kernel_info *k;
} keep_ctx;

static keep_reason keep_reason_of(const keep_ctx *c, const decision *d)
{
    if (d->divergence == DIV_DATA)
        return KEEP_SPLIT_DATA;
    if (has_data_inside(d))
        return KEEP_SPLIT_NESTED_DATA;
    if (is_guard(d))
        return KEEP_SPLIT_GUARD;
    if (may_exit(d) && decision_after(&c->k->top, d->range.end, 1))
        return KEEP_SPLIT_EXIT_BEFORE_DATA;
    /* kept, it would be one statement the classifier's slice may need, side effects and all */
    if (sets_outer(d, c->an) && decision_after(&c->k->top, d->range.end, 0))
        return KEEP_SPLIT_SETS_OUTER;
    return KEEP_NOT_SPLIT;
}

static tree_step keep_one(void *ud, decision *d)
{
    d->divergence_plan = keep_reason_of(ud, d);
    if (d->divergence_plan != KEEP_NOT_SPLIT)
        return TREE_RECURSE;
    plan_keep_in_leaf(d);
    for_each_decision_in(d, mark_nested, NULL);
    return TREE_CONTINUE;
}

const char *keep_reason_text(keep_reason r)
{
#define KEEP_REASON_TEXT_(id, splits, text) [KEEP_##id] = text,
    static const char *const texts[] = {KEEP_REASONS(KEEP_REASON_TEXT_)};
#undef KEEP_REASON_TEXT_
    return (unsigned)r < sizeof texts / sizeof *texts ? texts[r] : NULL;
}

int keep_reason_splits(keep_reason r)
{
#define KEEP_REASON_SPLITS_(id, splits, text) [KEEP_##id] = splits,
    static const int splits[] = {KEEP_REASONS(KEEP_REASON_SPLITS_)};
#undef KEEP_REASON_SPLITS_
    return (unsigned)r < sizeof splits / sizeof *splits && splits[r];
}

void divergence_keep_in_leaf(const analysis *an, kernel_info *k)
{
    keep_ctx c = {an, k};
    for_each_decision(&k->top, keep_one, &c);
}
