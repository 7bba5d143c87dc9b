/* SPDX-License-Identifier: Apache-2.0 */
/*
 * machine_emit.c - the generated text of the state machine (machine.h): the
 * item's context struct, the kernel's body as one resumable function and
 * the tile kernel that runs it round by round. The text is kernel.cl.tmpl's
 * machine-* fragments; this file fills them with data and edits the user's
 * body by the offsets the IR holds (ir_refs.c): each reference of a context
 * variable becomes its member, its declaration an assignment, each regroup
 * point a yield and a label to resume at, each `return` a `return -1`. A
 * helper that holds a regroup point is inlined at its call: its body's text,
 * edited the same way in its own frame, goes before the call's statement
 * (its parameters set from the arguments, each `return v` an assignment to
 * the call's result and a jump to the end of the inlined text), and the call
 * becomes its result.
 */
#include "emit_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Fragment name expanded into a string, its last newline dropped. */
static char *piece(emitter *e, const char *name, const tmpl_var *v, unsigned n)
{
    strbuf sb;
    sb_init(&sb);
    emit_expand(e, &sb, &e->kt, name, v, n);
    emit_text_chomp(&sb);
    return sb_steal(&sb);
}

#define NUM(buf, n) (snprintf((buf), sizeof(buf), "%u", (unsigned)(n)), (buf))

static void edit_piece(emitter *e, edits *es, unsigned begin, unsigned end, const char *name,
                       const tmpl_var *v, unsigned n, const char *tail)
{
    char *t = piece(e, name, v, n);
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, t);
    sb_puts(&sb, tail);
    emit_add_edit(es, begin, end, sb.data ? sb.data : "");
    sb_free(&sb);
    free(t);
}

static const char *bare(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

/* What the emission of one kernel's machine shares across its frames. */
typedef struct frames {
    unsigned char *cut;   /* by node id: a call node whose helper is inlined */
    char **arg;           /* by variable: a substituted parameter's argument text */
    strbuf *members;      /* the switch values' members */
} frames;

/* The context member of variable vi, or -1. */
static int member_of(const machine_plan *mp, unsigned vi)
{
    for (unsigned i = 0; i < mp->nvars; i++)
        if (mp->vars[i].var == vi)
            return (int)i;
    return -1;
}

/* How the machine's text names variable vi: its member, or its own name (an inlined
 * helper's renamed by its frame). */
static char *var_text(emitter *e, const kernel_plan *kp, unsigned vi)
{
    const machine_plan *mp = &kp->machine;
    const ir_var *v = &kp->k->ir->vars[vi];
    int m = member_of(mp, vi);
    if (m >= 0) {
        tmpl_var mv[] = {{"MEMBER", mp->vars[m].member}, {"TYPE", v->type}};
        return piece(e, "machine-ref", mv, NV(mv));
    }
    if (v->frame == 0)
        return xstrdup(bare(v->name));
    char id[16];
    tmpl_var nv[] = {{"NAME", v->flags & IR_VAR_RETURN ? "nplus1_ret" : bare(v->name)},
                     {"ID", NUM(id, v->frame)}};
    return piece(e, "machine-inline-name", nv, NV(nv));
}

/* An inlined helper's variables outside the context: each reference and its declaration's
 * name renamed by the frame (no name of the caller's is hidden, none hides one); a
 * parameter that stands for its argument: each reference the argument. */
static void frame_var_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame,
                            const frames *fs)
{
    const ir_kernel *ir = kp->k->ir;
    for (unsigned i = 0; i < ir->nvars; i++) {
        const ir_var *v = &ir->vars[i];
        if (v->frame != frame || member_of(&kp->machine, i) >= 0 || v->macro_own)
            continue; /* a macro's temporary keeps its name, inside the macro's text */
        size_t len = strlen(bare(v->name));
        char *name = kp->machine.subst[i] && fs->arg[i] ? NULL : var_text(e, kp, i);
        strbuf sb;
        sb_init(&sb);
        if (name)
            sb_puts(&sb, name);
        else
            sb_printf(&sb, "(%s)", fs->arg[i]);
        for (unsigned r = 0; r < v->nrefs; r++)
            emit_add_edit(es, v->refs[r], v->refs[r] + (unsigned)len, sb.data);
        if (name && v->decl_stmt.end)
            emit_add_edit(es, v->name_at, v->name_at + (unsigned)len, name);
        sb_free(&sb);
        free(name);
    }
}

