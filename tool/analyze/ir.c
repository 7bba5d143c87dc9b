/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir.c - part of the analyze stage: builds the kernel IR (ir.h) from the
 * libclang AST, once per selected legal kernel. One walk over the kernel's
 * body makes the nodes in pre-order (a node, the helpers its expressions
 * call, then its kids); a helper whose body holds a decision or a loop is
 * walked in its own frame at the call (its locals qualified by the call,
 * its parameters bound to the arguments). Every decision is classified by
 * the divergence analysis where it sits (divergence.h); effects are
 * effects.c's; a composite node's effects and cost are its parts'.
 * Variables and the trip count are ir_vars.c's.
 */
#include "ir_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "divergence.h"
#include "tree.h"

int ir_holds(const ir_node *a, const ir_node *n)
{
    for (; n; n = n->parent)
        if (n == a)
            return 1;
    return 0;
}

const ir_node *ir_node_at(const ir_kernel *ir, unsigned file, unsigned begin, int loop)
{
    for (unsigned i = 0; ir && i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        int kind = loop ? n->kind == IR_LOOP : n->kind == IR_IF || n->kind == IR_SWITCH;
        if (kind && n->frame == 0 && n->range.begin == begin && n->range.file == file)
            return n;
    }
    return NULL;
}

const char *ir_kind_name(ir_kind kind)
{
    static const char *names[] = {"block", "stmt", "if", "switch", "loop",
                                  "break", "continue", "return", "call"};
    return names[kind];
}

/* ---- nodes --------------------------------------------------------------------- */

ir_node *ir_new_node(ir_ctx *c, ir_kind kind, CXCursor cur, ir_node *parent)
{
    ir_node *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->id = c->ir->nnodes;
    n->cursor = cur;
    n->parent = parent;
    n->frame = c->frame;
    n->trips = -1;
    n->cond.cursor = n->init = n->step = clang_getNullCursor();
    effects_init(&n->fx);
    effects_init(&n->cond.fx);
    n->call.ret_var = -1;
    if (stmt_range(c->an, cur, &n->range) != 0)
        cursor_range(c->an, cur, &n->range);
    n->line = n->range.line;
    VEC_PUSH(c->ir->nodes, c->ir->nnodes, c->ir->capnodes, n);
    return n;
}

/* A block of 100,000 statements reallocates its kids 17 times (VEC_PUSH_POW2). */
static void add_kid(ir_node *n, ir_node *kid)
{
    VEC_PUSH_POW2(n->kids, n->nkids, kid);
}

static void node_traffic(ir_ctx *c, const ir_node *n, const effects *fx, access_traffic *out);

/* A leaf's effects and cost: effects_of in the function it is part of. */
static void leaf_effects(ir_ctx *c, ir_node *n)
{
    effects_free(&n->fx);
    effects_of(c->an, c->func, n->cursor, &n->fx);
    n->cost = n->fx.cost;
    memset(&n->traffic, 0, sizeof n->traffic);
    node_traffic(c, n, &n->fx, &n->traffic);
}

/* ---- decisions ------------------------------------------------------------------- */

/* The end of the outermost loop of the kernel around n (n itself included), or 0. */
static const ir_node *outer_kernel_loop(const ir_node *n)
{
    const ir_node *outer = NULL;
    for (; n; n = n->parent)
        if (n->kind == IR_LOOP && n->frame == 0)
            outer = n;
    return outer;
}

/* The node of the kernel where n sits: n, or the outermost call that inlined it. */
static const ir_node *kernel_point(const ir_ctx *c, const ir_node *n)
{
    return c->nchain ? c->chain_nodes[0] : n;
}

/*
 * The condition tree's decision at the same statement, when its class is the one the
 * site would get: in the kernel, outside loops, a switch or an if with one condition
 * (an else-if chain's decision joins all of its conditions).
 */
