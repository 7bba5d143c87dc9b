/* SPDX-License-Identifier: Apache-2.0 */
/*
 * macro_deps.c - the macros the generated text depends on (macro_deps.h).
 */
#include "macro_deps.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_facts.h"
#include "tree.h"
#include "util.h"

/* ---- the dependency list ---------------------------------------------------- */

static macro_dep *find_dep(macro_deps *md, const char *name, size_t n)
{
    for (unsigned i = 0; i < md->ndeps; i++)
        if (strlen(md->deps[i].name) == n && !strncmp(md->deps[i].name, name, n))
            return &md->deps[i];
    return NULL;
}

static void add_dep(macro_deps *md, const char *name, size_t n, unsigned line, int followed)
{
    macro_dep *d = find_dep(md, name, n);
    if (d) {
        d->followed &= followed; /* a refused use wins */
        return;
    }
    char *copy = xcalloc(n + 1, 1);
    memcpy(copy, name, n);
    macro_dep nd = {copy, NULL, line, followed};
    VEC_PUSH(md->deps, md->ndeps, md->capdeps, nd);
}

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Calls add_dep for each identifier of text[0, n) but `defined`. */
static void add_idents(macro_deps *md, const char *text, size_t n, unsigned line, int followed)
{
    for (size_t i = 0; i < n;) {
        if (text[i] == '/' && i + 1 < n && text[i + 1] == '/')
            break; /* a comment after the condition */
        if (text[i] == '/' && i + 1 < n && text[i + 1] == '*') { /* one inside it */
            for (i += 2; i + 1 < n && !(text[i] == '*' && text[i + 1] == '/');)
                i++;
            i += 2;
            continue;
        }
        if (!is_ident(text[i]) || isdigit((unsigned char)text[i])) {
            while (i < n && is_ident(text[i])) /* the rest of a number */
                i++;
            i += i < n && !is_ident(text[i]);
            continue;
        }
        size_t b = i;
        while (i < n && is_ident(text[i]))
            i++;
        if (!(i - b == 7 && !strncmp(text + b, "defined", 7)))
            add_dep(md, text + b, i - b, line, followed);
    }
}

/* ---- case labels the set follows --------------------------------------------- */

static tree_step labels_of_decision(void *ud, const decision *d)
{
    for (unsigned b = 0; b < d->nbranches; b++) {
        const branch *br = &d->branches[b];
        for (unsigned i = 0; br->macro_labels && i < br->nlabels; i++)
            add_idents(ud, br->labels[i], strlen(br->labels[i]), d->range.line, 1);
    }
    return TREE_RECURSE;
}

/* ---- #if groups around the kernels --------------------------------------------- */

typedef struct group_ctx {
    macro_deps *md;
    const plan *pl;
    const src_file *f;
    unsigned file, line_base;
    const pp_directive *d;
    unsigned *skipped;    /* libclang's skipped blocks: [2i] their start, [2i+1] their end */
    unsigned nskipped;
    unsigned *points;     /* the #define / #undef lines of restored macros (macro_restore.h) */
    unsigned npoints, cappoints;
    const char **restored; /* their names */
    unsigned nrestored, caprestored;
} group_ctx;

static unsigned line_of(const src_file *f, unsigned off)
{
    unsigned line = 1;
    for (unsigned i = 0; i < off && i < f->len; i++)
        line += f->text[i] == '\n';
    return line;
}

static int overlaps_kernel(const group_ctx *g, unsigned begin, unsigned end)
{
    for (unsigned i = 0; i < g->pl->nkernels; i++) {
        const src_range *r = &g->pl->kernels[i].k->range;
        if (r->file == g->file && begin < r->end && r->begin < end)
            return 1;
    }
    for (unsigned i = 0; i < g->npoints; i++) /* a restored macro's definition or change */
        if (begin < g->points[i] && g->points[i] < end)
            return 1;
    return 0;
}

