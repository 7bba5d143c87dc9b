/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.c - nplus1gen-validate, the device side of --validate.
 *
 * Reads the job nplus1gen wrote (common/job.h, the format), builds the
 * original kernel and the generated set with libnplus1rt, runs both on
 * identical seeded inputs, and prints the diff per leaf. Links no libclang:
 * POCL brings its own LLVM. Exit: 0 all equal, 1 a mismatch or an
 * inconclusive run, 2 a bad --arg value (or the original reads out of
 * bounds on these inputs), 3 cannot run.
 *
 *   nplus1gen-validate [--device oclgrind] JOB   (JOB: a folder with job.desc, or the file)
 *   nplus1gen-validate --help                    (the usage on stdout, exit 0)
 *
 * The process that starts runs the job in a child: when the child dies or
 * a kernel run fails, the original kernel alone is run again under
 * oclgrind (when installed) to name the out-of-bounds access
 * (oclgrind.c).
 *
 * The parts: job.c (the description), inputs.c (the inputs from its
 * values), verdict.c (what is printed), oclgrind.c; this file runs them.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calibration.h"
#include "oclgrind.h"
#include "runner.h"

typedef struct device_ctx {
    nplus1rt_device dev;
    cl_context ctx;
    cl_command_queue q;
    int open;
} device_ctx;

static int open_device(device_ctx *dc, const job *j)
{
    if (dc->open)
        return 0;
    char err[512];
    if (nplus1rt_pick_device(&dc->dev, err, sizeof err) != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: no OpenCL device: %s\n", err);
        return -1;
    }
    if (nplus1rt_open(&dc->dev, 0, &dc->ctx, &dc->q) != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: cannot open device '%s'\n", dc->dev.device_name);
        return -1;
    }
    dc->open = 1;
    if (!j->quiet)
        printf("validating on %s (%s): %u-D global %zu,%zu,%zu, seed %llu\n",
               dc->dev.device_name, dc->dev.platform_name, j->o.work_dim, j->o.global_size[0],
               j->o.global_size[1], j->o.global_size[2], (unsigned long long)j->o.seed);
    return 0;
}

/* --original-only: which buffer oclgrind numbers 1, 2, ... (created in argument order). */
static void print_buffers(const kdesc *k, const values *v, const nplus1rt_validate_opts *o)
{
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (k->args[p].kind == NPLUS1RT_ARG_BUFFER)
            printf("nplus1-buffer %s %zu %zu\n", k->args[p].name,
                   v->elems[p] ? v->elems[p] : inputs_default_elems(o), k->args[p].size);
    fflush(stdout);
}

static int run_original_only(device_ctx *dc, const job *j, kdesc *k, const char *original,
                             const nplus1rt_validate_opts *o, const values *v)
{
    print_buffers(k, v, o);
    nplus1rt_validation *r = calloc(1, sizeof *r);
    cl_int err = r ? nplus1rt_run_original(dc->ctx, dc->dev.device, dc->q, &k->d, original,
                                           j->options, o, r)
                   : CL_OUT_OF_HOST_MEMORY;
    free(r);
    return err == CL_SUCCESS ? 0 : 3;
}

/* ---- --profile: the instrumented original and the original ------------------- */