static const decision *tree_twin(const ir_ctx *c, const ir_node *n, const ir_node *loop)
{
    long i = c->nchain || loop ? -1 : cursor_map_get(&c->tree_decisions, n->cursor, 0);
    if (i < 0)
        return NULL;
    const decision *d = c->tree_list[i];
    unsigned conds = 0;
    for (unsigned b = 0; b < d->nbranches; b++)
        conds += d->branches[b].kind == BR_IF;
    return d->kind == DEC_SWITCH || conds == 1 ? d : NULL;
}

/* Where n's expressions are read: its statement in the kernel (the outermost loop's end
 * inside a loop, so that a value a loop carries is seen), through the calls inlined. */
static div_site site_of(const ir_ctx *c, const ir_node *n, CXCursor e, int is_switch)
{
    const ir_node *at = kernel_point(c, n);
    const ir_node *loop = outer_kernel_loop(at);
    div_site s = {e, is_switch, c->chain, c->nchain, at->range.file,
                  loop ? loop->range.end : at->range.begin};
    if (loop && loop->range.file != at->range.file)
        s.horizon = at->range.begin;
    return s;
}

/* How the accesses of fx (n's, or its condition's) coalesce (traffic.h). */
static void node_traffic(ir_ctx *c, const ir_node *n, const effects *fx, access_traffic *out)
{
    if (!effects_accesses(fx))
        return;
    div_site s = site_of(c, n, clang_getNullCursor(), 0);
    traffic_of(c->div, &s, fx, out);
}

static void classify(ir_ctx *c, ir_node *n, int is_switch)
{
    const ir_node *at = kernel_point(c, n);
    const ir_node *loop = outer_kernel_loop(at);
    const decision *twin = tree_twin(c, n, loop);
    if (twin) { /* classified by analyze_tu already: the same evaluation */
        n->cond.divergence = twin->divergence;
        snprintf(n->cond.why, sizeof n->cond.why, "%s", twin->divergence_why);
        return;
    }
    div_site s = site_of(c, n, n->cond.cursor, is_switch);
    n->cond.divergence = divergence_classify_site(c->div, &s, n->cond.why, sizeof n->cond.why);
}

/* n's condition: its range, effects, the helpers it calls, its class. */
static void set_cond(ir_ctx *c, ir_node *n, CXCursor cond, int is_switch)
{
    n->cond.cursor = cond;
    if (clang_Cursor_isNull(cond)) {
        n->cond.divergence = DIV_UNIFORM;
        snprintf(n->cond.why, sizeof n->cond.why, "no condition");
        return;
    }
    cursor_range(c->an, cond, &n->cond.range);
    effects_free(&n->cond.fx);
    effects_of(c->an, c->func, cond, &n->cond.fx);
    memset(&n->cond.traffic, 0, sizeof n->cond.traffic);
    node_traffic(c, n, &n->cond.fx, &n->cond.traffic);
    ir_inline_calls(c, cond, n);
    classify(c, n, is_switch);
}

/* ---- statements ------------------------------------------------------------------- */

static ir_node *build_block(ir_ctx *c, CXCursor cur, ir_node *parent)
{
    ir_node *n = ir_new_node(c, IR_BLOCK, cur, parent);
    if (cursor_range(c->an, cur, &n->range) == 0)
        n->line = n->range.line;
    unsigned scope = c->scope;
    c->scope = n->id;
    cursor_list ch = children_of(cur);
    for (unsigned i = 0; i < ch.n; i++)
        add_kid(n, ir_build_stmt(c, ch.v[i], n));
    free(ch.v);
    c->scope = scope;
    return n;
}

static ir_node *build_if(ir_ctx *c, CXCursor cur, ir_node *parent)
{
    ir_node *n = ir_new_node(c, IR_IF, cur, parent);
    cursor_list ch = children_of(cur);
    if (ch.n >= 1)
        set_cond(c, n, ch.v[0], 0);
    for (unsigned i = 1; i < ch.n && i < 3; i++)
        add_kid(n, ir_build_stmt(c, ch.v[i], n));
    free(ch.v);
    n->narms = 2;
    n->arms = xcalloc(2, sizeof *n->arms);
    for (unsigned a = 0; a < 2; a++) {
        n->arms[a].implicit = a >= n->nkids;
        n->arms[a].cost = a < n->nkids ? n->kids[a]->cost : 0;
    }
    return n;
}

