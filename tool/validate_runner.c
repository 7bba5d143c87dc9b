/*
 * validate_runner.c - nplus1gen-validate, the device side of --validate.
 *
 * Reads the job nplus1gen wrote (tool/validate_cmd.c), builds the
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
 * (validate_oclgrind.c).
 *
 * Description lines (paths relative to the job's folder):
 *   source PATH | original PATH | options TEXT
 *   launch DIM G0 G1 G2 O0 O1 O2 L0 L1 L2 HAS_LOCAL
 *   check SEED ULP REPS QUIET
 *   value NAME=VALUE | NAME=size:N | NAME=file:PATH | NAME=RECIPE   (any number)
 *   value NAME=image:W[xH[xD]][:ORDER:TYPE] | NAME=sampler:NORM:ADDRESS:FILTER
 *   value NAME.FIELD=VALUE                     (a field of a struct value, of every struct
 *                                               of a buffer; FIELD: "a", "in.uv", "w[2]")
 *   unordered NAME COUNTNAME|-  |  require_all_leaves
 *   kernel NAME STRATEGY DISPATCH WG R0 R1 R2 NLEAFKERNELS SPLIT [HAS_TILE]
 *   arg NAME KIND WRITABLE CONSTANT ELEM LANES SIZE TYPE...  (in order; KIND 0 value,
 *                                                            1 buffer, 2 image, 3 sampler)
 *   field OFFSET ELEM COUNT [PATH]                          (structs: after their arg)
 *   leaf KERNEL|-1 CONDITION...                             (every path)
 *   inputs NAME[<INDEX,...] ...     (after its leaf line: what the path's decisions read,
 *                                    "shapes[].type<pairs[]", "n"; absent in older jobs)
 *   end
 *   profile UNIT EVERY UNITS SLOT MEMORY ITEMS WIDTH TREE
 *                   --profile (docs/cli.md, "Profile jobs"): `source` is the
 *                   instrumented original, built with -DNPLUS1_PROF_UNIT=UNIT (and
 *                   _EVERY, _UNITS, _SLOT); each kernel runs it with a zeroed
 *                   recording buffer of UNITS*UNIT*SLOT bytes as one more argument,
 *                   and the original alone, on the same inputs, and writes
 *                   profile-KERNEL.bin (the recording) and profile-KERNEL.txt (values
 *                   compared, mismatches, tile size, device, layout) into the job.
 *                   When a path did not fit SLOT, every kernel runs once more with
 *                   room for the longest (within MEMORY bytes). Then the runs are
 *                   replayed at width WIDTH on the trees of the file TREE
 *                   (profile_job.c) and the report printed, the JSON written to
 *                   --profile-json FILE (default: profile.json in the job).
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nplus1rt.h"
#include "profile_job.h"
#include "validate_oclgrind.h"

#define MAX_ARGS 128
#define MAX_LEAVES 80
#define MAX_FIELDS 4096
#define EXIT_RUN_FAILED 4 /* child to parent: a kernel run failed (not a build) */
#define EXIT_UNPROVEN 5   /* child to parent: inconclusive, or a leaf without items (exit 1) */
#define EXIT_REFUSED 6    /* child to parent: the set refuses the build options (exit 1) */

typedef struct kdesc {
    char *name;                   /* any length: OpenCL C sets no limit */
    nplus1rt_set_desc d;
    nplus1rt_arg args[MAX_ARGS];
    char *arg_names[MAX_ARGS], *arg_types[MAX_ARGS];
    char *leaf_names[MAX_LEAVES];
    int path_kernel[MAX_LEAVES];
    char *path_cond[MAX_LEAVES];
    char *path_inputs[MAX_LEAVES]; /* the leaf's "inputs" line, or NULL */
    unsigned npaths;
    char *count, *scan, *scatter, *fused, *tile;
    nplus1rt_field *fields[MAX_ARGS]; /* structs: buffers' elements and values */
    char **field_names[MAX_ARGS];     /* each field's path, "" in jobs from before names */
    unsigned nfields[MAX_ARGS];
} kdesc;

