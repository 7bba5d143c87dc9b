/* SPDX-License-Identifier: Apache-2.0 */
/*
 * machine.c - part of the plan stage: the regrouping state machine on the
 * kernel IR (machine.h). Regroup points by cost (the divergent work a round
 * saves at a visit, each arm weighed by how often it runs, against the
 * round), at decisions of the kernel's text and of the helpers whose calls
 * can be inlined in the machine's text, the item's context (the variables of
 * the kernel and of its inlined helpers live at a regroup point, ir_live.h
 * where it covers them), a machine without regroup points where only refilling
 * pays (a loop whose trip count is data dependent), what keeps the contexts
 * in place (a pointer into private state, local memory) and what blocks the
 * machine (each at its construct, with its rule).
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "ir_live.h"
#include "regroup_rule.h"
#include "rules.h"
#include "util.h"

static int is_decision(const ir_node *n)
{
    return n->kind == IR_IF || n->kind == IR_SWITCH;
}


/* What the rule reads besides the IR (regroup_rule.h's facts), and liveness. */
typedef struct machine_facts {
    regroup_facts rf;         /* which arms leave their loop */
    const analysis *an;
    const kernel_info *k;
    const ir_kernel *ir;
    ir_live live;
    const unsigned char *subst; /* machine_plan.subst: helpers' parameters that stand for
                                 * their arguments */
} machine_facts;

static void facts_build(const analysis *an, const kernel_info *k, const unsigned char *subst,
                        machine_facts *f)
{
    memset(f, 0, sizeof *f);
    f->an = an;
    f->k = k;
    f->ir = k->ir;
    f->subst = subst;
    ir_live_build(an, k, &f->live);
    regroup_facts_build(an, k, &f->rf);
}

static void facts_free(machine_facts *f)
{
    regroup_facts_free(&f->rf);
    ir_live_free(&f->live);
}

/* The rule (regroup_rule.h): the divergent work a round at d saves at a visit. */
static double saved_at(const machine_facts *f, const ir_node *d, const unsigned char *chosen,
                       double *leaving)
{
    return regroup_saved_at(&f->rf, d, chosen, leaving);
}

/* The loops around n, a helper's loops around its call included (inlined at the call). */
static unsigned loops_around(const ir_node *n)
{
    unsigned k = 0;
    for (const ir_node *p = n->parent; p; p = p->parent)
        k += p->kind == IR_LOOP;
    return k;
}

/* Whether another variable of v's function is declared by v's declaration statement
 * (`float a, b;`). */
static int shares_declaration(const ir_kernel *ir, const ir_var *v)
{
    for (unsigned i = 0; i < ir->nvars; i++)
        if (&ir->vars[i] != v && ir->vars[i].frame == v->frame && ir->vars[i].decl_stmt.end &&
            ir->vars[i].decl_stmt.begin == v->decl_stmt.begin)
            return 1;
    return 0;
}

/* Whether variable v is dead while point p's helper runs: p sits in a helper whose call c
 * is in v's function, v's address is not taken, no parameter of c stands for it, and
 * every reference of v comes before c's statement or in c's arguments (copied into the
 * helper's parameters before it starts), with no loop around that statement inside v's
 * scope or declaring v (which could read v again). Its value is never read after p, so the
 * context does not keep it for p. */
static int dead_in_call(const ir_kernel *ir, const ir_var *v, const ir_node *p,
                        const unsigned char *subst)
{
    const ir_node *c = NULL;
    for (unsigned f = p->frame; f != 0 && !c; f = ir->nodes[f]->frame)
        if (ir->nodes[f]->frame == v->frame)
            c = ir->nodes[f];
    if (!c || (v->flags & IR_VAR_ADDR_TAKEN) || v->refs_hidden || v->scope >= ir->nnodes)
        return 0;
    if (v->decl_stmt.end && shares_declaration(ir, v)) /* one declaration, one status */
        return 0;
    const ir_node *st = c->parent, *scope = ir->nodes[v->scope];
    for (const ir_node *q = st; q; q = q->parent) { /* a for that declares v included */
        if (q->kind == IR_LOOP)
            return 0;
        if (q == scope)
            break;
    }
    for (unsigned r = 0; r < v->nrefs; r++) {
        const unsigned at = v->refs[r];
        if (at < st->range.begin)
            continue;
        int in_arg = 0;
        for (unsigned b = 0; b < c->call.nbinds && !in_arg; b++) {
            const ir_binding *bd = &c->call.binds[b];
            if (at >= bd->arg_range.begin && at < bd->arg_range.end) {
                if (subst[bd->var])
                    return 0; /* the helper names it */
                in_arg = 1;
            }
        }
        if (!in_arg)
            return 0;
    }
    return 1;
}

