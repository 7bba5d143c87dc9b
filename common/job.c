/* SPDX-License-Identifier: Apache-2.0 */
/*
 * job.c - the job description, written and read (see job.h): the one place
 * that knows job.desc's lines. nplus1gen links the writer (no libclang
 * needed: plain data in), nplus1gen-validate the reader.
 */
#define _DEFAULT_SOURCE
#include "job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ----------------------------------------------------------------------- */

void job_put_text(strbuf *sb, const char *key, const char *value)
{
    sb_printf(sb, "%s ", key);
    for (const char *p = value; *p; p++)
        sb_putc(sb, *p == '\n' ? ' ' : *p);
    sb_putc(sb, '\n');
}

void job_put_head(strbuf *sb, const char *source, const char *input, const char *options)
{
    sb_printf(sb, "source %s\noriginal original.cl\n", source);
    job_put_text(sb, "input", input);
    job_put_text(sb, "options", options);
}

void job_put_set(strbuf *sb, const char *label, const char *source)
{
    sb_printf(sb, "set %s %s\n", label, source);
}

void job_put_launch(strbuf *sb, unsigned dim, const size_t global[3], const size_t offset[3],
                    const size_t local[3], int has_local)
{
    sb_printf(sb, "launch %u %zu %zu %zu %zu %zu %zu %zu %zu %zu %d\n", dim, global[0],
              global[1], global[2], offset[0], offset[1], offset[2], local[0], local[1],
              local[2], has_local);
}

void job_put_check(strbuf *sb, unsigned long long seed, unsigned ulp, int reps, int quiet)
{
    sb_printf(sb, "check %llu %u %d %d\n", seed, ulp, reps, quiet);
}

void job_put_value(strbuf *sb, const char *spec)
{
    job_put_text(sb, "value", spec);
}

void job_put_require_all_leaves(strbuf *sb)
{
    sb_puts(sb, "require_all_leaves\n");
}

void job_put_unordered(strbuf *sb, const char *name, const char *count)
{
    sb_printf(sb, "unordered %s %s\n", name, count ? count : "-");
}

void job_put_profile(strbuf *sb, const profile_layout *lay, unsigned long long memory,
                     unsigned long long items, unsigned width, const char *tree)
{
    sb_printf(sb, "profile %u %u %u %u %llu %llu %u %s\n", lay->unit, lay->every, lay->units,
              lay->slot, memory, items, width, tree);
}

void job_put_kernel(strbuf *sb, const job_kernel *k)
{
    sb_printf(sb, "kernel %s %u %u %u %u %u %u %u %u", k->name, k->strategy, k->dispatch, k->wg,
              k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2], k->nkernels, k->split);
    if (k->has_tile >= 0)
        sb_printf(sb, " %d", k->has_tile);
    sb_putc(sb, '\n');
}

void job_put_arg(strbuf *sb, const job_arg *a)
{
    sb_printf(sb, "arg %s %d %d %d %d %u %u ", a->name, a->kind, a->writable, a->constant,
              a->elem, a->lanes, a->size);
    job_put_text(sb, "", a->type);
}

void job_put_field(strbuf *sb, unsigned offset, int elem, unsigned count, const char *path)
{
    sb_printf(sb, "field %u %d %u %s\n", offset, elem, count, path);
}

void job_put_leaf(strbuf *sb, int kernel, const char *condition)
{
    sb_printf(sb, "leaf %d ", kernel);
    job_put_text(sb, "", condition);
}

void job_put_inputs(strbuf *sb, unsigned n, const char *const *names,
                    const char *const *indexed_by)
{
    if (!n)
        return;
    sb_puts(sb, "inputs");
    for (unsigned i = 0; i < n; i++)
        sb_printf(sb, " %s%s%s", names[i], indexed_by[i] ? "<" : "",
                  indexed_by[i] ? indexed_by[i] : "");
    sb_putc(sb, '\n');
}

void job_put_racy(strbuf *sb, unsigned n, const char *const *names)
{
    if (!n)
        return;
    sb_puts(sb, "racy");
    for (unsigned i = 0; i < n; i++)
        sb_printf(sb, " %s", names[i]);
    sb_putc(sb, '\n');
}

