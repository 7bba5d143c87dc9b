/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_text.c - the text helpers every emit file uses (a leaf: it calls no
 * other file of the stage): template expansion, the #line directives back to
 * the user's text, which kernels a set carries, kernel names and comment text.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_tile.h"
#include "util.h"

void emit_expand(emitter *e, strbuf *out, const tmpl_file *t, const char *frag,
                 const tmpl_var *vars, unsigned nvars)
{
    if (e->failed)
        return;
    if (tmpl_expand(out, t, frag, vars, nvars, e->err, e->errlen) != 0)
        e->failed = 1;
}

void emit_expand_inline(emitter *e, strbuf *out, const char *frag, const tmpl_var *vars,
                        unsigned nvars)
{
    size_t len = out->len;
    emit_expand(e, out, &e->kt, frag, vars, nvars);
    if (out->len > len)
        emit_text_chomp(out);
}

const char *dispatch_name(dispatch d)
{
    return nplus1rt_dispatch_text(d);
}

const char *emit_line_path(const emitter *e, unsigned file)
{
    return e->opt->no_line ? NULL : e->an->pr->files[file].path;
}

void emit_put_line(strbuf *sb, const emitter *e, unsigned file, unsigned line)
{
    if (!e->opt->no_line)
        emit_put_line_directive(sb, line, e->an->pr->files[file].path);
}

void emit_put_line_back(strbuf *sb, const emitter *e)
{
    if (!e->opt->no_line)
        sb_puts(sb, LINE_BACK "\n");
}

void emit_put_line_back_after_body(strbuf *sb, const emitter *e)
{
    if (!e->opt->no_line)
        sb_puts(sb, "\n" LINE_BACK);
}

/* Strategy tile: the set is the tile kernel alone (no passes, no leaf kernels). */
int emit_tile_only(const kernel_plan *kp)
{
    return kp->strategy == STRATEGY_TILE;
}

/* The tile kernel comes with --strategy tile, and beside the chosen strategy's
 * kernels under --split auto, so that the runtime may time it too. */
int emit_carries_tile(const kernel_plan *kp)
{
    return kp->tile_candidate != AUTO_TILE_NONE;
}

/* "K<suffix>" quoted (NPLUS1RT_SUFFIX_*), or none (NULL in C, null in JSON), in n bytes. */
void emit_quoted_kernel(char *out, size_t n, int present, const char *k, const char *suffix,
                        const char *none)
{
    if (present)
        snprintf(out, n, "\"%s%s\"", k, suffix);
    else
        snprintf(out, n, "%s", none);
}

/* Comment-safe copy of a condition (no "*" "/" sequence). */
char *emit_comment_safe(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r')
            sb_putc(&sb, ' ');
        else if (s[0] == '*' && s[1] == '/')
            sb_puts(&sb, "* ");
        else
            sb_putc(&sb, *s);
    }
    return sb_steal(&sb);
}

/* The first leaf of leaf kernel kn. */
const leaf *emit_kernel_leaf(const kernel_plan *kp, int kn)
{
    for (unsigned l = 0; l < kp->nleaves; l++)
        if (kp->leaves[l].kernel == kn)
            return &kp->leaves[l];
    return &kp->leaves[0];
}

char *emit_merged_condition(const kernel_plan *kp)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "merged: the %u cheap leaves run the original code", kp->nmerged);
    return sb_steal(&sb);
}

void emit_text_chomp(strbuf *sb)
{
    if (sb->len && sb->data[sb->len - 1] == '\n')
        sb->data[--sb->len] = '\0';
}
