/* SPDX-License-Identifier: Apache-2.0 */
/*
 * divergence.c - how each decision's condition varies across work-items.
 *
 * An abstract interpretation over the libclang AST, in the spirit of LLVM's
 * UniformityAnalysis and of the affine divergence analyses of Karrenberg &
 * Hack and Sampaio et al. Every expression gets a class in the lattice
 *
 *     uniform < affine < varying < data
 *
 * where varying is an item-varying value no affine form describes (x * y,
 * x & 1, sqrt(x)); it is reported as data. An expression is read in one of
 * two modes: as a value, or as a condition (its truth). A comparison of
 * affine values is an affine *condition* but a varying *value*.
 *
 * Locals are followed through every definition that reaches the decision
 * (in the kernel: the definitions before it in the text, since decisions
 * never sit inside loops; in helpers: all of them), joined with the
 * conditions the definition is control dependent on (enclosing ifs, loops,
 * ternaries, && / ||). Cycles (loops) are solved by iterating to a fixed
 * point from uniform upwards. Helper calls are evaluated with the call's
 * argument classes bound to the helper's parameters.
 *
 * Here: each decision's class, the reason text, and the public entry
 * points; the evaluator is divergence_eval.c, the definitions
 * reaching_defs.c and the condition inputs cond_inputs.c.
 */
#include "divergence.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cond_inputs.h"
#include "divergence_int.h"
#include "syntax.h"
#include "tree.h"
#include "util.h"

const char *div_class_name(div_class c)
{
    static const char *names[] = {"uniform", "affine", "data"};
    return names[c];
}

/* ---- decisions -------------------------------------------------------------------- */

static void put_list(strbuf *sb, char (*set)[48], unsigned n, int more)
{
    for (unsigned i = 0; i < n; i++)
        sb_printf(sb, "%s%s", i == 0 ? "" : i + 1 == n && !more ? " and " : ", ", set[i]);
    if (more)
        sb_puts(sb, " and more");
}

