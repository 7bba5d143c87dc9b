/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_manifest.c - the manifest, <stem>.nplus1.json: per kernel its
 * strategy, candidates, arguments, decisions (with their divergence
 * class), context and leaves, and the macros the set depends on.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "divergence.h"
#include "tree.h"
#include "util.h"

/* ---- manifest ------------------------------------------------------------ */

static char *json_escape(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    sb_put_json_string(&sb, s, strlen(s));
    return sb_steal(&sb);
}

/* The manifest's "profile" of a kernel: null without one. */
static char *profile_json(const plan_prior *pp)
{
    if (!pp->has)
        return xstrdup("null");
    strbuf sb;
    sb_init(&sb);
    char *file = json_escape(pp->file);
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
    int fused = e->opt->dispatch != DISPATCH_HOST;
    for (int c = 0; c < NPLUS1RT_NCANDIDATES; c++)
        if (nplus1rt_carries(c, (nplus1rt_split)kp->split, (nplus1rt_strategy)kp->strategy,
                             fused, emit_carries_tile(kp)))
            sb_printf(&sb, "%s\"%s\"", sb.len ? ", " : "", nplus1rt_candidate_text(c));
    return sb_steal(&sb);
}

/* The decisions in source order, with their divergence class (divergence.h). */
typedef struct manifest_list {
    emitter *e;
    const kernel_plan *kp;
    strbuf *sb;
} manifest_list;

static tree_step manifest_decision(void *ud, const decision *d)
{
    const manifest_list *m = ud;
    strbuf *sb = m->sb;
    size_t len;
    src_range cr = d->kind == DEC_SWITCH ? d->cond : d->branches[0].cond;
    const char *cond = range_text(m->e->an, cr, &len);
    sb_printf(sb, "%s\n        {\"line\": %u, \"kind\": \"%s\", \"condition\": \"",
              sb->len ? "," : "", d->range.line, d->kind == DEC_SWITCH ? "switch" : "if");
    sb_put_json_string(sb, cond, len);
    sb_printf(sb, "\", \"divergence\": \"%s\", \"reason\": \"",
              div_class_name((div_class)d->divergence));
    sb_put_json_string(sb, d->divergence_why, strlen(d->divergence_why));
    sb_printf(sb, "\", \"keep_in_leaf\": %s}",
              decision_kept(m->kp->decisions, d) ? "true" : "false");
    return TREE_RECURSE;
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
                                  : emit_tile_only(kp)                    ? tile
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
    if (!emit_carries_tile(kp))
        return xstrdup("null");
    if (kp->tile_candidate == AUTO_TILE_LOOP)
        return xstrdup("{\"active\": false, \"why\": \"the tile kernel is the loop kernel: its "
                       "context is loop_context\"}");
    if (kp->tile_candidate == AUTO_TILE_MACHINE)
        return xstrdup("{\"active\": false, \"why\": \"the tile kernel is the state machine: its "
                       "context is machine\"}");
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{\"active\": %s, ", cx->active ? "true" : "false");
    if (!cx->active) {
        sb_puts(&sb, "\"why\": \"");
        sb_put_json_string(&sb, cx->why, strlen(cx->why));
        sb_puts(&sb, "\"}");
        return sb_steal(&sb);
    }
    char why[320];
    tile_policy_why(&cx->policy, 1, why, sizeof why);
    sb_printf(&sb, "\"at_line\": %u, \"prologue_lines\": [%u, %u], \"where\": \"%s\", "
                   "\"regroup\": %d, \"regroup_why\": \"%s\", "
                   "\"bytes_per_item\": %u, \"local_bytes_per_group\": %u, "
                   "\"legal_only_with_context\": %u, \"variables\": [",
              cx->at_line, cx->prologue_begin_line, cx->prologue_end_line,
              cx->policy.regroup > 0 ? "local" : "private", cx->policy.regroup, why, cx->bytes,
              cx->policy.regroup > 0 ? cx->bytes * cx->wg : 0, cx->relaxed);
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
    if (!emit_carries_tile(kp) || !lp->line)
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
    sb_printf(&sb, "\"decision_line\": %u, \"other_decision_lines\": [", lp->d->range.line);
    for (unsigned i = 0; i < lp->nothers && i < LOOP_MAX_OTHERS; i++)
        sb_printf(&sb, "%s%u", i ? ", " : "", lp->others[i]);
    sb_printf(&sb, "], \"groups\": %u, \"where\": \"%s\", "
                   "\"bytes_per_item\": %u, \"local_bytes_per_group\": %u, ",
              lp->ngroups, lp->in_place ? "private" : "local", lp->bytes,
              lp->in_place ? 0 : lp->bytes * lp->ctx.wg);
    if (lp->in_place) { /* over the local budget: each context stays in its lane */
        sb_puts(&sb, "\"in_place_why\": \"");
        sb_put_json_string(&sb, lp->in_place_why, strlen(lp->in_place_why));
        sb_puts(&sb, "\", ");
    }
    sb_puts(&sb, "\"variables\": [");
    for (unsigned i = 0; i < lp->ctx.nvars; i++) {
        const ctx_var *v = &lp->ctx.vars[i];
        sb_printf(&sb, "%s{\"name\": \"%s\", \"type\": \"", i ? ", " : "", v->name);
        sb_put_json_string(&sb, v->store_type, strlen(v->store_type));
        sb_printf(&sb, "\", \"elements\": %u, \"bytes\": %u, \"from\": \"%s\", \"line\": %u}",
                  v->count, v->bytes, i < lp->nprologue ? "prologue" : "loop head", v->line);
    }
    sb_puts(&sb, "]");
    if (lp->outer) /* a loop inside a top-level leaf: the if and the branch that hold it */
        sb_printf(&sb, ", \"in_branch\": {\"if_line\": %u, \"branch_line\": %u, "
                       "\"branches_with_loops\": %u}",
                  lp->outer->range.line, lp->outer->branches[lp->outer_branch].body.line,
                  lp->outer_loops);
    sb_puts(&sb, "}");
    return sb_steal(&sb);
}

