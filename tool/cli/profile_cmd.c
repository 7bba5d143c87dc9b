/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_cmd.c - the --profile command (profile_cmd.h).
 *
 * Like --validate, the device side runs in nplus1gen-validate (POCL's LLVM
 * and libclang's cannot share a process). This writes a self-contained
 * job (docs/cli.md, "Profile jobs"): the instrumented original
 * (profile_emit.c), the original, the inputs' recipe and copies, and each
 * kernel's tree with its costs (profile.tree, profile_job.c). The runner
 * runs it and the original on the same inputs, again with room for the
 * longest path when one did not fit, replays, prints the report and writes
 * the JSON (profile_report.c). With --emit-job DIR the job is written there
 * and nothing runs (nplus1gen-validate DIR on another machine); else the
 * runner runs it here, and --profile-map and --profile-html read the
 * recordings it left.
 */
#define _DEFAULT_SOURCE
#include "profile_cmd.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "auto_tile.h"
#include "calibration.h"
#include "divergence.h"
#include "ir_src.h"
#include "job.h"
#include "profile_build.h"
#include "profile_job.h"
#include "profile_html.h"
#include "profile_map.h"
#include "profile_report.h"
#include "runner_call.h"
#include "exit_codes.h"
#include "util.h"

typedef struct pctx {
    const char *input;
    const validate_options *vo;
    const profile_options *o;
    analysis an;
    plan pl;
    profile_kernel *pks;
    unsigned npks;
    unsigned long long items;
    int named;                /* -k given: a kernel that cannot be profiled is an error */
    profile_layout lay;
    const char *dir;          /* the job's folder */
} pctx;

/* ---- which kernels, and their trees ----------------------------------------- */

static int is_kernel(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
           clang_getFunctionTypeCallingConv(clang_getCursorType(c)) == CXCallingConv_Unexposed;
}

typedef struct names {
    const char **v;
    unsigned n, cap;
} names;

static enum CXChildVisitResult kernel_names_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    names *ns = data;
    if (is_kernel(c)) {
        CXString s = clang_getCursorSpelling(c);
        VEC_PUSH(ns->v, ns->n, ns->cap, xstrdup(clang_getCString(s)));
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

/* Does the declaration text hold the word w ("__local", "local")? */
static int has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
        int before = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before && after)
            return 1;
    }
    return 0;
}

/*
 * Can the profile run set k's parameters from the validation inputs? 1, or 0 with why:
 * one the description cannot hold (nplus1gen --check names it), or a __local pointer,
 * which the run would pass a buffer for (clSetKernelArg says CL_INVALID_ARG_VALUE).
 */
static int params_ok(const analysis *an, const kernel_info *k, char *why, size_t len)
{
    kernel_info tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.cursor = k->cursor;
    diag_sink quiet;
    diag_init(&quiet);
    quiet.quiet = 1;
    int errors = analyze_params(an, &tmp, &quiet);
    if (errors)
        snprintf(why, len, "a parameter the validation inputs cannot make (nplus1gen --check "
                           "names it)");
    for (unsigned i = 0; !errors && i < tmp.nparams; i++)
        if (tmp.params[i].is_pointer && tmp.params[i].decl_text &&
            (has_word(tmp.params[i].decl_text, "__local") ||
             has_word(tmp.params[i].decl_text, "local"))) {
            snprintf(why, len, "its parameter '%s' is a __local pointer, which the profile run "
                               "does not set (it gives each pointer a buffer)", tmp.params[i].name);
            errors = 1;
        }
    analyze_params_free(&tmp);
    return errors == 0;
}

/* The plan's decisions of k when the plan splits it, else NULL. */
static const decision_plan *planned(const plan *pl, const kernel_info *k)
{
    for (unsigned i = 0; i < pl->nkernels; i++)
        if (pl->kernels[i].k == k)
            return pl->kernels[i].errors == 0 ? pl->kernels[i].decisions : NULL;
    return NULL;
}

