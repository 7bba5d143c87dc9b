/*
 * loop.c - the loop shape of --strategy tile (loop.h).
 *
 * The loop's body is read with the analyze stage's own tree builder
 * (build_seq_from) and its decision classified by the divergence analysis;
 * the context is the prologue's variables the loop or the epilogue use and
 * the head's variables (the body before the decision) the rest of the
 * iteration uses, found as context.c finds the top-level context.
 */
#include "loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_int.h"
#include "divergence.h"
#include "tree.h"
#include "util.h"

/* Bytes of local memory the contexts of one work-group may take: 24 KiB of the 32 KiB
 * every OpenCL device has, the rest left to the tile's counters. */
#define LOOP_LOCAL_BUDGET 24576u

/* Operations a context word's two trips through local memory cost, against the
 * branches' operation counts (effects.c's rough costs). */
#define LOOP_MOVE_COST 2.0
/* Operations a regrouping round's four barriers and its counting cost besides
 * the moves. Calibrated on an H100 against bench/real's loop kernels (1M items):
 * regrouping paid where the costliest branch took 201 (bounce, 1.88x against
 * 1.43x without) and 377 operations (password verify, 0.98x against 0.69x), and
 * lost where it took 116 (photon steps, 0.83x against 1.47x without). */
#define LOOP_ROUND_COST 120.0

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

/* The loop's jumps into lp->jumps; 0, or 1 with lp->why (one a macro writes). */
static void loop_note(analysis *an, CXCursor at, diag_sink *diag, const char *why);

static int loop_jumps(analysis *an, CXCursor loop, loop_plan *lp, diag_sink *diag)
{
    cursor_list all = {0}, ch = children_of(loop);
    for (unsigned i = 0; i < ch.n; i++)
        if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt)
            collect_jumps(ch.v[i], 0, &all);
    free(ch.v);
    int bad = 0;
    lp->jumps = all.n ? xcalloc(all.n, sizeof *lp->jumps) : NULL;
    for (unsigned i = 0; i < all.n && !bad; i++) {
        loop_jump *j = &lp->jumps[lp->njumps++];
        j->is_break = clang_getCursorKind(all.v[i]) == CXCursor_BreakStmt;
        const char *word = j->is_break ? "break" : "continue";
        size_t n = 0;
        const char *t = cursor_range(an, all.v[i], &j->at) == 0 ? range_text(an, j->at, &n) : NULL;
        bad = !t || n != strlen(word) || strncmp(t, word, n) != 0;
        if (bad) {
            snprintf(lp->why, sizeof lp->why, "a `%s` of the loop at line %u comes from a macro: "
                     "its text cannot be rewritten", word, lp->line);
            loop_note(an, all.v[i], diag, lp->why);
        }
    }
    free(all.v);
    return bad;
}

/* The top-level loop holding a decision: 0 and its index, or 1 (lp->why may say why not). */
static int find_loop(const kernel_info *k, loop_plan *lp)
{
    int found = 0;
    for (unsigned i = 0; i < k->top.n; i++) {
        const seq_item *it = &k->top.items[i];
        if (it->kind == ITEM_DECISION && it->decision && !decision_is_guard(it->decision)) {
            if (!found) /* a loop after it stays in a leaf: say so at that loop */
                for (unsigned j = i + 1; j < k->top.n && !lp->line; j++) {
                    const seq_item *lj = &k->top.items[j];
                    if (lj->kind == ITEM_STMT && is_loop(lj->cursor) &&
                        holds_decision(lj->cursor))
                        lp->line = lj->range.line;
                }
            if (found || lp->line)
                snprintf(lp->why, sizeof lp->why, "the kernel has a decision at its top level "
                         "(line %u), which the tile kernel splits; this version regroups a loop "
                         "only in a kernel without one (the loop runs in its leaf, as written)",
                         it->range.line);
            return 1;
        }
        if (it->kind != ITEM_STMT || !is_loop(it->cursor) || !holds_decision(it->cursor))
            continue;
        if (found) {
            snprintf(lp->why, sizeof lp->why,
                     "a second loop with a decision at line %u: one loop a kernel is "
                     "regrouped in this version", it->range.line);
            return 1;
        }
        found = 1;
        lp->item = i;
        lp->line = it->range.line;
        lp->stmt = it->range;
    }
    return !found;
}

static void loop_note(analysis *an, CXCursor at, diag_sink *diag, const char *why)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(at));
    diag_report(diag, DIAG_NOTE, &loc, NULL, "the loop is not regrouped: %s", why);
}

