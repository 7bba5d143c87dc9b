/*
 * emit.c - the generated texts.
 *
 * Leaf kernels are the kernel's own body text with edits: each decision on
 * the leaf's path is replaced by the branch the path takes (a switch keeps
 * its cases and gets a constant controlling value). The classifier is the
 * condition tree itself, walked path by path, with only the slice's
 * statements kept. Work-item builtins are remapped by macros in the
 * prelude, so user macros and helpers see the original ids too.
 */
#include "emit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "divergence.h"
#include "macro_deps.h"
#include "profile_in.h"
#include "template.h"
#include "util.h"
#include "version.h"

#ifndef NPLUS1_VERSION
#define NPLUS1_VERSION "0.0.0"
#endif

typedef struct emitter {
    const plan *pl;
    const analysis *an;
    const emit_options *opt;
    tmpl_file kt, dh, dc, mf;
    char *err;
    size_t errlen;
    int failed;
    char wg[16];
    macro_deps md;    /* the macros the text depends on, and the #error lines for them */
} emitter;

static void expand(emitter *e, strbuf *out, const tmpl_file *t, const char *frag,
                   const tmpl_var *vars, unsigned nvars)
{
    if (e->failed)
        return;
    if (tmpl_expand(out, t, frag, vars, nvars, e->err, e->errlen) != 0)
        e->failed = 1;
}

#define NV(a) (sizeof(a) / sizeof *(a))

/* ---- original source, user headers inlined ---------------------------- */

typedef struct inclusion {
    unsigned includer, offset, included;
} inclusion;

typedef struct inclusions {
    const analysis *an;
    const macro_deps *md;
    inclusion *v;
    unsigned n, cap;
} inclusions;

static void inclusion_cb(CXFile included, CXSourceLocation *stack, unsigned len,
                         CXClientData data)
{
    inclusions *inc = data;
    if (len == 0 || clang_Location_isInSystemHeader(stack[0]))
        return;
    CXFile from;
    unsigned off;
    clang_getExpansionLocation(stack[0], &from, NULL, NULL, &off);
    parse_result *pr = inc->an->pr;
    int a = parse_file_index(pr, from), b = parse_file_index(pr, included);
    if (a < 0 || b < 0)
        return;
    inclusion i = {(unsigned)a, off, (unsigned)b};
    VEC_PUSH(inc->v, inc->n, inc->cap, i);
}

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
        from = at;
    }
    sb_putn(sb, f->text + from, to - from);
}

static void emit_file_inlined(strbuf *sb, const inclusions *inc, unsigned file, unsigned depth)
{
    const src_file *f = &inc->an->pr->files[file];
    unsigned pos = 0;
    for (unsigned i = 0; i < inc->n; i++) {
        const inclusion *in = &inc->v[i];
        if (in->includer != file || in->offset < pos || in->offset > f->len || depth > 64)
            continue;
        unsigned ls = in->offset, le = in->offset;
        while (ls > 0 && f->text[ls - 1] != '\n')
            ls--;
        while (le < f->len && f->text[le] != '\n')
            le++;
        put_guarded(sb, inc, file, pos, ls);
        sb_printf(sb, "/* nplus1gen: %.*s */\n", (int)(le - ls), f->text + ls);
        emit_file_inlined(sb, inc, in->included, depth + 1);
        if (sb->len && sb->data[sb->len - 1] != '\n')
            sb_putc(sb, '\n');
        const char *path = inc->an->pr->files[in->included].path, *base = strrchr(path, '/');
        sb_printf(sb, "/* nplus1gen: end of %s */", base ? base + 1 : path);
        pos = le;
    }
    put_guarded(sb, inc, file, pos, (unsigned)f->len);
    if (sb->len && sb->data[sb->len - 1] != '\n')
        sb_putc(sb, '\n');
}

/* ---- text edits ---------------------------------------------------------- */

typedef struct edit {
    unsigned begin, end;
    char *text;
} edit;

typedef struct edits {
    edit *v;
    unsigned n, cap;
} edits;

static void add_edit(edits *es, unsigned begin, unsigned end, const char *text)
{
    edit e = {begin, end, xstrdup(text)};
    VEC_PUSH(es->v, es->n, es->cap, e);
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    return (x->begin > y->begin) - (x->begin < y->begin);
}

static void edits_free(edits *es)
{
    for (unsigned i = 0; i < es->n; i++)
        free(es->v[i].text);
    free(es->v);
}

/* Appends text[begin, end); from the active text only when an is given. */
static void put_segment(strbuf *sb, const analysis *an, unsigned file, const char *text,
                        unsigned begin, unsigned end)
{
    if (an)
        parse_put_active(an->pr, sb, file, begin, end);
    else
        sb_putn(sb, text + begin, end - begin);
}

/* Appends text[begin, end) with the edits applied (the active text of file, given an). */
static void put_edited_in(strbuf *sb, const analysis *an, unsigned file, const char *text,
                          unsigned begin, unsigned end, edits *es)
{
    if (es->n)
        qsort(es->v, es->n, sizeof *es->v, edit_cmp);
    unsigned pos = begin;
    for (unsigned i = 0; i < es->n; i++) {
        const edit *e = &es->v[i];
        if (e->begin < pos || e->end > end)
            continue; /* overlapping edits cannot happen; stay safe */
        put_segment(sb, an, file, text, pos, e->begin);
        sb_puts(sb, e->text);
        pos = e->end;
    }
    put_segment(sb, an, file, text, pos, end);
}

static void put_edited(strbuf *sb, const char *text, unsigned begin, unsigned end, edits *es)
{
    put_edited_in(sb, NULL, 0, text, begin, end, es);
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

static void emit_helpers(emitter *e, strbuf *sb)
{
    const analysis *an = e->an;
    if (!an->nhelpers)
        return;
    sb_puts(sb, "\n/* Helpers that call work-item builtins, taking the original ids. */\n");
    for (unsigned i = 0; i < an->nhelpers; i++) {
        tmpl_var v[] = {{"NAME", an->helpers[i].name}};
        expand(e, sb, &e->kt, an->helpers[i].nparams ? "helper-macro" : "helper-macro-noargs", v,
               NV(v));
    }
    for (unsigned i = 0; i < an->nhelpers; i++) { /* prototypes: any order of use works */
        const wi_helper *h = &an->helpers[i];
        const src_file *f = &an->pr->files[h->range.file];
        edits es = {0};
        helper_signature_edits(h, f, &es);
        put_edited(sb, f->text, h->range.begin, matching_paren(f, h->lparen) + 1, &es);
        sb_puts(sb, ";\n");
        edits_free(&es);
    }
    for (unsigned i = 0; i < an->nhelpers; i++) {
        const wi_helper *h = &an->helpers[i];
        const src_file *f = &an->pr->files[h->range.file];
        edits es = {0};
        helper_signature_edits(h, f, &es);
        put_edited(sb, f->text, h->range.begin, h->range.end, &es);
        sb_puts(sb, "\n");
        edits_free(&es);
    }
}

/* ---- the classifier ----------------------------------------------------- */

typedef struct classify_emitter {
    emitter *e;
    const kernel_plan *kp;
    strbuf *sb;
    unsigned depth;
    unsigned path;
    const kernel_context *cx; /* the classify phase keeps this context, or NULL */
} classify_emitter;

static void ctx_stores(strbuf *sb, const kernel_context *cx);

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
    if (!it->in_slice && !(c->cx && context_in_prologue(c->cx, it)))
        return;
    indent(c);
    put_range(c->sb, c->e->an, it->range);
    sb_putc(c->sb, '\n');
}

static void ce_decision_begin(void *ud, const decision *d)
{
    classify_emitter *c = ud;
    if (c->cx && d == c->kp->k->top.items[c->cx->at].decision)
        ctx_stores(c->sb, c->cx);
    if (d->kind != DEC_SWITCH)
        return;
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

/* Whether the switch's controlling value has 64 bits. */
static int switch_is_wide(const decision *d)
{
    return clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(d->cond_cursor))) > 4;
}

