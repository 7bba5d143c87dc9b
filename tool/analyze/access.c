/* SPDX-License-Identifier: Apache-2.0 */
/*
 * access.c - the memory-access model of the effects scan: where a pointer
 * points (a private object of the function, a helper's parameter, or
 * memory), the stores and loads it records, and whether two recorded
 * accesses may alias (fields, C's effective-type rule, image access
 * qualifiers): the model plan.c's memory-order check uses.
 */
#include "analyze_int.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A load through base (a pointer expression): is it immune to stores? It reads __constant
 * memory (READ_CONSTANT) or through a `restrict` parameter (READ_RESTRICT), or neither (0). */
enum { READ_CONSTANT = 1, READ_RESTRICT = 2 };

static int read_is_immune(CXCursor base)
{
    CXType t = clang_getCursorType(base);
    if (t.kind != CXType_Invalid) {
        CXType pointee = clang_getPointeeType(clang_getCanonicalType(t));
        if (spelling_has(pointee, "__constant"))
            return READ_CONSTANT;
    }
    CXCursor b = strip(base);
    if (clang_getCursorKind(b) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(b);
        if (clang_getCursorKind(d) == CXCursor_ParmDecl &&
            clang_isRestrictQualifiedType(clang_getCursorType(d)))
            return READ_RESTRICT;
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
        if (ch.n && names_decl(ch.v[0], ds->var)) {
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
    if (t.kind != CXType_Pointer && !is_array_param(d))
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
        if (expr_is_pointer(base))
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
        else if (!op[0] && expr_is_pointer(s)) /* p + k in a macro */
            known = pointer_origin(sc, ch.v[left ? 0 : 1], depth + 1, o);
    } else if (k == CXCursor_ConditionalOperator && ch.n == 3) {
        ptr_origin b;
        known = pointer_origin(sc, ch.v[1], depth + 1, o) &&
                pointer_origin(sc, ch.v[2], depth + 1, &b) && same_origin(o, &b);
    } else if ((k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) &&
               clang_getCanonicalType(clang_getCursorType(s)).kind == CXType_ConstantArray) {
        known = address_origin(sc, s, depth + 1, o); /* p->buf decays to &p->buf[0] */
    }
    free(ch.v);
    return known;
}

/* A private object of the function that the pointer expression base points into, or null. */
CXCursor analyze_private_target(const scan_ctx *sc, CXCursor base, int *param)
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

/*
 * A store to the lvalue lv through the pointer base: to memory, through a
 * helper's parameter, or to a private object the pointer is derived from.
 */
void analyze_note_store(scan_ctx *sc, CXCursor base, CXCursor lv, CXCursor site)
{
    int p;
    CXCursor priv = analyze_private_target(sc, base, &p);
    if (!clang_Cursor_isNull(priv)) {
        add_var(&sc->fx->writes, &sc->fx->nwrites, &sc->fx->capwrites, priv);
        analyze_note_effect(sc->fx, EFF_LOCAL_WRITE, site, clang_getNullCursor());
        return;
    }
    if (p >= 0) {
        if (!sc->fx->param_writes || clang_Cursor_isNull(sc->fx->param_store))
            sc->fx->param_store = site;
        sc->fx->param_writes |= 1u << p;
        return;
    }
    analyze_note_effect(sc->fx, EFF_MEM_WRITE, site, clang_getNullCursor());
    analyze_record_store(sc->fx, clang_Cursor_isNull(sc->outer) ? lv : sc->outer);
}

/*
 * A load of the expression site through the pointer base. A load no store can change is not
 * a memory read for the rules; one through a `restrict` parameter is kept for the cost
 * (effects.restrict_loads), a __constant one is not (a table the constant cache serves).
 */
void analyze_note_load(scan_ctx *sc, CXCursor base, CXCursor site)
{
    int p;
    CXCursor priv = analyze_private_target(sc, base, &p);
    CXCursor access = clang_Cursor_isNull(sc->outer) ? site : sc->outer;
    if (!clang_Cursor_isNull(priv)) {
        add_var(&sc->fx->reads, &sc->fx->nreads, &sc->fx->capreads, priv);
    } else if (p >= 0) {
        sc->fx->param_reads |= 1u << p;
    } else {
        int immune = read_is_immune(base);
        if (immune == READ_RESTRICT)
            analyze_record_restrict_load(sc->fx, access);
        if (immune)
            return;
        analyze_note_effect(sc->fx, EFF_MEM_READ, site, clang_getNullCursor());
        analyze_record_load(sc->fx, access);
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
    int match = analyze_starts_with(clang_getCString(fn), prefix);
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
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_Enum) /* compatible with its integer type (C11 6.7.2.2p4) */
        c = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c)));
    switch (c.kind) {
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

/* A vector of a scalar_key element (not of char, uchar or bool): its element's key. */
static int vector_key(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind != CXType_Vector && c.kind != CXType_ExtVector)
        return 0;
    return scalar_key(clang_getElementType(c));
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
 * different struct types neither of which holds the other, each field a
 * scalar or a vector of one (not of char, uchar or bool). Unions, whole
 * structs, a vector outside such fields and calls are never told apart
 * (docs/legality.md).
 */
static int type_may_hold_key(CXType t, int key, int depth);

static enum CXChildVisitResult holds_key_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *q = data; /* q[0]: the key, q[1]: depth, q[2]: found */
    if (clang_getCursorKind(c) == CXCursor_FieldDecl &&
        type_may_hold_key(clang_getCursorType(c), q[0], q[1] + 1))
        q[2] = 1;
    return q[2] ? CXChildVisit_Break : CXChildVisit_Continue;
}