/* Whether word [w, w + n) is a qualifier a declarator may carry before its name. */
static int declarator_qualifier(const char *w, size_t n)
{
    static const char *const q[] = {"const", "volatile", "restrict", "__private", "private",
                                    "__global", "global", "__local", "local", "__constant",
                                    "constant", "__generic", "generic"};
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        if (strlen(q[i]) == n && !strncmp(w, q[i], n))
            return 1;
    return 0;
}

/* Where a later declarator of a shared declaration begins (`float a, *p = &b[1];`: just
 * after the comma before `*p`); the pointer stars and qualifiers between the comma and the
 * name are the declarator's, not an expression's, and must not stay before the member
 * (`*member = &...` would store through it). v->name_at when there is nothing to drop or the
 * text is not that plain. */
static unsigned declarator_head(const emitter *e, const ir_var *v)
{
    const char *t = e->an->pr->files[v->decl_stmt.file].text;
    unsigned at = v->name_at;
    while (at > v->decl_stmt.begin) {
        const unsigned char ch = (unsigned char)t[at - 1];
        if (ch == ',')
            return at;
        if (ch == '*' || isspace(ch)) {
            at--;
            continue;
        }
        if (!isalnum(ch) && ch != '_')
            return v->name_at;
        unsigned w = at;
        while (w > v->decl_stmt.begin && (isalnum((unsigned char)t[w - 1]) || t[w - 1] == '_'))
            w--;
        if (!declarator_qualifier(t + w, at - w))
            return v->name_at;
        at = w;
    }
    return v->name_at;
}

/* The context's variables of frame: each reference its member, a declaration an
 * assignment (a helper's parameters and result have none: set at the call). */
static void var_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame)
{
    const machine_plan *mp = &kp->machine;
    const ir_kernel *ir = kp->k->ir;
    for (unsigned i = 0; i < mp->nvars; i++) {
        const ir_var *v = &ir->vars[mp->vars[i].var];
        if (v->frame != frame)
            continue;
        tmpl_var mv[] = {{"MEMBER", mp->vars[i].member}, {"TYPE", v->type}};
        size_t len = strlen(bare(v->name));
        for (unsigned r = 0; r < v->nrefs; r++)
            edit_piece(e, es, v->refs[r], v->refs[r] + (unsigned)len, "machine-ref", mv, NV(mv),
                       "");
        if (!v->decl_stmt.end)
            continue; /* a helper's parameter or result */
        if (mp->vars[i].init_decl) { /* `{ int nplus1_init[4] = {...}; copy; }` */
            char *ref = piece(e, "machine-ref", mv, NV(mv));
            tmpl_var av[] = {{"DECL", mp->vars[i].init_decl}, {"REF", ref}};
            edit_piece(e, es, v->decl_stmt.begin, v->init.begin, "machine-array-init-head", av,
                       NV(av), "");
            edit_piece(e, es, v->decl_stmt.end, v->decl_stmt.end, "machine-array-init-tail", av,
                       NV(av), "");
            free(ref);
            continue;
        }
        /* the declaration statement's type goes once, before its first name */
        int first = 1;
        for (unsigned j = 0; j < mp->nvars; j++) {
            const ir_var *w = &ir->vars[mp->vars[j].var];
            if (j != i && w->frame == v->frame && w->decl_stmt.begin == v->decl_stmt.begin &&
                w->name_at < v->name_at)
                first = 0;
        }
        if (first) {
            emit_add_edit(es, v->decl_stmt.begin, v->name_at, "");
        } else {
            const unsigned head = declarator_head(e, v); /* its stars and qualifiers go */
            if (head < v->name_at)
                emit_add_edit(es, head, v->name_at, " ");
        }
        if (v->init.end > v->init.begin) {
            char *ref = piece(e, "machine-ref", mv, NV(mv));
            if (v->init_list) {
                edit_piece(e, es, v->name_at, v->init.begin, "machine-assign-list", mv, NV(mv), "");
            } else {
                strbuf sb;
                sb_init(&sb);
                sb_printf(&sb, "%s = ", ref);
                emit_add_edit(es, v->name_at, v->init.begin, sb.data);
                sb_free(&sb);
            }
            free(ref);
        } else {
            unsigned end = v->range.end > v->name_at ? v->range.end : v->name_at + (unsigned)len;
            edit_piece(e, es, v->name_at, end, "machine-ref", mv, NV(mv), "");
        }
    }
}

