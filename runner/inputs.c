/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inputs.c - the inputs of a validation run, built from the job's `value`
 * lines (runner.h): scalars and vectors, struct values and fields, images
 * and samplers, size:N, file:PATH and recipes; what is not given stays the
 * runtime's seeded random.
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runner.h"

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

/* A recipe on a buffer of structs, unions or arrays: what it takes instead. */
static int struct_buffer_error(const char *spec, const nplus1rt_arg *a)
{
    if (a->type && strstr(a->type, "(*)"))
        return arg_error(spec, "a buffer of arrays takes its contents from file:PATH", a);
    const char *t = a->type ? a->type : "";
    while (!strncmp(t, "const ", 6) || !strncmp(t, "volatile ", 9) || !strncmp(t, "__global ", 9))
        t = strchr(t, ' ') + 1;
    char what[256];
    snprintf(what, sizeof what,
             "a %s buffer takes its contents from file:PATH, or one field of every element "
             "from NAME.FIELD=VALUE or a recipe (%s.FIELD=range:LO:HI)",
             strncmp(t, "union ", 6) ? "struct" : "union", a->name);
    return arg_error(spec, what, a);
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

/*
 * range:LO:HI is half-open: on an integer buffer, range:0:1 fills every element with 0. A new
 * user's 0/1 mask written so reaches one branch only, and the run says no more than "not
 * exercised"; one note says why, and what draws both.
 */
static void note_one_value_range(const nplus1rt_arg *a, const char *spec, const char *val)
{
    if (strncmp(val, "range:", 6) || a->elem == NPLUS1RT_F16 || a->elem == NPLUS1RT_F32 ||
        a->elem == NPLUS1RT_F64)
        return;
    char *end;
    long long lo = strtoll(val + 6, &end, 0);
    if (end == val + 6 || *end != ':')
        return;
    const char *h = end + 1;
    long long hi = strtoll(h, &end, 0);
    if (end == h || *end || hi != lo + 1)
        return;
    fprintf(stderr, "note: --arg '%s': every element is %lld (range:LO:HI excludes HI); "
                    "choice:%lld,%lld draws both\n", spec, lo, lo, hi);
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
    } else if (!buffer && kdesc_is_struct(k, p) && !strncmp(val, "file:", 5)) {
        v->contents[p] = val; /* the struct's bytes */
    } else if (!buffer && kdesc_is_struct(k, p)) {
        return arg_error(spec, "a struct takes its fields one by one (NAME.FIELD=VALUE) or its "
                               "bytes (file:PATH)", a);
    } else if (!strncmp(val, "file:", 5) || nplus1rt_is_recipe(val)) {
        if (!buffer)
            return arg_error(spec, "file: and recipes give a buffer's contents; a value takes "
                                   "NAME=VALUE", a);
        if (kdesc_is_struct(k, p) && strncmp(val, "file:", 5))
            return struct_buffer_error(spec, a);
        note_one_value_range(a, spec, val);
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

int inputs_setup(const job *j, const kdesc *k, values *v)
{
    memset(v, 0, sizeof *v);
    for (unsigned i = 0; i < j->nvalues; i++) {
        const char *spec = j->values[i], *eq = strchr(spec, '=');
        if (!eq)
            return arg_error(spec, "expected NAME=VALUE or NAME=size:N", NULL);
        const char *dot = memchr(spec, '.', (size_t)(eq - spec));
        int p = kdesc_find_arg(k, spec, (size_t)((dot ? dot : eq) - spec));
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
        int p = kdesc_find_arg(k, j->unordered[i], strlen(j->unordered[i]));
        if (p < 0)
            continue;
        v->unordered[p] = 1;
        const char *count = j->count[i];
        v->count_arg[p] = strcmp(count, "-") ? kdesc_find_arg(k, count, strlen(count)) : -1;
    }
    for (unsigned p = 0; p < k->d.nargs; p++)
        if (!v->unordered[p])
            v->count_arg[p] = -1;
    return 0;
}

size_t inputs_default_elems(const nplus1rt_validate_opts *o)
{
    size_t n = 1;
    for (cl_uint d = 0; d < o->work_dim; d++)
        n *= o->global_offset[d] + o->global_size[d];
    return n;
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

/* NAME.PATH=RECIPE: field fd of each of count structs from a recipe (range:LO:HI, choice:,
 * iota, fill:), one value per element (and lane), seeded per field. */
static int set_field_recipe(const kdesc *k, unsigned p, unsigned f, const char *value,
                            unsigned char *base, size_t count, uint64_t seed, const char *spec)
{
    const nplus1rt_field *fd = &k->fields[p][f];
    size_t ss = nplus1rt_elem_size(fd->elem), one = ss * fd->count;
    unsigned char *vals = malloc(count * one > 0 ? count * one : 1);
    if (!vals)
        return -1;
    char err[256];
    uint64_t state = seed ^ (0xbf58476d1ce4e5b9ULL * (f + 1));
    if (nplus1rt_fill_recipe(vals, count * fd->count, fd->elem, value, &state, err,
                             sizeof err)) {
        free(vals);
        return arg_error(spec, err, &k->args[p]);
    }
    for (size_t e = 0; e < count; e++)
        memcpy(base + e * k->args[p].size + fd->offset, vals + e * one, one);
    free(vals);
    return 0;
}

/* NAME.PATH=VALUE: every field under PATH of each of count structs takes VALUE, or, for a
 * recipe, values drawn per element. */
static int set_fields(const kdesc *k, unsigned p, const char *path, const char *value,
                      unsigned char *base, size_t count, uint64_t seed)
{
    char spec[512];
    snprintf(spec, sizeof spec, "%s.%s=%s", k->args[p].name, path, value);
    unsigned hits = 0;
    for (unsigned f = 0; f < k->nfields[p]; f++) {
        const nplus1rt_field *fd = &k->fields[p][f];
        if (!field_under(k->field_names[p][f], path, strlen(path)))
            continue;
        if (nplus1rt_is_recipe(value)) {
            if (set_field_recipe(k, p, f, value, base, count, seed, spec))
                return -1;
            hits++;
            continue;
        }
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
                             inputs_default_elems(&j->o), &seed);
    for (unsigned i = 0; i < v->nsets; i++)
        if (v->sets[i].arg == p &&
            set_fields(k, p, v->sets[i].path, v->sets[i].value, v->init[p], 1, seed + i))
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
int inputs_build(const job *j, const kdesc *k, values *v)
{
    size_t fallback = inputs_default_elems(&j->o);
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
                set_fields(k, p, v->sets[i].path, v->sets[i].value, v->init[p], elems,
                           seed + i))
                return -1;
    }
    return 0;
}

void inputs_free(values *v)
{
    for (unsigned p = 0; p < MAX_ARGS; p++)
        free(v->init[p]);
}