static int has_construct(const ptree *t)
{
    return t->nc > 0;
}

/* Trees for every kernel; EXIT_OK, or EXIT_INPUT after an error message. */
static int build_trees(pctx *x)
{
    unsigned cannot_out = 0; /* kernels left out for a reason but "nothing to profile" */
    x->pks = xcalloc(x->an.nkernels ? x->an.nkernels : 1, sizeof *x->pks);
    for (unsigned i = 0; i < x->an.nkernels; i++) /* a kernel the split refuses has none yet */
        ir_ensure(&x->an, &x->an.kernels[i]);
    for (unsigned i = 0; i < x->an.nkernels; i++) {
        const kernel_info *k = &x->an.kernels[i];
        profile_kernel *pk = &x->pks[x->npks++];
        pk->k = k;
        pk->planned = planned(&x->pl, k);
        if (!params_ok(&x->an, k, pk->err, sizeof pk->err))
            ;
        else if (profile_build_kernel(&x->an, pk) == 0 && !has_construct(&pk->tree))
            snprintf(pk->err, sizeof pk->err, "no decision and no loop: nothing to profile");
        if (pk->opaque && !pk->err[0])
            fprintf(stderr, "nplus1gen: note: kernel '%s': %u loop%s or decision%s written by "
                            "a macro (the first at line %u) %s not recorded: %s cost counts as "
                            "straight-line work, the decisions inside are not seen\n", k->name,
                    pk->opaque, pk->opaque > 1 ? "s" : "", pk->opaque > 1 ? "s" : "",
                    pk->opaque_line, pk->opaque > 1 ? "are" : "is",
                    pk->opaque > 1 ? "their" : "its");
        if (pk->unrecorded && !pk->err[0])
            fprintf(stderr, "nplus1gen: note: kernel '%s': %u call%s of helpers that hold "
                            "decisions or loops %s not recorded (the first: %s): %s cost counts "
                            "as straight-line work\n", k->name, pk->unrecorded,
                    pk->unrecorded > 1 ? "s" : "", pk->unrecorded > 1 ? "are" : "is",
                    pk->unrecorded_why, pk->unrecorded > 1 ? "their" : "its");
        /* without -k, a kernel that cannot be profiled is left out, as the split's
         * --skip-refused leaves a refused kernel out; named, it is an error */
        cannot_out += !x->named && pk->err[0] && !strstr(pk->err, "nothing to profile");
        if (!x->named && pk->err[0]) { /* and its edits */
            fprintf(stderr, "nplus1gen: note: kernel '%s' left out: %s\n", k->name, pk->err);
            profile_kernel_free(pk);
            x->npks--;
        } else if (pk->err[0]) {
            fprintf(stderr, "nplus1gen: error: cannot profile kernel '%s': %s\n", k->name,
                    pk->err);
            return EXIT_INPUT;
        }
    }
    if (!x->npks && cannot_out)
        fprintf(stderr, "nplus1gen: error: no kernel in %s can be profiled (the notes above "
                        "say why)\n", x->input);
    else if (!x->npks)
        fprintf(stderr, "nplus1gen: error: no kernel in %s has a decision or a loop: nothing "
                        "to profile\n", x->input);
    return x->npks ? EXIT_OK : EXIT_INPUT;
}

/* ---- the job ------------------------------------------------------------------ */

/* The kernel's lines, as validate_cmd.c writes them (no leaves: the original runs). */
static void put_kernel(strbuf *sb, const analysis *an, const kernel_info *k, unsigned wg)
{
    job_kernel jk = {.name = k->name, .wg = wg,
                     .reqd_wg = {k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2]}, .has_tile = -1};
    job_put_kernel(sb, &jk);
    for (unsigned p = 0; p < k->nparams; p++)
        validate_job_param(sb, &k->params[p]);
    validate_job_racy(sb, an, k);
    job_put_end(sb);
}