/*
 * Was the branch that directive d opens skipped? libclang's skipped block
 * starts at the '#' of the directive that began skipping and ends inside the
 * directive that ended it: `#if 0 .. #elif 0 .. #endif` is one block, so the
 * block holds every arm it skipped, and ends on the line of the arm taken.
 */
static int arm_skipped(const group_ctx *g, const pp_directive *d)
{
    for (unsigned i = 0; i < g->nskipped; i++)
        if (g->skipped[2 * i] <= d->hash && g->skipped[2 * i + 1] > d->end)
            return 1;
    return 0;
}

/* Is the group that d opens inside a block skipped as a whole (an outer arm not taken)? */
static int group_skipped(const group_ctx *g, const pp_directive *d)
{
    for (unsigned i = 0; i < g->nskipped; i++)
        if (g->skipped[2 * i] < d->hash && g->skipped[2 * i + 1] > d->end)
            return 1;
    return 0;
}

/*
 * Where the text after directive d starts: past its line, or past the line where a
 * block comment opened on its line ends (a banner after `#ifdef FAST` that goes on to
 * the next line), so that an inserted line is not inside the comment.
 */
static unsigned after_directive(const src_file *f, const pp_directive *d)
{
    const char *t = f->text;
    unsigned i = d->cond;
    for (; i + 1 < d->end; i++) {
        if (t[i] == '/' && t[i + 1] == '/')
            return d->end + 1;
        if (t[i] == '/' && t[i + 1] == '*') {
            for (i += 2; i + 1 < f->len && !(t[i] == '*' && t[i + 1] == '/');)
                i++;
            i++;
            if (i >= d->end) { /* it ends on a later line: after that line */
                while (i < f->len && t[i] != '\n')
                    i++;
                return i < f->len ? i + 1 : (unsigned)f->len;
            }
        }
    }
    return d->end < f->len ? d->end + 1 : (unsigned)f->len;
}

static int blank(const src_file *f, unsigned b, unsigned e)
{
    for (unsigned i = b; i < e && i < f->len; i++)
        if (!isspace((unsigned char)f->text[i]))
            return 0;
    return 1;
}

/* `#ifndef X` then `#define X`: a header's include guard, not a choice of text. */
static int include_guard(const group_ctx *g, const pp_directive *d)
{
    if (d->kind != PP_IFNDEF)
        return 0;
    const char *t = g->f->text, *end = t + g->f->len;
    const char *p = t + d->cond;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *name = p;
    while (p < end && is_ident(*p))
        p++;
    size_t n = (size_t)(p - name);
    const char *q = t + (d->end < g->f->len ? d->end + 1 : d->end);
    while (q < end && isspace((unsigned char)*q))
        q++;
    if (end - q < 8 || strncmp(q, "#define", 7) != 0)
        return 0;
    q += 7;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (!n || end - q < (long)n || strncmp(q, name, n) != 0 || (q + n != end && is_ident(q[n])))
        return 0;
    for (unsigned i = 0; i < g->nrestored; i++) /* a macro the set restores: a choice */
        if (strlen(g->restored[i]) == n && !strncmp(g->restored[i], name, n))
            return 0;
    return 1;
}

static void add_insert(macro_deps *md, unsigned file, unsigned offset, char *text)
{
    macro_insert in = {file, offset, text};
    VEC_PUSH(md->ins, md->nins, md->capins, in);
}

#define STATE "@STATE@" /* replaced by the macros' values once they are known */