/* `return` in the kernel's own text: the item ends (-1). In an inlined helper's: its value
 * into the call's result, then the end of the inlined text. */
static void return_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame)
{
    const ir_kernel *ir = kp->k->ir;
    const ir_node *body = frame ? ir->nodes[frame]->kids[0] : ir->root;
    const char *text = e->an->pr->files[body->range.file].text;
    for (unsigned i = 0; i < ir->nnodes; i++) {
        const ir_node *n = ir->nodes[i];
        if (n->kind != IR_RETURN || n->frame != frame || n->in_helper != (frame != 0) ||
            n->range.file != body->range.file || strncmp(text + n->range.begin, "return", 6))
            continue;
        if (!frame) {
            edit_piece(e, es, n->range.begin, n->range.begin + 6, "machine-return", NULL, 0, "");
            continue;
        }
        char id[16];
        const int rv = ir->nodes[frame]->call.ret_var;
        char *ret = rv >= 0 ? var_text(e, kp, (unsigned)rv) : xstrdup("");
        tmpl_var v[] = {{"ID", NUM(id, frame)}, {"RET", ret}};
        unsigned k = n->range.begin + 6;
        while (k < n->range.end - 1 && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n'))
            k++;
        if (rv < 0 || k == n->range.end - 1) {
            edit_piece(e, es, n->range.begin, n->range.end, "machine-inline-return", v, NV(v), "");
        } else {
            edit_piece(e, es, n->range.begin, n->range.begin + 6, "machine-inline-return-value", v,
                       NV(v), "");
            edit_piece(e, es, n->range.end - 1, n->range.end, "machine-inline-return-tail", v,
                       NV(v), "");
        }
        free(ret);
    }
}

/* A switch arm's labels as case lines: "1, 2" -> " case 1: case 2:". */
static void arm_labels(emitter *e, strbuf *sb, const ir_arm *a)
{
    if (a->implicit || !a->labels) {
        char *d = piece(e, "machine-switch-default", NULL, 0);
        sb_puts(sb, d);
        free(d);
        return;
    }
    const char *s = a->labels;
    while (*s) {
        int depth = 0;
        const char *t = s;
        while (*t && !(depth == 0 && *t == ',')) {
            depth += *t == '(' || *t == '[';
            depth -= *t == ')' || *t == ']';
            t++;
        }
        while (*s == ' ')
            s++;
        size_t n = (size_t)(t - s);
        while (n && s[n - 1] == ' ')
            n--;
        char *label = xstrndup(s, n);
        char *c = !strcmp(label, "default") ? piece(e, "machine-switch-default", NULL, 0)
                                            : NULL;
        if (!c) {
            tmpl_var lv[] = {{"LABEL", label}};
            c = piece(e, "machine-switch-case", lv, NV(lv));
        }
        sb_puts(sb, c);
        free(c);
        free(label);
        s = *t ? t + 1 : t;
    }
}

/* Where a resuming lane goes from `from` (a loop around point n, or NULL: the function's
 * top) on its way to point n (the i-th): the next loop around n inside `from`, at its
 * head, or the point's own label. */
static void next_label(const ir_kernel *ir, const ir_node *n, const ir_node *from, unsigned i,
                       char *out, size_t size)
{
    const ir_node *next = NULL;
    for (const ir_node *q = n->parent; q && q != from; q = q->parent)
        if (q->kind == IR_LOOP) /* the kernel's, or an inlined helper's */
            next = q;
    (void)ir;
    if (next)
        snprintf(out, size, "nplus1_e%u", next->id);
    else
        snprintf(out, size, "nplus1_r%u", i);
}

/* Each loop around a regroup point: a label at its head, its init and test skipped while
 * the lane resumes, and its body's first statement the jump on towards the point. */
static void loop_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame)
{
    const machine_plan *mp = &kp->machine;
    const ir_kernel *ir = kp->k->ir;
    for (unsigned li = 0; li < ir->nnodes; li++) {
        const ir_node *l = ir->nodes[li];
        if (l->kind != IR_LOOP || l->frame != frame || !l->nkids)
            continue;
        strbuf cases;
        sb_init(&cases);
        for (unsigned i = 0; i < mp->npoints; i++) {
            const ir_node *n = ir->nodes[mp->points[i].node];
            int inside = 0;
            for (const ir_node *q = n->parent; q; q = q->parent)
                inside |= q == l;
            if (!inside)
                continue;
            char label[32], group[16];
            next_label(ir, n, l, i, label, sizeof label);
            for (unsigned g = 0; g < mp->points[i].narms; g++) {
                tmpl_var cv[] = {{"GROUP", NUM(group, mp->points[i].first + g)}, {"LABEL", label}};
                char *c = piece(e, "machine-loop-case", cv, NV(cv));
                sb_puts(&cases, c);
                free(c);
            }
        }
        if (!cases.len) {
            sb_free(&cases);
            continue;
        }
        char id[16];
        tmpl_var lv[] = {{"ID", NUM(id, l->id)}, {"CASES", cases.data}};
        edit_piece(e, es, l->range.begin, l->range.begin, "machine-loop-label", lv, NV(lv), " ");
        if (l->loop == IR_FOR && l->init_range.end > l->init_range.begin) {
            edit_piece(e, es, l->init_range.begin, l->init_range.begin, "machine-loop-init-head",
                       NULL, 0, "");
            edit_piece(e, es, l->init_range.end, l->init_range.end, "machine-close-paren", NULL, 0,
                       "");
        }
        if (l->loop != IR_DO && l->cond.range.end > l->cond.range.begin) {
            edit_piece(e, es, l->cond.range.begin, l->cond.range.begin, "machine-loop-cond-head",
                       NULL, 0, "");
            edit_piece(e, es, l->cond.range.end, l->cond.range.end, "machine-close-paren", NULL, 0,
                       "");
        }
        const src_range body = l->kids[0]->range;
        edit_piece(e, es, body.begin, body.begin, "machine-loop-body-head", lv, NV(lv), " ");
        edit_piece(e, es, body.end, body.end, "machine-close", NULL, 0, "");
        sb_free(&cases);
    }
}

