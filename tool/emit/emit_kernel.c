/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_kernel.c - the pieces of the kernel file made from the user's text:
 * the original source with its user headers inlined, copies of the helpers
 * that see the original ids, the classifier, and the leaf bodies.
 *
 * Leaf kernels are the kernel's own body text with edits: each decision on
 * the leaf's path is replaced by the branch the path takes (a switch keeps
 * its cases and gets a constant controlling value). The classifier is the
 * condition tree itself, walked path by path, with only the slice's
 * statements kept. Work-item builtins are remapped by macros in the
 * prelude, so user macros and helpers see the original ids too.
 */
#include "emit_int.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_facts.h"
#include "util.h"

/* ---- original source, user headers inlined ---------------------------- */

/* Appends file's text[from, to) with the #error lines of macro_deps.h inserted. */
static void put_guarded(strbuf *sb, const inclusions *inc, unsigned file, unsigned from,
                        unsigned to)
{
    const src_file *f = &inc->an->pr->files[file];
    for (unsigned i = 0; i < inc->md->nins; i++) {
        const macro_insert *in = &inc->md->ins[i];
        unsigned at = in->offset > f->len ? (unsigned)f->len : in->offset;
        if (in->file != file || at < from || at > to || (at == to && to != f->len))
            continue;
        sb_putn(sb, f->text + from, at - from);
        if (sb->len && sb->data[sb->len - 1] != '\n')
            sb_putc(sb, '\n');
        sb_puts(sb, in->text);
        if (inc->lines) /* the user's lines after the inserted #error keep their numbers */
            put_line_directive(sb, text_line_at(f->text, at), f->path);
        from = at;
    }
    sb_putn(sb, f->text + from, to - from);
}

/* Is text[b, e) a `#pragma once` line? */
static int pragma_once_line(const char *t, size_t b, size_t e)
{
    static const char *const words[] = {"#", "pragma", "once"};
    for (unsigned w = 0; w < 3; w++) {
        while (b < e && (t[b] == ' ' || t[b] == '\t'))
            b++;
        size_t n = strlen(words[w]);
        if (e - b < n || strncmp(t + b, words[w], n) != 0)
            return 0;
        b += n;
    }
    while (b < e && isspace((unsigned char)t[b]))
        b++;
    return b == e || (e - b >= 2 && t[b] == '/' && (t[b + 1] == '/' || t[b + 1] == '*'));
}

/*
 * An inlined header's `#pragma once` becomes a comment: the header's text is in
 * the generated file once, and clang warns of a #pragma once in a main file.
 */
static void comment_pragma_once(strbuf *sb, size_t from)
{
    char *t = sb->data;
    for (size_t b = from; t && b < sb->len;) {
        size_t e = b;
        while (e < sb->len && t[e] != '\n')
            e++;
        if (!pragma_once_line(t, b, e)) {
            b = e + 1;
            continue;
        }
        strbuf tail;
        sb_init(&tail);
        sb_putn(&tail, t + e, sb->len - e);
        sb->len = b;
        sb->data[b] = '\0';
        sb_puts(sb, "/* nplus1gen: #pragma once: the header is inlined once */");
        b = sb->len + 1;
        sb_putn(sb, tail.data, tail.len);
        sb_free(&tail);
        t = sb->data;
    }
}

