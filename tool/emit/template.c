/* SPDX-License-Identifier: Apache-2.0 */
/*
 * template.c - named fragments ("%% name" lines), ${NAME} expansion, and the
 * directives that let a fragment choose its own text: %if / %elif / %else /
 * %endif on flags the C sets, %include of another fragment (template.h).
 */
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

/* One expansion: the variables, where the message goes, how deep the includes are. */
typedef struct expansion {
    const tmpl_file *t;
    const tmpl_var *vars;
    unsigned nvars;
    char *err;
    size_t errlen;
    unsigned depth;
} expansion;

enum { MAX_IF = 16, MAX_INCLUDE = 16 };

/* Appends line [p, end) with every ${NAME} replaced by its value. */
static int put_substituted(strbuf *out, const expansion *x, const char *frag, const char *p,
                           const char *end)
{
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
        const char *value =
            close ? find_var(x->vars, x->nvars, d + 2, (size_t)(close - d - 2)) : NULL;
        if (!value) {
            snprintf(x->err, x->errlen, "fragment '%s' uses an unknown placeholder '%.*s'", frag,
                     close ? (int)(close - d + 1) : 2, d);
            return -1;
        }
        sb_puts(out, value);
        p = close + 1;
    }
    return 0;
}

/* The directive of line [p, eol) ("if", "elif", "else", "endif", "include"), its
 * argument (arg, argn), its indentation (padn); NULL when the line is text. */
static const char *directive(const char *p, const char *eol, const char **arg, size_t *argn,
                             size_t *padn)
{
    static const char *const names[] = {"include", "endif", "elif", "else", "if"};
    const char *s = p;
    while (s < eol && (*s == ' ' || *s == '\t'))
        s++;
    if (s == eol || *s != '%' || (s + 1 < eol && s[1] == '%'))
        return NULL;
    s++;
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
        size_t n = strlen(names[i]);
        if ((size_t)(eol - s) < n || memcmp(s, names[i], n) ||
            (s + n < eol && s[n] != ' '))
            continue;
        const char *a = s + n;
        while (a < eol && *a == ' ')
            a++;
        const char *ae = eol;
        while (ae > a && (ae[-1] == ' ' || ae[-1] == '\r'))
            ae--;
        *arg = a;
        *argn = (size_t)(ae - a);
        *padn = (size_t)(s - 1 - p);
        return names[i];
    }
    return NULL;
}

/* Whether the condition of a %if or %elif holds: NAME is set, not empty and not "0";
 * !NAME the opposite. -1: NAME is no variable of the expansion. */
static int condition(const expansion *x, const char *frag, const char *a, size_t n)
{
    int neg = n && *a == '!';
    const char *v = find_var(x->vars, x->nvars, a + neg, n - (size_t)neg);
    if (!v) {
        snprintf(x->err, x->errlen, "fragment '%s' tests an unknown flag '%.*s'", frag, (int)n,
                 a);
        return -1;
    }
    int on = *v && strcmp(v, "0") != 0;
    return neg ? !on : on;
}

static int expand_fragment(strbuf *out, const expansion *x, const char *frag, const char *pad,
                           size_t padn);

/* A line that is one ${NAME} alone: a block of lines the C made, with their own
 * indentation, which an %include's does not change. */
static int block_line(const char *p, const char *eol)
{
    return eol - p > 3 && p[0] == '$' && p[1] == '{' && eol[-1] == '}' &&
           !memchr(p + 2, '}', (size_t)(eol - p - 3));
}

/* The state of one %if level: whether its text is emitted, whether a branch was taken,
 * whether the text around it is emitted. */
typedef struct if_level {
    int on, taken, outer;
} if_level;

static int expand_fragment(strbuf *out, const expansion *x, const char *frag, const char *pad,
                           size_t padn)
{
    const tmpl_fragment *f = find_fragment(x->t, frag);
    if (!f) {
        snprintf(x->err, x->errlen, "template has no fragment '%s'", frag);
        return -1;
    }
    if_level ifs[MAX_IF];
    unsigned nifs = 0;
    int on = 1;
    const char *p = f->text, *end = f->text + f->len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *next = eol ? eol + 1 : end;
        if (!eol)
            eol = end;
        const char *arg;
        size_t argn, dpad;
        const char *d = directive(p, eol, &arg, &argn, &dpad);
        if (!d) {
            if (on) {
                if (eol > p && !block_line(p, eol))
                    sb_putn(out, pad, padn);
                if (put_substituted(out, x, frag, p, next) != 0)
                    return -1;
            }
        } else if (!strcmp(d, "if")) {
            if (nifs == MAX_IF) {
                snprintf(x->err, x->errlen, "fragment '%s': %%if nested too deep", frag);
                return -1;
            }
            int c = on ? condition(x, frag, arg, argn) : 0;
            if (c < 0)
                return -1;
            ifs[nifs++] = (if_level){c, c, on};
            on = on && c;
        } else if (!strcmp(d, "elif") || !strcmp(d, "else")) {
            if (!nifs) {
                snprintf(x->err, x->errlen, "fragment '%s': %%%s without %%if", frag, d);
                return -1;
            }
            if_level *l = &ifs[nifs - 1];
            int c = 1;
            if (d[2] == 'i' && l->outer && !l->taken && (c = condition(x, frag, arg, argn)) < 0)
                return -1;
            l->on = l->outer && !l->taken && c;
            l->taken = l->taken || l->on;
            on = l->on;
        } else if (!strcmp(d, "endif")) {
            if (!nifs) {
                snprintf(x->err, x->errlen, "fragment '%s': %%endif without %%if", frag);
                return -1;
            }
            on = ifs[--nifs].outer;
        } else if (on) { /* include */
            char name[64], inner[256];
            if (argn == 0 || argn >= sizeof name || x->depth >= MAX_INCLUDE ||
                padn + dpad >= sizeof inner) {
                snprintf(x->err, x->errlen, "fragment '%s': bad %%include '%.*s' (or too deep)",
                         frag, (int)argn, arg);
                return -1;
            }
            memcpy(name, arg, argn);
            name[argn] = '\0';
            memcpy(inner, pad, padn);
            memcpy(inner + padn, p, dpad);
            expansion y = *x;
            y.depth++;
            if (expand_fragment(out, &y, name, inner, padn + dpad) != 0)
                return -1;
        }
        p = next;
    }
    if (nifs) {
        snprintf(x->err, x->errlen, "fragment '%s': %%if without %%endif", frag);
        return -1;
    }
    return 0;
}

int tmpl_expand(strbuf *out, const tmpl_file *t, const char *frag, const tmpl_var *vars,
                unsigned nvars, char *err, size_t errlen)
{
    expansion x = {t, vars, nvars, err, errlen, 0};
    return expand_fragment(out, &x, frag, "", 0);
}
