/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_tree.c - a kernel's structured control flow for the profile
 * (profile.h): its decisions and loops, the cost model's cost of every
 * region (effects.c), and the edits that make the instrumented copy record
 * each item's path (applied by profile_emit.c). Part of the analyze stage:
 * it reads the cursors and the analysis, and reports nothing itself.
 */
#include "syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "divergence.h"
#include "profile_build.h"
#include "util.h"

typedef struct tctx {
    const analysis *an;
    profile_kernel *pk;
    int parent;               /* the enclosing construct */
    const decision **decs;    /* the analysis's decisions, to read their classes */
    unsigned ndecs, capdecs;
} tctx;

static int fail(tctx *x, CXCursor at, const char *why)
{
    if (!x->pk->err[0]) {
        src_range r = {0};
        cursor_range(x->an, at, &r);
        snprintf(x->pk->err, sizeof x->pk->err, "line %u: %s", r.line, why);
    }
    return -1;
}

static void add_edit(profile_kernel *pk, unsigned at, const char *text)
{
    pedit e = {at, pk->nedits, xstrdup(text)};
    VEC_PUSH(pk->edits, pk->nedits, pk->capedits, e);
}

static double cost_of(tctx *x, CXCursor c)
{
    effects fx;
    effects_of(x->an, x->pk->k->cursor, c, &fx);
    double cost = fx.cost;
    effects_free(&fx);
    return cost;
}

/* The text range of c in the input file, not inside a macro expansion. */
static int plain_range(tctx *x, CXCursor c, src_range *r)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    if (cursor_range(x->an, c, r) != 0 || r->file != 0 ||
        parse_in_macro(clang_getRangeStart(ext)) || parse_in_macro(clang_getRangeEnd(ext)))
        return fail(x, c, "a condition written by a macro cannot be instrumented");
    return 0;
}

static pnode *push_node(pseq *s, pnode_kind kind)
{
    pnode n;
    memset(&n, 0, sizeof n);
    n.kind = kind;
    VEC_PUSH(s->v, s->n, s->cap, n);
    return &s->v[s->n - 1];
}

static const decision *find_decision(tctx *x, unsigned offset)
{
    for (unsigned i = 0; i < x->ndecs; i++)
        if (x->decs[i]->range.file == 0 && x->decs[i]->range.begin == offset)
            return x->decs[i];
    return NULL;
}

static unsigned add_construct(tctx *x, CXCursor c, pnode_kind kind, const char *what,
                              unsigned narms)
{
    ptree *t = &x->pk->tree;
    pconstruct pc;
    memset(&pc, 0, sizeof pc);
    src_range r = {0};
    cursor_range(x->an, c, &r);
    pc.kind = kind;
    pc.what = what;
    pc.line = r.line;
    pc.offset = r.begin;
    pc.narms = narms;
    pc.parent = x->parent;
    pc.divergence = -1;
    const decision *d = kind == PN_LOOP ? NULL : find_decision(x, r.begin);
    if (d) {
        pc.divergence = d->divergence;
        pc.split = x->pk->planned && !decision_kept(x->pk->planned, d) &&
                   (x->parent < 0 || t->c[x->parent].split);
    }
    VEC_PUSH(t->c, t->nc, t->capc, pc);
    return t->nc - 1;
}

static int build_stmt(tctx *x, CXCursor c, pseq *out);

static int build_arm(tctx *x, CXCursor c, pseq *arm, unsigned construct)
{
    int saved = x->parent;
    x->parent = (int)construct;
    int rc = clang_Cursor_isNull(c) ? 0 : build_stmt(x, c, arm);
    x->parent = saved;
    return rc;
}

/* if (C): C becomes __nplus1_rec(&__np1, !(C) ? 2 : 1) == 1 (OpenCL C refuses a float
 * as the condition of ?: though if takes one: `if (body.invMass)`; ! takes any scalar) */
