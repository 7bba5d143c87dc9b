/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit.c - the generated texts: the entry (emit_all), and the kernel file's
 * assembly, fragment by fragment of templates/kernel.cl.tmpl, per kernel:
 * the classifier, leaf bodies and leaf kernels, the strategy's passes, the
 * tile kernel with its context, the loop shape. The pieces made from the
 * user's text are emit_kernel.c's, the driver emit_driver.c's, the manifest
 * emit_manifest.c's (emit_int.h).
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "util.h"

/* ---- contexts: the tile's leaves start from what the prologue left -------- */

/* Under --strategy tile, a kernel with an active context (context.h). */
static int uses_context(const kernel_plan *kp)
{
    return kp->tile_candidate == AUTO_TILE_CONTEXT;
}

/* A leaf body from the context opens, and declares the context's variables from the local
 * memory where they move. */
static void ctx_loads(emitter *e, strbuf *sb, const kernel_context *cx)
{
    char prologue[48];
    snprintf(prologue, sizeof prologue, "%u-%u", cx->prologue_begin_line, cx->prologue_end_line);
    tmpl_var bv[] = {{"PROLOGUE", prologue}};
    emit_expand(e, sb, &e->kt, "ctx-loads", bv, NV(bv));
    for (unsigned i = 0; i < cx->nvars; i++) {
        const ctx_var *v = &cx->vars[i];
        char count[16];
        snprintf(count, sizeof count, "%u", v->count);
        tmpl_var lv[] = {{"DECL_TYPE", v->decl_type}, {"STORE_TYPE", v->store_type},
                         {"NAME", v->name},           {"COUNT", count},
                         {"ARRAY", v->count ? "1" : ""}, {"CARRIED", v->carried ? "1" : ""}};
        emit_expand(e, sb, &e->kt, "ctx-load", lv, NV(lv));
    }
}

/* One piece of text per carried variable, fragment frag (ctx-param, ctx-arg, ctx-decl,
 * ctx-sizeof), of the kernel k; inl: pieces of one line. */
static char *ctx_list(emitter *e, const char *k, const kernel_context *cx, const char *frag,
                      int inl)
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
        tmpl_var lv[] = {{"K", k},           {"TYPE", v->store_type}, {"NAME", v->name},
                         {"DIM", dim},       {"ARRAY", v->count ? "1" : ""},
                         {"FIRST", sb.len ? "" : "1"}};
        emit_expand(e, &sb, &e->kt, frag, lv, NV(lv));
        if (inl)
            emit_text_chomp(&sb);
    }
    return sb.data ? sb_steal(&sb) : xstrdup("");
}

/* A leaf's body from the context: the text from the decision on, with the leaf's path
 * edits (none for the merged leaf, lf NULL, which runs the decisions as written). */