static void push_target(ir_ctx *c, ir_node *n)
{
    VEC_PUSH(c->targets, c->ntargets, c->captargets, n);
}

/* The label of a case entry ("1", "A ... B") or "default". */
static void case_label(ir_ctx *c, CXCursor label, strbuf *sb)
{
    if (clang_getCursorKind(label) == CXCursor_DefaultStmt) {
        sb_printf(sb, "%sdefault", sb->len ? ", " : "");
        return;
    }
    cursor_list ch = children_of(label);
    char t[64] = "?", u[64] = "";
    if (ch.n >= 2)
        expr_text(c->an, ch.v[0], t, sizeof t);
    if (ch.n >= 3)
        expr_text(c->an, ch.v[1], u, sizeof u);
    sb_printf(sb, "%s%s%s%s", sb->len ? ", " : "", t, u[0] ? " ... " : "", u);
    free(ch.v);
}

/* One statement of a switch's body: its labels open an arm, then the statement itself. */
static void switch_item(ir_ctx *c, ir_node *sw, ir_node *body, CXCursor item)
{
    strbuf labels;
    sb_init(&labels);
    int is_default = 0;
    while (clang_getCursorKind(item) == CXCursor_CaseStmt ||
           clang_getCursorKind(item) == CXCursor_DefaultStmt) {
        is_default |= clang_getCursorKind(item) == CXCursor_DefaultStmt;
        case_label(c, item, &labels);
        cursor_list ch = children_of(item);
        CXCursor sub = ch.n ? ch.v[ch.n - 1] : clang_getNullCursor();
        free(ch.v);
        if (clang_Cursor_isNull(sub))
            break;
        item = sub;
    }
    if (labels.len) {
        ir_arm a = {sb_steal(&labels), is_default, 0, body->nkids, 0, 0};
        sw->arms = xrealloc(sw->arms, (sw->narms + 1) * sizeof *sw->arms);
        sw->arms[sw->narms++] = a;
    }
    sb_free(&labels);
    if (clang_getCursorKind(item) != CXCursor_CaseStmt &&
        clang_getCursorKind(item) != CXCursor_DefaultStmt)
        add_kid(body, ir_build_stmt(c, item, body));
}

/* A jump, or a block whose last statement ends by one (`case 1: { ...; break; }`). */
static int is_jump(const ir_node *n)
{
    while (n->kind == IR_BLOCK && n->nkids)
        n = n->kids[n->nkids - 1];
    return n->kind == IR_BREAK || n->kind == IR_CONTINUE || n->kind == IR_RETURN;
}

/* Each arm's cost (to its first jump, through fall-through) and whether it falls through. */
static void arm_costs(ir_node *sw)
{
    const ir_node *body = sw->kids[0];
    for (unsigned a = 0; a < sw->narms; a++) {
        ir_arm *arm = &sw->arms[a];
        if (arm->implicit)
            continue;
        unsigned end = a + 1 < sw->narms && !sw->arms[a + 1].implicit ? sw->arms[a + 1].first
                                                                        : body->nkids;
        arm->falls_through = end < body->nkids;
        for (unsigned i = arm->first; i < end; i++)
            if (is_jump(body->kids[i]))
                arm->falls_through = 0;
        for (unsigned i = arm->first; i < body->nkids; i++) {
            arm->cost += body->kids[i]->cost;
            if (is_jump(body->kids[i]))
                break;
        }
    }
}

