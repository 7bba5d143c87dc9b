/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_call.c - part of the IR's builder (ir.h): helpers inlined at their
 * calls. A call to a user function whose body holds an if, a switch or a
 * loop becomes an IR_CALL node: its parameters and return value become
 * variables of a frame of its own (named "helper#ID.x"), each parameter
 * bound to the call's argument (a pointer to a private object of the caller
 * recorded as such), and its body is built in that frame. Other calls stay
 * inside their plain statement.
 */
#include "ir_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        n->kids = xcalloc(1, sizeof *n->kids);
        n->kids[n->nkids++] = body;
        ir_mark_taken(c, body->cursor, c->frame);
    }
    c->ir->ncalls++;
    restore_frame(c, &saved);
}

static void inline_call(ir_ctx *c, CXCursor call, CXCursor def, ir_node *owner)
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
}

static void find_calls(ir_ctx *c, CXCursor e, ir_node *owner)
{
    cursor_list ch = children_of(e);
    for (unsigned i = 0; i < ch.n; i++) /* arguments first: evaluation order */
        find_calls(c, ch.v[i], owner);
    free(ch.v);
    if (clang_getCursorKind(e) != CXCursor_CallExpr)
        return;
    CXCursor def = inline_target(c, e);
    if (!clang_Cursor_isNull(def))
        inline_call(c, e, def, owner);
}

void ir_inline_calls(ir_ctx *c, CXCursor e, ir_node *owner)
{
    find_calls(c, e, owner);
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