static char *leaf_body_ctx(emitter *e, const kernel_plan *kp, const leaf *lf)
{
    const kernel_info *k = kp->k;
    const src_file *f = &e->an->pr->files[k->body.file];
    edits es = {0};
    es.line_path = emit_line_path(e, k->body.file);
    if (lf)
        emit_path_edits(e, lf, &es);
    strbuf sb;
    sb_init(&sb);
    ctx_loads(e, &sb, &kp->ctx);
    emit_put_line(&sb, e, k->body.file, parse_newline_line(e->an->pr, k->body.file, kp->ctx.point));
    strbuf rest;
    sb_init(&rest);
    emit_put_edited_in(&rest, e->an, k->body.file, f->text, kp->ctx.point, k->body.end, &es);
    emit_edits_free(&es);
    tmpl_var v[] = {{"REST", rest.data ? rest.data : ""}};
    emit_expand_inline(e, &sb, "leaf-body-ctx-rest", v, NV(v));
    sb_free(&rest);
    emit_put_line_back_after_body(&sb, e);
    return sb_steal(&sb);
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
    char *body = emit_classifier_body(e, kp, ctx ? &kp->ctx : NULL);
    tmpl_var cv[] = {{"K", k->name}, {"PARAMS", bn->params}, {"BODY", body},
                     {"CTX_PARAMS", bn->cparams}, {"PROLOGUE", prologue}};
    emit_expand(e, sb, &e->kt, ctx ? "classify-ctx" : "classify", cv, NV(cv));
    free(body);
    for (unsigned kn = 0; kn < kp->nkernels; kn++) {
        const leaf *lf = emit_kernel_leaf(kp, (int)kn);
        int merged = (int)kn == kp->merged_kernel;
        snprintf(leafno, sizeof leafno, "%u", kn);
        snprintf(lines, sizeof lines, "%u-%u", merged ? k->body.line : lf->line_begin,
                 merged ? k->body.end_line : lf->line_end);
        char *lb = ctx      ? leaf_body_ctx(e, kp, merged ? NULL : lf)
                   : merged ? emit_leaf_body_merged(e, kp)
                            : emit_leaf_body(e, kp, lf);
        char *cond = merged ? emit_merged_condition(kp) : emit_comment_safe(lf->condition);
        tmpl_var lv[] = {{"K", k->name},   {"LEAF", leafno}, {"CONDITION", cond},
                         {"LINES", lines}, {"PARAMS", bn->params}, {"BODY", lb},
                         {"ARGS", bn->args}, {"CTX_PARAMS", bn->cparams},
                         {"CTX_ARGS", bn->cargs}};
        emit_expand(e, sb, &e->kt, ctx ? "leaf-body-ctx" : "leaf-body", lv, NV(lv));
        sb_putc(sb, '\n');
        if (!ctx && !emit_tile_only(kp))
            emit_expand(e, sb, &e->kt, "leaf-kernel", lv, NV(lv));
        emit_expand(e, cases, &e->kt, ctx ? "tile-ctx-case" : "fused-case", lv, NV(lv));
        free(lb);
        free(cond);
    }
}

/* ---- macros the text changes after a kernel (macro_restore.h) --------------- */

/* Before who's generated text: each macro of r as it was at who's definition. */
void emit_macro_restore(emitter *e, strbuf *sb, const macro_restores *r, const char *who)
{
    if (!r->n)
        return;
    tmpl_var wv[] = {{"WHO", who}};
    emit_expand(e, sb, &e->kt, "macro-restore-begin", wv, NV(wv));
    for (unsigned i = 0; i < r->n; i++) {
        tmpl_var mv[] = {{"NAME", r->v[i].name}, {"DEFINITION", r->v[i].at ? r->v[i].at : ""}};
        emit_expand(e, sb, &e->kt, r->v[i].cmdline ? "macro-restore-cmdline" : "macro-restore",
                    mv, NV(mv));
    }
    emit_expand(e, sb, &e->kt, "macro-restore-end", wv, NV(wv));
}

/* After it: each macro of r as the original text leaves it. */
void emit_macro_after(emitter *e, strbuf *sb, const macro_restores *r, const char *who)
{
    if (!r->n)
        return;
    tmpl_var wv[] = {{"WHO", who}};
    emit_expand(e, sb, &e->kt, "macro-after-begin", wv, NV(wv));
    for (unsigned i = 0; i < r->n; i++) {
        const macro_restore *m = &r->v[i];
        tmpl_var mv[] = {{"NAME", m->name},
                         {"DEFINED", m->after ? "1" : ""},
                         {"DEFINITION", m->after ? m->after : ""}};
        emit_expand(e, sb, &e->kt, "macro-after", mv, NV(mv));
    }
    emit_expand(e, sb, &e->kt, "macro-after-end", wv, NV(wv));
}

/* ---- a kernel's set ------------------------------------------------------------ */

