/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop_facts.c - what the plan's loop shape (tool/plan/loop.c) reads of the
 * source (plan_facts.h): loops that hold a decision, a loop's parts and
 * jumps, a declaration's variables, a kernel's parameters, an if that ends
 * by leaving the iteration, a selector's type.
 */
#include "analyze_int.h"
#include "plan_facts.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

unsigned cursor_spelling_line(CXCursor c)
{
    unsigned line = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    return line;
}

static int is_loop(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_WhileStmt || k == CXCursor_ForStmt || k == CXCursor_DoStmt;
}

/* Is there an if or a switch in c? */
static int holds_decision(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IfStmt || k == CXCursor_SwitchStmt)
        return 1;
    cursor_list ch = children_of(c);
    int found = 0;
    for (unsigned i = 0; i < ch.n && !found; i++)
        found = holds_decision(ch.v[i]);
    free(ch.v);
    return found;
}

int is_decision_loop(CXCursor c)
{
    return is_loop(c) && holds_decision(c);
}

CXCursor decision_loop_in(CXCursor c)
{
    if (is_decision_loop(c))
        return c;
    cursor_list ch = children_of(c);
    CXCursor found = clang_getNullCursor();
    for (unsigned i = 0; i < ch.n && clang_Cursor_isNull(found); i++)
        found = decision_loop_in(ch.v[i]);
    free(ch.v);
    return found;
}

int is_attributed_loop(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_UnexposedStmt)
        return 0;
    cursor_list ch = children_of(c);
    int loop = ch.n >= 1 && is_loop(ch.v[ch.n - 1]);
    free(ch.v);
    return loop;
}

/* Adds the break and continue statements in c that leave or restart the loop c sits in. */
static void collect_jumps(CXCursor c, int in_switch, cursor_list *out)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_BreakStmt && !in_switch) || k == CXCursor_ContinueStmt) {
        VEC_PUSH(out->v, out->n, out->cap, c);
        return;
    }
    if (is_loop(c))
        return;
    in_switch |= k == CXCursor_SwitchStmt;
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        collect_jumps(ch.v[i], in_switch, out);
    free(ch.v);
}

void loop_jumps_of(CXCursor loop, cursor_list *out)
{
    cursor_list ch = children_of(loop);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt)
            collect_jumps(ch.v[i], 0, out);
    free(ch.v);
}

int is_break_stmt(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_BreakStmt;
}

void loop_syntax_of(const analysis *an, CXCursor loop, loop_syntax *ls, src_range *body_range,
                    src_range *test_range)
{
    memset(ls, 0, sizeof *ls);
    enum CXCursorKind kind = clang_getCursorKind(loop);
    ls->kind = kind == CXCursor_ForStmt ? IR_FOR : kind == CXCursor_DoStmt ? IR_DO : IR_WHILE;
    cursor_list ch = children_of(loop);
    ls->nkids = ch.n;
    CXCursor body = ch.n ? ch.v[ls->kind == IR_DO ? 0 : ch.n - 1] : clang_getNullCursor();
    /* `for (;;) { ... }` has its body alone as a child; a while or do has its test too */
    const unsigned kids = ls->kind == IR_FOR ? 1 : 2;
    ls->braced = ch.n >= kids && clang_getCursorKind(body) == CXCursor_CompoundStmt;
    ls->body_bad = !ls->braced || cursor_range(an, body, body_range) != 0;
    enum CXCursorKind bk = clang_getCursorKind(body);
    ls->body_holds = bk == CXCursor_IfStmt || bk == CXCursor_SwitchStmt ? 1
                   : bk == CXCursor_ForStmt || bk == CXCursor_WhileStmt ||
                           bk == CXCursor_DoStmt
                       ? 2
                       : 0;
    if (ls->kind != IR_FOR && ch.n >= 2) {
        CXCursor test = ch.v[ls->kind == IR_DO ? 1 : 0];
        ls->decl_test = clang_getCursorKind(test) == CXCursor_VarDecl;
        ls->test_bad = !ls->decl_test && (ch.n != 2 || cursor_range(an, test, test_range) != 0);
    }
    free(ch.v);
}

int if_ends_by_jump(CXCursor ifstmt)
{
    cursor_list ch = children_of(ifstmt);
    CXCursor last = ch.n >= 2 ? ch.v[1] : clang_getNullCursor();
    free(ch.v);
    if (clang_getCursorKind(last) == CXCursor_CompoundStmt) {
        cursor_list in = children_of(last);
        last = in.n ? in.v[in.n - 1] : clang_getNullCursor();
        free(in.v);
    }
    enum CXCursorKind k = clang_getCursorKind(last);
    return k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_ReturnStmt;
}

int is_param_decl(CXCursor decl)
{
    return clang_getCursorKind(decl) == CXCursor_ParmDecl;
}

char *expr_value_type(CXCursor e)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    CXString s = clang_getTypeSpelling(t);
    const char *p = clang_getCString(s);
    while (!strncmp(p, "const ", 6) || !strncmp(p, "volatile ", 9))
        p += p[0] == 'c' ? 6 : 9;
    char *r = xstrdup(p);
    clang_disposeString(s);
    return r;
}

long long expr_type_size(CXCursor e)
{
    return clang_Type_getSizeOf(clang_getCursorType(e));
}

int switch_body_range(const analysis *an, CXCursor sw, src_range *body)
{
    cursor_list ch = children_of(sw);
    int bad = ch.n < 2 || clang_getCursorKind(ch.v[ch.n - 1]) != CXCursor_CompoundStmt ||
              cursor_range(an, ch.v[ch.n - 1], body) != 0;
    free(ch.v);
    return bad;
}

void decl_stmt_vars(CXCursor c, cursor_list *out)
{
    if (clang_getCursorKind(c) != CXCursor_DeclStmt)
        return;
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_VarDecl)
            VEC_PUSH(out->v, out->n, out->cap, ch.v[i]);
    free(ch.v);
}

CXCursor for_init_decl(CXCursor loop)
{
    cursor_list ch = children_of(loop);
    CXCursor d = clang_getNullCursor();
    if (ch.n && clang_getCursorKind(ch.v[0]) == CXCursor_DeclStmt)
        d = ch.v[0];
    free(ch.v);
    return d;
}

void function_params(CXCursor fn, cursor_list *out)
{
    for (int i = 0; i < clang_Cursor_getNumArguments(fn); i++)
        VEC_PUSH(out->v, out->n, out->cap, clang_Cursor_getArgument(fn, (unsigned)i));
}