static void json_str(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    sb_put_json_string(sb, s, strlen(s));
    sb_putc(sb, '"');
}

/* The state machine (machine.h): its regroup points, the decisions left as written, its
 * context and policy (a machine without regroup points too: refill only, or off); or why
 * it is not used (blockers at their lines); null: nothing. */
static char *machine_json(const kernel_plan *kp)
{
    const machine_plan *mp = &kp->machine;
    if (!emit_carries_tile(kp) || (!mp->npoints && !mp->nblockers && !mp->active))
        return xstrdup("null");
    const ir_kernel *ir = kp->k->ir;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{\"active\": %s, ", mp->active ? "true" : "false");
    if (!mp->active) {
        sb_puts(&sb, "\"why\": ");
        json_str(&sb, mp->why);
        sb_puts(&sb, ", \"blockers\": [");
        for (unsigned i = 0; i < mp->nblockers; i++) {
            sb_printf(&sb, "%s{\"line\": %u, \"why\": ", i ? ", " : "", mp->blockers[i].at.line);
            json_str(&sb, mp->blockers[i].msg);
            sb_putc(&sb, '}');
        }
        sb_puts(&sb, "]}");
        return sb_steal(&sb);
    }
    sb_puts(&sb, "\"regroup_points\": [");
    for (unsigned i = 0; i < mp->npoints; i++) {
        const machine_point *p = &mp->points[i];
        sb_printf(&sb, "%s{\"line\": %u, \"kind\": \"%s\", \"arms\": %u, \"first_group\": %u, "
                       "\"loops_around\": %u, \"cost\": %.0f",
                  i ? ", " : "", p->line, ir->nodes[p->node]->kind == IR_SWITCH ? "switch" : "if",
                  p->narms, p->first, p->depth, p->cost);
        const unsigned fr = ir->nodes[p->node]->frame;
        if (fr) { /* a helper's, inlined at its call */
            sb_puts(&sb, ", \"in_helper\": ");
            json_str(&sb, ir->nodes[fr]->call.name);
            sb_printf(&sb, ", \"called_at\": %u", ir->nodes[fr]->line);
        }
        sb_putc(&sb, '}');
    }
    sb_puts(&sb, "], \"left_as_written\": [");
    for (unsigned i = 0; i < mp->nleft; i++) {
        sb_printf(&sb, "%s{\"line\": %u, \"why\": ", i ? ", " : "", mp->left[i].line);
        json_str(&sb, mp->left[i].why);
        sb_putc(&sb, '}');
    }
    sb_printf(&sb, "], \"groups\": %u, \"bytes_per_item\": %u, \"where\": \"%s\", "
                   "\"regroup\": %d, \"arm_cost\": %.0f, \"round_cost\": %.0f, ",
              mp->ngroups, mp->bytes, mp->in_place ? "private" : "local", mp->regroup,
              mp->arm_cost, mp->round_cost);
    if (mp->in_place) {
        sb_puts(&sb, "\"in_place_why\": ");
        json_str(&sb, mp->in_place_why);
        sb_puts(&sb, ", ");
    }
    sb_puts(&sb, "\"variables\": [");
    for (unsigned i = 0; i < mp->nvars; i++) {
        const ir_var *v = &ir->vars[mp->vars[i].var];
        sb_printf(&sb, "%s{\"name\": ", i ? ", " : "");
        json_str(&sb, v->name);
        sb_puts(&sb, ", \"member\": ");
        json_str(&sb, mp->vars[i].decl);
        sb_printf(&sb, ", \"bytes\": %lld, \"line\": %u}", v->size,
                  (v->flags & IR_VAR_RETURN) ? ir->nodes[v->frame]->line : v->range.line);
    }
    sb_puts(&sb, "]}");
    return sb_steal(&sb);
}

