/*
 * plan.c - leaves, slice, costs, and the slice-dependent legality rules.
 *
 * Paths are enumerated by walking the condition tree with a stack of
 * continuations: when a branch ends without returning, the statements
 * after its decision run next (a `break` in a switch case skips to after
 * the switch). Every complete path is one leaf.
 */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "cursor_set.h"
#include "divergence.h"
#include "leaf_limit.h"
#include "paths.h"
#include "util.h"

const char *strategy_name(strategy s)
{
    return nplus1rt_strategy_text(s);
}

const char *dispatch_name(dispatch d)
{
    return nplus1rt_dispatch_text(d);
}

const char *split_mode_name(split_mode m)
{
    return nplus1rt_split_text(m);
}

/* ---- the walk ---------------------------------------------------------- */

typedef struct frame {
    const seq_item *items;
    unsigned n, next;
    int is_switch;
} frame;

typedef struct walker {
    const walk_visitor *v;
    frame stack[256];
    unsigned depth;
    choice path[256];
    unsigned npath;
    unsigned paths;
} walker;

static void walk_items(walker *w, const seq_item *items, unsigned n, unsigned i, unsigned fx,
                       double cost);

static void end_path(walker *w, int returned, unsigned fx, double cost)
{
    if (w->paths > PLAN_MAX_LEAVES) /* counted past the limit: stop, 2^40 paths would hang */
        return;
    w->paths++;
    if (w->v->path_end)
        w->v->path_end(w->v->ud, w->path, w->npath, returned, fx, cost);
}

/* Continues with the statements after the innermost open decision. */
static void continue_after(walker *w, unsigned fx, double cost)
{
    if (w->depth == 0) {
        end_path(w, 0, fx, cost);
        return;
    }
    frame f = w->stack[--w->depth];
    walk_items(w, f.items, f.n, f.next, fx, cost);
    w->stack[w->depth++] = f;
}

/* A break: leave the innermost switch. */
static void break_out(walker *w, unsigned fx, double cost)
{
    unsigned saved = w->depth;
    frame kept[256];
    memcpy(kept, w->stack, saved * sizeof *kept);
    while (w->depth > 0 && !w->stack[w->depth - 1].is_switch)
        w->depth--;
    if (w->depth == 0) { /* break outside a switch decision: ends the path */
        end_path(w, 1, fx, cost);
    } else {
        continue_after(w, fx, cost);
    }
    w->depth = saved;
    memcpy(w->stack, kept, saved * sizeof *kept);
}

static void walk_decision(walker *w, const seq_item *items, unsigned n, unsigned i,
                          unsigned fx, double cost)
{
    const decision *d = items[i].decision;
    if (w->v->decision_begin)
        w->v->decision_begin(w->v->ud, d);
    fx |= d->cond_fx.bits;
    cost += d->cond_fx.cost;
    for (unsigned b = 0; b < d->nbranches; b++) {
        if (w->depth >= 255 || w->npath >= 255 || w->paths > PLAN_MAX_LEAVES)
            break;
        if (w->v->branch_begin)
            w->v->branch_begin(w->v->ud, d, b);
        w->path[w->npath++] = (choice){d, b};
        w->stack[w->depth++] = (frame){items, n, i + 1, d->kind == DEC_SWITCH};
        const seq *s = &d->branches[b].seq;
        walk_items(w, s->items, s->n, 0, fx, cost);
        w->depth--;
        w->npath--;
        if (w->v->branch_end)
            w->v->branch_end(w->v->ud, d, b);
    }
    if (w->v->decision_end)
        w->v->decision_end(w->v->ud, d);
}

static void walk_items(walker *w, const seq_item *items, unsigned n, unsigned i, unsigned fx,
                       double cost)
{
    for (; i < n; i++) {
        const seq_item *it = &items[i];
        switch (it->kind) {
        case ITEM_STMT:
            if (w->v->stmt)
                w->v->stmt(w->v->ud, it);
            fx |= it->fx.bits;
            cost += it->fx.cost;
            break;
        case ITEM_RETURN:
            end_path(w, 1, fx | it->fx.bits, cost);
            return;
        case ITEM_BREAK:
            break_out(w, fx, cost);
            return;
        case ITEM_DECISION:
            if (it->decision && it->decision->keep_in_leaf) { /* a plain statement */
                if (w->v->stmt)
                    w->v->stmt(w->v->ud, it);
                fx |= it->fx.bits;
                cost += it->fx.cost;
                break;
            }
            walk_decision(w, items, n, i, fx, cost);
            return;
        }
    }
    continue_after(w, fx, cost);
}

unsigned walk_tree(const seq *top, const walk_visitor *v)
{
    walker *w = xcalloc(1, sizeof *w);
    w->v = v;
    walk_items(w, top->items, top->n, 0, 0, 0.0);
    unsigned paths = w->paths;
    free(w);
    return paths;
}

