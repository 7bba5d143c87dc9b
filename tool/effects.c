/*
 * effects.c - the effects of statements and helpers: stores and loads (and
 * where), private variables read and written, builtins with work-group
 * meaning, early exits, a rough cost; helper functions are summarised once.
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

/* ---- builtin classification -------------------------------------------- */

static int starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

unsigned builtin_effects(const char *name)
{
    /* mem_fence, read_mem_fence and write_mem_fence order one work-item's own
     * accesses: not barriers, they may stay in the leaves. A fence with a scope
     * (atomic_work_item_fence) orders them for a work-group: refused. */
    static const char *barriers[] = {"barrier", "work_group_barrier", "sub_group_barrier",
                                     "atomic_work_item_fence", NULL};
    static const char *local_ids[] = {"get_local_id", "get_group_id", "get_local_size",
                                      "get_num_groups", "get_enqueued_local_size",
                                      "get_local_linear_id", NULL};
    static const char *workitem[] = {"get_global_id", "get_global_size", "get_global_offset",
                                     "get_work_dim", "get_global_linear_id", NULL};
    for (int i = 0; barriers[i]; i++)
        if (!strcmp(name, barriers[i]))
            return EFF_BARRIER;
    for (int i = 0; local_ids[i]; i++)
        if (!strcmp(name, local_ids[i]))
            return EFF_LOCAL_ID;
    for (int i = 0; workitem[i]; i++)
        if (!strcmp(name, workitem[i]))
            return EFF_WORKITEM;
    /* work-group and sub-group builtins, extensions' too (intel_sub_group_shuffle,
     * qcom_sub_group_..., a prototype the kernel declares itself) */
    if (strstr(name, "work_group") || strstr(name, "sub_group") || strstr(name, "subgroup") ||
        strstr(name, "workgroup") || !strcmp(name, "wait_group_events"))
        return EFF_GROUP_FN;
    if (starts_with(name, "atomic_") || starts_with(name, "atom_"))
        return EFF_ATOMIC | EFF_MEM_READ;
    if (!strcmp(name, "printf"))
        return EFF_PRINTF;
    if (starts_with(name, "vstore") || starts_with(name, "write_image"))
        return EFF_MEM_WRITE;
    if (starts_with(name, "vload") || starts_with(name, "read_image"))
        return EFF_MEM_READ;
    return 0;
}

static double builtin_cost(const char *name)
{
    static const char *cheap[] = {"min", "max", "clamp", "select", "abs", "fabs", "mad",
                                  "fma", "floor", "ceil", "round", "trunc", "sign", "mix",
                                  "as_", "convert_", NULL};
    for (int i = 0; cheap[i]; i++)
        if (starts_with(name, cheap[i]))
            return 1;
    return 8; /* transcendental and friends */
}

/* ---- effects ----------------------------------------------------------- */

typedef struct summary {
    effects fx;
    int busy;
} summary;

/* an->summaries: the summaries, found by their definition's cursor. */
typedef struct summary_table {
    cursor_map by_def;  /* definition -> index in v */
    summary **v;        /* each allocated apart: a summary stays put while v grows */
    unsigned n, cap;
} summary_table;

typedef struct scan_ctx {
    analysis *an;
    effects *fx;
    CXCursor func;      /* the function whose locals we track */
    int depth_loops;
    int track_params;   /* a helper's summary: stores through its pointer parameters */
    CXCursor outer;     /* the member access (s[i].f) around the access being scanned, or null */
} scan_ctx;

static void scan(scan_ctx *sc, CXCursor c);
static CXCursor local_root(CXCursor e);

static void note_effect(effects *fx, unsigned bit, CXCursor at, CXCursor via)
{
    for (unsigned i = 0; i < EFF_COUNT; i++) {
        if (!(bit & (1u << i)) || (fx->bits & (1u << i)))
            continue;
        fx->site[i].at = at;
        fx->site[i].via = via;
    }
    fx->bits |= bit;
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

/* A load through base (a pointer expression): is it immune to stores? */
static int read_is_immune(CXCursor base)
{
    CXType t = clang_getCursorType(base);
    if (t.kind != CXType_Invalid) {
        CXType pointee = clang_getPointeeType(clang_getCanonicalType(t));
        if (spelling_has(pointee, "__constant"))
            return 1;
    }
    CXCursor b = strip(base);
    if (clang_getCursorKind(b) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(b);
        if (clang_getCursorKind(d) == CXCursor_ParmDecl &&
            clang_isRestrictQualifiedType(clang_getCursorType(d)))
            return 1;
    }
    return 0;
}

/* ---- private pointers ---------------------------------------------------- */

/*
 * Where a pointer expression points, when the function's text says so: into
 * a private object of the function (root, a local array or variable), or at
 * what a helper's pointer parameter points to (param). Followed through
 * casts, parentheses, pointer arithmetic, &x, &p[i], and local pointer
 * variables whose every definition in the function agrees.
 */
typedef struct ptr_origin {
    CXCursor root;
    int param;
} ptr_origin;

enum { LANGAS_GLOBAL = 1, LANGAS_LOCAL = 2, LANGAS_CONSTANT = 3 };

static int pointer_origin(const scan_ctx *sc, CXCursor e, int depth, ptr_origin *o);

static int same_origin(const ptr_origin *a, const ptr_origin *b)
{
    return a->param == b->param && clang_equalCursors(a->root, b->root);
}

/* Does the pointee of t live in __global, __local or __constant memory? */
static int points_outside_private(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_ConstantArray)
        return 0; /* a private array, before it decays */
    if (c.kind != CXType_Pointer)
        return 1;
    CXType pointee = clang_getPointeeType(c);
    if (pointee.kind == CXType_Invalid)
        return 1;
    unsigned as = clang_getAddressSpace(pointee);
    return as == LANGAS_GLOBAL || as == LANGAS_LOCAL || as == LANGAS_CONSTANT;
}

