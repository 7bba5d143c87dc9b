/* SPDX-License-Identifier: Apache-2.0 */
/*
 * macro_restore.c - the macros a kernel's generated text must get back
 * (macro_restore.h): the definitions and expansions of the detailed
 * preprocessing record, the #undef lines of the kernels' files from their tokens.
 */
#include "macro_restore.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A #define (from the record: only those the preprocessor saw) or an #undef (from the
 * tokens, those in skipped blocks left out) of a user file. */
typedef struct pp_event {
    char *name;
    src_pos at;               /* a #define: its name; an #undef: its '#' */
    unsigned end;             /* a #define: the end of its last token */
    int define;
    int cmdline;              /* a -D: at.file is CMDLINE_FILE, no text */
    char *value;              /* a -D: its replacement text, spelled from its tokens (after
                               * a function-like one's parameters); NULL when it has none */
} pp_event;

#define CMDLINE_FILE 0xffffffffu /* no user file: the command line's -D */

/* A macro expanded in a user file's text, and the definition it expanded (events[]). */
typedef struct pp_expansion {
    unsigned file, offset;
    int def;
} pp_expansion;

typedef struct pp_record {
    parse_result *pr;
    pp_event *ev;             /* the #defines in the preprocessor's order, then the #undefs */
    unsigned nev, capev;
    pp_expansion *ex;
    unsigned nex, capex;
} pp_record;

/* ---- the record ------------------------------------------------------------- */

static int user_location(parse_result *pr, CXSourceLocation loc, src_pos *p)
{
    return !clang_Location_isInSystemHeader(loc) && parse_resolve(pr, loc, p) == 0;
}

static int find_define(const pp_record *r, unsigned file, unsigned offset)
{
    for (unsigned i = r->nev; i-- > 0;)
        if (r->ev[i].define && r->ev[i].at.file == file && r->ev[i].at.offset == offset)
            return (int)i;
    return -1;
}

static void add_define(pp_record *r, CXCursor c)
{
    src_pos at, end;
    CXSourceRange ext = clang_getCursorExtent(c);
    if (!user_location(r->pr, clang_getCursorLocation(c), &at) ||
        parse_resolve(r->pr, clang_getRangeEnd(ext), &end) != 0 || end.file != at.file ||
        end.offset < at.offset)
        return;
    CXString s = clang_getCursorSpelling(c);
    pp_event e = {xstrdup(clang_getCString(s)), at, end.offset, 1, 0, NULL};
    clang_disposeString(s);
    VEC_PUSH(r->ev, r->nev, r->capev, e);
}

/* Is the macro definition d a -D of the command line? */
static int from_command_line(CXCursor d)
{
    CXString file;
    unsigned line, col;
    clang_getPresumedLocation(clang_getCursorLocation(d), &file, &line, &col);
    int yes = !strcmp(clang_getCString(file), "<command line>");
    clang_disposeString(file);
    return yes;
}

/*
 * The replacement text of the -D definition d, its tokens spelled one after the other (a
 * function-like macro's parameters left out), or NULL: what the macros it names are
 * followed from (add_nested), as a file's #define's text is.
 */
static char *command_line_value(pp_record *r, CXCursor d)
{
    CXToken *tok = NULL;
    unsigned ntok = 0, i = 1;
    clang_tokenize(r->pr->tu, clang_getCursorExtent(d), &tok, &ntok);
    if (ntok > 1 && clang_Cursor_isMacroFunctionLike(d)) { /* past the parameters */
        while (i < ntok) {
            CXString t = clang_getTokenSpelling(r->pr->tu, tok[i++]);
            int close = !strcmp(clang_getCString(t), ")");
            clang_disposeString(t);
            if (close)
                break;
        }
    }
    char *value = NULL;
    size_t len = 0;
    for (; i < ntok; i++) {
        CXString t = clang_getTokenSpelling(r->pr->tu, tok[i]);
        const char *sp = clang_getCString(t);
        size_t n = strlen(sp);
        value = xrealloc(value, len + n + 2);
        memcpy(value + len, sp, n);
        len += n;
        value[len++] = ' ';
        value[len] = '\0';
        clang_disposeString(t);
    }
    if (tok)
        clang_disposeTokens(r->pr->tu, tok, ntok);
    return value;
}