/* The tile the runtime would use (runtime/set.c, tile_ipt_for): work-group x items each. */
static unsigned profile_tile(const device_ctx *dc, unsigned wg)
{
    const char *env = getenv("NPLUS1_TILE_IPT");
    if (env && atoi(env) > 0 && atoi(env) <= 64 && (size_t)atoi(env) * wg <= 65536)
        return (unsigned)atoi(env) * wg;
    cl_ulong local = 0;
    clGetDeviceInfo(dc->dev.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    unsigned ipt = 16;
    while (ipt > 1 && ((cl_ulong)ipt * wg * 4 > local / 12 || ipt * wg > 65536))
        ipt /= 2;
    return ipt * wg;
}

/* Writable buffers of both runs: values compared and how many differ; r (or NULL): how
 * many of them on buffers items may race on (kdesc.racy), and those buffers' names. */
static void profile_diff(const kdesc *k, void **a, size_t *na, void **b, size_t *nb,
                         unsigned ulp, size_t *compared, size_t *bad, profile_result *r)
{
    for (unsigned i = 0; i < k->d.nargs; i++) {
        if (!a[i] || !b[i] || na[i] != nb[i])
            continue;
        size_t n = na[i] / nplus1rt_elem_size(k->args[i].elem);
        size_t d = nplus1rt_diff(a[i], b[i], n, k->args[i].elem, ulp, NULL, 0);
        *compared += n;
        *bad += d;
        if (r && d && k->racy[i]) {
            size_t len = strlen(r->races);
            r->race_mismatches += d;
            snprintf(r->races + len, sizeof r->races - len, "%s%s", len ? ", " : "",
                     k->args[i].name);
        }
    }
}

static int write_profile(const job *j, const kdesc *k, const void *rec, size_t bytes,
                         size_t compared, size_t bad, unsigned tile, const char *device,
                         const profile_result *why)
{
    char *bin = job_path(j, "profile-"), *path = malloc(strlen(bin) + strlen(k->name) + 8);
    int ok = path != NULL;
    for (int t = 0; ok && t < 2; t++) {
        sprintf(path, "%s%s.%s", bin, k->name, t ? "txt" : "bin");
        FILE *f = fopen(path, "wb");
        ok = f != NULL;
        if (f && !t)
            ok = fwrite(rec, 1, bytes, f) == bytes;
        if (f && t)
            ok = fprintf(f, "compared %zu\nmismatches %zu\ntile %u\ndevice %s\n"
                            "layout %u %u %u %u\n", compared, bad, tile, device, j->lay.unit,
                         j->lay.every, j->lay.units, j->lay.slot) > 0 &&
                 fprintf(f, "self_mismatches %zu\nrace_mismatches %zu\nraces %s\n",
                         why->self_mismatches, why->race_mismatches, why->races) > 0;
        if (f)
            ok &= fclose(f) == 0;
    }
    if (!ok)
        fprintf(stderr, "nplus1gen: error: cannot write the profile of '%s' into %s\n", k->name,
                j->dir);
    free(bin);
    free(path);
    return ok ? 0 : 3;
}

/* The instrumented build's options: the job's and the recording's layout. */
static char *profile_options(const job *j)
{
    const char *base = j->options ? j->options : "";
    size_t n = strlen(base) + 200;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s -DNPLUS1_PROF_UNIT=%uUL -DNPLUS1_PROF_EVERY=%uUL "
                       "-DNPLUS1_PROF_UNITS=%uUL -DNPLUS1_PROF_SLOT=%uU", base, j->lay.unit,
                 j->lay.every, j->lay.units, j->lay.slot);
    return s;
}

/* This pass's run of k, for the replay: takes rec (malloc'd), even when it fails. */
static int keep_profile(job *j, const kdesc *k, void *rec, size_t bytes, size_t compared,
                        size_t bad, unsigned tile, const char *device)
{
    profile_result *r = NULL;
    for (unsigned i = 0; i < j->npres && !r; i++)
        if (!strcmp(j->pnames[i], k->name))
            r = &j->pres[i];
    if (!r) {
        profile_result *p = realloc(j->pres, (j->npres + 1) * sizeof *p);
        char **names = p ? realloc(j->pnames, (j->npres + 1) * sizeof *names) : NULL;
        if (p)
            j->pres = p;
        if (names)
            j->pnames = names;
        if (!p || !names || !(j->pnames[j->npres] = strdup(k->name))) {
            free(rec);
            return 3;
        }
        r = &j->pres[j->npres++];
        memset(r, 0, sizeof *r);
    }
    profile_result_free(r);
    snprintf(r->device, sizeof r->device, "%s", device);
    r->compared = compared;
    r->mismatches = bad;
    r->tile = tile;
    if (profile_take_record(r, rec, bytes, &j->lay, j->prof_items) != 0) {
        fprintf(stderr, "nplus1gen: error: the profile run of '%s' left a recording of %zu "
                        "bytes, not %llu\n", k->name, bytes, profile_record_bytes(&j->lay));
        return 3;
    }
    return 0;
}

