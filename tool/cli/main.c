/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - nplus1gen: the command line read (cli.c), then the pipeline
 * (parse -> analyze -> plan -> emit), --report / --check output, the
 * outputs written (outdir.c), --validate and --profile.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "big_stack.h"
#include "cli.h"
#include "diag.h"
#include "emit.h"
#include "front_end.h"
#include "ir.h"
#include "outdir.h"
#include "parse.h"
#include "plan.h"
#include "calibration.h"
#include "context.h"
#include "profile_cmd.h"
#include "profile_in.h"
#include "report.h"
#include "runner_call.h"
#include "safety_net.h"
#include "util.h"
#include "validate_cmd.h"
#include "progress.h"

/* The stem: the input's file name without its directory and .cl. */
static char *default_stem(const char *input)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t n = strlen(base);
    if (n > 3 && !strcmp(base + n - 3, ".cl"))
        n -= 3;
    char *s = xstrndup(base, n);
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return s;
}

/* An emit failure: templates given with -T are the user's input, the built-in ones ours. */
static int emit_failed(const cli *c, const char *err)
{
    if (c->template_dir) {
        fprintf(stderr, "nplus1gen: error: %s\n", err);
        return EXIT_INPUT;
    }
    fprintf(stderr, "nplus1gen: internal error: %s\n", err);
    return EXIT_INTERNAL;
}

/* The set of plan pl emitted into *out and checked by the safety net: EXIT_OK or the exit. */
static int emit_checked(const cli *c, const plan *pl, dispatch d, const char *stem,
                        emit_output *out)
{
    emit_options eo = {c->input, stem, c->template_dir, c->defines, c->ndefines,
                       c->no_line, c->skipped, c->nskipped, d};
    char err[512] = "";
    parse_options po = {c->cl_std, NULL, 0, c->includes, c->nincludes};
    progress_stage("writing the kernel set");
    if (emit_all(pl, &eo, out, err, sizeof err) != 0)
        return emit_failed(c, err);
    progress_stage("checking the generated kernel file");
    if (safety_net_check(pl, &po, c->input, stem, out->kernel_file, !!c->template_dir))
        return c->template_dir ? EXIT_INPUT : EXIT_INTERNAL;
    return EXIT_OK;
}

static void fill_vopt(cli *c)
{
    c->vopt.input = c->input;
    c->vopt.defines = c->defines;
    c->vopt.ndefines = c->ndefines;
    c->vopt.includes = c->includes;
    c->vopt.nincludes = c->nincludes;
    c->vopt.cl_std = c->cl_std;
    c->vopt.quiet = c->quiet;
}

static int validate(cli *c, const plan *pl)
{
    char *stem = c->stem ? xstrdup(c->stem) : default_stem(c->input);
    emit_output out;
    int rc = emit_checked(c, pl, c->dispatch, stem, &out);
    if (rc == EXIT_OK) {
        fill_vopt(c);
        fflush(stdout);
        progress_stage("validating on the device");
        rc = validate_run(pl, c->dispatch, &out, &c->vopt);
    }
    emit_output_free(&out);
    free(stem);
    return rc;
}

/* ---- --validate --strategy A,B,... --dispatch C,D: one job, one set per pair ---- */

typedef struct pair_set {
    plan pl;                          /* its own plan: the first pair of a later strategy */
    const plan *p;                    /* the plan it emits: run()'s, its own or an earlier pair's */
    dispatch dispatch;
    emit_output out;
    char label[32];                   /* "tile/fused" */
} pair_set;

/* Pair i's plan: the one analysis pl->an planned once per strategy (quiet: the first
 * pair printed the analysis's diagnostics; loud on error), emitted once per dispatch.
 * Neither the strategy nor the dispatch changes the analysis, nor the dispatch the plan. */