/* Whether variable vi is live at chosen point `node` as far as ir_live knows: its liveness
 * covers the kernel's own variables at the kernel's own statements (ir_live.h), not a
 * helper's variables nor the nodes of an inlined helper (it never walks a call's body).
 * There the helpers' rule holds alone: live wherever its scope holds the point, less
 * dead_in_call. */
static int live_at(const machine_facts *f, unsigned node, unsigned vi)
{
    if (f->ir->nodes[node]->frame != 0 || f->ir->vars[vi].frame != 0)
        return 1;
    return ir_live_at(&f->live, node, vi);
}

/* Whether variable v (index vi) is a local of the kernel or of an inlined helper (a
 * helper's parameters and return value included, not one that stands for its argument,
 * mp->subst) whose scope holds a chosen point where it is not dead while the point's
 * helper runs (dead_in_call) and (live) live: read on some path after the point before it
 * is set again (live_at). */
static int in_context_alone(const machine_facts *f, unsigned vi, const unsigned char *chosen,
                            int live)
{
    const ir_kernel *ir = f->ir;
    const ir_var *v = &ir->vars[vi];
    if ((v->frame == 0 && (v->flags & IR_VAR_PARAM)) || f->subst[vi])
        return 0;
    const ir_node *scope = v->scope < ir->nnodes ? ir->nodes[v->scope] : NULL;
    for (unsigned i = 0; scope && i < ir->nnodes; i++)
        if (chosen[i] && ir_holds(scope, ir->nodes[i]) &&
            !dead_in_call(ir, v, ir->nodes[i], f->subst) && (!live || live_at(f, i, vi)))
            return 1;
    return 0;
}

/* in_context_alone, or v shares its declaration statement with a variable that is in the
 * context (`int i, j;` with j kept): one declaration, one status, as the emitter turns the
 * whole statement into assignments of members (a declarator left out would lose its
 * declaration, GEGL noise-cell kernel_noise). */
static int in_context(const machine_facts *f, unsigned vi, const unsigned char *chosen, int live)
{
    const ir_kernel *ir = f->ir;
    const ir_var *v = &ir->vars[vi];
    if (in_context_alone(f, vi, chosen, live))
        return 1;
    if ((v->frame == 0 && (v->flags & IR_VAR_PARAM)) || f->subst[vi] || !v->decl_stmt.end)
        return 0;
    for (unsigned i = 0; i < ir->nvars; i++)
        if (i != vi && ir->vars[i].frame == v->frame && ir->vars[i].decl_stmt.end &&
            ir->vars[i].decl_stmt.begin == v->decl_stmt.begin &&
            in_context_alone(f, i, chosen, live))
            return 1;
    return 0;
}

static unsigned context_bytes(const machine_facts *f, const unsigned char *chosen, int live)
{
    const ir_kernel *ir = f->ir;
    unsigned bytes = 8; /* the state and the item */
    for (unsigned i = 0; i < ir->nnodes; i++)
        bytes += chosen[i] && ir->nodes[i]->kind == IR_SWITCH ? 8 : 0;
    for (unsigned i = 0; i < ir->nvars; i++)
        if (in_context(f, i, chosen, live) && ir->vars[i].size > 0)
            bytes += (unsigned)((ir->vars[i].size + 3) / 4 * 4);
    return bytes;
}

static double round_cost_of(unsigned bytes)
{
    return regroup_round_of(bytes);
}

/* Chooses the regroup points under round (innermost first) among the candidates
 * (cand[] by node id): chosen[] by node id. */
static void choose(const machine_facts *f, double round, const unsigned char *cand,
                   unsigned char *chosen)
{
    const ir_kernel *ir = f->ir;
    memset(chosen, 0, ir->nnodes);
    for (unsigned i = ir->nnodes; i-- > 0;) {
        if (!cand[i])
            continue;
        if (saved_at(f, ir->nodes[i], chosen, NULL) >= round)
            chosen[i] = 1;
    }
}

/* Whether v's declaration statement declares v alone and ends in its ';' (not a for's
 * init): an array's initialiser can then fill a temporary the member copies. */
static int alone_in_statement(const analysis *an, const ir_kernel *ir, const ir_var *v)
{
    if (shares_declaration(ir, v))
        return 0;
    for (unsigned i = 0; i < ir->nnodes; i++)
        if (ir->nodes[i]->kind == IR_LOOP && ir->nodes[i]->init_range.end > 0 &&
            ir->nodes[i]->init_range.begin == v->decl_stmt.begin)
            return 0;
    const char *t = an->pr->files[v->decl_stmt.file].text;
    return v->decl_stmt.end > v->decl_stmt.begin && t[v->decl_stmt.end - 1] == ';';
}