/* The #error line for a group whose first directive is d0 (names: its macros). */
static char *error_line(const group_ctx *g, const pp_directive *d0, const char *names)
{
    strbuf sb;
    sb_init(&sb);
    unsigned e = d0->end;
    while (e > d0->hash && isspace((unsigned char)g->f->text[e - 1]))
        e--;
    sb_printf(&sb, "#error nplus1-macro: %s: line %u ('", names, line_of(g->f, d0->hash));
    const char *t = g->f->text;
    int quote = 0;
    for (unsigned i = d0->hash; i < e; i++) { /* one line, no quote to end the message */
        if (!quote && t[i] == '/' && i + 1 < e && t[i + 1] == '/')
            break; /* a banner comment after the condition is no part of it */
        if (!quote && t[i] == '/' && i + 1 < e && t[i + 1] == '*') {
            for (i += 2; i + 1 < e && !(t[i] == '*' && t[i + 1] == '/');)
                i++;
            i++;
            if (!isspace((unsigned char)sb.data[sb.len - 1]) && i + 1 < e &&
                !isspace((unsigned char)t[i + 1]))
                sb_putc(&sb, ' '); /* a comment is one space */
            else if (isspace((unsigned char)sb.data[sb.len - 1]) && i + 1 < e &&
                     isspace((unsigned char)t[i + 1]))
                sb.data[--sb.len] = '\0';
            continue;
        }
        if (t[i] == '"' && t[i - 1] != '\\')
            quote = !quote;
        sb_putc(&sb, t[i] == '\n' || t[i] == '\\' ? ' ' : t[i]);
    }
    while (sb.len && isspace((unsigned char)sb.data[sb.len - 1]))
        sb.data[--sb.len] = '\0';
    sb_puts(&sb, "') takes another branch than when the n+1 set was generated (" STATE ")\n");
    return sb_steal(&sb);
}

/*
 * One #if group (directives arms[0..narms), then endif): an #error in every
 * branch the set was not cut from, so that a build under other macros stops.
 */
static void guard_group(group_ctx *g, const unsigned *arms, unsigned narms, unsigned endif)
{
    const pp_directive *d = g->d;
    if (include_guard(g, &d[arms[0]]) || group_skipped(g, &d[arms[0]]))
        return; /* a group in an arm not taken: that arm's own #error guards it */
    macro_deps tmp = {0};
    unsigned line = line_of(g->f, d[arms[0]].hash);
    for (unsigned a = 0; a < narms; a++)
        add_idents(&tmp, g->f->text + d[arms[a]].cond, d[arms[a]].end - d[arms[a]].cond, line, 0);
    strbuf names;
    sb_init(&names);
    for (unsigned i = 0; i < tmp.ndeps; i++) {
        sb_printf(&names, "%s%s", i ? "," : "", tmp.deps[i].name);
        add_dep(g->md, tmp.deps[i].name, strlen(tmp.deps[i].name), line, 0);
    }
    macro_deps_free(&tmp);
    int active_text = 0, has_else = 0;
    for (unsigned a = 0; a < narms; a++) {
        unsigned next = a + 1 < narms ? arms[a + 1] : endif;
        active_text |= !arm_skipped(g, &d[arms[a]]) &&
                       !blank(g->f, after_directive(g->f, &d[arms[a]]), d[next].begin);
        has_else |= d[arms[a]].kind == PP_ELSE;
    }
    for (unsigned a = 0; a < narms; a++) {
        unsigned next = a + 1 < narms ? arms[a + 1] : endif;
        int skipped = arm_skipped(g, &d[arms[a]]);
        unsigned text = after_directive(g->f, &d[arms[a]]);
        int empty = blank(g->f, text, d[next].begin);
        if (skipped && (active_text || !empty))
            add_insert(g->md, g->file, text,
                       error_line(g, &d[arms[0]], names.data ? names.data : "?"));
    }
    if (active_text && !has_else) {
        char *err = error_line(g, &d[arms[0]], names.data ? names.data : "?");
        strbuf sb;
        sb_init(&sb);
        sb_printf(&sb, "#else\n%s", err);
        free(err);
        add_insert(g->md, g->file, d[endif].begin, sb_steal(&sb));
    }
    sb_free(&names);
}

#define MAX_NEST 64
#define MAX_ARMS 64