static int plan_pair(const cli *c, const plan *first, pair_set *ps, unsigned i)
{
    unsigned nd = c->ndispatches ? c->ndispatches : 1;
    plan_options po = c->plan;
    if (c->nstrategies)
        po.strategy = c->strategies[i / nd];
    ps[i].dispatch = c->ndispatches ? c->dispatches[i % nd] : c->dispatch;
    snprintf(ps[i].label, sizeof ps[i].label, "%s/%s", strategy_name(po.strategy),
             dispatch_name(ps[i].dispatch));
    ps[i].p = i < nd ? first : i % nd ? ps[i - i % nd].p : &ps[i].pl;
    if (ps[i].p != &ps[i].pl)
        return EXIT_OK;
    for (int loud = 0; loud < 2; loud++) {
        diag_sink diag;
        diag_init(&diag);
        diag.quiet = !loud;
        int bad = plan_build(&ps[i].pl, first->an, &po, &diag);
        profile_in_apply(&c->prior, &ps[i].pl); /* --profile-in's numbers, as run() put them */
        if (!bad && !diag.errors)
            return EXIT_OK;
        plan_free(&ps[i].pl);
        memset(&ps[i].pl, 0, sizeof ps[i].pl);
    }
    fprintf(stderr, "nplus1gen: error: --strategy %s --dispatch %s: the input cannot be "
                    "planned (see above)\n", strategy_name(po.strategy),
            dispatch_name(ps[i].dispatch));
    return EXIT_INPUT;
}

/*
 * Pair 0 is the plan run() built (pl, the first strategy and dispatch); the
 * other strategies are planned from its analysis (pl->an: the file is analysed
 * once). Each set is emitted and checked, then all go into one job: the runner
 * builds each kernel's original once.
 */
static int validate_pairs(cli *c, const plan *pl)
{
    unsigned n = (c->nstrategies ? c->nstrategies : 1) * (c->ndispatches ? c->ndispatches : 1);
    pair_set *ps = calloc(n, sizeof *ps);
    validate_set *vs = calloc(n, sizeof *vs);
    char *stem = c->stem ? xstrdup(c->stem) : default_stem(c->input);
    int rc = ps && vs ? EXIT_OK : EXIT_INTERNAL;
    unsigned made = 0;
    for (; rc == EXIT_OK && made < n; made++) {
        rc = plan_pair(c, pl, ps, made);
        rc = rc == EXIT_OK ? emit_checked(c, ps[made].p, ps[made].dispatch, stem, &ps[made].out)
                           : rc;
        vs[made] = (validate_set){ps[made].label, ps[made].p, ps[made].dispatch, &ps[made].out};
    }
    if (rc == EXIT_OK) {
        fill_vopt(c);
        fflush(stdout);
        progress_stage("validating %u sets on the device", n);
        rc = validate_run_sets(vs, n, &c->vopt);
    }
    for (unsigned i = 0; ps && i < made; i++) {
        emit_output_free(&ps[i].out);
        plan_free(&ps[i].pl); /* empty unless the pair planned its strategy */
    }
    free(ps);
    free(vs);
    free(stem);
    return rc;
}

