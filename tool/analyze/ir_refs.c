/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir_refs.c - part of the IR's builder (ir.h): where the kernel's text names
 * each of its own variables (frame 0), and each inlined helper's text the
 * variables of its frame. Each reference's offset, each local's
 * declaration statement, the offset of its name there and its initialiser,
 * and whether the body writes it. The state machine (tool/plan/machine.c,
 * tool/emit/machine_emit.c) renames the variables it keeps in an item's
 * context and turns their declarations into assignments from these offsets,
 * without calling libclang.
 */
#include "ir_int.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* A reference noted: (variable, offset), so that a macro argument expanded twice is
 * noted once, found by hash (a kernel of 100,000 references to one variable). */
typedef struct ref_seen {
    uint64_t key; /* variable << 32 | offset */
    UT_hash_handle hh;
} ref_seen;

typedef struct refs_walk {
    ir_ctx *c;
    unsigned file;            /* the kernel body's file */
    unsigned begin, end;      /* the kernel body's offsets */
    unsigned frame;           /* 0: the kernel; else the call node of an inlined helper */
    ref_seen **seen;          /* every (variable, offset) noted, all frames */
} refs_walk;

/* Adds (vi, off) to the set: 1 if it was not there. */
static int first_sight(ref_seen **seen, int vi, unsigned off)
{
    uint64_t key = (uint64_t)(unsigned)vi << 32 | off;
    ref_seen *r = NULL;
    HASH_FIND(hh, *seen, &key, sizeof key, r);
    if (r)
        return 0;
    r = xmalloc(sizeof *r);
    r->key = key;
    HASH_ADD(hh, *seen, key, sizeof r->key, r);
    return 1;
}

static void seen_free(ref_seen **seen)
{
    ref_seen *r, *tmp;
    HASH_ITER(hh, *seen, r, tmp) {
        HASH_DEL(*seen, r);
        free(r);
    }
}

static int is_ident(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Whether the text of file at off is the identifier name, whole. */
static int names_at(const analysis *an, unsigned file, unsigned off, const char *name)
{
    const src_file *f = &an->pr->files[file];
    size_t n = strlen(name);
    if (off + n > f->len || strncmp(f->text + off, name, n) != 0)
        return 0;
    if (off > 0 && is_ident(f->text[off - 1]))
        return 0;
    return off + n >= f->len || !is_ident(f->text[off + n]);
}

/* The offset where the text names v's variable at loc: its expansion, else its spelling
 * in the body (a macro's argument); -1 when it is inside a macro's own text. */
static long ref_offset(refs_walk *w, CXSourceLocation loc, const char *name)
{
    const analysis *an = w->c->an;
    src_pos p;
    if (parse_resolve(an->pr, loc, &p) == 0 && p.file == w->file &&
        names_at(an, p.file, p.offset, name))
        return p.offset;
    CXFile file;
    unsigned line, col, off;
    clang_getSpellingLocation(loc, &file, &line, &col, &off);
    int fi = file ? parse_file_index(an->pr, file) : -1;
    if (fi == (int)w->file && off >= w->begin && off < w->end &&
        names_at(an, (unsigned)fi, off, name))
        return off;
    return -1;
}

static const char *bare_name(const ir_var *v)
{
    const char *dot = strrchr(v->name, '.');
    return dot ? dot + 1 : v->name;
}

static void note_ref(refs_walk *w, CXCursor ref)
{
    int vi = ir_var_of(w->c, clang_getCursorReferenced(ref), w->frame);
    if (vi < 0)
        return;
    ir_var *v = &w->c->ir->vars[vi];
    long off = ref_offset(w, clang_getCursorLocation(ref), bare_name(v));
    if (off < 0) {
        v->refs_hidden = 1;
        return;
    }
    if (!first_sight(w->seen, vi, (unsigned)off))
        return; /* a macro argument expanded twice */
    VEC_PUSH_POW2(v->refs, v->nrefs, (unsigned)off); /* 100,000 references: 17 reallocs */
}

/* A declaration statement: each variable's statement, name and initialiser. */
static void note_decl_stmt(refs_walk *w, CXCursor stmt)
{
    const analysis *an = w->c->an;
    src_range sr;
    if (stmt_range(an, stmt, &sr) != 0)
        return;
    const src_file *f = &an->pr->files[sr.file];
    if (sr.end < f->len && f->text[sr.end] == ';')
        sr.end++; /* a for's init: the ';' after it belongs to the for */
    cursor_list ch = children_of(stmt);
    for (unsigned i = 0; i < ch.n; i++) {
        if (clang_getCursorKind(ch.v[i]) != CXCursor_VarDecl)
            continue;
        int vi = ir_var_of(w->c, ch.v[i], w->frame);
        if (vi < 0)
            continue;
        ir_var *v = &w->c->ir->vars[vi];
        src_pos np;
        if (parse_resolve(an->pr, clang_getCursorLocation(ch.v[i]), &np) != 0 ||
            !names_at(an, sr.file, np.offset, bare_name(v))) {
            v->refs_hidden = 1; /* declared inside a macro's own text: no statement to edit */
            continue;
        }
        v->decl_stmt = sr;
        v->name_at = np.offset;
        v->init.file = sr.file;
        v->init.begin = v->init.end = v->name_at;
        cursor_list vk = children_of(ch.v[i]);
        if (vk.n > 0 && clang_isExpression(clang_getCursorKind(vk.v[vk.n - 1]))) {
            src_range ir;
            CXCursor e = vk.v[vk.n - 1];
            if (cursor_range(an, e, &ir) == 0 && ir.file == sr.file && ir.begin > v->name_at) {
                unsigned k = v->name_at;
                while (k < ir.begin && f->text[k] != '=')
                    k++;
                if (k < ir.begin) { /* `= init`, not an array's bound */
                    v->init = ir;
                    v->init_list = clang_getCursorKind(e) == CXCursor_InitListExpr;
                }
            }
        }
        free(vk.v);
    }
    free(ch.v);
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    refs_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_DeclRefExpr)
        note_ref(w, cur);
    else if (k == CXCursor_DeclStmt)
        note_decl_stmt(w, cur);
    return CXChildVisit_Recurse;
}