static ir_node *build_switch(ir_ctx *c, CXCursor cur, ir_node *parent)
{
    ir_node *n = ir_new_node(c, IR_SWITCH, cur, parent);
    cursor_list ch = children_of(cur);
    if (ch.n >= 1)
        set_cond(c, n, ch.v[0], 1);
    push_target(c, n);
    CXCursor body = ch.n >= 2 ? ch.v[ch.n - 1] : clang_getNullCursor();
    if (!clang_Cursor_isNull(body) && clang_getCursorKind(body) == CXCursor_CompoundStmt) {
        ir_node *b = ir_new_node(c, IR_BLOCK, body, n);
        if (cursor_range(c->an, body, &b->range) == 0)
            b->line = b->range.line;
        add_kid(n, b);
        unsigned scope = c->scope;
        c->scope = b->id;
        cursor_list items = children_of(body);
        for (unsigned i = 0; i < items.n; i++)
            switch_item(c, n, b, items.v[i]);
        free(items.v);
        c->scope = scope;
    } else if (!clang_Cursor_isNull(body)) {
        add_kid(n, ir_build_stmt(c, body, n));
    }
    c->ntargets--;
    free(ch.v);
    int has_default = 0;
    for (unsigned a = 0; a < n->narms; a++)
        has_default |= n->arms[a].is_default;
    if (!has_default) {
        ir_arm a = {xstrdup("default"), 1, 1, 0, 0, 0};
        n->arms = xrealloc(n->arms, (n->narms + 1) * sizeof *n->arms);
        n->arms[n->narms++] = a;
    }
    if (n->nkids && n->kids[0]->kind == IR_BLOCK)
        ir_finish(n->kids[0]);
    if (n->nkids)
        arm_costs(n);
    return n;
}

static ir_node *build_loop(ir_ctx *c, CXCursor cur, ir_node *parent, ir_loop_kind kind)
{
    ir_node *n = ir_new_node(c, IR_LOOP, cur, parent);
    n->loop = kind;
    CXCursor init, cond, step, body;
    ir_loop_parts(c->an, cur, kind, &init, &cond, &step, &body);
    n->init = init;
    n->step = step;
    if (!clang_Cursor_isNull(init) && cursor_range(c->an, init, &n->init_range) == 0) {
        const src_file *f = &c->an->pr->files[n->init_range.file];
        while (n->init_range.end > n->init_range.begin &&
               (f->text[n->init_range.end - 1] == ';' || f->text[n->init_range.end - 1] == ' '))
            n->init_range.end--;
    }
    unsigned scope = c->scope;
    c->scope = n->id; /* a for's init declares its variables in the loop */
    if (!clang_Cursor_isNull(init)) {
        ir_declare(c, init);
        ir_inline_calls(c, init, n);
    }
    set_cond(c, n, cond, 0);
    if (!clang_Cursor_isNull(step))
        ir_inline_calls(c, step, n);
    n->trips = ir_trip_count(c->an, init, cond, step);
    push_target(c, n);
    if (!clang_Cursor_isNull(body))
        add_kid(n, ir_build_stmt(c, body, n));
    c->ntargets--;
    c->scope = scope;
    return n;
}

/* The innermost loop (continue) or loop or switch (break) around the jump. */
static ir_node *jump_target(ir_ctx *c, int is_continue)
{
    for (unsigned i = c->ntargets; i-- > c->target_base;)
        if (!is_continue || c->targets[i]->kind == IR_LOOP)
            return c->targets[i];
    return NULL;
}

static ir_node *build_jump(ir_ctx *c, CXCursor cur, ir_node *parent, ir_kind kind)
{
    ir_node *n = ir_new_node(c, kind, cur, parent);
    if (kind == IR_RETURN) {
        n->in_helper = c->frame != 0;
        n->target = c->call;
        ir_inline_calls(c, cur, n);
    } else {
        n->target = jump_target(c, kind == IR_CONTINUE);
    }
    leaf_effects(c, n);
    return n;
}