/*
 * The instrumented run differs from the original's: why, when the original is to blame.
 * The original runs once more and is compared with its first run (a kernel that races or
 * reads memory it never wrote disagrees with itself), and the mismatches are counted on
 * the buffers its items may race on (the job's `racy` line).
 */
static void explain_profile_mismatch(device_ctx *dc, const job *j, const kdesc *k,
                                     const char *original, const nplus1rt_validate_opts *o,
                                     void **plain, size_t *nplain, void **rec, size_t *nrec,
                                     profile_result *why)
{
    size_t compared = 0, bad = 0;
    profile_diff(k, plain, nplain, rec, nrec, o->ulp_tol, &compared, &bad, why);
    void *again[MAX_ARGS + 1] = {0};
    size_t nagain[MAX_ARGS + 1] = {0};
    nplus1rt_validation *r = calloc(1, sizeof *r);
    if (r && nplus1rt_run_original_outputs(dc->ctx, dc->dev.device, dc->q, &k->d, original,
                                           j->options, o, again, nagain, r) == CL_SUCCESS) {
        size_t c2 = 0;
        profile_diff(k, plain, nplain, again, nagain, o->ulp_tol, &c2, &why->self_mismatches,
                     NULL);
        for (unsigned i = 0; i < k->d.nargs; i++)
            free(again[i]);
    }
    free(r);
}

/* The explanation of a mismatch, beside the run keep_profile kept. */
static void profile_keep_why(job *j, const kdesc *k, const profile_result *why)
{
    for (unsigned i = 0; i < j->npres; i++)
        if (!strcmp(j->pnames[i], k->name)) {
            j->pres[i].self_mismatches = why->self_mismatches;
            j->pres[i].race_mismatches = why->race_mismatches;
            memcpy(j->pres[i].races, why->races, sizeof why->races);
        }
}

static int run_profile(device_ctx *dc, job *j, kdesc *k, const char *instrumented,
                       const char *original, const nplus1rt_validate_opts *o, const values *v)
{
    unsigned n = k->d.nargs;
    static nplus1rt_arg args[MAX_ARGS + 1];
    size_t elems[MAX_ARGS + 1] = {0}, nrec[MAX_ARGS + 1], nplain[MAX_ARGS + 1];
    const void *vals[MAX_ARGS + 1] = {0}, *init[MAX_ARGS + 1] = {0};
    void *rec[MAX_ARGS + 1], *plain[MAX_ARGS + 1];
    memcpy(args, k->args, n * sizeof *args);
    args[n] = (nplus1rt_arg){"__nplus1_profile", "uint *", NPLUS1RT_ARG_BUFFER, 1, 0,
                             NPLUS1RT_U32, 1, 4};
    for (unsigned i = 0; i < n; i++) {
        elems[i] = v->elems[i];
        vals[i] = v->ptr[i];
        init[i] = v->init[i];
    }
    elems[n] = (size_t)(profile_record_bytes(&j->lay) / 4);
    void *zero = calloc(elems[n] ? elems[n] : 1, 4);
    init[n] = zero;
    nplus1rt_set_desc d = k->d;
    d.args = args;
    d.nargs = n + 1;
    nplus1rt_validate_opts po = *o;
    po.buffer_elems = elems;
    po.values = vals;
    po.buffer_init = init;
    nplus1rt_validation *r = calloc(1, sizeof *r);
    char *opts = profile_options(j);
    cl_int err = zero && r && opts
                     ? nplus1rt_run_original_outputs(dc->ctx, dc->dev.device, dc->q, &d,
                                                     instrumented, opts, &po, rec, nrec, r)
                     : CL_OUT_OF_HOST_MEMORY;
    free(zero);
    free(opts);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: profiling '%s' could not run: %s\n", k->name,
                r ? r->message : "out of memory");
        free(r);
        return 3;
    }
    err = nplus1rt_run_original_outputs(dc->ctx, dc->dev.device, dc->q, &k->d, original,
                                        j->options, o, plain, nplain, r);
    size_t compared = 0, bad = 0;
    int rc = 3;
    if (err == CL_SUCCESS) {
        profile_diff(k, plain, nplain, rec, nrec, o->ulp_tol, &compared, &bad, NULL);
        unsigned tile = profile_tile(dc, k->d.wg);
        profile_result why;
        memset(&why, 0, sizeof why);
        if (bad)
            explain_profile_mismatch(dc, j, k, original, o, plain, nplain, rec, nrec, &why);
        rc = write_profile(j, k, rec[n], nrec[n], compared, bad, tile, dc->dev.device_name,
                           &why);
        if (rc == 0) {
            rc = keep_profile(j, k, rec[n], nrec[n], compared, bad, tile, dc->dev.device_name);
            rec[n] = NULL; /* the job's now */
        }
        if (rc == 0)
            profile_keep_why(j, k, &why);
    } else {
        fprintf(stderr, "nplus1gen: error: running '%s' could not run: %s\n", k->name,
                r->message);
    }
    for (unsigned i = 0; i <= n; i++) {
        free(rec[i]);
        if (i < n && err == CL_SUCCESS)
            free(plain[i]);
    }
    free(r);
    return rc;
}


