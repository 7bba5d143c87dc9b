/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analyze.c - the analyze stage's entry: finds the kernels, builds each one's
 * condition tree (cond_tree.c) and its top-level loops' trees (loop_tree.c),
 * decides the kernel-wide rules (legality.c) from the effects of its
 * statements (effects.c), classifies the decisions (divergence.c), and frees
 * it all.
 */
#include "analyze_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor_map.h"
#include "divergence.h"
#include "ir.h"
#include "macro_restore.h"
#include "tree.h"
#include "util.h"
#include "rules.h"
#include "progress.h"

/* ---- kernels ----------------------------------------------------------- */

static int is_kernel(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
        return 0;
    return clang_getFunctionTypeCallingConv(clang_getCursorType(c)) == CXCallingConv_Unexposed;
}

static int seq_has_decision(const seq *s)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->items[i].kind == ITEM_DECISION)
            return 1;
    return 0;
}

/*
 * reqd_work_group_size(X, Y, Z) of the kernel, as clang evaluated it: the
 * declaration printed tersely carries the attribute with its values, also
 * when they (or the whole attribute) come from macros.
 */
static void read_reqd_wg(kernel_info *k)
{
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(k->cursor);
    clang_PrintingPolicy_setProperty(pol, CXPrintingPolicy_TerseOutput, 1);
    CXString s = clang_getCursorPrettyPrinted(k->cursor, pol);
    const char *p = strstr(clang_getCString(s), "reqd_work_group_size(");
    unsigned v[3] = {0, 0, 0};
    if (p && sscanf(p, "reqd_work_group_size(%u , %u , %u )", &v[0], &v[1], &v[2]) == 3)
        memcpy(k->reqd_wg, v, sizeof v);
    clang_disposeString(s);
    clang_PrintingPolicy_dispose(pol);
}

/*
 * A barrier that is the kernel's last statement orders nothing: no statement of any item
 * follows it, and the kernel's end makes every write visible anyway (__local memory, which
 * it could order for a later statement, is refused). The effects scan does not count it
 * (effects.c); the generated kernels leave its text out (parse_drop_text), where a leaf's
 * tail guard or a tile's rounds would make some items of a group skip it. A note says so.
 */
static void leave_out_trailing_barrier(build_ctx *bc)
{
    CXCursor call = kernel_trailing_barrier(bc->an, bc->k->cursor);
    src_range r;
    if (clang_Cursor_isNull(call) || cursor_range(bc->an, call, &r) != 0)
        return;
    char *name = cursor_spelling(call);
    analyze_note_at(bc, call, "the %s that ends kernel '%s' orders nothing (no statement follows "
                              "it) and is left out of the generated kernels",
                    name, bc->k->name);
    free(name);
    parse_drop_text(bc->an->pr, r.file, r.begin, r.end);
}

static void analyze_kernel(analysis *an, kernel_info *k, diag_sink *diag)
{
    build_ctx bc = {an, k, diag, 0, 0, 0};
    CXCursor body = last_child_of_kind(k->cursor, CXCursor_CompoundStmt);
    if (clang_Cursor_isNull(body) || cursor_range(an, body, &k->body) != 0 ||
        cursor_range(an, k->cursor, &k->range) != 0) {
        analyze_report_at(&bc, k->cursor, rule_name(RULE_UNSUPPORTED),
                          "cannot find the body of kernel '%s'", k->name);
        k->legal = 0;
        return;
    }
    read_reqd_wg(k);
    analyze_check_param_types(&bc);
    analyze_check_forbidden(&bc);
    unsigned cap = 0;
    analyze_build_seq_from(&bc, body, &k->top, &cap);
    k->has_decision = seq_has_decision(&k->top);
    if (!k->has_decision && !bc.macro_decisions &&
        !(an->loops && (k->loop_only = analyze_decision_in_loop(an, k->cursor)) != 0))
        analyze_report_no_decision(&bc);
    bc.errors += analyze_params(an, k, diag);
    k->legal = bc.errors == 0;
    if (k->legal)
        leave_out_trailing_barrier(&bc);
}

static enum CXChildVisitResult find_kernels_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    analysis *an = data;
    if (!is_kernel(c))
        return CXChildVisit_Continue;
    kernel_info k;
    memset(&k, 0, sizeof k);
    k.name = cursor_spelling(c);
    k.cursor = c;
    VEC_PUSH(an->kernels, an->nkernels, an->capkernels, k);
    return CXChildVisit_Continue;
}

/* ---- helpers the kernels reach ---------------------------------------- */