static ir_node *build_plain(ir_ctx *c, CXCursor cur, ir_node *parent)
{
    ir_node *n = ir_new_node(c, IR_STMT, cur, parent);
    if (clang_getCursorKind(cur) == CXCursor_DeclStmt)
        ir_declare(c, cur);
    ir_inline_calls(c, cur, n);
    leaf_effects(c, n);
    return n;
}

static void finish_loop(ir_ctx *c, ir_node *n);

ir_node *ir_build_stmt(ir_ctx *c, CXCursor cur, ir_node *parent)
{
    ir_node *n;
    switch (clang_getCursorKind(cur)) {
    case CXCursor_CompoundStmt:
        n = build_block(c, cur, parent);
        break;
    case CXCursor_IfStmt:
        n = build_if(c, cur, parent);
        break;
    case CXCursor_SwitchStmt:
        n = build_switch(c, cur, parent);
        break;
    case CXCursor_ForStmt:
        n = build_loop(c, cur, parent, IR_FOR);
        break;
    case CXCursor_WhileStmt:
        n = build_loop(c, cur, parent, IR_WHILE);
        break;
    case CXCursor_DoStmt:
        n = build_loop(c, cur, parent, IR_DO);
        break;
    case CXCursor_BreakStmt:
        return build_jump(c, cur, parent, IR_BREAK);
    case CXCursor_ContinueStmt:
        return build_jump(c, cur, parent, IR_CONTINUE);
    case CXCursor_ReturnStmt:
        return build_jump(c, cur, parent, IR_RETURN);
    default:
        return build_plain(c, cur, parent);
    }
    ir_finish(n);
    if (n->kind == IR_LOOP)
        finish_loop(c, n);
    return n;
}

/* ---- effects and cost of a composite node -------------------------------------------- */

static void merge_extra(effects *into, CXCursor extra, const ir_ctx *c)
{
    if (clang_Cursor_isNull(extra))
        return;
    effects fx;
    effects_of(c->an, c->func, extra, &fx);
    merge_effects(into, &fx);
    effects_free(&fx);
}

void ir_finish(ir_node *n)
{
    effects_free(&n->fx);
    effects_init(&n->fx);
    merge_effects(&n->fx, &n->cond.fx);
    double kids = 0, most = 0;
    for (unsigned i = 0; i < n->nkids; i++) {
        merge_effects(&n->fx, &n->kids[i]->fx);
        kids += n->kids[i]->cost;
        if (n->kids[i]->cost > most)
            most = n->kids[i]->cost;
    }
    for (unsigned a = 0; a < n->narms; a++)
        if (n->arms[a].cost > most)
            most = n->arms[a].cost;
    switch (n->kind) {
    case IR_IF:
        n->cost = n->cond.fx.cost + most;
        break;
    case IR_SWITCH:
        n->cost = n->cond.fx.cost + most;
        break;
    default:
        n->cost = kids;
        break;
    }
    n->fx.cost = n->cost;
}

/* A loop's cost: its init, then trips x (condition + body + step); IR_UNKNOWN_TRIPS when
 * unknown. */
static void finish_loop(ir_ctx *c, ir_node *n)
{
    effects parts;
    effects_init(&parts);
    merge_extra(&parts, n->init, c);
    double init = parts.cost;
    effects step;
    effects_init(&step);
    merge_extra(&step, n->step, c);
    double trips = n->trips >= 0 ? (double)n->trips : IR_UNKNOWN_TRIPS;
    double body = n->nkids ? n->kids[0]->cost : 0;
    merge_effects(&n->fx, &parts);
    merge_effects(&n->fx, &step);
    n->cost = init + trips * (n->cond.fx.cost + body + step.cost);
    n->fx.cost = n->cost;
    effects_free(&parts);
    effects_free(&step);
}

/* ---- the kernel ---------------------------------------------------------------------- */

ir_node *ir_build_body(ir_ctx *c, CXCursor func, ir_node *parent)
{
    CXCursor body = last_child_of_kind(func, CXCursor_CompoundStmt);
    if (clang_Cursor_isNull(body))
        return NULL;
    return ir_build_stmt(c, body, parent);
}

