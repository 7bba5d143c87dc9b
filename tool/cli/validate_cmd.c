/* SPDX-License-Identifier: Apache-2.0 */
/*
 * validate_cmd.c - the --validate command (see validate_cmd.h).
 *
 * POCL loads its own LLVM into the process, and two LLVMs in one process
 * crash; the tool links libclang. So the tool writes the generated source
 * and a plain-text description of each set into a temporary directory and
 * runs `nplus1gen-validate` (libnplus1rt only) on it.
 *
 * That directory is a job (see docs/cli.md): job.desc, set.cl, original.cl
 * and inputs/, every path in job.desc relative to it. --emit-job DIR writes
 * the same job into DIR for another machine and runs nothing.
 */
#define _DEFAULT_SOURCE
#include "validate_cmd.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "race_scan.h"
#include "runner_call.h"
#include "exit_codes.h"
#include "util.h"

unsigned parse_dims(const char *s, size_t out[3])
{
    unsigned n = 0;
    while (*s && n < 3) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || v > UINT_MAX || *s == '-')
            return 0;
        out[n++] = (size_t)v;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return 0;
        s = end + 1;
    }
    return 0;
}

/* The generation's -cl-std= and -D options, then the run-time build options (as a driver's
 * _create gets them): what both builds of a run, here or in an emitted job, start with. A
 * kernel parsed as OpenCL C 2.0 (generic pointers, program-scope globals) builds as 2.0. */
static void put_macro_options(strbuf *sb, const validate_options *o)
{
    /* OpenCL's compilers take CL1.1 .. CL3.0 (and CLC++ where C++ for OpenCL is there),
     * upper case; clang's CL and CL1.0 have no such option: the device's default. The
     * user's own -cl-std in --build-options wins (one option, not two). */
    if (o->cl_std && strcasecmp(o->cl_std, "cl") && strcasecmp(o->cl_std, "cl1.0") &&
        !(o->build_options && strstr(o->build_options, "-cl-std="))) {
        sb_puts(sb, "-cl-std=");
        for (const char *p = o->cl_std; *p; p++)
            sb_putc(sb, (char)toupper((unsigned char)*p));
        sb_putc(sb, ' ');
    }
    for (unsigned i = 0; i < o->ndefines; i++)
        sb_printf(sb, "-D%s ", o->defines[i]);
    if (o->build_options)
        sb_printf(sb, "%s ", o->build_options);
}

static char *build_options(const validate_options *o)
{
    strbuf sb;
    sb_init(&sb);
    put_macro_options(&sb, o);
    /* the original is built from a string: its own folder goes first, as for #include "x" */
    char *input = realpath(o->input, NULL);
    if (input) {
        char *slash = strrchr(input, '/');
        if (slash)
            *slash = '\0';
        sb_printf(&sb, "-I%s ", input);
        free(input);
    }
    for (unsigned i = 0; i < o->nincludes; i++) {
        char *abs = realpath(o->includes[i], NULL);
        sb_printf(&sb, "-I%s ", abs ? abs : o->includes[i]);
        free(abs);
    }
    return sb_steal(&sb);
}

/* ---- --arg names: every one must name a parameter ------------------------ */

static const kernel_param *find_param(const plan *pl, const char *name, size_t len)
{
    for (unsigned i = 0; i < pl->nkernels; i++) {
        const kernel_info *k = pl->kernels[i].k;
        for (unsigned p = 0; p < k->nparams; p++)
            if (strlen(k->params[p].name) == len && !strncmp(k->params[p].name, name, len))
                return &k->params[p];
    }
    return NULL;
}

static void list_params(const plan *pl)
{
    for (unsigned i = 0; i < pl->nkernels; i++) {
        const kernel_info *k = pl->kernels[i].k;
        fprintf(stderr, "nplus1gen: note: kernel '%s' has the parameters:", k->name);
        for (unsigned p = 0; p < k->nparams; p++)
            fprintf(stderr, "%s %s", p ? "," : "", k->params[p].decl_text);
        fprintf(stderr, "\n");
    }
}

static int unknown_name(const plan *pl, const char *opt, const char *spec, size_t len)
{
    fprintf(stderr, "nplus1gen: error: %s '%s': no kernel has a parameter '%.*s'\n", opt, spec,
            (int)len, spec);
    list_params(pl);
    return EXIT_USAGE;
}

/* 1 when path names field f or a struct, array or vector that holds it ("in", "w"). */
static int field_under(const char *f, const char *path, size_t len)
{
    return !strncmp(f, path, len) && (f[len] == '\0' || f[len] == '.' || f[len] == '[');
}