static int generate(const cli *c, const plan *pl)
{
    char *stem = c->stem ? xstrdup(c->stem) : default_stem(c->input);
    emit_options eo = {c->input, stem, c->template_dir, c->defines, c->ndefines,
                       c->no_line, c->skipped, c->nskipped, c->dispatch};
    emit_output out;
    char err[512] = "";
    parse_options po = {c->cl_std, NULL, 0, c->includes, c->nincludes};
    progress_stage("writing the kernel set");
    int bad = emit_all(pl, &eo, &out, err, sizeof err) != 0;
    progress_stage("checking the generated kernel file");
    if (bad || safety_net_check(pl, &po, c->input, stem, out.kernel_file, !!c->template_dir)) {
        int rc = err[0] ? emit_failed(c, err) : c->template_dir ? EXIT_INPUT : EXIT_INTERNAL;
        emit_output_free(&out);
        free(stem);
        return rc;
    }
    const char *fmt[4] = {"%s/%s.nplus1.cl", "%s/%s_nplus1.h", "%s/%s_nplus1.c",
                          "%s/%s.nplus1.json"};
    const char *texts[4] = {out.kernel_file, out.driver_h, out.driver_c, out.manifest};
    out_file files[5];
    unsigned n = 0;
    for (; n < 4; n++) {
        strbuf name;
        sb_init(&name);
        sb_printf(&name, fmt[n], c->outdir, stem);
        files[n] = (out_file){sb_steal(&name), texts[n], NULL, NULL, 0};
    }
    char *dep = c->depfile ? outdir_depfile(c->outdir, stem, (const char *const *)out.deps,
                                              out.ndeps)
                         : NULL;
    if (dep)
        files[n++] = (out_file){xstrdup(c->depfile), dep, NULL, NULL, 0};
    int created = 0, rc = EXIT_OK;
    if (outdir_make(c->outdir, &created) != 0) {
        fprintf(stderr, "nplus1gen: error: cannot create output directory '%s': %s\n",
                c->outdir, strerror(errno));
        rc = EXIT_INPUT;
    } else {
        rc = outdir_write(files, n);
        if (rc != EXIT_OK && created)
            rmdir(c->outdir);
    }
    if (rc == EXIT_OK && !c->quiet) {
        for (unsigned i = 0; i < pl->nkernels; i++)
            fprintf(stderr, "nplus1gen: %s: %u leaf kernels (%u paths), strategy %s\n",
                    pl->kernels[i].k->name, pl->kernels[i].nkernels, pl->kernels[i].nleaves,
                    strategy_name(pl->kernels[i].strategy));
        fprintf(stderr, "nplus1gen: wrote %s/%s.nplus1.cl, %s_nplus1.h, %s_nplus1.c, %s.nplus1.json\n",
                c->outdir, stem, stem, stem, stem);
    }
    for (unsigned i = 0; i < n; i++)
        free(files[i].final);
    free(dep);
    emit_output_free(&out);
    free(stem);
    return rc;
}

/*
 * --profile-in: reads the profile and checks that it is one of the input's
 * kernels; EXIT_USAGE with a message when it is not. Its predictions go onto
 * pl's kernels (kernel_plan.prior), where emit reads them; a generated kernel the
 * profile lacks keeps the static prior (a note says so).
 */
static int load_profile(cli *c, plan *pl)
{
    char err[512];
    if (profile_in_load(&c->prior, c->profile_in, c->input, err, sizeof err) != 0) {
        fprintf(stderr, "nplus1gen: error: --profile-in '%s': %s\n", c->profile_in, err);
        return EXIT_USAGE;
    }
    profile_in_apply(&c->prior, pl);
    unsigned found = 0;
    for (unsigned i = 0; i < pl->nkernels; i++)
        found += pl->kernels[i].prior.has;
    if (!found && pl->nkernels) {
        fprintf(stderr, "nplus1gen: error: --profile-in '%s': it profiles ", c->profile_in);
        for (unsigned i = 0; i < c->prior.nkernels; i++)
            fprintf(stderr, "%s'%s'", i ? ", " : "", c->prior.kernels[i].name);
        fprintf(stderr, "%s, not '%s'%s\n", c->prior.nkernels ? "" : "no kernel",
                pl->kernels[0].k->name, pl->nkernels > 1 ? " or the other generated kernels" : "");
        return EXIT_USAGE;
    }
    for (unsigned i = 0; i < pl->nkernels && !c->quiet; i++)
        if (!pl->kernels[i].prior.has)
            fprintf(stderr, "nplus1gen: note: --profile-in '%s' has no kernel '%s': its "
                            "measured choice keeps the static prior\n",
                    c->profile_in, pl->kernels[i].k->name);
    return EXIT_OK;
}

/* ---- --skip-refused: the kernels left out, each named in a note ---------- */

/*
 * A run without -k that fails because some kernels are refused while others would
 * split: one note says so and names --skip-refused (a new user's file of several
 * kernels, as hashcat's, otherwise gets only "no files written").
 */