/* The event of the -D that defines name (one a name, made at its first expansion). */
static int command_line_define(pp_record *r, CXCursor d)
{
    CXString s = clang_getCursorSpelling(d);
    const char *name = clang_getCString(s);
    int found = -1;
    for (unsigned i = 0; i < r->nev && found < 0; i++)
        if (r->ev[i].cmdline && !strcmp(r->ev[i].name, name))
            found = (int)i;
    if (found < 0) {
        pp_event e = {xstrdup(name), {CMDLINE_FILE, 0, 0, 0}, 0, 1, 1, command_line_value(r, d)};
        VEC_PUSH(r->ev, r->nev, r->capev, e);
        found = (int)r->nev - 1;
    }
    clang_disposeString(s);
    return found;
}

static void add_expansion(pp_record *r, CXCursor c)
{
    src_pos at, def;
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_MacroDefinition ||
        !user_location(r->pr, clang_getCursorLocation(c), &at))
        return;
    if (!user_location(r->pr, clang_getCursorLocation(d), &def)) {
        if (!from_command_line(d))
            return; /* a builtin or system macro: never in the text after the kernel */
        pp_expansion x = {at.file, at.offset, command_line_define(r, d)};
        VEC_PUSH(r->ex, r->nex, r->capex, x);
        return;
    }
    pp_expansion x = {at.file, at.offset, find_define(r, def.file, def.offset)};
    if (x.def >= 0)
        VEC_PUSH(r->ex, r->nex, r->capex, x);
}

static enum CXChildVisitResult record_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_MacroDefinition && from_command_line(c))
        command_line_define(data, c); /* each -D, so that another -D's value finds it */
    else if (clang_getCursorKind(c) == CXCursor_MacroDefinition)
        add_define(data, c);
    else if (clang_getCursorKind(c) == CXCursor_MacroExpansion)
        add_expansion(data, c);
    return CXChildVisit_Continue;
}

static int in_skipped(const unsigned *sk, unsigned nsk, unsigned off)
{
    for (unsigned i = 0; i < nsk; i++)
        if (sk[2 * i] <= off && off < sk[2 * i + 1])
            return 1;
    return 0;
}

/* Is text[off] the first non-blank character of its line? */
static int starts_line(const src_file *f, unsigned off)
{
    while (off > 0 && (f->text[off - 1] == ' ' || f->text[off - 1] == '\t'))
        off--;
    return off == 0 || f->text[off - 1] == '\n';
}

static unsigned token_offset(CXTranslationUnit tu, CXToken t)
{
    unsigned off;
    clang_getFileLocation(clang_getTokenLocation(tu, t), NULL, NULL, NULL, &off);
    return off;
}

static int token_is(CXTranslationUnit tu, CXToken t, CXTokenKind kind, const char *s)
{
    if (clang_getTokenKind(t) != kind)
        return 0;
    CXString sp = clang_getTokenSpelling(tu, t);
    int same = !s || !strcmp(clang_getCString(sp), s);
    clang_disposeString(sp);
    return same;
}