void emit_file_inlined(strbuf *sb, const inclusions *inc, unsigned file, unsigned depth)
{
    const src_file *f = &inc->an->pr->files[file];
    unsigned pos = 0;
    if (inc->lines)
        put_line_directive(sb, 1, f->path);
    for (unsigned i = 0; i < inc->n; i++) {
        const parse_inclusion *in = &inc->v[i];
        if (in->includer != file || in->offset < pos || in->offset > f->len || depth > 64)
            continue;
        unsigned ls, le;
        parse_logical_line(f, in->offset, &ls, &le); /* `#include \` may go on to the next line */
        if (ls < pos)
            continue;
        size_t at = sb->len;
        put_guarded(sb, inc, file, pos, ls);
        if (depth)
            comment_pragma_once(sb, at);
        const char *path = inc->an->pr->files[in->included].path, *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        if (in->skipped) { /* as the preprocessor did: the header's text is above */
            sb_printf(sb, "/* nplus1gen: %.*s: not entered again (%s is guarded) */", (int)(le - ls),
                      f->text + ls, base);
            pos = le;
            continue;
        }
        sb_printf(sb, "/* nplus1gen: %.*s */\n", (int)(le - ls), f->text + ls);
        emit_file_inlined(sb, inc, in->included, depth + 1);
        if (sb->len && sb->data[sb->len - 1] != '\n')
            sb_putc(sb, '\n');
        sb_printf(sb, "/* nplus1gen: end of %s */", base);
        if (inc->lines) { /* the includer goes on after its #include line */
            sb_putc(sb, '\n');
            put_line_directive(sb, text_line_at(f->text, le) + 1, f->path);
            sb->data[--sb->len] = '\0'; /* the include line's own newline ends it */
        }
        pos = le;
    }
    size_t at = sb->len;
    put_guarded(sb, inc, file, pos, (unsigned)f->len);
    if (depth)
        comment_pragma_once(sb, at);
    if (sb->len && sb->data[sb->len - 1] != '\n')
        sb_putc(sb, '\n');
}

/* ---- helpers that see the original ids -------------------------------- */

static unsigned matching_paren(const src_file *f, unsigned open)
{
    int depth = 0;
    for (unsigned i = open; i < f->len; i++) {
        if (f->text[i] == '(')
            depth++;
        else if (f->text[i] == ')' && --depth == 0)
            return i;
    }
    return open;
}

static void helper_signature_edits(const wi_helper *h, const src_file *f, edits *es)
{
    char name[300];
    snprintf(name, sizeof name, "%s__nplus1", h->name);
    add_edit(es, h->name_begin, h->name_end, name);
    if (h->nparams == 0)
        add_edit(es, h->lparen + 1, matching_paren(f, h->lparen), "const nplus1_wi_t nplus1_wi");
    else
        add_edit(es, h->lparen + 1, h->lparen + 1, "const nplus1_wi_t nplus1_wi, ");
}

void emit_helpers(emitter *e, strbuf *sb)
{
    const analysis *an = e->an;
    if (!an->nhelpers)
        return;
    expand(e, sb, &e->kt, "helpers-begin", NULL, 0);
    for (unsigned i = 0; i < an->nhelpers; i++) {
        tmpl_var v[] = {{"NAME", an->helpers[i].name},
                        {"ARGS", an->helpers[i].nparams ? "1" : ""}};
        expand(e, sb, &e->kt, "helper-macro", v, NV(v));
    }
    for (unsigned i = 0; i < an->nhelpers; i++) { /* prototypes: any order of use works */
        const wi_helper *h = &an->helpers[i];
        const src_file *f = &an->pr->files[h->range.file];
        edits es = {0};
        es.line_path = line_path(e, h->range.file);
        helper_signature_edits(h, f, &es);
        put_line(sb, e, h->range.file, h->range.line);
        put_edited(sb, f->text, h->range.begin, matching_paren(f, h->lparen) + 1, &es);
        sb_puts(sb, ";\n");
        edits_free(&es);
    }
    for (unsigned i = 0; i < an->nhelpers; i++) {
        const wi_helper *h = &an->helpers[i];
        const src_file *f = &an->pr->files[h->range.file];
        edits es = {0};
        es.line_path = line_path(e, h->range.file);
        helper_signature_edits(h, f, &es);
        put_line(sb, e, h->range.file, h->range.line);
        put_edited(sb, f->text, h->range.begin, h->range.end, &es);
        sb_puts(sb, "\n");
        edits_free(&es);
    }
    put_line_back(sb, e);
    expand(e, sb, &e->kt, "helpers-end", NULL, 0);
}

