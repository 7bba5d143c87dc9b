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
 * prelude, so user macros and helpers see the original ids too. The text
 * around the user's is kernel.cl.tmpl's (include-*, helper-*, classify-*,
 * leaf-*): this file gives the fragments the user's text, numbers and the
 * indentation.
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
            emit_put_line_directive(sb, parse_newline_line(inc->an->pr, file, at), f->path);
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
static void comment_pragma_once(emitter *em, strbuf *sb, size_t from)
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
        emit_expand_inline(em, sb, "pragma-once", NULL, 0);
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
        emit_put_line_directive(sb, 1, f->path);
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
            comment_pragma_once(inc->e, sb, at);
        const char *path = inc->an->pr->files[in->included].path, *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        char *line = xstrndup(f->text + ls, le - ls);
        tmpl_var v[] = {{"LINE", line}, {"BASE", base}};
        if (in->skipped) { /* as the preprocessor did: the header's text is above */
            emit_expand_inline(inc->e, sb, "include-skipped", v, NV(v));
            free(line);
            pos = le;
            continue;
        }
        emit_expand(inc->e, sb, &inc->e->kt, "include-begin", v, NV(v));
        emit_file_inlined(sb, inc, in->included, depth + 1);
        if (sb->len && sb->data[sb->len - 1] != '\n')
            sb_putc(sb, '\n');
        emit_expand_inline(inc->e, sb, "include-end", v, NV(v));
        free(line);
        if (inc->lines) { /* the includer goes on after its #include line */
            sb_putc(sb, '\n');
            emit_put_line_directive(sb, parse_newline_line(inc->an->pr, file, le) + 1, f->path);
            sb->data[--sb->len] = '\0'; /* the include line's own newline ends it */
        }
        pos = le;
    }
    size_t at = sb->len;
    put_guarded(sb, inc, file, pos, (unsigned)f->len);
    if (depth)
        comment_pragma_once(inc->e, sb, at);
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

static void helper_signature_edits(emitter *e, const wi_helper *h, const src_file *f, edits *es)
{
    strbuf name, param;
    sb_init(&name);
    sb_init(&param);
    tmpl_var v[] = {{"NAME", h->name}};
    emit_expand_inline(e, &name, "helper-name", v, NV(v));
    emit_expand_inline(e, &param, "helper-wi-param", NULL, 0);
    emit_add_edit(es, h->name_begin, h->name_end, name.data ? name.data : "");
    if (h->nparams == 0) {
        emit_add_edit(es, h->lparen + 1, matching_paren(f, h->lparen),
                      param.data ? param.data : "");
    } else {
        sb_puts(&param, ", "); /* before the helper's own parameters */
        emit_add_edit(es, h->lparen + 1, h->lparen + 1, param.data);
    }
    sb_free(&name);
    sb_free(&param);
}

void emit_helpers(emitter *e, strbuf *sb)
{
    const analysis *an = e->an;
    if (!an->nhelpers)
        return;
    emit_expand(e, sb, &e->kt, "helpers-begin", NULL, 0);
    for (unsigned i = 0; i < an->nhelpers; i++) {
        tmpl_var v[] = {{"NAME", an->helpers[i].name},
                        {"ARGS", an->helpers[i].nparams ? "1" : ""}};
        emit_expand(e, sb, &e->kt, "helper-macro", v, NV(v));
    }
    for (unsigned i = 0; i < an->nhelpers; i++) { /* prototypes: any order of use works */
        const wi_helper *h = &an->helpers[i];
        const src_file *f = &an->pr->files[h->range.file];
        edits es = {0};
        es.line_path = emit_line_path(e, h->range.file);
        helper_signature_edits(e, h, f, &es);
        emit_macro_restore(e, sb, &h->restores, h->name);
        emit_put_line(sb, e, h->range.file, h->range.line);
        strbuf sig;
        sb_init(&sig);
        emit_put_edited(&sig, f->text, h->range.begin, matching_paren(f, h->lparen) + 1, &es);
        tmpl_var v[] = {{"SIGNATURE", sig.data ? sig.data : ""}};
        emit_expand(e, sb, &e->kt, "helper-prototype", v, NV(v));
        sb_free(&sig);
        emit_edits_free(&es);
        emit_macro_after(e, sb, &h->restores, h->name);
    }
    for (unsigned i = 0; i < an->nhelpers; i++) {
        const wi_helper *h = &an->helpers[i];
        const src_file *f = &an->pr->files[h->range.file];
        edits es = {0};
        es.line_path = emit_line_path(e, h->range.file);
        helper_signature_edits(e, h, f, &es);
        emit_macro_restore(e, sb, &h->restores, h->name);
        emit_put_line(sb, e, h->range.file, h->range.line);
        emit_put_edited(sb, f->text, h->range.begin, h->range.end, &es);
        sb_puts(sb, "\n");
        emit_edits_free(&es);
        emit_macro_after(e, sb, &h->restores, h->name);
    }
    emit_put_line_back(sb, e);
    emit_expand(e, sb, &e->kt, "helpers-end", NULL, 0);
}