/* --local is given and equals the kernel's reqd_work_group_size in every dimension used. */
static int local_fits_reqd(const nplus1rt_set_desc *d, const nplus1rt_validate_opts *o)
{
    if (!o->has_local_size)
        return 0;
    for (cl_uint i = 0; i < o->work_dim && i < 3; i++)
        if (o->local_size[i] != d->reqd_local[i])
            return 0;
    return 1;
}
static int run_kernel(device_ctx *dc, job *j, kdesc *k, const char *source, const char *original)
{
    values *v = calloc(1, sizeof *v);
    nplus1rt_validation *r = calloc(1, sizeof *r);
    int rc = 3;
    if (!v || !r)
        goto done;
    rc = 2; /* a bad --arg: a usage error */
    if (inputs_setup(j, k, v) != 0 || inputs_build(j, k, v) != 0)
        goto done;
    rc = 3;
    if (open_device(dc, j) != 0)
        goto done;
    k->d.source = source;
    nplus1rt_validate_opts o = j->o;
    o.buffer_elems = v->elems;
    o.values = v->ptr;
    o.buffer_init = (const void *const *)v->init;
    o.unordered = v->unordered;
    o.count_arg = v->count_arg;
    o.images = v->images;
    o.samplers = v->samplers;
    if (k->d.reqd_local[0] && !local_fits_reqd(&k->d, &o)) { /* a launch it forbids: exit 2 */
        fprintf(stderr, "nplus1gen: error: kernel '%s' declares reqd_work_group_size(%zu, %zu, "
                        "%zu): give --local %zu%s (a size that divides --global), as its "
                        "launches must; the generated set refuses another local size as "
                        "clEnqueueNDRangeKernel refuses the original (the kernel's "
                        "reqd_work_group_size does not match local_size)\n", k->name,
                k->d.reqd_local[0], k->d.reqd_local[1], k->d.reqd_local[2], k->d.reqd_local[0],
                j->o.work_dim > 1 ? ",..." : "");
        rc = 2;
        goto done;
    }
    const char *crash = getenv("NPLUS1_TEST_CRASH"); /* tests only: the implementation */
    if (crash && (!strcmp(crash, "original") || (!strcmp(crash, "set") && !j->original_only))) {
        signal(SIGSEGV, SIG_DFL); /* POCL's handler would return */
        raise(SIGSEGV);           /* crashing as it builds the original (or, "set", the pair) */
    }
    if (j->original_only) {
        rc = run_original_only(dc, j, k, original, &o, v);
        goto done;
    }
    if (j->profile) {
        rc = run_profile(dc, j, k, source, original, &o, v);
        goto done;
    }
    cl_int err = nplus1rt_validate(dc->ctx, dc->dev.device, dc->q, &k->d, original, j->options,
                                   NULL, NULL, &o, r);
    if (err == NPLUS1_ERR_MACRO) { /* refused, as the driver's _create refuses: exit 1 */
        fprintf(stderr, "nplus1gen: error: validating '%s': the set refuses these build "
                        "options (NPLUS1_ERR_MACRO): %s\n", k->name, r->message);
        rc = EXIT_REFUSED;
        goto done;
    } else if (err != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: validating '%s' could not run: %s\n", k->name,
                r->message);
        rc = strstr(r->message, "running ") ? EXIT_RUN_FAILED : 3;
        goto done;
    }
    verdict_result(k, r);
    rc = verdict_coverage(j, k, r) ? EXIT_UNPROVEN : 0;
    rc = r->mismatches ? 1 : rc;
    fflush(stdout);