static void ce_branch_begin(void *ud, const decision *d, unsigned b)
{
    classify_emitter *c = ud;
    const branch *br = &d->branches[b];
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
static char *classifier_body(emitter *e, const kernel_plan *kp, const kernel_context *cx)
{
    strbuf sb;
    sb_init(&sb);
    classify_emitter c = {e, kp, &sb, 0, 0, cx};
    walk_visitor v = {ce_stmt, ce_decision_begin, ce_branch_begin, ce_branch_end,
                      ce_decision_end, ce_path_end, &c};
    walk_tree(&kp->k->top, &v);
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

static void path_edits(const analysis *an, const leaf *lf, edits *es)
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
                case_literal(lit, sizeof lit, br->values[0], switch_is_wide(d));
                sb_printf(&sb, "(%s) /* nplus1: this leaf's case */", lit);
            }
            if (sb.len)
                add_edit(es, d->cond.begin, d->cond.end, sb.data);
        } else if (d->kind == DEC_SWITCH) {
            case_literal(lit, sizeof lit,
                         br->kind == BR_CASE ? br->values[0] : d->default_value,
                         switch_is_wide(d));
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

static char *leaf_body(emitter *e, const kernel_plan *kp, const leaf *lf)
{
    const kernel_info *k = kp->k;
    const src_file *f = &e->an->pr->files[k->body.file];
    edits es = {0};
    path_edits(e->an, lf, &es);
    strbuf sb;
    sb_init(&sb);
    put_edited_in(&sb, e->an, k->body.file, f->text, k->body.begin, k->body.end, &es);
    edits_free(&es);
    return sb_steal(&sb);
}

/* Comment-safe copy of a condition (no "*" "/" sequence). */
static char *comment_safe(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r')
            sb_putc(&sb, ' ');
        else if (s[0] == '*' && s[1] == '/')
            sb_puts(&sb, "* ");
        else
            sb_putc(&sb, *s);
    }
    return sb_steal(&sb);
}

/* The first leaf of leaf kernel kn. */
static const leaf *kernel_leaf(const kernel_plan *kp, int kn)
{
    for (unsigned l = 0; l < kp->nleaves; l++)
        if (kp->leaves[l].kernel == kn)
            return &kp->leaves[l];
    return &kp->leaves[0];
}

/* The merged kernel runs the original body: its cheap leaves diverge cheaply. */
static char *leaf_body_merged(emitter *e, const kernel_plan *kp)
{
    strbuf sb;
    sb_init(&sb);
    put_active_range(e->an, &sb, kp->k->body);
    return sb_steal(&sb);
}

static char *merged_condition(const kernel_plan *kp)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "merged: the %u cheap leaves run the original code", kp->nmerged);
    return sb_steal(&sb);
}

/* ---- one kernel's set ---------------------------------------------------- */

static char *join_params(const kernel_info *k, int names)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < k->nparams; i++) {
        if (i)
            sb_puts(&sb, ", ");
        sb_puts(&sb, names ? k->params[i].name : k->params[i].decl_text);
    }
    return sb_steal(&sb);
}

/* Strategy tile (--strategy tile, or the only split under --split auto, auto_tile.h): the
 * set is the tile kernel alone (no passes, no leaf kernels). */
static int tile_only(const kernel_plan *kp)
{
    return kp->strategy == STRATEGY_TILE;
}

/* The tile kernel comes with --strategy tile, and beside the chosen strategy's
 * kernels under --split auto, so that the runtime may time it too. */
static int emits_tile(const kernel_plan *kp)
{
    return kp->tile_candidate != AUTO_TILE_NONE;
}

/* ---- contexts: the tile's leaves start from what the prologue left -------- */

/* Under --strategy tile, a kernel with an active context (context.h). */
static int uses_context(const kernel_plan *kp)
{
    return kp->tile_candidate == AUTO_TILE_CONTEXT;
}

/* The classify phase keeps the carried variables at nplus1_slot. */
static void ctx_stores(strbuf *sb, const kernel_context *cx)
{
    if (!cx->bytes)
        return;
    sb_puts(sb, "    /* nplus1: the context, kept for the leaves */\n");
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        if (!v->carried)
            continue;
        if (!v->count) {
            sb_printf(sb, "    nplus1_ctx_%s[nplus1_slot] = %s;\n", v->name, v->name);
            continue;
        }
        sb_printf(sb, "    for (int nplus1_k = 0; nplus1_k < %u; nplus1_k++)\n", v->count);
        sb_printf(sb, "        nplus1_ctx_%s[nplus1_slot][nplus1_k] = %s[nplus1_k];\n", v->name,
                  v->name);
    }
}

/* A leaf declares the context's variables, from the local memory where they move. */
static void ctx_loads(strbuf *sb, const kernel_context *cx)
{
    sb_printf(sb, "    /* nplus1: the context (the prologue, lines %u-%u, ran in the classify "
                  "phase) */\n",
              cx->prologue_begin_line, cx->prologue_end_line);
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        if (v->count) {
            sb_printf(sb, "    %s %s[%u];\n", v->store_type, v->name, v->count);
            if (v->carried)
                sb_printf(sb, "    for (int nplus1_k = 0; nplus1_k < %u; nplus1_k++)\n"
                              "        %s[nplus1_k] = nplus1_ctx_%s[nplus1_slot][nplus1_k];\n",
                          v->count, v->name, v->name);
        } else if (v->carried) {
            sb_printf(sb, "    %s %s = nplus1_ctx_%s[nplus1_slot];\n", v->decl_type, v->name,
                      v->name);
        } else {
            sb_printf(sb, "    %s %s;\n", v->store_type, v->name);
        }
    }
}

enum { CTX_PARAMS, CTX_ARGS, CTX_DECLS, CTX_SIZEOF };

/* One piece of text per carried variable: parameters, arguments, local arrays, sizes. */
static char *ctx_list(const char *k, const kernel_context *cx, int what)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        char dim[32] = "";
        if (v->count)
            snprintf(dim, sizeof dim, "[%u]", v->count);
        if (!v->carried)
            continue;
        if (what == CTX_PARAMS && v->count)
            sb_printf(&sb, ", __local %s (*nplus1_ctx_%s)%s", v->store_type, v->name, dim);
        else if (what == CTX_PARAMS)
            sb_printf(&sb, ", __local %s *nplus1_ctx_%s", v->store_type, v->name);
        else if (what == CTX_ARGS)
            sb_printf(&sb, ", nplus1_ctx_%s", v->name);
        else if (what == CTX_DECLS)
            sb_printf(&sb, "    __local %s nplus1_ctx_%s[NPLUS1_WG * %s__NPLUS1_CTX_IPT]%s;\n",
                      v->store_type, v->name, k, dim);
        else
            sb_printf(&sb, "%ssizeof(%s%s)", sb.len ? " + " : "", v->store_type, dim);
    }
    return sb.data ? sb_steal(&sb) : xstrdup("");
}

/* The items a work-item holds in one round: as many as the contexts' budget holds. */
static char *ctx_ipt_define(const char *k, const kernel_context *cx)
{
    strbuf sb;
    sb_init(&sb);
    if (!cx->bytes) {
        sb_printf(&sb, "#define %s__NPLUS1_CTX_IPT NPLUS1_TILE_IPT /* no value to keep */", k);
        return sb_steal(&sb);
    }
    char *size = ctx_list(k, cx, CTX_SIZEOF);
    sb_printf(&sb, "#define %s__NPLUS1_CTX_BYTES (%s)\n", k, size);
    sb_printf(&sb, "#define %s__NPLUS1_CTX_FIT \\\n    ((uint)(NPLUS1_CTX_LOCAL / "
                   "(NPLUS1_WG * %s__NPLUS1_CTX_BYTES)))\n", k, k);
    sb_printf(&sb, "#define %s__NPLUS1_CTX_IPT \\\n    (%s__NPLUS1_CTX_FIT < 1 ? 1u : "
                   "%s__NPLUS1_CTX_FIT < NPLUS1_TILE_IPT ? %s__NPLUS1_CTX_FIT \\\n"
                   "     : (uint)NPLUS1_TILE_IPT)",
              k, k, k, k);
    free(size);
    return sb_steal(&sb);
}

/* A leaf's body from the context: the text from the decision on, with the leaf's path
 * edits (none for the merged leaf, lf NULL, which runs the decisions as written). */
static char *leaf_body_ctx(emitter *e, const kernel_plan *kp, const leaf *lf)
{
    const kernel_info *k = kp->k;
    const src_file *f = &e->an->pr->files[k->body.file];
    edits es = {0};
    if (lf)
        path_edits(e->an, lf, &es);
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "{\n");
    ctx_loads(&sb, &kp->ctx);
    sb_puts(&sb, "    ");
    put_edited_in(&sb, e->an, k->body.file, f->text, kp->ctx.point, k->body.end, &es);
    edits_free(&es);
    return sb_steal(&sb);
}