/* job.desc (common/job.h); NULL after a message about an input. */
static char *describe(const pctx *x)
{
    const validate_options *vo = x->vo;
    strbuf sb;
    sb_init(&sb);
    const char *base = strrchr(vo->input, '/'); /* a job for another machine: no local paths */
    char *opts = validate_job_options(vo, x->dir);
    job_put_head(&sb, "instrumented.cl", vo->emit_job && base ? base + 1 : vo->input, opts);
    free(opts);
    job_put_launch(&sb, vo->dim, vo->global, vo->offset, vo->local, vo->has_local);
    job_put_check(&sb, vo->seed, vo->ulp, 0, 1);
    for (unsigned i = 0; i < vo->nargs; i++) {
        char *v = validate_job_value(x->dir, vo->args[i]);
        if (!v) {
            sb_free(&sb);
            return NULL;
        }
        job_put_value(&sb, v);
        free(v);
    }
    job_put_profile(&sb, &x->lay, x->o->memory, x->items, x->o->width, "profile.tree");
    for (unsigned i = 0; i < x->npks; i++)
        put_kernel(&sb, &x->an, x->pks[i].k, x->pl.opt.wg ? x->pl.opt.wg : 256);
    return sb_steal(&sb);
}


static int write_file(const char *dir, const char *name, const char *data, size_t n)
{
    char *path = path_join(dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(data, 1, n, f) != n;
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "nplus1gen: error: cannot write '%s': %s\n", path, strerror(errno));
    free(path);
    return bad ? -1 : 0;
}

/* The kernel's memory accesses and operations at its top level (the memory-bound test). */
static void kernel_traffic(const kernel_info *k, profile_set *ps)
{
    for (unsigned i = 0; i < k->top.n; i++) {
        ps->accesses += effects_accesses(&k->top.items[i].fx);
        ps->access_bytes += effects_access_bytes(&k->top.items[i].fx);
        ps->ops += k->top.items[i].fx.cost + k->top.items[i].fx.math;
    }
}

/*
 * A loop body's memory accesses and operations, each statement once: a decision of the
 * loop's tree holds its condition's, and its branches' statements are counted here (a
 * switch's flattened body, each branch's seq otherwise).
 */
static void seq_traffic(const seq *s, double *accesses, double *ops)
{
    for (unsigned i = 0; i < s->n; i++) {
        const seq_item *it = &s->items[i];
        const decision *d = it->decision;
        const effects *fx = d ? &d->cond_fx : &it->fx;
        *accesses += effects_accesses(fx);
        *ops += fx->cost + fx->math;
        if (d && d->kind == DEC_SWITCH)
            seq_traffic(&d->body, accesses, ops);
        for (unsigned b = 0; d && d->kind != DEC_SWITCH && b < d->nbranches; b++)
            seq_traffic(&d->branches[b].seq, accesses, ops);
    }
}

/*
 * The generated set of kernel k under the profile's options (what -o would
 * write with them): its carried candidates (nplus1rt_carries, as the manifest
 * lists them) and its schedule's costs besides the work the replay counts.
 */