static void note_others_split(const cli *c, const front_end *fe)
{
    if (c->nkernels || c->skip_refused || c->profile)
        return;
    unsigned refused = 0, split = 0, never = 0;
    for (unsigned i = 0; i < fe->an.nkernels; i++) {
        const kernel_info *k = &fe->an.kernels[i];
        if ((!k->has_decision && !k->loop_only) || k->loop_kept || plan_skipped_why(&fe->pl, k))
            continue;
        const kernel_plan *kp = NULL;
        for (unsigned j = 0; j < fe->pl.nkernels; j++)
            if (fe->pl.kernels[j].k == k)
                kp = &fe->pl.kernels[j];
        if (!k->legal || !kp || kp->nkernels == 0 || kp->nleaves > PLAN_MAX_LEAVES ||
            kp->errors)
            refused++;
        else if (kp->split == SPLIT_MODE_NEVER)
            never++;
        else
            split++;
    }
    if (!refused || !(split + never))
        return;
    const char *s = refused == 1 ? "" : "s";
    if (!never)
        fprintf(stderr, "nplus1gen: note: %u of the %u kernels with a decision can be split; "
                        "--skip-refused writes their set and leaves the %u refused one%s out\n",
                split, split + refused, refused, s);
    else if (split)
        fprintf(stderr, "nplus1gen: note: %u of the %u kernels with a decision can be split; "
                        "--skip-refused writes the set of the %u whose split is not 'never' and "
                        "leaves the %u refused one%s out (-k NAME keeps one whose split is "
                        "never)\n",
                split + never, split + never + refused, split, refused, s);
    else
        fprintf(stderr, "nplus1gen: note: %u of the %u kernels with a decision can be split, "
                        "%s 'split: never' (the driver would run the original); -k NAME "
                        "writes the set of the kernels it names\n",
                never, never + refused, never == 1 ? "with" : "each with");
}

typedef struct skip_list {
    emit_skip *v;
    const char **names;       /* v[i].kernel, for front_end_run_skip */
    unsigned n, cap;
} skip_list;

static int named_by_k(const cli *c, const char *k)
{
    for (unsigned i = 0; i < c->nkernels; i++)
        if (!strcmp(c->kernels[i], k))
            return 1;
    return 0;
}

static void skip_add(skip_list *sl, const char *k, const char *rule, const char *why,
                     unsigned line, unsigned col)
{
    if (sl->n == sl->cap) {
        sl->cap = sl->cap ? 2 * sl->cap : 8;
        sl->v = xrealloc(sl->v, sl->cap * sizeof *sl->v);
        sl->names = xrealloc((void *)sl->names, sl->cap * sizeof *sl->names);
    }
    sl->v[sl->n] = (emit_skip){xstrdup(k), rule && *rule ? xstrdup(rule) : NULL, xstrdup(why),
                               line, col};
    sl->names[sl->n] = sl->v[sl->n].kernel;
    sl->n++;
}

static void skip_free(skip_list *sl)
{
    for (unsigned i = 0; i < sl->n; i++) {
        free(sl->v[i].kernel);
        free(sl->v[i].rule);
        free(sl->v[i].why);
    }
    free(sl->v);
    free((void *)sl->names);
}

/* A refused kernel's first error: the kernel analysed and planned alone, quietly. */
static void first_error(const cli *c, const parse_options *po, const char *k, diag_first *first)
{
    diag_sink q;
    diag_init(&q);
    q.quiet = 1;
    q.first = first;
    const char *one[1] = {k};
    front_end fe;
    front_end_run(&fe, c->input, po, one, 1, &c->plan, &q);
    front_end_free(&fe);
}

/*
 * Which selected kernels --skip-refused leaves out, found by a quiet run: each
 * refused kernel (with its first error's rule and message), and, unless -k names
 * it, each whose every candidate is never (split: never under --split auto: the
 * driver would run the original kernel, so the set is dead weight). A file that
 * does not parse leaves none out: the loud run says what is wrong.
 */
