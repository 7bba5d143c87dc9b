/*
 * validate_runner.c - nplus1gen-validate, the device side of --validate.
 *
 * Reads the description nplus1gen wrote (tool/validate_cmd.c), builds the
 * original kernel and the generated set with libnplus1rt, runs both on
 * identical seeded inputs, and prints the diff per leaf. Links no libclang:
 * POCL brings its own LLVM. Exit: 0 all equal, 1 a mismatch, 2 a bad --arg
 * value, 3 cannot run.
 *
 * Description lines:
 *   source PATH | original PATH | options TEXT
 *   launch DIM G0 G1 G2 O0 O1 O2 L0 L1 L2 HAS_LOCAL
 *   check SEED ULP REPS QUIET
 *   value NAME=VALUE | NAME=size:N           (any number)
 *   kernel NAME STRATEGY DISPATCH WG R0 R1 R2 NLEAFKERNELS SPLIT [HAS_TILE]
 *   arg NAME PTR WRITABLE CONSTANT ELEM LANES SIZE TYPE...   (in order)
 *   leaf KERNEL|-1 CONDITION...                             (every path)
 *   end
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

#define MAX_ARGS 128
#define MAX_LEAVES 80

typedef struct kdesc {
    char *name;                   /* any length: OpenCL C sets no limit */
    nplus1rt_set_desc d;
    nplus1rt_arg args[MAX_ARGS];
    char *arg_names[MAX_ARGS], *arg_types[MAX_ARGS];
    char *leaf_names[MAX_LEAVES];
    int path_kernel[MAX_LEAVES];
    char *path_cond[MAX_LEAVES];
    unsigned npaths;
    char *count, *scan, *scatter, *fused, *tile;
} kdesc;

typedef struct job {
    char *source, *original, *options;
    nplus1rt_validate_opts o;
    int quiet;
    char *values[MAX_ARGS];
    unsigned nvalues;
} job;

static char *dup_rest(const char *s)
{
    while (*s == ' ')
        s++;
    char *d = strdup(s);
    size_t n = d ? strlen(d) : 0;
    while (n && (d[n - 1] == '\n' || d[n - 1] == '\r'))
        d[--n] = '\0';
    return d;
}

/* ---- argument values ---------------------------------------------------------- */

static int parse_value(const nplus1rt_arg *a, const char *text, unsigned char *out)
{
    size_t ss = nplus1rt_elem_size(a->elem), lanes = a->size / ss;
    memset(out, 0, a->size);
    const char *p = text;
    for (size_t i = 0; i < lanes; i++) {
        char *end;
        unsigned char *dst = out + i * ss;
        if (a->elem == NPLUS1RT_F32) {
            float f = strtof(p, &end);
            memcpy(dst, &f, 4);
        } else if (a->elem == NPLUS1RT_F64) {
            double f = strtod(p, &end);
            memcpy(dst, &f, 8);
        } else if (a->elem == NPLUS1RT_F16) {
            return -1;
        } else {
            long long v = strtoll(p, &end, 0);
            memcpy(dst, &v, ss);
        }
        if (end == p)
            return -1;
        if (*end == '\0') {
            for (size_t j = i + 1; j < lanes; j++) /* one value for a vector: splat */
                memcpy(out + j * ss, dst, ss);
            return 0;
        }
        if (*end != ',')
            return -1;
        p = end + 1;
    }
    return *p ? -1 : 0;
}

typedef struct values {
    size_t elems[MAX_ARGS];
    const void *ptr[MAX_ARGS];
    unsigned char storage[MAX_ARGS][128];
} values;

static int setup_values(const job *j, const kdesc *k, values *v)
{
    memset(v, 0, sizeof *v);
    for (unsigned i = 0; i < j->nvalues; i++) {
        const char *spec = j->values[i], *eq = strchr(spec, '=');
        if (!eq) {
            fprintf(stderr, "nplus1gen: error: --arg '%s': expected NAME=VALUE or NAME=size:N\n",
                    spec);
            return -1;
        }
        size_t n = (size_t)(eq - spec);
        unsigned p = 0;
        while (p < k->d.nargs && (strlen(k->args[p].name) != n || strncmp(k->args[p].name, spec, n)))
            p++;
        if (p == k->d.nargs)
            continue; /* a parameter of another kernel */
        const nplus1rt_arg *a = &k->args[p];
        const char *val = eq + 1;
        if (!strncmp(val, "size:", 5)) {
            char *end;
            unsigned long long e = strtoull(val + 5, &end, 10);
            if (a->kind != NPLUS1RT_ARG_BUFFER || *end || e == 0) {
                fprintf(stderr, "nplus1gen: error: --arg '%s': size:N needs a buffer and N > 0\n",
                        spec);
                return -1;
            }
            v->elems[p] = (size_t)e;
        } else if (a->kind == NPLUS1RT_ARG_VALUE && parse_value(a, val, v->storage[p]) == 0) {
            v->ptr[p] = v->storage[p];
        } else {
            fprintf(stderr, "nplus1gen: error: --arg '%s': not a valid value for %s %s\n", spec,
                    a->type, a->name);
            return -1;
        }
    }
    return 0;
}