static profile_set set_of(const pctx *x, const kernel_info *k)
{
    profile_set ps;
    memset(&ps, 0, sizeof ps);
    ps.known = 1;
    kernel_traffic(k, &ps);
    const kernel_plan *kp = NULL;
    for (unsigned i = 0; i < x->pl.nkernels; i++)
        if (x->pl.kernels[i].k == k && x->pl.kernels[i].errors == 0)
            kp = &x->pl.kernels[i];
    if (!kp)
        return ps; /* refused or left alone: no set, no candidate */
    int fused = x->o->fused;
    for (int c = 0; c < NPLUS1RT_NCANDIDATES; c++)
        if (nplus1rt_carries(c, (nplus1rt_split)kp->split, (nplus1rt_strategy)kp->strategy,
                             fused, kp->tile_candidate != AUTO_TILE_NONE))
            ps.carries |= 1u << c;
    ps.tile = (unsigned)kp->tile_candidate;
    ps.ctx_bytes = kp->tile_candidate == AUTO_TILE_LOOP ? kp->loop.bytes : kp->ctx.bytes;
    ps.regroup = kp->tile_candidate == AUTO_TILE_LOOP
                     ? kp->loop.regroup < 0 ? PROFILE_REGROUP_OFF : (unsigned)kp->loop.regroup
                 : kp->tile_candidate == AUTO_TILE_MACHINE
                     ? kp->machine.regroup < 0 ? PROFILE_REGROUP_OFF
                                               : (unsigned)kp->machine.regroup
                 : kp->tile_candidate == AUTO_TILE_CONTEXT
                     ? kp->ctx.policy.regroup < 0 ? PROFILE_REGROUP_OFF
                                                  : (unsigned)kp->ctx.policy.regroup
                 : kp->plain.regroup < 0 ? PROFILE_REGROUP_OFF
                                         : 1;
    unsigned passes = kp->strategy == STRATEGY_ORDERED ? 3 : kp->strategy == STRATEGY_CHUNKED ? 1 : 2;
    ps.launches = kp->strategy == STRATEGY_TILE ? 1 : passes + (fused ? 1 : kp->nkernels);
    auto_tile_costs(kp, &ps.prologue, &ps.classifier);
    if (kp->tile_candidate == AUTO_TILE_LOOP)
        seq_traffic(&kp->loop.bodyseq, &ps.loop_accesses, &ps.loop_ops);
    ps.classifier_accesses = kp->classifier_accesses;
    ps.classifier += kp->classifier_math; /* the replay's costs weigh math builtins too */
    /* the split's counting pass runs the whole slice, the prologue's part included */
    ps.split_classifier = kp->classifier_cost + kp->classifier_math;
    if (ps.split_classifier < 0)
        ps.split_classifier = 0;
    return ps;
}

static char *trees(const pctx *x)
{
    strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < x->npks; i++) {
        profile_tree_write(&sb, x->pks[i].k->name, &x->pks[i].tree);
        profile_set ps = set_of(x, x->pks[i].k);
        profile_set_write(&sb, &ps);
    }
    return sb_steal(&sb);
}

/* EXIT_OK, EXIT_USAGE (a file: input that cannot be read) or EXIT_INTERNAL. */
static int write_job(pctx *x)
{
    const src_file *f = &x->an.pr->files[0];
    char *desc = describe(x);
    if (!desc)
        return EXIT_USAGE;
    char *src = profile_instrumented_source(&x->an, x->pks, x->npks);
    char *tree = trees(x);
    int bad = write_file(x->dir, "original.cl", f->text, f->len) ||
              write_file(x->dir, "instrumented.cl", src, strlen(src)) ||
              write_file(x->dir, "profile.tree", tree, strlen(tree)) ||
              write_file(x->dir, "job.desc", desc, strlen(desc));
    free(tree);
    if (getenv("NPLUS1_PROFILE_KEEP_SOURCE")) /* tests: the instrumented copy, to read */
        write_file(".", getenv("NPLUS1_PROFILE_KEEP_SOURCE"), src, strlen(src));
    free(src);
    free(desc);
    return bad ? EXIT_INTERNAL : EXIT_OK;
}



static int run_runner(const char *dir, const validate_options *vo, const char *json)
{
    const char *args[6];
    unsigned timeout = vo->timeout;
    int n = 0, sig = 0;
    if (vo->device) {
        args[n++] = "--device";
        args[n++] = vo->device;
    }
    if (json) {
        args[n++] = "--profile-json";
        args[n++] = json;
    }
    args[n++] = dir;
    args[n] = NULL;
    int rc = runner_run(args, timeout, vo->device_select, &sig);
    if (rc == RUNNER_TIMED_OUT)
        fprintf(stderr, "nplus1gen: error: the profile run stopped after %u s (--timeout)\n",
                timeout);
    else if (rc == RUNNER_KILLED || rc == RUNNER_NOT_STARTED)
        fprintf(stderr, "nplus1gen: error: the profile runner died: a kernel probably read or "
                        "wrote out of bounds; check --arg sizes and values\n");
    return rc < 0 ? EXIT_INTERNAL : rc; /* the runner's exit: the same statuses */
}

