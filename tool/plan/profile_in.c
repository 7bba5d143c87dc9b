/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_in.c - reads a --profile-json file (profile_in.h): a small JSON
 * reader (objects, arrays, strings, numbers, true/false/null) and the
 * checks that the file is a profile of the input.
 */
#include "profile_in.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_DEPTH 32

typedef enum { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ } jv_type;

typedef struct jv {
    jv_type type;
    double num;
    char *str;
    struct jv *items;  /* array elements or object values */
    char **keys;       /* object keys */
    unsigned n, cap;
} jv;

typedef struct jparser {
    const char *p;
    int bad;
} jparser;

static void jv_free(jv *v)
{
    for (unsigned i = 0; i < v->n; i++) {
        jv_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

static void skip_ws(jparser *jp)
{
    while (*jp->p == ' ' || *jp->p == '\n' || *jp->p == '\r' || *jp->p == '\t')
        jp->p++;
}

/* A string's body; \uXXXX outside ASCII becomes '?' (names and paths are compared only). */
static char *parse_string(jparser *jp)
{
    strbuf sb;
    sb_init(&sb);
    jp->p++; /* the opening quote */
    for (; *jp->p && *jp->p != '"'; jp->p++) {
        char c = *jp->p;
        if (c == '\\') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *e = *++jp->p ? strchr(from, *jp->p) : NULL;
            if (*jp->p == 'u' && strspn(jp->p + 1, "0123456789abcdefABCDEF") >= 4) {
                unsigned long u = strtoul((char[5]){jp->p[1], jp->p[2], jp->p[3], jp->p[4], 0},
                                          NULL, 16);
                c = u < 0x80 ? (char)u : '?';
                jp->p += 4;
            } else if (e) {
                c = to[e - from];
            } else {
                jp->bad = 1;
                break;
            }
        }
        sb_putc(&sb, c);
    }
    if (*jp->p != '"')
        jp->bad = 1;
    else
        jp->p++;
    if (!sb.data)
        sb_puts(&sb, "");
    return sb_steal(&sb);
}

static void parse_value(jparser *jp, jv *v, unsigned depth);

static void push(jparser *jp, jv *v, char *key, unsigned depth)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 8;
        v->items = xrealloc(v->items, v->cap * sizeof *v->items);
        if (v->type == JV_OBJ)
            v->keys = xrealloc(v->keys, v->cap * sizeof *v->keys);
    }
    memset(&v->items[v->n], 0, sizeof v->items[v->n]);
    if (v->type == JV_OBJ)
        v->keys[v->n] = key;
    parse_value(jp, &v->items[v->n++], depth + 1);
}

/* An array or object: elements (and "key":) separated by commas up to close. */
static void parse_container(jparser *jp, jv *v, char close, unsigned depth)
{
    jp->p++;
    skip_ws(jp);
    if (*jp->p == close) {
        jp->p++;
        return;
    }
    while (!jp->bad) {
        char *key = NULL;
        skip_ws(jp);
        if (v->type == JV_OBJ) {
            if (*jp->p != '"') {
                jp->bad = 1;
                return;
            }
            key = parse_string(jp);
            skip_ws(jp);
            if (*jp->p != ':') {
                free(key);
                jp->bad = 1;
                return;
            }
            jp->p++;
        }
        push(jp, v, key, depth);
        skip_ws(jp);
        if (*jp->p == ',') {
            jp->p++;
        } else {
            jp->bad |= *jp->p != close;
            jp->p += *jp->p == close;
            return;
        }
    }
}

static void parse_value(jparser *jp, jv *v, unsigned depth)
{
    skip_ws(jp);
    if (depth > MAX_DEPTH) {
        jp->bad = 1;
        return;
    }
    char c = *jp->p;
    static const char *const words[] = {"null", "false", "true"};
    for (int w = 0; w < 3; w++)
        if (!strncmp(jp->p, words[w], strlen(words[w]))) {
            v->type = w ? JV_BOOL : JV_NULL;
            v->num = w == 2;
            jp->p += strlen(words[w]);
            return;
        }
    if (c == '"') {
        v->type = JV_STR;
        v->str = parse_string(jp);
    } else if (c == '[' || c == '{') {
        v->type = c == '[' ? JV_ARR : JV_OBJ;
        parse_container(jp, v, c == '[' ? ']' : '}', depth);
    } else {
        char *end;
        errno = 0;
        v->type = JV_NUM;
        v->num = strtod(jp->p, &end);
        jp->bad |= end == jp->p || errno != 0;
        jp->p = end;
    }
}

