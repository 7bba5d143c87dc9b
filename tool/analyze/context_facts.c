/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context_facts.c - what the plan's contexts (tool/plan/context.c) read of
 * the source (plan_facts.h): a variable's type, size and what its type
 * holds, whether it has an initializer, whether a statement names it.
 */
#include "analyze_int.h"
#include "plan_facts.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static char *type_spelling(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *r = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

/* A value type that moves through local memory: scalars, vectors, structs. */
static int movable_value(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_Record || c.kind == CXType_ExtVector || c.kind == CXType_Vector)
        return 1;
    return c.kind >= CXType_Char_U && c.kind <= CXType_LongDouble && c.kind != CXType_Bool;
}

/* Is t, or a field of it at any depth, or its element type, a pointer? */
static int holds_pointer(CXType t, int depth);

typedef struct field_scan {
    int depth, found;
} field_scan;

static enum CXVisitorResult field_cb(CXCursor field, CXClientData data)
{
    field_scan *fs = data;
    if (holds_pointer(clang_getCursorType(field), fs->depth + 1)) {
        fs->found = 1;
        return CXVisit_Break;
    }
    return CXVisit_Continue;
}

static int holds_pointer(CXType t, int depth)
{
    CXType c = clang_getCanonicalType(t);
    if (depth > 16 || c.kind == CXType_Pointer || c.kind == CXType_BlockPointer)
        return 1;
    if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray)
        return holds_pointer(clang_getArrayElementType(c), depth + 1);
    if (c.kind != CXType_Record)
        return 0;
    field_scan fs = {depth, 0};
    clang_Type_visitFields(c, field_cb, &fs);
    return fs.found;
}

/*
 * Is a type the context spells declared inside a function (a struct or a
 * typedef in the kernel's body)? The classify and leaf helpers live at file
 * scope, where it is not visible. Looks through typedefs and arrays.
 */
static int declared_in_function(CXType t, int depth)
{
    if (depth > 16)
        return 0;
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        return declared_in_function(clang_getArrayElementType(t), depth + 1);
    CXCursor d = clang_getTypeDeclaration(t);
    if (!clang_Cursor_isNull(d) && clang_getCursorKind(d) != CXCursor_NoDeclFound) {
        for (CXCursor p = clang_getCursorSemanticParent(d);
             !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
             p = clang_getCursorSemanticParent(p))
            if (clang_getCursorKind(p) == CXCursor_FunctionDecl)
                return 1;
        if (t.kind == CXType_Typedef)
            return declared_in_function(clang_getTypedefDeclUnderlyingType(d), depth + 1);
    }
    if (t.kind == CXType_Elaborated)
        return declared_in_function(clang_Type_getNamedType(t), depth + 1);
    return 0;
}

void var_facts_of(CXCursor var, var_facts *f)
{
    memset(f, 0, sizeof *f);
    f->name = cursor_spelling(var);
    f->line = cursor_expansion_line(var);
    CXType t = clang_getCursorType(var), canon = clang_getCanonicalType(t);
    f->bytes = (unsigned)clang_Type_getSizeOf(t);
    CXType value = t;
    if (canon.kind == CXType_ConstantArray) {
        value = clang_getArrayElementType(t);
        f->count = (unsigned)clang_getArraySize(canon);
    }
    f->value_type = type_spelling(value);
    f->type = type_spelling(t);
    f->const_value = clang_isConstQualifiedType(clang_getCanonicalType(value)) != 0;
    f->pointer = canon.kind == CXType_Pointer;
    f->holds_pointer = !f->pointer && holds_pointer(t, 0);
    f->movable = movable_value(value);
    f->local_type = declared_in_function(t, 0);
}

void var_facts_free(var_facts *f)
{
    free(f->name);
    free(f->value_type);
    free(f->type);
    memset(f, 0, sizeof *f);
}

typedef struct init_scan {
    int array;
    enum CXCursorKind last; /* the kind of the last expression child */
} init_scan;

static enum CXChildVisitResult init_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    init_scan *is = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isExpression(k))
        is->last = k;
    return CXChildVisit_Continue;
}

int var_initialized(CXCursor var)
{
    init_scan is = {0, CXCursor_InvalidCode};
    is.array = clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_ConstantArray;
    clang_visitChildren(var, init_cb, &is);
    if (is.last == CXCursor_InvalidCode)
        return 0;
    return !is.array || is.last == CXCursor_InitListExpr || is.last == CXCursor_StringLiteral;
}

typedef struct mention_scan {
    CXCursor var;
    int found;
} mention_scan;

static enum CXChildVisitResult mention_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    mention_scan *ms = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), ms->var)) {
        ms->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int stmt_mentions(CXCursor stmt, CXCursor var)
{
    mention_scan ms = {var, 0};
    clang_visitChildren(stmt, mention_cb, &ms);
    return ms.found || clang_equalCursors(stmt, var);
}