/* ---- description ---------------------------------------------------------------- */

/* "<name><suffix><n>" (n < 0: none), malloc'd. */
static char *kernel_name(const char *name, const char *suffix, int n)
{
    size_t len = strlen(name) + strlen(suffix) + 16;
    char *s = malloc(len);
    if (s && n >= 0)
        snprintf(s, len, "%s%s%d", name, suffix, n);
    else if (s)
        snprintf(s, len, "%s%s", name, suffix);
    return s;
}

static int read_kernel_line(kdesc *k, const char *line)
{
    unsigned st, disp, wg, r0, r1, r2, nl, split, tile = 0;
    int got = sscanf(line, "kernel %ms %u %u %u %u %u %u %u %u %u", &k->name, &st, &disp, &wg,
                     &r0, &r1, &r2, &nl, &split, &tile); /* tile: absent in older jobs */
    if (got < 9 || nl > MAX_LEAVES)
        return -1;
    k->count = kernel_name(k->name, "__nplus1_count", -1);
    k->scan = kernel_name(k->name, "__nplus1_scan", -1);
    k->scatter = kernel_name(k->name, "__nplus1_scatter", -1);
    k->fused = kernel_name(k->name, "__nplus1_fused", -1);
    k->tile = kernel_name(k->name, "__nplus1_tile", -1);
    for (unsigned l = 0; l < nl; l++)
        k->leaf_names[l] = kernel_name(k->name, "__nplus1_leaf", (int)l);
    nplus1rt_set_desc d = {k->name, NULL, 0, k->args, nl, (const char *const *)k->leaf_names,
                           k->count, st == NPLUS1RT_ORDERED ? k->scan : NULL, k->scatter,
                           k->fused, (nplus1rt_strategy)st, (nplus1rt_dispatch)disp, wg,
                           {r0, r1, r2}, (nplus1rt_split)split, tile ? k->tile : NULL};
    k->d = d;
    return 0;
}

static int read_arg_line(kdesc *k, const char *line)
{
    char *name = NULL;
    int ptr, wr, cs, elem, consumed = 0;
    unsigned lanes, size;
    if (k->d.nargs >= MAX_ARGS ||
        sscanf(line, "arg %ms %d %d %d %d %u %u%n", &name, &ptr, &wr, &cs, &elem, &lanes, &size,
               &consumed) != 7) {
        free(name);
        return -1;
    }
    unsigned i = k->d.nargs++;
    k->arg_names[i] = name;
    k->arg_types[i] = dup_rest(line + consumed);
    nplus1rt_arg a = {k->arg_names[i], k->arg_types[i],
                      ptr ? NPLUS1RT_ARG_BUFFER : NPLUS1RT_ARG_VALUE, wr, cs,
                      (nplus1rt_elem)elem, lanes, size};
    k->args[i] = a;
    return 0;
}

static int read_leaf_line(kdesc *k, const char *line)
{
    int kernel, consumed = 0;
    if (k->npaths >= MAX_LEAVES || sscanf(line, "leaf %d%n", &kernel, &consumed) != 1)
        return -1;
    k->path_kernel[k->npaths] = kernel;
    k->path_cond[k->npaths++] = dup_rest(line + consumed);
    return 0;
}

static void free_kernel(kdesc *k)
{
    for (unsigned i = 0; i < k->d.nargs; i++) {
        free(k->arg_names[i]);
        free(k->arg_types[i]);
    }
    for (unsigned l = 0; l < k->d.nleaves; l++)
        free(k->leaf_names[l]);
    for (unsigned l = 0; l < k->npaths; l++)
        free(k->path_cond[l]);
    free(k->name);
    free(k->count);
    free(k->scan);
    free(k->scatter);
    free(k->fused);
    free(k->tile);
    memset(k, 0, sizeof *k);
}

/* ---- running ---------------------------------------------------------------------- */

/* --reps: the original, each candidate forced, and auto (what it chose), side by side. */
static void print_variants(const nplus1rt_validation *r)
{
    if (!(r->original_ms > 0) || !r->nvariants)
        return;
    printf("  side by side (median wall; x = original / variant):\n");
    printf("    %-18s %12.3f ms  1.00x\n", "original", r->original_ms);
    for (unsigned i = 0; i < r->nvariants; i++) {
        double ms = r->variants[i].ms;
        printf("    %-18s %12.3f ms  %.2fx  %s%s\n", r->variants[i].name, ms,
               ms > 0 ? r->original_ms / ms : 0.0, r->variants[i].chose[0] ? "chose " : "forced",
               r->variants[i].chose);
    }
}

