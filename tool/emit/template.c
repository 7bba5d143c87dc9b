/* template.c - named fragments ("%% name" lines) and ${NAME} expansion. */
#include "template.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct embedded_template {
    const char *name;
    const char *text;
    size_t len;
};
extern const struct embedded_template nplus1_embedded_templates[];

/* Splits text into fragments at lines starting with "%% ". */
static int split(tmpl_file *t, const char *text, size_t len, char *err, size_t errlen)
{
    const char *p = text, *end = text + len;
    tmpl_fragment *cur = NULL;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *next = eol ? eol + 1 : end;
        if (end - p >= 3 && !memcmp(p, "%% ", 3)) {
            if (cur)
                cur->len = (size_t)(p - cur->text);
            tmpl_fragment f;
            memset(&f, 0, sizeof f);
            size_t n = (size_t)((eol ? eol : end) - (p + 3));
            if (n == 0 || n >= sizeof f.name) {
                snprintf(err, errlen, "bad fragment name in template");
                return -1;
            }
            memcpy(f.name, p + 3, n);
            f.text = next;
            VEC_PUSH(t->frags, t->nfrags, t->capfrags, f);
            cur = &t->frags[t->nfrags - 1];
        }
        p = next;
    }
    if (cur)
        cur->len = (size_t)(end - cur->text);
    return 0;
}

int tmpl_load(tmpl_file *t, const char *name, const char *dir, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (dir) {
        char path[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/%s.tmpl", dir, name);
        if (read_file(path, &t->owned, &len) != 0) {
            snprintf(err, errlen, "cannot read template '%s': %s", path, strerror(errno));
            return -1;
        }
        return split(t, t->owned, len, err, errlen);
    }
    for (const struct embedded_template *e = nplus1_embedded_templates; e->name; e++)
        if (!strcmp(e->name, name))
            return split(t, e->text, e->len, err, errlen);
    snprintf(err, errlen, "no embedded template '%s'", name);
    return -1;
}

void tmpl_free(tmpl_file *t)
{
    free(t->owned);
    free(t->frags);
    memset(t, 0, sizeof *t);
}

static const tmpl_fragment *find_fragment(const tmpl_file *t, const char *frag)
{
    for (unsigned i = 0; i < t->nfrags; i++)
        if (!strcmp(t->frags[i].name, frag))
            return &t->frags[i];
    return NULL;
}

static const char *find_var(const tmpl_var *vars, unsigned nvars, const char *name, size_t n)
{
    for (unsigned i = 0; i < nvars; i++)
        if (strlen(vars[i].name) == n && !memcmp(vars[i].name, name, n))
            return vars[i].value;
    return NULL;
}

int tmpl_expand(strbuf *out, const tmpl_file *t, const char *frag, const tmpl_var *vars,
                unsigned nvars, char *err, size_t errlen)
{
    const tmpl_fragment *f = find_fragment(t, frag);
    if (!f) {
        snprintf(err, errlen, "template has no fragment '%s'", frag);
        return -1;
    }
    const char *p = f->text, *end = f->text + f->len;
    while (p < end) {
        const char *d = p;
        while (d + 1 < end && !(d[0] == '$' && d[1] == '{'))
            d++;
        if (d + 1 >= end) {
            sb_putn(out, p, (size_t)(end - p));
            break;
        }
        sb_putn(out, p, (size_t)(d - p));
        const char *close = memchr(d, '}', (size_t)(end - d));
        const char *value = close ? find_var(vars, nvars, d + 2, (size_t)(close - d - 2)) : NULL;
        if (!value) {
            snprintf(err, errlen, "fragment '%s' uses an unknown placeholder '%.*s'", frag,
                     close ? (int)(close - d + 1) : 2, d);
            return -1;
        }
        sb_puts(out, value);
        p = close + 1;
    }
    return 0;
}