static void find_skipped(const cli *c, const parse_options *po, skip_list *sl)
{
    diag_sink quiet;
    diag_init(&quiet);
    quiet.quiet = 1;
    front_end fe;
    if (front_end_run(&fe, c->input, po, c->kernels, c->nkernels, &c->plan, &quiet) != 0) {
        front_end_free(&fe);
        return;
    }
    for (unsigned i = 0; i < fe.an.nkernels; i++) {
        const kernel_info *k = &fe.an.kernels[i];
        const kernel_plan *kp = NULL;
        for (unsigned p = 0; p < fe.pl.nkernels; p++)
            kp = fe.pl.kernels[p].k == k ? &fe.pl.kernels[p] : kp;
        if (plan_loop_lenient(&fe.pl, k) || plan_skipped_why(&fe.pl, k))
            continue; /* left alone for its loop, as before: no set, no error */
        diag_loc at = parse_diag_loc(&fe.pr, clang_getCursorLocation(k->cursor));
        if (!k->legal || !kp || kp->errors) {
            diag_first first = {0};
            first_error(c, po, k->name, &first);
            skip_add(sl, k->name, first.set ? first.rule : NULL,
                     first.set ? first.message : "refused", first.line ? first.line : at.line,
                     first.line ? first.col : at.col);
            if (!first.set || !first.rule[0]) /* a refusal has a rule; keep the entry's kind */
                sl->v[sl->n - 1].rule = xstrdup("nplus1-refused");
        } else if (kp->split == SPLIT_MODE_NEVER && !named_by_k(c, k->name)) {
            skip_add(sl, k->name, NULL,
                     kp->ndata ? "split: never: every leaf is too cheap to pay for the "
                                 "classifier, so the driver would run the original kernel"
                               : "split: never: no decision depends on data, so the driver "
                                 "would run the original kernel",
                     at.line, at.col);
        }
    }
    front_end_free(&fe);
}

/* One note per kernel left out, at the refusal (or the kernel). */
static void note_skipped(const cli *c, const skip_list *sl)
{
    diag_sink d;
    diag_init(&d);
    for (unsigned i = 0; i < sl->n; i++) {
        const emit_skip *s = &sl->v[i];
        diag_loc loc = {c->input, s->line, s->col, NULL, 0};
        if (s->rule)
            diag_report(&d, DIAG_NOTE, &loc, s->rule, "kernel '%s' refused, left out "
                        "(--skip-refused): %s", s->kernel, s->why);
        else
            diag_report(&d, DIAG_NOTE, &loc, NULL, "kernel '%s' left out (--skip-refused): "
                        "%s; -k %s writes its set", s->kernel, s->why, s->kernel);
    }
}

/* --dump-ir: each selected kernel's IR (ir.h), kernels with decisions only in loops too. */
static int dump_ir(const cli *c, const parse_options *po)
{
    diag_sink diag;
    diag_init(&diag);
    parse_result pr;
    if (parse_input(&pr, c->input, po, &diag) != 0)
        return EXIT_INPUT;
    analysis an;
    int bad = analyze_tu_loops(&an, &pr, c->kernels, c->nkernels, 1, &diag);
    strbuf sb;
    sb_init(&sb);
    for (unsigned k = 0; k < an.nkernels; k++)
        ir_dump(&an, &an.kernels[k], &sb);
    fputs(sb.data ? sb.data : "", stdout);
    sb_free(&sb);
    analyze_free(&an);
    parse_free(&pr);
    return bad ? EXIT_INPUT : EXIT_OK;
}

/*
 * --calibrate: nplus1gen-validate --calibrate measures the device (--device,
 * NPLUS1_DEVICE) and stores its cost model (runtime/calibrate.c). Its status:
 * 0, or 1 when no device ran it.
 */
static int calibrate(const cli *c)
{
    static const char *const args[] = {"--calibrate", NULL};
    int sig = 0, rc = runner_run(args, c->vopt.timeout, c->vopt.device_select, &sig);
    if (rc == RUNNER_TIMED_OUT)
        fprintf(stderr, "nplus1gen: error: the calibration stopped after %u s (--timeout)\n",
                c->vopt.timeout);
    else if (rc == RUNNER_KILLED)
        fprintf(stderr, "nplus1gen: error: the calibration died (signal %d): the OpenCL "
                        "implementation crashed\n", sig);
    return rc < 0 ? EXIT_INTERNAL : rc;
}