/* ---- every item and decision of a tree -------------------------------- */

typedef struct tree_lists {
    seq_item **items;      /* plain statements */
    unsigned nitems, capitems;
    decision **decisions;
    unsigned ndecisions, capdecisions;
} tree_lists;

static void collect_seq(tree_lists *t, const seq *s);

static void collect_decision(tree_lists *t, decision *d)
{
    VEC_PUSH(t->decisions, t->ndecisions, t->capdecisions, d);
    if (d->kind == DEC_SWITCH) {
        collect_seq(t, &d->body);
        return;
    }
    for (unsigned b = 0; b < d->nbranches; b++)
        collect_seq(t, &d->branches[b].seq);
}

static void collect_seq(tree_lists *t, const seq *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        seq_item *it = &s->items[i];
        if (it->kind == ITEM_STMT || (it->kind == ITEM_DECISION && it->decision &&
                                      it->decision->keep_in_leaf))
            VEC_PUSH(t->items, t->nitems, t->capitems, it);
        else if (it->kind == ITEM_DECISION && it->decision)
            collect_decision(t, it->decision);
    }
}

/* ---- slice and slice rules -------------------------------------------- */


static void report_at(analysis *an, diag_sink *diag, diag_level lvl, CXCursor at,
                      const char *rule, const char *msg)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(at));
    diag_report(diag, lvl, &loc, rule, "%s", msg);
}

static CXCursor first_site(const effects *fx, unsigned mask, CXCursor fallback, CXCursor *via)
{
    for (unsigned i = 0; i < EFF_COUNT; i++)
        if ((fx->bits & mask & (1u << i)) && !clang_Cursor_isNull(fx->site[i].at)) {
            *via = fx->site[i].via;
            return fx->site[i].at;
        }
    *via = clang_getNullCursor();
    return fallback;
}

static void note_via(analysis *an, diag_sink *diag, CXCursor via)
{
    if (clang_Cursor_isNull(via))
        return;
    report_at(an, diag, DIAG_NOTE, via, NULL, "reached through this call");
}

static int check_conditions(analysis *an, const tree_lists *t, diag_sink *diag)
{
    int errors = 0;
    for (unsigned i = 0; i < t->ndecisions; i++) {
        const decision *d = t->decisions[i];
        /* an if's conditions may write private variables: the leaves evaluate them again */
        unsigned bad = d->cond_fx.bits & (EFF_OBSERVABLE | (d->kind == DEC_SWITCH ? EFF_LOCAL_WRITE : 0));
        if (!bad)
            continue;
        CXCursor via;
        CXCursor at = first_site(&d->cond_fx, bad, d->cursor, &via);
        report_at(an, diag, DIAG_ERROR, at, "nplus1-side-effect",
                  "this condition has a side effect (it writes a variable or memory, or calls "
                  "something that does)");
        note_via(an, diag, via);
        report_at(an, diag, DIAG_NOTE, d->cursor, NULL,
                  "the classifier evaluates the condition and the leaf kernels do not, so the "
                  "side effect would happen in the wrong kernel; compute the value in a "
                  "statement before the decision");
        errors++;
    }
    return errors;
}

static unsigned max_decision_begin(const tree_lists *t)
{
    unsigned m = 0;
    for (unsigned i = 0; i < t->ndecisions; i++)
        if (t->decisions[i]->range.begin > m)
            m = t->decisions[i]->range.begin;
    return m;
}

/* Needed variables and the last place (offset) where the slice reads each. */
typedef struct needed_vars {
    cursor_set vars;
    unsigned *last;
} needed_vars;

static int need(needed_vars *nv, CXCursor c, unsigned at)
{
    for (unsigned i = 0; i < nv->vars.n; i++)
        if (clang_equalCursors(nv->vars.v[i], c)) {
            if (at > nv->last[i])
                nv->last[i] = at;
            return 0;
        }
    unsigned cap = nv->vars.cap;
    cursor_set_add(&nv->vars, c);
    if (nv->vars.cap != cap || !nv->last)
        nv->last = xrealloc(nv->last, nv->vars.cap * sizeof *nv->last);
    nv->last[nv->vars.n - 1] = at;
    return 1;
}

/* Does it write a needed variable before the slice's last read of it? */
static int feeds_a_read(const needed_vars *nv, const seq_item *it)
{
    for (unsigned w = 0; w < it->fx.nwrites; w++)
        for (unsigned i = 0; i < nv->vars.n; i++)
            if (clang_equalCursors(nv->vars.v[i], it->fx.writes[w]) &&
                it->range.end <= nv->last[i])
                return 1;
    return 0;
}

/* The plain statement that declares the local variable var, or NULL (a parameter, or
 * a variable declared inside a statement kept whole). */