typedef struct def_scan {
    const scan_ctx *sc;
    CXCursor var;
    int depth;
    int known;         /* every definition seen so far agrees */
    int any;           /* some definition seen */
    ptr_origin o;
} def_scan;

static void def_agrees(def_scan *ds, CXCursor value)
{
    ptr_origin v = {clang_getNullCursor(), -1};
    if (!ds->known)
        return;
    if (!pointer_origin(ds->sc, value, ds->depth + 1, &v) || (ds->any && !same_origin(&v, &ds->o)))
        ds->known = 0;
    ds->o = v;
    ds->any = 1;
}

static int names_var(CXCursor e, CXCursor var)
{
    CXCursor s = strip(e);
    return clang_getCursorKind(s) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(s), var);
}

/* Every assignment of the pointer variable: p = e agrees, p += k and p++ keep it, &p loses it. */
static enum CXChildVisitResult def_scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    def_scan *ds = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!ds->known)
        return CXChildVisit_Break;
    if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator) {
        cursor_list ch = children_of(c);
        char op[8] = "";
        if (k == CXCursor_BinaryOperator && ch.n == 2)
            binary_operator(ds->sc->an, c, ch.v[0], ch.v[1], op, sizeof op);
        else if (ch.n == 1)
            unary_operator(ds->sc->an, c, ch.v[0], op, sizeof op);
        if (ch.n && names_var(ch.v[0], ds->var)) {
            if (!strcmp(op, "=") && ch.n == 2)
                def_agrees(ds, ch.v[1]);
            else if (!strcmp(op, "&") || (!op[0] && ch.n == 2))
                ds->known = 0; /* its address escapes, or an operator we cannot read */
        }
        free(ch.v);
    }
    return CXChildVisit_Recurse;
}

static int local_pointer_origin(const scan_ctx *sc, CXCursor var, int depth, ptr_origin *o)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl || !is_local_decl(var) ||
        !clang_equalCursors(clang_getCursorSemanticParent(var), sc->func))
        return 0;
    def_scan ds = {sc, var, depth, 1, 0, {clang_getNullCursor(), -1}};
    cursor_list ch = children_of(var);
    if (ch.n && clang_isExpression(clang_getCursorKind(ch.v[ch.n - 1])))
        def_agrees(&ds, ch.v[ch.n - 1]);
    free(ch.v);
    if (ds.known)
        clang_visitChildren(sc->func, def_scan_cb, &ds);
    if (!ds.known || !ds.any)
        return 0;
    *o = ds.o;
    return 1;
}

static int decl_origin(const scan_ctx *sc, CXCursor d, int depth, ptr_origin *o)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    if (t.kind == CXType_ConstantArray && clang_getCursorKind(d) == CXCursor_VarDecl &&
        is_local_decl(d)) {
        o->root = d; /* a private array, decayed */
        return 1;
    }
    if (t.kind != CXType_Pointer)
        return 0;
    if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
        int n = sc->track_params ? clang_Cursor_getNumArguments(sc->func) : 0;
        for (int i = 0; i < n && i < 32; i++)
            if (clang_equalCursors(clang_Cursor_getArgument(sc->func, (unsigned)i), d)) {
                o->param = i;
                return 1;
            }
        return 0;
    }
    return local_pointer_origin(sc, d, depth, o);
}

/* &x of a private x, &p[i] and &p->f of a pointer p: where the address points. */
static int address_origin(const scan_ctx *sc, CXCursor operand, int depth, ptr_origin *o)
{
    CXCursor root = local_root(operand);
    if (!clang_Cursor_isNull(root)) {
        o->root = root;
        return 1;
    }
    CXCursor s = strip(operand);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_UnaryOperator) /* &*p */
        k = CXCursor_MemberRefExpr;
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr)
        return 0;
    cursor_list ch = children_of(s);
    int known = 0;
    if (ch.n >= 1) {
        CXCursor base = strip(ch.v[0]);
        if (type_is_pointer(clang_getCursorType(base)))
            known = pointer_origin(sc, base, depth + 1, o);
        else
            known = address_origin(sc, base, depth + 1, o); /* &p[i].a[j] */
    }
    free(ch.v);
    return known;
}