static void add_blocker(machine_plan *mp, src_range at, const char *rule, const char *fmt,
                        const char *name)
{
    machine_blocker b;
    memset(&b, 0, sizeof b);
    b.at = at;
    char msg[200];
    snprintf(msg, sizeof msg, fmt, name);
    snprintf(b.msg, sizeof b.msg, "%s [%s]", msg, rule);
    unsigned cap = mp->nblockers;
    VEC_PUSH(mp->blockers, mp->nblockers, cap, b);
}

/* The type spelling without its top-level const ("const int" -> "int"). */
static char *unconst(const char *type)
{
    char *t = xstrdup(type);
    char *pv;
    while ((pv = strstr(t, "__private")) != NULL) { /* a local's address space, as spelled */
        size_t skip = 9 + (pv[9] == ' ');
        memmove(pv, pv + skip, strlen(pv + skip) + 1);
    }
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ')
        t[--n] = '\0';
    if (!strchr(t, '*') && !strncmp(t, "const ", 6))
        memmove(t, t + 6, n - 5);
    n = strlen(t);
    if (n > 6 && !strcmp(t + n - 6, " const"))
        t[n - 6] = '\0';
    return t;
}

/* "float t", "int stack[16]": the member's declaration from the type's spelling. */
static char *member_decl(const char *type, const char *member)
{
    char *t = unconst(type);
    strbuf sb;
    sb_init(&sb);
    char *br = strchr(t, '[');
    if (br) {
        size_t n = (size_t)(br - t);
        while (n && t[n - 1] == ' ')
            n--;
        sb_putn(&sb, t, n);
        sb_printf(&sb, " %s%s", member, br);
    } else {
        sb_printf(&sb, "%s%s%s", t, t[0] && t[strlen(t) - 1] == '*' ? "" : " ", member);
    }
    free(t);
    return sb_steal(&sb);
}

/* A pointer whose type names no address space points into private memory. */
static int private_pointer(const ir_var *v)
{
    if (!(v->flags & IR_VAR_POINTER))
        return 0;
    static const char *const spaces[] = {"global", "constant", "local"};
    for (unsigned i = 0; i < 3; i++)
        if (strstr(v->type, spaces[i]))
            return 0;
    return 1;
}

static const char *bare(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

/* ---- helpers cut at their calls -------------------------------------------------------
 * A decision inside an inlined helper (an IR_CALL frame) is a candidate when each call
 * from the kernel down to it can be inlined in the machine's text (machine_emit.c): its
 * statement is the place the helper's body goes before, its arguments and its returns
 * are plain text of its function. */

/* The text of frame f: the kernel's body, or the inlined helper's (NULL: none). */
static const ir_node *frame_body(const ir_kernel *ir, unsigned f)
{
    return f == 0 ? ir->root : ir->nodes[f]->nkids ? ir->nodes[f]->kids[0] : NULL;
}

/* Whether call c's helper can be inlined at c; why not in why. */
static int call_inlinable(const analysis *an, const ir_kernel *ir, const unsigned char *subst,
                          const ir_node *c, char *why, size_t n)
{
    const ir_node *caller = frame_body(ir, c->frame), *body = frame_body(ir, c->id);
    const char *text = caller ? an->pr->files[caller->range.file].text : NULL;
    if (!body || !caller) {
        snprintf(why, n, "its body is not known");
        return 0;
    }
    if (c->call.guarded) {
        snprintf(why, n, "it is called on a condition (an arm of ?:, the right of &&, || or "
                 "','): its body cannot go before the statement");
        return 0;
    }
    if (c->parent->kind == IR_LOOP) {
        snprintf(why, n, "it is called in a loop's condition, init or step: its body cannot "
                 "go before the statement");
        return 0;
    }
    size_t len = strlen(c->call.name);
    int macro = c->range.file != caller->range.file || c->range.end <= c->range.begin ||
                strncmp(text + c->range.begin, c->call.name, len) != 0 ||
                c->parent->range.file != c->range.file ||
                body->range.file >= an->pr->nfiles ||
                an->pr->files[body->range.file].text[body->range.begin] != '{';
    for (unsigned i = 0; i < c->call.nbinds && !macro; i++) {
        const src_range *a = &c->call.binds[i].arg_range;
        macro = a->file != c->range.file || a->begin < c->range.begin || a->end > c->range.end ||
                a->end <= a->begin;
    }
    if (macro) {
        snprintf(why, n, "the call or the helper's body is spelled by a macro: it cannot be "
                 "inlined as text");
        return 0;
    }
    for (unsigned i = 0; i < ir->nvars; i++) { /* `float a = 1, b = h(a);`: `a` comes too late */
        const ir_var *w = &ir->vars[i];
        if (w->frame != c->frame || !w->decl_stmt.end ||
            w->decl_stmt.begin != c->parent->range.begin)
            continue;
        for (unsigned r = 0; r < w->nrefs; r++)
            if (w->refs[r] >= c->range.begin && w->refs[r] < c->range.end) {
                snprintf(why, n, "its argument names '%s', declared by the same statement: the "
                         "helper's text cannot go before it", bare(w->name));
                return 0;
            }
    }
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if (v->frame != c->id || v->macro_own) /* a macro's temporary goes as written */
            continue;
        if (v->refs_hidden) {
            snprintf(why, n, "its variable '%s' is named inside a macro's own text: it cannot "
                     "be renamed", bare(v->name));
            return 0;
        }
        if ((v->flags & IR_VAR_PARAM) && (v->flags & IR_VAR_ARRAY) && !subst[i]) {
            snprintf(why, n, "its array parameter '%s' is bound to an expression, not to an "
                     "array of the caller (`a`, `&a`): it cannot become a variable",
                     bare(v->name));
            return 0;
        }
        if (!(v->flags & (IR_VAR_PARAM | IR_VAR_RETURN)) && !v->decl_stmt.end) {
            snprintf(why, n, "the declaration of its variable '%s' is not a plain declaration "
                     "statement", bare(v->name));
            return 0;
        }
    }
    const char *btext = an->pr->files[body->range.file].text;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *r = ir->nodes[i];
        if (r->kind != IR_RETURN || r->frame != c->id)
            continue;
        if (r->range.file != body->range.file || r->range.end <= r->range.begin + 6 ||
            strncmp(btext + r->range.begin, "return", 6) != 0 || btext[r->range.end - 1] != ';') {
            snprintf(why, n, "its return at line %u is spelled by a macro", r->line);
            return 0;
        }
    }
    return 1;
}