static seq_item *declaring_item(analysis *an, const tree_lists *t, CXCursor var)
{
    src_pos d;
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        parse_resolve(an->pr, clang_getCursorLocation(var), &d) != 0)
        return NULL;
    for (unsigned i = 0; i < t->nitems; i++) {
        seq_item *it = t->items[i];
        if (it->kind == ITEM_STMT && it->range.file == d.file && it->range.begin <= d.offset &&
            d.offset < it->range.end)
            return it;
    }
    return NULL;
}

static void add_to_slice(needed_vars *nv, seq_item *it, unsigned *count)
{
    it->in_slice = 1;
    (*count)++;
    for (unsigned r = 0; r < it->fx.nreads; r++)
        need(nv, it->fx.reads[r], it->range.begin);
}

/* The classifier runs every write of the slice and the conditions: it must declare
 * what they write ('int v; if ((v = ...) > 3)'). Returns whether it added any. */
static int add_declarations(analysis *an, const tree_lists *t, const effects *fx,
                            needed_vars *nv, unsigned *count)
{
    int added = 0;
    for (unsigned w = 0; w < fx->nwrites; w++) {
        seq_item *d = declaring_item(an, t, fx->writes[w]);
        if (d && !d->in_slice) {
            add_to_slice(nv, d, count);
            added = 1;
        }
    }
    return added;
}

static int add_all_declarations(analysis *an, const tree_lists *t, needed_vars *nv,
                                unsigned *count)
{
    int added = 0;
    for (unsigned i = 0; i < t->ndecisions; i++)
        added |= add_declarations(an, t, &t->decisions[i]->cond_fx, nv, count);
    for (unsigned i = 0; i < t->nitems; i++)
        if (t->items[i]->in_slice)
            added |= add_declarations(an, t, &t->items[i]->fx, nv, count);
    return added;
}

/* Marks the statements the conditions need, transitively, and the declarations of what
 * they write; returns the count. */
static unsigned compute_slice(analysis *an, const tree_lists *t, unsigned horizon)
{
    needed_vars nv = {{0}, NULL};
    for (unsigned i = 0; i < t->ndecisions; i++)
        for (unsigned r = 0; r < t->decisions[i]->cond_fx.nreads; r++)
            need(&nv, t->decisions[i]->cond_fx.reads[r], t->decisions[i]->range.begin);
    unsigned count = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i < t->nitems; i++) {
            seq_item *it = t->items[i];
            if (it->in_slice || it->range.end > horizon || !feeds_a_read(&nv, it))
                continue;
            add_to_slice(&nv, it, &count);
            changed = 1;
        }
        if (!changed)
            changed = add_all_declarations(an, t, &nv, &count);
    }
    cursor_set_free(&nv.vars);
    free(nv.last);
    return count;
}

/*
 * Under another strategy than tile: would tile's context have run this statement
 * once per item (and so allowed it)? Built the first time a refusal asks, quietly,
 * so that a kernel with no refusal pays nothing for it.
 */
typedef struct tile_hint {
    const kernel_info *k;
    unsigned wg;
    int wanted, built;
    kernel_context ctx;
} tile_hint;

static void note_tile_allows(analysis *an, tile_hint *h, const seq_item *it, diag_sink *diag)
{
    if (!h->wanted)
        return;
    if (!h->built) {
        diag_sink quiet;
        diag_init(&quiet);
        quiet.quiet = 1;
        context_build(an, h->k, h->wg, &h->ctx, &quiet);
        h->built = 1;
    }
    if (context_in_prologue(&h->ctx, it))
        report_at(an, diag, DIAG_NOTE, it->cursor, NULL,
                  "--strategy tile allows this statement: its classify phase runs the prologue "
                  "once per item and the leaves start from its values (docs/legality.md)");
}

static int check_slice(analysis *an, const tree_lists *t, unsigned horizon,
                       kernel_context *ctx, tile_hint *hint, diag_sink *diag)
{
    int errors = 0;
    for (unsigned i = 0; i < t->nitems; i++) {
        const seq_item *it = t->items[i];
        if (it->range.end > horizon)
            continue;
        /* a kept decision may return: nothing after it is split, unless the slice needs it */
        if (!clang_Cursor_isNull(it->fx.hidden_exit) && (it->kind == ITEM_STMT || it->in_slice)) {
            report_at(an, diag, DIAG_ERROR, it->fx.hidden_exit, "nplus1-hidden-return",
                      "a return or break inside this statement comes before a decision");
            report_at(an, diag, DIAG_NOTE, it->cursor, NULL,
                      "the classifier cannot tell which items leave early here; write the early "
                      "exit as a top-level guard 'if (...) return;'");
            errors++;
        }
        if (!it->in_slice || !(it->fx.bits & EFF_OBSERVABLE))
            continue;
        if (context_in_prologue(ctx, it)) { /* the tile runs it once, in the classify phase */
            ctx->relaxed++;
            continue;
        }
        CXCursor via;
        CXCursor at = first_site(&it->fx, EFF_OBSERVABLE, it->cursor, &via);
        report_at(an, diag, DIAG_ERROR, at, "nplus1-side-effect",
                  "a condition depends on a statement with a side effect");
        note_via(an, diag, via);
        report_at(an, diag, DIAG_NOTE, it->cursor, NULL,
                  "the classifier must run this statement to evaluate a condition, and it would "
                  "repeat its writes; move the side effect after the decision");
        note_tile_allows(an, hint, it, diag);
        errors++;
    }
    return errors;
}