static int pointer_origin(const scan_ctx *sc, CXCursor e, int depth, ptr_origin *o)
{
    o->root = clang_getNullCursor();
    o->param = -1;
    if (depth > 8)
        return 0;
    CXCursor s = strip(e);
    enum CXCursorKind k = clang_getCursorKind(s);
    cursor_list ch = children_of(s);
    int known = 0;
    char op[8] = "";
    if (k == CXCursor_DeclRefExpr) {
        known = decl_origin(sc, clang_getCursorReferenced(s), depth, o);
    } else if (k == CXCursor_CStyleCastExpr && ch.n) {
        known = pointer_origin(sc, ch.v[ch.n - 1], depth + 1, o);
    } else if (k == CXCursor_UnaryOperator && ch.n == 1) {
        unary_operator(sc->an, s, ch.v[0], op, sizeof op);
        if (!strcmp(op, "&"))
            known = address_origin(sc, ch.v[0], depth, o);
        else if (!strcmp(op, "++") || !strcmp(op, "--"))
            known = pointer_origin(sc, ch.v[0], depth + 1, o);
    } else if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
               ch.n == 2) {
        if (k == CXCursor_BinaryOperator)
            binary_operator(sc->an, s, ch.v[0], ch.v[1], op, sizeof op);
        int left = type_is_pointer(clang_getCursorType(strip(ch.v[0]))) ||
                   clang_getCanonicalType(clang_getCursorType(strip(ch.v[0]))).kind ==
                       CXType_ConstantArray;
        if (k == CXCursor_CompoundAssignOperator || !strcmp(op, "-"))
            known = pointer_origin(sc, ch.v[0], depth + 1, o);      /* p += k, p - k */
        else if (!strcmp(op, "+"))
            known = pointer_origin(sc, ch.v[left ? 0 : 1], depth + 1, o);
        else if (!strcmp(op, "=") || !strcmp(op, ","))
            known = pointer_origin(sc, ch.v[1], depth + 1, o);
        else if (!op[0] && type_is_pointer(clang_getCursorType(s))) /* p + k in a macro */
            known = pointer_origin(sc, ch.v[left ? 0 : 1], depth + 1, o);
    } else if (k == CXCursor_ConditionalOperator && ch.n == 3) {
        ptr_origin b;
        known = pointer_origin(sc, ch.v[1], depth + 1, o) &&
                pointer_origin(sc, ch.v[2], depth + 1, &b) && same_origin(o, &b);
    }
    free(ch.v);
    return known;
}

/* A private object of the function that the pointer expression base points into, or null. */
static CXCursor private_target(const scan_ctx *sc, CXCursor base, int *param)
{
    ptr_origin o;
    *param = -1;
    if (!pointer_origin(sc, base, 0, &o))
        return clang_getNullCursor();
    *param = o.param;
    if (!clang_Cursor_isNull(o.root) && points_outside_private(clang_getCursorType(base)))
        return clang_getNullCursor(); /* cannot happen in valid OpenCL: stay careful */
    return o.root;
}

static void record_store(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->stores, fx->nstores, fx->capstores, access);
}

static void record_load(effects *fx, CXCursor access)
{
    VEC_PUSH(fx->loads, fx->nloads, fx->caploads, access);
}

/*
 * A store to the lvalue lv through the pointer base: to memory, through a
 * helper's parameter, or to a private object the pointer is derived from.
 */
static void note_store(scan_ctx *sc, CXCursor base, CXCursor lv, CXCursor site)
{
    int p;
    CXCursor priv = private_target(sc, base, &p);
    if (!clang_Cursor_isNull(priv)) {
        add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, priv);
        note_effect(sc->fx, EFF_LOCAL_WRITE, site, clang_getNullCursor());
        return;
    }
    if (p >= 0) {
        if (!sc->fx->param_writes || clang_Cursor_isNull(sc->fx->param_store))
            sc->fx->param_store = site;
        sc->fx->param_writes |= 1u << p;
        return;
    }
    note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
    record_store(sc->fx, clang_Cursor_isNull(sc->outer) ? lv : sc->outer);
}

/* A load of the expression site through the pointer base. */
static void note_load(scan_ctx *sc, CXCursor base, CXCursor site)
{
    int p;
    CXCursor priv = private_target(sc, base, &p);
    if (!clang_Cursor_isNull(priv)) {
        add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, priv);
    } else if (p >= 0) {
        sc->fx->param_reads |= 1u << p;
    } else if (!read_is_immune(base)) {
        note_effect(sc->fx, EFF_MEM_READ, site, clang_getNullCursor());
        record_load(sc->fx, clang_Cursor_isNull(sc->outer) ? site : sc->outer);
    }
}

/* The field a member access names, or the null cursor. */
static CXCursor member_field(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    CXCursor f = clang_getCursorReferenced(e);
    return clang_getCursorKind(f) == CXCursor_FieldDecl ? f : clang_getNullCursor();
}

/* s.a[k] of an array field a: the access is to field a (which element, unknown). */
static CXCursor field_access(CXCursor e)
{
    CXCursor s = strip(e);
    while (clang_getCursorKind(s) == CXCursor_ArraySubscriptExpr) {
        cursor_list ch = children_of(s);
        CXCursor base = ch.n == 2 ? strip(ch.v[0]) : clang_getNullCursor();
        free(ch.v);
        if (clang_Cursor_isNull(base) || clang_getCursorKind(base) != CXCursor_MemberRefExpr ||
            type_is_pointer(clang_getCursorType(base)))
            break;
        s = base;
    }
    return s;
}