/*
 * The tile kernel's body with regrouping off (tile-in-place): the kernel's body as
 * written between the #undef of every helper copy's macro (the body calls the helpers of
 * the original, which read the builtins themselves) and their macros again.
 */
char *in_place_body(emitter *e, const kernel_plan *kp)
{
    const analysis *an = e->an;
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < an->nhelpers; i++)
        sb_printf(&sb, "#undef %s\n", an->helpers[i].name);
    char *body = leaf_body_merged(e, kp);
    sb_puts(&sb, body);
    free(body);
    for (unsigned i = 0; i < an->nhelpers; i++) {
        tmpl_var v[] = {{"NAME", an->helpers[i].name},
                        {"ARGS", an->helpers[i].nparams ? "1" : ""}};
        expand(e, &sb, &e->kt, "helper-macro", v, NV(v));
    }
    return sb_steal(&sb);
}

/* ---- the classifier ----------------------------------------------------- */

/* The classify phase keeps the carried variables at nplus1_slot. */
static void ctx_stores(emitter *e, strbuf *sb, const kernel_context *cx)
{
    if (!cx->bytes)
        return;
    expand(e, sb, &e->kt, "ctx-stores", NULL, 0);
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        char count[16];
        snprintf(count, sizeof count, "%u", v->count);
        tmpl_var sv[] = {{"NAME", v->name}, {"COUNT", count}, {"ARRAY", v->count ? "1" : ""}};
        if (v->carried)
            expand(e, sb, &e->kt, "ctx-store", sv, NV(sv));
    }
}

typedef struct classify_emitter {
    emitter *e;
    const kernel_plan *kp;
    strbuf *sb;
    unsigned depth;
    unsigned path;
    const kernel_context *cx; /* the classify phase keeps this context, or NULL */
} classify_emitter;

static void indent(classify_emitter *c)
{
    for (unsigned i = 0; i < c->depth + 1; i++)
        sb_puts(c->sb, "    ");
}

static void put_range(strbuf *sb, const analysis *an, src_range r)
{
    put_active_range(an, sb, r); /* cut from the active text: never half of an #if */
}

static void ce_stmt(void *ud, const seq_item *it)
{
    classify_emitter *c = ud;
    if (!plan_in_slice(c->kp, it) && !(c->cx && context_in_prologue(c->cx, it)))
        return;
    put_line(c->sb, c->e, it->range.file, it->range.line);
    indent(c);
    put_range(c->sb, c->e->an, it->range);
    sb_putc(c->sb, '\n');
}

static void ce_decision_begin(void *ud, const decision *d)
{
    classify_emitter *c = ud;
    if (c->cx && d == c->kp->k->top.items[c->cx->at].decision)
        ctx_stores(c->e, c->sb, c->cx);
    if (d->kind != DEC_SWITCH)
        return;
    put_line(c->sb, c->e, d->cond.file, d->cond.line);
    indent(c);
    sb_puts(c->sb, "switch (");
    put_range(c->sb, c->e->an, d->cond);
    sb_puts(c->sb, ") {\n");
    c->depth++;
}

/* s without its leading and trailing blanks (a label as written), in a static buffer. */
static const char *trimmed(const char *s)
{
    static char buf[512];
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
        n--;
    snprintf(buf, sizeof buf, "%.*s", (int)n, s);
    return buf;
}

/* The first value of a label as written: "A" of the GNU range "A ... B". */
static const char *label_first(const char *label)
{
    static char buf[512];
    const char *dots = strstr(label, "...");
    snprintf(buf, sizeof buf, "%.*s", (int)(dots ? dots - label : (long)strlen(label)), label);
    return trimmed(buf);
}