/* A machine without regroup points: its loop's body counts the trips in the state (the
 * driver's probe compares the first items' counts: what refilling evens out). */
static void refill_edits(emitter *e, const kernel_plan *kp, edits *es)
{
    const machine_plan *mp = &kp->machine;
    if (!mp->refill_loop)
        return;
    const ir_node *l = kp->k->ir->nodes[mp->refill_loop - 1];
    if (!l->nkids)
        return;
    const src_range body = l->kids[0]->range;
    edit_piece(e, es, body.begin, body.begin, "machine-loop-count", NULL, 0, " ");
    edit_piece(e, es, body.end, body.end, "machine-close", NULL, 0, "");
}

/* Where each state resumes: the outermost loop around its point, or its label. */
static void resume_cases(emitter *e, const kernel_plan *kp, strbuf *resume)
{
    const machine_plan *mp = &kp->machine;
    const ir_kernel *ir = kp->k->ir;
    for (unsigned i = 0; i < mp->npoints; i++) {
        const machine_point *p = &mp->points[i];
        char entry[32], st[16];
        next_label(ir, ir->nodes[p->node], NULL, i, entry, sizeof entry);
        for (unsigned g = 0; g < p->narms; g++) {
            char *what = machine_group_text(e->an, kp->k, mp, p->first + g);
            char *safe = emit_comment_safe(what);
            tmpl_var rv[] = {{"STATE", NUM(st, p->first + g + 1)}, {"LABEL", entry},
                             {"WHAT", safe}};
            emit_expand(e, resume, &e->kt, "machine-resume", rv, NV(rv));
            free(what);
            free(safe);
        }
    }
}