/* A range of the file text [begin, end) with the spaces at its ends left out. */
static src_range trimmed_range(const analysis *an, unsigned file, unsigned begin, unsigned end)
{
    const char *t = an->pr->files[file].text;
    while (begin < end && (t[begin] == ' ' || t[begin] == '\t' || t[begin] == '\n'))
        begin++;
    while (end > begin && (t[end - 1] == ' ' || t[end - 1] == '\t' || t[end - 1] == '\n'))
        end--;
    src_range r = {file, begin, end, 0, 0};
    return r;
}

/* A for loop's three parts, by its parentheses and top-level semicolons; 0 or 1. */
static int for_parts(analysis *an, loop_plan *lp)
{
    const char *t = an->pr->files[lp->stmt.file].text;
    unsigned p = lp->stmt.begin, semi[2], n = 0, depth = 0;
    while (p < lp->stmt.end && t[p] != '(')
        p++;
    unsigned open = p;
    for (p++; p < lp->stmt.end; p++) {
        if (t[p] == '(' || t[p] == '[' || t[p] == '{')
            depth++;
        else if ((t[p] == ')' || t[p] == ']' || t[p] == '}') && depth)
            depth--;
        else if (t[p] == ')')
            break;
        else if (t[p] == ';' && !depth && n < 2)
            semi[n++] = p;
    }
    if (n != 2 || p >= lp->stmt.end)
        return 1;
    lp->init = trimmed_range(an, lp->stmt.file, open + 1, semi[0]);
    lp->cond = trimmed_range(an, lp->stmt.file, semi[0] + 1, semi[1]);
    lp->inc = trimmed_range(an, lp->stmt.file, semi[1] + 1, p);
    return 0;
}

/* The for loop's first part when it declares (`int i = 0`), else a null cursor. */
static CXCursor for_decl(CXCursor loop)
{
    cursor_list ch = children_of(loop);
    CXCursor d = clang_getNullCursor();
    if (ch.n && clang_getCursorKind(ch.v[0]) == CXCursor_DeclStmt)
        d = ch.v[0];
    free(ch.v);
    return d;
}

/* The loop's test and body; 0, or 1 with lp->why. */
static int loop_parts(analysis *an, kernel_info *k, loop_plan *lp)
{
    CXCursor c = k->top.items[lp->item].cursor;
    enum CXCursorKind kind = clang_getCursorKind(c);
    lp->kind = kind == CXCursor_ForStmt ? LOOP_FOR : kind == CXCursor_DoStmt ? LOOP_DO
                                                                              : LOOP_WHILE;
    cursor_list ch = children_of(c);
    CXCursor body = ch.n ? ch.v[lp->kind == LOOP_DO ? 0 : ch.n - 1] : clang_getNullCursor();
    int bad = ch.n < 2 || clang_getCursorKind(body) != CXCursor_CompoundStmt ||
              cursor_range(an, body, &lp->body) != 0;
    if (!bad && lp->kind == LOOP_FOR)
        bad = for_parts(an, lp);
    else if (!bad)
        bad = ch.n != 2 || cursor_range(an, ch.v[lp->kind == LOOP_DO ? 1 : 0], &lp->cond) != 0 ||
              clang_getCursorKind(ch.v[lp->kind == LOOP_DO ? 1 : 0]) == CXCursor_VarDecl;
    if (!bad) {
        diag_sink quiet;
        diag_init(&quiet);
        quiet.quiet = 1;
        build_ctx bc = {an, k, &quiet, 0, 0, 0};
        unsigned cap = 0;
        build_seq_from(&bc, body, &lp->bodyseq, &cap);
        bad = bc.errors || bc.macro_decisions;
    }
    free(ch.v);
    if (bad)
        snprintf(lp->why, sizeof lp->why, "the loop at line %u has a test or a body this "
                 "version cannot take apart (a declaration as its test, a body without "
                 "braces, or a decision a macro writes)", lp->line);
    return bad;
}