/* --arg P.FIELD=V: P is a struct (a value or a buffer of them) and FIELD one of its fields. */
static int check_field(const plan *pl, const char *spec, size_t len)
{
    const char *dot = memchr(spec, '.', len);
    const kernel_param *p = find_param(pl, spec, (size_t)(dot - spec));
    if (!p)
        return unknown_name(pl, "--arg", spec, (size_t)(dot - spec));
    const char *path = dot + 1;
    size_t plen = len - (size_t)(path - spec);
    for (unsigned f = 0; f < p->nfields && plen; f++)
        if (field_under(p->fields[f].name, path, plen))
            return 0;
    fprintf(stderr, "nplus1gen: error: --arg '%s': '%s' (%s) has no field '%.*s'\n", spec,
            p->name, p->type_text, (int)plen, path);
    if (p->nfields) {
        fprintf(stderr, "nplus1gen: note: the fields of '%s' are:", p->name);
        for (unsigned f = 0; f < p->nfields && f < 32; f++)
            fprintf(stderr, "%s %s", f ? "," : "", p->fields[f].name);
        fprintf(stderr, "%s\n", p->nfields > 32 ? ", ..." : "");
    }
    return EXIT_USAGE;
}

/* Exit 2 (usage) when an --arg, --unordered or --count names no parameter. */
static int check_names(const plan *pl, const validate_options *o)
{
    for (unsigned i = 0; i < o->nargs; i++) {
        const char *eq = strchr(o->args[i], '=');
        size_t len = eq ? (size_t)(eq - o->args[i]) : strlen(o->args[i]);
        int rc = memchr(o->args[i], '.', len) ? check_field(pl, o->args[i], len) : 0;
        if (rc)
            return rc;
        if (!memchr(o->args[i], '.', len) && !find_param(pl, o->args[i], len))
            return unknown_name(pl, "--arg", o->args[i], len);
    }
    for (unsigned i = 0; i < o->nunordered; i++) {
        const char *names[2] = {o->unordered[i], o->count[i]};
        for (int n = 0; n < 2; n++) {
            if (!names[n])
                continue;
            const kernel_param *p = find_param(pl, names[n], strlen(names[n]));
            if (!p)
                return unknown_name(pl, n ? "--count" : "--unordered", names[n], strlen(names[n]));
            if (!p->is_pointer || (!n && !p->writable)) {
                fprintf(stderr, "nplus1gen: error: %s '%s': needs %s buffer, '%s' is %s\n",
                        n ? "--count" : "--unordered", names[n], n ? "a" : "a writable",
                        names[n], p->type_text);
                return EXIT_USAGE;
            }
        }
    }
    return 0;
}

/* ---- the job: what nplus1gen-validate runs ------------------------------------ */

static int write_text(const char *path, const char *text);
static int write_bytes(const char *path, const char *data, size_t n);

/*
 * file:PATH values: the file is copied into DIR/inputs/NAME.bin and the value
 * rewritten to that relative path. Returns the value to write (malloc'd), or
 * NULL after an error message.
 */
static char *job_value(const char *dir, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || strncmp(eq + 1, "file:", 5))
        return xstrdup(spec);
    char *data;
    size_t len;
    if (read_file(eq + 6, &data, &len) != 0) {
        fprintf(stderr, "nplus1gen: error: --arg '%s': cannot read '%s': %s\n", spec, eq + 6,
                strerror(errno));
        return NULL;
    }
    strbuf rel, abs;
    sb_init(&rel);
    sb_init(&abs);
    sb_printf(&rel, "inputs/%.*s.bin", (int)(eq - spec), spec);
    sb_printf(&abs, "%s/inputs", dir);
    mkdir(abs.data, 0777);
    sb_printf(&abs, "/%.*s.bin", (int)(eq - spec), spec);
    int bad = write_bytes(abs.data, data, len);
    free(data);
    sb_free(&abs);
    char *r = sb_steal(&rel);
    strbuf out;
    sb_init(&out);
    sb_printf(&out, "%.*s=file:%s", (int)(eq - spec), spec, r);
    free(r);
    if (bad) {
        fprintf(stderr, "nplus1gen: error: cannot write the input of '%s' into %s\n", spec, dir);
        sb_free(&out);
        return NULL;
    }
    return sb_steal(&out);
}

static void describe_issue12(strbuf *sb, const validate_options *o)
{
    if (o->require_all_leaves)
        job_put_require_all_leaves(sb);
    for (unsigned i = 0; i < o->nunordered; i++)
        job_put_unordered(sb, o->unordered[i], o->count[i]);
}