static void emit_kernel_passes(emitter *e, strbuf *sb, const kernel_plan *kp)
{
    const kernel_info *k = kp->k;
    char nleaves[16];
    snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
    char *params = kernel_param_list(k, 0), *args = kernel_param_list(k, 1);
    const char *strat = strategy_name(kp->strategy);
    char lsz[3][16];
    for (unsigned d = 0; d < 3; d++)
        snprintf(lsz[d], sizeof lsz[d], "%u", k->reqd_wg[d] ? k->reqd_wg[d] : 1u);
    tmpl_var head[] = {{"K", k->name}, {"NLEAVES", nleaves}, {"STRATEGY", strat},
                       {"LINEAR", k->linear_ids ? "1" : ""}, {"LSZ0", lsz[0]},
                       {"LSZ1", lsz[1]}, {"LSZ2", lsz[2]}};
    emit_expand(e, sb, &e->kt, "kernel-begin", head, NV(head));
    emit_macro_restore(e, sb, &k->restores, k->name);
    if (emit_tile_only(kp) && kp->machine.active) {
        machine_emit_set(e, kp, sb);
        free(params);
        free(args);
        return;
    }
    if (emit_tile_only(kp) && kp->loop.active) {
        char line[16];
        snprintf(line, sizeof line, "%u", kp->loop.line);
        tmpl_var lv[] = {{"K", k->name}, {"LINE", line}};
        emit_expand(e, sb, &e->kt, "loop-begin", lv, NV(lv));
        loop_emit_set(e, kp, sb);
        emit_expand(e, sb, &e->kt, "loop-end", lv, NV(lv));
        free(params);
        free(args);
        return;
    }
    const int ctx = uses_context(kp);
    char *cparams = ctx_list(e, k->name, &kp->ctx, "ctx-param", 1);
    char *cargs = ctx_list(e, k->name, &kp->ctx, "ctx-arg", 1);
    strbuf cases, ctx_cases;
    sb_init(&cases);
    sb_init(&ctx_cases);
    body_names bn = {params, args, cparams, cargs};
    if (!ctx || !emit_tile_only(kp)) /* the strategy's, or the tile's without a context */
        emit_bodies(e, sb, kp, 0, &bn, &cases);
    if (ctx) { /* the tile's: the leaves start from the context */
        char regroup[16], why[320];
        snprintf(regroup, sizeof regroup, "%d", kp->ctx.policy.regroup);
        tile_policy_why(&kp->ctx.policy, 1, why, sizeof why);
        tmpl_var pv[] = {{"K", k->name}, {"REGROUP", regroup}, {"REGROUP_WHY", why}};
        emit_expand(e, sb, &e->kt, "tile-ctx-policy", pv, NV(pv));
        emit_bodies(e, sb, kp, 1, &bn, &ctx_cases);
    }
    emit_text_chomp(&cases);
    emit_text_chomp(&ctx_cases);
    char *cdecls = ctx_list(e, k->name, &kp->ctx, "ctx-decl", 0);
    char *csize = ctx_list(e, k->name, &kp->ctx, "ctx-sizeof", 1), cbytes[16];
    /* the tile kernel with regrouping off (tile-in-place): the kernel's own body */
    char *original = emit_carries_tile(kp) ? emit_in_place_body(e, kp) : NULL;
    snprintf(cbytes, sizeof cbytes, "%u", kp->ctx.bytes);
    char plain_regroup[16], plain_why[320];
    snprintf(plain_regroup, sizeof plain_regroup, "%d", kp->plain.regroup);
    tile_policy_why(&kp->plain, 0, plain_why, sizeof plain_why);
    /* the flags the passes fragment chooses by: the strategy (ATOMIC ... TILE), whether the set
     * carries the tile kernel, and with the context */
#define EMIT_STRATEGY_FLAG_(id, v, name) {#id, kp->strategy == STRATEGY_##id ? "1" : ""},
    tmpl_var kv[] = {{"K", k->name},       {"NLEAVES", nleaves},
                     {"PARAMS", params},   {"ARGS", args},
                     {"CASES", cases.data ? cases.data : ""},
                     {"CTX_CASES", ctx_cases.data ? ctx_cases.data : ""},
                     {"CTX_ARGS", cargs}, {"CTX_DECLS", cdecls},
                     {"CTX_SIZE", csize}, {"CTX_BYTES", cbytes},
                     NPLUS1RT_STRATEGIES(EMIT_STRATEGY_FLAG_)
                     {"TILE_KERNEL", emit_carries_tile(kp) ? "1" : ""},
                     {"CTX", ctx ? "1" : ""},
                     {"ORIGINAL", original ? original : ""},
                     {"POLICY", "NPLUS1_TILE_REGROUP"},
                     {"PLAIN_REGROUP", plain_regroup},
                     {"PLAIN_REGROUP_WHY", plain_why}};
#undef EMIT_STRATEGY_FLAG_
    emit_expand(e, sb, &e->kt, "passes", kv, NV(kv));
    free(original);
    sb_free(&ctx_cases);
    free(cparams);
    free(cargs);
    free(cdecls);
    free(csize);
    sb_free(&cases);
    free(params);
    free(args);
}