/* ---- memory order: stores before a condition that loads what they wrote ---- */

typedef struct spans {
    unsigned (*v)[2];
    unsigned n, cap;
} spans;

enum { FLOW_RETURNED, FLOW_ON, FLOW_BREAK };

/* Adds the text from item `from` of s up to a return or break; says how the flow leaves. */
static int flow_after(const seq *s, unsigned from, spans *out)
{
    unsigned end = from;
    int how = FLOW_ON;
    for (; end < s->n; end++)
        if (s->items[end].kind == ITEM_RETURN || s->items[end].kind == ITEM_BREAK) {
            how = s->items[end].kind == ITEM_RETURN ? FLOW_RETURNED : FLOW_BREAK;
            break;
        }
    if (end > from) {
        unsigned span[2] = {s->items[from].range.begin, s->items[end - 1].range.end};
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 8;
            out->v = xrealloc(out->v, out->cap * sizeof *out->v);
        }
        memcpy(out->v[out->n++], span, sizeof span);
    }
    return how;
}

/*
 * The text that can run after target, on some path: the rest of its
 * sequence up to a return or break, then what follows the decisions around
 * it. Returns how the flow leaves s, or -1 when target is not in s.
 */
static int reach_after(const seq *s, const seq_item *target, spans *out)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        if (it == target)
            return flow_after(s, i + 1, out);
        if (it->kind != ITEM_DECISION || !it->decision || it->decision->keep_in_leaf)
            continue;
        const decision *d = it->decision;
        int r = -1;
        if (d->kind == DEC_SWITCH) {
            r = reach_after(&d->body, target, out);
            if (r == FLOW_BREAK)
                r = FLOW_ON; /* a break leaves the switch */
        } else {
            for (unsigned b = 0; b < d->nbranches && r < 0; b++)
                r = reach_after(&d->branches[b].seq, target, out);
        }
        if (r < 0)
            continue;
        return r == FLOW_ON ? flow_after(s, i + 1, out) : r;
    }
    return -1;
}

static int in_spans(const spans *sp, unsigned at)
{
    for (unsigned i = 0; i < sp->n; i++)
        if (at >= sp->v[i][0] && at < sp->v[i][1])
            return 1;
    return 0;
}

/* A load of r that a store of w may feed, or the null cursor. */
static CXCursor fed_load(const effects *w, const effects *r, CXCursor *store)
{
    for (unsigned i = 0; i < r->nloads; i++)
        for (unsigned j = 0; j < w->nstores; j++)
            if (accesses_may_alias(w->stores[j], r->loads[i])) {
                *store = w->stores[j];
                return r->loads[i];
            }
    return clang_getNullCursor();
}

/* The first load by a condition or the slice that the store item w may feed on a path. */
static CXCursor load_after(const tree_lists *t, const seq *top, const seq_item *w, CXCursor *store)
{
    spans sp = {NULL, 0, 0};
    reach_after(top, w, &sp);
    CXCursor read = clang_getNullCursor();
    for (unsigned i = 0; i < t->nitems && clang_Cursor_isNull(read); i++) {
        const seq_item *it = t->items[i];
        if (it->in_slice && (it->fx.bits & EFF_MEM_READ) && in_spans(&sp, it->range.begin))
            read = fed_load(&w->fx, &it->fx, store);
    }
    for (unsigned i = 0; i < t->ndecisions && clang_Cursor_isNull(read); i++) {
        const decision *d = t->decisions[i];
        if ((d->cond_fx.bits & EFF_MEM_READ) && in_spans(&sp, d->range.begin))
            read = fed_load(&w->fx, &d->cond_fx, store);
    }
    free(sp.v);
    return read;
}

/* A read_image* call: 'restrict' does not apply to images. */
static int is_image_read(CXCursor load)
{
    if (clang_getCursorKind(load) != CXCursor_CallExpr)
        return 0;
    CXString s = clang_getCursorSpelling(load);
    int image = !strncmp(clang_getCString(s), "read_image", 10);
    clang_disposeString(s);
    return image;
}