/*
 * The access qualifier of the image a read_image* / write_image* call e names
 * (its first argument, a parameter or a local of image type): 'r' read_only
 * (also when unqualified), 'w' write_only, 'x' read_write, 0 not such a call.
 */
static char image_call_access(CXCursor e, const char *prefix)
{
    CXCursor s = strip(e);
    if (clang_getCursorKind(s) != CXCursor_CallExpr)
        return 0;
    CXString fn = clang_getCursorSpelling(s);
    int match = starts_with(clang_getCString(fn), prefix);
    clang_disposeString(fn);
    cursor_list ch = children_of(s);
    CXCursor img = match && ch.n >= 2 ? strip(ch.v[1]) : clang_getNullCursor();
    free(ch.v);
    if (clang_Cursor_isNull(img) || clang_getCursorKind(img) != CXCursor_DeclRefExpr)
        return 0;
    CXString t = clang_getTypeSpelling(clang_getCursorType(clang_getCursorReferenced(img)));
    const char *ts = clang_getCString(t);
    char a = !strstr(ts, "image") ? 0 : strstr(ts, "write_only") ? 'w'
           : strstr(ts, "read_write") ? 'x' : 'r';
    clang_disposeString(t);
    return a;
}

/* ---- strict aliasing (C11 6.5p7, which OpenCL C keeps from C99) ---- */

/* An access the rule can read: p[i], p->f, s.f, *p (not a call: its type is its result's). */
static int plain_access(CXCursor e)
{
    enum CXCursorKind k = clang_getCursorKind(strip(e));
    return k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
           k == CXCursor_UnaryOperator;
}

/* A scalar's kind with signedness dropped (int and uint may alias); 0 for anything else. */
static int scalar_key(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Short: case CXType_UShort: return 2;
    case CXType_Int: case CXType_UInt: return 4;
    case CXType_Long: case CXType_ULong: return 8;
    case CXType_LongLong: case CXType_ULongLong: return 9;
    case CXType_Half: return 20;
    case CXType_Float16: return 21;
    case CXType_Float: return 22;
    case CXType_Double: return 23;
    default: return 0; /* char (aliases anything), bool, vectors, pointers, structs */
    }
}

/* Does the access pass through a field of a union (u.a.x, u->s.f)? */
static int through_union(CXCursor e)
{
    CXCursor s = strip(e);
    for (int depth = 0; depth < 32; depth++) {
        enum CXCursorKind k = clang_getCursorKind(s);
        if (k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr)
            return 0;
        CXCursor f = member_field(s);
        if (!clang_Cursor_isNull(f) &&
            clang_getCursorKind(clang_getCursorSemanticParent(f)) != CXCursor_StructDecl)
            return 1;
        cursor_list ch = children_of(s);
        CXCursor base = ch.n >= 1 ? strip(ch.v[0]) : clang_getNullCursor();
        free(ch.v);
        if (clang_Cursor_isNull(base))
            return 1;
        s = base;
    }
    return 1;
}

static int record_contains(CXType outer, CXCursor inner, int depth);

static enum CXChildVisitResult contains_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct { CXCursor inner; int depth; int found; } *q = data;
    if (clang_getCursorKind(c) == CXCursor_FieldDecl &&
        record_contains(clang_getCursorType(c), q->inner, q->depth + 1))
        q->found = 1;
    return q->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Is the struct inner outer itself, or a member of it (by value, arrays too, nested)? */
static int record_contains(CXType outer, CXCursor inner, int depth)
{
    CXType t = clang_getCanonicalType(outer);
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    if (t.kind != CXType_Record || depth > 16)
        return 0;
    CXCursor decl = clang_getTypeDeclaration(t);
    if (clang_equalCursors(clang_getCanonicalCursor(decl), clang_getCanonicalCursor(inner)))
        return 1;
    struct { CXCursor inner; int depth; int found; } q = {inner, depth, 0};
    clang_visitChildren(decl, contains_cb, &q);
    return q.found;
}

/*
 * Two accesses C's effective-type rule keeps apart: scalars of different
 * types (char and uchar excepted: they may access anything), or fields of two
 * different struct types neither of which holds the other. Unions, vectors,
 * whole structs and calls are never told apart (docs/legality.md).
 */
static int types_disjoint(CXCursor w, CXCursor r)
{
    if (!plain_access(w) || !plain_access(r) || through_union(w) || through_union(r))
        return 0;
    int kw = scalar_key(clang_getCursorType(strip(w)));
    int kr = scalar_key(clang_getCursorType(strip(r)));
    if (!kw || !kr)
        return 0;
    if (kw != kr)
        return 1;
    CXCursor fw = member_field(strip(w)), fr = member_field(strip(r));
    if (clang_Cursor_isNull(fw) || clang_Cursor_isNull(fr))
        return 0;
    CXCursor rw = clang_getCursorSemanticParent(fw), rr = clang_getCursorSemanticParent(fr);
    return !clang_equalCursors(clang_getCanonicalCursor(rw), clang_getCanonicalCursor(rr)) &&
           !record_contains(clang_getCursorType(rw), rr, 0) &&
           !record_contains(clang_getCursorType(rr), rw, 0);
}