done:
    if (v)
        inputs_free(v);
    free(v);
    free(r);
    return rc;
}


/* The set's source, and the original once: every set of a job shares it. */
static void read_sources(const job *j, char **source, char **original)
{
    char *s = job_path(j, j->source), *o = job_path(j, j->original);
    *source = s ? nplus1rt_read_file(s) : NULL;
    if (!*original)
        *original = o ? nplus1rt_read_file(o) : NULL;
    if (!*source || !*original)
        fprintf(stderr, "nplus1gen-validate: cannot read '%s' or '%s'\n", s ? s : "",
                o ? o : "");
    free(s);
    free(o);
}
/* A job of several sets: what one set did so far, and whether its header is out. */
typedef struct set_state {
    int rc, unproven, open;
} set_state;

/* The set that ends here (a `set` line or the job's end): its verdict and the job's tally. */
static void finish_set(job *j, set_state *st)
{
    if (!j->set_label || !st->open)
        return;
    int rc = st->rc == 0 && st->unproven ? EXIT_UNPROVEN : st->rc;
    verdict_print_set(j, rc);
    *st = (set_state){0, 0, 0};
    j->inconclusive = 0;
}

/* One kernel at its `end`: in a job of sets, under its set's header (the device first). */
static int end_kernel(job *j, kdesc *k, device_ctx *dc, set_state *st, char **source,
                      char **original)
{
    if (!*source && j->source && j->original)
        read_sources(j, source, original);
    if (j->set_label && !st->open) {
        if (!j->original_only && open_device(dc, j) == 0)
            printf("== set %s\n", j->set_label);
        st->open = 1;
    }
    if (j->original_only && j->nsets > 1) /* under oclgrind: the original of the first set */
        return 0;
    int krc = *source && *original ? run_kernel(dc, j, k, *source, *original) : 3;
    if (krc == EXIT_UNPROVEN)
        st->unproven = 1;
    else
        st->rc = krc > st->rc ? krc : st->rc;
    return krc;
}

static int run_lines(job *j, FILE *f, device_ctx *dc, int *unproven)
{
    static kdesc k;
    char *source = NULL, *original = NULL, *line = NULL;
    size_t cap = 0;
    int rc = 0, in_kernel = 0;
    set_state st = {0, 0, 0};
    while (rc < 2 && getline(&line, &cap, f) > 0) { /* lines of any length */
        int bad = 0;
        if (!strncmp(line, "kernel ", 7)) {
            bad = job_read_kernel(&k, line);
            in_kernel = 1;
        } else if (in_kernel && (bad = job_read_kernel_part(&k, line)) != 1) {
            ;
        } else if (in_kernel && !strncmp(line, "end", 3)) {
            bad = 0;
            int krc = end_kernel(j, &k, dc, &st, &source, &original);
            if (krc == EXIT_UNPROVEN)
                *unproven = 1;
            else
                rc = krc > rc ? krc : rc;
            kdesc_free(&k);
            in_kernel = 0;
        } else {
            if (!strncmp(line, "set ", 4)) { /* the next set: its own source */
                finish_set(j, &st);
                free(source);
                source = NULL;
            }
            bad = job_read_line(j, line);
            if (j->original_only)
                j->quiet = 1;
        }
        if (bad) {
            fprintf(stderr, "nplus1gen-validate: bad description line: %s", line);
            rc = 3;
        }
    }
    if (rc < 2)
        finish_set(j, &st);
    free(line);
    kdesc_free(&k);
    free(source);
    free(original);
    return rc;
}