/* Whether frame f can be cut: each call from the kernel down to it inlinable; else the
 * reason and the call it stops at. */
static int frame_inlinable(const analysis *an, const ir_kernel *ir, const unsigned char *subst,
                           unsigned f, char *why, size_t n, const ir_node **at)
{
    for (; f != 0; f = ir->nodes[f]->frame)
        if (!call_inlinable(an, ir, subst, ir->nodes[f], why, n)) {
            *at = ir->nodes[f];
            return 0;
        }
    return 1;
}

static int is_ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* An argument that names a private object's address as is: `&x`, `x`, `(&x)`. */
static int plain_address(const char *t, unsigned begin, unsigned end)
{
    while (begin < end && (t[begin] == '(' || t[begin] == ' '))
        begin++;
    while (end > begin && (t[end - 1] == ')' || t[end - 1] == ' '))
        end--;
    if (begin < end && t[begin] == '&')
        begin++;
    while (begin < end && t[begin] == ' ')
        begin++;
    if (begin == end || (t[begin] >= '0' && t[begin] <= '9'))
        return 0;
    for (unsigned i = begin; i < end; i++)
        if (!is_ident_char(t[i]))
            return 0;
    return 1;
}

/* The variable of frame a reference inside [begin, end) names, or -1. */
static int named_in(const ir_kernel *ir, unsigned frame, unsigned begin, unsigned end)
{
    for (unsigned i = 0; i < ir->nvars; i++) {
        if (ir->vars[i].frame != frame)
            continue;
        for (unsigned r = 0; r < ir->vars[i].nrefs; r++)
            if (ir->vars[i].refs[r] >= begin && ir->vars[i].refs[r] < end)
                return (int)i;
    }
    return -1;
}

/* The helpers' parameters that stand for their argument (subst[] by variable), each never
 * changed by the helper nor its address taken: a pointer to a private object of the
 * caller, `&x` or an array (so no pointer into private memory is kept in the context),
 * or a variable of the caller of the parameter's type whose address is not taken (its
 * value cannot change while the helper runs). Inlined, each reference is the argument. */
static void mark_subst(const analysis *an, const ir_kernel *ir, unsigned char *subst)
{
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *c = ir->nodes[i];
        if (c->kind != IR_CALL || !c->nkids)
            continue;
        const char *ct = an->pr->files[c->range.file].text;
        const char *bt = an->pr->files[c->kids[0]->range.file].text;
        for (unsigned b = 0; b < c->call.nbinds; b++) {
            const ir_binding *bd = &c->call.binds[b];
            const ir_var *v = &ir->vars[bd->var];
            if ((v->flags & (IR_VAR_WRITTEN | IR_VAR_ADDR_TAKEN)) || bd->arg_range.end == 0 ||
                !plain_address(ct, bd->arg_range.begin, bd->arg_range.end))
                continue;
            if (bd->points_to < 0 || !(v->flags & (IR_VAR_POINTER | IR_VAR_ARRAY))) { /* a value */
                unsigned k = bd->arg_range.begin;
                while (k < bd->arg_range.end && (ct[k] == '(' || ct[k] == ' '))
                    k++;
                int w = ct[k] == '&' ? -1
                                     : named_in(ir, c->frame, bd->arg_range.begin,
                                                bd->arg_range.end);
                if (w < 0 || (ir->vars[w].flags & IR_VAR_ADDR_TAKEN))
                    continue;
                char *tv = unconst(v->type), *tw = unconst(ir->vars[w].type);
                int same = !strcmp(tv, tw);
                free(tv);
                free(tw);
                if (!same)
                    continue;
            }
            int writes = 0;
            for (unsigned r = 0; r < v->nrefs && !writes; r++)
                writes = regroup_ref_writes(bt, v->refs[r], strlen(bare(v->name)));
            subst[bd->var] = !writes;
        }
    }
}