int accesses_may_alias(CXCursor w, CXCursor r)
{
    if (types_disjoint(w, r))
        return 0;
    /* a write_only image and a read_only one are two objects: OpenCL does not let one
     * kernel read and write the same image unless it is read_write (docs/legality.md) */
    if (image_call_access(w, "write_image") == 'w' && image_call_access(r, "read_image") == 'r')
        return 0;
    for (int depth = 0; depth < 16; depth++) {
        w = field_access(w);
        r = field_access(r);
        CXCursor fw = member_field(strip(w)), fr = member_field(strip(r));
        if (clang_Cursor_isNull(fw) || clang_Cursor_isNull(fr))
            return 1; /* a whole element, a dereference, a call: it may overlap */
        CXCursor rec = clang_getCursorSemanticParent(fw);
        if (!clang_equalCursors(fw, fr))
            return !(clang_equalCursors(rec, clang_getCursorSemanticParent(fr)) &&
                     clang_getCursorKind(rec) == CXCursor_StructDecl);
        cursor_list cw = children_of(strip(w)), cr = children_of(strip(r));
        int deeper = cw.n == 1 && cr.n == 1 &&
                     !type_is_pointer(clang_getCursorType(strip(cw.v[0]))) &&
                     !type_is_pointer(clang_getCursorType(strip(cr.v[0])));
        if (deeper) { /* s[i].pos.x and s[i].vel.x: compare pos and vel */
            w = cw.v[0];
            r = cr.v[0];
        }
        free(cw.v);
        free(cr.v);
        if (!deeper)
            return 1;
    }
    return 1;
}

/* Records a write to the lvalue c: a local variable, or memory. */
static void scan_lvalue(scan_ctx *sc, CXCursor c, CXCursor site)
{
    CXCursor s = strip(c);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        if (is_local_decl(d)) {
            add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, d);
            note_effect(sc->fx, EFF_LOCAL_WRITE, site, clang_getNullCursor());
        } else {
            note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
            record_store(sc->fx, s);
        }
        return;
    }
    cursor_list ch = children_of(s);
    CXCursor outer = sc->outer;
    if (k == CXCursor_ArraySubscriptExpr && ch.n == 2) {
        sc->outer = clang_getNullCursor();
        scan(sc, ch.v[1]);
        sc->outer = outer;
        if (type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
            note_store(sc, ch.v[0], s, site);
            sc->outer = clang_getNullCursor();
            scan(sc, ch.v[0]);
            sc->outer = outer;
        } else {
            scan_lvalue(sc, ch.v[0], site);
        }
    } else if (k == CXCursor_MemberRefExpr && ch.n == 1) {
        if (type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
            note_store(sc, ch.v[0], s, site);
            sc->outer = clang_getNullCursor();
            scan(sc, ch.v[0]);
            sc->outer = outer;
        } else {
            if (clang_Cursor_isNull(sc->outer)) /* s[i].f: the store is to field f */
                sc->outer = s;
            scan_lvalue(sc, ch.v[0], site);
            sc->outer = outer;
        }
    } else if (k == CXCursor_UnaryOperator && ch.n == 1) {
        note_store(sc, ch.v[0], s, site); /* *p = ... */
        sc->outer = clang_getNullCursor();
        scan(sc, ch.v[0]);
        sc->outer = outer;
    } else {
        /* something we cannot see into: memory */
        note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
        record_store(sc->fx, site);
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
    }
    free(ch.v);
}

static void merge_call(scan_ctx *sc, const effects *callee, CXCursor call)
{
    unsigned bits = callee->bits & ~EFF_LOCAL_WRITE;
    for (unsigned i = 0; i < EFF_COUNT; i++) {
        if (!(bits & (1u << i)) || (sc->fx->bits & (1u << i)))
            continue;
        sc->fx->site[i].at = callee->site[i].at;
        sc->fx->site[i].via = call;
    }
    sc->fx->bits |= bits;
    sc->fx->cost += callee->cost + 2;
    if (bits & (EFF_MEM_WRITE | EFF_ATOMIC))
        record_store(sc->fx, call);
    if (bits & EFF_MEM_READ)
        record_load(sc->fx, call);
}

/*
 * What a helper does through its pointer parameter: an argument '&t' (or a
 * local array) is the caller's private variable, written or read; a
 * parameter of the caller is passed on; anything else is memory.
 */