/*
 * A condition (or its slice) must not load memory that a store before it,
 * on the same path, may have written: the classifier runs before any leaf.
 * A store on a path that returns first, and a store to another field of the
 * struct, do not count.
 */
static int check_memory_order(analysis *an, const tree_lists *t, const seq *top,
                              unsigned horizon, kernel_context *ctx, tile_hint *hint,
                              diag_sink *diag)
{
    for (unsigned i = 0; i < t->nitems; i++) {
        const seq_item *w = t->items[i];
        if (w->range.end > horizon || !(w->fx.bits & (EFF_MEM_WRITE | EFF_ATOMIC)))
            continue;
        CXCursor store = clang_getNullCursor();
        CXCursor read = load_after(t, top, w, &store);
        if (clang_Cursor_isNull(read))
            continue;
        if (context_in_prologue(ctx, w)) { /* the classify phase runs it, then the read */
            ctx->relaxed++;
            continue;
        }
        report_at(an, diag, DIAG_ERROR, read, "nplus1-memory-order",
                  "a condition reads memory after the kernel wrote memory");
        CXCursor via;
        CXCursor at = first_site(&w->fx, EFF_MEM_WRITE | EFF_ATOMIC, w->cursor, &via);
        if (clang_Cursor_isNull(via) && !clang_Cursor_isNull(store))
            at = store;
        report_at(an, diag, DIAG_NOTE, at, NULL,
                  is_image_read(read)
                      ? "this write runs before the condition; the classifier runs before any "
                        "leaf kernel and would read the old value (read a 'read_only' image and "
                        "write a 'write_only' one if they are different images)"
                      : "this write runs before the condition; the classifier runs before any "
                        "leaf kernel and would read the old value (declare the read pointer "
                        "'restrict' or '__constant' if it never aliases the written one)");
        note_via(an, diag, via);
        note_tile_allows(an, hint, w, diag);
        return 1;
    }
    return 0;
}

/* Even the outermost level of decisions alone has more paths than --max-leaves. */
static void report_too_many_leaves(analysis *an, const kernel_info *k, double all, double outer,
                                   unsigned max_leaves, diag_sink *diag)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(k->cursor));
    if (all > outer)
        diag_report(diag, DIAG_ERROR, &loc, "nplus1-too-many-leaves",
                    "kernel '%s' has %.0f paths through its decisions (leaves), %.0f with only "
                    "its outermost decisions split; at most %u are allowed",
                    k->name, all, outer, max_leaves);
    else
        diag_report(diag, DIAG_ERROR, &loc, "nplus1-too-many-leaves",
                    "kernel '%s' has %.0f paths through its outermost decisions (leaves); at "
                    "most %u are allowed",
                    k->name, all, max_leaves);
    diag_report(diag, DIAG_NOTE, &loc, NULL,
                "nplus1gen splits the outer levels of the condition tree that fit and leaves "
                "the inner ones in the leaf kernels, but one decision alone has more branches "
                "than that; %s",
                max_leaves < PLAN_MAX_LEAVES ? "raise --max-leaves (at most 64)"
                                             : "write it as a computed index or a table lookup");
}

/* ---- leaves ------------------------------------------------------------ */

static void append_condition(strbuf *sb, analysis *an, const choice *c)
{
    const decision *d = c->d;
    const branch *br = &d->branches[c->branch];
    if (sb->len)
        sb_puts(sb, " && ");
    if (d->kind == DEC_SWITCH) {
        sb_putc(sb, '(');
        put_active_range(an, sb, d->cond);
        sb_puts(sb, ") ");
        if (br->kind == BR_CASE && br->macro_labels && br->nlabels) { /* "== SEL", as written */
            for (unsigned i = 0; i < br->nlabels; i++)
                sb_printf(sb, "%s== %s", i ? "|| " : "", br->labels[i] + strspn(br->labels[i], " "));
        } else if (br->kind == BR_CASE && br->nvalues == 1) {
            sb_printf(sb, "== %lld", br->values[0]);
        } else if (br->kind == BR_CASE) {
            sb_puts(sb, "in {");
            for (unsigned i = 0; i < br->nvalues; i++)
                sb_printf(sb, "%s%lld", i ? ", " : "", br->values[i]);
            sb_puts(sb, "}");
        } else {
            sb_puts(sb, "matches no case");
        }
        return;
    }
    int first = 1;
    for (unsigned b = 0; b < c->branch; b++) {
        sb_puts(sb, first ? "!(" : " && !(");
        put_active_range(an, sb, d->branches[b].cond);
        sb_putc(sb, ')');
        first = 0;
    }
    if (br->kind == BR_IF) {
        sb_puts(sb, first ? "(" : " && (");
        put_active_range(an, sb, br->cond);
        sb_putc(sb, ')');
    }
}