/* The 1-based column of r's start. */
static unsigned column_of(const analysis *an, src_range r)
{
    const char *t = an->pr->files[r.file].text;
    unsigned col = 1;
    for (unsigned o = r.begin; o > 0 && t[o - 1] != '\n'; o--)
        col++;
    return col;
}

static void note_left(const machine_facts *f, const ir_node *n, const unsigned char *chosen,
                      double round, machine_plan *mp)
{
    const ir_kernel *ir = f->ir;
    const analysis *an = f->an;
    machine_left l;
    char cut[160];
    const ir_node *at = NULL;
    memset(&l, 0, sizeof l);
    l.node = n->id;
    l.line = n->line;
    double res = regroup_residual(ir, n, chosen);
    const ir_node *inner = NULL;
    for (unsigned i = n->id + 1; i < ir->nnodes && !inner; i++)
        if (chosen[i] && regroup_in_arm(n, ir->nodes[i]))
            inner = ir->nodes[i];
    if (n->cond.divergence != DIV_DATA)
        snprintf(l.why, sizeof l.why, "%s: every item of a SIMD group takes the same arm "
                 "(or only the groups at a border differ)", div_class_name(n->cond.divergence));
    else if (n->frame != 0 && !frame_inlinable(an, ir, mp->subst, n->frame, cut, sizeof cut, &at))
        snprintf(l.why, sizeof l.why, "in helper '%s' called at %s:%u:%u: it cannot be "
                 "inlined there (%s)", at->call.name, an->pr->files[at->range.file].path,
                 at->line, column_of(an, at->range), cut);
    else {
        /* the round it would pay: the context with it a regroup point too */
        unsigned char *with = xcalloc(ir->nnodes, 1);
        memcpy(with, chosen, ir->nnodes);
        with[n->id] = 1;
        round = round_cost_of(context_bytes(f, with, 1));
        free(with);
        double leaving, saved = saved_at(f, n, chosen, &leaving);
        l.cheap = 1;
        l.saved = saved;
        l.round = round;
        const ir_node *loop = regroup_loop_of(n);
        double *left = xcalloc(n->narms ? n->narms : 1, sizeof *left);
        regroup_arms_left(ir, n, chosen, left);
        unsigned costliest = 0;
        for (unsigned a = 1; a < n->narms; a++)
            if (left[a] > left[costliest])
                costliest = a;
        int costly_leaves = loop && n->narms && f->rf.leaves[n->id][costliest] && left[costliest] > 0;
        free(left);
        if (inner)
            snprintf(l.why, sizeof l.why, "the regroup point inside it (line %u) regroups its "
                     "costly part; the rest saves about %.0f operations a visit (its costliest "
                     "arm about %.0f), less than a round (about %.0f)", inner->line, saved, res,
                     round);
        else if (costly_leaves)
            snprintf(l.why, sizeof l.why, "its costly arm leaves the loop at line %u: it runs "
                     "once an item (about %.0f operations, %.0f a visit over %.0f trips), "
                     "against a round at every iteration (about %.0f); its arms save about "
                     "%.0f a visit", loop->line, res, leaving ? res / regroup_trips_of(loop) : 0,
                     regroup_trips_of(loop), round, saved);
        else
            snprintf(l.why, sizeof l.why, "cheap against a round: its arms save about %.0f "
                     "operations a visit (its costliest arm about %.0f, which the lanes of the "
                     "other %u arm%s wait for), a regrouping round about %.0f", saved, res,
                     n->narms > 1 ? n->narms - 1 : 1, n->narms > 2 ? "s" : "", round);
    }
    unsigned cap = mp->nleft;
    VEC_PUSH(mp->left, mp->nleft, cap, l);
}

/*
 * A machine without regroup points (issue 28 item 3): where no decision pays for a round
 * but refilling alone pays for a loop of the kernel's own text (regroup_refill_pays: its
 * trip count is data dependent, its iterations read no global memory, half its work
 * reaches a refill), each lane runs its items to their ends one after the other and takes
 * the next item of the tile (refill only). The costliest such loop. Only for a kernel
 * whose decisions all sit in loops (the top-level tile splits the others). 1: built; 0
 * with mp->why saying why refilling does not pay either.
 */
