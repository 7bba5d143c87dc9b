/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cond_tree.c - the condition tree of a kernel: its if / else-if / switch
 * statements (and those nested in their branches) become decisions with
 * branches and sequences of items; everything else is a plain statement
 * with its effects.
 */
#include "analyze_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag_at.h"
#include "util.h"
#include "rules.h"

/* ---- condition trees --------------------------------------------------- */

void analyze_report_at(build_ctx *bc, CXCursor at, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(bc->diag, bc->an->pr, DIAG_ERROR, at, rule, fmt, ap);
    va_end(ap);
    bc->errors++;
}

void analyze_note_at(build_ctx *bc, CXCursor at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(bc->diag, bc->an->pr, DIAG_NOTE, at, NULL, fmt, ap);
    va_end(ap);
}

static decision *build_if(build_ctx *bc, CXCursor c);
static decision *build_switch(build_ctx *bc, CXCursor c);

static void push_item(seq *s, unsigned *cap, seq_item it)
{
    VEC_PUSH(s->items, s->n, *cap, it);
}

/*
 * Is the if/switch c written in the source text, keyword first? One that a
 * macro expands to starts with the macro's name instead. (libclang 14's
 * clang_getSpellingLocation maps a token of a macro body to the expansion,
 * so parse_in_macro only sees tokens that came from macro arguments.)
 */
static int written_in_place(analysis *an, CXCursor c)
{
    const char *kw = clang_getCursorKind(c) == CXCursor_IfStmt ? "if" : "switch";
    size_t n = strlen(kw);
    src_range r;
    if (parse_in_macro(clang_getCursorLocation(c)) || cursor_range(an, c, &r) != 0)
        return 0;
    const src_file *f = &an->pr->files[r.file];
    if (r.begin + n > f->len || strncmp(f->text + r.begin, kw, n) != 0)
        return 0;
    return r.begin + n == f->len ||
           !(isalnum((unsigned char)f->text[r.begin + n]) || f->text[r.begin + n] == '_');
}

/* Appends the item for one statement (a compound's child, or a branch body). */
static void add_stmt(build_ctx *bc, CXCursor c, seq *out, unsigned *cap)
{
    seq_item it;
    memset(&it, 0, sizeof it);
    it.cursor = c;
    if (stmt_range(bc->an, c, &it.range) != 0) {
        analyze_report_at(bc, c, rule_name(RULE_MACRO_DECISION),
                          "statement spans several files or macro expansions; cannot cut it out");
        return;
    }
    switch (clang_getCursorKind(c)) {
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
        if (!written_in_place(bc->an, c)) {
            analyze_report_at(bc, c, rule_name(RULE_MACRO_DECISION),
                              "this decision comes from a macro expansion; nplus1gen cannot "
                              "rewrite it");
            analyze_note_at(bc, c, "the leaf kernels are cut from the source text, and a macro "
                                   "body is one "
                           "piece of text: write the if/switch in the kernel, or move it into a "
                           "function");
            bc->macro_decisions++;
            return;
        }
        it.kind = ITEM_DECISION;
        it.decision = clang_getCursorKind(c) == CXCursor_IfStmt ? build_if(bc, c)
                                                                 : build_switch(bc, c);
        if (!it.decision)
            return;
        it.fx.hidden_exit = clang_getNullCursor();
        break;
    case CXCursor_ReturnStmt:
        it.kind = ITEM_RETURN;
        effects_of(bc->an, bc->k->cursor, c, &it.fx);
        it.fx.hidden_exit = clang_getNullCursor();
        break;
    case CXCursor_BreakStmt:
        it.kind = ITEM_BREAK;
        effects_of(bc->an, bc->k->cursor, c, &it.fx);
        it.fx.hidden_exit = clang_getNullCursor();
        break;
    case CXCursor_NullStmt:
        return;
    default:
        it.kind = ITEM_STMT;
        effects_of(bc->an, bc->k->cursor, c, &it.fx);
        if (bc->in_switch && !clang_Cursor_isNull(it.fx.hidden_exit) &&
            clang_getCursorKind(it.fx.hidden_exit) == CXCursor_BreakStmt) {
            analyze_report_at(bc, it.fx.hidden_exit, rule_name(RULE_HIDDEN_RETURN),
                              "this break leaves the switch from inside a nested statement");
            analyze_note_at(bc, c, "the condition tree follows breaks written at the level of the "
                           "case (or directly in its braces); write the break there, or use an "
                           "if/else inside the case");
        }
        break;
    }
    push_item(out, cap, it);
}

