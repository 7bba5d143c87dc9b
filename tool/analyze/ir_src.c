/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_src.c - part of the analyze stage: the source facts of the kernel IR
 * that the profile's instrumentation needs (ir_src.h), read from the
 * cursors the IR keeps.
 */
#include "ir_src.h"

#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "parse.h"
#include "syntax.h"

const ir_kernel *ir_ensure(analysis *an, kernel_info *k)
{
    if (!k->ir && !clang_Cursor_isNull(last_child_of_kind(k->cursor, CXCursor_CompoundStmt)))
        k->ir = ir_build(an, k);
    return k->ir && k->ir->root ? k->ir : NULL;
}

/* The text of c in the input file, not inside a macro expansion. */
static int plain_range(const analysis *an, CXCursor c, src_range *r)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    if (clang_Cursor_isNull(c) || cursor_range(an, c, r) != 0 || r->file != 0 ||
        parse_in_macro(clang_getRangeStart(ext)) || parse_in_macro(clang_getRangeEnd(ext)))
        return -1;
    return 0;
}

/* The function n's statements belong to: the kernel, or the helper its frame inlined. */
static CXCursor frame_func(const analysis *an, const ir_node *n)
{
    const ir_node *p = n->parent, *root = n;
    for (; p; p = p->parent) {
        if (p->kind == IR_CALL && p->id == n->frame && n->frame != 0)
            return p->call.callee;
        root = p;
    }
    for (unsigned i = 0; i < an->nkernels; i++)
        if (an->kernels[i].ir && an->kernels[i].ir->root == root)
            return an->kernels[i].cursor;
    return clang_getNullCursor();
}

static double cost_in(const analysis *an, CXCursor func, CXCursor c)
{
    if (clang_Cursor_isNull(c) || clang_Cursor_isNull(func))
        return 0;
    effects fx;
    effects_of(an, func, c, &fx);
    double cost = fx.cost + fx.math; /* the profile's: math builtins at their time */
    effects_free(&fx);
    return cost;
}

int ir_src_has_cond(const ir_node *n)
{
    return !clang_Cursor_isNull(n->cond.cursor);
}

int ir_src_cond(const analysis *an, const ir_node *n, src_range *r)
{
    return plain_range(an, n->cond.cursor, r);
}

int ir_src_macro_written(const analysis *an, const ir_node *n)
{
    static const struct { enum CXCursorKind kind; const char *word; } words[] = {
        {CXCursor_IfStmt, "if"}, {CXCursor_SwitchStmt, "switch"}, {CXCursor_WhileStmt, "while"},
        {CXCursor_DoStmt, "do"}, {CXCursor_ForStmt, "for"}};
    src_range r;
    if (cursor_range(an, n->cursor, &r) != 0 || r.file != 0)
        return 1;
    const src_file *f = &an->pr->files[r.file];
    enum CXCursorKind kind = clang_getCursorKind(n->cursor);
    for (unsigned i = 0; i < sizeof words / sizeof *words; i++) {
        size_t len = strlen(words[i].word);
        if (words[i].kind != kind)
            continue;
        if (r.begin + len > f->len || strncmp(f->text + r.begin, words[i].word, len))
            return 1;
        char next = r.begin + len < f->len ? f->text[r.begin + len] : ' ';
        return next == '_' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
               (next >= '0' && next <= '9');
    }
    return 0;
}

int ir_src_stmt_kind(const analysis *an, const ir_node *n)
{
    (void)an;
    switch (clang_getCursorKind(n->cursor)) {
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        return IR_SRC_GOTO;
    case CXCursor_LabelStmt:
        return IR_SRC_LABEL;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        return IR_SRC_CASE;
    default:
        return 0;
    }
}

double ir_src_stmt_cost(const analysis *an, const ir_node *n)
{
    return cost_in(an, frame_func(an, n), n->cursor);
}