/* The longest path any kernel took, in tokens. */
static unsigned profile_longest(const job *j)
{
    unsigned longest = 0;
    for (unsigned i = 0; i < j->npres; i++)
        if (j->pres[i].longest > longest)
            longest = j->pres[i].longest;
    return longest;
}

/* The replay and the report of a profile job's runs: 0, or 3. */
static int profile_report_job(job *j)
{
    profile_kernel_tree *ks;
    unsigned nks;
    char *tree = job_path(j, j->prof_tree ? j->prof_tree : "profile.tree");
    int rc = tree && profile_tree_read(tree, &ks, &nks) == 0 ? 0 : 3;
    free(tree);
    if (rc)
        return rc;
    for (unsigned i = 0; i < nks && !rc; i++)
        if (i >= j->npres || strcmp(ks[i].name, j->pnames[i])) {
            fprintf(stderr, "nplus1gen-validate: the job ran no kernel '%s' (profile.tree "
                            "names it)\n", ks[i].name);
            rc = 3;
        }
    char *json = j->prof_json ? strdup(j->prof_json) : job_path(j, "profile.json");
    profile_report rep = {j->input ? j->input : "", j->o.work_dim,
                          {j->o.global_size[0], j->o.global_size[1], j->o.global_size[2]},
                          (unsigned long long)j->o.seed, j->prof_width, json, j->lay,
                          j->prof_items, ks, nks, j->pres, NULL};
    /* the cost model: the device's calibration (common/calibration.h), else the defaults */
    calibration_choice cal;
    calibration_find(nks && j->npres ? j->pres[0].device : NULL, &cal);
    rep.cal = &cal;
    if (rc == 0)
        rc = profile_report_all(&rep);
    fflush(stdout);
    free(json);
    profile_kernel_trees_free(ks, nks);
    return rc;
}

/*
 * A profile job: when a path did not fit its slot, every kernel runs once
 * more with room for the longest; then the report. rc: the first pass's.
 */
static int profile_finish(job *j, FILE *f, device_ctx *dc, int *unproven, int rc)
{
    if (rc == 0 && profile_longest(j) > j->lay.slot - 4) {
        unsigned slot = (profile_longest(j) + 4 + 3) / 4 * 4;
        if (profile_plan_layout(j->prof_items, j->prof_memory, slot, &j->lay) != 0)
            return EXIT_UNPROVEN; /* the user's limit, not a bug: exit 1 */
        job_free_lines(j);
        j->prof_pass = 2;
        rewind(f);
        rc = run_lines(j, f, dc, unproven);
        for (unsigned i = 0; rc == 0 && i < j->npres; i++)
            if (j->pres[i].longest > j->lay.slot - 4) /* the report leaves those items out */
                fprintf(stderr, "nplus1gen: warning: kernel '%s' took a longer path on a second "
                                "run of the same inputs: it does not run the same way twice "
                                "(its items race, or it reads memory it never wrote); the "
                                "profile leaves out the %zu items whose path did not fit and "
                                "shows one of the schedules it allows\n",
                        j->pnames[i], j->pres[i].cut);
    }
    return rc == 0 ? profile_report_job(j) : rc;
}

static int run_job(const char *path, int original_only, const char *profile_json)
{
    job j;
    memset(&j, 0, sizeof j);
    j.original_only = original_only;
    j.prof_json = profile_json;
    char *desc = job_file(&j, path);
    FILE *f = desc ? fopen(desc, "r") : NULL;
    if (!f) {
        fprintf(stderr, "nplus1gen-validate: cannot read '%s': %s\n", desc ? desc : path,
                strerror(errno));
        free(desc);
        job_free(&j);
        return 3;
    }
    if (original_only)
        j.quiet = 1;
    device_ctx dc;
    memset(&dc, 0, sizeof dc);
    int unproven = 0;
    int rc = run_lines(&j, f, &dc, &unproven);
    if (j.profile && !original_only)
        rc = profile_finish(&j, f, &dc, &unproven, rc);
    fclose(f);
    free(desc);
    rc = rc == 0 && unproven ? EXIT_UNPROVEN : rc;
    verdict_print(&j, rc);
    job_free(&j);
    nplus1rt_cache_clear();
    if (dc.open) {
        clReleaseCommandQueue(dc.q);
        clReleaseContext(dc.ctx);
    }
    return rc;
}