/* Collapses runs of whitespace (multi-line conditions) into one space. */
static char *squeeze_space(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        int space = *r == ' ' || *r == '\n' || *r == '\t' || *r == '\r';
        if (space && (w == s || w[-1] == ' '))
            continue;
        *w++ = space ? ' ' : *r;
    }
    *w = '\0';
    return s;
}

typedef struct leaf_collector {
    kernel_plan *kp;
    analysis *an;
    path_event *trace;     /* the statements run and branches taken so far on this path */
    unsigned ntrace, captrace;
    unsigned saved[256];   /* ntrace at each open branch */
    unsigned nsaved;
} leaf_collector;

static void trace_push(leaf_collector *lc, path_event ev)
{
    VEC_PUSH(lc->trace, lc->ntrace, lc->captrace, ev);
}

static void on_stmt(void *ud, const seq_item *it)
{
    trace_push(ud, (path_event){it, NULL, 0});
}

static void on_branch_begin(void *ud, const decision *d, unsigned b)
{
    leaf_collector *lc = ud;
    if (lc->nsaved < 256)
        lc->saved[lc->nsaved] = lc->ntrace;
    lc->nsaved++;
    trace_push(lc, (path_event){NULL, d, b});
}

static void on_branch_end(void *ud, const decision *d, unsigned b)
{
    leaf_collector *lc = ud;
    (void)d;
    (void)b;
    if (--lc->nsaved < 256)
        lc->ntrace = lc->saved[lc->nsaved];
}

static void on_path_end(void *ud, const choice *path, unsigned npath, int returned, unsigned fx,
                        double cost)
{
    leaf_collector *lc = ud;
    kernel_plan *kp = lc->kp;
    if (kp->nleaves >= PLAN_MAX_LEAVES + 1)
        return;
    leaf lf;
    memset(&lf, 0, sizeof lf);
    lf.path = xmalloc((npath ? npath : 1) * sizeof *lf.path);
    memcpy(lf.path, path, npath * sizeof *path);
    lf.npath = npath;
    lf.returned = returned;
    lf.fx = fx;
    lf.cost = cost;
    lf.empty = !(fx & EFF_OBSERVABLE);
    char why[300];
    if (!lf.empty && path_impossible(lc->an, kp->k, lc->trace, lc->ntrace, why, sizeof why)) {
        lf.empty = 1; /* no item can take it: no kernel, no bucket */
        lf.impossible = xstrdup(why);
    }
    lf.kernel = lf.empty ? -1 : (int)kp->nkernels++;
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < npath; i++)
        append_condition(&sb, lc->an, &path[i]);
    lf.condition = sb.len ? squeeze_space(sb_steal(&sb)) : xstrdup("(always)");
    sb_free(&sb);
    for (unsigned i = 0; i < npath; i++)
        for (unsigned j = 0; path[i].d->inputs_upto && j < path[i].d->inputs_upto[path[i].branch];
             j++)
            cond_inputs_add(&lf.inputs, &lf.ninputs, path[i].d->inputs[j].name,
                            path[i].d->inputs[j].indexed_by);
    if (npath) {
        const branch *br = &path[npath - 1].d->branches[path[npath - 1].branch];
        const decision *d = path[npath - 1].d;
        lf.line_begin = br->kind == BR_IMPLICIT_ELSE || br->kind == BR_IMPLICIT_DEFAULT
                            ? d->range.end_line
                            : (d->kind == DEC_IF ? br->body.line
                                                 : (br->seq.n ? br->seq.items[0].range.line
                                                              : d->range.end_line));
        lf.line_end = br->kind == BR_IF || br->kind == BR_ELSE ? br->body.end_line
                                                                : d->range.end_line;
        if ((br->kind == BR_IMPLICIT_ELSE || br->kind == BR_IMPLICIT_DEFAULT) && !returned) {
            /* no branch of its own: the leaf is the code after the decision, to the kernel's end */
            unsigned end = kp->k->body.end_line;
            lf.line_begin = d->range.end_line < end ? d->range.end_line + 1 : end;
            lf.line_end = end;
        }
    }
    VEC_PUSH(kp->leaves, kp->nleaves, kp->capleaves, lf);
}

/*
 * --split=auto: leaves too cheap to pay for the classifier share one kernel
 * that runs the original code (their divergence is cheap); when every leaf
 * is cheap the driver runs the original kernel; otherwise the driver probes
 * divergence at run time (NPLUS1RT_SPLIT_ADAPTIVE).
 */