/* The effects of n's statement in its function (fx initialised either way); 0: none. */
static int stmt_effects(const analysis *an, const ir_node *n, effects *fx)
{
    CXCursor func = frame_func(an, n);
    if (clang_Cursor_isNull(n->cursor) || clang_Cursor_isNull(func)) {
        effects_init(fx);
        return 0;
    }
    effects_of(an, func, n->cursor, fx); /* initialises fx */
    return 1;
}

double ir_src_stmt_math(const analysis *an, const ir_node *n)
{
    effects fx;
    double m = stmt_effects(an, n, &fx) ? fx.math : 0;
    effects_free(&fx);
    return m;
}

double ir_src_stmt_accesses(const analysis *an, const ir_node *n)
{
    effects fx;
    double a = stmt_effects(an, n, &fx) ? effects_accesses(&fx) : 0;
    effects_free(&fx);
    return a;
}

void ir_src_loop(const analysis *an, const ir_node *n, ir_loop_src *out)
{
    memset(out, 0, sizeof *out);
    CXCursor func = frame_func(an, n);
    out->has_init = !clang_Cursor_isNull(n->init);
    out->has_step = !clang_Cursor_isNull(n->step);
    if (out->has_init) {
        out->init_cost = cost_in(an, func, n->init);
        cursor_range(an, n->init, &out->init);
    }
    if (out->has_step) {
        out->step_cost = cost_in(an, func, n->step);
        cursor_range(an, n->step, &out->step);
    }
}

int ir_src_case_labels(const analysis *an, const ir_node *sw, unsigned arm, ir_label_src **out,
                       unsigned *n)
{
    *out = NULL;
    *n = 0;
    if (sw->kind != IR_SWITCH || !sw->nkids || sw->kids[0]->kind != IR_BLOCK)
        return -1;
    cursor_list items = children_of(sw->kids[0]->cursor);
    unsigned entry = 0, cap = 0;
    int found = -1;
    for (unsigned i = 0; i < items.n && found < 0; i++) {
        CXCursor c = items.v[i];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt)
            continue;
        if (entry++ != arm)
            continue;
        found = 0;
        while (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
            cursor_list ch = children_of(c);
            if (k == CXCursor_CaseStmt && ch.n >= 2) {
                ir_label_src l;
                memset(&l, 0, sizeof l);
                l.is_range = ch.n >= 3;
                l.plain = plain_range(an, ch.v[0], &l.lo) == 0 &&
                          (!l.is_range || plain_range(an, ch.v[1], &l.hi) == 0);
                VEC_PUSH(*out, *n, cap, l);
            }
            c = ch.n ? ch.v[ch.n - 1] : clang_getNullCursor();
            free(ch.v);
            k = clang_getCursorKind(c);
        }
    }
    free(items.v);
    return found;
}