/* An if without else whose branch ends by leaving the iteration (break, continue, return). */
static int exit_guard(const decision *d)
{
    if (d->kind != DEC_IF || d->nbranches != 2 || d->branches[1].kind != BR_IMPLICIT_ELSE)
        return 0;
    cursor_list ch = children_of(d->cursor);
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

static void seq_writes(const seq *s, cursor_list *out);

static void fx_writes(const effects *fx, cursor_list *out)
{
    for (unsigned w = 0; w < fx->nwrites; w++)
        VEC_PUSH(out->v, out->n, out->cap, fx->writes[w]);
}

/* Every variable a sequence writes or declares, nested decisions included. */
static void seq_writes(const seq *s, cursor_list *out)
{
    for (unsigned i = 0; i < s->n; i++) {
        fx_writes(&s->items[i].fx, out);
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d)
            continue;
        fx_writes(&d->cond_fx, out);
        if (d->kind == DEC_SWITCH)
            seq_writes(&d->body, out);
        for (unsigned b = 0; b < d->nbranches; b++)
            seq_writes(&d->branches[b].seq, out);
    }
}

static int in_list(const cursor_list *l, CXCursor c)
{
    for (unsigned i = 0; i < l->n; i++)
        if (clang_equalCursors(l->v[i], c))
            return 1;
    return 0;
}

/* Is c declared inside r? */
static int declared_in(analysis *an, CXCursor c, src_range r)
{
    src_range at;
    return cursor_range(an, c, &at) == 0 && at.file == r.file && at.begin >= r.begin &&
           at.end <= r.end;
}

/*
 * A decision the divergence analysis calls uniform or affine whose condition reads a
 * variable the loop carries (declared before it and written in its body) or one the
 * body declares, in a loop that carries one: the analysis sees the carried values
 * only as they were before the loop, so the items may disagree. 1 with d's reason.
 */
static int carried_condition(analysis *an, loop_plan *lp, decision *d)
{
    cursor_list w = {0}, carried = {0};
    seq_writes(&lp->bodyseq, &w);
    for (unsigned i = 0; i < w.n; i++)
        if (!declared_in(an, w.v[i], lp->stmt) && !in_list(&carried, w.v[i]))
            VEC_PUSH(carried.v, carried.n, carried.cap, w.v[i]);
    int found = 0;
    for (unsigned r = 0; carried.n && r < d->cond_fx.nreads && !found; r++) {
        CXCursor v = d->cond_fx.reads[r];
        found = in_list(&carried, v) || (in_list(&w, v) && declared_in(an, v, lp->body));
        if (found) {
            strbuf names;
            sb_init(&names);
            for (unsigned c = 0; c < carried.n && c < 3; c++) {
                char *cn = cursor_spelling(carried.v[c]);
                sb_printf(&names, "%s'%s'", c ? ", " : "", cn);
                free(cn);
            }
            char *name = cursor_spelling(v);
            snprintf(d->divergence_why, sizeof d->divergence_why, "reads '%s'; the loop carries "
                     "%s%s from one iteration to the next, which the analysis sees only as "
                     "before the loop", name, names.data, carried.n > 3 ? ", ..." : "");
            free(name);
            sb_free(&names);
            d->divergence = DIV_DATA;
        }
    }
    free(w.v);
    free(carried.v);
    return found;
}

/* A sequence's operations, every branch of its decisions counted (an upper bound). */
static double seq_cost(const seq *s)
{
    double c = 0;
    for (unsigned i = 0; i < s->n; i++) {
        c += s->items[i].fx.cost;
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d)
            continue;
        c += d->cond_fx.cost + (d->kind == DEC_SWITCH ? seq_cost(&d->body) : 0);
        for (unsigned b = 0; d->kind != DEC_SWITCH && b < d->nbranches; b++)
            c += seq_cost(&d->branches[b].seq);
    }
    return c;
}

/* The body's other data decisions (classified by body_decision): lp->others. */
static void other_decisions(loop_plan *lp)
{
    const seq *s = &lp->bodyseq;
    lp->nothers = 0;
    for (unsigned i = 0; i < s->n; i++) {
        const decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d || d == lp->d || d == lp->d2 || d->divergence != DIV_DATA)
            continue;
        if (lp->nothers < LOOP_MAX_OTHERS)
            lp->others[lp->nothers] = d->range.line;
        lp->nothers++;
    }
}

/* What regrouping group b of decision d saves at most: its branch's operations (a switch's
 * branches share one body: its average). */
static double group_cost(const decision *d, unsigned b)
{
    return d->kind == DEC_SWITCH ? seq_cost(&d->body) / d->nbranches
                                 : seq_cost(&d->branches[b].seq);
}

/* A regroup point: a data decision, or an exit guard and the data decision after it. */
typedef struct regroup_point {
    unsigned at;
    decision *d, *d2;
    double cost;       /* its costliest group */
} regroup_point;