/* ---- oclgrind: name the out-of-bounds access of the original ------------------------ */


static int self_path(char *out, size_t n)
{
    ssize_t r = readlink("/proc/self/exe", out, n - 1);
    if (r <= 0)
        return -1;
    out[r] = '\0';
    return 0;
}

static int original_alone_sig;

/*
 * After the runner died: the original kernel alone, on the device, in a child
 * of its own (the OpenCL implementation's crash must not take this process).
 * 0: it ran; -1: it died too (original_alone_sig says of which signal).
 */
static int original_alone(const char *self, const char *path)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) { /* its buffers' listing is for oclgrind's runs */
            dup2(null, 1);
            close(null);
        }
        execl(self, self, "--original-only", path, (char *)NULL);
        _exit(3);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status))
        return 0;
    original_alone_sig = WTERMSIG(status);
    return -1;
}

/* Runs the job in a child (under oclgrind on request); explains a run that died. */
static int supervise(const char *path, const char *device, const char *json)
{
    char self[4096];
    if (self_path(self, sizeof self) != 0)
        return run_job(path, 0, json);
    int under_oclgrind = device && !strcmp(device, "oclgrind");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (under_oclgrind)
            oclgrind_allow_preload();
        if (under_oclgrind)
            execlp("oclgrind", "oclgrind", "--max-errors", "3", self, "--child", path,
                   json ? "--profile-json" : (char *)NULL, json, (char *)NULL);
        else
            execl(self, self, "--child", path, json ? "--profile-json" : (char *)NULL, json,
                  (char *)NULL);
        fprintf(stderr, "nplus1gen: error: cannot run %s: %s\n",
                under_oclgrind ? "oclgrind (apt-get install oclgrind)" : self, strerror(errno));
        _exit(3);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 3;
    int died = WIFSIGNALED(status), rc = died ? 3 : WEXITSTATUS(status);
    if (rc == EXIT_UNPROVEN || rc == EXIT_REFUSED)
        return 1;
    if (!died && rc != EXIT_RUN_FAILED && rc != 1)
        return rc == EXIT_RUN_FAILED ? 3 : rc;
    if (rc == 1 && !oclgrind_available())
        return 1; /* a mismatch: the note about oclgrind is for runs that die */
    char input[512];
    job_input_name(path, input, sizeof input);
    int alone = died ? original_alone(self, path) : 0; /* -1: it dies too */
    if (oclgrind_check(self, path, input))
        return 2; /* the inputs, not the generated set */
    if (died && alone < 0) { /* the user's kernel or the OpenCL implementation: exit 1 */
        fprintf(stderr, "nplus1gen: error: the validation runner died (signal %d), and the "
                        "original kernel alone dies too (%s): the OpenCL implementation "
                        "crashed building or running the original, or the original reads or "
                        "writes out of bounds (check --arg sizes and values); the generated "
                        "set is not to blame and nothing was validated\n",
                WTERMSIG(status), strsignal(original_alone_sig));
        return 1;
    }
    if (died)
        fprintf(stderr, "nplus1gen: error: the validation runner died (signal %d) running the "
                        "generated set; the original kernel alone runs: a generated kernel "
                        "probably read or wrote out of bounds, or the OpenCL implementation "
                        "crashed on it (a bug to report)\n",
                WTERMSIG(status));
    return rc == EXIT_RUN_FAILED ? 3 : rc;
}

/*
 * --calibrate: measures the device's cost model (runtime/calibrate.c) on the
 * device NPLUS1_PLATFORM / NPLUS1_DEVICE pick, stores it in the user's choice
 * cache folder and prints it. 0, or 1 when no device runs it.
 */