/* The items of a statement used as a branch body, or of a compound. */
void analyze_build_seq_from(build_ctx *bc, CXCursor stmt, seq *out, unsigned *cap)
{
    if (clang_getCursorKind(stmt) != CXCursor_CompoundStmt) {
        add_stmt(bc, stmt, out, cap);
        return;
    }
    cursor_list ch = children_of(stmt);
    for (unsigned i = 0; i < ch.n; i++)
        add_stmt(bc, ch.v[i], out, cap);
    free(ch.v);
}

/* The text inside the parentheses of if (...) / switch (...). */
static int paren_range(build_ctx *bc, CXCursor stmt, CXCursor cond, src_range *r)
{
    src_range s, c;
    if (cursor_range(bc->an, stmt, &s) != 0 || cursor_range(bc->an, cond, &c) != 0)
        return -1;
    const src_file *f = &bc->an->pr->files[s.file];
    unsigned open = s.begin;
    while (open < c.begin && f->text[open] != '(')
        open++;
    unsigned close = skip_inactive(bc->an, s.file, c.end);
    if (open >= c.begin || close >= f->len || f->text[close] != ')')
        return -1;
    r->file = s.file;
    r->begin = open + 1;
    r->end = close;
    r->line = c.line;
    r->end_line = c.end_line;
    return 0;
}

static void note_parentheses(build_ctx *bc, CXCursor stmt)
{
    analyze_note_at(bc, stmt, "the classifier copies the condition from between the parentheses "
                              "in the "
                      "source text: write them in the kernel, as in 'if (MACRO)'");
}

static decision *new_decision(decision_kind kind, CXCursor c)
{
    decision *d = xcalloc(1, sizeof *d);
    d->kind = kind;
    d->cursor = c;
    d->cond_fx.hidden_exit = clang_getNullCursor();
    return d;
}

static branch *add_branch(decision *d, unsigned *cap, branch_kind kind)
{
    branch b;
    memset(&b, 0, sizeof b);
    b.kind = kind;
    b.cond_cursor = clang_getNullCursor();
    VEC_PUSH(d->branches, d->nbranches, *cap, b);
    return &d->branches[d->nbranches - 1];
}

static decision *build_if(build_ctx *bc, CXCursor c)
{
    decision *d = new_decision(DEC_IF, c);
    stmt_range(bc->an, c, &d->range);
    unsigned cap = 0;
    CXCursor cur = c;
    for (;;) {
        cursor_list ch = children_of(cur);
        if (ch.n < 2) {
            free(ch.v);
            analyze_report_at(bc, cur, rule_name(RULE_UNSUPPORTED),
                              "cannot read this if statement");
            return d;
        }
        branch *b = add_branch(d, &cap, BR_IF);
        b->cond_cursor = ch.v[0];
        if (paren_range(bc, cur, ch.v[0], &b->cond) != 0) {
            analyze_report_at(bc, cur, rule_name(RULE_MACRO_DECISION),
                              "cannot find the condition of this if in the source text");
            note_parentheses(bc, cur);
        }
        effects fx;
        effects_of(bc->an, bc->k->cursor, ch.v[0], &fx);
        merge_effects(&d->cond_fx, &fx);
        effects_free(&fx);
        stmt_range(bc->an, ch.v[1], &b->body);
        unsigned scap = 0;
        analyze_build_seq_from(bc, ch.v[1], &b->seq, &scap);
        if (ch.n < 3) {
            free(ch.v);
            add_branch(d, &cap, BR_IMPLICIT_ELSE);
            return d;
        }
        CXCursor els = ch.v[2];
        free(ch.v);
        if (clang_getCursorKind(els) == CXCursor_IfStmt && written_in_place(bc->an, els)) {
            cur = els;
            continue;
        }
        b = add_branch(d, &cap, BR_ELSE);
        stmt_range(bc->an, els, &b->body);
        scap = 0;
        analyze_build_seq_from(bc, els, &b->seq, &scap);
        return d;
    }
}

typedef struct switch_build {
    build_ctx *bc;
    decision *d;
    unsigned bcap, icap;
    int open_group;     /* the last branch has no statements yet */
} switch_build;

static branch *entry_branch(switch_build *sb, branch_kind kind)
{
    decision *d = sb->d;
    if (sb->open_group && d->nbranches) {
        branch *b = &d->branches[d->nbranches - 1];
        if (kind == BR_DEFAULT)
            b->kind = BR_DEFAULT;
        return b;
    }
    branch *b = add_branch(d, &sb->bcap, kind);
    b->seq.items = (seq_item *)(uintptr_t)d->body.n; /* start index, fixed up later */
    sb->open_group = 1;
    return b;
}