static double point_cost(const regroup_point *p)
{
    double max = 0;
    for (unsigned b = 0; b < p->d->nbranches; b++) {
        double c = group_cost(p->d, b);
        max = !p->d2 || b == 0 ? (c > max ? c : max) : max;
    }
    for (unsigned b = 0; p->d2 && b < p->d2->nbranches; b++) {
        double c = group_cost(p->d2, b);
        max = c > max ? c : max;
    }
    return max;
}

static int is_data(analysis *an, kernel_info *k, loop_plan *lp, decision *d)
{
    divergence_classify_one(an, k, d);
    return d->divergence == DIV_DATA || carried_condition(an, lp, d);
}

/*
 * The regroup point among the data decisions at the body's top level: the one whose
 * costliest group costs most (the first on a tie). A round regroups at one point: a second
 * would move every context through local memory twice more and wait at four more barriers
 * (LOOP_ROUND_COST) for a branch that costs less; the other decisions run as written, in the
 * head or the rest of the iteration (lp->others). 0, or 1 with lp->why.
 */
static int body_decision(analysis *an, kernel_info *k, loop_plan *lp)
{
    const seq *s = &lp->bodyseq;
    const decision *first = NULL;
    regroup_point best = {0, NULL, NULL, -1};
    for (unsigned i = 0; i < s->n; i++) {
        decision *d = s->items[i].kind == ITEM_DECISION ? s->items[i].decision : NULL;
        if (!d)
            continue;
        if (!is_data(an, k, lp, d)) {
            first = first ? first : d;
            continue;
        }
        decision *d2 = i + 1 < s->n && s->items[i + 1].kind == ITEM_DECISION
                           ? s->items[i + 1].decision
                           : NULL;
        regroup_point p = {i, d, d2 && exit_guard(d) && is_data(an, k, lp, d2) ? d2 : NULL, 0};
        p.cost = point_cost(&p);
        if (p.cost > best.cost)
            best = p;
    }
    if (best.d) {
        lp->at = best.at;
        lp->d = best.d;
        lp->d2 = best.d2;
        other_decisions(lp);
        return 0;
    }
    if (first)
        snprintf(lp->why, sizeof lp->why, "the decision at line %u is %s (%s), and so is every "
                 "other at the top of the loop's body: its items agree, so regrouping cannot "
                 "pay", first->range.line, div_class_name(first->divergence),
                 first->divergence_why);
    else
        snprintf(lp->why, sizeof lp->why, "the body of the loop at line %u holds no decision at "
                 "its top level: this version regroups at an if/else or switch of the body "
                 "itself", lp->line);
    return 1;
}

const decision *loop_group(const loop_plan *lp, unsigned g, unsigned *b)
{
    if (!lp->d2 || g == 0) {
        *b = g;
        return lp->d;
    }
    *b = g - 1;
    return lp->d2;
}

/* A kernel parameter assigned anywhere: each phase would see the value it was called with. */
static int assigns_param(const kernel_info *k, loop_plan *lp)
{
    for (unsigned i = 0; i < k->top.n; i++) {
        const effects *fx = &k->top.items[i].fx;
        for (unsigned w = 0; w < fx->nwrites; w++) {
            if (clang_getCursorKind(fx->writes[w]) != CXCursor_ParmDecl)
                continue;
            char *name = cursor_spelling(fx->writes[w]);
            snprintf(lp->why, sizeof lp->why, "the kernel assigns its parameter '%s': the "
                     "loop's phases would each start from the value it was called with", name);
            free(name);
            return 1;
        }
    }
    return 0;
}

static char *selector_type(const decision *d)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(d->cond_cursor));
    CXString s = clang_getTypeSpelling(t);
    const char *p = clang_getCString(s);
    while (!strncmp(p, "const ", 6) || !strncmp(p, "volatile ", 9))
        p += p[0] == 'c' ? 6 : 9;
    char *r = xstrdup(p);
    clang_disposeString(s);
    return r;
}

/* The switch's body, braces included; 0 or 1. */
static int switch_body(analysis *an, loop_plan *lp)
{
    cursor_list ch = children_of(lp->sw->cursor);
    int bad = ch.n < 2 || clang_getCursorKind(ch.v[ch.n - 1]) != CXCursor_CompoundStmt ||
              cursor_range(an, ch.v[ch.n - 1], &lp->switch_body) != 0;
    free(ch.v);
    if (bad)
        snprintf(lp->why, sizeof lp->why, "the switch at line %u has no braced body",
                 lp->sw->range.line);
    return bad;
}