/* ---- loops: the tile kernel that regroups a loop's contexts (loop.h) ----- */

/* Loads ctx.vars[from, to) from the private context nplus1_c. */
static void loop_loads(strbuf *sb, const kernel_context *cx, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++) {
        const ctx_var *v = &cx->vars[i];
        if (!v->count) {
            sb_printf(sb, "    %s %s = nplus1_c->%s;\n", v->decl_type, v->name, v->name);
            continue;
        }
        sb_printf(sb, "    %s %s[%u];\n", v->store_type, v->name, v->count);
        sb_printf(sb, "    for (int nplus1_k = 0; nplus1_k < %u; nplus1_k++)\n"
                      "        %s[nplus1_k] = nplus1_c->%s[nplus1_k];\n",
                  v->count, v->name, v->name);
    }
}

/* Stores ctx.vars[from, to) into nplus1_c, with `pad` before each line. */
static void loop_stores(strbuf *sb, const kernel_context *cx, unsigned from, unsigned to,
                        const char *pad)
{
    for (unsigned i = from; i < to; i++) {
        const ctx_var *v = &cx->vars[i];
        if (!v->count)
            sb_printf(sb, "%snplus1_c->%s = %s;\n", pad, v->name, v->name);
        else
            sb_printf(sb, "%sfor (int nplus1_k = 0; nplus1_k < %u; nplus1_k++)\n"
                          "%s    nplus1_c->%s[nplus1_k] = %s[nplus1_k];\n",
                      pad, v->count, pad, v->name, v->name);
    }
}

static void loop_text(emitter *e, strbuf *sb, unsigned file, unsigned begin, unsigned end)
{
    edits es = {0};
    const char *text = e->an->pr->files[file].text;
    while (begin < end && (text[begin] == ' ' || text[begin] == '\n' || text[begin] == '\t'))
        begin++;
    while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\t'))
        end--;
    if (begin == end)
        return;
    sb_puts(sb, "    ");
    put_edited_in(sb, e->an, file, text, begin, end, &es);
    edits_free(&es);
    sb_putc(sb, '\n');
}

static char *loop_members(const loop_plan *lp)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < lp->ctx.nvars; i++) {
        const ctx_var *v = &lp->ctx.vars[i];
        char dim[32] = "";
        if (v->count)
            snprintf(dim, sizeof dim, "[%u]", v->count);
        sb_printf(&sb, "    %s %s%s; /* line %u */\n", v->store_type, v->name, dim, v->line);
    }
    if (lp->sel_type)
        sb_printf(&sb, "    %s nplus1_sel; /* the switch's value */\n", lp->sel_type);
    sb_puts(&sb, "    uint nplus1_item, nplus1_branch; /* in the tile; its branch */\n");
    return sb_steal(&sb);
}

static char *loop_start(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    strbuf sb;
    sb_init(&sb);
    loop_text(e, &sb, kp->k->body.file, kp->k->top.items[0].range.begin, lp->stmt.begin);
    loop_stores(&sb, &lp->ctx, 0, lp->nprologue, "    ");
    return sb_steal(&sb);
}

/* The branch a switch value takes, for grouping (the branch phase switches on the value). */
static void loop_switch_groups(strbuf *sb, const decision *d)
{
    sb_puts(sb, "    int nplus1_b = 0;\n    switch (nplus1_sel) {\n");
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind == BR_DEFAULT || br->kind == BR_IMPLICIT_DEFAULT)
            sb_puts(sb, "    default:");
        for (unsigned i = 0; br->kind == BR_CASE && i < br->nlabels; i++)
            sb_printf(sb, "    case %s:", br->labels[i]);
        for (unsigned i = 0; br->kind == BR_CASE && !br->nlabels && i < br->nvalues; i++)
            sb_printf(sb, "    case %lld:", br->values[i]);
        sb_printf(sb, " nplus1_b = %u; break;\n", b);
    }
    sb_puts(sb, "    }\n");
}

static void loop_if_groups(emitter *e, strbuf *sb, const decision *d)
{
    sb_puts(sb, "    const int nplus1_b =");
    unsigned last = d->nbranches - 1;
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        if (br->kind != BR_IF) {
            last = b;
            continue;
        }
        size_t n = 0;
        const char *t = range_text(e->an, br->cond, &n);
        sb_puts(sb, " (");
        sb_putn(sb, t, n);
        sb_printf(sb, ") ? %u :", b);
    }
    sb_printf(sb, " %u;\n", last);
}

static char *loop_head(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    const decision *d = lp->d;
    unsigned file = kp->k->body.file;
    size_t n = 0;
    strbuf sb;
    sb_init(&sb);
    loop_loads(&sb, &lp->ctx, 0, lp->nprologue);
    const char *t = range_text(e->an, lp->cond, &n);
    sb_puts(&sb, "    if (!(");
    sb_putn(&sb, t, n);
    sb_puts(&sb, ")) { /* the loop ended */\n");
    loop_stores(&sb, &lp->ctx, 0, lp->nprologue, "        ");
    sb_puts(&sb, "        *nplus1_g = -2;\n        return;\n    }\n");
    loop_text(e, &sb, file, lp->body.begin + 1, d->range.begin);
    if (d->kind == DEC_SWITCH) {
        t = range_text(e->an, d->cond, &n);
        sb_printf(&sb, "    const %s nplus1_sel = (", lp->sel_type);
        sb_putn(&sb, t, n);
        sb_puts(&sb, ");\n    nplus1_c->nplus1_sel = nplus1_sel;\n");
        loop_switch_groups(&sb, d);
    } else {
        loop_if_groups(e, &sb, d);
    }
    loop_stores(&sb, &lp->ctx, 0, lp->ctx.nvars, "    ");
    sb_puts(&sb, "    *nplus1_g = nplus1_b;");
    return sb_steal(&sb);
}

static char *loop_branch(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    const decision *d = lp->d;
    unsigned file = kp->k->body.file;
    strbuf sb;
    sb_init(&sb);
    loop_loads(&sb, &lp->ctx, 0, lp->ctx.nvars);
    if (d->kind == DEC_SWITCH) {
        sb_printf(&sb, "    const %s nplus1_sel = nplus1_c->nplus1_sel;\n", lp->sel_type);
        sb_printf(&sb, "    /* the switch at line %u, on the value the head took */\n",
                  d->range.line);
        sb_puts(&sb, "    switch (nplus1_sel)\n");
        loop_text(e, &sb, file, lp->switch_body.begin, lp->switch_body.end);
    } else {
        sb_printf(&sb, "    const uint nplus1_b = nplus1_c->nplus1_branch; /* the if at line "
                       "%u */\n", d->range.line);
        for (unsigned b = 0; b < d->nbranches; b++) {
            const branch *br = &d->branches[b];
            if (br->kind != BR_IF && br->kind != BR_ELSE)
                continue;
            sb_printf(&sb, "    if (nplus1_b == %u) {\n    ", b);
            loop_text(e, &sb, file, br->body.begin, br->body.end);
            sb_puts(&sb, "    ;}\n");
        }
    }
    sb_printf(&sb, "    /* the rest of the iteration */\n");
    loop_text(e, &sb, file, d->range.end, lp->body.end - 1);
    loop_stores(&sb, &lp->ctx, 0, lp->nprologue, "    ");
    return sb_steal(&sb);
}

static char *loop_end(emitter *e, const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    strbuf sb;
    sb_init(&sb);
    loop_loads(&sb, &lp->ctx, 0, lp->nprologue);
    loop_text(e, &sb, kp->k->body.file, lp->stmt.end, kp->k->body.end - 1);
    return sb_steal(&sb);
}