/* The integer value of a case label's expression; 0 on success. */
static int case_value(CXCursor e, long long *v)
{
    return int_constant(e, v) ? 0 : -1;
}

#define MAX_CASE_RANGE 256

/* Adds the values of `case A:` or of the GNU range `case A ... B:` to b. */
static void add_case_values(switch_build *sb, CXCursor c, const cursor_list *ch, branch *b)
{
    long long lo, hi;
    int range = ch->n >= 3; /* LHS, RHS, body */
    if (case_value(ch->v[0], &lo) != 0 || case_value(ch->v[range ? 1 : 0], &hi) != 0) {
        analyze_report_at(sb->bc, c, rule_name(RULE_UNSUPPORTED),
                          "cannot evaluate this case value");
        return;
    }
    if (hi < lo)
        return; /* an empty GNU range matches nothing */
    if ((unsigned long long)hi - (unsigned long long)lo >= MAX_CASE_RANGE) {
        analyze_report_at(sb->bc, c, rule_name(RULE_UNSUPPORTED),
                          "this case range holds %llu values; at most %d are supported",
                          (unsigned long long)hi - (unsigned long long)lo + 1, MAX_CASE_RANGE);
        analyze_note_at(sb->bc, c, "the classifier lists every value of a range as a case of its "
                                   "own; "
                           "write a wide range as an if with two comparisons");
        return;
    }
    unsigned n = (unsigned)(hi - lo) + 1;
    b->values = xrealloc(b->values, (b->nvalues + n) * sizeof *b->values);
    for (unsigned i = 0; i < n; i++)
        b->values[b->nvalues++] = lo + (long long)i;
}

/*
 * Does a macro expansion write part of text[b, e) (`case SEL:`)? Its value
 * may then change with -D. (libclang 14 maps a macro body's tokens to the
 * expansion, so the expression's cursors do not tell; the expansion's
 * cursor at the name does.)
 */
static int expands_macro(analysis *an, const src_file *f, unsigned b, unsigned e)
{
    for (unsigned i = b; i < e;) {
        char ch = f->text[i];
        if (!(isalpha((unsigned char)ch) || ch == '_')) {
            for (i++; isalnum((unsigned char)ch) && i < e && isalnum((unsigned char)f->text[i]);)
                i++; /* the rest of a number (0x10) */
            continue;
        }
        CXSourceLocation loc = clang_getLocationForOffset(an->pr->tu, f->cxfile, i);
        if (clang_getCursorKind(clang_getCursor(an->pr->tu, loc)) == CXCursor_MacroExpansion)
            return 1;
        while (i < e && (isalnum((unsigned char)f->text[i]) || f->text[i] == '_'))
            i++;
    }
    return 0;
}

/* The end of a case label's expression: the ':' at depth 0 that no '?' claims. */
static unsigned label_end(const src_file *f, unsigned pos, unsigned end)
{
    int depth = 0, ternary = 0;
    for (; pos < end; pos++) {
        char ch = f->text[pos];
        depth += (ch == '(' || ch == '[') - (ch == ')' || ch == ']');
        ternary += depth == 0 && ch == '?';
        if (depth == 0 && ch == ':' && ternary-- == 0)
            return pos;
    }
    return end;
}

/*
 * Keeps the text of `case LABEL:` (LABEL as written) on b. A label whose
 * value a macro writes is emitted as written, so that the classifier and
 * the leaves follow the macro's run-time value (docs/driver.md, build
 * options). A whole label that a macro writes (`CASE(1)`) keeps its value as
 * folded, as before.
 */
static void add_case_label(switch_build *sb, CXCursor c, const cursor_list *ch, branch *b)
{
    (void)ch;
    src_range r;
    const src_file *f = NULL;
    if (cursor_range(sb->bc->an, c, &r) == 0)
        f = &sb->bc->an->pr->files[r.file];
    if (!f || !f->cxfile || r.begin + 4 > f->len || strncmp(f->text + r.begin, "case", 4) != 0)
    {
        b->folded_label = 1; /* a macro writes the whole label (CASE(1)): values as folded */
        b->macro_labels = 0;
        return;
    }
    unsigned e = label_end(f, r.begin + 4, r.end);
    int macro = expands_macro(sb->bc->an, f, r.begin + 4, e);
    char *text = xcalloc(e - r.begin - 4 + 1, 1);
    memcpy(text, f->text + r.begin + 4, e - r.begin - 4);
    b->labels = xrealloc(b->labels, (b->nlabels + 1) * sizeof *b->labels);
    b->labels[b->nlabels++] = text;
    b->macro_labels |= macro && !b->folded_label;
    sb->d->macro_labels |= b->macro_labels;
}