static void point_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame,
                        strbuf *members)
{
    const machine_plan *mp = &kp->machine;
    const ir_kernel *ir = kp->k->ir;
    for (unsigned i = 0; i < mp->npoints; i++) {
        const machine_point *p = &mp->points[i];
        const ir_node *n = ir->nodes[p->node];
        if (n->frame != frame)
            continue;
        char num[16], a[16], b[16], line[16];
        NUM(num, i);
        NUM(line, p->line);
        const src_range body = n->kids[0]->range;
        if (n->kind == IR_IF) {
            tmpl_var v[] = {{"N", num}, {"THEN", NUM(a, p->first)}, {"ELSE", NUM(b, p->first + 1)}};
            edit_piece(e, es, n->range.begin, n->cond.range.begin, "machine-if-head", v, NV(v), "");
            edit_piece(e, es, n->cond.range.end, body.begin, "machine-if-tail", v, NV(v), " ");
        } else {
            tmpl_var sv[] = {{"N", num}, {"LINE", line}};
            emit_expand(e, members, &e->kt, "machine-sel", sv, NV(sv));
            strbuf arms;
            sb_init(&arms);
            for (unsigned g = 0; g < n->narms; g++) {
                strbuf labels;
                sb_init(&labels);
                arm_labels(e, &labels, &n->arms[g]);
                tmpl_var av[] = {{"LABELS", labels.data ? labels.data : ""},
                                 {"GROUP", NUM(a, p->first + g)}};
                char *arm = piece(e, "machine-switch-arm", av, NV(av));
                sb_puts(&arms, arm);
                free(arm);
                sb_free(&labels);
            }
            tmpl_var v[] = {{"N", num}, {"ARMS", arms.data ? arms.data : ""}};
            edit_piece(e, es, n->range.begin, n->cond.range.begin, "machine-switch-head", v,
                       NV(v), "");
            edit_piece(e, es, n->cond.range.end, body.begin, "machine-switch-tail", v, NV(v), " ");
            sb_free(&arms);
        }
        edit_piece(e, es, n->range.end, n->range.end, "machine-close", NULL, 0, "");
    }
}

static void frame_text(emitter *e, const kernel_plan *kp, unsigned frame, frames *fs,
                       strbuf *out);

/* Text [begin, end) of the frame's file with the frame's edits so far, without #line. */
static char *edited_range(emitter *e, unsigned file, unsigned begin, unsigned end, edits *es)
{
    edits plain = *es;
    plain.line_path = NULL;
    strbuf sb;
    sb_init(&sb);
    emit_put_edited_in(&sb, e->an, file, e->an->pr->files[file].text, begin, end, &plain);
    es->v = plain.v; /* sorted in place */
    return sb.data ? sb_steal(&sb) : xstrdup("");
}

/* Helper call c, inlined: its parameters set from the arguments (each argument's text as
 * the caller's frame edits it), its result declared outside the context, its body's text
 * (frame_text) and the end its returns jump to; the call itself becomes its result. */
static void inline_call(emitter *e, const kernel_plan *kp, edits *es, const ir_node *c,
                        frames *fs, strbuf *pre)
{
    const ir_kernel *ir = kp->k->ir;
    const machine_plan *mp = &kp->machine;
    char id[16];
    NUM(id, c->id);
    tmpl_var bv[] = {{"NAME", c->call.name}, {"ID", id}};
    emit_expand(e, pre, &e->kt, "machine-inline-begin", bv, NV(bv));
    emit_text_chomp(pre);
    for (unsigned i = 0; i < c->call.nbinds; i++) {
        const ir_binding *b = &c->call.binds[i];
        char *arg = edited_range(e, c->range.file, b->arg_range.begin, b->arg_range.end, es);
        if (mp->subst[b->var]) {
            free(fs->arg[b->var]);
            fs->arg[b->var] = arg;
            continue;
        }
        char *name = var_text(e, kp, b->var);
        tmpl_var pv[] = {{"TYPE", ir->vars[b->var].type}, {"NAME", name}, {"REF", name},
                         {"ARG", arg}};
        char *t = piece(e, member_of(mp, b->var) >= 0 ? "machine-inline-param-set"
                                                      : "machine-inline-param-decl",
                        pv, NV(pv));
        sb_puts(pre, t);
        free(t);
        free(name);
        free(arg);
    }
    char *ret = c->call.ret_var >= 0 ? var_text(e, kp, (unsigned)c->call.ret_var) : NULL;
    if (ret && member_of(mp, (unsigned)c->call.ret_var) < 0) {
        const char *type = ir->vars[c->call.ret_var].type;
        if (!strncmp(type, "const ", 6))
            type += 6;
        tmpl_var rv[] = {{"TYPE", type}, {"NAME", ret}};
        char *t = piece(e, "machine-inline-ret-decl", rv, NV(rv));
        sb_puts(pre, t);
        free(t);
    }
    frame_text(e, kp, c->id, fs, pre);
    int returns = 0;
    for (unsigned i = 0; i < ir->nnodes; i++)
        returns |= ir->nodes[i]->kind == IR_RETURN && ir->nodes[i]->frame == c->id;
    if (returns) {
        char *t = piece(e, "machine-inline-exit", bv, NV(bv));
        sb_puts(pre, t);
        free(t);
    }
    if (ret)
        emit_add_edit(es, c->range.begin, c->range.end, ret);
    else
        edit_piece(e, es, c->range.begin, c->range.end, "machine-inline-void", NULL, 0, "");
    free(ret);
}