static void emit_loop_set(emitter *e, strbuf *sb, const kernel_plan *kp)
{
    const kernel_info *k = kp->k;
    const loop_plan *lp = &kp->loop;
    char nleaves[16], line[16], dline[16], bytes[16], prologue[48], epilogue[48];
    snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
    snprintf(line, sizeof line, "%u", lp->line);
    snprintf(dline, sizeof dline, "%u", lp->d->range.line);
    snprintf(bytes, sizeof bytes, "%u", lp->bytes);
    snprintf(prologue, sizeof prologue, "%u-%u", k->top.items[0].range.line,
             lp->line > k->top.items[0].range.line ? lp->line - 1 : lp->line);
    snprintf(epilogue, sizeof epilogue, "%u-%u", lp->stmt.end_line, k->body.end_line);
    char *params = join_params(k, 0), *args = join_params(k, 1);
    char *members = loop_members(lp), *start = loop_start(e, kp), *head = loop_head(e, kp);
    char *branch = loop_branch(e, kp), *end = loop_end(e, kp);
    tmpl_var v[] = {{"K", k->name},        {"PARAMS", params},  {"ARGS", args},
                    {"NLEAVES", nleaves},  {"LINE", line},      {"DLINE", dline},
                    {"BYTES", bytes},      {"MEMBERS", members}, {"START", start},
                    {"HEAD", head},        {"BRANCH", branch},  {"END", end},
                    {"PROLOGUE", prologue}, {"EPILOGUE", epilogue}};
    expand(e, sb, &e->kt, "loop-functions", v, NV(v));
    expand(e, sb, &e->kt, "loop-tile", v, NV(v));
    free(params);
    free(args);
    free(members);
    free(start);
    free(head);
    free(branch);
    free(end);
}

/* The user's parameters and arguments, and the context's, as the fragments spell them. */
typedef struct body_names {
    const char *params, *args, *cparams, *cargs;
} body_names;

/*
 * The classifier and the leaf bodies, with the context (the tile's, ctx) or
 * without; the leaf kernels when the set has passes; each leaf's case of the
 * fused kernel (or, with the context, of the tile kernel) into cases.
 */
static void emit_bodies(emitter *e, strbuf *sb, const kernel_plan *kp, int ctx,
                        const body_names *bn, strbuf *cases)
{
    const kernel_info *k = kp->k;
    char leafno[16], lines[48], prologue[48];
    snprintf(prologue, sizeof prologue, "%u-%u", kp->ctx.prologue_begin_line,
             kp->ctx.prologue_end_line);
    char *body = classifier_body(e, kp, ctx ? &kp->ctx : NULL);
    tmpl_var cv[] = {{"K", k->name}, {"PARAMS", bn->params}, {"BODY", body},
                     {"CTX_PARAMS", bn->cparams}, {"PROLOGUE", prologue}};
    expand(e, sb, &e->kt, ctx ? "classify-ctx" : "classify", cv, NV(cv));
    free(body);
    for (unsigned kn = 0; kn < kp->nkernels; kn++) {
        const leaf *lf = kernel_leaf(kp, (int)kn);
        int merged = (int)kn == kp->merged_kernel;
        snprintf(leafno, sizeof leafno, "%u", kn);
        snprintf(lines, sizeof lines, "%u-%u", merged ? k->body.line : lf->line_begin,
                 merged ? k->body.end_line : lf->line_end);
        char *lb = ctx      ? leaf_body_ctx(e, kp, merged ? NULL : lf)
                   : merged ? leaf_body_merged(e, kp)
                            : leaf_body(e, kp, lf);
        char *cond = merged ? merged_condition(kp) : comment_safe(lf->condition);
        tmpl_var lv[] = {{"K", k->name},   {"LEAF", leafno}, {"CONDITION", cond},
                         {"LINES", lines}, {"PARAMS", bn->params}, {"BODY", lb},
                         {"ARGS", bn->args}, {"CTX_PARAMS", bn->cparams},
                         {"CTX_ARGS", bn->cargs}};
        expand(e, sb, &e->kt, ctx ? "leaf-body-ctx" : "leaf-body", lv, NV(lv));
        sb_putc(sb, '\n');
        if (!ctx && !tile_only(kp))
            expand(e, sb, &e->kt, "leaf-kernel", lv, NV(lv));
        expand(e, cases, &e->kt, ctx ? "tile-ctx-case" : "fused-case", lv, NV(lv));
        free(lb);
        free(cond);
    }
}

static void emit_kernel_set(emitter *e, strbuf *sb, const kernel_plan *kp)
{
    const kernel_info *k = kp->k;
    char nleaves[16];
    snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
    char *params = join_params(k, 0), *args = join_params(k, 1);
    const char *strat = strategy_name(kp->strategy);
    tmpl_var head[] = {{"K", k->name}, {"NLEAVES", nleaves}, {"STRATEGY", strat}};
    expand(e, sb, &e->kt, "kernel-begin", head, NV(head));
    if (tile_only(kp) && kp->loop.active) {
        emit_loop_set(e, sb, kp);
        free(params);
        free(args);
        return;
    }
    const int ctx = uses_context(kp);
    char *cparams = ctx_list(k->name, &kp->ctx, CTX_PARAMS);
    char *cargs = ctx_list(k->name, &kp->ctx, CTX_ARGS);
    strbuf cases, ctx_cases;
    sb_init(&cases);
    sb_init(&ctx_cases);
    body_names bn = {params, args, cparams, cargs};
    if (!ctx || !tile_only(kp)) /* the strategy's, or the tile's without a context */
        emit_bodies(e, sb, kp, 0, &bn, &cases);
    if (ctx) /* the tile's: the leaves start from the context */
        emit_bodies(e, sb, kp, 1, &bn, &ctx_cases);
    /* chunked also carries the aggregated passes: its fallback for host dispatch */
    static const char *suffix[] = {"atomic", "aggregated", "ordered", "aggregated", "aggregated"};
    char frag[64];
    tmpl_var sv[] = {{"K", k->name}, {"NLEAVES", nleaves}, {"PARAMS", params}, {"ARGS", args}};
    strbuf count, scatter, flush;
    sb_init(&count);
    sb_init(&scatter);
    sb_init(&flush);
    snprintf(frag, sizeof frag, "count-%s", suffix[kp->strategy]);
    expand(e, &count, &e->kt, frag, sv, NV(sv));
    snprintf(frag, sizeof frag, "count-flush-%s", suffix[kp->strategy]);
    expand(e, &flush, &e->kt, frag, sv, NV(sv));
    if (flush.len && flush.data[flush.len - 1] == '\n')
        flush.data[--flush.len] = '\0';
    snprintf(frag, sizeof frag, "scatter-%s", suffix[kp->strategy]);
    expand(e, &scatter, &e->kt, frag, sv, NV(sv));
    if (count.len && count.data[count.len - 1] == '\n')
        count.data[--count.len] = '\0';
    if (scatter.len && scatter.data[scatter.len - 1] == '\n')
        scatter.data[--scatter.len] = '\0';
    if (cases.len && cases.data[cases.len - 1] == '\n')
        cases.data[--cases.len] = '\0';
    if (ctx_cases.len && ctx_cases.data[ctx_cases.len - 1] == '\n')
        ctx_cases.data[--ctx_cases.len] = '\0';
    char *cdecls = ctx_list(k->name, &kp->ctx, CTX_DECLS);
    char *cipt = ctx_ipt_define(k->name, &kp->ctx), cbytes[16];
    snprintf(cbytes, sizeof cbytes, "%u", kp->ctx.bytes);
    tmpl_var kv[] = {{"K", k->name},       {"NLEAVES", nleaves},
                     {"PARAMS", params},   {"ARGS", args},
                     {"COUNT_BODY", count.data ? count.data : ""},
                     {"COUNT_FLUSH", flush.data ? flush.data : ""},
                     {"SCATTER_BODY", scatter.data ? scatter.data : ""},
                     {"CASES", cases.data ? cases.data : ""},
                     {"CTX_CASES", ctx_cases.data ? ctx_cases.data : ""},
                     {"CTX_ARGS", cargs}, {"CTX_DECLS", cdecls},
                     {"CTX_IPT_DEFINE", cipt}, {"CTX_BYTES", cbytes}};
    if (!tile_only(kp)) {
        expand(e, sb, &e->kt, "count", kv, NV(kv));
        if (kp->strategy == STRATEGY_ORDERED)
            expand(e, sb, &e->kt, "scan", kv, NV(kv));
        expand(e, sb, &e->kt, "scatter", kv, NV(kv));
        expand(e, sb, &e->kt, "fused", kv, NV(kv));
        if (kp->strategy == STRATEGY_CHUNKED)
            expand(e, sb, &e->kt, "chunk", kv, NV(kv));
    }
    if (emits_tile(kp))
        expand(e, sb, &e->kt, ctx ? "tile-ctx" : "tile", kv, NV(kv));
    sb_free(&ctx_cases);
    free(cparams);
    free(cargs);
    free(cdecls);
    free(cipt);
    sb_free(&count);
    sb_free(&scatter);
    sb_free(&flush);
    sb_free(&cases);
    free(params);
    free(args);
}