static void flatten_case(switch_build *sb, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
        cursor_list ch = children_of(c);
        branch *b = entry_branch(sb, k == CXCursor_CaseStmt ? BR_CASE : BR_DEFAULT);
        if (k == CXCursor_CaseStmt && ch.n >= 2) {
            add_case_values(sb, c, &ch, b);
            add_case_label(sb, c, &ch, b);
        }
        if (ch.n > 0)
            flatten_case(sb, ch.v[ch.n - 1]);
        free(ch.v);
        return;
    }
    if (k == CXCursor_CompoundStmt) {
        /* a braced case body: its statements are the switch's, so that a break
         * in it is seen to leave the switch (the leaves keep the braces) */
        cursor_list ch = children_of(c);
        for (unsigned i = 0; i < ch.n; i++)
            flatten_case(sb, ch.v[i]);
        free(ch.v);
        return;
    }
    unsigned before = sb->d->body.n;
    add_stmt(sb->bc, c, &sb->d->body, &sb->icap);
    if (sb->d->body.n > before)
        sb->open_group = 0;
}

/* The smallest value >= 0 no case uses: the switch value of a default leaf. */
static void pick_default_value(decision *d)
{
    for (long long v = 0;; v++) {
        int used = 0;
        for (unsigned b = 0; b < d->nbranches && !used; b++)
            for (unsigned i = 0; i < d->branches[b].nvalues; i++)
                used |= d->branches[b].values[i] == v;
        if (!used) {
            d->default_value = v;
            d->has_default_value = 1;
            return;
        }
    }
}

static decision *build_switch(build_ctx *bc, CXCursor c)
{
    decision *d = new_decision(DEC_SWITCH, c);
    stmt_range(bc->an, c, &d->range);
    cursor_list ch = children_of(c);
    if (ch.n < 2) {
        free(ch.v);
        analyze_report_at(bc, c, rule_name(RULE_UNSUPPORTED), "cannot read this switch statement");
        return d;
    }
    d->cond_cursor = ch.v[0];
    if (paren_range(bc, c, ch.v[0], &d->cond) != 0) {
        analyze_report_at(bc, c, rule_name(RULE_MACRO_DECISION),
                          "cannot find the controlling expression of this switch in the "
                          "source text");
        note_parentheses(bc, c);
    }
    effects_of(bc->an, bc->k->cursor, ch.v[0], &d->cond_fx);
    switch_build sb = {bc, d, 0, 0, 0};
    CXCursor body = ch.v[ch.n - 1];
    free(ch.v);
    cursor_list items = children_of(body);
    bc->in_switch++;
    for (unsigned i = 0; i < items.n; i++)
        flatten_case(&sb, items.v[i]);
    bc->in_switch--;
    free(items.v);
    int has_default = 0;
    for (unsigned b = 0; b < d->nbranches; b++) {
        uintptr_t start = (uintptr_t)d->branches[b].seq.items;
        d->branches[b].seq.items = d->body.items + start;
        d->branches[b].seq.n = d->body.n - (unsigned)start;
        has_default |= d->branches[b].kind == BR_DEFAULT;
    }
    if (!has_default)
        add_branch(d, &sb.bcap, BR_IMPLICIT_DEFAULT);
    pick_default_value(d);
    return d;
}

static void decision_free(decision *d)
{
    if (!d)
        return;
    for (unsigned b = 0; b < d->nbranches; b++) {
        if (d->kind == DEC_IF)
            analyze_seq_free(&d->branches[b].seq);
        free(d->branches[b].values);
        for (unsigned i = 0; i < d->branches[b].nlabels; i++)
            free(d->branches[b].labels[i]);
        free(d->branches[b].labels);
    }
    free(d->branches);
    if (d->kind == DEC_SWITCH)
        analyze_seq_free(&d->body);
    effects_free(&d->cond_fx);
    cond_inputs_free(d->inputs, d->ninputs);
    free(d->inputs_upto);
    free(d);
}

void analyze_seq_free(seq *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        effects_free(&s->items[i].fx);
        decision_free(s->items[i].decision);
    }
    free(s->items);
    s->items = NULL;
    s->n = 0;
}