typedef struct job {
    char *source, *original, *options;
    char *input;                    /* the user's file name (the `input` line) */
    nplus1rt_validate_opts o;
    int quiet;
    char *values[MAX_ARGS];
    unsigned nvalues;
    char *dir;                      /* the job's folder: relative paths start there */
    char *unordered[MAX_ARGS], *count[MAX_ARGS];
    unsigned nunordered;
    int require_all_leaves;
    int original_only;              /* under oclgrind: run the original alone */
    int inconclusive;               /* some kernel had no item in a working leaf */
    int profile;                    /* a profile job: the fields below */
    profile_layout lay;             /* the recording's, this pass */
    unsigned long long prof_memory, prof_items;
    unsigned prof_width, prof_pass;
    char *prof_tree;                /* the trees' file, relative to dir */
    const char *prof_json;          /* --profile-json FILE, or NULL (profile.json in dir) */
    profile_result *pres;           /* per kernel run, in job order */
    char **pnames;
    unsigned npres;
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

/* A value's lanes: 1 (splatted) or one per lane; a 3-vector's padding lane stays 0. */
static int parse_value(const nplus1rt_arg *a, const char *text, unsigned char *out)
{
    size_t ss = nplus1rt_elem_size(a->elem), lanes = a->lanes ? a->lanes : 1;
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
            if (i != 0 && i + 1 != lanes)
                return -1; /* a vector takes one value (splat) or exactly its lanes */
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

typedef struct field_set {
    unsigned arg;
    char path[256];                 /* --arg NAME.PATH=VALUE */
    const char *value;
} field_set;

typedef struct values {
    size_t elems[MAX_ARGS];
    const void *ptr[MAX_ARGS];
    unsigned char storage[MAX_ARGS][128];
    const char *contents[MAX_ARGS]; /* file:PATH or a recipe, NULL: the default */
    void *init[MAX_ARGS];           /* buffers' initial contents, NULL: seeded random */
    int unordered[MAX_ARGS], count_arg[MAX_ARGS];
    field_set sets[MAX_ARGS];
    unsigned nsets;
    nplus1rt_image_spec images[MAX_ARGS];
    nplus1rt_sampler_spec samplers[MAX_ARGS];
} values;

static int arg_error(const char *spec, const char *what, const nplus1rt_arg *a)
{
    fprintf(stderr, "nplus1gen: error: --arg '%s': %s", spec, what);
    if (a)
        fprintf(stderr, " ('%s' is %s%s)", a->name, a->type,
                a->kind == NPLUS1RT_ARG_BUFFER    ? ", a buffer"
                : a->kind == NPLUS1RT_ARG_IMAGE   ? ", an image"
                : a->kind == NPLUS1RT_ARG_SAMPLER ? ", a sampler"
                                                  : ", a value");
    fprintf(stderr, "\n");
    return -1;
}

static int find_arg(const kdesc *k, const char *name, size_t n)
{
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (strlen(k->args[p].name) == n && !strncmp(k->args[p].name, name, n))
            return (int)p;
    return -1;
}

/* A struct (a value, or a buffer's element: its layout came with it); uchar4 is not. */
static int is_struct(const kdesc *k, unsigned p)
{
    return k->nfields[p] > 0;
}

/* ---- images and samplers --------------------------------------------------------- */

typedef struct named {
    const char *name;
    unsigned value;
} named;

static const named orders[] = {
    {"R", CL_R}, {"A", CL_A}, {"RG", CL_RG}, {"RA", CL_RA}, {"RGBA", CL_RGBA},
    {"BGRA", CL_BGRA}, {"ARGB", CL_ARGB}, {"INTENSITY", CL_INTENSITY},
    {"LUMINANCE", CL_LUMINANCE}, {NULL, 0}};
static const named types[] = {
    {"FLOAT", CL_FLOAT}, {"HALF_FLOAT", CL_HALF_FLOAT}, {"UNORM_INT8", CL_UNORM_INT8},
    {"SNORM_INT8", CL_SNORM_INT8}, {"UNORM_INT16", CL_UNORM_INT16},
    {"SNORM_INT16", CL_SNORM_INT16}, {"SIGNED_INT8", CL_SIGNED_INT8},
    {"UNSIGNED_INT8", CL_UNSIGNED_INT8}, {"SIGNED_INT16", CL_SIGNED_INT16},
    {"UNSIGNED_INT16", CL_UNSIGNED_INT16}, {"SIGNED_INT32", CL_SIGNED_INT32},
    {"UNSIGNED_INT32", CL_UNSIGNED_INT32}, {NULL, 0}};
static const named addressing[] = {
    {"none", CL_ADDRESS_NONE}, {"clamp_to_edge", CL_ADDRESS_CLAMP_TO_EDGE},
    {"clamp", CL_ADDRESS_CLAMP}, {"repeat", CL_ADDRESS_REPEAT},
    {"mirrored_repeat", CL_ADDRESS_MIRRORED_REPEAT}, {NULL, 0}};

/* The value of word [s, s+n) in table t ("CL_" prefix optional, any case); 0: unknown. */
static unsigned lookup(const named *t, const char *s, size_t n)
{
    if (n > 3 && !strncasecmp(s, "CL_", 3))
        s += 3, n -= 3;
    for (; t->name; t++)
        if (strlen(t->name) == n && !strncasecmp(t->name, s, n))
            return t->value;
    return 0;
}

/* image:W[xH[xD]][:ORDER:TYPE] (file:PATH: the pixels' bytes, at the default size). */
static int take_image(const nplus1rt_arg *a, const char *spec, const char *val, values *v,
                      unsigned p)
{
    static const char *usage = "an image takes image:W[xH[xD]][:ORDER:TYPE] (e.g. image:64x48 "
                               "or image:64x48:RGBA:UNORM_INT8) or file:PATH";
    nplus1rt_image_spec *s = &v->images[p];
    if (!strncmp(val, "file:", 5)) {
        v->contents[p] = val;
        return 0;
    }
    if (strncmp(val, "image:", 6))
        return arg_error(spec, usage, a);
    const char *q = val + 6;
    for (unsigned d = 0; d < 3; d++) {
        char *end;
        unsigned long long n = strtoull(q, &end, 10);
        if (end == q || n == 0 || *q == '-')
            return arg_error(spec, usage, a);
        s->size[d] = (size_t)n;
        q = end;
        if (*q != 'x')
            break;
        q++;
    }
    if (*q == ':') {
        const char *t = strchr(q + 1, ':');
        s->order = t ? lookup(orders, q + 1, (size_t)(t - q - 1)) : 0;
        s->type = t ? lookup(types, t + 1, strlen(t + 1)) : 0;
        if (!s->order || !s->type)
            return arg_error(spec, "unknown channel order or type (orders: R, A, RG, RA, RGBA, "
                                   "BGRA, ARGB, INTENSITY, LUMINANCE; types: FLOAT, HALF_FLOAT, "
                                   "UNORM_INT8, SNORM_INT8, UNORM_INT16, SNORM_INT16, "
                                   "[UN]SIGNED_INT8/16/32)", a);
    } else if (*q) {
        return arg_error(spec, usage, a);
    }
    return 0;
}

/* sampler:norm|unnorm:ADDRESSING:nearest|linear */
static int take_sampler(const nplus1rt_arg *a, const char *spec, const char *val,
                        nplus1rt_sampler_spec *s)
{
    const char *n = val + 8, *m = strchr(n, ':'), *f = m ? strchr(m + 1, ':') : NULL;
    if (strncmp(val, "sampler:", 8) || !m || !f)
        return arg_error(spec, "a sampler takes sampler:norm|unnorm:none|clamp_to_edge|clamp|"
                               "repeat|mirrored_repeat:nearest|linear", a);
    size_t nl = (size_t)(m - n);
    s->given = 1;
    s->normalized = nl == 4 && !strncmp(n, "norm", 4);
    s->addressing = lookup(addressing, m + 1, (size_t)(f - m - 1));
    s->filter = !strcmp(f + 1, "linear") ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
    int ok = ((nl == 4 && !strncmp(n, "norm", 4)) || (nl == 6 && !strncmp(n, "unnorm", 6))) &&
             (s->addressing || !strncmp(m + 1, "none:", 5)) &&
             (!strcmp(f + 1, "linear") || !strcmp(f + 1, "nearest"));
    if (!strncmp(m + 1, "none:", 5))
        s->addressing = CL_ADDRESS_NONE;
    return ok ? 0
              : arg_error(spec, "a sampler takes sampler:norm|unnorm:none|clamp_to_edge|clamp|"
                                "repeat|mirrored_repeat:nearest|linear", a);
}

/* One NAME=VALUE for parameter p of kernel k. */
static int take_value(const kdesc *k, unsigned p, const char *spec, const char *val, values *v)
{
    const nplus1rt_arg *a = &k->args[p];
    int buffer = a->kind == NPLUS1RT_ARG_BUFFER;
    if (a->kind == NPLUS1RT_ARG_IMAGE)
        return take_image(a, spec, val, v, p);
    if (a->kind == NPLUS1RT_ARG_SAMPLER)
        return take_sampler(a, spec, val, &v->samplers[p]);
    if (!strncmp(val, "image:", 6) || !strncmp(val, "sampler:", 8))
        return arg_error(spec, "image: and sampler: describe image and sampler arguments", a);
    if (!strncmp(val, "size:", 5)) {
        char *end;
        unsigned long long e = strtoull(val + 5, &end, 10);
        if (!buffer || *end || e == 0 || val[5] == '-')
            return arg_error(spec, "size:N needs a buffer and N > 0", a);
        v->elems[p] = (size_t)e;
    } else if (!buffer && is_struct(k, p) && !strncmp(val, "file:", 5)) {
        v->contents[p] = val; /* the struct's bytes */
    } else if (!buffer && is_struct(k, p)) {
        return arg_error(spec, "a struct takes its fields one by one (NAME.FIELD=VALUE) or its "
                               "bytes (file:PATH)", a);
    } else if (!strncmp(val, "file:", 5) || nplus1rt_is_recipe(val)) {
        if (!buffer)
            return arg_error(spec, "file: and recipes give a buffer's contents; a value takes "
                                   "NAME=VALUE", a);
        if (is_struct(k, p) && strncmp(val, "file:", 5))
            return arg_error(spec, "a struct buffer takes its contents from file:PATH", a);
        v->contents[p] = val;
    } else if (!buffer && parse_value(a, val, v->storage[p]) == 0) {
        v->ptr[p] = v->storage[p];
    } else if (buffer) {
        return arg_error(spec, "a buffer takes size:N, file:PATH, fill:V, iota, range:LO:HI or "
                               "choice:A,B,...", a);
    } else if (a->lanes > 1) {
        char what[96];
        snprintf(what, sizeof what, "not a value of this type (%s%u takes 1 or %u values)",
                 nplus1rt_elem_name(a->elem), a->lanes, a->lanes);
        return arg_error(spec, what, a);
    } else {
        return arg_error(spec, "not a value of this type", a);
    }
    return 0;
}

static int setup_values(const job *j, const kdesc *k, values *v)
{
    memset(v, 0, sizeof *v);
    for (unsigned i = 0; i < j->nvalues; i++) {
        const char *spec = j->values[i], *eq = strchr(spec, '=');
        if (!eq)
            return arg_error(spec, "expected NAME=VALUE or NAME=size:N", NULL);
        const char *dot = memchr(spec, '.', (size_t)(eq - spec));
        int p = find_arg(k, spec, (size_t)((dot ? dot : eq) - spec));
        if (p >= 0 && dot && v->nsets < MAX_ARGS) { /* a field: set after the struct's fill */
            field_set *fs = &v->sets[v->nsets++];
            fs->arg = (unsigned)p;
            snprintf(fs->path, sizeof fs->path, "%.*s", (int)(eq - dot - 1), dot + 1);
            fs->value = eq + 1;
        }
        if (p >= 0 && !dot && take_value(k, (unsigned)p, spec, eq + 1, v) != 0)
            return -1; /* p < 0: a parameter of another kernel (nplus1gen checked the names) */
    }
    for (unsigned i = 0; i < j->nunordered; i++) {
        int p = find_arg(k, j->unordered[i], strlen(j->unordered[i]));
        if (p < 0)
            continue;
        v->unordered[p] = 1;
        v->count_arg[p] = strcmp(j->count[i], "-") ? find_arg(k, j->count[i], strlen(j->count[i]))
                                                   : -1;
    }
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (!v->unordered[p])
            v->count_arg[p] = -1;
    return 0;
}

static size_t default_elems(const nplus1rt_validate_opts *o)
{
    size_t n = 1;
    for (cl_uint d = 0; d < o->work_dim; d++)
        n *= o->global_offset[d] + o->global_size[d];
    return n;
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

/* A path of the description: absolute as it is, else under the job's folder. */
static char *job_path(const job *j, const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    size_t n = strlen(j->dir) + strlen(path) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", j->dir, path);
    return s;
}

/* file:PATH: the bytes, little-endian, exactly as many as the buffer holds. */
static int read_contents(const job *j, const nplus1rt_arg *a, const char *path, size_t elems,
                         void *dst)
{
    char *full = job_path(j, path);
    FILE *f = full ? fopen(full, "rb") : NULL;
    size_t want = elems * a->size, got = f ? fread(dst, 1, want, f) : 0;
    int more = f && fgetc(f) != EOF;
    if (f)
        fclose(f);
    if (!f)
        fprintf(stderr, "nplus1gen: error: --arg %s=file:%s: cannot read it\n", a->name, path);
    else if ((got != want || more) && a->kind == NPLUS1RT_ARG_IMAGE)
        fprintf(stderr, "nplus1gen: error: --arg %s=file:%s: the file has %s%zu bytes, the "
                        "image %zu pixels of %zu bytes (%zu): give --arg %s=image:W[xH[xD]]"
                        "[:ORDER:TYPE] as well, or a file of that size\n",
                a->name, path, more ? "more than " : "", got, elems, (size_t)a->size, want,
                a->name);
    else if (got != want || more)
        fprintf(stderr, "nplus1gen: error: --arg %s=file:%s: the file has %s%zu bytes, the "
                        "buffer %zu elements of %zu bytes (%zu): give --arg %s=size:N or a "
                        "file of that size\n",
                a->name, path, more ? "more than " : "", got, elems, (size_t)a->size, want,
                a->name);
    free(full);
    return f && got == want && !more ? 0 : -1;
}

/* 1 when field path f is path or lies inside it ("in" holds "in.uv", "w" holds "w[2]"). */
static int field_under(const char *f, const char *path, size_t len)
{
    return !strncmp(f, path, len) && (f[len] == '\0' || f[len] == '.' || f[len] == '[');
}

/* NAME.PATH=VALUE: every field under PATH of each of count structs takes VALUE. */
static int set_fields(const kdesc *k, unsigned p, const char *path, const char *value,
                      unsigned char *base, size_t count)
{
    char spec[512];
    snprintf(spec, sizeof spec, "%s.%s=%s", k->args[p].name, path, value);
    unsigned hits = 0;
    for (unsigned f = 0; f < k->nfields[p]; f++) {
        const nplus1rt_field *fd = &k->fields[p][f];
        if (!field_under(k->field_names[p][f], path, strlen(path)))
            continue;
        size_t ss = nplus1rt_elem_size(fd->elem);
        nplus1rt_arg one = {k->args[p].name, "", NPLUS1RT_ARG_VALUE, 0, 0, fd->elem, fd->count,
                            ss * fd->count};
        unsigned char bytes[128];
        if (one.size > sizeof bytes || parse_value(&one, value, bytes) != 0) {
            char what[128];
            snprintf(what, sizeof what, "not a value of field '%s' (%s%s%.0u)",
                     k->field_names[p][f], nplus1rt_elem_name(fd->elem),
                     fd->count > 1 ? " x" : "", fd->count > 1 ? fd->count : 0);
            return arg_error(spec, what, &k->args[p]);
        }
        for (size_t e = 0; e < count; e++)
            memcpy(base + e * k->args[p].size + fd->offset, bytes, one.size);
        hits++;
    }
    return hits ? 0 : arg_error(spec, "no such field", &k->args[p]);
}

/* A struct value: random fields (integers in [0, items)) or file:PATH, then NAME.FIELD=V. */
static int build_struct_value(const job *j, const kdesc *k, unsigned p, values *v)
{
    const nplus1rt_arg *a = &k->args[p];
    v->init[p] = calloc(1, a->size ? a->size : 1);
    if (!v->init[p])
        return -1;
    uint64_t seed = (j->o.seed ? j->o.seed : 1) * 0x9e3779b97f4a7c15ULL + p;
    const char *c = v->contents[p];
    if (c && read_contents(j, a, c + 5, 1, v->init[p]))
        return -1;
    if (!c)
        nplus1rt_fill_fields(v->init[p], 1, a->size, k->fields[p], k->nfields[p],
                             default_elems(&j->o), &seed);
    for (unsigned i = 0; i < v->nsets; i++)
        if (v->sets[i].arg == p &&
            set_fields(k, p, v->sets[i].path, v->sets[i].value, v->init[p], 1))
            return -1;
    v->ptr[p] = v->init[p];
    return 0;
}

/* An image: its format must be one validation fills; file:PATH gives its pixels' bytes. */
static int build_image(const job *j, const nplus1rt_arg *a, unsigned p, values *v)
{
    nplus1rt_image_spec full;
    size_t bytes;
    nplus1rt_elem elem;
    unsigned channels;
    if (nplus1rt_image_resolve(a, &v->images[p], &j->o, &full, &bytes, &elem, &channels)) {
        char spec[64];
        snprintf(spec, sizeof spec, "%s=image:...", a->name);
        return arg_error(spec, "validation fills only unpacked formats (R, A, RG, RA, RGBA, "
                               "BGRA, ARGB, INTENSITY, LUMINANCE)", a);
    }
    const char *c = v->contents[p];
    if (!c)
        return 0;
    if (!(v->init[p] = calloc(1, bytes ? bytes : 1)))
        return -1;
    nplus1rt_arg pixel = *a; /* read_contents: pixels of channels x channel bytes */
    pixel.size = channels * nplus1rt_elem_size(elem);
    return read_contents(j, &pixel, c + 5, bytes / pixel.size, v->init[p]);
}

/* The buffers' initial contents: files, recipes, struct fields; else the runtime's random. */
static int build_inputs(const job *j, const kdesc *k, values *v)
{
    size_t fallback = default_elems(&j->o);
    for (unsigned p = 0; p < k->d.nargs; p++) {
        const nplus1rt_arg *a = &k->args[p];
        if (a->kind == NPLUS1RT_ARG_VALUE && k->nfields[p]) {
            if (build_struct_value(j, k, p, v))
                return -1;
            continue;
        }
        if (a->kind == NPLUS1RT_ARG_IMAGE) {
            if (build_image(j, a, p, v))
                return -1;
            continue;
        }
        if (a->kind != NPLUS1RT_ARG_BUFFER || (!v->contents[p] && !k->nfields[p]))
            continue;
        size_t elems = v->elems[p] ? v->elems[p] : fallback;
        v->init[p] = calloc(elems ? elems : 1, a->size);
        if (!v->init[p])
            return -1;
        uint64_t seed = (j->o.seed ? j->o.seed : 1) * 0x9e3779b97f4a7c15ULL + p;
        const char *c = v->contents[p];
        char err[256];
        if (c && !strncmp(c, "file:", 5)) {
            if (read_contents(j, a, c + 5, elems, v->init[p]))
                return -1;
        } else if (c) {
            size_t ss = nplus1rt_elem_size(a->elem);
            if (nplus1rt_fill_recipe(v->init[p], elems * (a->size / ss), a->elem, c, &seed, err,
                                     sizeof err)) {
                char spec[512];
                snprintf(spec, sizeof spec, "%s=%s", a->name, c);
                return arg_error(spec, err, NULL);
            }
        } else {
            nplus1rt_fill_fields(v->init[p], elems, a->size, k->fields[p], k->nfields[p],
                                 fallback, &seed);
        }
        for (unsigned i = 0; i < v->nsets && (!c || strncmp(c, "file:", 5)); i++)
            if (v->sets[i].arg == p &&
                set_fields(k, p, v->sets[i].path, v->sets[i].value, v->init[p], elems))
                return -1;
    }
    return 0;
}

static void free_values(values *v)
{
    for (unsigned p = 0; p < MAX_ARGS; p++)
        free(v->init[p]);
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
                           {r0, r1, r2}, (nplus1rt_split)split, NPLUS1RT_FORMAT_VERSION,
                           tile ? k->tile : NULL, 0, 0};
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

static void free_kernel(kdesc *k)
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
    if (r->original_rechecked && r->original_self_mismatches)
        printf("  the original kernel disagrees with itself: a second run of it alone differs "
               "in %zu values (first in %s): it races or reads memory it never wrote, so these "
               "mismatches do not show the generated set is wrong (compare order-free outputs "
               "with --unordered)\n",
               r->original_self_mismatches, k->args[r->original_self_arg].name);
}

/* ---- inconclusive: no item reached a leaf that does work ------------------ */

/* 1 when the parameter's name appears as a whole word in text. */
static int mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        int before = p > text && (p[-1] == '_' || isalnum((unsigned char)p[-1]));
        int after = p[n] == '_' || isalnum((unsigned char)p[n]);
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Jobs from before "inputs" lines: the parameters named in the condition's text. */
static void print_mentioned(const kdesc *k, unsigned l)
{
    int any = 0;
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (mentions(k->path_cond[l], k->args[p].name))
            printf("%s %s", any++ ? "," : "    its condition reads:", k->args[p].name);
    if (any)
        printf(" (give buffers --arg NAME=choice:A,B,... | range:LO:HI | fill:V | file:PATH,"
               " values --arg NAME=VALUE)\n");
}

/* An input as the hint shows it: "[]" becomes "[...]". */
static void put_input(const char *name, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '[' && i + 1 < n && name[i + 1] == ']') {
            fputs("[...]", stdout);
            i++;
        } else {
            putchar(name[i]);
        }
    }
}