static void pointer_arg_effects(scan_ctx *sc, const effects *callee, unsigned p, CXCursor arg,
                                CXCursor call)
{
    unsigned bit = p < 32 ? 1u << p : 0;
    if (!(callee->param_writes & bit) && !(callee->param_reads & bit))
        return;
    int q;
    CXCursor local = private_target(sc, arg, &q); /* &t, a private array, p + k from one */
    if (callee->param_writes & bit) {
        if (!clang_Cursor_isNull(local)) {
            add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, local);
            note_effect(sc->fx, EFF_LOCAL_WRITE, call, clang_getNullCursor());
        } else if (q >= 0) {
            sc->fx->param_writes |= 1u << q;
        } else if (!clang_Cursor_isNull(callee->param_store)) {
            note_effect(sc->fx, EFF_MEM_WRITE, callee->param_store, call);
            record_store(sc->fx, call);
        } else {
            note_effect(sc->fx, EFF_MEM_WRITE, call, clang_getNullCursor());
            record_store(sc->fx, call);
        }
    }
    if (callee->param_reads & bit) {
        if (!clang_Cursor_isNull(local))
            add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, local);
        else
            note_load(sc, arg, call);
    }
}

/* The arguments of a call to a helper: '&t' is not a store by itself. */
static void scan_helper_args(scan_ctx *sc, const effects *callee, CXCursor call)
{
    cursor_list ch = children_of(call);
    for (unsigned i = 1; i < ch.n; i++) { /* child 0 is the callee */
        CXCursor a = strip(ch.v[i]);
        int addr_of_local = 0;
        if (clang_getCursorKind(a) == CXCursor_UnaryOperator) {
            cursor_list op = children_of(a);
            char text[8] = "";
            if (op.n == 1)
                unary_operator(sc->an, a, op.v[0], text, sizeof text);
            if (!strcmp(text, "&") && !clang_Cursor_isNull(local_root(op.v[0]))) {
                addr_of_local = 1;
                scan(sc, op.v[0]); /* the indices, and a read of the variable (harmless) */
            }
            free(op.v);
        }
        if (!addr_of_local)
            scan(sc, ch.v[i]);
        pointer_arg_effects(sc, callee, i - 1, ch.v[i], call);
    }
    free(ch.v);
}

static void scan_call(scan_ctx *sc, CXCursor c)
{
    char *name = cursor_spelling(c);
    CXCursor ref = clang_getCursorReferenced(c);
    CXCursor def = clang_getCursorDefinition(ref);
    if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl &&
        !clang_equalCursors(def, sc->func)) {
        const effects *callee = function_summary(sc->an, def);
        merge_call(sc, callee, c);
        free(name);
        scan_helper_args(sc, callee, c);
        return;
    } else if (!clang_Cursor_isNull(def) && clang_equalCursors(def, sc->func)) {
        note_effect(sc->fx, EFF_UNSUPPORTED, c, clang_getNullCursor()); /* recursion */
    } else {
        unsigned b = builtin_effects(name);
        if (b & EFF_ATOMIC)
            b |= EFF_MEM_WRITE; /* the write is the call's, not its '&p[i]' argument's */
        if (b)
            note_effect(sc->fx, b, c, clang_getNullCursor());
        if (b & EFF_MEM_WRITE)
            record_store(sc->fx, c);
        if (b & EFF_MEM_READ)
            record_load(sc->fx, c);
        sc->fx->cost += builtin_cost(name);
    }
    free(name);
    cursor_list ch = children_of(c);
    for (unsigned i = 1; i < ch.n; i++) /* child 0 is the callee */
        scan(sc, ch.v[i]);
    free(ch.v);
}

static void scan_binary(scan_ctx *sc, CXCursor c, int compound)
{
    cursor_list ch = children_of(c);
    if (ch.n != 2) {
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
        free(ch.v);
        return;
    }
    char op[8] = "=";
    if (!compound)
        binary_operator(sc->an, c, ch.v[0], ch.v[1], op, sizeof op);
    sc->fx->cost += 1;
    if (compound || is_assignment_op(op)) {
        if (compound || strcmp(op, "="))
            scan(sc, ch.v[0]); /* x += y reads x */
        scan_lvalue(sc, ch.v[0], c);
    } else {
        scan(sc, ch.v[0]);
    }
    scan(sc, ch.v[1]);
    free(ch.v);
}

/*
 * The local variable whose own storage the lvalue e is part of (x, x.f,
 * x[i] of a local array), or the null cursor when e is in memory.
 */
static CXCursor local_root(CXCursor e)
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
    if (ch.n >= 1 && !type_is_pointer(clang_getCursorType(strip(ch.v[0]))))
        r = local_root(ch.v[0]);
    free(ch.v);
    return r;
}

/*
 * &e computes an address: nothing is loaded or stored here. A store comes
 * later, through the pointer (and is seen there). The address of a local
 * variable escapes, so the variable counts as written.
 */
static void scan_address_of(scan_ctx *sc, CXCursor operand, CXCursor site)
{
    CXCursor s = strip(operand);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (!clang_Cursor_isNull(local_root(s)) || (k != CXCursor_ArraySubscriptExpr &&
                                                 k != CXCursor_MemberRefExpr)) {
        scan_lvalue(sc, s, site);
        scan(sc, s);
        return;
    }
    cursor_list ch = children_of(s); /* &p[i], &p->f: the pointer and the index are read */
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
    sc->fx->cost += 1;
}