/*
 * May an object of type t (a struct, read or written whole) hold a member that an access
 * of the scalar key reaches? Yes for a member of that key, and for anything the keys do
 * not tell apart (char, bool, a pointer, a union, a bit we cannot read).
 */
static int type_may_hold_key(CXType t, int key, int depth)
{
    CXType c = clang_getCanonicalType(t);
    while (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray)
        c = clang_getCanonicalType(clang_getArrayElementType(c));
    if (depth > 16)
        return 1;
    if (c.kind == CXType_Vector || c.kind == CXType_ExtVector) {
        int v = vector_key(c);
        return !v || v == key;
    }
    if (c.kind != CXType_Record) {
        int k = scalar_key(c);
        return !k || k == key;
    }
    CXCursor decl = clang_getTypeDeclaration(c);
    if (clang_getCursorKind(decl) != CXCursor_StructDecl)
        return 1; /* a union */
    int q[3] = {key, depth, 0};
    clang_visitChildren(decl, holds_key_cb, q);
    return q[2];
}

/* A whole struct access and a scalar one: C lets the struct reach the scalar only through
 * a member of its type (C11 6.5p7: an aggregate that includes it among its members). */
static int whole_struct_apart(CXCursor whole, int key)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(strip(whole)));
    return key && t.kind == CXType_Record &&
           clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_StructDecl &&
           !type_may_hold_key(t, key, 0);
}

static int types_disjoint(CXCursor w, CXCursor r)
{
    if (!plain_access(w) || !plain_access(r) || through_union(w) || through_union(r))
        return 0;
    int kw = scalar_key(clang_getCursorType(strip(w)));
    int kr = scalar_key(clang_getCursorType(strip(r)));
    if (whole_struct_apart(w, kr) || whole_struct_apart(r, kw))
        return 1;
    int vw = vector_key(clang_getCursorType(strip(w)));
    int vr = vector_key(clang_getCursorType(strip(r)));
    if ((!kw && !vw) || (!kr && !vr))
        return 0;
    if (kw && kr && kw != kr)
        return 1; /* scalars: clang's alias analysis tells them apart too */
    /* the same scalar type, or a vector (clang's alias analysis treats vectors as char:
     * only the rule below, on two fields, keeps them apart) */
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
                     !expr_is_pointer(cw.v[0]) && !expr_is_pointer(cr.v[0]);
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