typedef struct reach {
    cursor_map seen;    /* the functions called from the kernels, transitively */
    cursor_list todo;   /* of those, the ones whose bodies are not walked yet */
} reach;

static enum CXChildVisitResult reach_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    reach *r = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (clang_getCursorKind(def) == CXCursor_FunctionDecl && cursor_map_get(&r->seen, def, 0) < 0) {
        cursor_map_put(&r->seen, def, 0, 0);
        VEC_PUSH(r->todo.v, r->todo.n, r->todo.cap, def);
    }
    return CXChildVisit_Recurse;
}

/* The helpers the selected kernels call, directly or through other helpers. */
static void reach_helpers(const analysis *an, reach *r)
{
    for (unsigned k = 0; k < an->nkernels; k++)
        clang_visitChildren(an->kernels[k].cursor, reach_cb, r);
    while (r->todo.n > 0) /* a work list, not recursion: call chains may be long */
        clang_visitChildren(r->todo.v[--r->todo.n], reach_cb, r);
}

typedef struct helper_scan {
    analysis *an;
    const reach *reached;
} helper_scan;

/* Helpers the kernels reach that call work-item builtins get a copy taking the original ids. */
static enum CXChildVisitResult find_helpers_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    helper_scan *hs = data;
    analysis *an = hs->an;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        is_kernel(c) || cursor_map_get(&hs->reached->seen, c, 0) < 0 ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    const effects *fx = analyze_function_summary(an, c);
    if (!(fx->bits & EFF_WORKITEM))
        return CXChildVisit_Continue;
    wi_helper h;
    memset(&h, 0, sizeof h);
    h.name = cursor_spelling(c);
    h.cursor = c;
    src_pos name;
    if (cursor_range(an, c, &h.range) != 0 ||
        parse_resolve(an->pr, clang_getCursorLocation(c), &name) != 0) {
        free(h.name);
        return CXChildVisit_Continue;
    }
    h.name_begin = name.offset;
    h.name_end = name.offset + (unsigned)strlen(h.name);
    const src_file *f = &an->pr->files[h.range.file];
    unsigned p = skip_space(f->text, f->len, h.name_end);
    h.lparen = p;
    h.nparams = (unsigned)clang_Cursor_getNumArguments(c);
    if (p >= f->len || f->text[p] != '(' || parse_in_macro(clang_getCursorLocation(c))) {
        free(h.name);
        return CXChildVisit_Continue;
    }
    VEC_PUSH(an->helpers, an->nhelpers, an->caphelpers, h);
    return CXChildVisit_Continue;
}

/* In file order (the order of the copies in the output), among the helpers the kernels reach. */
static void find_helpers(analysis *an, CXCursor root)
{
    reach r;
    memset(&r, 0, sizeof r);
    reach_helpers(an, &r);
    helper_scan hs = {an, &r};
    clang_visitChildren(root, find_helpers_cb, &hs);
    cursor_map_clear(&r.seen);
    free(r.todo.v);
}

/* A quick look: does the body have a top-level if or switch? */
static int body_has_decision(CXCursor kernel)
{
    cursor_list ch = children_of(kernel);
    int found = 0;
    for (unsigned i = 0; i < ch.n && !found; i++) {
        if (clang_getCursorKind(ch.v[i]) != CXCursor_CompoundStmt)
            continue;
        cursor_list body = children_of(ch.v[i]);
        for (unsigned j = 0; j < body.n && !found; j++) {
            enum CXCursorKind k = clang_getCursorKind(body.v[j]);
            found = k == CXCursor_IfStmt || k == CXCursor_SwitchStmt;
        }
        free(body.v);
    }
    free(ch.v);
    return found;
}

static int wanted(const char *name, const char **want, unsigned nwant)
{
    if (nwant == 0)
        return 1;
    for (unsigned i = 0; i < nwant; i++)
        if (!strcmp(want[i], name))
            return 1;
    return 0;
}

/* After an unknown -k name: the kernels there are. */
static void note_kernel_names(const analysis *an, diag_sink *diag)
{
    if (an->nkernels == 0)
        return;
    strbuf sb;
    sb_init(&sb);
    for (unsigned k = 0; k < an->nkernels; k++)
        sb_printf(&sb, "%s'%s'", k ? ", " : "", an->kernels[k].name);
    diag_report(diag, DIAG_NOTE, NULL, NULL, "%s defines the kernels %s", an->pr->files[0].path,
                sb.data);
    sb_free(&sb);
}

/* ---- the tree as the later stages read it ------------------------------- */

