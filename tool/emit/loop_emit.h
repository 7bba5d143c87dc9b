/*
 * loop_emit.h - part of the emit stage: the text of a regrouped loop under
 * --strategy tile (loop.h; docs/design.md, "Loops").
 */
#ifndef NPLUS1_LOOP_EMIT_H
#define NPLUS1_LOOP_EMIT_H

#include "plan.h"
#include "template.h"

/* Appends template fragment frag with vars; 0, or -1 (the caller keeps the message). */
typedef int (*loop_expand_fn)(void *ud, strbuf *out, const char *frag, const tmpl_var *vars,
                              unsigned nvars);

/* Appends kp's loop set (kp->loop.active): the loop functions and the tile kernel. */
void loop_emit_set(const analysis *an, const kernel_plan *kp, strbuf *sb, loop_expand_fn expand,
                   void *ud);

#endif