static int build_if(tctx *x, CXCursor c, pseq *out)
{
    cursor_list ch = children_of(c);
    src_range cr;
    int rc = ch.n < 2 || plain_range(x, ch.v[0], &cr) != 0 ? -1 : 0;
    if (rc == 0) {
        add_edit(x->pk, cr.begin, "__nplus1_rec(&__np1, !(");
        add_edit(x->pk, cr.end, ") ? 2 : 1) == 1");
        unsigned id = add_construct(x, c, PN_IF, "if", 2);
        pnode *nd = push_node(out, PN_IF);
        nd->cost = cost_of(x, ch.v[0]);
        nd->construct = id;
        nd->narms = 2;
        nd->arms = xcalloc(2, sizeof *nd->arms);
        pseq *arms = nd->arms; /* out may move while the arms are built */
        rc = build_arm(x, ch.v[1], &arms[0], id);
        if (rc == 0 && ch.n > 2)
            rc = build_arm(x, ch.v[2], &arms[1], id);
    }
    free(ch.v);
    return rc;
}

/* ---- switch: the entries (runs of labels) and the chain that numbers them ---- */

typedef struct entry {
    strbuf test;              /* "__np1_sv == (long)(A) || ..." or "" for default */
    int is_default;
    CXCursor *stmts;
    unsigned nstmts, capstmts;
} entry;

typedef struct entries {
    entry *v;
    unsigned n, cap;
} entries;

static entry *new_entry(entries *es)
{
    entry e;
    memset(&e, 0, sizeof e);
    sb_init(&e.test);
    VEC_PUSH(es->v, es->n, es->cap, e);
    return &es->v[es->n - 1];
}

/* A label (and the labels right under it) opens an entry; returns the statement they label. */
static CXCursor add_labels(tctx *x, CXCursor c, entry *e)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt)
            return c;
        cursor_list ch = children_of(c);
        CXCursor sub = ch.n ? ch.v[ch.n - 1] : clang_getNullCursor();
        src_range vr, hr;
        if (k == CXCursor_DefaultStmt) {
            e->is_default = 1;
        } else if (ch.n == 3 && plain_range(x, ch.v[0], &vr) == 0 &&
                   plain_range(x, ch.v[1], &hr) == 0) { /* GNU's case LO ... HI: */
            size_t lo_len, hi_len;
            const char *lo = range_text(x->an, vr, &lo_len), *hi = range_text(x->an, hr, &hi_len);
            sb_printf(&e->test, "%s(__np1_sv >= (long)(%.*s) && __np1_sv <= (long)(%.*s))",
                      e->test.len ? " || " : "", (int)lo_len, lo, (int)hi_len, hi);
        } else if (ch.n != 2 || plain_range(x, ch.v[0], &vr) != 0) {
            free(ch.v);
            fail(x, c, "a case label the profile cannot read (a range, or a macro)");
            return clang_getNullCursor();
        } else {
            size_t len;
            const char *t = range_text(x->an, vr, &len);
            sb_printf(&e->test, "%s__np1_sv == (long)(%.*s)", e->test.len ? " || " : "",
                      (int)len, t);
        }
        free(ch.v);
        c = sub;
        if (clang_Cursor_isNull(c))
            return c;
    }
}

static int collect_entries(tctx *x, CXCursor body, entries *es)
{
    cursor_list ch = children_of(body);
    int rc = clang_getCursorKind(body) == CXCursor_CompoundStmt ? 0 : -1;
    for (unsigned i = 0; rc == 0 && i < ch.n; i++) {
        enum CXCursorKind k = clang_getCursorKind(ch.v[i]);
        CXCursor s = ch.v[i];
        if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
            if (es->n >= PROFILE_MAX_ARMS - 1)
                return fail(x, body, "a switch with too many case entries");
            s = add_labels(x, s, new_entry(es));
            if (x->pk->err[0])
                rc = -1;
        } else if (!es->n) {
            continue; /* never runs: before the first label */
        }
        if (rc == 0 && !clang_Cursor_isNull(s)) {
            entry *e = &es->v[es->n - 1];
            VEC_PUSH(e->stmts, e->nstmts, e->capstmts, s);
        }
    }
    free(ch.v);
    if (rc != 0 && !x->pk->err[0])
        fail(x, body, "a switch whose body is not a block");
    return rc;
}

/* The entry index chain: `A ? 1 : B ? 2 : D` (D: the default's, or the empty last entry). */
static char *switch_chain(const entries *es, unsigned *narms)
{
    unsigned def = 0;
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < es->n; i++) {
        if (es->v[i].is_default)
            def = i + 1;
        else if (es->v[i].test.len)
            sb_printf(&sb, "(%s) ? %u : ", es->v[i].test.data, i + 1);
    }
    *narms = es->n + !def; /* no default: items matching no case take an empty entry */
    sb_printf(&sb, "%u", def ? def : es->n + 1);
    return sb_steal(&sb);
}