/* Each statement of frame whose expressions call a helper that holds a regroup point:
 * the helpers' text before it, in their order of evaluation; a statement that is no
 * declaration in braces of its own (it may be an if's arm). */
static void call_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame, frames *fs)
{
    const ir_kernel *ir = kp->k->ir;
    for (unsigned si = 0; si < ir->nnodes; si++) {
        const ir_node *st = ir->nodes[si];
        if (st->kind == IR_CALL || st->frame != frame)
            continue;
        strbuf pre;
        sb_init(&pre);
        for (unsigned j = 0; j < st->ncalls; j++)
            if (fs->cut[st->calls[j]->id])
                inline_call(e, kp, es, st->calls[j], fs, &pre);
        if (!pre.len) {
            sb_free(&pre);
            continue;
        }
        int decl = 0;
        for (unsigned i = 0; i < ir->nvars; i++)
            decl |= ir->vars[i].frame == frame && ir->vars[i].decl_stmt.end &&
                    ir->vars[i].decl_stmt.begin == st->range.begin;
        strbuf sb;
        sb_init(&sb);
        if (!decl) {
            char *t = piece(e, "machine-inline-open", NULL, 0);
            sb_puts(&sb, t);
            free(t);
            edit_piece(e, es, st->range.end, st->range.end, "machine-inline-close", NULL, 0, "");
        }
        sb_puts(&sb, pre.data);
        emit_add_edit(es, st->range.begin, st->range.begin, sb.data);
        sb_free(&sb);
        sb_free(&pre);
    }
}

/* The frame's edits: its variables, returns, regroup points, loops and inlined calls. */
static void frame_edits(emitter *e, const kernel_plan *kp, edits *es, unsigned frame, frames *fs)
{
    var_edits(e, kp, es, frame);
    if (frame)
        frame_var_edits(e, kp, es, frame, fs);
    return_edits(e, kp, es, frame);
    point_edits(e, kp, es, frame, fs->members);
    loop_edits(e, kp, es, frame);
    call_edits(e, kp, es, frame, fs);
}

/*
 * Whether an item may write memory and then move to another work-item at a regroup point:
 * the kernel's top-level statements up to the last one that holds a regroup point write
 * memory or take an atomic. The item may read what it wrote after the move, so the barrier
 * that hands its context over fences global memory too (OpenCL orders a work-group's
 * global accesses only at a barrier with CLK_GLOBAL_MEM_FENCE).
 */
static int writes_before_a_move(const ir_kernel *ir, const machine_plan *mp)
{
    const ir_node *root = ir->root;
    unsigned last = 0, bits = 0;
    int any = 0;
    for (unsigned i = 0; i < root->nkids; i++)
        for (unsigned p = 0; p < mp->npoints; p++)
            if (ir_holds(root->kids[i], ir->nodes[mp->points[p].node])) {
                last = i;
                any = 1;
            }
    for (unsigned i = 0; any && i <= last; i++)
        bits |= root->kids[i]->fx.bits;
    return (bits & (EFF_MEM_WRITE | EFF_ATOMIC)) != 0;
}

/* An inlined helper's body (frame), edited, on lines of its own: #line to the helper's. */
static void frame_text(emitter *e, const kernel_plan *kp, unsigned frame, frames *fs,
                       strbuf *out)
{
    const src_range r = kp->k->ir->nodes[frame]->kids[0]->range;
    edits es = {0};
    es.line_path = emit_line_path(e, r.file);
    frame_edits(e, kp, &es, frame, fs);
    sb_putc(out, '\n');
    emit_put_line(out, e, r.file, r.line);
    emit_put_edited_in(out, e->an, r.file, e->an->pr->files[r.file].text, r.begin, r.end, &es);
    sb_putc(out, '\n');
    emit_edits_free(&es);
}

