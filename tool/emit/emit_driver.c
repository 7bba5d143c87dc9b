/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_driver.c - the generated driver: <stem>_nplus1.h (one typed entry
 * per kernel, the host structs of struct arguments) and <stem>_nplus1.c
 * (the kernel file embedded, each kernel's nplus1rt_set_desc).
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "util.h"

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
        emit_expand(e, sb, &e->dh, "header-struct", sv, NV(sv));
    }
}

char *emit_driver_h(emitter *e)
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
    emit_expand(e, &sb, &e->dh, "header-begin", hv, NV(hv));
    for (unsigned i = 0; i < e->pl->nkernels; i++) {
        const kernel_plan *kp = &e->pl->kernels[i];
        char nleaves[16];
        snprintf(nleaves, sizeof nleaves, "%u", kp->nkernels);
        header_structs(e, &sb, i);
        char *params = c_params(kp->k);
        tmpl_var kv[] = {{"K", kp->k->name}, {"NLEAVES", nleaves},
                         {"STRATEGY", strategy_name(kp->strategy)}, {"PARAMS", params}};
        emit_expand(e, &sb, &e->dh, "header-kernel", kv, NV(kv));
        free(params);
    }
    emit_expand(e, &sb, &e->dh, "header-end", hv, NV(hv));
    free(kernels);
    return sb_steal(&sb);
}

/* The desc's kernel names as C expressions (none: "NULL") or JSON ("null"), each n bytes. */
static void set_kernel_names(const kernel_plan *kp, const char *k, char *count, char *scatter,
                             char *fused, char *tile, size_t n, const char *none)
{
    emit_quoted_kernel(count, n, !emit_tile_only(kp), k, NPLUS1RT_SUFFIX_COUNT, none);
    emit_quoted_kernel(scatter, n, !emit_tile_only(kp), k, NPLUS1RT_SUFFIX_SCATTER, none);
    emit_quoted_kernel(fused, n, !emit_tile_only(kp), k, NPLUS1RT_SUFFIX_FUSED, none);
    emit_quoted_kernel(tile, n, emit_carries_tile(kp), k, NPLUS1RT_SUFFIX_TILE, none);
}
/* ---- --profile-in: the profile's predictions (kernel_plan.prior) ---------- */

/* The desc's predicted_split, predicted_tile (each len bytes): 0 (unknown) without a profile. */
static void profile_c(const kernel_plan *kp, char *split, char *tile, size_t len)
{
    const plan_prior *pp = kp->prior.has ? &kp->prior : NULL;
    /* a loop set's split is the loop kernel: the profile's regrouped loop, never the n+1
     * split's bound (a split the set does not carry); a profile with "candidates" predicted
     * the carried candidates themselves */
    int loop = pp && !pp->has_candidates && kp->tile_candidate == AUTO_TILE_LOOP;
    double ps = !pp ? 0.0 : loop ? pp->loop_bound : pp->split_bound;
    double pt = !pp || kp->tile_candidate == AUTO_TILE_NONE ? 0.0 : loop ? pp->loop_bound
                                                                       : pp->tile_bound;
    snprintf(split, len, "%.6f", ps);
    snprintf(tile, len, "%.6f", pt);
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
        const leaf *lf = emit_kernel_leaf(kp, (int)kn);
        char *cond = (int)kn == kp->merged_kernel ? emit_merged_condition(kp)
                                                  : xstrdup(lf->condition);
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
    c_enum(disp, sizeof disp, "NPLUS1RT_DISPATCH_", dispatch_name(e->opt->dispatch));
    c_enum(split, sizeof split, "NPLUS1RT_SPLIT_", split_mode_name(kp->split));
    char scan[300];
    emit_quoted_kernel(scan, sizeof scan, kp->strategy == STRATEGY_ORDERED, k->name,
                       NPLUS1RT_SUFFIX_SCAN, "NULL");
    char count[300], scatter[300], fused[300], tile[300];
    set_kernel_names(kp, k->name, count, scatter, fused, tile, sizeof count, "NULL");
    char *params = c_params(k);
    char predicted_split[32], predicted_tile[32];
    profile_c(kp, predicted_split, predicted_tile, sizeof predicted_split);
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
    emit_expand(e, sb, &e->dc, "source-kernel", kv, NV(kv));
    free(params);
    sb_free(&args);
    sb_free(&leaves);
    sb_free(&conds);
    sb_free(&vals);
}

/* An argument's nplus1rt_arg_kind as the manifest's "set_desc" spells it. */
static const char *arg_kind_json(const kernel_param *p)
{
    return p->is_pointer ? "buffer" : p->is_image ? "image" : p->is_sampler ? "sampler" : "value";
}

/*
 * The kernel's nplus1rt_set_desc as JSON (the manifest's "set_desc"): the
 * same values driver_kernel writes into the driver's table, for runtimes
 * that read the manifest instead of compiling the driver (python/nplus1).
 */
char *emit_set_desc_json(const emitter *e, const kernel_plan *kp)
{
    const kernel_info *k = kp->k;
    strbuf sb;
    sb_init(&sb);
    char scan[300], count[300], scatter[300], fused[300], tile[300];
    emit_quoted_kernel(scan, sizeof scan, kp->strategy == STRATEGY_ORDERED, k->name,
                       NPLUS1RT_SUFFIX_SCAN, "null");
    set_kernel_names(kp, k->name, count, scatter, fused, tile, sizeof count, "null");
    char predicted_split[32], predicted_tile[32];
    profile_c(kp, predicted_split, predicted_tile, sizeof predicted_split);
    sb_printf(&sb, "{\"format_version\": %s, \"leaf_kernels\": [", NPLUS1_FORMAT_VERSION_STRING);
    for (unsigned kn = 0; kn < kp->nkernels; kn++)
        sb_printf(&sb, "%s\"%s" NPLUS1RT_SUFFIX_LEAF "%u\"", kn ? ", " : "", k->name, kn);
    sb_printf(&sb, "], \"count_kernel\": %s, \"scan_kernel\": %s, \"scatter_kernel\": %s, "
                   "\"fused_kernel\": %s, \"tile_kernel\": %s, ",
              count, scan, scatter, fused, tile);
    sb_printf(&sb, "\"strategy\": \"%s\", \"dispatch\": \"%s\", \"split\": \"%s\", \"wg\": %s, "
                   "\"reqd_local\": [%u, %u, %u], \"predicted_split\": %s, \"predicted_tile\": %s, "
                   "\"args\": [",
              strategy_name(kp->strategy), dispatch_name(e->opt->dispatch),
              split_mode_name(kp->split), e->wg, k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2],
              predicted_split, predicted_tile);
    for (unsigned i = 0; i < k->nparams; i++) {
        const kernel_param *p = &k->params[i];
        sb_printf(&sb, "%s{\"kind\": \"%s\", \"writable\": %s, \"constant\": %s, "
                       "\"elem\": \"%s\", \"lanes\": %u, \"size\": %u}",
                  i ? ", " : "", arg_kind_json(p), p->writable ? "true" : "false",
                  p->is_constant_space ? "true" : "false", nplus1rt_elem_text(p->elem),
                  p->lanes, p->size);
    }
    sb_puts(&sb, "]}");
    return sb_steal(&sb);
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

char *emit_driver_c(emitter *e, const char *source)
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
    emit_expand(e, &sb, &e->dc, "source-begin", hv, NV(hv));
    for (unsigned i = 0; i < e->pl->nkernels; i++)
        driver_kernel(e, &sb, &e->pl->kernels[i]);
    sb_free(&members);
    sb_free(&pieces);
    free(macros);
    return sb_steal(&sb);
}