static void scan_unary(scan_ctx *sc, CXCursor c)
{
    cursor_list ch = children_of(c);
    if (ch.n != 1) {
        for (unsigned i = 0; i < ch.n; i++)
            scan(sc, ch.v[i]);
        free(ch.v);
        return;
    }
    char op[8];
    unary_operator(sc->an, c, ch.v[0], op, sizeof op);
    sc->fx->cost += 1;
    if (!strcmp(op, "++") || !strcmp(op, "--")) {
        scan(sc, ch.v[0]);
        scan_lvalue(sc, ch.v[0], c);
    } else if (!strcmp(op, "&")) {
        scan_address_of(sc, ch.v[0], c);
    } else if (!strcmp(op, "*")) {
        note_load(sc, ch.v[0], c);
        scan(sc, ch.v[0]);
    } else {
        scan(sc, ch.v[0]);
    }
    free(ch.v);
}

static void scan_decl_ref(scan_ctx *sc, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    if (is_local_decl(d))
        add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, d);
}

static void scan_var_decl(scan_ctx *sc, CXCursor c)
{
    add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, c);
    if (spelling_has(clang_getCursorType(c), "__local"))
        note_effect(sc->fx, EFF_LOCAL_MEM, c, clang_getNullCursor());
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
}

/* A constant trip count for a for-loop, or 16 when unknown. */
static double loop_trips(scan_ctx *sc, CXCursor loop)
{
    cursor_list ch = children_of(loop);
    double trips = 16;
    for (unsigned i = 0; i + 1 < ch.n; i++) {
        CXCursor e = strip(ch.v[i]);
        if (clang_getCursorKind(e) != CXCursor_BinaryOperator)
            continue;
        cursor_list ops = children_of(e);
        if (ops.n == 2) {
            char op[8];
            binary_operator(sc->an, e, ops.v[0], ops.v[1], op, sizeof op);
            if (op[0] == '<' || !strcmp(op, "!=")) {
                CXEvalResult r = clang_Cursor_Evaluate(ops.v[1]);
                if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
                    long long v = clang_EvalResult_getAsLongLong(r);
                    trips = v > 0 ? (double)v : 1;
                }
                if (r)
                    clang_EvalResult_dispose(r);
            }
        }
        free(ops.v);
        break;
    }
    free(ch.v);
    return trips;
}

static void scan_loop(scan_ctx *sc, CXCursor c, int is_for)
{
    double trips = is_for ? loop_trips(sc, c) : 16;
    double before = sc->fx->cost;
    CXCursor exit_before = sc->fx->hidden_exit;
    sc->depth_loops++;
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    free(ch.v);
    sc->depth_loops--;
    sc->fx->cost = before + (sc->fx->cost - before) * trips;
    (void)exit_before;
}

static enum CXChildVisitResult scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan(data, c);
    return CXChildVisit_Continue;
}

/* The loads under a member access s[i].f are of field f (see scan). */
static void scan_member_access(scan_ctx *sc, CXCursor c)
{
    cursor_list ch = children_of(c);
    CXCursor outer = sc->outer;
    if (ch.n == 1 && type_is_pointer(clang_getCursorType(strip(ch.v[0])))) {
        note_load(sc, ch.v[0], c); /* p->f */
        sc->outer = clang_getNullCursor();
    } else if (clang_Cursor_isNull(sc->outer)) {
        sc->outer = c; /* s[i].f: the load below is of field f */
    }
    for (unsigned i = 0; i < ch.n; i++)
        scan(sc, ch.v[i]);
    sc->outer = outer;
    free(ch.v);
}

static void scan_subscript(scan_ctx *sc, CXCursor c)
{
    cursor_list ch = children_of(c);
    CXCursor outer = sc->outer;
    if (ch.n == 2 && type_is_pointer(clang_getCursorType(strip(ch.v[0]))))
        note_load(sc, ch.v[0], c);
    else if (ch.n == 2) /* a[i] of a private array: an outer .f stays the access */
        scan(sc, ch.v[0]);
    sc->outer = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n; i++)
        if (!(i == 0 && ch.n == 2 && !type_is_pointer(clang_getCursorType(strip(ch.v[0])))))
            scan(sc, ch.v[i]);
    sc->outer = outer;
    sc->fx->cost += 2;
    free(ch.v);
}