/* Is input [name, name+n) an index of another input of the list? */
static int is_index(const char *list, const char *name, size_t n)
{
    for (const char *p = strchr(list, '<'); p; p = strchr(p + 1, '<')) {
        const char *q = p + 1;
        for (;;) {
            size_t m = strcspn(q, ", ");
            if (m == n && !strncmp(q, name, n))
                return 1;
            if (q[m] != ',')
                break;
            q += m + 1;
        }
    }
    return 0;
}

/* The --arg that sets input [name, name+n): "shapes[].w[]" -> "--arg shapes.w=V". */
static void put_suggestion(const kdesc *k, const char *name, size_t n)
{
    size_t root = strcspn(name, "[.");
    root = root < n ? root : n;
    int p = find_arg(k, name, root);
    fputs(" --arg ", stdout);
    fwrite(name, 1, root, stdout);
    int fields = 0;
    for (size_t i = root; i < n; i++) {
        if (name[i] == '[' && i + 1 < n && name[i + 1] == ']') {
            i++;
            continue;
        }
        fields |= name[i] == '.';
        putchar(name[i]);
    }
    int buffer = p >= 0 && k->args[p].kind == NPLUS1RT_ARG_BUFFER;
    int image = p >= 0 && k->args[p].kind == NPLUS1RT_ARG_IMAGE;
    fputs(image ? "=image:W[xH[xD]]|file:PATH" : buffer && !fields ? "=choice:A,B,..."
          : p >= 0 && !fields && is_struct(k, (unsigned)p) ? ".FIELD=V" : "=V", stdout);
}