static void free_entries(entries *es)
{
    for (unsigned i = 0; i < es->n; i++) {
        sb_free(&es->v[i].test);
        free(es->v[i].stmts);
    }
    free(es->v);
}

static int build_switch(tctx *x, CXCursor c, pseq *out)
{
    cursor_list ch = children_of(c);
    entries es = {0};
    src_range cr;
    int rc = ch.n < 2 || plain_range(x, ch.v[0], &cr) != 0 ? -1
             : collect_entries(x, ch.v[ch.n - 1], &es);
    if (rc == 0) {
        unsigned narms;
        char *chain = switch_chain(&es, &narms);
        strbuf after;
        sb_init(&after);
        sb_printf(&after, "), __nplus1_rec(&__np1, %s), __np1_sv)", chain);
        add_edit(x->pk, cr.begin, "(__np1_sv = (long)(");
        add_edit(x->pk, cr.end, after.data);
        sb_free(&after);
        free(chain);
        unsigned id = add_construct(x, c, PN_SWITCH, "switch", narms);
        pnode *nd = push_node(out, PN_SWITCH);
        nd->cost = cost_of(x, ch.v[0]);
        nd->construct = id;
        nd->narms = narms;
        nd->arms = xcalloc(narms, sizeof *nd->arms);
        pseq *arms = nd->arms;
        for (unsigned e = 0; rc == 0 && e < es.n; e++)
            for (unsigned s = 0; rc == 0 && s < es.v[e].nstmts; s++)
                rc = build_arm(x, es.v[e].stmts[s], &arms[e], id);
    }
    free_entries(&es);
    free(ch.v);
    return rc;
}

/* ---- loops ----------------------------------------------------------------- */

/* A loop test C becomes __nplus1_rec(&__np1, !(C) ? 1 : 2) == 2 (a float test: build_if). */
static int instrument_test(tctx *x, CXCursor cond)
{
    src_range cr;
    if (plain_range(x, cond, &cr) != 0)
        return -1;
    add_edit(x->pk, cr.begin, "__nplus1_rec(&__np1, !(");
    add_edit(x->pk, cr.end, ") ? 1 : 2) == 2");
    return 0;
}

static pnode *new_loop(tctx *x, CXCursor c, pseq *out, const char *what, loop_test test)
{
    unsigned id = add_construct(x, c, PN_LOOP, what, 2);
    pnode *nd = push_node(out, PN_LOOP);
    nd->construct = id;
    nd->test = test;
    nd->narms = 1;
    nd->arms = xcalloc(1, sizeof *nd->arms);
    return nd;
}

static int build_while(tctx *x, CXCursor c, pseq *out, int is_do)
{
    cursor_list ch = children_of(c);
    int rc = ch.n == 2 ? 0 : fail(x, c, "a loop the profile cannot read");
    CXCursor cond = ch.n == 2 ? ch.v[is_do ? 1 : 0] : clang_getNullCursor();
    CXCursor body = ch.n == 2 ? ch.v[is_do ? 0 : 1] : clang_getNullCursor();
    if (rc == 0)
        rc = instrument_test(x, cond);
    if (rc == 0) {
        pnode *nd = new_loop(x, c, out, is_do ? "do" : "while", is_do ? LOOP_POST : LOOP_PRE);
        nd->cost = cost_of(x, cond);
        pseq *arm = nd->arms;
        rc = build_arm(x, body, arm, nd->construct);
    }
    free(ch.v);
    return rc;
}

/* A for's parts by where they sit: init ; cond ; step ) body. */
static void for_parts(tctx *x, CXCursor c, CXCursor part[4])
{
    for (int i = 0; i < 4; i++)
        part[i] = clang_getNullCursor();
    src_range r;
    if (cursor_range(x->an, c, &r) != 0)
        return;
    const src_file *f = &x->an->pr->files[r.file];
    unsigned semi[2] = {0, 0}, nsemi = 0, depth = 0, close = r.end;
    for (unsigned o = r.begin; o < r.end && close == r.end; o++) {
        char ch = f->text[o];
        depth += ch == '(';
        if (ch == ')' && --depth == 0)
            close = o;
        if (ch == ';' && depth == 1 && nsemi < 2)
            semi[nsemi++] = o;
    }
    cursor_list ch = children_of(c);
    for (unsigned i = 0; i < ch.n; i++) {
        src_range p;
        if (cursor_range(x->an, ch.v[i], &p) != 0)
            continue;
        int slot = p.begin < semi[0] ? 0 : p.begin < semi[1] ? 1 : p.begin < close ? 2 : 3;
        part[slot] = ch.v[i];
    }
    free(ch.v);
}