/* Is target under a conditionally evaluated operand of the expressions below c? */
static int find_call(const analysis *an, CXCursor c, CXCursor target, int cond, int *out)
{
    if (clang_equalCursors(c, target)) {
        *out = cond;
        return 1;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    cursor_list ch = children_of(c);
    int logical = 0;
    if (k == CXCursor_BinaryOperator && ch.n == 2) {
        char op[8];
        binary_operator(an, c, ch.v[0], ch.v[1], op, sizeof op);
        logical = is_logical_op(op);
    }
    int found = 0;
    for (unsigned i = 0; i < ch.n && !found; i++) {
        int arm = (k == CXCursor_ConditionalOperator && i > 0) || (logical && i == 1);
        found = find_call(an, ch.v[i], target, cond || arm, out);
    }
    free(ch.v);
    return found;
}

int ir_src_call(const analysis *an, const ir_node *call, ir_call_src *out)
{
    memset(out, 0, sizeof *out);
    if (call->kind != IR_CALL || plain_range(an, call->call.expr, &out->call) != 0)
        return -1;
    const src_file *f = &an->pr->files[0];
    cursor_list ch = children_of(call->call.expr);
    src_range name;
    int rc = ch.n >= 1 && plain_range(an, ch.v[0], &name) == 0 ? 0 : -1;
    free(ch.v);
    if (rc != 0)
        return -1;
    out->name_begin = name.begin;
    out->name_end = name.end;
    out->lparen = skip_space(f->text, f->len, name.end);
    out->rparen = out->call.end ? out->call.end - 1 : 0;
    if (out->lparen >= f->len || f->text[out->lparen] != '(' || f->text[out->rparen] != ')')
        return -1;
    int nargs = clang_Cursor_getNumArguments(call->call.expr);
    out->nargs = nargs > 0 ? (unsigned)nargs : 0;
    if (call->parent)
        find_call(an, call->parent->cursor, call->call.expr, 0, &out->conditional);
    return 0;
}

/* The ')' matching the '(' at open. */
static unsigned closing_paren(const src_file *f, unsigned open, unsigned end)
{
    unsigned depth = 0;
    for (unsigned o = open; o < end && o < f->len; o++) {
        depth += f->text[o] == '(';
        if (f->text[o] == ')' && --depth == 0)
            return o;
    }
    return 0;
}

int ir_src_helper(const analysis *an, const ir_node *call, ir_helper_src *out)
{
    memset(out, 0, sizeof *out);
    CXCursor def = call->call.callee;
    if (call->kind != IR_CALL || plain_range(an, def, &out->def) != 0)
        return -1;
    const src_file *f = &an->pr->files[0];
    src_pos at;
    if (parse_resolve(an->pr, clang_getCursorLocation(def), &at) != 0 || at.file != 0)
        return -1;
    size_t len = strlen(call->call.name);
    if (at.offset + len > f->len || strncmp(f->text + at.offset, call->call.name, len))
        return -1;
    out->name_begin = at.offset;
    out->name_end = at.offset + (unsigned)len;
    out->lparen = skip_space(f->text, f->len, out->name_end);
    if (out->lparen >= f->len || f->text[out->lparen] != '(')
        return -1;
    out->rparen = closing_paren(f, out->lparen, out->def.end);
    int np = clang_Cursor_getNumArguments(def);
    out->nparams = np > 0 ? (unsigned)np : 0;
    src_range body;
    if (!out->rparen ||
        plain_range(an, last_child_of_kind(def, CXCursor_CompoundStmt), &body) != 0 ||
        f->text[body.begin] != '{')
        return -1;
    out->body_open = body.begin;
    CXCursor canon = clang_getCanonicalCursor(def);
    src_range pr;
    if (!clang_equalCursors(canon, def) && plain_range(an, canon, &pr) == 0 &&
        pr.end <= out->def.begin) {
        unsigned semi = skip_space(f->text, f->len, pr.end), line = pr.end_line;
        for (unsigned o = pr.end; o < semi; o++)
            line += f->text[o] == '\n';
        if (semi < f->len && f->text[semi] == ';') {
            out->proto_end = semi + 1;
            out->proto_line = line;
        }
    }
    return 0;
}

double ir_src_call_cost(const analysis *an, const ir_node *call)
{
    if (call->kind != IR_CALL || clang_Cursor_isNull(call->call.callee))
        return 0;
    const effects *fx = analyze_function_summary(an, call->call.callee);
    return fx->cost + fx->math;
}

int ir_src_kernel_entry(const analysis *an, const kernel_info *k, unsigned *param_end,
                        unsigned *body_open)
{
    CXCursor last = last_child_of_kind(k->cursor, CXCursor_ParmDecl);
    if (clang_Cursor_isNull(last))
        return 1;
    src_range pr, br;
    if (plain_range(an, last, &pr) != 0 ||
        plain_range(an, last_child_of_kind(k->cursor, CXCursor_CompoundStmt), &br) != 0)
        return -1;
    *param_end = pr.end;
    *body_open = br.begin;
    return 0;
}