/* "    its conditions read: a, s[...].t (indexed by p[...]); give inputs ..., e.g. --arg s.t=V". */
static void print_inputs(const kdesc *k, const char *list)
{
    int any = 0;
    for (const char *t = list; *t; t += strspn(t, " ")) {
        size_t n = strcspn(t, " "), name = strcspn(t, "< ");
        if (!is_index(list, t, name)) {
            fputs(any++ ? ", " : "    its conditions read: ", stdout);
            put_input(t, name);
            if (name < n) {
                fputs(" (indexed by ", stdout);
                put_input(t + name + 1, n - name - 1);
                putchar(')');
            }
        }
        t += n;
    }
    if (!any)
        return;
    fputs("; give inputs that reach it, e.g.", stdout);
    for (const char *t = list; *t; t += strspn(t, " ")) {
        size_t n = strcspn(t, " "), name = strcspn(t, "< ");
        if (!is_index(list, t, name))
            put_suggestion(k, t, name);
        t += n;
    }
    putchar('\n');
}

/* The leaves (paths) whose kernel got no items, with the inputs their conditions read. */
static void print_unreached(const kdesc *k, const nplus1rt_validation *r)
{
    for (unsigned l = 0; l < k->npaths; l++) {
        int kern = k->path_kernel[l];
        if (kern < 0 || kern >= 64 || r->leaf_items[kern])
            continue;
        printf("  leaf %u (kernel %d) when %s\n", l, kern, k->path_cond[l]);
        if (k->path_inputs[l])
            print_inputs(k, k->path_inputs[l]);
        else
            print_mentioned(k, l);
    }
}