void job_put_end(strbuf *sb)
{
    sb_puts(sb, "end\n");
}

/* ---- reading: the job's lines -------------------------------------------------------- */

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


/* The build options with the job's folder in place of each {JOB} (emitted jobs' headers). */
static char *job_options(const job *j, const char *text)
{
    char *rest = dup_rest(text);
    size_t n = 0, extra = strlen(j->dir) + 8;
    for (const char *p = rest; p && (p = strstr(p, "{JOB}")) != NULL; p += 5)
        n++;
    char *out = rest ? malloc(strlen(rest) + n * extra + 1) : NULL;
    if (!out)
        return rest;
    char *w = out;
    for (const char *p = rest; *p;) {
        if (!strncmp(p, "{JOB}", 5)) {
            w += sprintf(w, "%s", j->dir);
            p += 5;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    free(rest);
    return out;
}

char *job_path(const job *j, const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    size_t n = strlen(j->dir) + strlen(path) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", j->dir, path);
    return s;
}

/* ---- reading: kernels ------------------------------------------------------------- */

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

int job_read_kernel(kdesc *k, const char *line)
{
    unsigned st, disp, wg, r0, r1, r2, nl, split, tile = 0;
    int got = sscanf(line, "kernel %ms %u %u %u %u %u %u %u %u %u", &k->name, &st, &disp, &wg,
                     &r0, &r1, &r2, &nl, &split, &tile); /* tile: absent in older jobs */
    if (got < 9 || nl > MAX_LEAVES)
        return -1;
    k->count = kernel_name(k->name, NPLUS1RT_SUFFIX_COUNT, -1);
    k->scan = kernel_name(k->name, NPLUS1RT_SUFFIX_SCAN, -1);
    k->scatter = kernel_name(k->name, NPLUS1RT_SUFFIX_SCATTER, -1);
    k->fused = kernel_name(k->name, NPLUS1RT_SUFFIX_FUSED, -1);
    k->tile = kernel_name(k->name, NPLUS1RT_SUFFIX_TILE, -1);
    for (unsigned l = 0; l < nl; l++)
        k->leaf_names[l] = kernel_name(k->name, NPLUS1RT_SUFFIX_LEAF, (int)l);
    k->d = (nplus1rt_set_desc){
        .kernel = k->name,
        .nargs = 0, /* the arg lines that follow count them */
        .args = k->args,
        .nleaves = nl,
        .leaf_kernels = (const char *const *)k->leaf_names,
        .count_kernel = k->count,
        .scan_kernel = st == NPLUS1RT_ORDERED ? k->scan : NULL,
        .scatter_kernel = k->scatter,
        .fused_kernel = k->fused,
        .strategy = (nplus1rt_strategy)st,
        .dispatch = (nplus1rt_dispatch)disp,
        .wg = wg,
        .reqd_local = {r0, r1, r2},
        .split = (nplus1rt_split)split,
        .format_version = NPLUS1RT_FORMAT_VERSION,
        .tile_kernel = tile ? k->tile : NULL,
    };
    k->tile_kind = tile;
    return 0;
}

static int read_arg_line(kdesc *k, const char *line)
{
    char *name = NULL;
    int ptr, wr, cs, elem, consumed = 0;
    unsigned lanes, size;
    if (k->d.nargs >= MAX_ARGS ||
        sscanf(line, "arg %ms %d %d %d %d %u %u%n", &name, &ptr, &wr, &cs, &elem, &lanes, &size,
               &consumed) != 7 || ptr < 0 || ptr > 3) {
        free(name);
        return -1;
    }
    unsigned i = k->d.nargs++;
    k->arg_names[i] = name;
    k->arg_types[i] = dup_rest(line + consumed);
    static const nplus1rt_arg_kind kinds[] = {NPLUS1RT_ARG_VALUE, NPLUS1RT_ARG_BUFFER,
                                              NPLUS1RT_ARG_IMAGE, NPLUS1RT_ARG_SAMPLER};
    nplus1rt_arg a = {k->arg_names[i], k->arg_types[i], kinds[ptr], wr, cs,
                      (nplus1rt_elem)elem, lanes, size};
    k->args[i] = a;
    return 0;
}

static int read_field_line(kdesc *k, const char *line)
{
    unsigned long off;
    int elem, consumed = 0;
    unsigned count;
    if (!k->d.nargs || sscanf(line, "field %lu %d %u%n", &off, &elem, &count, &consumed) != 3 ||
        elem < NPLUS1RT_I8 || elem > NPLUS1RT_F64)
        return -1;
    unsigned a = k->d.nargs - 1;
    if (k->nfields[a] >= MAX_FIELDS)
        return 0;
    nplus1rt_field *f = realloc(k->fields[a], (k->nfields[a] + 1) * sizeof *f);
    if (f)
        k->fields[a] = f;
    char **names = realloc(k->field_names[a], (k->nfields[a] + 1) * sizeof *names);
    if (names)
        k->field_names[a] = names;
    char *name = dup_rest(line + consumed); /* absent in jobs from before names: "" */
    if (!f || !names || !name) {
        free(name);
        return -1;
    }
    names[k->nfields[a]] = name;
    f[k->nfields[a]++] = (nplus1rt_field){off, (nplus1rt_elem)elem, count};
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

static int read_inputs_line(kdesc *k, const char *line)
{
    if (!k->npaths || k->path_inputs[k->npaths - 1])
        return -1;
    k->path_inputs[k->npaths - 1] = dup_rest(line + strlen("inputs"));
    return 0;
}

/* racy NAME ...: each a parameter read already (the line follows the args). */
static int read_racy_line(kdesc *k, const char *line)
{
    const char *p = line + strlen("racy");
    for (;;) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t\r\n");
        if (!n)
            return 0;
        int a = kdesc_find_arg(k, p, n);
        if (a < 0)
            return -1;
        k->racy[a] = 1;
        p += n;
    }
}

int kdesc_find_arg(const kdesc *k, const char *name, size_t n)
{
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (strlen(k->args[p].name) == n && !strncmp(k->args[p].name, name, n))
            return (int)p;
    return -1;
}

int kdesc_is_struct(const kdesc *k, unsigned p)
{
    return k->nfields[p] > 0;
}

void kdesc_free(kdesc *k)
{
    for (unsigned i = 0; i < k->d.nargs; i++) {
        free(k->arg_names[i]);
        free(k->arg_types[i]);
        free(k->fields[i]);
        for (unsigned f = 0; f < k->nfields[i]; f++)
            free(k->field_names[i][f]);
        free(k->field_names[i]);
    }
    for (unsigned l = 0; l < k->d.nleaves; l++)
        free(k->leaf_names[l]);
    for (unsigned l = 0; l < k->npaths; l++) {
        free(k->path_cond[l]);
        free(k->path_inputs[l]);
    }
    free(k->name);
    free(k->count);
    free(k->scan);
    free(k->scatter);
    free(k->fused);
    free(k->tile);
    memset(k, 0, sizeof *k);
}

/* The profile line; on the second pass the layout stays the one planned for it. */
static int read_profile_line(job *j, const char *line)
{
    profile_layout lay;
    char tree[4096];
    if (sscanf(line, "profile %u %u %u %u %llu %llu %u %4095s", &lay.unit, &lay.every,
               &lay.units, &lay.slot, &j->prof_memory, &j->prof_items, &j->prof_width,
               tree) != 8 || lay.unit == 0 || lay.slot < 8 || lay.slot % 4)
        return -1;
    if (j->prof_pass < 2)
        j->lay = lay;
    free(j->prof_tree);
    j->prof_tree = strdup(tree);
    j->profile = 1;
    return 0;
}

/* `set LABEL PATH`: the set the kernels that follow run. -1: bad. */
static int read_set_line(job *j, const char *rest)
{
    size_t n = strcspn(rest, " \n");
    if (!n || rest[n] != ' ' || rest[n + 1] == '\n' || !rest[n + 1])
        return -1;
    free(j->set_label);
    free(j->source);
    j->set_label = strndup(rest, n);
    j->source = dup_rest(rest + n + 1);
    j->nsets++;
    return j->set_label && j->source ? 0 : -1;
}

int job_read_line(job *j, const char *line)
{
    nplus1rt_validate_opts *o = &j->o;
    unsigned long long seed;
    if (!strncmp(line, "source ", 7)) {
        free(j->source);
        j->source = dup_rest(line + 7);
    } else if (!strncmp(line, "set ", 4))
        return read_set_line(j, line + 4);
    else if (!strncmp(line, "original ", 9))
        j->original = dup_rest(line + 9);
    else if (!strncmp(line, "options", 7))
        j->options = job_options(j, line + 7);
    else if (!strncmp(line, "value ", 6) && j->nvalues < MAX_ARGS)
        j->values[j->nvalues++] = dup_rest(line + 6);
    else if (!strncmp(line, "require_all_leaves", 18))
        j->require_all_leaves = 1;
    else if (!strncmp(line, "profile ", 8))
        return read_profile_line(j, line);
    else if (!strncmp(line, "input ", 6)) { /* the user's file name, for messages and JSON */
        free(j->input);
        j->input = dup_rest(line + 6);
    }
    else if (!strncmp(line, "unordered ", 10) && j->nunordered < MAX_ARGS &&
             sscanf(line, "unordered %ms %ms", &j->unordered[j->nunordered],
                    &j->count[j->nunordered]) == 2)
        j->nunordered++;
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

/* ---- the job ---------------------------------------------------------------------- */

char *job_file(job *j, const char *path)
{
    size_t n = strlen(path);
    char *desc = malloc(n + 16);
    if (!desc)
        return NULL;
    FILE *probe = NULL;
    snprintf(desc, n + 16, "%s/job.desc", path);
    if ((probe = fopen(desc, "r")) != NULL) {
        fclose(probe);
        j->dir = realpath(path, NULL); /* absolute: the build options name it */
        if (!j->dir)
            j->dir = strdup(path);
        return desc;
    }
    snprintf(desc, n + 16, "%s", path);
    const char *slash = strrchr(path, '/');
    j->dir = slash ? strndup(path, (size_t)(slash - path + (slash == path))) : strdup(".");
    return desc;
}

void job_free_lines(job *j)
{
    free(j->source);
    free(j->original);
    free(j->options);
    free(j->prof_tree);
    free(j->input);
    free(j->set_label);
    j->source = j->original = j->options = j->prof_tree = j->input = j->set_label = NULL;
    for (unsigned i = 0; i < j->nvalues; i++)
        free(j->values[i]);
    for (unsigned i = 0; i < j->nunordered; i++) {
        free(j->unordered[i]);
        free(j->count[i]);
    }
    j->nvalues = j->nunordered = 0;
}

void job_free(job *j)
{
    job_free_lines(j);
    sb_free(&j->failed);
    free(j->dir);
    for (unsigned i = 0; i < j->npres; i++) {
        profile_result_free(&j->pres[i]);
        free(j->pnames[i]);
    }
    free(j->pres);
    free(j->pnames);
}
void job_input_name(const char *path, char *out, size_t n)
{
    job j;
    memset(&j, 0, sizeof j);
    char *desc = job_file(&j, path), *line = NULL;
    size_t cap = 0;
    FILE *f = desc ? fopen(desc, "r") : NULL;
    snprintf(out, n, "the kernel file");
    while (f && getline(&line, &cap, f) > 0)
        if (!strncmp(line, "input ", 6)) {
            char *v = dup_rest(line + 6);
            snprintf(out, n, "%s", v ? v : "");
            free(v);
        }
    if (f)
        fclose(f);
    free(line);
    free(desc);
    free(j.dir);
}

int job_read_kernel_part(kdesc *k, const char *line)
{
    if (!strncmp(line, "arg ", 4))
        return read_arg_line(k, line);
    if (!strncmp(line, "field ", 6))
        return read_field_line(k, line);
    if (!strncmp(line, "leaf ", 5))
        return read_leaf_line(k, line);
    if (!strncmp(line, "inputs ", 7))
        return read_inputs_line(k, line);
    if (!strncmp(line, "racy ", 5))
        return read_racy_line(k, line);
    return 1;
}