static int refill_machine(const machine_facts *f, machine_plan *mp)
{
    const ir_kernel *ir = f->ir;
    if (!f->k->loop_only)
        return 0;
    const ir_node *best = NULL, *shown = NULL; /* shown: why the costliest loop whose trip
                                                 * count is data dependent does not pay */
    double waits = 0, refill = 0;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *l = ir->nodes[i];
        if (l->kind != IR_LOOP || l->frame != 0)
            continue;
        double w, r;
        refill_verdict v = regroup_refill_pays(&f->rf, l, &w, &r, NULL, 0);
        if (v == REFILL_PAYS && (!best || l->cost > best->cost))
            best = l, waits = w, refill = r;
        else if (v != REFILL_PAYS && v != REFILL_EVEN_TRIPS && (!shown || l->cost > shown->cost))
            shown = l;
    }
    if (!best) {
        if (shown) {
            char why[400];
            double w, r;
            regroup_refill_pays(&f->rf, shown, &w, &r, why, sizeof why);
            snprintf(mp->why, sizeof mp->why, "no decision pays for a regrouping round, and "
                     "refilling does not pay either: %s", why);
        }
        return 0;
    }
    mp->refill_loop = best->id + 1;
    mp->ngroups = 1;
    mp->bytes = mp->bytes_scope = 8;
    mp->round_cost = refill;
    mp->arm_cost = waits;
    mp->in_place = 1;
    snprintf(mp->in_place_why, sizeof mp->in_place_why,
             "no regroup point: no decision pays for a round, but the loop at line %u runs a "
             "data-dependent number of trips (about %.0f operations an item; a lane waits "
             "about %.0f for its group's longest item, a refill costs about %.0f): each lane "
             "runs its items to their ends and takes the next (refill only)",
             best->line, best->cost, waits, refill);
    mp->active = 1;
    return 1;
}

/*
 * A machine without regroup points that runs with regrouping off (-1): in a kernel whose
 * decisions all sit in loops, where the cost rule alone declines (every data decision of
 * the kernel's text left as written is cheap against a round, and refilling does not pay:
 * refill_machine's mp->why), the set still carries a tile kernel: the kernel's own body in
 * place (tile-in-place), as the loop kernel's policy -1. A forced policy has nothing to
 * regroup with: each lane runs its items to their ends (refill only, in place). The
 * costliest loop of the kernel's text counts the trips a forced refill probes with. 1:
 * built; 0: a reason that is not cost (a helper that cannot be inlined, no data decision).
 */
static int off_machine(const machine_facts *f, machine_plan *mp)
{
    const ir_kernel *ir = f->ir;
    if (!f->k->loop_only)
        return 0;
    unsigned cheap = 0;
    for (unsigned i = 0; i < mp->nleft; i++) {
        if (ir->nodes[mp->left[i].node]->cond.divergence != DIV_DATA)
            continue;
        if (!mp->left[i].cheap)
            return 0;
        cheap++;
    }
    if (!cheap)
        return 0;
    const ir_node *best = NULL;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *l = ir->nodes[i];
        if (l->kind == IR_LOOP && l->frame == 0 && (!best || l->cost > best->cost))
            best = l;
    }
    mp->refill_loop = best ? best->id + 1 : 0;
    mp->ngroups = 1;
    mp->bytes = mp->bytes_scope = 8;
    mp->regroup = -1;
    mp->in_place = 1;
    snprintf(mp->in_place_why, sizeof mp->in_place_why,
             "no regroup point: no decision pays for a round, %s: regrouping off (the kernel's "
             "own body in place); a forced policy has nothing to regroup with and runs as 0 "
             "(each lane runs its items to their ends and takes the next)",
             mp->why[0] ? "and refilling does not pay either" : "nor does refilling");
    mp->active = 1;
    return 1;
}

