/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_tree.c - a kernel's structured control flow for the profile
 * (profile.h), read from the kernel IR (ir.h): its decisions and loops,
 * those of the helpers it calls where the IR inlines them, the cost
 * model's cost of every region, and the edits that make the instrumented
 * copy record each item's path (applied by profile_emit.c). Where the text
 * sits and whether a macro writes it comes from ir_src.h; no cursor is read
 * here. It reports nothing itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "divergence.h"
#include "profile_build.h"
#include "util.h"

typedef struct tctx {
    const analysis *an;
    profile_kernel *pk;
    const ir_kernel *ir;
    int parent;               /* the enclosing construct */
    const decision **decs;    /* the analysis's decisions, to read their classes */
    unsigned ndecs, capdecs;
    /* the function being built: the kernel, or a helper at one of its calls */
    int clone;                /* -1: the kernel (edits to the input file), else its clone */
    int emit;                 /* add the edits (a clone's: the first time it is built) */
    const char *rec;          /* the recorder, as the function's text names it */
    const ir_node *call;      /* the call node, NULL in the kernel */
    int chain;                /* the if whose else arm is being built, when that arm is an if
                               * (an else-if chain: one decision of the analysis), else -1 */
    char *err;                /* why it cannot be recorded: the kernel's, or the helper's */
    size_t errlen;
} tctx;

static int fail(tctx *x, unsigned line, const char *why)
{
    if (!x->err[0])
        snprintf(x->err, x->errlen, "line %u: %s", line, why);
    return -1;
}

static void add_edit_full(tctx *x, unsigned at, const char *text, unsigned skip, int early)
{
    if (!x->emit)
        return;
    profile_kernel *pk = x->pk;
    pedit e = {at, pk->nedits, xstrdup(text), skip, x->clone, early};
    VEC_PUSH(pk->edits, pk->nedits, pk->capedits, e);
}

static void add_edit(tctx *x, unsigned at, const char *text)
{
    add_edit_full(x, at, text, 0, 0);
}

/* How the node's accesses coalesce (the analysis's classes: traffic.h). A region read as
 * one (ir_src_stmt_accesses) has none: its accesses are a sector each. */
static void set_traffic(pnode *nd, const access_traffic *t)
{
    nd->coalesced = t->coalesced;
    nd->coalesced_bytes = t->coalesced_bytes;
    nd->broadcast = t->broadcast;
}

static pnode *push_node(pseq *s, pnode_kind kind)
{
    pnode n;
    memset(&n, 0, sizeof n);
    n.kind = kind;
    VEC_PUSH(s->v, s->n, s->cap, n);
    return &s->v[s->n - 1];
}