void validate_job_param(strbuf *sb, const kernel_param *a)
{
    job_arg ja = {.name = a->name, .type = a->type_text,
                  .kind = a->is_pointer ? 1 : a->is_image ? 2 : a->is_sampler ? 3 : 0,
                  .writable = a->writable, .constant = a->is_constant_space, .elem = a->elem,
                  .lanes = a->lanes, .size = a->size};
    job_put_arg(sb, &ja);
    for (unsigned f = 0; f < a->nfields; f++)
        job_put_field(sb, a->fields[f].offset, a->fields[f].elem, a->fields[f].count,
                      a->fields[f].name);
}


/* Copies the headers (*.h, *.clh) of folder `from` into `to`. */
/* Copies from/name to to/name (its folders made), once; 0 when it was copied now. */
static int copy_one(const char *from, const char *to, const char *name)
{
    strbuf src, dst;
    sb_init(&src);
    sb_init(&dst);
    sb_printf(&src, "%s/%s", from, name);
    sb_printf(&dst, "%s/%s", to, name);
    struct stat st;
    int rc = -1;
    char *data;
    size_t len;
    if (stat(dst.data, &st) != 0 && stat(src.data, &st) == 0 && S_ISREG(st.st_mode) &&
        read_file(src.data, &data, &len) == 0) {
        for (char *p = strchr(dst.data + strlen(to) + 1, '/'); p; p = strchr(p + 1, '/')) {
            *p = '\0';
            mkdir(dst.data, 0777);
            *p = '/';
        }
        rc = write_bytes(dst.data, data, len) == 0 ? 0 : -1;
        free(data);
    }
    sb_free(&src);
    sb_free(&dst);
    return rc;
}

/*
 * The files text's #include "..." lines name under from, copied to to with their paths,
 * and theirs in turn (a name is tried beside the including file, then at from's top):
 * "inc/platform.cl" and the "vendor.h" it includes beside it, "Dir/shared/x.h".
 */
static void copy_included(const char *text, const char *here, const char *from, const char *to,
                          int depth)
{
    for (const char *p = text; depth < 16 && (p = strstr(p, "#include")) != NULL; p += 8) {
        const char *q = p + 8;
        while (*q == ' ' || *q == '\t')
            q++;
        const char *end = *q == '"' ? strchr(q + 1, '"') : NULL;
        if (!end || end - q > 512 || memchr(q, '\n', (size_t)(end - q)))
            continue;
        char name[1024];
        for (int beside = here[0] != '\0'; beside >= 0; beside--) {
            snprintf(name, sizeof name, "%s%s%.*s", beside ? here : "", beside ? "/" : "",
                     (int)(end - q - 1), q + 1);
            if (strstr(name, "..") || copy_one(from, to, name) != 0)
                continue; /* not there, or copied already */
            char path[2048], *inner, *slash = strrchr(name, '/');
            size_t len;
            snprintf(path, sizeof path, "%s/%s", from, name);
            if (read_file(path, &inner, &len) == 0) {
                if (slash)
                    *slash = '\0';
                copy_included(inner, slash ? name : "", from, to, depth + 1);
                free(inner);
            }
            break;
        }
    }
}

/*
 * Copies the headers of from into to: its own *.h and *.clh, and every file the original
 * (text) includes from it, subfolders and included .cl files too, with their paths.
 */
static void copy_headers(const char *from, const char *to, const char *text)
{
    DIR *d = opendir(from);
    mkdir(to, 0777);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        const char *ext = strrchr(e->d_name, '.');
        if (e->d_name[0] != '.' && ext && (!strcmp(ext, ".h") || !strcmp(ext, ".clh")))
            copy_one(from, to, e->d_name);
    }
    if (d)
        closedir(d);
    if (text)
        copy_included(text, "", from, to, 0);
}

/*
 * An emitted job's build options: the headers of the input's folder and of
 * each -I folder are copied into DIR/include/N, named {JOB}/include/N (the
 * runner puts the job's folder in place of {JOB}).
 */