static void set_exit(effects *fx, CXCursor at)
{
    if (clang_Cursor_isNull(fx->hidden_exit))
        fx->hidden_exit = at;
}

typedef struct gather {
    effects *into;
    int in_switch;         /* a break leaves a switch inside the kept statement */
} gather;

/* Effects of an item; a break leaves the kept statement only outside a switch inside it. */
static tree_step gather_item(void *ud, const seq_item *it)
{
    gather *g = ud;
    switch (it->kind) {
    case ITEM_STMT:
        merge_effects(g->into, &it->fx);
        if (!clang_Cursor_isNull(it->fx.hidden_exit) &&
            (!g->in_switch || clang_getCursorKind(it->fx.hidden_exit) == CXCursor_ReturnStmt))
            set_exit(g->into, it->fx.hidden_exit);
        break;
    case ITEM_RETURN:
        merge_effects(g->into, &it->fx);
        set_exit(g->into, it->cursor);
        break;
    case ITEM_BREAK:
        if (!g->in_switch)
            set_exit(g->into, it->cursor);
        break;
    case ITEM_DECISION:
        if (!it->decision)
            break;
        merge_effects(g->into, &it->decision->cond_fx);
        if (it->decision->kind != DEC_SWITCH || g->in_switch)
            return TREE_RECURSE;
        gather inner = {g->into, 1};
        for_each_item_in(it->decision, gather_item, &inner);
        break;
    }
    return TREE_CONTINUE;
}

/* The effects, reads, writes, cost and early exit of a decision's whole statement. */
static void statement_effects(seq_item *it)
{
    effects_free(&it->fx);
    effects_init(&it->fx);
    gather g = {&it->fx, it->decision->kind == DEC_SWITCH};
    merge_effects(&it->fx, &it->decision->cond_fx);
    for_each_item_in(it->decision, gather_item, &g);
}

/* Numbers the items and decisions of k's tree; a decision's item gets its statement's effects. */
static tree_step number_item(void *ud, seq_item *it)
{
    kernel_info *k = ud;
    it->id = k->nitems++;
    if (it->kind == ITEM_DECISION && it->decision) {
        it->decision->id = k->ndecisions++;
        statement_effects(it);
    }
    return TREE_RECURSE;
}

int analyze_tu(analysis *an, parse_result *pr, const char **want, unsigned nwant,
               diag_sink *diag)
{
    return analyze_tu_loops(an, pr, want, nwant, 0, diag);
}

int analyze_tu_loops(analysis *an, parse_result *pr, const char **want, unsigned nwant,
                     int loops, diag_sink *diag)
{
    return analyze_tu_skip(an, pr, want, nwant, NULL, 0, loops, diag);
}

