/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text_edits.c - splicing the user's text by file offsets: a set of edits
 * (replace [begin, end) with a text), applied in offset order while the
 * text is copied, from the active text (no skipped #if block) when an
 * analysis is given. Leaf bodies, helper copies and the loop shape use it.
 */
#include "emit_int.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- text edits ---------------------------------------------------------- */

void emit_add_edit(edits *es, unsigned begin, unsigned end, const char *text)
{
    edit e = {begin, end, xstrdup(text)};
    VEC_PUSH(es->v, es->n, es->cap, e);
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->begin != y->begin)
        return (x->begin > y->begin) - (x->begin < y->begin);
    return (x->end > y->end) - (x->end < y->end); /* an insertion before a replacement */
}

void emit_edits_free(edits *es)
{
    for (unsigned i = 0; i < es->n; i++)
        free(es->v[i].text);
    free(es->v);
}

/* Appends text[begin, end); from the active text only when an is given. */
static void put_segment(strbuf *sb, const analysis *an, unsigned file, const char *text,
                        unsigned begin, unsigned end)
{
    if (an)
        parse_put_active(an->pr, sb, file, begin, end);
    else
        sb_putn(sb, text + begin, end - begin);
}

static unsigned newlines(const char *s, size_t n)
{
    unsigned k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/*
 * After an edit that changed the number of lines, the user's text goes on
 * at offset at, on line `line` of path: a #line directive says so. Where the
 * line's rest is empty, the text's own newline ends the directive.
 */
static void put_line_after_edit(strbuf *sb, const char *text, unsigned at, unsigned line,
                                const char *path)
{
    sb_putc(sb, '\n');
    if (text[at] != '\n') {
        emit_put_line_directive(sb, line, path);
        return;
    }
    emit_put_line_directive(sb, line + 1, path);
    sb->data[--sb->len] = '\0';
}

/* The line of text[off]: from the file's newline table when text is file's (given an). */
static unsigned line_at(const analysis *an, unsigned file, const char *text, unsigned off)
{
    if (an && an->pr->files[file].text == text)
        return parse_newline_line(an->pr, file, off);
    return emit_text_line_at(text, off);
}

/*
 * Appends text[begin, end) with the edits applied (the active text of file, given an).
 * The line of begin is looked up only when an edit changes the number of lines (20,000
 * helper copies of a 1 MB file each counted it from the file's start: 16 s), and in the
 * file's newline table (10,000 kernels' leaf bodies: 30 s).
 */
void emit_put_edited_in(strbuf *sb, const analysis *an, unsigned file, const char *text,
                        unsigned begin, unsigned end, edits *es)
{
    if (es->n)
        qsort(es->v, es->n, sizeof *es->v, edit_cmp);
    unsigned pos = begin;
    unsigned lines = 0; /* the newlines of text[begin, pos) */
    unsigned first = 0; /* the line of begin; 0: not counted yet */
    for (unsigned i = 0; i < es->n; i++) {
        const edit *e = &es->v[i];
        if (e->begin < pos || e->end > end)
            continue; /* overlapping edits cannot happen; stay safe */
        put_segment(sb, an, file, text, pos, e->begin);
        sb_puts(sb, e->text);
        if (es->line_path) {
            lines += newlines(text + pos, e->end - pos);
            unsigned was = newlines(text + e->begin, e->end - e->begin);
            if (was != newlines(e->text, strlen(e->text))) {
                if (!first)
                    first = line_at(an, file, text, begin);
                put_line_after_edit(sb, text, e->end, first + lines, es->line_path);
            }
        }
        pos = e->end;
    }
    put_segment(sb, an, file, text, pos, end);
}

void emit_put_edited(strbuf *sb, const char *text, unsigned begin, unsigned end, edits *es)
{
    emit_put_edited_in(sb, NULL, 0, text, begin, end, es);
}

/* ---- #line directives ---------------------------------------------------- */

unsigned emit_text_line_at(const char *text, unsigned off)
{
    return 1 + newlines(text, off);
}

void emit_put_line_directive(strbuf *sb, unsigned line, const char *path)
{
    sb_printf(sb, "#line %u \"", line);
    sb_put_c_string(sb, path, strlen(path));
    sb_puts(sb, "\"\n");
}

char *emit_text_lines_resolved(char *text, const char *generated)
{
    static const char back[] = LINE_BACK;
    strbuf out;
    sb_init(&out);
    unsigned line = 1;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == sizeof back - 1 && !memcmp(p, back, len)) {
            emit_put_line_directive(&out, line + 1, generated);
            out.len--; /* its newline is the text's */
            out.data[out.len] = '\0';
        } else {
            sb_putn(&out, p, len);
        }
        if (!nl)
            break;
        sb_putc(&out, '\n');
        line++;
        p = nl + 1;
    }
    free(text);
    return out.data ? sb_steal(&out) : xstrdup("");
}