static tree_step note_decision(void *ud, const decision *d)
{
    ir_ctx *c = ud;
    cursor_map_put(&c->tree_decisions, d->cursor, 0, c->ntree);
    VEC_PUSH(c->tree_list, c->ntree, c->captree, d);
    return TREE_RECURSE;
}

ir_kernel *ir_build(analysis *an, kernel_info *k)
{
    ir_ctx c;
    memset(&c, 0, sizeof c);
    c.an = an;
    c.k = k;
    c.func = k->cursor;
    c.ir = xcalloc(1, sizeof *c.ir);
    c.div = divergence_open(an, k);
    if (k->has_decision) /* divergence_classify ran on the tree */
        for_each_decision(&k->top, note_decision, &c);
    CXCursor body = last_child_of_kind(k->cursor, CXCursor_CompoundStmt);
    if (!clang_Cursor_isNull(body)) {
        c.ir->root = ir_new_node(&c, IR_BLOCK, body, NULL);
        if (cursor_range(an, body, &c.ir->root->range) == 0)
            c.ir->root->line = c.ir->root->range.line;
        ir_declare_params(&c, k->cursor, c.ir->root->id);
        c.scope = 0;
        cursor_list ch = children_of(body);
        for (unsigned i = 0; i < ch.n; i++)
            add_kid(c.ir->root, ir_build_stmt(&c, ch.v[i], c.ir->root));
        free(ch.v);
        ir_finish(c.ir->root);
        ir_mark_taken(&c, body, 0);
        ir_note_refs(&c, body);
    }
    divergence_close(c.div);
    ir_ctx_free(&c);
    return c.ir;
}

static void free_node(ir_node *n)
{
    effects_free(&n->fx);
    effects_free(&n->cond.fx);
    for (unsigned a = 0; a < n->narms; a++)
        free(n->arms[a].labels);
    free(n->arms);
    free(n->kids);
    free(n->calls);
    free(n->call.name);
    free(n->call.binds);
    free(n);
}

void ir_free(ir_kernel *ir)
{
    if (!ir)
        return;
    for (unsigned i = 0; i < ir->nnodes; i++)
        free_node(ir->nodes[i]);
    free(ir->nodes);
    for (unsigned v = 0; v < ir->nvars; v++) {
        free(ir->vars[v].name);
        free(ir->vars[v].type);
        free(ir->vars[v].refs);
    }
    free(ir->vars);
    free(ir);
}

/* ---- helpers inlined at their calls -----------------------------------------
 * A call to a user function whose body holds an if, a switch or a loop becomes
 * an IR_CALL node: its parameters and return value become variables of a frame
 * of its own (named "helper#ID.x"), each parameter bound to the call's argument
 * (a pointer to a private object of the caller recorded as such), and its body
 * is built in that frame (ir_build_body, above: the two recurse). Other calls
 * stay inside their plain statement. */

static enum CXChildVisitResult branchy_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        *(int *)data = 1;
        return CXChildVisit_Break;
    default:
        return CXChildVisit_Recurse;
    }
}

/* Does the helper's body hold a decision or a loop? (memoised) */
static int inlinable(ir_ctx *c, CXCursor def)
{
    long known = cursor_map_get(&c->inlinable, def, 0);
    if (known >= 0)
        return (int)known;
    int found = 0;
    clang_visitChildren(def, branchy_cb, &found);
    cursor_map_put(&c->inlinable, def, 0, (unsigned)found);
    return found;
}

/* The helper's definition a call reaches, when it is to be inlined; else null. */
static CXCursor inline_target(ir_ctx *c, CXCursor call)
{
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(call));
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(def)) || !inlinable(c, def))
        return clang_getNullCursor();
    if (clang_equalCursors(def, c->k->cursor))
        return clang_getNullCursor();
    for (unsigned i = 0; i < c->nchain; i++) /* recursion: not OpenCL C, but stay safe */
        if (clang_equalCursors(clang_getCursorDefinition(clang_getCursorReferenced(c->chain[i])),
                               def))
            return clang_getNullCursor();
    if (c->nchain >= IR_MAX_INLINE) {
        c->ir->truncated = 1;
        return clang_getNullCursor();
    }
    return def;
}