/* ---- --profile-map, --profile-html: the recordings the runner left --------------------------------- */

/* profile-K.txt: the device, the tile, the layout of the run that counted. */
static int read_run_info(const pctx *x, const char *name, profile_result *r,
                         profile_layout *lay)
{
    strbuf p;
    sb_init(&p);
    sb_printf(&p, "%s/profile-%s.txt", x->dir, name);
    FILE *f = fopen(p.data, "r");
    sb_free(&p);
    if (!f)
        return -1;
    char line[512];
    int has_layout = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "device ", 7))
            snprintf(r->device, sizeof r->device, "%.255s", line + 7);
        sscanf(line, "compared %zu", &r->compared);
        sscanf(line, "mismatches %zu", &r->mismatches);
        sscanf(line, "tile %u", &r->tile);
        has_layout |= sscanf(line, "layout %u %u %u %u", &lay->unit, &lay->every, &lay->units,
                             &lay->slot) == 4;
    }
    fclose(f);
    return has_layout ? 0 : -1;
}

static int read_record(const pctx *x, const char *name, profile_result *r,
                       const profile_layout *lay)
{
    strbuf p;
    sb_init(&p);
    sb_printf(&p, "%s/profile-%s.bin", x->dir, name);
    char *data;
    size_t len;
    int rc = read_file(p.data, &data, &len);
    sb_free(&p);
    if (rc != 0)
        return -1;
    return profile_take_record(r, (unsigned char *)data, len, lay, x->items);
}

/*
 * --profile-map (the first kernel's pictures) and --profile-html (every
 * kernel), from the recordings the runner left.
 */
static int draw_pictures(const pctx *x)
{
    const profile_options *o = x->o;
    unsigned n = o->html ? x->npks : 1;
    profile_result *res = xcalloc(n, sizeof *res);
    profile_kernel_tree *ks = xcalloc(n, sizeof *ks);
    profile_layout lay;
    memset(&lay, 0, sizeof lay);
    int rc = EXIT_OK;
    for (unsigned i = 0; i < n && rc == EXIT_OK; i++) {
        const char *name = x->pks[i].k->name;
        profile_layout li;
        if (read_run_info(x, name, &res[i], &li) != 0 || read_record(x, name, &res[i], &li) != 0) {
            fprintf(stderr, "nplus1gen: error: the profile run left no recording of '%s'\n",
                    name);
            rc = EXIT_INTERNAL;
        }
        if (i == 0)
            lay = li;
        ks[i].name = (char *)name;
        ks[i].tree = x->pks[i].tree;
        ks[i].set = set_of(x, x->pks[i].k);
    }
    const validate_options *vo = x->vo;
    calibration_choice cal; /* the runner's: the device's calibration, else the defaults */
    calibration_find(res[0].device, &cal);
    profile_report rep = {x->input, vo->dim, {vo->global[0], vo->global[1], vo->global[2]},
                          vo->seed, o->width, NULL, lay, x->items, ks, n, res, &cal};
    if (rc == EXIT_OK && o->map) {
        rep.nks = 1;
        rc = profile_write_map(&rep, o->map);
        rep.nks = n;
    }
    if (rc == EXIT_OK && o->html) {
        const src_file *f = &x->an.pr->files[0];
        rc = profile_write_html(&rep, f->text, f->len, o->html);
        if (rc == 0)
            printf("wrote %s (the source with each decision's and loop's efficiency, the maps, "
                   "the report)\n", o->html);
    }
    for (unsigned i = 0; i < n; i++)
        profile_result_free(&res[i]);
    free(res);
    free(ks);
    return rc;
}