static void apply_cost_model(const plan *pl, kernel_plan *kp, double prologue, double ccost)
{
    kp->merged_kernel = -1;
    kp->split = SPLIT_MODE_ALWAYS;
    if (pl->opt.split != SPLIT_AUTO || kp->nkernels == 0)
        return;
    if (kp->ndata == 0) { /* uniform and affine conditions diverge at the borders at most */
        kp->split = SPLIT_MODE_NEVER;
        return;
    }
    double cheap_below = PLAN_CHEAP_LEAF;
    if (16 * ccost > cheap_below)
        cheap_below = 16 * ccost;
    unsigned cheap = 0;
    for (unsigned l = 0; l < kp->nleaves; l++)
        cheap += kp->leaves[l].kernel >= 0 && kp->leaves[l].cost - prologue < cheap_below;
    if (cheap == kp->nkernels) {
        kp->split = SPLIT_MODE_NEVER;
        return;
    }
    kp->split = SPLIT_MODE_ADAPTIVE;
    if (cheap < 2)
        return;
    unsigned next = 0;
    for (unsigned l = 0; l < kp->nleaves; l++)
        if (kp->leaves[l].kernel >= 0 && kp->leaves[l].cost - prologue >= cheap_below)
            kp->leaves[l].kernel = (int)next++;
    kp->merged_kernel = (int)next;
    for (unsigned l = 0; l < kp->nleaves; l++)
        if (kp->leaves[l].kernel >= 0 && kp->leaves[l].cost - prologue < cheap_below)
            kp->leaves[l].kernel = kp->merged_kernel;
    kp->nmerged = cheap;
    kp->nkernels = next + 1;
}

/* A loop group's condition: "loop at line 7: v & 1", "... : else", "... : case 0, 2". */
static char *group_condition(const analysis *an, const loop_plan *lp, unsigned b)
{
    const branch *br = &lp->d->branches[b];
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "loop at line %u, %s at line %u: ", lp->line,
              lp->d->kind == DEC_SWITCH ? "switch" : "if", lp->d->range.line);
    size_t n = 0;
    const char *t;
    switch (br->kind) {
    case BR_IF:
        t = range_text(an, br->cond, &n);
        sb_putn(&sb, t, n);
        break;
    case BR_CASE:
        sb_puts(&sb, "case ");
        for (unsigned i = 0; i < br->nlabels; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", br->labels[i] + strspn(br->labels[i], " "));
        for (unsigned i = 0; !br->nlabels && i < br->nvalues; i++)
            sb_printf(&sb, "%s%lld", i ? ", " : "", br->values[i]);
        break;
    case BR_DEFAULT:
    case BR_IMPLICIT_DEFAULT:
        sb_puts(&sb, br->kind == BR_DEFAULT ? "default" : "no case (implicit default)");
        break;
    default:
        sb_puts(&sb, br->kind == BR_ELSE ? "else" : "no branch (implicit else)");
    }
    return sb_steal(&sb);
}

/* An active loop: its decision's branches are the groups, and the leaves the driver counts. */
static void loop_leaves(const analysis *an, kernel_plan *kp, split_policy split)
{
    for (unsigned l = 0; l < kp->nleaves; l++) {
        free(kp->leaves[l].path);
        free(kp->leaves[l].condition);
        free(kp->leaves[l].impossible);
        cond_inputs_free(kp->leaves[l].inputs, kp->leaves[l].ninputs);
    }
    kp->nleaves = 0;
    const loop_plan *lp = &kp->loop;
    for (unsigned b = 0; b < lp->ngroups; b++) {
        const branch *br = &lp->d->branches[b];
        leaf lf = {0};
        lf.kernel = (int)b;
        lf.condition = group_condition(an, lp, b);
        lf.line_begin = br->kind == BR_IF || br->kind == BR_ELSE ? br->body.line : lp->d->range.line;
        lf.line_end = br->kind == BR_IF || br->kind == BR_ELSE ? br->body.end_line
                                                                 : lp->d->range.end_line;
        const seq *s = lp->d->kind == DEC_SWITCH ? &lp->d->body : &br->seq;
        for (unsigned i = 0; i < s->n; i++)
            lf.cost += s->items[i].fx.cost;
        VEC_PUSH(kp->leaves, kp->nleaves, kp->capleaves, lf);
    }
    kp->nkernels = lp->ngroups;
    kp->merged_kernel = -1;
    kp->nmerged = 0;
    /* regroup every round (no probe yet); under --split auto a candidate beside the original */
    kp->split = split == SPLIT_AUTO ? SPLIT_MODE_ADAPTIVE : SPLIT_MODE_ALWAYS;
}

