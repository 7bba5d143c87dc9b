/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context.c - the context of a kernel's top-level decision (context.h).
 *
 * The variables come from the declarations of the prologue's top-level
 * statements; a variable is in the context when something after the point
 * (a condition, a branch, the epilogue) reads or writes it. Its value moves
 * when it is read after the point and set before it (an initializer or a
 * later write); otherwise the leaves only declare it.
 */
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor_set.h"
#include "regroup_rule.h"
#include "plan_facts.h"
#include "rules.h"
#include "tree.h"
#include "util.h"

static void set_add_all(cursor_set *s, const CXCursor *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        cursor_set_add(s, v[i]);
}

/* What the code after the point reads and writes. */
typedef struct uses {
    cursor_set reads, writes;
} uses;

static void uses_of_fx(uses *u, const effects *fx)
{
    set_add_all(&u->reads, fx->reads, fx->nreads);
    set_add_all(&u->writes, fx->writes, fx->nwrites);
}

static tree_step uses_of_item(void *ud, const seq_item *it)
{
    uses_of_fx(ud, &it->fx);
    if (it->kind == ITEM_DECISION && it->decision)
        uses_of_fx(ud, &it->decision->cond_fx);
    return TREE_RECURSE;
}

/* What items from.. of s read and write, and everything inside them. */
static void uses_of_seq(uses *u, const seq *s, unsigned from)
{
    seq rest = {s->items + from, from < s->n ? s->n - from : 0};
    for_each_item(&rest, uses_of_item, u);
}

static void uses_free(uses *u)
{
    cursor_set_free(&u->reads);
    cursor_set_free(&u->writes);
}

/* ---- types ---------------------------------------------------------------- */

/* s without the words __private and private, and with all, const and volatile too. */
static char *unqualified(const char *s, int all)
{
    static const char *const drop[] = {"__private", "private", "const", "volatile"};
    strbuf sb;
    sb_init(&sb);
    while (*s) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        int skip = 0;
        for (unsigned i = 0; i < (all ? 4u : 2u); i++)
            skip |= strlen(drop[i]) == n && !strncmp(s, drop[i], n);
        if (!skip && n) {
            if (sb.len)
                sb_putc(&sb, ' ');
            sb_putn(&sb, s, n);
        }
        s += n;
    }
    return sb.data ? sb_steal(&sb) : xstrdup("");
}

static int named_type(const char *spelling)
{
    return !strstr(spelling, "(unnamed") && !strstr(spelling, "(anonymous");
}

/* ---- the prologue's variables ----------------------------------------------- */

typedef struct build {
    const analysis *an;
    const kernel_info *k;
    kernel_context *ctx;
    uses after;
    diag_sink *diag;
    int refused;
} build;

/*
 * May var be set before the point by a prologue statement other than its
 * declaration? Any mention counts: a write through memory (vstore4 into a
 * private array, a helper's pointer argument) is not a write of var in the
 * effects, and a value the leaves need must never be left behind.
 */
static int set_later_in_prologue(const build *b, CXCursor var, unsigned declaring)
{
    for (unsigned i = 0; i < b->ctx->at; i++) {
        if (i == declaring)
            continue;
        const effects *fx = &b->k->top.items[i].fx;
        for (unsigned w = 0; w < fx->nwrites; w++)
            if (cursors_equal(fx->writes[w], var))
                return 1;
        if (stmt_mentions(b->k->top.items[i].cursor, var))
            return 1;
    }
    return 0;
}