static void manifest_kernel(emitter *e, strbuf *sb, const kernel_plan *kp, int last)
{
    const kernel_info *k = kp->k;
    char nslice[16], ccost[32], ck[512], fused[300], tile[300];
    /* under --strategy tile, the tile kernel runs every leaf: it is the fused kernel */
    emit_quoted_kernel(fused, sizeof fused, 1, k->name,
                       emit_tile_only(kp) ? NPLUS1RT_SUFFIX_TILE : NPLUS1RT_SUFFIX_FUSED, "null");
    emit_quoted_kernel(tile, sizeof tile, emit_carries_tile(kp), k->name, NPLUS1RT_SUFFIX_TILE,
                       "null");
    snprintf(nslice, sizeof nslice, "%u", kp->nslice);
    snprintf(ccost, sizeof ccost, "%.0f", kp->classifier_cost);
    classifier_kernels_json(kp, k->name, ck, sizeof ck);
    strbuf decisions;
    sb_init(&decisions);
    manifest_list ml = {e, kp, &decisions};
    for_each_decision(&k->top, manifest_decision, &ml);
    sb_puts(&decisions, decisions.len ? "\n      " : "");
    char *prof = profile_json(&kp->prior), *cands = candidates_json(e, kp);
    char *ctx = context_json(kp), *loop_ctx = loop_context_json(kp), *mach = machine_json(kp);
    char *set_desc = emit_set_desc_json(e, kp);
    const char *tkind = emit_carries_tile(kp) ? auto_tile_name(kp->tile_candidate) : NULL;
    char tcand[32];
    snprintf(tcand, sizeof tcand, tkind ? "\"%s\"" : "null", tkind);
    tmpl_var kv[] = {{"K", k->name}, {"STRATEGY", strategy_name(kp->strategy)},
                     {"DISPATCH", dispatch_name(e->opt->dispatch)},
                     {"SPLIT", split_mode_name(kp->split)},
                     {"CANDIDATES", cands},
                     {"CLASSIFIER_KERNELS", ck}, {"NSLICE", nslice}, {"CCOST", ccost},
                     {"FUSED", fused}, {"TILE", tile}, {"PROFILE", prof}, {"CONTEXT", ctx},
                     {"TILE_CANDIDATE", tcand}, {"LOOP_CONTEXT", loop_ctx},
                     {"MACHINE", mach},
                     {"SET_DESC", set_desc},
                     {"DECISIONS", decisions.data ? decisions.data : ""},
                     {"COMMA", last ? "" : ","}};
    emit_expand(e, sb, &e->mf, "kernel-begin", kv, NV(kv));
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
        emit_expand(e, sb, &e->mf, "arg", av, NV(av));
        free(type);
    }
    emit_expand(e, sb, &e->mf, "leaves-begin", kv, NV(kv));
    for (unsigned l = 0; l < kp->nleaves; l++) {
        const leaf *lf = &kp->leaves[l];
        char id[16], kern[300], lb[16], le[16], cost[32];
        snprintf(id, sizeof id, "%u", l);
        if (lf->kernel >= 0 && emit_tile_only(kp))
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
        emit_expand(e, sb, &e->mf, "leaf", lv, NV(lv));
        free(cond);
        free(file);
        free(inputs);
        free(indexed);
    }
    emit_expand(e, sb, &e->mf, "kernel-end", kv, NV(kv));
    sb_free(&decisions);
    free(prof);
    free(cands);
    free(ctx);
    free(loop_ctx);
    free(mach);
    free(set_desc);
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

/* --skip-refused: each kernel left out, with its rule (null: split never) and why. */
static char *skipped_json(const emitter *e)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < e->opt->nskipped; i++) {
        const emit_skip *s = &e->opt->skipped[i];
        sb_printf(&sb, "%s\n    {\"name\": \"", i ? "," : "");
        sb_put_json_string(&sb, s->kernel, strlen(s->kernel));
        sb_printf(&sb, "\", \"refused\": %s, \"rule\": ", s->rule ? "true" : "false");
        if (s->rule) {
            sb_puts(&sb, "\"");
            sb_put_json_string(&sb, s->rule, strlen(s->rule));
            sb_puts(&sb, "\"");
        } else {
            sb_puts(&sb, "null");
        }
        sb_printf(&sb, ", \"line\": %u, \"why\": \"", s->line);
        sb_put_json_string(&sb, s->why, strlen(s->why));
        sb_puts(&sb, "\"}");
    }
    sb_puts(&sb, e->opt->nskipped ? "\n  " : "");
    return sb_steal(&sb);
}

char *emit_manifest(emitter *e)
{
    strbuf sb;
    sb_init(&sb);
    char *input = json_escape(e->opt->input), *macros = macro_dependencies(e);
    char *skipped = skipped_json(e);
    tmpl_var hv[] = {{"VERSION", NPLUS1_VERSION}, {"INPUT", input}, {"STEM", e->opt->stem},
                     {"WG", e->wg}, {"FORMAT", NPLUS1_FORMAT_VERSION_STRING},
                     {"MACROS", macros}, {"SKIPPED", skipped}};
    emit_expand(e, &sb, &e->mf, "begin", hv, NV(hv));
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        manifest_kernel(e, &sb, &e->pl->kernels[i], i + 1 == e->pl->nkernels);
    emit_expand(e, &sb, &e->mf, "end", hv, NV(hv));
    free(input);
    free(macros);
    free(skipped);
    return sb_steal(&sb);
}