static void emit_kernel_set(emitter *e, strbuf *sb, const kernel_plan *kp)
{
    emit_kernel_passes(e, sb, kp);
    emit_macro_after(e, sb, &kp->k->restores, kp->k->name);
}

/* Has an earlier list than r (or r before i) a -D macro restore named name? */
static int saved_before(const macro_restores *const *lists, unsigned l, unsigned i,
                        const char *name)
{
    for (unsigned a = 0; a <= l; a++)
        for (unsigned j = 0; j < (a == l ? i : lists[a]->n); j++)
            if (lists[a]->v[j].cmdline && !strcmp(lists[a]->v[j].name, name))
                return 1;
    return 0;
}

/* The head's save of each -D macro some kernel's text takes back (macro-restore-cmdline):
 * its value as the build gives it, before the original text changes it. */
static void emit_cmdline_saves(emitter *e, strbuf *sb)
{
    unsigned n = e->pl->nkernels + e->an->nhelpers;
    const macro_restores **lists = xcalloc(n ? n : 1, sizeof *lists);
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        lists[i] = &e->pl->kernels[i].k->restores;
    for (unsigned h = 0; h < e->an->nhelpers; h++)
        lists[e->pl->nkernels + h] = &e->an->helpers[h].restores;
    for (unsigned l = 0; l < n; l++)
        for (unsigned i = 0; i < lists[l]->n; i++)
            if (lists[l]->v[i].cmdline && !saved_before(lists, l, i, lists[l]->v[i].name)) {
                tmpl_var mv[] = {{"NAME", lists[l]->v[i].name}};
                emit_expand(e, sb, &e->kt, "define-save", mv, NV(mv));
            }
    free(lists);
}

static char *kernel_file(emitter *e, inclusions *inc)
{
    strbuf sb;
    sb_init(&sb);
    const emit_options *o = e->opt;
    tmpl_var hv[] = {{"STEM", o->stem}, {"VERSION", NPLUS1_VERSION}, {"INPUT", o->input},
                     {"WG", e->wg}};
    emit_expand(e, &sb, &e->kt, "file-header", hv, NV(hv));
    for (unsigned i = 0; i < o->ndefines; i++) {
        char name[256];
        const char *eq = strchr(o->defines[i], '=');
        size_t n = eq ? (size_t)(eq - o->defines[i]) : strlen(o->defines[i]);
        snprintf(name, sizeof name, "%.*s", (int)n, o->defines[i]);
        char guard[256]; /* #ifndef takes the name alone: a function-like -D's parameters off */
        snprintf(guard, sizeof guard, "%.*s", (int)strcspn(name, "("), name);
        tmpl_var dv[] = {{"NAME", name}, {"GUARD", guard}, {"VALUE", eq ? eq + 1 : "1"}};
        emit_expand(e, &sb, &e->kt, "define", dv, NV(dv));
    }
    emit_cmdline_saves(e, &sb);
    emit_expand(e, &sb, &e->kt, "original-begin", hv, NV(hv));
    emit_file_inlined(&sb, inc, 0, 0);
    emit_put_line_back(&sb, e);
    emit_expand(e, &sb, &e->kt, "original-end", hv, NV(hv));
    emit_expand(e, &sb, &e->kt, "prelude", hv, NV(hv));
    emit_helpers(e, &sb);
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        emit_kernel_set(e, &sb, &e->pl->kernels[i]);
    emit_expand(e, &sb, &e->kt, "file-end", hv, NV(hv));
    if (o->no_line)
        return sb_steal(&sb);
    char generated[300];
    snprintf(generated, sizeof generated, "%s.nplus1.cl", o->stem);
    return emit_text_lines_resolved(sb_steal(&sb), generated);
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
        inclusions inc = {pl->an, &e.md, NULL, 0, !opt->no_line, &e};
        inc.n = parse_inclusions(pl->an->pr, &inc.v);
        out->kernel_file = kernel_file(&e, &inc);
        out->driver_h = emit_driver_h(&e);
        out->driver_c = emit_driver_c(&e, out->kernel_file);
        out->manifest = emit_manifest(&e);
        out->deps = xcalloc(inc.n + 1, sizeof *out->deps);
        out->deps[out->ndeps++] = xstrdup(pl->an->pr->files[0].path);
        for (unsigned i = 0; i < inc.n; i++)
            if (!inc.v[i].skipped)
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