static void refuse_pointer(build *b, CXCursor var, const char *name, unsigned line)
{
    diag_loc loc = cursor_diag_loc(b->an, var);
    const kernel_context *cx = b->ctx;
    if (cx->loop_line) {
        diag_report(b->diag, DIAG_WARNING, &loc, rule_name(RULE_LOOP_STATE),
                    "pointer '%s' is live across the iterations of the loop at line %u: it "
                    "cannot move through the tile's local memory",
                    name, cx->loop_line);
        diag_report(b->diag, DIAG_NOTE, &loc, NULL,
                    "only values move (scalars, vectors, structs, small arrays); the loop is "
                    "not regrouped");
    } else {
        diag_report(b->diag, DIAG_WARNING, &loc, rule_name(RULE_LOOP_STATE),
                    "pointer '%s' is used after the decision at line %u: it cannot move into "
                    "the tile's local memory",
                    name, cx->at_line);
        diag_report(b->diag, DIAG_NOTE, &loc, NULL,
                    "only values move (scalars, vectors, structs, small arrays); the tile's "
                    "leaves recompute the prologue (lines %u-%u) instead",
                    cx->prologue_begin_line, cx->prologue_end_line);
    }
    snprintf(b->ctx->why, sizeof b->ctx->why,
             "pointer '%s' (line %u) is used after the %s [nplus1-loop-state]", name,
             line, cx->loop_line ? "loop's decision" : "decision");
    b->refused = 1;
}

static void not_movable(build *b, const char *name, const char *type)
{
    if (!b->ctx->why[0])
        snprintf(b->ctx->why, sizeof b->ctx->why,
                 "variable '%s' of type '%s' cannot move through local memory", name, type);
    b->refused = 1;
}

/* Adds var (declared by prologue item `declaring`) when the code after the point uses it. */
static void add_var_of(build *b, CXCursor var, unsigned declaring)
{
    int read = cursor_set_has(&b->after.reads, var);
    int written = cursor_set_has(&b->after.writes, var);
    if (!read && !written)
        return;
    var_facts f;
    var_facts_of(var, &f);
    ctx_var v = {0};
    v.name = f.name;
    v.line = f.line;
    v.bytes = f.bytes;
    v.count = f.count;
    v.decl_type = unqualified(f.value_type, 0);
    v.store_type = unqualified(f.value_type, 1);
    /* a const the spelling hides (a typedef): the local array's type would be const too */
    int hidden_const = f.const_value && !strcmp(v.store_type, v.decl_type) &&
                       strstr(v.decl_type, "const") == NULL;
    if (f.pointer || f.holds_pointer)
        refuse_pointer(b, var, f.name, f.line);
    else if (!f.movable || !named_type(v.decl_type) || !v.bytes || hidden_const || f.local_type)
        not_movable(b, f.name, f.type);
    f.name = NULL; /* the context's now */
    var_facts_free(&f);
    v.carried = read && (var_initialized(var) || set_later_in_prologue(b, var, declaring));
    VEC_PUSH(b->ctx->vars, b->ctx->nvars, b->ctx->capvars, v);
    if (v.carried)
        b->ctx->bytes += v.bytes;
}

/* Adds the variables the declaration statement decl declares (item: its prologue index). */
static void add_decl_vars(build *b, CXCursor decl, unsigned item)
{
    cursor_list vars = {0};
    decl_stmt_vars(decl, &vars);
    for (unsigned i = 0; i < vars.n; i++)
        add_var_of(b, vars.v[i], item);
    free(vars.v);
}

/* A parameter the prologue assigns and the rest uses: the leaves would see the old value. */
static int param_assigned(build *b)
{
    for (unsigned i = 0; i < b->ctx->at; i++) {
        const effects *fx = &b->k->top.items[i].fx;
        for (unsigned w = 0; w < fx->nwrites; w++) {
            CXCursor p = fx->writes[w];
            if (!is_param_decl(p) ||
                (!cursor_set_has(&b->after.reads, p) && !cursor_set_has(&b->after.writes, p)))
                continue;
            char *name = cursor_spelling(p);
            snprintf(b->ctx->why, sizeof b->ctx->why,
                     "the prologue assigns parameter '%s', which the rest of the kernel uses",
                     name);
            free(name);
            return 1;
        }
    }
    return 0;
}