static const jv *member(const jv *o, const char *key, jv_type type)
{
    for (unsigned i = 0; o && o->type == JV_OBJ && i < o->n; i++)
        if (!strcmp(o->keys[i], key))
            return o->items[i].type == type ? &o->items[i] : NULL;
    return NULL;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The speed-up bound of the named prediction, 0 when there is none. */
static double bound_of(const jv *preds, const char *strategy)
{
    for (unsigned i = 0; preds && i < preds->n; i++) {
        const jv *s = member(&preds->items[i], "strategy", JV_STR);
        const jv *b = member(&preds->items[i], "speedup_bound", JV_NUM);
        if (s && b && !strcmp(s->str, strategy))
            return b->num;
    }
    return 0;
}

/*
 * The predicted speed-up of candidate name among "candidates" (the carried
 * candidates' predictions, profile_report.h): 0 when the set does not carry it
 * or the model could not tell.
 */
static double candidate_speedup(const jv *cands, const char *name)
{
    for (unsigned i = 0; cands && i < cands->n; i++) {
        const jv *c = member(&cands->items[i], "candidate", JV_STR);
        const jv *x = member(&cands->items[i], "speedup", JV_NUM);
        if (c && !strcmp(c->str, name))
            return x ? x->num : 0;
    }
    return 0;
}

/* The kernels array into p; -1 with a message when an entry lacks what a profile has. */
static int take_kernels(profile_in *p, const jv *ks, char *err, size_t errlen)
{
    p->kernels = xcalloc(ks->n ? ks->n : 1, sizeof *p->kernels);
    for (unsigned i = 0; i < ks->n; i++) {
        const jv *k = &ks->items[i];
        const jv *name = member(k, "name", JV_STR), *e = member(k, "simt_efficiency", JV_NUM);
        const jv *w = member(k, "width", JV_NUM), *preds = member(k, "predictions", JV_ARR);
        if (!name || !e || !w || !preds) {
            snprintf(err, errlen, "kernel %u of the profile lacks its name, simt_efficiency, "
                                  "width or predictions", i);
            return -1;
        }
        profile_prior *pp = &p->kernels[p->nkernels++];
        pp->name = xstrdup(name->str);
        pp->simt_efficiency = e->num;
        pp->width = (unsigned)w->num;
        const jv *cands = member(k, "candidates", JV_ARR);
        pp->has_candidates = cands != NULL;
        if (cands) { /* the carried candidates' predictions: none for what the set lacks */
            pp->split_bound = candidate_speedup(cands, "split");
            pp->tile_bound = candidate_speedup(cands, "tile");
            continue;
        }
        pp->split_bound = bound_of(preds, "split");
        pp->tile_bound = bound_of(preds, "tile");
        pp->loop_bound = bound_of(preds, "tile+loop");
    }
    return 0;
}

static int check_profile(profile_in *p, const jv *root, const char *input, char *err,
                         size_t errlen)
{
    const jv *fmt = member(root, "format", JV_STR), *ver = member(root, "version", JV_NUM);
    const jv *in = member(root, "input", JV_STR), *ks = member(root, "kernels", JV_ARR);
    if (!fmt || strcmp(fmt->str, "nplus1-profile")) {
        snprintf(err, errlen, "it is not a profile (no \"format\": \"nplus1-profile\"); "
                              "write one with nplus1gen FILE --profile --profile-json P.json");
        return -1;
    }
    if (!ver || ver->num != 1) {
        snprintf(err, errlen, "profile version %g; this nplus1gen reads version 1 "
                              "(profile again with this nplus1gen)", ver ? ver->num : 0.0);
        return -1;
    }
    if (!in || !ks) {
        snprintf(err, errlen, "the profile lacks \"input\" or \"kernels\"");
        return -1;
    }
    if (strcmp(base_name(in->str), base_name(input))) {
        snprintf(err, errlen, "it is a profile of '%s', not of '%s'", in->str, input);
        return -1;
    }
    return take_kernels(p, ks, err, errlen);
}

int profile_in_load(profile_in *p, const char *path, const char *input, char *err,
                    size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->path = xstrdup(path);
    char *text = NULL;
    size_t len = 0;
    if (read_file(path, &text, &len) != 0) {
        snprintf(err, errlen, "cannot read it: %s", strerror(errno));
        return -1;
    }
    jv root;
    memset(&root, 0, sizeof root);
    jparser jp = {text, 0};
    parse_value(&jp, &root, 0);
    skip_ws(&jp);
    int rc;
    if (jp.bad || *jp.p || strlen(text) != len) {
        snprintf(err, errlen, "it is not JSON (at byte %zu)", (size_t)(jp.p - text));
        rc = -1;
    } else {
        rc = check_profile(p, &root, input, err, errlen);
    }
    jv_free(&root);
    free(text);
    return rc;
}

const profile_prior *profile_in_find(const profile_in *p, const char *kernel)
{
    for (unsigned i = 0; p && i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, kernel))
            return &p->kernels[i];
    return NULL;
}

void profile_in_apply(const profile_in *p, plan *pl)
{
    for (unsigned i = 0; i < pl->nkernels; i++) {
        const profile_prior *pp = profile_in_find(p, pl->kernels[i].k->name);
        plan_prior *to = &pl->kernels[i].prior;
        memset(to, 0, sizeof *to);
        if (!pp)
            continue;
        *to = (plan_prior){1, p->path, pp->width, pp->simt_efficiency, pp->split_bound,
                           pp->tile_bound, pp->loop_bound, pp->has_candidates};
    }
}

void profile_in_free(profile_in *p)
{
    for (unsigned i = 0; i < p->nkernels; i++)
        free(p->kernels[i].name);
    free(p->kernels);
    free(p->path);
    memset(p, 0, sizeof *p);
}