void machine_build(const analysis *an, const kernel_info *k, unsigned wg, machine_plan *mp)
{
    memset(mp, 0, sizeof *mp);
    const ir_kernel *ir = k->ir;
    if (!ir || !ir->root || !ir->nnodes)
        return;
    unsigned char *chosen = xcalloc(ir->nnodes, 1), *cand = xcalloc(ir->nnodes, 1);
    mp->subst = xcalloc(ir->nvars ? ir->nvars : 1, 1);
    const unsigned char *subst = mp->subst;
    mark_subst(an, ir, mp->subst);
    machine_facts f;
    facts_build(an, k, subst, &f);
    /* the candidates: the data decisions of the kernel's text and of the helpers whose
     * calls, from the kernel down, can be inlined */
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        char why[160];
        const ir_node *at;
        cand[i] = is_decision(n) && n->cond.divergence == DIV_DATA &&
                  frame_inlinable(an, ir, subst, n->frame, why, sizeof why, &at);
    }
    /* two passes: the round's cost depends on the context, the context on the points */
    memcpy(chosen, cand, ir->nnodes);
    double round = round_cost_of(context_bytes(&f, chosen, 1));
    choose(&f, round, cand, chosen);
    round = round_cost_of(context_bytes(&f, chosen, 1));
    choose(&f, round, cand, chosen);
    /* the second pass's context can be larger than the one it chose under: drop the points
     * that do not pay for the final round (a smaller context only lowers it) */
    for (int dropped = 1; dropped;) {
        round = round_cost_of(context_bytes(&f, chosen, 1));
        dropped = 0;
        for (unsigned i = ir->nnodes; i-- > 0;)
            if (chosen[i] && saved_at(&f, ir->nodes[i], chosen, NULL) < round)
                chosen[i] = 0, dropped = 1;
    }
    free(cand);
    mp->bytes = context_bytes(&f, chosen, 1);
    mp->bytes_scope = context_bytes(&f, chosen, 0);
    mp->round_cost = round_cost_of(mp->bytes);
    unsigned in_loop = 0;
    double most_saved = 0;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        if (!is_decision(n))
            continue;
        if (!chosen[i]) {
            note_left(&f, n, chosen, mp->round_cost, mp);
            continue;
        }
        machine_point p;
        memset(&p, 0, sizeof p);
        p.node = i;
        p.line = n->line;
        p.first = mp->ngroups;
        p.narms = n->narms;
        p.cost = regroup_residual(ir, n, chosen);
        p.saved = saved_at(&f, n, chosen, NULL);
        p.depth = loops_around(n);
        in_loop += p.depth > 0;
        mp->ngroups += p.narms;
        if (p.cost > mp->arm_cost)
            mp->arm_cost = p.cost;
        if (p.saved > most_saved)
            most_saved = p.saved;
        unsigned cap = mp->npoints;
        VEC_PUSH(mp->points, mp->npoints, cap, p);
        const unsigned file = frame_body(ir, n->frame)->range.file;
        if (n->cond.range.file != file || n->cond.range.end <= n->cond.range.begin ||
            n->range.file != file || n->kids[0]->range.file != n->range.file)
            add_blocker(mp, n->range, rule_name(RULE_MACRO_DECISION),
                        "the regroup point%s is spelled by a macro: its arms cannot be cut", "");
    }
    if (!mp->npoints && (refill_machine(&f, mp) || off_machine(&f, mp))) {
        free(chosen);
        facts_free(&f);
        return;
    }
    if (!mp->npoints || !in_loop) {
        int helper = 0; /* a data decision of a helper the machine could inline */
        for (unsigned i = 0; i < ir->nnodes; i++)
            helper |= is_decision(ir->nodes[i]) && ir->nodes[i]->frame != 0 &&
                      ir->nodes[i]->cond.divergence == DIV_DATA;
        if (!mp->why[0] || mp->npoints)
            snprintf(mp->why, sizeof mp->why, "%s",
                     mp->npoints ? "no regroup point sits inside a loop: the tile splits the "
                                   "kernel's top level"
                     : helper    ? "no data-dependent decision of the kernel's text or of a "
                                   "helper it calls saves the work of a regrouping round"
                                 : "no data-dependent decision of the kernel's own text saves "
                                   "the work of a regrouping round");
        if (!mp->npoints)
            mp->why[0] = mp->nleft ? mp->why[0] : '\0';
        free(chosen);
        facts_free(&f);
        return;
    }
    if (ir->truncated)
        add_blocker(mp, ir->root->range, rule_name(RULE_UNSUPPORTED),
                    "helpers nested too deep to inline%s", "");
    /* the context: the variables of the kernel and of its inlined helpers live at a
     * regroup point (in_context) */
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if (v->frame == 0 && (v->flags & IR_VAR_PARAM) && (v->flags & IR_VAR_WRITTEN))
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "parameter '%s' is assigned in the body: an item's copy of a parameter "
                        "does not move with its context", v->name);
        if (!in_context(&f, i, chosen, 1))
            continue;
        const int bound = v->frame != 0 && (v->flags & (IR_VAR_PARAM | IR_VAR_RETURN));
        if (bound)
            ; /* a helper's parameter or return value: set at the call, no declaration */
        else if (v->refs_hidden)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "variable '%s' is named inside a macro's own text: it cannot be "
                        "renamed into the item's context", v->name);
        else if (!v->decl_stmt.end)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "the declaration of '%s' is not a plain declaration statement", v->name);
        else if ((v->flags & IR_VAR_ARRAY) && v->init.end > v->init.begin &&
                 !alone_in_statement(an, ir, v))
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "array '%s' has an initialiser and shares its declaration statement: a "
                        "declaration cannot become an assignment", v->name);
        else if (v->size <= 0)
            add_blocker(mp, v->range, rule_name(RULE_LOOP_STATE),
                        "variable '%s' has a type of unknown size", v->name);
        if (private_pointer(v) && !mp->in_place)
            snprintf(mp->in_place_why, sizeof mp->in_place_why,
                     "pointer '%s' (line %u) may point into the item's private state, which "
                     "cannot move to another lane: each item stays in its lane (refill only)",
                     v->name, v->range.line);
        mp->in_place |= private_pointer(v);
        machine_var mv;
        memset(&mv, 0, sizeof mv);
        mv.var = i;
        unsigned same = 0;
        for (unsigned j = 0; j < mp->nvars; j++)
            same += !strcmp(bare(ir->vars[mp->vars[j].var].name), bare(v->name));
        strbuf sb;
        sb_init(&sb);
        if (v->flags & IR_VAR_RETURN)
            sb_printf(&sb, "nplus1_ret%u", v->frame);
        else
            sb_puts(&sb, bare(v->name));
        if (same && !(v->flags & IR_VAR_RETURN))
            sb_printf(&sb, "_nplus1_%u", i);
        mv.member = sb_steal(&sb);
        mv.decl = member_decl(v->type, mv.member);
        if ((v->flags & IR_VAR_ARRAY) && v->init.end > v->init.begin)
            mv.init_decl = member_decl(v->type, "nplus1_init");
        unsigned cap = mp->nvars;
        VEC_PUSH(mp->vars, mp->nvars, cap, mv);
    }
    free(chosen);
    facts_free(&f);
    if ((unsigned long)mp->bytes * wg > MACHINE_LOCAL_BUDGET && !mp->in_place) {
        mp->in_place = 1;
        snprintf(mp->in_place_why, sizeof mp->in_place_why,
                 "its context takes %u bytes an item, %lu a work-group of %u: over the %u-byte "
                 "budget of local memory, so each item stays in its lane (refill only)",
                 mp->bytes, (unsigned long)mp->bytes * wg, wg, MACHINE_LOCAL_BUDGET);
    }
    mp->regroup = mp->in_place ? 0 : most_saved >= mp->round_cost;
    if (mp->nblockers) {
        snprintf(mp->why, sizeof mp->why, "%u blocker%s of the state machine (below)",
                 mp->nblockers, mp->nblockers > 1 ? "s" : "");
        return;
    }
    mp->active = 1;
}