static int build_for(tctx *x, CXCursor c, pseq *out)
{
    CXCursor part[4];
    for_parts(x, c, part);
    int has_test = !clang_Cursor_isNull(part[1]);
    if (has_test && instrument_test(x, part[1]) != 0)
        return -1;
    pnode *nd = new_loop(x, c, out, "for", has_test ? LOOP_PRE : LOOP_NONE);
    nd->init_cost = clang_Cursor_isNull(part[0]) ? 0 : cost_of(x, part[0]);
    nd->cost = has_test ? cost_of(x, part[1]) : 0;
    nd->step_cost = clang_Cursor_isNull(part[2]) ? 0 : cost_of(x, part[2]);
    pseq *arm = nd->arms;
    return clang_Cursor_isNull(part[3]) ? 0 : build_arm(x, part[3], arm, nd->construct);
}

/* ---- constructs a macro writes ------------------------------------------------- */

/*
 * Does a macro write statement c? Its text in the file must start with its
 * keyword (if, switch, while, do, for); a macro's expansion starts with the
 * macro's name (libclang 14's spelling locations do not tell a macro's body).
 */
static int macro_written(tctx *x, CXCursor c)
{
    static const struct { enum CXCursorKind kind; const char *word; } words[] = {
        {CXCursor_IfStmt, "if"}, {CXCursor_SwitchStmt, "switch"}, {CXCursor_WhileStmt, "while"},
        {CXCursor_DoStmt, "do"}, {CXCursor_ForStmt, "for"}};
    src_range r;
    if (cursor_range(x->an, c, &r) != 0 || r.file != 0)
        return 1;
    const src_file *f = &x->an->pr->files[r.file];
    enum CXCursorKind kind = clang_getCursorKind(c);
    for (unsigned i = 0; i < sizeof words / sizeof *words; i++) {
        size_t n = strlen(words[i].word);
        if (words[i].kind != kind)
            continue;
        if (r.begin + n > f->len || strncmp(f->text + r.begin, words[i].word, n))
            return 1;
        char next = r.begin + n < f->len ? f->text[r.begin + n] : ' ';
        return next == '_' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
               (next >= '0' && next <= '9');
    }
    return 0;
}

typedef struct escape_scan {
    int loops, switches; /* around the cursor, inside the construct (itself included) */
    int escapes;
} escape_scan;