int analyze_tu_skip(analysis *an, parse_result *pr, const char **want, unsigned nwant,
                    const char **skip, unsigned nskip, int loops, diag_sink *diag)
{
    memset(an, 0, sizeof *an);
    an->pr = pr;
    an->loops = loops;
    analyze_summaries_init(an); /* the helpers' memo, filled as calls reach them */
    syntax_memo_init(an);       /* the statements' ranges, filled as they are asked for */
    CXCursor root = clang_getTranslationUnitCursor(pr->tu);
    clang_visitChildren(root, find_kernels_cb, an);
    int bad = 0;
    for (unsigned i = 0; i < nwant; i++) {
        int found = 0;
        for (unsigned k = 0; k < an->nkernels; k++)
            found |= !strcmp(an->kernels[k].name, want[i]);
        if (!found) {
            diag_report(diag, DIAG_ERROR, NULL, rule_name(RULE_UNKNOWN_KERNEL),
                        "no kernel named '%s' in %s", want[i], pr->files[0].path);
            note_kernel_names(an, diag);
            bad = 1;
        }
    }
    if (an->nkernels == 0) {
        diag_report(diag, DIAG_ERROR, NULL, rule_name(RULE_NO_KERNEL),
                    "%s defines no __kernel function", pr->files[0].path);
        return 1;
    }
    /* keep the selected kernels; by default, those with a decision */
    unsigned kept = 0, nleft_out = 0;
    for (unsigned k = 0; k < an->nkernels; k++) {
        kernel_info *ki = &an->kernels[k];
        int keep = nwant ? wanted(ki->name, want, nwant) : body_has_decision(ki->cursor);
        if (!keep && !nwant && loops) {
            keep = analyze_decision_in_loop(an, ki->cursor) != 0;
            ki->loop_kept = keep;
        }
        if (keep && nskip && wanted(ki->name, skip, nskip)) {
            free(ki->name); /* --skip-refused: the caller names it in a note */
            nleft_out++;
        } else if (keep) {
            an->kernels[kept++] = *ki;
        } else {
            if (!nwant) {
                unsigned line = analyze_decision_in_loop(an, ki->cursor), cap = an->capskipped;
                VEC_PUSH(an->skipped, an->nskipped, an->capskipped, ki->name);
                if (cap != an->capskipped || !an->skipped_loop_line)
                    an->skipped_loop_line = xrealloc(an->skipped_loop_line,
                                                     an->capskipped * sizeof *an->skipped_loop_line);
                an->skipped_loop_line[an->nskipped - 1] = line;
            }
            else
                free(ki->name);
        }
    }
    an->nkernels = kept;
    if (kept == 0 && nleft_out && !bad)
        return 0;
    if (kept == 0 && !bad) {
        diag_report(diag, DIAG_ERROR, NULL, rule_name(RULE_NO_DECISION),
                    "no kernel in %s has a decision (an if or switch in its body) to split",
                    pr->files[0].path);
        for (unsigned i = 0; i < an->nskipped; i++)
            if (an->skipped_loop_line[i])
                diag_report(diag, DIAG_NOTE, NULL, NULL,
                            "kernel '%s' has decisions only inside loops (the first at line %u): "
                            "nplus1gen splits the decisions at the kernel's top level and those "
                            "nested in them, not those inside loops",
                            an->skipped[i], an->skipped_loop_line[i]);
        return 1;
    }
    for (unsigned k = 0; k < an->nkernels; k++) {
        kernel_info *ki = &an->kernels[k];
        if (ki->loop_kept) { /* kept only for its loop: its diagnostics kept for the plan
                              * to print or name (plan.c) */
            ki->blockers = xcalloc(1, sizeof *ki->blockers);
            diag_init(ki->blockers);
            ki->blockers->quiet = 1;
            ki->blockers->record = 1;
        }
        progress_stage("analysing kernel '%s' (%u of %u)", ki->name, k + 1, an->nkernels);
        analyze_kernel(an, ki, ki->loop_kept ? ki->blockers : diag);
        bad |= !ki->legal && !ki->loop_kept;
    }
    find_helpers(an, root);
    analyze_macro_restores(an); /* the macros the text changes after a kernel (macro_restore.h) */
    for (unsigned k = 0; k < an->nkernels; k++) {
        kernel_info *ki = &an->kernels[k];
        for_each_item_fill(&ki->top, number_item, ki);
        if (ki->legal && ki->has_decision) { /* the classes depend on no plan option */
            progress_stage("classifying the decisions of kernel '%s'", ki->name);
            divergence_classify(an, ki);
        }
    }
    for (unsigned k = 0; k < an->nkernels; k++) /* those the plan may regroup (loop.h) */
        if (an->kernels[k].legal && (an->kernels[k].has_decision || an->kernels[k].loop_only))
            analyze_loop_trees(an, &an->kernels[k]);
    for (unsigned k = 0; k < an->nkernels; k++) /* the IR (ir.h) of each legal kernel */
        if (an->kernels[k].legal) {
            progress_stage("building the IR of kernel '%s'", an->kernels[k].name);
            an->kernels[k].ir = ir_build(an, &an->kernels[k]);
        }
    return bad;
}

char *kernel_param_list(const kernel_info *k, int names)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < k->nparams; i++) {
        if (i)
            sb_puts(&sb, ", ");
        sb_puts(&sb, names ? k->params[i].name : k->params[i].decl_text);
    }
    return sb_steal(&sb);
}

void analyze_free(analysis *an)
{
    for (unsigned k = 0; k < an->nkernels; k++) {
        kernel_info *ki = &an->kernels[k];
        free(ki->name);
        analyze_params_free(ki);
        free(ki->attr_text);
        analyze_seq_free(&ki->top);
        analyze_loop_trees_free(ki);
        if (ki->blockers)
            diag_free(ki->blockers);
        free(ki->blockers);
        ir_free(ki->ir);
        analyze_macro_restores_free(&ki->restores);
    }
    free(an->kernels);
    for (unsigned h = 0; h < an->nhelpers; h++) {
        free(an->helpers[h].name);
        analyze_macro_restores_free(&an->helpers[h].restores);
    }
    free(an->helpers);
    for (unsigned i = 0; i < an->nskipped; i++)
        free(an->skipped[i]);
    free(an->skipped);
    free(an->skipped_loop_line);
    analyze_summaries_free(an);
    syntax_memo_free(an);
    memset(an, 0, sizeof *an);
}