/* `if (c) return;` and nothing else: an item it stops does nothing, the others run on. */
static int early_return_guard(const seq_item *it)
{
    const decision *d = it->decision;
    if (it->kind != ITEM_DECISION || !d || d->kind != DEC_IF || d->nbranches != 2)
        return 0;
    const branch *taken = &d->branches[0], *other = &d->branches[1];
    return taken->kind == BR_IF && taken->seq.n == 1 &&
           taken->seq.items[0].kind == ITEM_RETURN && other->kind == BR_IMPLICIT_ELSE &&
           other->seq.n == 0;
}

/*
 * The split decision after guard g that is no guard itself, when a statement between
 * them writes memory (which a condition may read back: only the context's classify
 * phase runs such a prologue before the conditions), else k->top.n.
 */
static unsigned past_guard(const kernel_info *k, const decision_plan *dp, unsigned g)
{
    int writes = 0;
    for (unsigned i = g + 1; i < k->top.n; i++) {
        const seq_item *it = &k->top.items[i];
        if (it->kind == ITEM_DECISION && it->decision && !decision_kept(dp, it->decision)) {
            if (!early_return_guard(it))
                return writes ? i : k->top.n;
            continue;
        }
        if (it->kind != ITEM_STMT && it->kind != ITEM_DECISION)
            break;
        writes |= (it->fx.bits & (EFF_MEM_WRITE | EFF_ATOMIC)) != 0;
    }
    return k->top.n;
}

/*
 * The first split decision at the top level, or k->top.n. An early-return guard
 * (`if (i >= n) return;`) followed by a prologue that writes memory, then a decision,
 * is passed over: the classify phase takes the guard before the prologue, as any
 * classifier does, the items it stops get no leaf, and the context sits at the
 * decision after the prologue (without the store in it the context stays at the guard,
 * as before).
 */
static unsigned first_decision(const kernel_info *k, const decision_plan *dp)
{
    for (unsigned i = 0; i < k->top.n; i++) {
        const seq_item *it = &k->top.items[i];
        if (it->kind == ITEM_DECISION && it->decision && !decision_kept(dp, it->decision)) {
            if (early_return_guard(it)) {
                unsigned after = past_guard(k, dp, i);
                if (after < k->top.n)
                    return after;
            }
            return i;
        }
        if (it->kind != ITEM_STMT && it->kind != ITEM_DECISION)
            return k->top.n;
    }
    return k->top.n;
}

/* A prologue statement that may leave the kernel early, or NULL (a guard, which the
 * classify phase takes, is none). */
static const seq_item *early_exit(const kernel_context *ctx, const kernel_info *k)
{
    for (unsigned i = 0; i < ctx->at; i++)
        if (!cursor_is_null(k->top.items[i].fx.hidden_exit) &&
            !early_return_guard(&k->top.items[i]))
            return &k->top.items[i];
    return NULL;
}

static void collect_vars(build *b)
{
    for (unsigned i = 0; i < b->ctx->at; i++) {
        const seq_item *it = &b->k->top.items[i];
        if (it->kind == ITEM_STMT)
            add_decl_vars(b, it->cursor, i);
    }
}

static void check_budget(build *b)
{
    kernel_context *ctx = b->ctx;
    unsigned long need = (unsigned long)ctx->bytes * ctx->wg;
    if (need <= CONTEXT_LOCAL_BUDGET)
        return;
    snprintf(ctx->why, sizeof ctx->why,
             "its context takes %u bytes an item, %lu bytes of local memory a work-group of %u: "
             "over the %u-byte budget",
             ctx->bytes, need, ctx->wg, CONTEXT_LOCAL_BUDGET);
    b->refused = 1;
}