/* "argument 'n'", "arguments 'w', 'h' and get_global_size(0)", "constants". */
static void put_uniforms(strbuf *sb, dctx *x)
{
    char set[MAX_SOURCES][48];
    unsigned n = 0, nargs = 0;
    strbuf args;
    sb_init(&args);
    for (unsigned i = 0; i < x->nuniforms; i++)
        if (!strncmp(x->uniforms[i], "argument '", 10)) {
            sb_printf(&args, "%s%s", nargs ? ", " : "", x->uniforms[i] + strlen("argument "));
            nargs++;
        }
    if (nargs)
        snprintf(set[n++], 48, "%s %s", nargs > 1 ? "arguments" : "argument", args.data);
    for (unsigned i = 0; i < x->nuniforms; i++)
        if (strncmp(x->uniforms[i], "argument '", 10) != 0 && strcmp(x->uniforms[i], "constants"))
            snprintf(set[n++], 48, "%s", x->uniforms[i]);
    if (n == 0)
        snprintf(set[n++], 48, "constants");
    put_list(sb, set, n, x->more_uniforms);
    sb_free(&args);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

static dval classify_condition(dctx *x, const frame *f, const decision *d)
{
    if (d->kind == DEC_SWITCH)
        return div_eval(x, f, d->cond_cursor, 0);
    dval v = {V_UNIFORM, ""};
    for (unsigned b = 0; b < d->nbranches; b++) {
        if (d->branches[b].kind != BR_IF)
            continue;
        dval c = div_eval(x, f, d->branches[b].cond_cursor, 1);
        if (c.c > v.c) /* the join: the larger class */
            v = c;
    }
    return v;
}

typedef dval (*cond_eval)(dctx *x, const void *ud);

/* Evaluates a condition to the fixed point (loops grow the memos round by round). */
static dval iterate(dctx *x, cond_eval eval, const void *ud);

static dval fixed_point(dctx *x, cond_eval eval, const void *ud)
{
    x->nmemos = 0;
    cursor_map_clear(&x->memo_index);
    return iterate(x, eval, ud);
}

/* Rounds from the memos' current estimates until none grows. */
static dval iterate(dctx *x, cond_eval eval, const void *ud)
{
    dval v = {V_UNIFORM, ""};
    for (int round = 0; round < 32; round++) {
        x->changed = 0;
        x->nids = x->nuniforms = 0;
        x->more_uniforms = 0;
        for (unsigned i = 0; i < x->nmemos; i++)
            x->memos[i].done = 0;
        v = eval(x, ud);
        if (!x->changed)
            break;
    }
    return v;
}

/* The class of v and its reason text (into why[0..n)). */
static div_class reason(dctx *x, dval v, char *why, size_t n)
{
    div_class c;
    strbuf sb;
    sb_init(&sb);
    if (v.c == V_UNIFORM) {
        c = DIV_UNIFORM;
        sb_puts(&sb, "depends only on ");
        put_uniforms(&sb, x);
    } else if (v.c == V_AFFINE) {
        c = DIV_AFFINE;
        qsort(x->ids, x->nids, sizeof x->ids[0], compare_names);
        sb_puts(&sb, "compares ");
        put_list(&sb, x->ids, x->nids, 0);
        sb_puts(&sb, " with ");
        put_uniforms(&sb, x);
    } else {
        c = DIV_DATA;
        sb_puts(&sb, v.why[0] ? v.why : "cannot follow the condition");
    }
    snprintf(why, n, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
    return c;
}

static dval decision_condition(dctx *x, const void *ud)
{
    const decision *d = ud;
    frame f = {x->k->cursor, NULL, 0, ~0u, d->range.file, d->range.begin, 0};
    return classify_condition(x, &f, d);
}

static void classify_decision(dctx *x, decision *d)
{
    dval v = fixed_point(x, decision_condition, d);
    d->divergence = reason(x, v, d->divergence_why, sizeof d->divergence_why);
}

static tree_step classify_one(void *ud, decision *d)
{
    dctx *x = ud;
    classify_decision(x, d);
    cond_inputs_of(&x->defs, x->k, d);
    return TREE_RECURSE;
}

void divergence_classify(analysis *an, kernel_info *k)
{
    dctx x;
    memset(&x, 0, sizeof x);
    x.an = an;
    x.defs.an = an;
    x.k = k;
    for_each_decision_fill(&k->top, classify_one, &x);
    dctx_free(&x);
}

void divergence_classify_one(analysis *an, kernel_info *k, decision *d)
{
    dctx x;
    memset(&x, 0, sizeof x);
    x.an = an;
    x.defs.an = an;
    x.k = k;
    classify_decision(&x, d);
    dctx_free(&x);
}


/* ---- a condition anywhere in the kernel (the IR, ir.c) ------------------------------ */

#define SITE_MAX_CALLS 16

/* The frames of a site's calls, each call's arguments evaluated in its caller's frame. */
typedef struct site_frames {
    frame f[SITE_MAX_CALLS + 1];
    dval *cls[SITE_MAX_CALLS];
    unsigned n;                /* the site's frame: f[n] */
} site_frames;

static void frames_open(dctx *x, const div_site *s, site_frames *sf)
{
    frame *frames = sf->f;
    frames[0] = (frame){x->k->cursor, NULL, 0, ~0u, s->hfile, s->horizon, 0};
    unsigned n = s->ncalls < SITE_MAX_CALLS ? s->ncalls : SITE_MAX_CALLS;
    for (unsigned i = 0; i < n; i++) {
        cursor_list ch = children_of(s->calls[i]);
        unsigned nargs = ch.n > 1 ? ch.n - 1 : 0; /* child 0 is the callee */
        sf->cls[i] = xcalloc(nargs ? nargs : 1, sizeof *sf->cls[i]);
        for (unsigned a = 0; a < nargs; a++)
            sf->cls[i][a] = div_eval(x, &frames[i], ch.v[a + 1], 0);
        free(ch.v);
        CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(s->calls[i]));
        frame hf = {def, sf->cls[i], nargs, 0, ~0u, 0, frames[i].depth + 1};
        for (unsigned a = 0; a < nargs && a < 16; a++) /* eval_helper's signature */
            hf.sig |= (unsigned)sf->cls[i][a].c << (2 * a);
        frames[i + 1] = hf;
    }
    sf->n = n;
}

static void frames_close(site_frames *sf)
{
    for (unsigned i = 0; i < sf->n; i++)
        free(sf->cls[i]);
}

static dval site_condition(dctx *x, const void *ud)
{
    const div_site *s = ud;
    site_frames sf;
    frames_open(x, s, &sf);
    dval v = {V_UNIFORM, ""};
    if (!clang_Cursor_isNull(s->cond))
        v = div_eval(x, &sf.f[sf.n], s->cond, !s->is_switch);
    frames_close(&sf);
    return v;
}

div_session *divergence_open(analysis *an, kernel_info *k)
{
    dctx *x = xcalloc(1, sizeof *x);
    x->an = an;
    x->defs.an = an;
    x->k = k;
    return x;
}

/*
 * Drops the memos of the kernel's frame (signature ~0u), which depend on the horizon;
 * a helper's (a signature of argument classes) hold for any site, at their fixed point.
 */
static void drop_kernel_memos(dctx *x)
{
    unsigned kept = 0;
    cursor_map_clear(&x->memo_index);
    for (unsigned i = 0; i < x->nmemos; i++) {
        if (x->memos[i].sig == ~0u)
            continue;
        x->memos[kept] = x->memos[i];
        uint64_t tag = (uint64_t)x->memos[kept].sig << 32 | (uint32_t)x->memos[kept].mode;
        cursor_map_put(&x->memo_index, x->memos[kept].key, tag, kept);
        kept++;
    }
    x->nmemos = kept;
}

/*
 * The sites of one session share the helpers' memos, whose equations do not depend on
 * the site, so a helper is solved once. The kernel's are solved again at each site:
 * kept from one site to the next (even at the same horizon, inside one loop), they
 * would give the same classes but reasons found on another site's path.
 */
div_class divergence_classify_site(div_session *x, const div_site *s, char *why, size_t n)
{
    drop_kernel_memos(x);
    dval v = iterate(x, site_condition, s);
    return reason(x, v, why, n);
}

div_class divergence_classify_address(div_session *x, const div_site *s, long *stride)
{
    char why[200];
    div_site value = *s;
    value.is_switch = 1; /* a value, not a condition */
    div_class c = divergence_classify_site(x, &value, why, sizeof why);
    *stride = c == DIV_UNIFORM ? 0 : DIV_STRIDE_UNKNOWN;
    if (c != DIV_AFFINE)
        return c;
    site_frames sf; /* the memos hold the site's fixed point: read in the same frames */
    frames_open(x, s, &sf);
    x->nstriding = 0;
    long *args[SITE_MAX_CALLS] = {NULL}; /* the calls' arguments' strides, in their callers */
    for (unsigned i = 0; i < sf.n; i++) {
        args[i] = xcalloc(sf.f[i + 1].nargs ? sf.f[i + 1].nargs : 1, sizeof *args[i]);
        cursor_list ch = children_of(s->calls[i]);
        for (unsigned a = 0; a < sf.f[i + 1].nargs && a + 1 < ch.n; a++)
            args[i][a] = div_stride(x, &sf.f[i], ch.v[a + 1]);
        free(ch.v);
        if (sf.f[i + 1].depth < 17)
            x->stride_args[sf.f[i + 1].depth] = args[i];
    }
    *stride = div_stride(x, &sf.f[sf.n], s->cond);
    for (unsigned i = 0; i < sf.n; i++)
        free(args[i]);
    memset(x->stride_args, 0, sizeof x->stride_args);
    frames_close(&sf);
    return c;
}

void divergence_close(div_session *x)
{
    if (!x)
        return;
    dctx_free(x);
    free(x);
}