void machine_emit_set(emitter *e, const kernel_plan *kp, strbuf *sb)
{
    const kernel_info *k = kp->k;
    const machine_plan *mp = &kp->machine;
    const ir_kernel *ir = k->ir;
    strbuf members, resume, body, points;
    sb_init(&members);
    sb_init(&resume);
    sb_init(&body);
    sb_init(&points);
    char line[16];
    for (unsigned i = 0; i < mp->nvars; i++) {
        const ir_var *v = &ir->vars[mp->vars[i].var];
        tmpl_var mv[] = {{"DECL", mp->vars[i].decl}, {"LINE", NUM(line, v->range.line)}};
        emit_expand(e, &members, &e->kt, "machine-member", mv, NV(mv));
    }
    edits es = {0};
    const src_range r = ir->root->range;
    es.line_path = emit_line_path(e, r.file);
    frames fs = {xcalloc(ir->nnodes, 1), xcalloc(ir->nvars ? ir->nvars : 1, sizeof(char *)),
                 &members};
    for (unsigned i = 0; i < mp->npoints; i++)
        for (unsigned f = ir->nodes[mp->points[i].node]->frame; f; f = ir->nodes[f]->frame)
            fs.cut[f] = 1;
    resume_cases(e, kp, &resume);
    frame_edits(e, kp, &es, 0, &fs);
    refill_edits(e, kp, &es);
    for (unsigned i = 0; i < mp->npoints; i++)
        sb_printf(&points, "%sline %u", i ? ", " : "", mp->points[i].line);
    if (!mp->npoints && mp->regroup < 0)
        sb_puts(&points, "no regroup point: regrouping off, and a forced policy refills only");
    else if (!mp->npoints)
        sb_printf(&points, "no regroup point (the loop at line %u, refill only)",
                  mp->refill_loop ? ir->nodes[mp->refill_loop - 1]->line : 0);
    emit_put_line(&body, e, r.file, r.line);
    emit_put_edited_in(&body, e->an, r.file, e->an->pr->files[r.file].text, r.begin, r.end, &es);
    sb_putc(&body, '\n');
    emit_put_line_back(&body, e);
    emit_edits_free(&es);
    for (unsigned i = 0; i < ir->nvars; i++)
        free(fs.arg[i]);
    free(fs.arg);
    free(fs.cut);
    emit_text_chomp(&members);
    emit_text_chomp(&resume);
    emit_text_chomp(&body);
    char *params = kernel_param_list(k, 0), *args = kernel_param_list(k, 1);
    char nleaves[16], bytes[16], regroup[16], why[200];
    NUM(nleaves, mp->ngroups);
    NUM(bytes, mp->bytes);
    snprintf(regroup, sizeof regroup, "%d", mp->regroup);
    if (mp->regroup < 0)
        snprintf(why, sizeof why, "off: no regroup point, and refilling does not pay");
    else
        snprintf(why, sizeof why, "its costliest regroup point's arm takes about %.0f "
                 "operations, a regrouping round about %.0f", mp->arm_cost, mp->round_cost);
    char *ipw = emit_comment_safe(mp->in_place_why), *original = emit_in_place_body(e, kp);
    tmpl_var v[] = {{"K", k->name},
                    {"MOVE_FENCE", writes_before_a_move(ir, mp) ? "1" : ""},
                    {"PARAMS", params},
                    {"ARGS", args},
                    {"REGROUP", regroup},
                    {"REGROUP_WHY", why},
                    {"IN_PLACE", mp->in_place ? "1" : ""},
                    {"NO_POINT", mp->npoints ? "" : "1"},
                    {"OFF", mp->regroup < 0 ? "1" : ""},
                    {"IN_PLACE_WHY", ipw},
                    {"NLEAVES", nleaves},
                    {"POINTS", points.data ? points.data : ""},
                    {"BYTES", bytes},
                    {"MEMBERS", members.data ? members.data : ""},
                    {"RESUME", resume.data ? resume.data : ""},
                    {"BODY", body.data ? body.data : ""},
                    {"ORIGINAL", original}, {"POLICY", "NPLUS1_LOOP_REGROUP"}};
    emit_expand(e, sb, &e->kt, "machine-begin", v, NV(v));
    emit_expand(e, sb, &e->kt, "machine-run", v, NV(v));
    emit_expand(e, sb, &e->kt, "machine-tile", v, NV(v));
    emit_expand(e, sb, &e->kt, "machine-end", v, NV(v));
    free(ipw);
    free(original);
    free(params);
    free(args);
    sb_free(&members);
    sb_free(&resume);
    sb_free(&body);
    sb_free(&points);
}