static char *kernel_file(emitter *e, inclusions *inc)
{
    strbuf sb;
    sb_init(&sb);
    const emit_options *o = e->opt;
    tmpl_var hv[] = {{"STEM", o->stem}, {"VERSION", NPLUS1_VERSION}, {"INPUT", o->input},
                     {"WG", e->wg}};
    expand(e, &sb, &e->kt, "file-header", hv, NV(hv));
    for (unsigned i = 0; i < o->ndefines; i++) {
        char name[256];
        const char *eq = strchr(o->defines[i], '=');
        size_t n = eq ? (size_t)(eq - o->defines[i]) : strlen(o->defines[i]);
        snprintf(name, sizeof name, "%.*s", (int)n, o->defines[i]);
        tmpl_var dv[] = {{"NAME", name}, {"VALUE", eq ? eq + 1 : "1"}};
        expand(e, &sb, &e->kt, "define", dv, NV(dv));
    }
    expand(e, &sb, &e->kt, "original-begin", hv, NV(hv));
    emit_file_inlined(&sb, inc, 0, 0);
    expand(e, &sb, &e->kt, "original-end", hv, NV(hv));
    expand(e, &sb, &e->kt, "prelude", hv, NV(hv));
    emit_helpers(e, &sb);
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        emit_kernel_set(e, &sb, &e->pl->kernels[i]);
    expand(e, &sb, &e->kt, "file-end", hv, NV(hv));
    return sb_steal(&sb);
}

/* ---- driver -------------------------------------------------------------- */

/* A value of a runtime enum as C spells it: prefix + the name in capitals (nplus1rt_format.h). */
static void c_enum(char *out, size_t n, const char *prefix, const char *name)
{
    size_t at = (size_t)snprintf(out, n, "%s", prefix);
    for (; *name && at + 1 < n; name++)
        out[at++] = (char)(*name >= 'a' && *name <= 'z' ? *name - 32 : *name);
    out[at < n ? at : n - 1] = '\0';
}

static char *kernel_list(const plan *pl)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < pl->nkernels; i++)
        sb_printf(&sb, "%s%s", i ? ", " : "", pl->kernels[i].k->name);
    return sb_steal(&sb);
}

static char *c_params(const kernel_info *k)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < k->nparams; i++) {
        const kernel_param *p = &k->params[i];
        const char *sep = p->host_type[strlen(p->host_type) - 1] == '*' ? "" : " ";
        sb_printf(&sb, ",\n                          %s%s%s", p->host_type, sep, p->name);
        if (p->is_struct) /* the host struct and its size, as clSetKernelArg takes them */
            sb_printf(&sb, ", size_t %s_size", p->name);
    }
    return sb_steal(&sb);
}

/* 1 when an earlier parameter (of this kernel or an earlier one) has the same host struct. */
static int struct_declared(const plan *pl, unsigned kernel, unsigned param)
{
    const char *tag = pl->kernels[kernel].k->params[param].struct_tag;
    for (unsigned i = 0; i <= kernel; i++) {
        const kernel_info *k = pl->kernels[i].k;
        for (unsigned p = 0; p < (i == kernel ? param : k->nparams); p++)
            if (k->params[p].is_struct && !strcmp(k->params[p].struct_tag, tag))
                return 1;
    }
    return 0;
}

/* The host structs of a kernel's struct arguments, each once in the header. */
static void header_structs(emitter *e, strbuf *sb, unsigned kernel)
{
    const kernel_info *k = e->pl->kernels[kernel].k;
    for (unsigned p = 0; p < k->nparams; p++) {
        const kernel_param *a = &k->params[p];
        if (!a->is_struct || struct_declared(e->pl, kernel, p))
            continue;
        char size[24];
        snprintf(size, sizeof size, "%u", a->size);
        tmpl_var sv[] = {{"K", k->name}, {"PARAM", a->name}, {"TAG", a->struct_tag},
                         {"DECL", a->host_struct}, {"SIZE", size},
                         {"KEYWORD", !strncmp(a->host_struct, "union", 5) ? "union" : "struct"}};
        expand(e, sb, &e->dh, "header-struct", sv, NV(sv));
    }
}

static char *driver_h(emitter *e)
{
    strbuf sb;
    sb_init(&sb);
    char guard[300];
    snprintf(guard, sizeof guard, "NPLUS1_%s_H", e->opt->stem);
    for (char *p = guard; *p; p++)
        *p = (*p >= 'a' && *p <= 'z') ? (char)(*p - 32)
                                     : ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_');
    char *kernels = kernel_list(e->pl);
    tmpl_var hv[] = {{"STEM", e->opt->stem}, {"VERSION", NPLUS1_VERSION},
                     {"INPUT", e->opt->input}, {"KERNELS", kernels}, {"GUARD", guard}};
    expand(e, &sb, &e->dh, "header-begin", hv, NV(hv));
    for (unsigned i = 0; i < e->pl->nkernels; i++) {
        const kernel_plan *kp = &e->pl->kernels[i];
        char nleaves[16];
        snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
        header_structs(e, &sb, i);
        char *params = c_params(kp->k);
        tmpl_var kv[] = {{"K", kp->k->name}, {"NLEAVES", nleaves},
                         {"STRATEGY", strategy_name(kp->strategy)}, {"PARAMS", params}};
        expand(e, &sb, &e->dh, "header-kernel", kv, NV(kv));
        free(params);
    }
    expand(e, &sb, &e->dh, "header-end", hv, NV(hv));
    free(kernels);
    return sb_steal(&sb);
}

/* "K<suffix>" quoted (NPLUS1RT_SUFFIX_*), or none (NULL in C, null in JSON), in n bytes. */
static void quoted_kernel(char *out, size_t n, int present, const char *k, const char *suffix,
                          const char *none)
{
    if (present)
        snprintf(out, n, "\"%s%s\"", k, suffix);
    else
        snprintf(out, n, "%s", none);
}

/* The desc's kernel names as C expressions, each n bytes. */
static void set_kernel_names(const kernel_plan *kp, const char *k, char *count, char *scatter,
                             char *fused, char *tile, size_t n)
{
    quoted_kernel(count, n, !tile_only(kp), k, NPLUS1RT_SUFFIX_COUNT, "NULL");
    quoted_kernel(scatter, n, !tile_only(kp), k, NPLUS1RT_SUFFIX_SCATTER, "NULL");
    quoted_kernel(fused, n, !tile_only(kp), k, NPLUS1RT_SUFFIX_FUSED, "NULL");
    quoted_kernel(tile, n, emits_tile(kp), k, NPLUS1RT_SUFFIX_TILE, "NULL");
}
/* ---- --profile-in: the profile's predictions (profile_in.h) -------------- */

/* The desc's predicted_split, predicted_tile (each len bytes): 0 (unknown) without a profile. */
static void profile_c(const emitter *e, const kernel_plan *kp, char *split, char *tile,
                      size_t len)
{
    const profile_prior *pp = profile_in_find(e->opt->profile, kp->k->name);
    /* a loop set's split is the loop kernel: the profile's regrouped loop */
    int loop = pp && kp->tile_candidate == AUTO_TILE_LOOP && pp->loop_bound > 0;
    snprintf(split, len, "%.6f", !pp ? 0.0 : loop ? pp->loop_bound : pp->split_bound);
    snprintf(tile, len, "%.6f", !pp ? 0.0 : loop ? pp->loop_bound : pp->tile_bound);
}


static const char *arg_kind(const kernel_param *p)
{
    return p->is_pointer   ? "NPLUS1RT_ARG_BUFFER"
           : p->is_image   ? "NPLUS1RT_ARG_IMAGE"
           : p->is_sampler ? "NPLUS1RT_ARG_SAMPLER"
                           : "NPLUS1RT_ARG_VALUE";
}