static void seq_free(pseq *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        for (unsigned a = 0; a < s->v[i].narms; a++)
            seq_free(&s->v[i].arms[a]);
        free(s->v[i].arms);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

static const decision *find_decision(tctx *x, unsigned offset)
{
    for (unsigned i = 0; i < x->ndecs; i++)
        if (x->decs[i]->range.file == 0 && x->decs[i]->range.begin == offset)
            return x->decs[i];
    return NULL;
}

static unsigned add_construct(tctx *x, const ir_node *n, pnode_kind kind, const char *what,
                              unsigned narms)
{
    ptree *t = &x->pk->tree;
    pconstruct pc;
    memset(&pc, 0, sizeof pc);
    pc.kind = kind;
    pc.what = what;
    pc.line = n->line;
    pc.offset = n->range.begin;
    pc.narms = narms;
    pc.parent = x->parent;
    pc.divergence = -1;
    if (x->call) { /* a helper's: the IR's class at this call */
        snprintf(pc.helper, sizeof pc.helper, "%s", x->call->call.name);
        pc.call_line = x->call->line;
        if (kind != PN_LOOP)
            pc.divergence = n->cond.divergence;
    } else {
        const decision *d = kind == PN_LOOP ? NULL : find_decision(x, n->range.begin);
        if (d) {
            pc.divergence = d->divergence;
            pc.split = x->pk->planned && !decision_kept(x->pk->planned, d) &&
                       (x->parent < 0 || t->c[x->parent].split);
        } else if (kind == PN_IF && x->chain >= 0 && x->chain == x->parent) {
            /* an else-if: the analysis reads the chain as one decision (cond_tree.c), found
             * at its first if; the split regroups by each of its tests */
            pc.divergence = t->c[x->chain].divergence;
            pc.split = t->c[x->chain].split;
        }
    }
    VEC_PUSH(t->c, t->nc, t->capc, pc);
    return t->nc - 1;
}

static int build_node(tctx *x, const ir_node *n, pseq *out);

static int build_arm(tctx *x, const ir_node *n, pseq *arm, unsigned construct)
{
    int saved = x->parent;
    x->parent = (int)construct;
    int rc = n ? build_node(x, n, arm) : 0;
    x->parent = saved;
    return rc;
}

static int cond_range(tctx *x, const ir_node *n, src_range *r)
{
    if (ir_src_cond(x->an, n, r) != 0)
        return fail(x, n->cond.range.line ? n->cond.range.line : n->line,
                    "a condition written by a macro cannot be instrumented");
    return 0;
}

/* ---- helpers: recorded where they are called ------------------------------------------ */

static int find_clone(const profile_kernel *pk, unsigned begin)
{
    for (unsigned i = 0; i < pk->nclones; i++)
        if (pk->clones[i].src.def.begin == begin)
            return (int)i;
    return -1;
}

/* Is the call inside r (a loop's init, condition or step)? */
static int within(const ir_node *call, src_range r)
{
    return call->range.file == r.file && call->range.begin >= r.begin &&
           call->range.end <= r.end && r.end > r.begin;
}

static void unrecorded(tctx *x, const ir_node *call, const char *why)
{
    profile_kernel *pk = x->pk;
    if (!pk->unrecorded++)
        snprintf(pk->unrecorded_why, sizeof pk->unrecorded_why, "helper '%s' called at line %u: "
                 "%s", call->call.name, call->line, why);
}

/* The clone's own edits: its name, the recorder as the first parameter, the switch temp. */
static void clone_header(tctx *x, const ir_helper_src *h)
{
    add_edit(x, h->name_begin, "__nplus1_");
    if (h->nparams)
        add_edit(x, h->lparen + 1, "__nplus1_rec_t *__np1r, ");
    else /* () or (void) */
        add_edit_full(x, h->lparen + 1, "__nplus1_rec_t *__np1r", h->rparen - h->lparen - 1, 0);
    add_edit(x, h->body_open + 1, " long __np1_sv = 0; (void)__np1_sv;");
}

/*
 * The call node's helper recorded at the call: its body as a PN_CALL node in out, the
 * call edited to call the clone. Returns the cost the call's statement counted for it
 * (to take off: the body is in the tree now), 0 when the call stays as written.
 */
static double record_call(tctx *x, const ir_node *call, pseq *out)
{
    ir_call_src cs;
    ir_helper_src hs;
    profile_kernel *pk = x->pk;
    if (x->ir->truncated || !call->nkids) {
        unrecorded(x, call, "helpers called too deep");
        return 0;
    }
    if (ir_src_call(x->an, call, &cs) != 0 || ir_src_helper(x->an, call, &hs) != 0) {
        unrecorded(x, call, "its text is not in the input file as written (a macro, or "
                            "another file)");
        return 0;
    }
    if (cs.conditional) {
        unrecorded(x, call, "it runs only on one side of ?:, && or ||");
        return 0;
    }
    int ci = find_clone(pk, hs.def.begin);
    if (ci >= 0 && pk->clones[ci].failed)
        return 0;
    int first = ci < 0;
    if (first) {
        pclone c = {hs, xstrdup(call->call.name), 0};
        VEC_PUSH(pk->clones, pk->nclones, pk->capclones, c);
        ci = (int)pk->nclones - 1;
    }
    unsigned saved_nc = pk->tree.nc, saved_edits = pk->nedits, saved_clones = pk->nclones;
    tctx h = *x;
    char err[256] = "";
    h.clone = ci;
    h.emit = first;
    h.rec = "__np1r";
    h.call = call;
    h.err = err;
    h.errlen = sizeof err;
    if (first)
        clone_header(&h, &hs);
    pseq body = {0};
    int rc = build_node(&h, call->kids[0], &body);
    if (rc != 0) { /* as written: its constructs, edits and the clones it made go */
        seq_free(&body);
        pk->tree.nc = saved_nc;
        for (unsigned i = saved_edits; i < pk->nedits; i++)
            free(pk->edits[i].text);
        pk->nedits = saved_edits;
        for (unsigned i = saved_clones; i < pk->nclones; i++)
            free(pk->clones[i].name);
        pk->nclones = saved_clones;
        pk->clones[ci].failed = 1;
        unrecorded(x, call, err);
        return 0;
    }
    if (first && pk->tree.nc == saved_nc) {
        /* nothing of it is recorded (its loops run alike everywhere): called as written,
         * no copy, its cost the statement's (as the cost model counts it) */
        seq_free(&body);
        for (unsigned i = saved_edits; i < pk->nedits; i++)
            free(pk->edits[i].text);
        pk->nedits = saved_edits;
        for (unsigned i = saved_clones - 1; i < pk->nclones; i++)
            free(pk->clones[i].name);
        pk->nclones = saved_clones - 1;
        return 0;
    }
    pnode *nd = push_node(out, PN_CALL);
    nd->narms = 1;
    nd->arms = xcalloc(1, sizeof *nd->arms);
    nd->arms[0] = body;
    add_edit(x, cs.name_begin, "__nplus1_");
    strbuf arg;
    sb_init(&arg);
    sb_printf(&arg, "%s%s", x->rec, cs.nargs ? ", " : "");
    add_edit_full(x, cs.lparen + 1, arg.data, 0, 1);
    sb_free(&arg);
    return ir_src_call_cost(x->an, call);
}

/*
 * The helpers n's own expressions call (those of n's part r when r.end, else all), each
 * before n in out; the cost they took off n's.
 */
static double record_calls(tctx *x, const ir_node *n, const src_range *r, pseq *out)
{
    double taken = 0;
    for (unsigned i = 0; i < n->ncalls; i++)
        if (!r || within(n->calls[i], *r))
            taken += record_call(x, n->calls[i], out);
    return taken;
}

static double less(double cost, double taken)
{
    return taken > 0 ? (cost > taken ? cost - taken : 0) : cost;
}

/* The part of a node's cost its math builtins add (pnode.math): at most the cost, so that
 * the rough cost (cost - math) is never negative. */
static double math_part(double math, double cost)
{
    return math < cost ? math : cost;
}

/* ---- decisions ------------------------------------------------------------------------- */

/* n's condition C becomes __nplus1_rec(&__np1, !(C)` close`: the token recorded (a decision's
 * if, a loop's test). 0, or -1 when C has no range in the source. */
static int record_cond(tctx *x, const ir_node *n, const char *close)
{
    src_range cr;
    if (cond_range(x, n, &cr) != 0)
        return -1;
    strbuf open;
    sb_init(&open);
    sb_printf(&open, "__nplus1_rec(%s, !(", x->rec);
    add_edit(x, cr.begin, open.data);
    sb_free(&open);
    add_edit(x, cr.end, close);
    return 0;
}

/* if (C): C becomes __nplus1_rec(&__np1, !(C) ? 2 : 1) == 1 (OpenCL C refuses a float
 * as the condition of ?: though if takes one: `if (body.invMass)`; ! takes any scalar) */
static int build_if(tctx *x, const ir_node *n, pseq *out)
{
    if (!n->nkids || record_cond(x, n, ") ? 2 : 1) == 1") != 0)
        return -1;
    double taken = record_calls(x, n, NULL, out);
    unsigned id = add_construct(x, n, PN_IF, "if", 2);
    pnode *nd = push_node(out, PN_IF);
    nd->cost = less((n->cond.fx.cost + n->cond.fx.math), taken);
    nd->accesses = effects_accesses(&n->cond.fx);
    set_traffic(nd, &n->cond.traffic);
    nd->math = math_part(n->cond.fx.math, nd->cost);
    nd->construct = id;
    nd->narms = 2;
    nd->arms = xcalloc(2, sizeof *nd->arms);
    pseq *arms = nd->arms; /* out may move while the arms are built */
    int rc = build_arm(x, n->kids[0], &arms[0], id);
    if (rc == 0 && n->nkids > 1) {
        int saved = x->chain;
        x->chain = n->kids[1]->kind == IR_IF ? (int)id : -1;
        rc = build_arm(x, n->kids[1], &arms[1], id);
        x->chain = saved;
    }
    return rc;
}

/* One entry's test: "__np1_sv == (long)(A) || ..."; -1 when a label cannot be read. */
static int entry_test(tctx *x, const ir_node *sw, unsigned arm, strbuf *test)
{
    ir_label_src *ls;
    unsigned nl;
    if (ir_src_case_labels(x->an, sw, arm, &ls, &nl) != 0)
        return fail(x, sw->line, "a case label the profile cannot read (a range, or a macro)");
    int rc = 0;
    for (unsigned i = 0; i < nl && rc == 0; i++) {
        size_t lo_len, hi_len;
        if (!ls[i].plain) {
            rc = fail(x, ls[i].lo.line ? ls[i].lo.line : sw->line,
                      "a case label the profile cannot read (a range, or a macro)");
            break;
        }
        const char *lo = range_text(x->an, ls[i].lo, &lo_len);
        if (ls[i].is_range) {
            const char *hi = range_text(x->an, ls[i].hi, &hi_len);
            sb_printf(test, "%s(__np1_sv >= (long)(%.*s) && __np1_sv <= (long)(%.*s))",
                      test->len ? " || " : "", (int)lo_len, lo, (int)hi_len, hi);
        } else {
            sb_printf(test, "%s__np1_sv == (long)(%.*s)", test->len ? " || " : "",
                      (int)lo_len, lo);
        }
    }
    free(ls);
    return rc;
}

/* The entry index chain: `A ? 1 : B ? 2 : D` (D: the default's, or the empty last entry). */
static int switch_chain(tctx *x, const ir_node *sw, unsigned written, strbuf *chain)
{
    unsigned def = 0;
    for (unsigned a = 0; a < written; a++) {
        strbuf test;
        sb_init(&test);
        int rc = sw->arms[a].is_default ? 0 : entry_test(x, sw, a, &test);
        if (rc == 0 && sw->arms[a].is_default)
            def = a + 1;
        else if (rc == 0 && test.len)
            sb_printf(chain, "(%s) ? %u : ", test.data, a + 1);
        sb_free(&test);
        if (rc != 0)
            return -1;
    }
    sb_printf(chain, "%u", def ? def : written + 1);
    return 0;
}

static int build_switch(tctx *x, const ir_node *n, pseq *out)
{
    src_range cr;
    if (!n->nkids || cond_range(x, n, &cr) != 0)
        return -1;
    const ir_node *body = n->kids[0];
    if (body->kind != IR_BLOCK)
        return fail(x, n->line, "a switch whose body is not a block");
    unsigned written = 0; /* the entries written: all but an implicit default */
    for (unsigned a = 0; a < n->narms; a++)
        written += !n->arms[a].implicit;
    if (written > PROFILE_MAX_ARMS - 1)
        return fail(x, n->line, "a switch with too many case entries");
    strbuf chain;
    sb_init(&chain);
    if (switch_chain(x, n, written, &chain) != 0) {
        sb_free(&chain);
        return -1;
    }
    unsigned narms = n->narms;
    strbuf open, after;
    sb_init(&open);
    sb_init(&after);
    sb_printf(&after, "), __nplus1_rec(%s, %s), __np1_sv)", x->rec, chain.data);
    add_edit(x, cr.begin, "(__np1_sv = (long)(");
    add_edit(x, cr.end, after.data);
    sb_free(&after);
    sb_free(&open);
    sb_free(&chain);
    double taken = record_calls(x, n, NULL, out);
    unsigned id = add_construct(x, n, PN_SWITCH, "switch", narms);
    pnode *nd = push_node(out, PN_SWITCH);
    nd->cost = less((n->cond.fx.cost + n->cond.fx.math), taken);
    nd->accesses = effects_accesses(&n->cond.fx);
    set_traffic(nd, &n->cond.traffic);
    nd->math = math_part(n->cond.fx.math, nd->cost);
    nd->construct = id;
    nd->narms = narms;
    nd->arms = xcalloc(narms, sizeof *nd->arms);
    pseq *arms = nd->arms;
    int rc = 0;
    for (unsigned a = 0; rc == 0 && a < written; a++) {
        unsigned end = a + 1 < written ? n->arms[a + 1].first : body->nkids;
        for (unsigned s = n->arms[a].first; rc == 0 && s < end; s++)
            rc = build_arm(x, body->kids[s], &arms[a], id);
    }
    return rc;
}

/* ---- loops ------------------------------------------------------------------------------ */

/* A loop test C becomes __nplus1_rec(&__np1, !(C) ? 1 : 2) == 2 (a float test: build_if). */
static int instrument_test(tctx *x, const ir_node *n)
{
    return record_cond(x, n, ") ? 1 : 2) == 2");
}

/* Straight-line statements only: no decision, loop, jump or inlined helper below n. */
static int plain_body(const ir_node *n)
{
    if ((n->kind != IR_BLOCK && n->kind != IR_STMT) || n->ncalls)
        return 0;
    for (unsigned i = 0; i < n->nkids; i++)
        if (!plain_body(n->kids[i]))
            return 0;
    return 1;
}

static int uniform_plain_loop(const ir_node *n)
{
    return n->kind == IR_LOOP && n->cond.divergence == DIV_UNIFORM && !n->ncalls &&
           (!n->nkids || plain_body(n->kids[0]));
}

/*
 * Is the helper loop n uniform with a straight-line body at every call of every kernel's
 * IR? (The recording copy of a helper is one text for all its calls: a loop left out of
 * the recording is left out at each.)
 */
static int uniform_everywhere(const analysis *an, const ir_node *n)
{
    for (unsigned k = 0; k < an->nkernels; k++) {
        const ir_kernel *ir = an->kernels[k].ir;
        for (unsigned i = 0; ir && i < ir->nnodes; i++) {
            const ir_node *m = ir->nodes[i];
            if (m->kind == IR_LOOP && m->frame != 0 && m->range.file == n->range.file &&
                m->range.begin == n->range.begin && !uniform_plain_loop(m))
                return 0;
        }
    }
    return 1;
}

static int build_loop(tctx *x, const ir_node *n, pseq *out)
{
    static const char *const whats[] = {"for", "while", "do"};
    if (x->call && uniform_plain_loop(n) && uniform_everywhere(x->an, n)) {
        /* a helper's loop every item runs alike at each call (`for (r = 0; r < rounds;
         * r++)`, rounds a constant there): no lane waits in it, and recording each of its
         * tests would only lengthen the paths (a hash's rounds, millions of tokens).
         * Straight-line work, the cost model's, as before helpers were recorded. */
        pnode *w = push_node(out, PN_WORK);
        w->cost = ir_src_stmt_cost(x->an, n);
        w->accesses = ir_src_stmt_accesses(x->an, n);
        w->math = math_part(ir_src_stmt_math(x->an, n), w->cost);
        return 0;
    }
    int has_test = ir_src_has_cond(n);
    if (n->loop != IR_FOR && (!has_test || !n->nkids))
        return fail(x, n->line, "a loop the profile cannot read");
    if (has_test && instrument_test(x, n) != 0)
        return -1;
    ir_loop_src ls;
    ir_src_loop(x->an, n, &ls);
    double taken = ls.has_init ? record_calls(x, n, &ls.init, out) : 0;
    for (unsigned i = 0; i < n->ncalls; i++)
        if (!ls.has_init || !within(n->calls[i], ls.init))
            unrecorded(x, n->calls[i], "it is called in a loop's condition or step");
    unsigned id = add_construct(x, n, PN_LOOP, whats[n->loop], 2);
    pnode *nd = push_node(out, PN_LOOP);
    nd->construct = id;
    nd->test = n->loop == IR_DO ? LOOP_POST : has_test ? LOOP_PRE : LOOP_NONE;
    nd->narms = 1;
    nd->arms = xcalloc(1, sizeof *nd->arms);
    nd->init_cost = less(ls.init_cost, taken);
    nd->cost = has_test ? (n->cond.fx.cost + n->cond.fx.math) : 0;
    nd->accesses = has_test ? effects_accesses(&n->cond.fx) : 0;
    if (has_test)
        set_traffic(nd, &n->cond.traffic);
    nd->math = has_test ? math_part(n->cond.fx.math, nd->cost) : 0;
    nd->step_cost = ls.step_cost;
    pseq *arm = nd->arms;
    return n->nkids ? build_arm(x, n->kids[0], arm, id) : 0;
}

/* ---- constructs a macro writes ------------------------------------------------------- */


/* Does a path leave top early: a return of its function, a break or continue of an outer
 * loop, a goto? (the statements of top's own function: helpers return into it) */
static int escapes(const analysis *an, const ir_node *top, const ir_node *n)
{
    if ((n->kind == IR_RETURN && n->frame == top->frame) ||
        ((n->kind == IR_BREAK || n->kind == IR_CONTINUE) &&
         (!n->target || !ir_holds(top, n->target))) ||
        (n->kind == IR_STMT && ir_src_stmt_kind(an, n) == IR_SRC_GOTO))
        return 1;
    for (unsigned i = 0; i < n->nkids; i++)
        if (escapes(an, top, n->kids[i]))
            return 1;
    return 0;
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
static int opaque_if_macro(tctx *x, const ir_node *n, pseq *out)
{
    if (!ir_src_macro_written(x->an, n))
        return 0;
    if (escapes(x->an, n, n))
        return fail(x, n->line, "a loop or decision written by a macro that a path leaves early "
                                "(return, or break or continue of an outer loop) cannot be "
                                "recorded");
    pnode *nd = push_node(out, PN_WORK);
    nd->cost = ir_src_stmt_cost(x->an, n);
    nd->accesses = ir_src_stmt_accesses(x->an, n);
    nd->math = math_part(ir_src_stmt_math(x->an, n), nd->cost);
    if (!x->pk->opaque++)
        x->pk->opaque_line = n->line;
    return 1;
}

/* ---- statements ----------------------------------------------------------------------- */

/* A statement's work: its cost (math builtins at their time) less the recorded helpers'
 * (taken), and its memory accesses. */
static void work_node(pseq *out, const ir_node *n, double taken)
{
    pnode *w = push_node(out, PN_WORK);
    w->cost = less(n->cost + n->fx.math, taken);
    w->accesses = effects_accesses(&n->fx);
    set_traffic(w, &n->traffic);
    w->math = math_part(n->fx.math, w->cost);
}

static int build_node(tctx *x, const ir_node *n, pseq *out)
{
    if (n->kind == IR_IF || n->kind == IR_SWITCH || n->kind == IR_LOOP) {
        int o = opaque_if_macro(x, n, out);
        if (o != 0)
            return o < 0 ? -1 : 0;
    }
    switch (n->kind) {
    case IR_BLOCK: {
        int rc = 0;
        for (unsigned i = 0; rc == 0 && i < n->nkids; i++)
            rc = build_node(x, n->kids[i], out);
        return rc;
    }
    case IR_IF:
        return build_if(x, n, out);
    case IR_SWITCH:
        return build_switch(x, n, out);
    case IR_LOOP:
        return build_loop(x, n, out);
    case IR_BREAK:
        push_node(out, PN_BREAK);
        return 0;
    case IR_CONTINUE:
        push_node(out, PN_CONTINUE);
        return 0;
    case IR_RETURN: {
        double taken = record_calls(x, n, NULL, out);
        if (n->in_helper) /* its value is the helper's work (a kernel's return has none) */
            work_node(out, n, taken);
        push_node(out, n->in_helper ? PN_LEAVE : PN_RETURN);
        return 0;
    }
    case IR_CALL: /* only under a node's calls */
        return 0;
    case IR_STMT:
    default:
        switch (ir_src_stmt_kind(x->an, n)) {
        case IR_SRC_GOTO:
        case IR_SRC_LABEL:
            return fail(x, n->line,
                        "goto and labels: the profile replays structured control flow only");
        case IR_SRC_CASE:
            return fail(x, n->line, "a case label inside a nested block of its switch");
        default:
            break;
        }
        {
            double taken = record_calls(x, n, NULL, out);
            work_node(out, n, taken);
        }
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

/* The end of the last parameter and the body's '{': where the recording comes in. */
static int entry_edits(tctx *x)
{
    const kernel_info *k = x->pk->k;
    unsigned param_end = 0, body_open = 0;
    if (k->range.file != 0) /* the recording edits the input file's text only */
        return fail(x, k->range.line, "the kernel is written in an included file, and the "
                                      "profile instruments the input file's text only (give "
                                      "that file as the input)");
    int rc = ir_src_kernel_entry(x->an, k, &param_end, &body_open);
    if (rc > 0)
        return fail(x, k->range.line, "a kernel without parameters has nothing to record into");
    if (rc < 0)
        return fail(x, k->range.line, "a condition written by a macro cannot be instrumented");
    add_edit(x, param_end, ", __global uint *__nplus1_profile");
    add_edit(x, body_open + 1,
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
    x.ir = pk->k->ir;
    x.parent = -1;
    x.chain = -1;
    x.clone = -1;
    x.emit = 1;
    x.rec = "&__np1";
    x.err = pk->err;
    x.errlen = sizeof pk->err;
    collect_decisions(&x, &pk->k->top);
    int rc = !x.ir || !x.ir->root ? fail(&x, pk->k->range.line, "no body") : 0;
    if (rc == 0)
        rc = entry_edits(&x);
    if (rc == 0)
        rc = build_node(&x, x.ir->root, &pk->tree.top);
    free(x.decs);
    return rc;
}

void profile_kernel_free(profile_kernel *pk)
{
    for (unsigned i = 0; i < pk->nedits; i++)
        free(pk->edits[i].text);
    free(pk->edits);
    for (unsigned i = 0; i < pk->nclones; i++)
        free(pk->clones[i].name);
    free(pk->clones);
    ptree_free(&pk->tree);
    memset(pk, 0, sizeof *pk);
}