/* The context: the prologue's and the head's variables; 0, or 1 with ctx.why. */
static int loop_context(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp,
                        diag_sink *diag)
{
    kernel_context *cx = &lp->ctx;
    cx->wg = wg;
    cx->loop_line = lp->line;
    cx->at = lp->item;
    cx->at_line = lp->line;
    cx->point = lp->stmt.begin;
    int bad = 0;
    for (unsigned i = 0; i < lp->item && !bad; i++)
        if (k->top.items[i].kind == ITEM_STMT)
            bad = context_add_loop_vars(an, k, cx, k->top.items[i].cursor, &k->top, lp->item,
                                        NULL, diag);
    CXCursor init = for_decl(k->top.items[lp->item].cursor);
    if (!bad && !clang_Cursor_isNull(init))
        bad = context_add_loop_vars(an, k, cx, init, &k->top, lp->item, NULL, diag);
    lp->nprologue = cx->nvars;
    for (unsigned i = 0; i < lp->at && !bad; i++)
        if (lp->bodyseq.items[i].kind == ITEM_STMT)
            bad = context_add_loop_vars(an, k, cx, lp->bodyseq.items[i].cursor, &lp->bodyseq,
                                        lp->at, NULL, diag);
    return bad;
}

/*
 * The default regroup policy. Regrouping moves each context through local memory twice
 * (its bytes / 4 words each way) and waits at four barriers; in a mixed SIMD group the
 * lanes of the other branches idle through the costliest branch, which regrouping gives
 * whole groups of its own. So it pays when the costliest branch costs more than a round:
 * then "when mixed" (1), else "never" (0: each lane keeps its item and refills).
 */
static void loop_policy(loop_plan *lp)
{
    double max = 0, sum = 0;
    for (unsigned g = 0; g < lp->ngroups; g++) {
        unsigned b;
        const decision *d = loop_group(lp, g, &b);
        double c = group_cost(d, b);
        max = c > max ? c : max;
        sum += c;
    }
    lp->arm_cost[0] = max;
    lp->arm_cost[1] = sum;
    lp->round_cost = LOOP_MOVE_COST * (double)lp->bytes / 4.0 + LOOP_ROUND_COST;
    lp->regroup = max >= lp->round_cost ? 1 : 0;
}

static int decide(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp, diag_sink *diag)
{
    if (loop_parts(an, k, lp) || body_decision(an, k, lp))
        return 1;
    if (loop_jumps(an, k->top.items[lp->item].cursor, lp, diag) || assigns_param(k, lp))
        return 1;
    lp->ngroups = lp->d2 ? 1 + lp->d2->nbranches : lp->d->nbranches;
    lp->sw = lp->d->kind == DEC_SWITCH ? lp->d : lp->d2 && lp->d2->kind == DEC_SWITCH ? lp->d2
                                                                                      : NULL;
    if (lp->sw && (switch_body(an, lp) != 0))
        return 1;
    if (loop_context(an, k, wg, lp, diag)) {
        snprintf(lp->why, sizeof lp->why, "%s", lp->ctx.why);
        return 1;
    }
    lp->bytes = lp->ctx.bytes + 12; /* item, branch, iteration */
    if (lp->sw) {
        lp->sel_type = selector_type(lp->sw);
        lp->bytes += (unsigned)clang_Type_getSizeOf(clang_getCursorType(lp->sw->cond_cursor));
    }
    lp->bytes = (lp->bytes + 15) / 16 * 16; /* the struct's padding, at most */
    if ((unsigned long)lp->bytes * wg > LOOP_LOCAL_BUDGET) {
        snprintf(lp->why, sizeof lp->why, "its context takes %u bytes an item, %lu bytes of "
                 "local memory a work-group of %u: over the %u-byte budget", lp->bytes,
                 (unsigned long)lp->bytes * wg, wg, LOOP_LOCAL_BUDGET);
        loop_note(an, k->top.items[lp->item].cursor, diag, lp->why);
        return 1;
    }
    loop_policy(lp);
    return 0;
}

void loop_build(analysis *an, kernel_info *k, unsigned wg, loop_plan *lp, diag_sink *diag)
{
    memset(lp, 0, sizeof *lp);
    if (find_loop(k, lp))
        return;
    lp->active = !decide(an, k, wg, lp, diag);
}

void loop_free(loop_plan *lp)
{
    analyze_seq_free(&lp->bodyseq);
    context_free(&lp->ctx);
    free(lp->sel_type);
    free(lp->jumps);
    memset(lp, 0, sizeof *lp);
}
