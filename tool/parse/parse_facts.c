/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parse_facts.c - the #include lines, skipped blocks and macro definitions of
 * the translation unit, for the stages that must not call libclang (parse_facts.h).
 */
#include "parse_facts.h"

#include <stdlib.h>

#include "util.h"

typedef struct inclusion_list {
    parse_result *pr;
    parse_inclusion *v;
    unsigned n, cap;
} inclusion_list;

/* clang_getInclusions' visitor: the user's #include lines the preprocessor entered. */
static void inclusion_cb(CXFile included, CXSourceLocation *stack, unsigned len,
                         CXClientData data)
{
    inclusion_list *inc = data;
    if (len == 0 || clang_Location_isInSystemHeader(stack[0]))
        return;
    CXFile from;
    unsigned off;
    clang_getExpansionLocation(stack[0], &from, NULL, NULL, &off);
    parse_result *pr = inc->pr;
    int a = parse_file_index(pr, from), b = parse_file_index(pr, included);
    if (a < 0 || b < 0)
        return;
    parse_inclusion i = {(unsigned)a, off, (unsigned)b, 0};
    VEC_PUSH(inc->v, inc->n, inc->cap, i);
}

void parse_logical_line(const src_file *f, unsigned off, unsigned *ls, unsigned *le)
{
    unsigned b = off > f->len ? (unsigned)f->len : off, e = b;
    for (;;) {
        while (b > 0 && f->text[b - 1] != '\n')
            b--;
        if (b < 2 || f->text[b - 2] != '\\')
            break;
        b--; /* the line before ends in a backslash: it goes on here */
    }
    for (;;) {
        while (e < f->len && f->text[e] != '\n')
            e++;
        if (e == 0 || e >= f->len || f->text[e - 1] != '\\')
            break;
        e++;
    }
    *ls = b;
    *le = e;
}

/* Is there an entered inclusion on the (logical) line of (file, off)? */
static int entered_at(const inclusion_list *inc, unsigned file, unsigned off)
{
    const src_file *f = &inc->pr->files[file];
    unsigned ls, le, ils, ile;
    parse_logical_line(f, off, &ls, &le);
    for (unsigned i = 0; i < inc->n; i++) {
        if (inc->v[i].skipped || inc->v[i].includer != file)
            continue;
        parse_logical_line(f, inc->v[i].offset, &ils, &ile);
        if (ils == ls)
            return 1;
    }
    return 0;
}

/* The #include lines of user files that the preprocessor did not enter. */
static enum CXChildVisitResult directive_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    inclusion_list *inc = data;
    if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile from, included = clang_getIncludedFile(c);
    unsigned off;
    clang_getExpansionLocation(loc, &from, NULL, NULL, &off);
    if (!from || !included || clang_Location_isInSystemHeader(loc))
        return CXChildVisit_Continue;
    parse_result *pr = inc->pr;
    int a = parse_file_index(pr, from), b = parse_file_index(pr, included);
    if (a < 0 || b < 0 || off > pr->files[a].len || entered_at(inc, (unsigned)a, off))
        return CXChildVisit_Continue;
    parse_inclusion i = {(unsigned)a, off, (unsigned)b, 1};
    VEC_PUSH(inc->v, inc->n, inc->cap, i);
    return CXChildVisit_Continue;
}

static int inclusion_cmp(const void *x, const void *y)
{
    const parse_inclusion *a = x, *b = y;
    if (a->includer != b->includer)
        return (a->includer > b->includer) - (a->includer < b->includer);
    return (a->offset > b->offset) - (a->offset < b->offset);
}

unsigned parse_inclusions(parse_result *pr, parse_inclusion **out)
{
    inclusion_list inc = {pr, NULL, 0, 0};
    clang_getInclusions(pr->tu, inclusion_cb, &inc);
    unsigned entered = inc.n;
    clang_visitChildren(clang_getTranslationUnitCursor(pr->tu), directive_cb, &inc);
    if (inc.n > entered) /* a skipped line goes between the entered lines of its file */
        qsort(inc.v, inc.n, sizeof *inc.v, inclusion_cmp);
    *out = inc.v;
    return inc.n;
}

typedef struct definition_visit {
    parse_result *pr;
    int (*want)(void *ud, const char *name);
    void (*fn)(void *ud, const char *name, const src_pos *at);
    void *ud;
} definition_visit;

static enum CXChildVisitResult definition_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    definition_visit *v = data;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    src_pos p;
    if (v->want(v->ud, name) && parse_resolve(v->pr, clang_getCursorLocation(c), &p) == 0)
        v->fn(v->ud, name, &p);
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

void parse_each_macro_definition(parse_result *pr, int (*want)(void *ud, const char *name),
                                 void (*fn)(void *ud, const char *name, const src_pos *at),
                                 void *ud)
{
    definition_visit v = {pr, want, fn, ud};
    clang_visitChildren(clang_getTranslationUnitCursor(pr->tu), definition_cb, &v);
}