/* The static rule's constants: the device's calibration, else the defaults (calibration.h). */
static void cost_model(calibration_choice *cc)
{
    calibration_find(getenv("NPLUS1_DEVICE"), cc);
    regroup_costs_set(cc->cal.word, cc->cal.round);
}

static int run(int argc, char **argv)
{
    cli c;
    int rc = parse_cli(&c, argc, argv);
    if (rc == CLI_DONE)
        return EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    progress_start(c.quiet);
    if (c.calibrate) {
        rc = calibrate(&c);
        cli_free(&c);
        return rc;
    }
    calibration_choice cc;
    cost_model(&cc);
    if (c.profile) {
        parse_options ppo = {c.cl_std, c.defines, c.ndefines, c.includes, c.nincludes};
        c.vopt.input = c.input;
        c.vopt.defines = c.defines;
        c.vopt.ndefines = c.ndefines;
        c.vopt.includes = c.includes;
        c.vopt.nincludes = c.nincludes;
        c.vopt.cl_std = c.cl_std;
        c.popt.fused = c.dispatch != DISPATCH_HOST;
        progress_stage("profiling");
        rc = profile_command(c.input, &ppo, c.kernels, c.nkernels, &c.plan, &c.vopt, &c.popt);
        cli_free(&c);
        return rc;
    }
    diag_sink diag;
    diag_init(&diag);
    parse_options po = {c.cl_std, c.defines, c.ndefines, c.includes, c.nincludes};
    if (c.dump_ir) {
        rc = dump_ir(&c, &po);
        cli_free(&c);
        return rc;
    }
    skip_list sl = {0};
    if (c.skip_refused) {
        find_skipped(&c, &po, &sl);
        note_skipped(&c, &sl);
        c.skipped = sl.v;
        c.nskipped = sl.n;
    }
    front_end fe;
    rc = front_end_run_skip(&fe, c.input, &po, c.kernels, c.nkernels, sl.names, sl.n, &c.plan,
                            &diag);
    if (rc == EXIT_OK) {
        if (c.report || c.check)
            report_print(stdout, &fe.an, &fe.pl, c.dispatch, c.report);
        if (c.report) {
            char line[1600];
            calibration_describe(&cc, line, sizeof line);
            printf("%s\n", line);
        }
        for (unsigned i = 0; (c.report || c.check) && i < sl.n; i++)
            if (sl.v[i].rule)
                printf("kernel %s: left out (--skip-refused): refused: %s [%s]\n",
                       sl.v[i].kernel, sl.v[i].why, sl.v[i].rule);
            else
                printf("kernel %s: left out (--skip-refused): %s\n", sl.v[i].kernel,
                       sl.v[i].why);
        rc = fe.bad ? EXIT_INPUT : EXIT_OK;
        if (rc == EXIT_OK && c.profile_in && c.outdir && !c.check)
            rc = load_profile(&c, &fe.pl);
        if (rc == EXIT_OK && c.outdir && !c.check)
            rc = generate(&c, &fe.pl);
        int pairs = c.nstrategies > 1 || c.ndispatches > 1;
        if (rc == EXIT_OK && c.validate && !c.check)
            rc = pairs ? validate_pairs(&c, &fe.pl) : validate(&c, &fe.pl);
    }
    if (rc == EXIT_INPUT && diag.errors) {
        fprintf(stderr, "nplus1gen: %u error%s; no files written\n", diag.errors,
                diag.errors == 1 ? "" : "s");
        note_others_split(&c, &fe);
    }
    front_end_free(&fe);
    skip_free(&sl);
    cli_free(&c);
    return rc;
}

typedef struct main_args {
    int argc;
    char **argv;
} main_args;

static int run_args(void *p)
{
    main_args *a = p;
    return run(a->argc, a->argv);
}

/* The work runs on a large stack: deep expressions recurse deeply (big_stack.h). */
int main(int argc, char **argv)
{
    main_args a = {argc, argv};
    int rc = big_stack_run(run_args, &a, big_stack_size());
    progress_stop();
    runner_end_if_interrupted(); /* Ctrl-C or SIGTERM stopped a runner: end by it */
    return rc;
}