/* 0: fine; 1: inconclusive, or a working leaf empty under --require-all-leaves. */
static int check_coverage(job *j, const kdesc *k, const nplus1rt_validation *r)
{
    size_t reached = 0;
    unsigned idle = 0, working = 0;
    for (unsigned l = 0; l < k->d.nleaves && l < 64; l++) {
        reached += r->leaf_items[l];
        idle += r->leaf_items[l] == 0;
        working++;
    }
    if (working && !reached) {
        j->inconclusive = 1;
        printf("validation inconclusive: no item of kernel %s reached a leaf that does work, so "
               "the outputs prove nothing; give inputs that reach these leaves:\n", k->name);
        print_unreached(k, r);
        return 1;
    }
    if (!idle)
        return 0;
    printf("%s: %u of the %u leaves that do work got no items%s:\n",
           j->require_all_leaves ? "validation FAILED (--require-all-leaves)" : "note", idle,
           working, j->require_all_leaves ? "" : " (not proven; --require-all-leaves fails then)");
    print_unreached(k, r);
    return j->require_all_leaves;
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

/* --original-only: which buffer oclgrind numbers 1, 2, ... (created in argument order). */
static void print_buffers(const kdesc *k, const values *v, const nplus1rt_validate_opts *o)
{
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (k->args[p].kind == NPLUS1RT_ARG_BUFFER)
            printf("nplus1-buffer %s %zu %zu\n", k->args[p].name,
                   v->elems[p] ? v->elems[p] : default_elems(o), k->args[p].size);
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

/* Writable buffers of both runs: values compared and how many differ. */
static void profile_diff(const kdesc *k, void **a, size_t *na, void **b, size_t *nb,
                         unsigned ulp, size_t *compared, size_t *bad)
{
    for (unsigned i = 0; i < k->d.nargs; i++) {
        if (!a[i] || !b[i] || na[i] != nb[i])
            continue;
        size_t n = na[i] / nplus1rt_elem_size(k->args[i].elem);
        *compared += n;
        *bad += nplus1rt_diff(a[i], b[i], n, k->args[i].elem, ulp, NULL, 0);
    }
}

static int write_profile(const job *j, const kdesc *k, const void *rec, size_t bytes,
                         size_t compared, size_t bad, unsigned tile, const char *device)
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
                         j->lay.every, j->lay.units, j->lay.slot) > 0;
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
        profile_diff(k, plain, nplain, rec, nrec, o->ulp_tol, &compared, &bad);
        unsigned tile = profile_tile(dc, k->d.wg);
        rc = write_profile(j, k, rec[n], nrec[n], compared, bad, tile, dc->dev.device_name);
        if (rc == 0) {
            rc = keep_profile(j, k, rec[n], nrec[n], compared, bad, tile, dc->dev.device_name);
            rec[n] = NULL; /* the job's now */
        }
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

static int run_kernel(device_ctx *dc, job *j, kdesc *k, const char *source, const char *original)
{
    values *v = calloc(1, sizeof *v);
    nplus1rt_validation *r = calloc(1, sizeof *r);
    int rc = 3;
    if (!v || !r)
        goto done;
    rc = 2; /* a bad --arg: a usage error */
    if (setup_values(j, k, v) != 0 || build_inputs(j, k, v) != 0)
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
    print_result(k, r);
    rc = check_coverage(j, k, r) ? EXIT_UNPROVEN : 0;
    rc = r->mismatches ? 1 : rc;
    fflush(stdout);
done:
    if (v)
        free_values(v);
    free(v);
    free(r);
    return rc;
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

static int read_job_line(job *j, const char *line)
{
    nplus1rt_validate_opts *o = &j->o;
    unsigned long long seed;
    if (!strncmp(line, "source ", 7))
        j->source = dup_rest(line + 7);
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

/* "DIR" (DIR/job.desc) or a description file; sets j->dir. Returns the file's path. */
static char *job_file(job *j, const char *path)
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

/* What the description's lines set (a profile job's second pass reads them again). */
static void free_job_lines(job *j)
{
    free(j->source);
    free(j->original);
    free(j->options);
    free(j->prof_tree);
    free(j->input);
    j->source = j->original = j->options = j->prof_tree = j->input = NULL;
    for (unsigned i = 0; i < j->nvalues; i++)
        free(j->values[i]);
    for (unsigned i = 0; i < j->nunordered; i++) {
        free(j->unordered[i]);
        free(j->count[i]);
    }
    j->nvalues = j->nunordered = 0;
}

static void free_job(job *j)
{
    free_job_lines(j);
    free(j->dir);
    for (unsigned i = 0; i < j->npres; i++) {
        profile_result_free(&j->pres[i]);
        free(j->pnames[i]);
    }
    free(j->pres);
    free(j->pnames);
}

static void read_sources(const job *j, char **source, char **original)
{
    char *s = job_path(j, j->source), *o = job_path(j, j->original);
    *source = s ? nplus1rt_read_file(s) : NULL;
    *original = o ? nplus1rt_read_file(o) : NULL;
    if (!*source || !*original)
        fprintf(stderr, "nplus1gen-validate: cannot read '%s' or '%s'\n", s ? s : "",
                o ? o : "");
    free(s);
    free(o);
}

static void print_verdict(const job *j, int rc)
{
    if (rc == EXIT_REFUSED)
        printf("validation refused: the set refuses these build options (NPLUS1_ERR_MACRO, "
               "see above); nothing was compared\n");
    if (rc >= 2 || j->original_only || j->profile)
        return;
    if (rc == 0)
        printf("validation passed: the generated set matches the original\n");
    else if (rc == 1)
        printf("validation FAILED: outputs differ\n");
    else if (j->inconclusive)
        printf("validation inconclusive: no item reached a leaf that does work (see above)\n");
    else
        printf("validation FAILED: a leaf that does work got no items (--require-all-leaves)\n");
}

/* One pass over the description: runs each kernel at its `end`; the worst exit. */
static int run_lines(job *j, FILE *f, device_ctx *dc, int *unproven)
{
    static kdesc k;
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
        } else if (in_kernel && !strncmp(line, "field ", 6)) {
            bad = read_field_line(&k, line);
        } else if (in_kernel && !strncmp(line, "leaf ", 5)) {
            bad = read_leaf_line(&k, line);
        } else if (in_kernel && !strncmp(line, "inputs ", 7)) {
            bad = read_inputs_line(&k, line);
        } else if (in_kernel && !strncmp(line, "end", 3)) {
            if (!source && j->source && j->original)
                read_sources(j, &source, &original);
            int krc = source && original ? run_kernel(dc, j, &k, source, original) : 3;
            if (krc == EXIT_UNPROVEN)
                *unproven = 1;
            else
                rc = krc > rc ? krc : rc;
            free_kernel(&k);
            in_kernel = 0;
        } else {
            bad = read_job_line(j, line);
            if (j->original_only)
                j->quiet = 1;
        }
        if (bad) {
            fprintf(stderr, "nplus1gen-validate: bad description line: %s", line);
            rc = 3;
        }
    }
    free(line);
    free_kernel(&k);
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
                          j->prof_items, ks, nks, j->pres};
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
        free_job_lines(j);
        j->prof_pass = 2;
        rewind(f);
        rc = run_lines(j, f, dc, unproven);
        for (unsigned i = 0; rc == 0 && i < j->npres; i++)
            if (j->pres[i].longest > j->lay.slot - 4) {
                fprintf(stderr, "nplus1gen: error: kernel '%s' took a longer path on a second "
                                "run of the same inputs: it does not run the same way twice\n",
                        j->pnames[i]);
                rc = 3;
            }
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
        free_job(&j);
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
    print_verdict(&j, rc);
    free_job(&j);
    nplus1rt_cache_clear();
    if (dc.open) {
        clReleaseCommandQueue(dc.q);
        clReleaseContext(dc.ctx);
    }
    return rc;
}

