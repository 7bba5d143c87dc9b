/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_facts.c - the plan's handles and places (plan_facts.h): null and
 * equal cursors, diagnostic locations, where a declaration is.
 */
#include "plan_facts.h"

#include <string.h>

CXCursor cursor_null(void)
{
    return clang_getNullCursor();
}

int cursor_is_null(CXCursor c)
{
    return clang_Cursor_isNull(c);
}

int cursors_equal(CXCursor a, CXCursor b)
{
    return clang_equalCursors(a, b) != 0;
}

diag_loc cursor_diag_loc(const analysis *an, CXCursor c)
{
    return parse_diag_loc(an->pr, clang_getCursorLocation(c));
}

int cursor_inside(const analysis *an, CXCursor c, const src_range *r)
{
    CXFile file;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, &off);
    return file == an->pr->files[r->file].cxfile && off >= r->begin && off < r->end;
}

int var_decl_pos(const analysis *an, CXCursor var, src_pos *out)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        parse_resolve(an->pr, clang_getCursorLocation(var), out) != 0)
        return -1;
    return 0;
}

int load_is_image_read(CXCursor load)
{
    if (clang_getCursorKind(load) != CXCursor_CallExpr)
        return 0;
    CXString s = clang_getCursorSpelling(load);
    int image = !strncmp(clang_getCString(s), "read_image", 10);
    clang_disposeString(s);
    return image;
}
