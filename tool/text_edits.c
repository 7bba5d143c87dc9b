/*
 * text_edits.c - splicing the user's text by file offsets: a set of edits
 * (replace [begin, end) with a text), applied in offset order while the
 * text is copied, from the active text (no skipped #if block) when an
 * analysis is given. Leaf bodies, helper copies and the loop shape use it.
 */
#include "emit_int.h"

#include <stdlib.h>

#include "util.h"

/* ---- text edits ---------------------------------------------------------- */

void add_edit(edits *es, unsigned begin, unsigned end, const char *text)
{
    edit e = {begin, end, xstrdup(text)};
    VEC_PUSH(es->v, es->n, es->cap, e);
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    return (x->begin > y->begin) - (x->begin < y->begin);
}

void edits_free(edits *es)
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

/* Appends text[begin, end) with the edits applied (the active text of file, given an). */
void put_edited_in(strbuf *sb, const analysis *an, unsigned file, const char *text,
                   unsigned begin, unsigned end, edits *es)
{
    if (es->n)
        qsort(es->v, es->n, sizeof *es->v, edit_cmp);
    unsigned pos = begin;
    for (unsigned i = 0; i < es->n; i++) {
        const edit *e = &es->v[i];
        if (e->begin < pos || e->end > end)
            continue; /* overlapping edits cannot happen; stay safe */
        put_segment(sb, an, file, text, pos, e->begin);
        sb_puts(sb, e->text);
        pos = e->end;
    }
    put_segment(sb, an, file, text, pos, end);
}

void put_edited(strbuf *sb, const char *text, unsigned begin, unsigned end, edits *es)
{
    put_edited_in(sb, NULL, 0, text, begin, end, es);
}