static void print_result(const kdesc *k, const nplus1rt_validation *r)
{
    printf("kernel %s: %zu values compared, %zu mismatches\n", k->name, r->compared, r->mismatches);
    for (unsigned l = 0; l < k->npaths; l++) {
        int kern = k->path_kernel[l];
        if (kern < 0 || kern >= 64) {
            printf("  leaf %u (empty: no kernel, no bucket)  when %s\n", l, k->path_cond[l]);
            continue;
        }
        size_t items = r->leaf_items[kern];
        printf("  leaf %u -> kernel %d: %9zu items, %zu mismatches%s  when %s\n", l, kern, items,
               r->leaf_mismatches[kern], items ? "" : " (not exercised)", k->path_cond[l]);
    }
    printf("  items whose path does nothing: %zu\n", r->empty_items);
    for (unsigned i = 0; i < r->nfirst; i++)
        printf("  mismatch: %s[%zu] (leaf kernel %d): original %.9g, generated %.9g\n",
               k->args[r->first[i].arg].name, r->first[i].index, r->first[i].leaf,
               r->first[i].expected, r->first[i].got);
    if (r->original_ms > 0)
        printf("  time (median wall): original %.3f ms, generated %.3f ms, speedup %.2fx\n",
               r->original_ms, r->generated_ms, r->original_ms / r->generated_ms);
    print_variants(r);
}

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

static int run_kernel(device_ctx *dc, const job *j, kdesc *k, const char *source,
                      const char *original)
{
    values v;
    if (setup_values(j, k, &v) != 0)
        return 2; /* a bad --arg: a usage error */
    if (open_device(dc, j) != 0)
        return 3;
    k->d.source = source;
    nplus1rt_validate_opts o = j->o;
    o.buffer_elems = v.elems;
    o.values = v.ptr;
    nplus1rt_validation r;
    cl_int err = nplus1rt_validate(dc->ctx, dc->dev.device, dc->q, &k->d, original, j->options,
                                   NULL, NULL, &o, &r);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "nplus1gen: error: validating '%s' could not run: %s\n", k->name,
                r.message);
        return 3;
    }
    print_result(k, &r);
    fflush(stdout);
    return r.mismatches ? 1 : 0;
}

static int read_job_line(job *j, const char *line)
{
    nplus1rt_validate_opts *o = &j->o;
    unsigned long long seed;
    if (!strncmp(line, "source ", 7))
        j->source = dup_rest(line + 7);
    else if (!strncmp(line, "original ", 9))
        j->original = dup_rest(line + 9);
    else if (!strncmp(line, "options", 7))
        j->options = dup_rest(line + 7);
    else if (!strncmp(line, "value ", 6) && j->nvalues < MAX_ARGS)
        j->values[j->nvalues++] = dup_rest(line + 6);
    else if (sscanf(line, "launch %u %zu %zu %zu %zu %zu %zu %zu %zu %zu %d", &o->work_dim,
                    &o->global_size[0], &o->global_size[1], &o->global_size[2],
                    &o->global_offset[0], &o->global_offset[1], &o->global_offset[2],
                    &o->local_size[0], &o->local_size[1], &o->local_size[2],
                    &o->has_local_size) == 11)
        ;
    else if (sscanf(line, "check %llu %u %d %d", &seed, &o->ulp_tol, &o->reps, &j->quiet) == 4)
        o->seed = seed;
    else
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: nplus1gen-validate DESCRIPTION (written by nplus1gen --validate)\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "nplus1gen-validate: cannot read '%s': %s\n", argv[1], strerror(errno));
        return 3;
    }
    job j;
    memset(&j, 0, sizeof j);
    static kdesc k;
    device_ctx dc;
    memset(&dc, 0, sizeof dc);
    char *source = NULL, *original = NULL, *line = NULL;
    size_t cap = 0;
    int rc = 0, in_kernel = 0;
    while (rc < 2 && getline(&line, &cap, f) > 0) { /* lines of any length */
        int bad = 0;
        if (!strncmp(line, "kernel ", 7)) {
            bad = read_kernel_line(&k, line);
            in_kernel = 1;
        } else if (in_kernel && !strncmp(line, "arg ", 4)) {
            bad = read_arg_line(&k, line);
        } else if (in_kernel && !strncmp(line, "leaf ", 5)) {
            bad = read_leaf_line(&k, line);
        } else if (in_kernel && !strncmp(line, "end", 3)) {
            if (!source && j.source && j.original) {
                source = nplus1rt_read_file(j.source);
                original = nplus1rt_read_file(j.original);
            }
            int krc = source && original ? run_kernel(&dc, &j, &k, source, original) : 3;
            rc = krc > rc ? krc : rc;
            free_kernel(&k);
            in_kernel = 0;
        } else {
            bad = read_job_line(&j, line);
        }
        if (bad) {
            fprintf(stderr, "nplus1gen-validate: bad description line: %s", line);
            rc = 3;
        }
    }
    fclose(f);
    free(line);
    free_kernel(&k);
    if (rc < 2)
        printf("%s\n", rc == 0 ? "validation passed: the generated set matches the original"
                               : "validation FAILED: outputs differ");
    free(source);
    free(original);
    free(j.source);
    free(j.original);
    free(j.options);
    for (unsigned i = 0; i < j.nvalues; i++)
        free(j.values[i]);
    nplus1rt_cache_clear();
    if (dc.open) {
        clReleaseCommandQueue(dc.q);
        clReleaseContext(dc.ctx);
    }
    return rc;
}