/* ---- the whole command --------------------------------------------------------- */

/* Writes the job into --emit-job DIR, or into a temporary folder and runs it. */
static int run_job(pctx *x)
{
    const validate_options *vo = x->vo;
    if (vo->emit_job) {
        if (mkdir(vo->emit_job, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "nplus1gen: error: cannot create '%s': %s\n", vo->emit_job,
                    strerror(errno));
            return EXIT_INTERNAL;
        }
        x->dir = vo->emit_job;
        int rc = write_job(x);
        if (rc == EXIT_OK)
            printf("wrote the profile job to %s: run it with nplus1gen-validate %s\n",
                   vo->emit_job, vo->emit_job);
        return rc;
    }
    char dir[] = "/tmp/nplus1gen-profile-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "nplus1gen: error: cannot create a temporary directory: %s\n",
                strerror(errno));
        return EXIT_INTERNAL;
    }
    x->dir = dir;
    int rc = write_job(x);
    if (rc == EXIT_OK)
        rc = run_runner(x->dir, vo, x->o->json);
    if (rc == EXIT_OK && (x->o->map || x->o->html))
        rc = draw_pictures(x);
    remove_tree(x->dir);
    x->dir = NULL;
    return rc;
}

static int analyze_input(pctx *x, parse_result *pr, const char **kernels, unsigned nkernels,
                         const plan_options *popt)
{
    names all = {0};
    if (!nkernels)
        clang_visitChildren(clang_getTranslationUnitCursor(pr->tu), kernel_names_cb, &all);
    diag_sink quiet;
    diag_init(&quiet);
    quiet.quiet = 1;
    const char **want = nkernels ? kernels : all.v;
    unsigned nwant = nkernels ? nkernels : all.n;
    int rc = EXIT_OK;
    if (!nwant) {
        fprintf(stderr, "nplus1gen: error: %s defines no __kernel function: nothing to profile\n",
                x->input);
        rc = EXIT_INPUT;
    } else {
        analyze_tu_loops(&x->an, pr, want, nwant, 1, &quiet); /* loops too: as the generator plans */
        plan_build(&x->pl, &x->an, popt, &quiet);
        if (x->an.nkernels < nwant) {
            fprintf(stderr, "nplus1gen: error: no kernel named '%s' in %s\n",
                    want[x->an.nkernels], x->input);
            rc = EXIT_INPUT;
        }
    }
    for (unsigned i = 0; i < all.n; i++)
        free((void *)all.v[i]);
    free(all.v);
    return rc;
}

int profile_command(const char *input, const parse_options *po, const char **kernels,
                    unsigned nkernels, const plan_options *popt, const validate_options *vo,
                    const profile_options *o)
{
    diag_sink diag;
    diag_init(&diag);
    parse_result pr;
    if (parse_input(&pr, input, po, &diag) != 0)
        return EXIT_INPUT;
    pctx x;
    memset(&x, 0, sizeof x);
    x.input = input;
    x.vo = vo;
    x.o = o;
    x.items = 1;
    x.named = nkernels > 0;
    for (unsigned d = 0; d < vo->dim; d++)
        x.items *= vo->global[d];
    int rc = analyze_input(&x, &pr, kernels, nkernels, popt);
    if (rc == EXIT_OK)
        rc = build_trees(&x);
    if (rc == EXIT_OK && profile_plan_layout(x.items, o->memory, PROFILE_FIRST_SLOT, &x.lay) != 0)
        rc = EXIT_INPUT; /* the user's limit, not a bug */
    if (rc == EXIT_OK)
        rc = run_job(&x);
    for (unsigned i = 0; i < x.npks; i++)
        profile_kernel_free(&x.pks[i]);
    free(x.pks);
    plan_free(&x.pl);
    analyze_free(&x.an);
    parse_free(&pr);
    return rc;
}