static void scan(scan_ctx *sc, CXCursor c)
{
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (!clang_Cursor_isNull(sc->outer) && kind != CXCursor_MemberRefExpr &&
        kind != CXCursor_ArraySubscriptExpr && kind != CXCursor_ParenExpr &&
        kind != CXCursor_UnexposedExpr && kind != CXCursor_DeclRefExpr) {
        CXCursor outer = sc->outer; /* anything else: its loads are its own */
        sc->outer = clang_getNullCursor();
        scan(sc, c);
        sc->outer = outer;
        return;
    }
    switch (kind) {
    case CXCursor_CallExpr:
        scan_call(sc, c);
        return;
    case CXCursor_BinaryOperator:
        scan_binary(sc, c, 0);
        return;
    case CXCursor_CompoundAssignOperator:
        scan_binary(sc, c, 1);
        return;
    case CXCursor_UnaryOperator:
        scan_unary(sc, c);
        return;
    case CXCursor_DeclRefExpr:
        scan_decl_ref(sc, c);
        return;
    case CXCursor_VarDecl:
        scan_var_decl(sc, c);
        return;
    case CXCursor_ArraySubscriptExpr:
        scan_subscript(sc, c);
        return;
    case CXCursor_MemberRefExpr:
        scan_member_access(sc, c);
        return;
    case CXCursor_ForStmt:
        scan_loop(sc, c, 1);
        return;
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        scan_loop(sc, c, 0);
        return;
    case CXCursor_ReturnStmt:
        if (clang_Cursor_isNull(sc->fx->hidden_exit))
            sc->fx->hidden_exit = c;
        break;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        if (sc->depth_loops == 0 && clang_Cursor_isNull(sc->fx->hidden_exit))
            sc->fx->hidden_exit = c;
        break;
    case CXCursor_SwitchStmt:
        sc->depth_loops++; /* a break inside belongs to it */
        clang_visitChildren(c, scan_cb, sc);
        sc->depth_loops--;
        return;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_LabelStmt:
        note_effect(sc->fx, EFF_UNSUPPORTED, c, clang_getNullCursor());
        break;
    default:
        break;
    }
    clang_visitChildren(c, scan_cb, sc);
}

void effects_free(effects *fx)
{
    free(fx->reads);
    free(fx->writes);
    free(fx->stores);
    free(fx->loads);
    memset(fx, 0, sizeof *fx);
}

void effects_of(analysis *an, CXCursor func, CXCursor c, effects *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->hidden_exit = clang_getNullCursor();
    fx->param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        fx->site[i].at = fx->site[i].via = clang_getNullCursor();
    scan_ctx sc = {an, fx, func, 0, 0, clang_getNullCursor()};
    scan(&sc, c);
}

/* Like effects_of for a helper's definition: stores through its pointer parameters apart. */
static void helper_effects(analysis *an, CXCursor def, effects *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->hidden_exit = clang_getNullCursor();
    fx->param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        fx->site[i].at = fx->site[i].via = clang_getNullCursor();
    scan_ctx sc = {an, fx, def, 0, 1, clang_getNullCursor()};
    scan(&sc, def);
}

static summary *new_summary(summary_table *t, CXCursor def)
{
    summary *s = xcalloc(1, sizeof *s);
    s->fx.hidden_exit = clang_getNullCursor(); /* a zeroed CXCursor is not the null cursor */
    s->fx.param_store = clang_getNullCursor();
    for (unsigned i = 0; i < EFF_COUNT; i++)
        s->fx.site[i].at = s->fx.site[i].via = clang_getNullCursor();
    cursor_map_put(&t->by_def, def, 0, t->n);
    VEC_PUSH(t->v, t->n, t->cap, s);
    return s;
}

/*
 * A helper's summary, made the first time a call reaches it (helpers no
 * kernel calls are never summarised), then found by hash.
 */
const effects *function_summary(analysis *an, CXCursor def)
{
    if (!an->summaries)
        an->summaries = xcalloc(1, sizeof(summary_table));
    summary_table *t = an->summaries;
    long found = cursor_map_get(&t->by_def, def, 0);
    if (found >= 0) {
        summary *s = t->v[found];
        if (s->busy)
            note_effect(&s->fx, EFF_UNSUPPORTED, def, clang_getNullCursor());
        return &s->fx;
    }
    summary *s = new_summary(t, def);
    s->busy = 1;
    effects fx;
    helper_effects(an, def, &fx);
    /* the helper's own locals are not ours; stores through its parameters are the call's */
    s->fx.bits |= fx.bits;
    s->fx.param_writes |= fx.param_writes;
    s->fx.param_reads |= fx.param_reads;
    s->fx.param_store = fx.param_store;
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if (clang_Cursor_isNull(s->fx.site[i].at))
            s->fx.site[i] = fx.site[i];
    s->fx.cost = fx.cost;
    effects_free(&fx);
    s->busy = 0;
    return &s->fx;
}

void merge_effects(effects *into, const effects *from)
{
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if ((from->bits & (1u << i)) && !(into->bits & (1u << i)))
            into->site[i] = from->site[i];
    into->bits |= from->bits;
    for (unsigned i = 0; i < from->nreads; i++)
        add_var(&into->reads, &into->nreads, &into->capreads, from->reads[i]);
    for (unsigned i = 0; i < from->nwrites; i++)
        add_var(&into->writes, &into->nwrites, &into->capwrites, from->writes[i]);
    for (unsigned i = 0; i < from->nstores; i++)
        record_store(into, from->stores[i]);
    for (unsigned i = 0; i < from->nloads; i++)
        record_load(into, from->loads[i]);
    into->cost += from->cost;
}

void summaries_free(analysis *an)
{
    summary_table *t = an->summaries;
    if (!t)
        return;
    for (unsigned i = 0; i < t->n; i++) {
        effects_free(&t->v[i]->fx);
        free(t->v[i]);
    }
    free(t->v);
    cursor_map_clear(&t->by_def);
    free(t);
    an->summaries = NULL;
}