/*
 * A case value as a literal of a type that holds it: 'L' where it needs 64 bits or the
 * switch's value has them (a leaf's '(1)' in place of a long value would convert its
 * case labels to int: 0x100000001L and 0x1L would both be 1).
 */
static void case_literal(char *buf, size_t n, long long v, int wide)
{
    if (v == LLONG_MIN)
        snprintf(buf, n, "(-9223372036854775807L - 1)");
    else if (wide || v < INT_MIN || v > INT_MAX)
        snprintf(buf, n, "%lldL", v);
    else
        snprintf(buf, n, "%lld", v);
}

static void ce_branch_begin(void *ud, const decision *d, unsigned b)
{
    classify_emitter *c = ud;
    const branch *br = &d->branches[b];
    if (br->kind == BR_IF)
        put_line(c->sb, c->e, br->cond.file, br->cond.line);
    indent(c);
    switch (br->kind) {
    case BR_IF:
        sb_puts(c->sb, b == 0 ? "if (" : "else if (");
        put_range(c->sb, c->e->an, br->cond);
        sb_puts(c->sb, ") {\n");
        break;
    case BR_ELSE:
    case BR_IMPLICIT_ELSE:
        sb_puts(c->sb, "else {\n");
        break;
    case BR_CASE:
    case BR_DEFAULT:
        if (br->macro_labels) { /* as written: the labels follow their macros' values */
            for (unsigned i = 0; i < br->nlabels; i++)
                sb_printf(c->sb, "case %s: ", trimmed(br->labels[i]));
        } else {
            for (unsigned i = 0; i < br->nvalues; i++) {
                char lit[40];
                case_literal(lit, sizeof lit, br->values[i], 0);
                sb_printf(c->sb, "case %s: ", lit);
            }
        }
        sb_puts(c->sb, br->kind == BR_DEFAULT ? "default: {\n" : "{\n");
        break;
    case BR_IMPLICIT_DEFAULT:
        sb_puts(c->sb, "default: {\n");
        break;
    }
    c->depth++;
}

static void ce_branch_end(void *ud, const decision *d, unsigned b)
{
    (void)d;
    (void)b;
    classify_emitter *c = ud;
    c->depth--;
    indent(c);
    sb_puts(c->sb, "}\n");
}

static void ce_decision_end(void *ud, const decision *d)
{
    classify_emitter *c = ud;
    if (d->kind != DEC_SWITCH)
        return;
    c->depth--;
    indent(c);
    sb_puts(c->sb, "}\n");
}

static void ce_path_end(void *ud, const choice *path, unsigned npath, int returned, unsigned fx,
                        double cost)
{
    (void)path, (void)npath, (void)returned, (void)fx, (void)cost;
    classify_emitter *c = ud;
    const leaf *lf = &c->kp->leaves[c->path++];
    indent(c);
    if (lf->kernel < 0)
        sb_puts(c->sb, "return -1; /* nothing to do */\n");
    else
        sb_printf(c->sb, "return %d;\n", lf->kernel);
}

/* The classifier's body; with cx, it runs the whole prologue and keeps the context. */
char *classifier_body(emitter *e, const kernel_plan *kp, const kernel_context *cx)
{
    strbuf sb;
    sb_init(&sb);
    classify_emitter c = {e, kp, &sb, 0, 0, cx};
    walk_visitor v = {ce_stmt, ce_decision_begin, ce_branch_begin, ce_branch_end,
                      ce_decision_end, ce_path_end, &c};
    walk_tree(&kp->k->top, kp->decisions, &v);
    put_line_back(&sb, e);
    sb_puts(&sb, "    return -1;");
    return sb_steal(&sb);
}

/* ---- leaf bodies --------------------------------------------------------- */

/*
 * Conditions that write private variables (an out-parameter '&t' of a
 * helper) are evaluated again in the leaf, in order, for those writes: the
 * leaf then holds what the original held after the decision.
 */