/* Walks a file's #if groups; guards those that overlap a transformed kernel. */
static void guard_file(group_ctx *g, unsigned n)
{
    unsigned arms[MAX_NEST][MAX_ARMS], narms[MAX_NEST], depth = 0;
    for (unsigned i = 0; i < n; i++) {
        pp_kind k = g->d[i].kind;
        if (k == PP_IF || k == PP_IFDEF || k == PP_IFNDEF) {
            if (depth < MAX_NEST)
                arms[depth][0] = i, narms[depth] = 1;
            depth++;
        } else if (k != PP_ENDIF) {
            if (depth && depth <= MAX_NEST && narms[depth - 1] < MAX_ARMS)
                arms[depth - 1][narms[depth - 1]++] = i;
        } else if (depth) {
            depth--;
            if (depth < MAX_NEST &&
                overlaps_kernel(g, g->d[arms[depth][0]].begin, g->d[i].end + 1))
                guard_group(g, arms[depth], narms[depth], i);
        }
    }
}


static void add_points(group_ctx *g, const macro_restores *r)
{
    for (unsigned i = 0; i < r->n; i++) {
        VEC_PUSH(g->restored, g->nrestored, g->caprestored, r->v[i].name);
        if (r->v[i].where.file == g->file)
            VEC_PUSH(g->points, g->npoints, g->cappoints, r->v[i].where.offset);
        for (unsigned c = 0; c < r->v[i].nchanges; c++)
            if (r->v[i].changes[c].file == g->file)
                VEC_PUSH(g->points, g->npoints, g->cappoints, r->v[i].changes[c].offset);
    }
}

/*
 * The #if groups that overlap a transformed kernel, and those that hold a definition
 * or a later change of a macro the generated text restores (its text there is the
 * one the set was generated with: another build option must not choose another).
 */
static void guard_groups(macro_deps *md, const plan *pl)
{
    parse_result *pr = pl->an->pr;
    for (unsigned file = 0; file < pr->nfiles; file++) {
        group_ctx g = {md, pl, &pr->files[file], file, 0, NULL, NULL, 0, NULL, 0, 0, NULL, 0, 0};
        for (unsigned i = 0; i < pl->nkernels; i++)
            add_points(&g, &pl->kernels[i].k->restores);
        for (unsigned h = 0; h < pl->an->nhelpers; h++)
            add_points(&g, &pl->an->helpers[h].restores);
        int holds = g.npoints != 0;
        for (unsigned i = 0; i < pl->nkernels; i++)
            holds |= pl->kernels[i].k->range.file == file;
        if (!holds || !pr->files[file].cxfile) {
            free(g.points);
            free(g.restored);
            continue;
        }
        unsigned n = parse_directives(g.f, (pp_directive **)&g.d);
        g.nskipped = parse_skipped_ranges(pr, file, &g.skipped);
        guard_file(&g, n);
        free((void *)g.d);
        free(g.skipped);
        free(g.points);
        free(g.restored);
    }
}

/* ---- values when the set was generated ------------------------------------------ */

/* The replacement text of the definition whose name starts at text[off]. */
static char *definition_value(const src_file *f, unsigned off)
{
    const char *t = f->text;
    unsigned i = off, end;
    while (i < f->len && is_ident(t[i]))
        i++;
    if (i < f->len && t[i] == '(') /* function-like: keep the parameters */
        while (i < f->len && t[i] != ')' && t[i] != '\n')
            i++;
    i += i < f->len && t[i] == ')';
    for (end = i; end < f->len && t[end] != '\n'; end++)
        if (t[end] == '/' && end + 1 < f->len && (t[end + 1] == '/' || t[end + 1] == '*'))
            break;
    while (i < end && isspace((unsigned char)t[i]))
        i++;
    while (end > i && isspace((unsigned char)t[end - 1]))
        end--;
    char *v = xcalloc(end - i + 1, 1);
    memcpy(v, t + i, end - i);
    return v;
}

typedef struct value_ctx {
    macro_deps *md;
    parse_result *pr;
} value_ctx;

static int is_dep(void *ud, const char *name)
{
    value_ctx *v = ud;
    return find_dep(v->md, name, strlen(name)) != NULL;
}