/* The private object of the caller an argument points to, or -1. */
static int points_to(ir_ctx *c, CXCursor arg)
{
    if (!type_is_pointer(clang_getCursorType(arg)))
        return -1;
    effects scratch;
    effects_init(&scratch);
    scan_ctx sc = {c->an, &scratch, c->func, 0, 1, clang_getNullCursor()};
    int param;
    CXCursor obj = analyze_private_target(&sc, arg, &param);
    effects_free(&scratch);
    if (!clang_Cursor_isNull(obj))
        return ir_var_of(c, obj, c->frame);
    if (param >= 0 && c->call && (unsigned)param < c->call->call.nbinds)
        return c->call->call.binds[param].points_to; /* passed on from the caller's caller */
    return -1;
}

/* The parameters bound to the arguments (evaluated in the caller's frame). */
static void bind_params(ir_ctx *c, ir_node *n, CXCursor def, const cursor_list *ch)
{
    int np = clang_Cursor_getNumArguments(def);
    n->call.binds = xcalloc(np > 0 ? (size_t)np : 1, sizeof *n->call.binds);
    for (int i = 0; i < np; i++) {
        ir_binding *b = &n->call.binds[n->call.nbinds++];
        b->arg = (unsigned)i + 1 < ch->n ? ch->v[i + 1] : clang_getNullCursor();
        b->points_to = clang_Cursor_isNull(b->arg) ? -1 : points_to(c, b->arg);
        if (!clang_Cursor_isNull(b->arg))
            cursor_range(c->an, b->arg, &b->arg_range);
    }
}

/* The frame being built: what build_frame sets and puts back. */
typedef struct frame_state {
    unsigned frame, scope, nchain, ntargets, target_base;
    CXCursor func;
    ir_node *call;
    char qual[80];
} frame_state;

static frame_state save_frame(const ir_ctx *c)
{
    frame_state f = {c->frame,  c->scope, c->nchain, c->ntargets, c->target_base,
                     c->func,   c->call,  ""};
    memcpy(f.qual, c->qual, sizeof f.qual);
    return f;
}

static void restore_frame(ir_ctx *c, const frame_state *f)
{
    c->frame = f->frame;
    c->scope = f->scope;
    c->nchain = f->nchain;
    c->ntargets = f->ntargets;
    c->target_base = f->target_base;
    c->func = f->func;
    c->call = f->call;
    memcpy(c->qual, f->qual, sizeof c->qual);
}

/* The frame of the call node n: its parameters and return value, its body. */
static void build_frame(ir_ctx *c, ir_node *n, CXCursor def)
{
    frame_state saved = save_frame(c);
    c->frame = n->id;
    c->func = def;
    c->call = n;
    c->scope = n->id;
    snprintf(c->qual, sizeof c->qual, "%.60s#%u.", n->call.name, n->id);
    c->chain[c->nchain] = n->cursor;
    c->chain_nodes[c->nchain++] = n;
    c->target_base = c->ntargets; /* a break in the helper never leaves the caller's loop */
    for (unsigned i = 0; i < n->call.nbinds; i++) {
        CXCursor p = clang_Cursor_getArgument(def, i);
        char *name = cursor_spelling(p);
        n->call.binds[i].var = ir_add_var(c, name, p, clang_getCursorType(p), IR_VAR_PARAM);
        free(name);
    }
    CXType rt = clang_getResultType(clang_getCursorType(def));
    if (rt.kind != CXType_Void && rt.kind != CXType_Invalid)
        n->call.ret_var = (int)ir_add_var(c, "return", clang_getNullCursor(), rt, IR_VAR_RETURN);
    ir_node *body = ir_build_body(c, def, n);
    if (body) {
        add_kid(n, body);
        ir_mark_taken(c, body->cursor, c->frame);
    }
    c->ir->ncalls++;
    restore_frame(c, &saved);
}