void context_build(const analysis *an, const kernel_info *k, const decision_plan *dp,
                   unsigned wg, kernel_context *ctx, diag_sink *diag)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->wg = wg;
    ctx->at = first_decision(k, dp);
    if (ctx->at >= k->top.n) {
        snprintf(ctx->why, sizeof ctx->why, "no decision is split at the top level");
        return;
    }
    const seq_item *d = &k->top.items[ctx->at];
    ctx->point = d->range.begin;
    ctx->at_line = d->range.line;
    if (ctx->at == 0) {
        snprintf(ctx->why, sizeof ctx->why, "no statement comes before the decision");
        return;
    }
    ctx->prologue_begin_line = k->top.items[0].range.line;
    ctx->prologue_end_line = k->top.items[ctx->at - 1].range.end_line;
    const seq_item *exit = early_exit(ctx, k);
    if (exit) {
        snprintf(ctx->why, sizeof ctx->why,
                 "the statement at line %u may leave the kernel before the decision",
                 exit->range.line);
        return;
    }
    build b = {an, k, ctx, {{0}, {0}}, diag, 0};
    uses_of_seq(&b.after, &k->top, ctx->at);
    if (!param_assigned(&b)) {
        collect_vars(&b);
        if (!b.refused)
            check_budget(&b);
        ctx->active = !b.refused;
    }
    uses_free(&b.after);
}

int context_add_loop_vars(const analysis *an, const kernel_info *k, kernel_context *ctx,
                          CXCursor decl, const seq *s, unsigned from, const effects *extra,
                          diag_sink *diag)
{
    build b = {an, k, ctx, {{0}, {0}}, diag, 0};
    uses_of_seq(&b.after, s, from);
    if (extra)
        uses_of_fx(&b.after, extra);
    unsigned first = ctx->nvars;
    add_decl_vars(&b, decl, ~0u);
    for (unsigned i = first; i < ctx->nvars && !b.refused; i++) {
        ctx_var *v = &ctx->vars[i];
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(ctx->vars[j].name, v->name)) {
                snprintf(ctx->why, sizeof ctx->why,
                         "two variables named '%s' (lines %u and %u) would share one context "
                         "slot", v->name, ctx->vars[j].line, v->line);
                b.refused = 1;
            }
        if (!v->carried) { /* every loop variable moves: its value crosses iterations */
            v->carried = 1;
            ctx->bytes += v->bytes;
        }
    }
    uses_free(&b.after);
    return b.refused;
}

void context_free(kernel_context *ctx)
{
    for (unsigned i = 0; i < ctx->nvars; i++) {
        free(ctx->vars[i].name);
        free(ctx->vars[i].decl_type);
        free(ctx->vars[i].store_type);
    }
    free(ctx->vars);
    memset(ctx, 0, sizeof *ctx);
}

void tile_policy_set(tile_policy *p, double leaf_cost, unsigned leaves, unsigned bytes)
{
    p->leaf_cost = leaf_cost;
    p->leaves = leaves;
    p->bytes = bytes;
    p->saved = leaves > 1 ? leaf_cost * (1.0 - 1.0 / leaves) : 0.0;
    p->round_cost = regroup_round_of(bytes);
    p->regroup = p->saved >= p->round_cost ? 1 : -1;
}

void tile_policy_why(const tile_policy *p, int context, char *buf, unsigned size)
{
    char save[120], moved[48];
    if (p->leaves > 1)
        snprintf(save, sizeof save, "its leaves save about %.0f operations an item (the "
                                    "costliest, about %.0f, weighed by 1 - 1/%u)",
                 p->saved, p->leaf_cost, p->leaves);
    else
        snprintf(save, sizeof save, "one leaf does work: nothing to regroup");
    if (context)
        snprintf(moved, sizeof moved, "%u bytes of context", p->bytes);
    else
        snprintf(moved, sizeof moved, "the item's id");
    snprintf(buf, size, "%s, a regrouping round costs %.0f (%s moved twice, barriers, "
                        "counting)%s",
             save, p->round_cost, moved,
             p->regroup > 0 ? ": it pays" : ": the kernel's own body runs in place");
}

int context_in_prologue(const kernel_context *ctx, const seq_item *it)
{
    return ctx->active && it->range.end <= ctx->point;
}