static void definition_found(void *ud, const char *name, const src_pos *p)
{
    value_ctx *v = ud;
    macro_dep *d = find_dep(v->md, name, strlen(name));
    free(d->value); /* the last definition in the text wins */
    d->value = definition_value(&v->pr->files[p->file], p->offset);
}

static void find_values(macro_deps *md, const plan *pl, const char **defines, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const char *eq = strchr(defines[i], '=');
        size_t len = eq ? (size_t)(eq - defines[i]) : strlen(defines[i]);
        macro_dep *d = find_dep(md, defines[i], len);
        if (d) {
            free(d->value);
            d->value = xstrdup(eq ? eq + 1 : "1");
        }
    }
    value_ctx v = {md, pl->an->pr};
    parse_each_macro_definition(pl->an->pr, is_dep, definition_found, &v);
}

/* "FAST undefined, SEL=3": the state of the comma-separated macros in names. */
static void put_state(strbuf *sb, macro_deps *md, const char *names, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && names[e] != ',')
            e++;
        macro_dep *d = find_dep(md, names + i, e - i);
        sb_printf(sb, "%s%.*s", i ? ", " : "", (int)(e - i), names + i);
        if (d && d->value)
            sb_printf(sb, "=%s", d->value[0] ? d->value : "(empty)");
        else
            sb_puts(sb, " undefined");
        i = e + 1;
    }
}

/* Fills each #error line's STATE with the values found. */
static void fill_states(macro_deps *md)
{
    for (unsigned i = 0; i < md->nins; i++) {
        char *t = md->ins[i].text, *st = strstr(t, STATE);
        const char *names = strstr(t, "nplus1-macro: ");
        if (!st || !names)
            continue;
        names += 14;
        strbuf sb;
        sb_init(&sb);
        sb_putn(&sb, t, (size_t)(st - t));
        put_state(&sb, md, names, strcspn(names, ":"));
        sb_puts(&sb, st + strlen(STATE));
        free(t);
        md->ins[i].text = sb_steal(&sb);
    }
}

/* ---- entry ----------------------------------------------------------------- */

static int dep_cmp(const void *a, const void *b)
{
    return strcmp(((const macro_dep *)a)->name, ((const macro_dep *)b)->name);
}

static int insert_cmp(const void *a, const void *b)
{
    const macro_insert *x = a, *y = b;
    if (x->file != y->file)
        return (x->file > y->file) - (x->file < y->file);
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Label identifiers that are no macros (enum constants) are no dependency. */
static void drop_non_macros(macro_deps *md)
{
    unsigned n = 0;
    for (unsigned i = 0; i < md->ndeps; i++) {
        if (md->deps[i].followed && !md->deps[i].value) {
            free(md->deps[i].name);
            continue;
        }
        md->deps[n++] = md->deps[i];
    }
    md->ndeps = n;
}

void macro_deps_find(macro_deps *md, const plan *pl, const char **defines, unsigned ndefines)
{
    memset(md, 0, sizeof *md);
    for (unsigned i = 0; i < pl->nkernels; i++)
        for_each_decision(&pl->kernels[i].k->top, labels_of_decision, md);
    guard_groups(md, pl);
    find_values(md, pl, defines, ndefines);
    fill_states(md);
    drop_non_macros(md);
    if (md->ndeps)
        qsort(md->deps, md->ndeps, sizeof *md->deps, dep_cmp);
    if (md->nins)
        qsort(md->ins, md->nins, sizeof *md->ins, insert_cmp);
}

void macro_deps_free(macro_deps *md)
{
    for (unsigned i = 0; i < md->ndeps; i++) {
        free(md->deps[i].name);
        free(md->deps[i].value);
    }
    free(md->deps);
    for (unsigned i = 0; i < md->nins; i++)
        free(md->ins[i].text);
    free(md->ins);
    memset(md, 0, sizeof *md);
}