/* The written flag of frame's variables, from the effects of the frame's body. */
static void note_written(ir_ctx *c, const effects *fx, unsigned frame)
{
    for (unsigned i = 0; i < c->ir->nvars; i++) {
        ir_var *v = &c->ir->vars[i];
        if (v->frame != frame || clang_Cursor_isNull(v->decl))
            continue;
        for (unsigned j = 0; j < fx->nwrites; j++)
            if (clang_equalCursors(fx->writes[j], v->decl))
                v->flags |= IR_VAR_WRITTEN;
    }
}

static void note_body(ir_ctx *c, CXCursor body, unsigned frame, ref_seen **seen)
{
    src_range br;
    if (cursor_range(c->an, body, &br) != 0)
        return;
    refs_walk w = {c, br.file, br.begin, br.end, frame, seen};
    clang_visitChildren(body, visit, &w);
}

/* A variable of a macro's own text: its declaration and every reference there (no
 * declaration statement read, no reference seen), and its name no other variable's, so no
 * text the state machine substitutes or renames can mean it. */
static void note_macro_own(ir_kernel *ir)
{
    for (unsigned i = 0; i < ir->nvars; i++) { /* the candidates */
        ir_var *v = &ir->vars[i];
        v->macro_own = v->refs_hidden && !v->nrefs && !v->decl_stmt.end &&
                       !(v->flags & (IR_VAR_PARAM | IR_VAR_RETURN));
    }
    for (unsigned i = 0; i < ir->nvars; i++) { /* a name another variable has: not one */
        const ir_var *w = &ir->vars[i];
        for (unsigned j = 0; j < ir->nvars && !w->macro_own; j++)
            if (ir->vars[j].macro_own && !strcmp(bare_name(&ir->vars[j]), bare_name(w)))
                ir->vars[j].macro_own = 2; /* marked: cleared below */
    }
    for (unsigned i = 0; i < ir->nvars; i++)
        if (ir->vars[i].macro_own == 2)
            ir->vars[i].macro_own = 0;
}

void ir_note_refs(ir_ctx *c, CXCursor body)
{
    ref_seen *seen = NULL;
    note_body(c, body, 0, &seen);
    if (!c->ir->root) {
        seen_free(&seen);
        return;
    }
    note_written(c, &c->ir->root->fx, 0);
    /* each inlined helper's text, in its frame (the state machine inlines it at the call) */
    for (unsigned i = 0; i < c->ir->nnodes; i++) {
        const ir_node *n = c->ir->nodes[i];
        if (n->kind != IR_CALL || !n->nkids)
            continue;
        note_body(c, last_child_of_kind(n->call.callee, CXCursor_CompoundStmt), n->id, &seen);
        note_written(c, &n->kids[0]->fx, n->id);
    }
    seen_free(&seen);
    note_macro_own(c->ir);
}