static void driver_kernel(emitter *e, strbuf *sb, const kernel_plan *kp)
{
    const kernel_info *k = kp->k;
    strbuf args, leaves, conds, vals;
    sb_init(&args);
    sb_init(&leaves);
    sb_init(&conds);
    sb_init(&vals);
    for (unsigned i = 0; i < k->nparams; i++) {
        const kernel_param *p = &k->params[i];
        sb_printf(&args, "    {\"%s\", \"", p->name);
        sb_put_c_string(&args, p->type_text, strlen(p->type_text));
        sb_printf(&args, "\", %s, %d, %d, %s, %u, %u},\n", arg_kind(p), p->writable,
                  p->is_constant_space, nplus1rt_elem_id(p->elem), p->lanes, p->size);
        if (p->is_struct)
            sb_printf(&vals, "        {%s_size, %s},\n", p->name, p->name);
        else
            sb_printf(&vals, "        {sizeof %s, &%s},\n", p->name, p->name);
    }
    if (!k->nparams) {
        sb_puts(&args, "    {\"\", \"\", NPLUS1RT_ARG_VALUE, 0, 0, NPLUS1RT_U8, 0, 0},\n");
        sb_puts(&vals, "        {0, NULL},\n");
    }
    for (unsigned kn = 0; kn < kp->nkernels; kn++) {
        const leaf *lf = kernel_leaf(kp, (int)kn);
        char *cond = (int)kn == kp->merged_kernel ? merged_condition(kp) : xstrdup(lf->condition);
        sb_printf(&leaves, "    \"%s" NPLUS1RT_SUFFIX_LEAF "%u\",\n", k->name, kn);
        sb_puts(&conds, "    \"");
        sb_put_c_string(&conds, cond, strlen(cond));
        sb_puts(&conds, "\",\n");
        free(cond);
    }
    for (strbuf *b = &args; b; b = b == &args ? &leaves : b == &leaves ? &conds : b == &conds ? &vals : NULL)
        if (b->len && b->data[b->len - 1] == '\n')
            b->data[--b->len] = '\0';
    char nargs[16], narr[16], nleaves[16], reqd[64];
    snprintf(nargs, sizeof nargs, "%u", k->nparams);
    snprintf(narr, sizeof narr, "%u", k->nparams ? k->nparams : 1);
    snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
    snprintf(reqd, sizeof reqd, "%u, %u, %u", k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2]);
    char strat[64], disp[64], split[64];
    c_enum(strat, sizeof strat, "NPLUS1RT_", strategy_name(kp->strategy));
    c_enum(disp, sizeof disp, "NPLUS1RT_DISPATCH_", dispatch_name(e->pl->opt.dispatch));
    c_enum(split, sizeof split, "NPLUS1RT_SPLIT_", split_mode_name(kp->split));
    char scan[300];
    quoted_kernel(scan, sizeof scan, kp->strategy == STRATEGY_ORDERED, k->name,
                  NPLUS1RT_SUFFIX_SCAN, "NULL");
    char count[300], scatter[300], fused[300], tile[300];
    set_kernel_names(kp, k->name, count, scatter, fused, tile, sizeof count);
    char *params = c_params(k);
    char predicted_split[32], predicted_tile[32];
    profile_c(e, kp, predicted_split, predicted_tile, sizeof predicted_split);
    tmpl_var kv[] = {{"K", k->name},
                     {"COUNT", count},
                     {"SCATTER", scatter},
                     {"FUSED", fused},
                     {"TILE", tile},
                     {"ARGS", args.data ? args.data : ""},
                     {"LEAVES", leaves.data ? leaves.data : ""},
                     {"CONDITIONS", conds.data ? conds.data : ""},
                     {"NARGS", nargs},
                     {"NARGS_ARRAY", narr},
                     {"NLEAVES", nleaves},
                     {"SCAN", scan},
                     {"STRATEGY", strat},
                     {"DISPATCH", disp},
                     {"WG", e->wg},
                     {"REQD", reqd},
                     {"SPLIT", split},
                     {"FORMAT", NPLUS1_FORMAT_VERSION_STRING},
                     {"PREDICTED_SPLIT", predicted_split},
                     {"PREDICTED_TILE", predicted_tile},
                     {"PARAMS", params},
                     {"ARGVALS", vals.data ? vals.data : ""}};
    expand(e, sb, &e->dc, "source-kernel", kv, NV(kv));
    free(params);
    sb_free(&args);
    sb_free(&leaves);
    sb_free(&conds);
    sb_free(&vals);
}

/* "SEL=3 follows, FAST undefined refuses" as a C string's contents. */
static char *macro_summary(const emitter *e)
{
    strbuf sb, c;
    sb_init(&sb);
    sb_init(&c);
    for (unsigned i = 0; i < e->md.ndeps; i++) {
        const macro_dep *d = &e->md.deps[i];
        sb_printf(&sb, "%s%s%s%s %s", i ? ", " : "", d->name, d->value ? "=" : " undefined",
                  d->value ? d->value : "", d->followed ? "follows" : "refuses");
    }
    sb_put_c_string(&c, sb.data ? sb.data : "", sb.len);
    sb_free(&sb);
    return c.data ? sb_steal(&c) : xstrdup("");
}

/*
 * C99 and C11 compilers need not take a string literal over 4095 characters
 * (-pedantic: -Woverlength-strings), and a kernel file is often longer. The
 * driver embeds it as a struct of char arrays, each initialised by one literal
 * of at most SOURCE_PIECE characters without its NUL (the last keeps its NUL):
 * the members lie back to back, so the struct reads as one string.
 */
enum { SOURCE_PIECE = 4000 };

/* The length of the next piece of s (n left): whole lines where they fit. */
static size_t source_piece_len(const char *s, size_t n)
{
    if (n <= SOURCE_PIECE)
        return n;
    size_t cut = SOURCE_PIECE;
    while (cut > 0 && s[cut - 1] != '\n')
        cut--;
    return cut ? cut : SOURCE_PIECE;
}

/* Fills ${SOURCE_MEMBERS}, ${SOURCE_PIECES} and ${SOURCE_SIZE}. */
static void source_pieces(const char *source, strbuf *members, strbuf *pieces, size_t *size)
{
    size_t n = strlen(source), at = 0;
    unsigned k = 0;
    do {
        size_t len = source_piece_len(source + at, n - at);
        int last = at + len == n;
        sb_printf(members, "%s    char p%u[%zu];", k ? "\n" : "", k, len + (size_t)last);
        sb_puts(pieces, k ? ",\n    \"" : "    \"");
        sb_put_c_string(pieces, source + at, len);
        sb_putc(pieces, '"');
        at += len;
        k++;
    } while (at < n);
    *size = n + 1;
}

static char *driver_c(emitter *e, const char *source)
{
    strbuf sb, members, pieces;
    sb_init(&sb);
    sb_init(&members);
    sb_init(&pieces);
    size_t size = 0;
    source_pieces(source, &members, &pieces, &size);
    char size_text[32];
    snprintf(size_text, sizeof size_text, "%zu", size);
    char *macros = macro_summary(e);
    tmpl_var hv[] = {{"STEM", e->opt->stem}, {"VERSION", NPLUS1_VERSION},
                     {"INPUT", e->opt->input}, {"SOURCE_MEMBERS", members.data},
                     {"SOURCE_PIECES", pieces.data}, {"SOURCE_SIZE", size_text},
                     {"MACROS", macros}};
    expand(e, &sb, &e->dc, "source-begin", hv, NV(hv));
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        driver_kernel(e, &sb, &e->pl->kernels[i]);
    sb_free(&members);
    sb_free(&pieces);
    free(macros);
    return sb_steal(&sb);
}

/* ---- manifest ------------------------------------------------------------ */

static char *json_escape(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    sb_put_json_string(&sb, s, strlen(s));
    return sb_steal(&sb);
}

/* The manifest's "profile" of kernel k: null without one. */
static char *profile_json(const emitter *e, const char *k)
{
    const profile_prior *pp = profile_in_find(e->opt->profile, k);
    if (!pp)
        return xstrdup("null");
    strbuf sb;
    sb_init(&sb);
    char *file = json_escape(e->opt->profile->path);
    sb_printf(&sb, "{\"file\": \"%s\", \"width\": %u, \"simt_efficiency\": %.6f, "
                   "\"split_speedup_bound\": %.6f, \"tile_speedup_bound\": %.6f}",
              file, pp->width, pp->simt_efficiency, pp->split_bound, pp->tile_bound);
    free(file);
    return sb_steal(&sb);
}