/* ---- oclgrind: name the out-of-bounds access of the original ------------------------ */

/* The user's file name for messages: the job's "input" line, else "the kernel file". */
static void input_name(const char *path, char *out, size_t n)
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

static int self_path(char *out, size_t n)
{
    ssize_t r = readlink("/proc/self/exe", out, n - 1);
    if (r <= 0)
        return -1;
    out[r] = '\0';
    return 0;
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
    input_name(path, input, sizeof input);
    if (oclgrind_check(self, path, input))
        return 2; /* the inputs, not the generated set */
    if (died)
        fprintf(stderr, "nplus1gen: error: the validation runner died (signal %d): a kernel "
                        "probably read or wrote out of bounds; check --arg sizes and values\n",
                WTERMSIG(status));
    return rc == EXIT_RUN_FAILED ? 3 : rc;
}

/* To stdout and exit 0 for --help; to stderr and exit 2 for a usage error. */
static int usage(FILE *to)
{
    fprintf(to, "usage: nplus1gen-validate [--device oclgrind] JOB\n"
                "       nplus1gen-validate [--profile-json FILE] PROFILE-JOB\n"
                "  JOB: a folder written by nplus1gen --validate --emit-job JOB\n"
                "  PROFILE-JOB: one written by nplus1gen --profile --emit-job PROFILE-JOB;\n"
                "  the profile's JSON goes to FILE, else to PROFILE-JOB/profile.json\n");
    return to == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
    const char *device = NULL, *path = NULL, *json = NULL;
    int child = 0, original_only = 0;
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
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            return usage(stderr);
    }
    if (!path)
        return usage(stderr);
    if (child || original_only)
        return run_job(path, original_only, json);
    if (device && strcmp(device, "oclgrind")) {
        fprintf(stderr, "nplus1gen-validate: --device takes 'oclgrind' (others: NPLUS1_DEVICE)\n");
        return 2;
    }
    return supervise(path, device, json);
}