static char *job_options(const validate_options *o, const char *dir)
{
    strbuf sb;
    sb_init(&sb);
    put_macro_options(&sb, o);
    char *input = xstrdup(o->input), *text = NULL;
    size_t text_len;
    if (read_file(o->input, &text, &text_len) != 0)
        text = NULL; /* only the folders' own headers then */
    char *slash = strrchr(input, '/');
    if (slash)
        *slash = '\0';
    strbuf inc;
    sb_init(&inc);
    sb_printf(&inc, "%s/include", dir);
    mkdir(inc.data, 0777);
    for (unsigned i = 0; i <= o->nincludes; i++) {
        const char *from = i == 0 ? (slash ? input : ".") : o->includes[i - 1];
        strbuf to;
        sb_init(&to);
        sb_printf(&to, "%s/%u", inc.data, i);
        copy_headers(from, to.data, text);
        sb_free(&to);
        sb_printf(&sb, "-I{JOB}/include/%u ", i);
    }
    sb_free(&inc);
    free(input);
    free(text);
    return sb_steal(&sb);
}

/* "inputs NAME[<INDEX,INDEX] ..." after a leaf line: what its decisions read. */
static void describe_inputs(strbuf *sb, const leaf *lf)
{
    const char **names = calloc(lf->ninputs + 1, sizeof *names);
    const char **by = calloc(lf->ninputs + 1, sizeof *by);
    for (unsigned i = 0; names && by && i < lf->ninputs; i++) {
        names[i] = lf->inputs[i].name;
        by[i] = lf->inputs[i].indexed_by;
    }
    if (names && by)
        job_put_inputs(sb, lf->ninputs, names, by);
    free(names);
    free(by);
}

void validate_job_racy(strbuf *sb, const analysis *an, const kernel_info *k)
{
    unsigned char *racy = xcalloc(k->nparams + 1, 1);
    const char **names = xcalloc(k->nparams + 1, sizeof *names);
    unsigned n = 0;
    race_scan(an, k, racy);
    for (unsigned p = 0; p < k->nparams; p++)
        if (racy[p])
            names[n++] = k->params[p].name;
    job_put_racy(sb, n, names);
    free(names);
    free(racy);
}

/* The kernels of one set: each kernel's line, its args and its leaves. */
static void describe_set(strbuf *sb, const plan *pl, dispatch d)
{
    for (unsigned i = 0; i < pl->nkernels; i++) {
        const kernel_plan *kp = &pl->kernels[i];
        const kernel_info *k = kp->k;
        /* has_tile: AUTO_TILE_*, 2 and 3 name the tile's kind (the runner's labels) */
        job_kernel jk = {.name = k->name, .strategy = kp->strategy,
                         .dispatch = d, .wg = pl->opt.wg,
                         .reqd_wg = {k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2]},
                         .nkernels = kp->nkernels, .split = kp->split,
                         .has_tile = kp->tile_candidate};
        job_put_kernel(sb, &jk);
        for (unsigned p = 0; p < k->nparams; p++)
            validate_job_param(sb, &k->params[p]);
        validate_job_racy(sb, pl->an, k);
        for (unsigned l = 0; l < kp->nleaves; l++) {
            job_put_leaf(sb, kp->leaves[l].kernel, kp->leaves[l].condition);
            describe_inputs(sb, &kp->leaves[l]);
        }
        job_put_end(sb);
    }
}

/* Set i's file in the job: set.cl alone, else set-STRATEGY-DISPATCH.cl (malloc'd). */
static char *set_file(const validate_set *sets, unsigned n, unsigned i)
{
    strbuf sb;
    sb_init(&sb);
    if (n == 1) {
        sb_puts(&sb, "set.cl");
        return sb_steal(&sb);
    }
    sb_puts(&sb, "set-");
    for (const char *p = sets[i].label; *p; p++)
        sb_putc(&sb, *p == '/' ? '-' : *p);
    sb_puts(&sb, ".cl");
    return sb_steal(&sb);
}

/* The description nplus1gen-validate reads: see common/job.h. */
static char *describe(const validate_set *sets, unsigned n, const validate_options *o,
                      const char *dir)
{
    strbuf sb;
    sb_init(&sb);
    char *opts = o->emit_job ? job_options(o, dir) : build_options(o);
    const char *base = strrchr(o->input, '/'); /* a job for another machine: no local paths */
    char *first = set_file(sets, n, 0);
    job_put_head(&sb, first, o->emit_job && base ? base + 1 : o->input, opts);
    free(first);
    free(opts);
    job_put_launch(&sb, o->dim, o->global, o->offset, o->local, o->has_local);
    job_put_check(&sb, o->seed, o->ulp, o->reps, o->quiet);
    for (unsigned i = 0; i < o->nargs; i++) {
        char *v = job_value(dir, o->args[i]);
        if (!v) {
            sb_free(&sb);
            return NULL;
        }
        job_put_value(&sb, v);
        free(v);
    }
    describe_issue12(&sb, o);
    for (unsigned i = 0; i < n; i++) {
        if (n > 1) {
            char *file = set_file(sets, n, i);
            job_put_set(&sb, sets[i].label, file);
            free(file);
        }
        describe_set(&sb, sets[i].pl, sets[i].dispatch);
    }
    return sb_steal(&sb);
}