static enum CXChildVisitResult escape_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    escape_scan *e = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    int is_loop = kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt ||
                  kind == CXCursor_DoStmt;
    if (kind == CXCursor_ReturnStmt || kind == CXCursor_GotoStmt ||
        kind == CXCursor_IndirectGotoStmt ||
        (kind == CXCursor_BreakStmt && !e->loops && !e->switches) ||
        (kind == CXCursor_ContinueStmt && !e->loops))
        e->escapes = 1;
    else if (is_loop || kind == CXCursor_SwitchStmt) {
        e->loops += is_loop;
        e->switches += !is_loop;
        clang_visitChildren(c, escape_cb, e);
        e->loops -= is_loop;
        e->switches -= !is_loop;
        return e->escapes ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    return e->escapes ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/*
 * A loop, if or switch that a macro writes (Gepe3D's FOREACH_NEIGHBOUR_j opens
 * two for loops and END_FOREACH_NEIGHBOUR_j closes them) cannot take the
 * recording's edits. When no path leaves it but
 * through its end (no return, no break or continue of an outer loop), it is
 * one region of straight-line work: nothing inside is recorded, its cost is
 * the cost model's, and every path still fits. 1: made opaque; 0: not macro
 * written; -1: a macro-written construct a path leaves early (an error).
 */
static int opaque_if_macro(tctx *x, CXCursor c, pseq *out)
{
    if (!macro_written(x, c))
        return 0;
    enum CXCursorKind kind = clang_getCursorKind(c);
    escape_scan e = {kind != CXCursor_IfStmt && kind != CXCursor_SwitchStmt,
                     kind == CXCursor_SwitchStmt, 0};
    clang_visitChildren(c, escape_cb, &e);
    if (e.escapes)
        return fail(x, c, "a loop or decision written by a macro that a path leaves early "
                          "(return, or break or continue of an outer loop) cannot be recorded");
    pnode *nd = push_node(out, PN_WORK);
    nd->cost = cost_of(x, c);
    if (!x->pk->opaque++) {
        src_range r = {0};
        cursor_range(x->an, c, &r);
        x->pk->opaque_line = r.line;
    }
    return 1;
}

static int build_stmt(tctx *x, CXCursor c, pseq *out)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_ForStmt: {
        int o = opaque_if_macro(x, c, out);
        if (o != 0)
            return o < 0 ? -1 : 0;
        break;
    }
    default:
        break;
    }
    switch (clang_getCursorKind(c)) {
    case CXCursor_CompoundStmt: {
        cursor_list ch = children_of(c);
        int rc = 0;
        for (unsigned i = 0; rc == 0 && i < ch.n; i++)
            rc = build_stmt(x, ch.v[i], out);
        free(ch.v);
        return rc;
    }
    case CXCursor_IfStmt:
        return build_if(x, c, out);
    case CXCursor_SwitchStmt:
        return build_switch(x, c, out);
    case CXCursor_WhileStmt:
        return build_while(x, c, out, 0);
    case CXCursor_DoStmt:
        return build_while(x, c, out, 1);
    case CXCursor_ForStmt:
        return build_for(x, c, out);
    case CXCursor_BreakStmt:
        push_node(out, PN_BREAK);
        return 0;
    case CXCursor_ContinueStmt:
        push_node(out, PN_CONTINUE);
        return 0;
    case CXCursor_ReturnStmt:
        push_node(out, PN_RETURN);
        return 0;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_LabelStmt:
        return fail(x, c, "goto and labels: the profile replays structured control flow only");
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        return fail(x, c, "a case label inside a nested block of its switch");
    default:
        push_node(out, PN_WORK)->cost = cost_of(x, c);
        return 0;
    }
}

/* The analysis's decisions of k (every level), to read their classes. */
static void collect_decisions(tctx *x, const seq *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        const decision *d = s->items[i].decision;
        if (s->items[i].kind != ITEM_DECISION || !d)
            continue;
        VEC_PUSH(x->decs, x->ndecs, x->capdecs, d);
        for (unsigned b = 0; b < d->nbranches; b++)
            collect_decisions(x, &d->branches[b].seq);
    }
}

/* The body's '{' and the end of the last parameter: where the recording comes in. */
static int entry_edits(tctx *x, CXCursor body)
{
    const kernel_info *k = x->pk->k;
    src_range br;
    CXCursor last = last_child_of_kind(k->cursor, CXCursor_ParmDecl);
    src_range pr;
    if (clang_Cursor_isNull(last))
        return fail(x, k->cursor, "a kernel without parameters has nothing to record into");
    if (plain_range(x, last, &pr) != 0 || plain_range(x, body, &br) != 0)
        return -1;
    add_edit(x->pk, pr.end, ", __global uint *__nplus1_profile");
    add_edit(x->pk, br.begin + 1,
             " __nplus1_rec_t __np1; __nplus1_rec_init(&__np1, __nplus1_profile); "
             "long __np1_sv = 0; (void)__np1_sv;");
    return 0;
}

int profile_build_kernel(const analysis *an, profile_kernel *pk)
{
    tctx x;
    memset(&x, 0, sizeof x);
    x.an = an;
    x.pk = pk;
    x.parent = -1;
    collect_decisions(&x, &pk->k->top);
    CXCursor body = clang_getNullCursor();
    cursor_list ch = children_of(pk->k->cursor);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt)
            body = ch.v[i];
    free(ch.v);
    int rc = clang_Cursor_isNull(body) ? fail(&x, pk->k->cursor, "no body") : 0;
    if (rc == 0)
        rc = entry_edits(&x, body);
    if (rc == 0)
        rc = build_stmt(&x, body, &pk->tree.top);
    free(x.decs);
    return rc;
}

void profile_kernel_free(profile_kernel *pk)
{
    for (unsigned i = 0; i < pk->nedits; i++)
        free(pk->edits[i].text);
    free(pk->edits);
    ptree_free(&pk->tree);
    memset(pk, 0, sizeof *pk);
}