static void put_condition_writes(strbuf *sb, const analysis *an, const decision *d, unsigned b)
{
    if (!(d->cond_fx.bits & EFF_LOCAL_WRITE))
        return;
    for (unsigned i = 0; i < d->nbranches && i <= b; i++) {
        if (d->branches[i].kind != BR_IF)
            continue;
        sb_puts(sb, "(void)(");
        put_active_range(an, sb, d->branches[i].cond);
        sb_puts(sb, "); ");
    }
}

void path_edits(const analysis *an, const leaf *lf, edits *es)
{
    for (unsigned i = 0; i < lf->npath; i++) {
        const decision *d = lf->path[i].d;
        const branch *br = &d->branches[lf->path[i].branch];
        char buf[96];
        strbuf sb;
        sb_init(&sb);
        char lit[40];
        if (d->kind == DEC_SWITCH && d->macro_labels) {
            /* the labels follow their macros: a case leaf switches on its label as written;
             * a default leaf keeps the controlling value, which no label matches for it */
            if (br->kind == BR_CASE && br->macro_labels) {
                sb_printf(&sb, "(%s) /* nplus1: this leaf's case */", label_first(br->labels[0]));
            } else if (br->kind == BR_CASE) {
                case_literal(lit, sizeof lit, br->values[0], emit_facts_switch_wide(d));
                sb_printf(&sb, "(%s) /* nplus1: this leaf's case */", lit);
            }
            if (sb.len)
                add_edit(es, d->cond.begin, d->cond.end, sb.data);
        } else if (d->kind == DEC_SWITCH) {
            case_literal(lit, sizeof lit,
                         br->kind == BR_CASE ? br->values[0] : d->default_value,
                         emit_facts_switch_wide(d));
            snprintf(buf, sizeof buf, "(%s) /* nplus1: this leaf's case */", lit);
            add_edit(es, d->cond.begin, d->cond.end, buf);
        } else if (br->kind == BR_IMPLICIT_ELSE) {
            sb_printf(&sb, "/* nplus1: no branch of the if at line %u */ ", d->range.line);
            put_condition_writes(&sb, an, d, lf->path[i].branch);
            if (!(d->cond_fx.bits & EFF_LOCAL_WRITE))
                sb_puts(&sb, ";");
            add_edit(es, d->range.begin, d->range.end, sb.data);
        } else {
            /* no braces of its own: a split if sits in a block, a case, or a split if's
             * branch (never a loop's or a kept if's), so its statements may stand there,
             * and nesting stays the input's (clang allows 256 levels) */
            sb_printf(&sb, "/* nplus1: branch %u of the if at line %u */ ", lf->path[i].branch,
                      d->range.line);
            put_condition_writes(&sb, an, d, lf->path[i].branch);
            add_edit(es, d->range.begin, br->body.begin, sb.data);
            add_edit(es, br->body.end, d->range.end, "");
        }
        sb_free(&sb);
    }
}

char *leaf_body(emitter *e, const kernel_plan *kp, const leaf *lf)
{
    const kernel_info *k = kp->k;
    const src_file *f = &e->an->pr->files[k->body.file];
    edits es = {0};
    es.line_path = line_path(e, k->body.file);
    path_edits(e->an, lf, &es);
    strbuf sb;
    sb_init(&sb);
    put_line(&sb, e, k->body.file, k->body.line);
    put_edited_in(&sb, e->an, k->body.file, f->text, k->body.begin, k->body.end, &es);
    edits_free(&es);
    put_line_back_after_body(&sb, e);
    return sb_steal(&sb);
}

/* The merged kernel runs the original body: its cheap leaves diverge cheaply. */
char *leaf_body_merged(emitter *e, const kernel_plan *kp)
{
    strbuf sb;
    sb_init(&sb);
    put_line(&sb, e, kp->k->body.file, kp->k->body.line);
    put_active_range(e->an, &sb, kp->k->body);
    put_line_back_after_body(&sb, e);
    return sb_steal(&sb);
}