/*
 * The tile kernel's body with regrouping off (tile-in-place): the kernel's body as
 * written between the #undef of every helper copy's macro (the body calls the helpers of
 * the original, which read the builtins themselves) and their macros again.
 */
char *emit_in_place_body(emitter *e, const kernel_plan *kp)
{
    const analysis *an = e->an;
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < an->nhelpers; i++) {
        tmpl_var v[] = {{"NAME", an->helpers[i].name}};
        emit_expand(e, &sb, &e->kt, "helper-unmacro", v, NV(v));
    }
    char *body = emit_leaf_body_merged(e, kp);
    sb_puts(&sb, body);
    /* the helper macros are directives: their own lines (under --no-line the body ends
     * at its closing brace) */
    if (body[0] && body[strlen(body) - 1] != '\n')
        sb_puts(&sb, "\n");
    free(body);
    for (unsigned i = 0; i < an->nhelpers; i++) {
        tmpl_var v[] = {{"NAME", an->helpers[i].name},
                        {"ARGS", an->helpers[i].nparams ? "1" : ""}};
        emit_expand(e, &sb, &e->kt, "helper-macro", v, NV(v));
    }
    return sb_steal(&sb);
}

/* ---- the classifier ----------------------------------------------------- */

/* The classify phase keeps the carried variables at nplus1_slot. */
static void ctx_stores(emitter *e, strbuf *sb, const kernel_context *cx)
{
    if (!cx->bytes)
        return;
    emit_expand(e, sb, &e->kt, "ctx-stores", NULL, 0);
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        char count[16];
        snprintf(count, sizeof count, "%u", v->count);
        tmpl_var sv[] = {{"NAME", v->name}, {"COUNT", count}, {"ARRAY", v->count ? "1" : ""}};
        if (v->carried)
            emit_expand(e, sb, &e->kt, "ctx-store", sv, NV(sv));
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

/* The indentation of the classifier's line at c's depth (a fragment's ${PAD}). */
static const char *pad(const classify_emitter *c)
{
    static char blanks[4 * 1024 + 1];
    size_t n = 4 * (size_t)(c->depth + 1);
    n = n < sizeof blanks - 1 ? n : sizeof blanks - 1;
    memset(blanks, ' ', n);
    blanks[n] = '\0';
    return blanks;
}

/* The text of r, cut from the active text (never half of an #if); free it. */
static char *range_copy(const analysis *an, src_range r)
{
    strbuf sb;
    sb_init(&sb);
    put_active_range(an, &sb, r);
    return sb.data ? sb_steal(&sb) : xstrdup("");
}

static void ce_stmt(void *ud, const seq_item *it)
{
    classify_emitter *c = ud;
    if (!plan_in_slice(c->kp, it) && !(c->cx && context_in_prologue(c->cx, it)))
        return;
    emit_put_line(c->sb, c->e, it->range.file, it->range.line);
    char *stmt = range_copy(c->e->an, it->range);
    tmpl_var v[] = {{"PAD", pad(c)}, {"STMT", stmt}};
    emit_expand(c->e, c->sb, &c->e->kt, "classify-stmt", v, NV(v));
    free(stmt);
}

static void ce_decision_begin(void *ud, const decision *d)
{
    classify_emitter *c = ud;
    if (c->cx && d == c->kp->k->top.items[c->cx->at].decision)
        ctx_stores(c->e, c->sb, c->cx);
    if (d->kind != DEC_SWITCH)
        return;
    emit_put_line(c->sb, c->e, d->cond.file, d->cond.line);
    char *cond = range_copy(c->e->an, d->cond);
    tmpl_var v[] = {{"PAD", pad(c)}, {"COND", cond}};
    emit_expand(c->e, c->sb, &c->e->kt, "classify-switch", v, NV(v));
    free(cond);
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
        emit_put_line(c->sb, c->e, br->cond.file, br->cond.line);
    strbuf labels; /* a case's labels: as written (they follow their macros' values) or values */
    sb_init(&labels);
    unsigned n = br->kind != BR_CASE && br->kind != BR_DEFAULT ? 0
                 : br->macro_labels                            ? br->nlabels
                                                               : br->nvalues;
    for (unsigned i = 0; i < n; i++) {
        char lit[40] = "";
        if (!br->macro_labels)
            case_literal(lit, sizeof lit, br->values[i], 0);
        if (labels.len)
            sb_putc(&labels, ' ');
        tmpl_var lv[] = {{"LABEL", br->macro_labels ? trimmed(br->labels[i]) : lit}};
        emit_expand_inline(c->e, &labels, "classify-label", lv, NV(lv));
    }
    char *cond = br->kind == BR_IF ? range_copy(c->e->an, br->cond) : xstrdup("");
    int dflt = br->kind == BR_DEFAULT || br->kind == BR_IMPLICIT_DEFAULT;
    tmpl_var v[] = {{"PAD", pad(c)},
                    {"COND", cond},
                    {"IF", br->kind == BR_IF && b == 0 ? "1" : ""},
                    {"ELSE_IF", br->kind == BR_IF && b > 0 ? "1" : ""},
                    {"ELSE", br->kind == BR_ELSE || br->kind == BR_IMPLICIT_ELSE ? "1" : ""},
                    {"DEFAULT", dflt ? "1" : ""},
                    {"LABELS", labels.data ? labels.data : ""}};
    emit_expand(c->e, c->sb, &c->e->kt, "classify-branch", v, NV(v));
    free(cond);
    sb_free(&labels);
    c->depth++;
}

static void ce_branch_end(void *ud, const decision *d, unsigned b)
{
    (void)d;
    (void)b;
    classify_emitter *c = ud;
    c->depth--;
    tmpl_var v[] = {{"PAD", pad(c)}};
    emit_expand(c->e, c->sb, &c->e->kt, "classify-close", v, NV(v));
}

static void ce_decision_end(void *ud, const decision *d)
{
    classify_emitter *c = ud;
    if (d->kind != DEC_SWITCH)
        return;
    c->depth--;
    tmpl_var v[] = {{"PAD", pad(c)}};
    emit_expand(c->e, c->sb, &c->e->kt, "classify-close", v, NV(v));
}

static void ce_path_end(void *ud, const choice *path, unsigned npath, int returned, unsigned fx,
                        double cost)
{
    (void)path, (void)npath, (void)returned, (void)fx, (void)cost;
    classify_emitter *c = ud;
    const leaf *lf = &c->kp->leaves[c->path++];
    char leafno[16];
    snprintf(leafno, sizeof leafno, "%d", lf->kernel);
    tmpl_var v[] = {{"PAD", pad(c)}, {"LEAF", leafno}, {"NOTHING", lf->kernel < 0 ? "1" : ""}};
    emit_expand(c->e, c->sb, &c->e->kt, "classify-return", v, NV(v));
}

/* The classifier's body; with cx, it runs the whole prologue and keeps the context. */
char *emit_classifier_body(emitter *e, const kernel_plan *kp, const kernel_context *cx)
{
    strbuf sb;
    sb_init(&sb);
    classify_emitter c = {e, kp, &sb, 0, 0, cx};
    walk_visitor v = {ce_stmt, ce_decision_begin, ce_branch_begin, ce_branch_end,
                      ce_decision_end, ce_path_end, &c};
    walk_tree(&kp->k->top, kp->decisions, &v);
    emit_put_line_back(&sb, e);
    emit_expand_inline(e, &sb, "classify-end", NULL, 0);
    return sb_steal(&sb);
}

/* ---- leaf bodies --------------------------------------------------------- */

/*
 * Conditions that write private variables (an out-parameter '&t' of a
 * helper) are evaluated again in the leaf, in order, for those writes: the
 * leaf then holds what the original held after the decision.
 */
static void put_condition_writes(emitter *e, strbuf *sb, const decision *d, unsigned b)
{
    if (!(d->cond_fx.bits & EFF_LOCAL_WRITE))
        return;
    for (unsigned i = 0; i < d->nbranches && i <= b; i++) {
        if (d->branches[i].kind != BR_IF)
            continue;
        char *cond = range_copy(e->an, d->branches[i].cond);
        tmpl_var v[] = {{"COND", cond}};
        emit_expand_inline(e, sb, "leaf-cond-write", v, NV(v));
        sb_putc(sb, ' ');
        free(cond);
    }
}

/* The controlling value of a switch on a leaf's path: "(value) /x this leaf's case x/". */
static void put_leaf_case(emitter *e, strbuf *sb, const char *value)
{
    tmpl_var v[] = {{"VALUE", value}};
    emit_expand_inline(e, sb, "leaf-case", v, NV(v));
}

/* The text in place of an if on a leaf's path (branch b taken, or none: implicit). */
static void put_leaf_branch(emitter *e, strbuf *sb, const decision *d, unsigned b, int implicit)
{
    strbuf writes;
    sb_init(&writes);
    put_condition_writes(e, &writes, d, b);
    char line[16], branch[16];
    snprintf(line, sizeof line, "%u", d->range.line);
    snprintf(branch, sizeof branch, "%u", b);
    tmpl_var v[] = {{"LINE", line}, {"BRANCH", branch},
                    {"WRITES", writes.data ? writes.data : ""},
                    {"COND_WRITES", d->cond_fx.bits & EFF_LOCAL_WRITE ? "1" : ""}};
    emit_expand_inline(e, sb, implicit ? "leaf-no-branch" : "leaf-branch", v, NV(v));
    sb_free(&writes);
}

void emit_path_edits(emitter *e, const leaf *lf, edits *es)
{
    for (unsigned i = 0; i < lf->npath; i++) {
        const decision *d = lf->path[i].d;
        const branch *br = &d->branches[lf->path[i].branch];
        strbuf sb;
        sb_init(&sb);
        char lit[40];
        if (d->kind == DEC_SWITCH && d->macro_labels) {
            /* the labels follow their macros: a case leaf switches on its label as written;
             * a default leaf keeps the controlling value, which no label matches for it */
            if (br->kind == BR_CASE && br->macro_labels) {
                put_leaf_case(e, &sb, label_first(br->labels[0]));
            } else if (br->kind == BR_CASE) {
                case_literal(lit, sizeof lit, br->values[0], emit_facts_switch_wide(d));
                put_leaf_case(e, &sb, lit);
            }
            if (sb.len)
                emit_add_edit(es, d->cond.begin, d->cond.end, sb.data);
        } else if (d->kind == DEC_SWITCH) {
            case_literal(lit, sizeof lit,
                         br->kind == BR_CASE ? br->values[0] : d->default_value,
                         emit_facts_switch_wide(d));
            put_leaf_case(e, &sb, lit);
            emit_add_edit(es, d->cond.begin, d->cond.end, sb.data ? sb.data : "");
        } else if (br->kind == BR_IMPLICIT_ELSE) {
            put_leaf_branch(e, &sb, d, lf->path[i].branch, 1);
            emit_add_edit(es, d->range.begin, d->range.end, sb.data ? sb.data : "");
        } else {
            /* no braces of its own: a split if sits in a block, a case, or a split if's
             * branch (never a loop's or a kept if's), so its statements may stand there,
             * and nesting stays the input's (clang allows 256 levels) */
            put_leaf_branch(e, &sb, d, lf->path[i].branch, 0);
            emit_add_edit(es, d->range.begin, br->body.begin, sb.data ? sb.data : "");
            emit_add_edit(es, br->body.end, d->range.end, "");
        }
        sb_free(&sb);
    }
}

char *emit_leaf_body(emitter *e, const kernel_plan *kp, const leaf *lf)
{
    const kernel_info *k = kp->k;
    const src_file *f = &e->an->pr->files[k->body.file];
    edits es = {0};
    es.line_path = emit_line_path(e, k->body.file);
    emit_path_edits(e, lf, &es);
    strbuf sb;
    sb_init(&sb);
    emit_put_line(&sb, e, k->body.file, k->body.line);
    emit_put_edited_in(&sb, e->an, k->body.file, f->text, k->body.begin, k->body.end, &es);
    emit_edits_free(&es);
    emit_put_line_back_after_body(&sb, e);
    return sb_steal(&sb);
}

/* The merged kernel runs the original body: its cheap leaves diverge cheaply. */
char *emit_leaf_body_merged(emitter *e, const kernel_plan *kp)
{
    strbuf sb;
    sb_init(&sb);
    emit_put_line(&sb, e, kp->k->body.file, kp->k->body.line);
    put_active_range(e->an, &sb, kp->k->body);
    emit_put_line_back_after_body(&sb, e);
    return sb_steal(&sb);
}