static int plan_kernel(plan *pl, kernel_info *k, diag_sink *diag)
{
    analysis *an = pl->an;
    divergence_classify(an, k);
    divergence_keep_in_leaf(an, k);
    unsigned max_leaves = pl->opt.max_leaves && pl->opt.max_leaves < PLAN_MAX_LEAVES
                              ? pl->opt.max_leaves
                              : PLAN_MAX_LEAVES;
    double all_paths, split_paths;
    int fits = plan_limit_leaves(&k->top, max_leaves, &all_paths, &split_paths) == 0;
    tree_lists t = {0};
    collect_seq(&t, &k->top);
    int errors = check_conditions(an, &t, diag);
    unsigned horizon = max_decision_begin(&t);
    kernel_plan kp;
    memset(&kp, 0, sizeof kp);
    kp.k = k;
    kp.paths = all_paths;
    kp.max_leaves = max_leaves;
    kp.nslice = compute_slice(an, &t, horizon);
    diag_sink quiet; /* the tile's notes and warnings: quiet unless the tile is the set */
    diag_init(&quiet);
    quiet.quiet = 1;
    diag_sink *to = pl->opt.strategy == STRATEGY_TILE ? diag : &quiet;
    if (auto_tile_wants_context(&pl->opt)) /* the set has a tile kernel (auto_tile.h) */
        context_build(an, k, pl->opt.wg, &kp.ctx, to);
    loop_build(an, k, pl->opt.wg, &kp.loop, to); /* a regrouped loop is the split */
    tile_hint hint = {k, pl->opt.wg, !auto_tile_wants_context(&pl->opt), 0, {0}};
    errors += check_slice(an, &t, horizon, &kp.ctx, &hint, diag);
    errors += check_memory_order(an, &t, &k->top, horizon, &kp.ctx, &hint, diag);
    if (hint.built)
        context_free(&hint.ctx);
    for (unsigned i = 0; i < t.nitems; i++)
        if (t.items[i]->in_slice)
            kp.classifier_cost += t.items[i]->fx.cost;
    for (unsigned i = 0; i < t.ndecisions; i++)
        kp.classifier_cost += t.decisions[i]->cond_fx.cost;
    for (unsigned i = 0; i < t.ndecisions; i++)
        kp.ndata += t.decisions[i]->divergence == DIV_DATA;
    free(t.items);
    free(t.decisions);
    leaf_collector lc;
    memset(&lc, 0, sizeof lc);
    lc.kp = &kp;
    lc.an = an;
    walk_visitor v = {0};
    v.path_end = on_path_end;
    v.stmt = on_stmt;
    v.branch_begin = on_branch_begin;
    v.branch_end = on_branch_end;
    v.ud = &lc;
    unsigned paths = walk_tree(&k->top, &v);
    free(lc.trace);
    if (!fits || paths > max_leaves) {
        report_too_many_leaves(an, k, all_paths, split_paths, max_leaves, diag);
        errors++;
    } else if (kp.nkernels == 0) {
        diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(k->cursor));
        diag_report(diag, DIAG_ERROR, &loc, "nplus1-no-decision",
                    "kernel '%s' has no leaf that does anything observable", k->name);
        errors++;
    }
    kp.errors = (unsigned)errors;
    auto_tile_choose(&pl->opt, &kp);
    double prologue = 0, ccost = kp.classifier_cost; /* a context tile runs its prologue once */
    if (kp.strategy == STRATEGY_TILE)
        auto_tile_costs(&kp, &prologue, &ccost);
    apply_cost_model(pl, &kp, prologue, ccost);
    kp.tile_split = auto_tile_verdict(&pl->opt, &kp);
    if (kp.tile_candidate == AUTO_TILE_CONTEXT && kp.split == SPLIT_MODE_NEVER && kp.ndata)
        kp.split = kp.tile_split; /* the context tile may pay where the strategy does not */
    if (kp.loop.active && !errors)
        loop_leaves(an, &kp, pl->opt.split);
    pl->kernels[pl->nkernels++] = kp; /* room for every kernel was made by plan_build */
    return errors;
}

int plan_build(plan *pl, analysis *an, const plan_options *opt, diag_sink *diag)
{
    memset(pl, 0, sizeof *pl);
    pl->an = an;
    pl->opt = *opt;
    pl->kernels = xcalloc(an->nkernels ? an->nkernels : 1, sizeof *pl->kernels);
    int errors = 0;
    for (unsigned i = 0; i < an->nkernels; i++) {
        kernel_info *k = &an->kernels[i];
        if (!k->legal || !k->has_decision)
            continue;
        errors += plan_kernel(pl, k, diag);
    }
    return errors ? 1 : 0;
}

void plan_free(plan *pl)
{
    for (unsigned i = 0; i < pl->nkernels; i++) {
        for (unsigned l = 0; l < pl->kernels[i].nleaves; l++) {
            free(pl->kernels[i].leaves[l].path);
            free(pl->kernels[i].leaves[l].condition);
            free(pl->kernels[i].leaves[l].impossible);
            cond_inputs_free(pl->kernels[i].leaves[l].inputs, pl->kernels[i].leaves[l].ninputs);
        }
        free(pl->kernels[i].leaves);
        context_free(&pl->kernels[i].ctx);
        loop_free(&pl->kernels[i].loop);
    }
    free(pl->kernels);
    memset(pl, 0, sizeof *pl);
}