static int write_bytes(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, n, f) != n;
    return (fclose(f) != 0 || bad) ? -1 : 0;
}

static int write_text(const char *path, const char *text)
{
    return write_bytes(path, text, strlen(text));
}


/* Each set's kernel file into dir: 0, or -1. */
static int write_sets(const validate_set *sets, unsigned n, const char *dir)
{
    for (unsigned i = 0; i < n; i++) {
        char *name = set_file(sets, n, i), *path = path_join(dir, name);
        int bad = write_text(path, sets[i].out->kernel_file);
        free(name);
        free(path);
        if (bad)
            return -1;
    }
    return 0;
}

/* Writes the sets, original.cl, inputs/ and job.desc into dir; EXIT_OK, EXIT_USAGE (a bad
 * --arg) or EXIT_INTERNAL. */
static int write_job(const validate_set *sets, unsigned n, const validate_options *o,
                     const char *dir)
{
    char *original = NULL;
    size_t len;
    if (read_file(o->input, &original, &len) != 0) {
        fprintf(stderr, "nplus1gen: error: cannot read '%s': %s\n", o->input, strerror(errno));
        return EXIT_INTERNAL;
    }
    char *text = describe(sets, n, o, dir);
    char *orig = path_join(dir, "original.cl"), *desc = path_join(dir, "job.desc");
    int rc = text ? EXIT_OK : EXIT_USAGE;
    if (text && (write_sets(sets, n, dir) || write_bytes(orig, original, len) ||
                 write_text(desc, text))) {
        fprintf(stderr, "nplus1gen: error: cannot write to %s: %s\n", dir, strerror(errno));
        rc = EXIT_INTERNAL;
    }
    free(text);
    free(original);
    free(orig);
    free(desc);
    return rc;
}




static int run_runner(const char *job_dir, const validate_options *o)
{
    const char *with_device[] = {"--device", o->device, job_dir, NULL};
    const char *plain[] = {job_dir, NULL};
    unsigned timeout = o->timeout;
    int sig = 0;
    int rc = runner_run(o->device ? with_device : plain, timeout, o->device_select, &sig);
    if (rc == RUNNER_TIMED_OUT)
        fprintf(stderr, "nplus1gen: error: validation stopped after %u s (--timeout): a "
                        "kernel ran too long; check the --arg values (loop bounds, sizes)\n",
                timeout);
    else if (rc == RUNNER_KILLED)
        fprintf(stderr, "nplus1gen: error: the validation runner died (signal %d): a kernel "
                        "probably read or wrote out of bounds; check --arg sizes and values\n",
                sig);
    return rc < 0 ? EXIT_INTERNAL : rc; /* the runner's exit: the same statuses */
}

int validate_run_sets(const validate_set *sets, unsigned n, const validate_options *o)
{
    int rc = check_names(sets[0].pl, o);
    if (rc != EXIT_OK)
        return rc;
    if (o->emit_job) {
        if (mkdir(o->emit_job, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "nplus1gen: error: cannot create '%s': %s\n", o->emit_job,
                    strerror(errno));
            return EXIT_INTERNAL;
        }
        rc = write_job(sets, n, o, o->emit_job);
        if (rc == EXIT_OK && !o->quiet)
            printf("wrote the validation job to %s: run it with nplus1gen-validate %s\n",
                   o->emit_job, o->emit_job);
        return rc;
    }
    char dir[] = "/tmp/nplus1gen-validate-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "nplus1gen: error: cannot create a temporary directory: %s\n",
                strerror(errno));
        return EXIT_INTERNAL;
    }
    rc = write_job(sets, n, o, dir);
    if (rc == EXIT_OK)
        rc = run_runner(dir, o);
    remove_tree(dir);
    return rc;
}

int validate_run(const plan *pl, dispatch d, const emit_output *out, const validate_options *o)
{
    validate_set one = {NULL, pl, d, out};
    return validate_run_sets(&one, 1, o);
}

/* For the profile's jobs (profile_cmd.c): the same copies of inputs and headers. */
char *validate_job_value(const char *dir, const char *spec)
{
    return job_value(dir, spec);
}

char *validate_job_options(const validate_options *o, const char *dir)
{
    return o->emit_job ? job_options(o, dir) : build_options(o);
}