static ir_node *inline_call(ir_ctx *c, CXCursor call, CXCursor def, ir_node *owner)
{
    ir_node *n = ir_new_node(c, IR_CALL, call, owner);
    cursor_range(c->an, call, &n->range);
    n->line = n->range.line;
    n->call.expr = call;
    n->call.callee = def;
    n->call.name = cursor_spelling(def);
    owner->calls = xrealloc(owner->calls, (owner->ncalls + 1) * sizeof *owner->calls);
    owner->calls[owner->ncalls++] = n;
    cursor_list ch = children_of(call);
    bind_params(c, n, def, &ch);
    free(ch.v);
    build_frame(c, n, def);
    ir_finish(n);
    return n;
}

/* Whether the binary operator e is &&, || or ',' (the text between its operands). */
static int sequencing_operator(const analysis *an, const cursor_list *ch)
{
    src_range a, b;
    if (ch->n != 2 || cursor_range(an, ch->v[0], &a) != 0 || cursor_range(an, ch->v[1], &b) != 0 ||
        a.file != b.file || a.end > b.begin)
        return 0;
    const char *t = an->pr->files[a.file].text;
    for (unsigned i = a.end; i < b.begin; i++) {
        if (t[i] == ',' || (t[i] == '&' && t[i + 1] == '&') || (t[i] == '|' && t[i + 1] == '|'))
            return 1;
        if (t[i] != ' ' && t[i] != '\t' && t[i] != '\n' && t[i] != ')' && t[i] != '(')
            return 0;
    }
    return 0;
}

/* Whether e holds a call find_calls would inline. */
static int has_inline_call(ir_ctx *c, CXCursor e)
{
    if (clang_getCursorKind(e) == CXCursor_CallExpr && !clang_Cursor_isNull(inline_target(c, e)))
        return 1;
    cursor_list ch = children_of(e);
    int found = 0;
    for (unsigned i = 0; i < ch.n && !found; i++)
        found = has_inline_call(c, ch.v[i]);
    free(ch.v);
    return found;
}

static void find_calls(ir_ctx *c, CXCursor e, ir_node *owner, int guarded)
{
    cursor_list ch = children_of(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    /* the operator only matters to the calls of its right operand; asked first, a
     * left-nested sum of n terms read each left operand's extent: O(n^2) (a 100,000-term
     * expression took 75 s) */
    int seq = k == CXCursor_BinaryOperator && ch.n == 2 && has_inline_call(c, ch.v[1]) &&
              sequencing_operator(c->an, &ch);
    for (unsigned i = 0; i < ch.n; i++) /* arguments first: evaluation order */
        find_calls(c, ch.v[i], owner,
                   guarded || (i > 0 && (seq || k == CXCursor_ConditionalOperator)));
    free(ch.v);
    if (k != CXCursor_CallExpr)
        return;
    CXCursor def = inline_target(c, e);
    if (!clang_Cursor_isNull(def))
        inline_call(c, e, def, owner)->call.guarded = guarded;
}

void ir_inline_calls(ir_ctx *c, CXCursor e, ir_node *owner)
{
    find_calls(c, e, owner, 0);
}

CXCursor ir_frame_func(const ir_ctx *c, unsigned frame)
{
    return frame == 0 ? c->k->cursor : c->ir->nodes[frame]->call.callee;
}

void ir_ctx_free(ir_ctx *c)
{
    cursor_map_clear(&c->var_index);
    cursor_map_clear(&c->inlinable);
    cursor_map_clear(&c->tree_decisions);
    free(c->tree_list);
    c->tree_list = NULL;
    free(c->targets);
    c->targets = NULL;
    c->ntargets = c->captargets = 0;
}