const machine_point *machine_group(const machine_plan *mp, unsigned g, unsigned *arm)
{
    for (unsigned i = 0; i < mp->npoints; i++)
        if (g >= mp->points[i].first && g < mp->points[i].first + mp->points[i].narms) {
            *arm = g - mp->points[i].first;
            return &mp->points[i];
        }
    *arm = 0;
    return NULL;
}

char *machine_group_text(const analysis *an, const kernel_info *k, const machine_plan *mp,
                         unsigned g)
{
    (void)an;
    unsigned arm;
    const machine_point *p = machine_group(mp, g, &arm);
    strbuf sb;
    sb_init(&sb);
    if (!p && mp->refill_loop && g == 0)
        sb_printf(&sb, "loop at line %u: each item to its end (no regroup point, %s)",
                  k->ir->nodes[mp->refill_loop - 1]->line,
                  mp->regroup < 0 ? "regrouping off; refill only when forced" : "refill only");
    else if (!p && g == 0)
        sb_puts(&sb, "each item to its end (no regroup point, regrouping off; refill only "
                     "when forced)");
    if (!p)
        return sb_steal(&sb);
    const ir_node *n = k->ir->nodes[p->node];
    if (n->kind == IR_IF) {
        sb_printf(&sb, "if at line %u: %s", p->line,
                  arm == 0 ? "then" : n->arms[1].implicit ? "no branch (implicit else)" : "else");
    } else {
        const ir_arm *a = &n->arms[arm];
        sb_printf(&sb, "switch at line %u: %s", p->line,
                  a->implicit ? "no case (implicit default)"
                  : a->labels ? a->labels
                              : "default");
    }
    return sb_steal(&sb);
}

void machine_free(machine_plan *mp)
{
    for (unsigned i = 0; i < mp->nvars; i++) {
        free(mp->vars[i].member);
        free(mp->vars[i].decl);
        free(mp->vars[i].init_decl);
    }
    free(mp->vars);
    free(mp->subst);
    free(mp->points);
    free(mp->left);
    free(mp->blockers);
    memset(mp, 0, sizeof *mp);
}