/* The #undef lines of files[file] that the preprocessor saw. */
static void add_undefs(pp_record *r, unsigned file)
{
    parse_result *pr = r->pr;
    const src_file *f = &pr->files[file];
    CXSourceRange all = clang_getRange(clang_getLocationForOffset(pr->tu, f->cxfile, 0),
                                       clang_getLocationForOffset(pr->tu, f->cxfile,
                                                                  (unsigned)f->len));
    CXToken *tok = NULL;
    unsigned ntok = 0, *sk = NULL;
    clang_tokenize(pr->tu, all, &tok, &ntok);
    unsigned nsk = parse_skipped_ranges(pr, file, &sk);
    for (unsigned i = 0; i + 2 < ntok; i++) {
        if (!token_is(pr->tu, tok[i], CXToken_Punctuation, "#") ||
            !token_is(pr->tu, tok[i + 1], CXToken_Identifier, "undef") ||
            !token_is(pr->tu, tok[i + 2], CXToken_Identifier, NULL))
            continue;
        unsigned off = token_offset(pr->tu, tok[i]);
        if (!starts_line(f, off) || in_skipped(sk, nsk, off))
            continue;
        CXString s = clang_getTokenSpelling(pr->tu, tok[i + 2]);
        pp_event e = {xstrdup(clang_getCString(s)), {file, off, 0, 0}, off, 0, 0, NULL};
        clang_disposeString(s);
        VEC_PUSH(r->ev, r->nev, r->capev, e);
    }
    clang_disposeTokens(pr->tu, tok, ntok);
    free(sk);
}

static void record_free(pp_record *r)
{
    for (unsigned i = 0; i < r->nev; i++) {
        free(r->ev[i].name);
        free(r->ev[i].value);
    }
    free(r->ev);
    free(r->ex);
}

/* ---- one kernel's (or helper's) restores --------------------------------------- */

/* The #define in force for name at (file, offset): the last event of file before it, or
 * else the last definition elsewhere (a header). -1: none (undefined there). */
static int state_at(const pp_record *r, const char *name, unsigned file, unsigned offset)
{
    int best = -1, other = -1;
    for (unsigned i = 0; i < r->nev; i++) {
        const pp_event *e = &r->ev[i];
        if (strcmp(e->name, name) != 0)
            continue;
        if (e->at.file != file) {
            other = e->define ? (int)i : other;
            continue;
        }
        if (e->at.offset < offset && (best < 0 || r->ev[best].at.offset < e->at.offset))
            best = (int)i;
    }
    if (best >= 0)
        return r->ev[best].define ? best : -1;
    return other;
}

typedef struct use_list {
    int *def;                 /* events[] of the definitions used, each name once */
    unsigned n, cap;
} use_list;

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void add_use(const pp_record *r, use_list *u, const src_range *k, int def);

/* The macros text[i..end) names (those defined at the kernel k), as uses too. */
static void add_names(const pp_record *r, use_list *u, const src_range *k, const char *text,
                      unsigned i, unsigned end)
{
    while (i < end) {
        if (text[i] == '"' || text[i] == '\'') { /* a literal names nothing */
            char q = text[i++];
            while (i < end && text[i] != q)
                i += text[i] == '\\' ? 2 : 1;
            i++;
            continue;
        }
        if (!is_ident(text[i]) || isdigit((unsigned char)text[i])) {
            while (++i < end && is_ident(text[i]) && is_ident(text[i - 1]))
                ;
            continue;
        }
        unsigned b = i;
        while (i < end && is_ident(text[i]))
            i++;
        char *name = xstrndup(text + b, i - b);
        int def = state_at(r, name, k->file, k->begin);
        free(name);
        if (def >= 0)
            add_use(r, u, k, def);
    }
}

/* The macros def's replacement text names (those defined at the kernel), as uses too: a
 * #define's text in its file, a -D's value (-DSCALE=GAIN follows GAIN). */
static void add_nested(const pp_record *r, use_list *u, const src_range *k, const pp_event *d)
{
    if (d->cmdline) {
        if (d->value)
            add_names(r, u, k, d->value, 0, (unsigned)strlen(d->value));
        return;
    }
    const src_file *f = &r->pr->files[d->at.file];
    unsigned i = d->at.offset + (unsigned)strlen(d->name);
    if (i < d->end && f->text[i] == '(') /* function-like: past the parameters */
        while (i < d->end && f->text[i] != ')')
            i++;
    add_names(r, u, k, f->text, i, d->end);
}