static int run_calibrate(void)
{
    nplus1rt_device dev;
    cl_context ctx;
    cl_command_queue q;
    char err[512], path[1024];
    if (nplus1rt_pick_device(&dev, err, sizeof err) != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: no OpenCL device: %s\n", err);
        return 1;
    }
    if (nplus1rt_open(&dev, 1, &ctx, &q) != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: cannot open device '%s'\n", dev.device_name);
        return 1;
    }
    printf("calibrating on %s (%s)\n", dev.device_name, dev.platform_name);
    fflush(stdout);
    nplus1rt_calibration c;
    double t0 = nplus1rt_now_ms();
    cl_int e = nplus1rt_calibrate(ctx, dev.device, &c, path, sizeof path, err, sizeof err);
    double ms = nplus1rt_now_ms() - t0;
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: the calibration failed on '%s': %s\n",
                dev.device_name, err);
        return 1;
    }
    printf("  in FMA-equivalents per item and regrouping round (one lane-FMA with the device "
           "busy: %.3g ns):\n", c.fma_ns);
    printf("  a context word into local memory and back: %.1f\n", c.word);
    printf("  a round without context: %.1f (four barriers %.1f, ranking by local atomics and "
           "offsets %.1f)\n", c.round, c.barriers, c.rank_atomic4);
    printf("  ranking by local atomics: %.1f at 4 leaves, %.1f at 16\n", c.rank_atomic4,
           c.rank_atomic16);
    if (c.rank_match4 >= 0)
        printf("  ranking by a warp match: %.1f at 4 leaves, %.1f at 16\n", c.rank_match4,
               c.rank_match16);
    else
        printf("  ranking by a warp match: none on this device\n");
    printf("  one more kernel in a launch (empty, back to back): %.1f us\n", c.launch_us);
    if (path[0])
        printf("stored in %s (%.0f ms)\n", path, ms);
    else
        printf("not stored: the cache is off (NPLUS1_CACHE=0) or has no folder (%.0f ms)\n", ms);
    return 0;
}

/* To stdout and exit 0 for --help; to stderr and exit 2 for a usage error. */
static int usage(FILE *to)
{
    fprintf(to, "usage: nplus1gen-validate [--device oclgrind] JOB\n"
                "       nplus1gen-validate [--profile-json FILE] PROFILE-JOB\n"
                "       nplus1gen-validate --calibrate\n"
                "  JOB: a folder written by nplus1gen --validate --emit-job JOB\n"
                "  PROFILE-JOB: one written by nplus1gen --profile --emit-job PROFILE-JOB;\n"
                "  the profile's JSON goes to FILE, else to PROFILE-JOB/profile.json\n"
                "  --calibrate: measure the device's cost model (NPLUS1_DEVICE picks it) and\n"
                "  store it in the choice cache's folder\n");
    return to == stdout ? 0 : 2;
}

/*
 * A run measures with a choice cache of its own, a temporary folder
 * (runtime/set_cache.c): the user's cache is neither read nor written, and
 * --reps' auto-first16-warm starts on what this run's sets stored. With
 * NPLUS1_CACHE=0 there is none.
 */
static char choice_cache[64];

int main(int argc, char **argv)
{
    const char *device = NULL, *path = NULL, *json = NULL;
    int child = 0, original_only = 0, calibrate = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return usage(stdout);
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = argv[++i];
        else if (!strcmp(argv[i], "--profile-json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--child"))
            child = 1;
        else if (!strcmp(argv[i], "--original-only"))
            original_only = 1;
        else if (!strcmp(argv[i], "--calibrate"))
            calibrate = 1;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            return usage(stderr);
    }
    if (calibrate)
        return path || device || json ? usage(stderr) : run_calibrate();
    if (!path)
        return usage(stderr);
    if (child || original_only) {
        nplus1rt_private_cache_open(choice_cache, sizeof choice_cache);
        int rc = run_job(path, original_only, json);
        nplus1rt_private_cache_remove(choice_cache);
        return rc;
    }
    if (device && strcmp(device, "oclgrind")) {
        fprintf(stderr, "nplus1gen-validate: --device takes 'oclgrind' (others: NPLUS1_DEVICE)\n");
        return 2;
    }
    return supervise(path, device, json);
}