/* What the driver's measured choice can run: the carried candidates (nplus1rt_format.h). */
static char *candidates_json(const emitter *e, const kernel_plan *kp)
{
    strbuf sb;
    sb_init(&sb);
    /* AUTO dispatch may be fused: the chunked set may carry its aggregated passes */
    int fused = e->pl->opt.dispatch != DISPATCH_HOST;
    for (int c = 0; c < NPLUS1RT_NCANDIDATES; c++)
        if (nplus1rt_carries(c, (nplus1rt_split)kp->split, (nplus1rt_strategy)kp->strategy,
                             fused, emits_tile(kp)))
            sb_printf(&sb, "%s\"%s\"", sb.len ? ", " : "", nplus1rt_candidate_text(c));
    return sb_steal(&sb);
}

/* The decisions in source order, with their divergence class (divergence.h). */
static void manifest_decisions(emitter *e, strbuf *sb, const seq *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        const decision *d = s->items[i].decision;
        if (s->items[i].kind != ITEM_DECISION || !d)
            continue;
        size_t len;
        src_range cr = d->kind == DEC_SWITCH ? d->cond : d->branches[0].cond;
        const char *cond = range_text(e->an, cr, &len);
        sb_printf(sb, "%s\n        {\"line\": %u, \"kind\": \"%s\", \"condition\": \"",
                  sb->len ? "," : "", d->range.line, d->kind == DEC_SWITCH ? "switch" : "if");
        sb_put_json_string(sb, cond, len);
        sb_printf(sb, "\", \"divergence\": \"%s\", \"reason\": \"",
                  div_class_name((div_class)d->divergence));
        sb_put_json_string(sb, d->divergence_why, strlen(d->divergence_why));
        sb_printf(sb, "\", \"keep_in_leaf\": %s}", d->keep_in_leaf ? "true" : "false");
        if (d->kind == DEC_SWITCH)
            manifest_decisions(e, sb, &d->body);
        else
            for (unsigned b = 0; b < d->nbranches; b++)
                manifest_decisions(e, sb, &d->branches[b].seq);
    }
}

/* An image's access qualifier: "read_only", "write_only" or "read_write". */
static const char *image_access(const kernel_param *p)
{
    return strstr(p->type_text, "__write_only")   ? "write_only"
           : strstr(p->type_text, "__read_write") ? "read_write"
                                                   : "read_only";
}

/* A leaf's "inputs" (names) or "indexed_by" (name: [index inputs]) in the manifest. */
static char *leaf_inputs_json(const leaf *lf, int indices)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < lf->ninputs; i++) {
        const cond_input *in = &lf->inputs[i];
        if (indices && !in->indexed_by)
            continue;
        sb_puts(&sb, sb.len ? ", \"" : "\"");
        sb_put_json_string(&sb, in->name, strlen(in->name));
        sb_puts(&sb, "\"");
        if (!indices)
            continue;
        sb_puts(&sb, ": [\"");
        for (const char *p = in->indexed_by; *p; p++) /* "a[],b" -> "a[]", "b" */
            if (*p == ',')
                sb_puts(&sb, "\", \"");
            else
                sb_put_json_string(&sb, p, 1);
        sb_puts(&sb, "\"]");
    }
    return sb.len ? sb_steal(&sb) : xstrdup("");
}

/* The manifest's "classifier_kernels" of kernel k, quoted, in n bytes. */
static void classifier_kernels_json(const kernel_plan *kp, const char *k, char *out, size_t n)
{
    static const char *const ordered[] = {NPLUS1RT_SUFFIX_COUNT, NPLUS1RT_SUFFIX_SCAN,
                                          NPLUS1RT_SUFFIX_SCATTER, NULL};
    static const char *const chunked[] = {NPLUS1RT_SUFFIX_CHUNK, NPLUS1RT_SUFFIX_COUNT,
                                          NPLUS1RT_SUFFIX_SCATTER, NULL};
    static const char *const tile[] = {NPLUS1RT_SUFFIX_TILE, NULL};
    static const char *const other[] = {NPLUS1RT_SUFFIX_COUNT, NPLUS1RT_SUFFIX_SCATTER, NULL};
    const char *const *suffixes = kp->strategy == STRATEGY_ORDERED   ? ordered
                                  : kp->strategy == STRATEGY_CHUNKED ? chunked
                                  : tile_only(kp)                    ? tile
                                                                         : other;
    size_t at = 0;
    out[0] = '\0';
    for (unsigned i = 0; suffixes[i] && at < n; i++)
        at += (size_t)snprintf(out + at, n - at, "%s\"%s%s\"", i ? ", " : "", k, suffixes[i]);
}

/* The tile's top-level context (--strategy tile, or the tile candidate of --split auto);
 * null when the set has no tile kernel. */
static char *context_json(const kernel_plan *kp)
{
    const kernel_context *cx = &kp->ctx;
    if (!emits_tile(kp))
        return xstrdup("null");
    if (kp->tile_candidate == AUTO_TILE_LOOP)
        return xstrdup("{\"active\": false, \"why\": \"the tile kernel is the loop kernel: its "
                       "context is loop_context\"}");
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{\"active\": %s, ", cx->active ? "true" : "false");
    if (!cx->active) {
        sb_puts(&sb, "\"why\": \"");
        sb_put_json_string(&sb, cx->why, strlen(cx->why));
        sb_puts(&sb, "\"}");
        return sb_steal(&sb);
    }
    sb_printf(&sb, "\"at_line\": %u, \"prologue_lines\": [%u, %u], \"where\": \"local\", "
                   "\"bytes_per_item\": %u, \"local_bytes_per_group\": %u, "
                   "\"legal_only_with_context\": %u, \"variables\": [",
              cx->at_line, cx->prologue_begin_line, cx->prologue_end_line, cx->bytes,
              cx->bytes * cx->wg, cx->relaxed);
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        sb_printf(&sb, "%s{\"name\": \"%s\", \"type\": \"", i ? ", " : "", v->name);
        sb_put_json_string(&sb, v->store_type, strlen(v->store_type));
        sb_printf(&sb, "\", \"elements\": %u, \"bytes\": %u, \"carried\": %s, \"line\": %u}",
                  v->count, v->bytes, v->carried ? "true" : "false", v->line);
    }
    sb_puts(&sb, "]}");
    return sb_steal(&sb);
}

/* The regrouped loop's context (loop.h), or why the loop is not regrouped; null: no loop. */
static char *loop_context_json(const kernel_plan *kp)
{
    const loop_plan *lp = &kp->loop;
    if (!emits_tile(kp) || !lp->line)
        return xstrdup("null");
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{\"line\": %u, \"active\": %s, ", lp->line, lp->active ? "true" : "false");
    if (!lp->active) {
        sb_puts(&sb, "\"why\": \"");
        sb_put_json_string(&sb, lp->why, strlen(lp->why));
        sb_puts(&sb, "\"}");
        return sb_steal(&sb);
    }
    sb_printf(&sb, "\"decision_line\": %u, \"groups\": %u, \"where\": \"local\", "
                   "\"bytes_per_item\": %u, \"local_bytes_per_group\": %u, \"variables\": [",
              lp->d->range.line, lp->ngroups, lp->bytes, lp->bytes * lp->ctx.wg);
    for (unsigned i = 0; i < lp->ctx.nvars; i++) {
        const ctx_var *v = &lp->ctx.vars[i];
        sb_printf(&sb, "%s{\"name\": \"%s\", \"type\": \"", i ? ", " : "", v->name);
        sb_put_json_string(&sb, v->store_type, strlen(v->store_type));
        sb_printf(&sb, "\", \"elements\": %u, \"bytes\": %u, \"from\": \"%s\", \"line\": %u}",
                  v->count, v->bytes, i < lp->nprologue ? "prologue" : "loop head", v->line);
    }
    sb_puts(&sb, "]}");
    return sb_steal(&sb);
}