static void add_use(const pp_record *r, use_list *u, const src_range *k, int def)
{
    for (unsigned i = 0; i < u->n; i++)
        if (!strcmp(r->ev[u->def[i]].name, r->ev[def].name))
            return;
    VEC_PUSH(u->def, u->n, u->cap, def);
    add_nested(r, u, k, &r->ev[def]);
}

static char *define_text(const pp_record *r, const pp_event *d)
{
    return xstrndup(r->pr->files[d->at.file].text + d->at.offset, d->end - d->at.offset);
}

static int change_cmp(const void *a, const void *b)
{
    const src_pos *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* The restore for the definition def if its name changes after k in k's file. */
static void add_restore(const pp_record *r, macro_restores *out, const src_range *k, int def)
{
    const pp_event *d = &r->ev[def];
    macro_restore m = {0};
    unsigned cap = 0;
    for (unsigned i = 0; i < r->nev; i++) {
        const pp_event *e = &r->ev[i];
        if (e->at.file == k->file && e->at.offset >= k->end && !strcmp(e->name, d->name))
            VEC_PUSH(m.changes, m.nchanges, cap, e->at);
    }
    if (!m.nchanges)
        return;
    qsort(m.changes, m.nchanges, sizeof *m.changes, change_cmp);
    const src_pos *last = &m.changes[m.nchanges - 1];
    int after = -1;
    for (unsigned i = 0; i < r->nev; i++)
        if (r->ev[i].define && r->ev[i].at.file == last->file &&
            r->ev[i].at.offset == last->offset)
            after = (int)i;
    m.name = xstrdup(d->name);
    m.cmdline = d->cmdline;
    m.at = d->cmdline ? NULL : define_text(r, d);
    m.after = after >= 0 ? define_text(r, &r->ev[after]) : NULL;
    m.where = d->at;
    VEC_PUSH(out->v, out->n, out->cap, m);
}

static void restores_of(const pp_record *r, const src_range *k, macro_restores *out)
{
    use_list u = {0};
    for (unsigned i = 0; i < r->nex; i++) {
        const pp_expansion *x = &r->ex[i];
        if (x->file == k->file && k->begin <= x->offset && x->offset < k->end)
            add_use(r, &u, k, x->def);
    }
    for (unsigned i = 0; i < u.n; i++)
        add_restore(r, out, k, u.def[i]);
    free(u.def);
}

/* ---- entry ------------------------------------------------------------------ */

static void mark_file(unsigned char *seen, unsigned nfiles, const src_range *k)
{
    if (k->file < nfiles)
        seen[k->file] = 1;
}

void analyze_macro_restores(analysis *an)
{
    pp_record r = {an->pr, NULL, 0, 0, NULL, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(an->pr->tu), record_cb, &r);
    unsigned nfiles = an->pr->nfiles;
    unsigned char *seen = xcalloc(nfiles ? nfiles : 1, 1);
    for (unsigned k = 0; k < an->nkernels; k++)
        mark_file(seen, nfiles, &an->kernels[k].range);
    for (unsigned h = 0; h < an->nhelpers; h++)
        mark_file(seen, nfiles, &an->helpers[h].range);
    for (unsigned file = 0; file < nfiles; file++)
        if (seen[file] && an->pr->files[file].cxfile)
            add_undefs(&r, file);
    free(seen);
    for (unsigned k = 0; k < an->nkernels; k++)
        restores_of(&r, &an->kernels[k].range, &an->kernels[k].restores);
    for (unsigned h = 0; h < an->nhelpers; h++)
        restores_of(&r, &an->helpers[h].range, &an->helpers[h].restores);
    record_free(&r);
}

void analyze_macro_restores_free(macro_restores *r)
{
    for (unsigned i = 0; i < r->n; i++) {
        free(r->v[i].name);
        free(r->v[i].at);
        free(r->v[i].after);
        free(r->v[i].changes);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}