static void manifest_kernel(emitter *e, strbuf *sb, const kernel_plan *kp, int last)
{
    const kernel_info *k = kp->k;
    char nslice[16], ccost[32], ck[512], fused[300], tile[300];
    /* under --strategy tile, the tile kernel runs every leaf: it is the fused kernel */
    quoted_kernel(fused, sizeof fused, 1, k->name,
                  tile_only(kp) ? NPLUS1RT_SUFFIX_TILE : NPLUS1RT_SUFFIX_FUSED, "null");
    quoted_kernel(tile, sizeof tile, emits_tile(kp), k->name, NPLUS1RT_SUFFIX_TILE, "null");
    snprintf(nslice, sizeof nslice, "%u", kp->nslice);
    snprintf(ccost, sizeof ccost, "%.0f", kp->classifier_cost);
    classifier_kernels_json(kp, k->name, ck, sizeof ck);
    strbuf decisions;
    sb_init(&decisions);
    manifest_decisions(e, &decisions, &k->top);
    sb_puts(&decisions, decisions.len ? "\n      " : "");
    char *prof = profile_json(e, k->name), *cands = candidates_json(e, kp);
    char *ctx = context_json(kp), *loop_ctx = loop_context_json(kp);
    const char *tkind = emits_tile(kp) ? auto_tile_name(kp->tile_candidate) : NULL;
    char tcand[32];
    snprintf(tcand, sizeof tcand, tkind ? "\"%s\"" : "null", tkind);
    tmpl_var kv[] = {{"K", k->name}, {"STRATEGY", strategy_name(kp->strategy)},
                     {"DISPATCH", dispatch_name(e->pl->opt.dispatch)},
                     {"SPLIT", split_mode_name(kp->split)},
                     {"CANDIDATES", cands},
                     {"CLASSIFIER_KERNELS", ck}, {"NSLICE", nslice}, {"CCOST", ccost},
                     {"FUSED", fused}, {"TILE", tile}, {"PROFILE", prof}, {"CONTEXT", ctx},
                     {"TILE_CANDIDATE", tcand}, {"LOOP_CONTEXT", loop_ctx},
                     {"DECISIONS", decisions.data ? decisions.data : ""},
                     {"COMMA", last ? "" : ","}};
    expand(e, sb, &e->mf, "kernel-begin", kv, NV(kv));
    for (unsigned i = 0; i < k->nparams; i++) {
        const kernel_param *p = &k->params[i];
        char *type = json_escape(p->type_text);
        const char *space = p->is_image     ? "global"
                            : !p->is_pointer ? "private"
                            : p->is_constant_space ? "constant" : "global";
        const char *access = p->is_image ? image_access(p)
                             : !p->is_pointer ? "value"
                             : p->writable    ? "read_write" : "read_only";
        tmpl_var av[] = {{"NAME", p->name}, {"TYPE", type}, {"SPACE", space},
                         {"ACCESS", access}, {"HOST", p->host_type},
                         {"COMMA", i + 1 == k->nparams ? "" : ","}};
        expand(e, sb, &e->mf, "arg", av, NV(av));
        free(type);
    }
    expand(e, sb, &e->mf, "leaves-begin", kv, NV(kv));
    for (unsigned l = 0; l < kp->nleaves; l++) {
        const leaf *lf = &kp->leaves[l];
        char id[16], kern[300], lb[16], le[16], cost[32];
        snprintf(id, sizeof id, "%u", l);
        if (lf->kernel >= 0 && tile_only(kp))
            snprintf(kern, sizeof kern, "\"%s" NPLUS1RT_SUFFIX_TILE "\"", k->name);
        else if (lf->kernel >= 0)
            snprintf(kern, sizeof kern, "\"%s" NPLUS1RT_SUFFIX_LEAF "%d\"", k->name, lf->kernel);
        else
            snprintf(kern, sizeof kern, "null");
        snprintf(lb, sizeof lb, "%u", lf->line_begin);
        snprintf(le, sizeof le, "%u", lf->line_end);
        snprintf(cost, sizeof cost, "%.0f", lf->cost);
        char *cond = json_escape(lf->condition);
        char *file = json_escape(e->an->pr->files[k->body.file].path);
        char *inputs = leaf_inputs_json(lf, 0), *indexed = leaf_inputs_json(lf, 1);
        tmpl_var lv[] = {{"ID", id}, {"KERNEL", kern}, {"EMPTY", lf->kernel < 0 ? "true" : "false"},
                         {"CONDITION", cond}, {"FILE", file}, {"LB", lb}, {"LE", le},
                         {"RET", lf->returned ? "true" : "false"}, {"COST", cost},
                         {"INPUTS", inputs}, {"INDEXED_BY", indexed},
                         {"COMMA", l + 1 == kp->nleaves ? "" : ","}};
        expand(e, sb, &e->mf, "leaf", lv, NV(lv));
        free(cond);
        free(file);
        free(inputs);
        free(indexed);
    }
    expand(e, sb, &e->mf, "kernel-end", kv, NV(kv));
    sb_free(&decisions);
    free(prof);
    free(cands);
    free(ctx);
    free(loop_ctx);
}

/*
 * The macros the generated text depends on: "follows" (a case label as
 * written: the set computes with the run-time value) or "refuses" (an #if
 * around a kernel: _create fails with NPLUS1_ERR_MACRO when it changes).
 */
static char *macro_dependencies(const emitter *e)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < e->md.ndeps; i++) {
        const macro_dep *d = &e->md.deps[i];
        sb_printf(&sb, "%s\n    {\"name\": \"", i ? "," : "");
        sb_put_json_string(&sb, d->name, strlen(d->name));
        sb_printf(&sb, "\", \"defined\": %s", d->value ? "true" : "false");
        if (d->value) {
            sb_puts(&sb, ", \"value\": \"");
            sb_put_json_string(&sb, d->value, strlen(d->value));
            sb_puts(&sb, "\"");
        }
        sb_printf(&sb, ", \"line\": %u, \"on_change\": \"%s\"}", d->line,
                  d->followed ? "follows" : "refuses");
    }
    sb_puts(&sb, e->md.ndeps ? "\n  " : "");
    return sb_steal(&sb);
}

static char *manifest(emitter *e)
{
    strbuf sb;
    sb_init(&sb);
    char *input = json_escape(e->opt->input), *macros = macro_dependencies(e);
    tmpl_var hv[] = {{"VERSION", NPLUS1_VERSION}, {"INPUT", input}, {"STEM", e->opt->stem},
                     {"WG", e->wg}, {"FORMAT", NPLUS1_FORMAT_VERSION_STRING},
                     {"MACROS", macros}};
    expand(e, &sb, &e->mf, "begin", hv, NV(hv));
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        manifest_kernel(e, &sb, &e->pl->kernels[i], i + 1 == e->pl->nkernels);
    expand(e, &sb, &e->mf, "end", hv, NV(hv));
    free(input);
    free(macros);
    return sb_steal(&sb);
}

/* ---- entry --------------------------------------------------------------- */

static int load_templates(emitter *e)
{
    const char *dir = e->opt->template_dir;
    return tmpl_load(&e->kt, "kernel.cl", dir, e->err, e->errlen) ||
           tmpl_load(&e->dh, "driver.h", dir, e->err, e->errlen) ||
           tmpl_load(&e->dc, "driver.c", dir, e->err, e->errlen) ||
           tmpl_load(&e->mf, "manifest.json", dir, e->err, e->errlen);
}

int emit_all(const plan *pl, const emit_options *opt, emit_output *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    emitter e;
    memset(&e, 0, sizeof e);
    e.pl = pl;
    e.an = pl->an;
    e.opt = opt;
    e.err = err;
    e.errlen = errlen;
    snprintf(e.wg, sizeof e.wg, "%u", pl->opt.wg);
    int rc = -1;
    if (load_templates(&e) == 0) {
        macro_deps_find(&e.md, pl, opt->defines, opt->ndefines);
        inclusions inc = {pl->an, &e.md, NULL, 0, 0};
        clang_getInclusions(pl->an->pr->tu, inclusion_cb, &inc);
        out->kernel_file = kernel_file(&e, &inc);
        out->driver_h = driver_h(&e);
        out->driver_c = driver_c(&e, out->kernel_file);
        out->manifest = manifest(&e);
        out->deps = xcalloc(inc.n + 1, sizeof *out->deps);
        out->deps[out->ndeps++] = xstrdup(pl->an->pr->files[0].path);
        for (unsigned i = 0; i < inc.n; i++)
            out->deps[out->ndeps++] = xstrdup(pl->an->pr->files[inc.v[i].included].path);
        free(inc.v);
        rc = e.failed ? -1 : 0;
    }
    macro_deps_free(&e.md);
    tmpl_free(&e.kt);
    tmpl_free(&e.dh);
    tmpl_free(&e.dc);
    tmpl_free(&e.mf);
    return rc;
}

void emit_output_free(emit_output *out)
{
    free(out->kernel_file);
    free(out->driver_h);
    free(out->driver_c);
    free(out->manifest);
    for (unsigned i = 0; i < out->ndeps; i++)
        free(out->deps[i]);
    free(out->deps);
    memset(out, 0, sizeof *out);
}
